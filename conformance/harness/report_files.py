"""Report files: checked before the work, written whole, and never left stale by an interrupted run.

Every command that writes a report (`--json`, `--junit`, `export --json`, `report --out`) claims its
path before it starts and writes it with `write` when done. A claimed path:
- is a regular file or does not exist yet (a FIFO, a device or a socket is refused, since a report
  written into it is lost or blocks), or the process's own standard output (`/dev/stdout`), which gets
  the report as it is written; a symlink is followed, so its target gets the report;
- gets the mode the user's umask gives a new file, whichever command wrote it;
- if the run is interrupted before it is written, an older file there is removed (`abandon`), so that
  a cancelled CI job never leaves an earlier green report that reads as this run's.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

from gammonspec.model.yamlio import DataError

_claimed: dict[Path, bool] = {}  # resolved path -> written by this process


def claim(option: str, path: Path | None) -> Path | None:
    """The path a report will be written to (symlinks followed), or one line saying why it cannot be.

    The process's own standard output (`--json /dev/stdout`) takes the report as it is written."""
    if path is None:
        return None
    if is_stdout(path):
        return path
    try:
        target = path.resolve()
    except (OSError, RuntimeError):  # a symlink loop (RuntimeError before Python 3.13)
        raise DataError(path, None, f"{option}: a symbolic link that leads back to itself (a loop)") from None
    problem = _problem(target)
    if problem:
        raise DataError(path, None, f"{option}: {problem}")
    _claimed.setdefault(target, False)
    return target


def _real(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a loop: claim says so
        return path


def apart(written: Iterable[tuple[str, Path | None]], read: Iterable[tuple[str, Path, tuple[str, ...]]]) -> None:
    """No report is written over what the command reads: each of `written` (option, path) is neither a file of
    `read` (option, path, the suffixes a folder given there is searched for) nor such a file in such a folder,
    nor another report's path."""
    inputs = [(option, _real(path), suffixes) for option, path, suffixes in read]
    taken: list[tuple[str, Path, tuple[str, ...]]] = []
    for option, path in written:
        if path is None or is_stdout(path):
            continue
        target = _real(path)
        for other, source, suffixes in inputs + taken:
            inside = source.is_dir() and source in target.parents and target.suffix in suffixes
            if target == source or inside:
                what = "the same file as" if target == source else "a file the command reads in"
                raise DataError(path, None, f"{option}: {what} {other}: a command never writes over what it reads")
        taken.append((option, target, ()))


def is_stdout(path: Path) -> bool:
    """Whether `path` names this process's standard output (/dev/stdout, /proc/self/fd/1 or what it points to)."""
    try:
        return os.path.samestat(os.stat(path), os.fstat(sys.stdout.fileno()))
    except (OSError, ValueError, AttributeError):
        return False


def _problem(target: Path) -> str | None:
    folder = target.parent
    if not folder.is_dir():
        return f"no folder {folder}"
    if target.is_dir():
        return "is a folder"
    if target.exists() and not stat.S_ISREG(target.stat().st_mode):
        return "is not a regular file (a FIFO, device or socket cannot hold a report)"
    if target.exists() and not os.access(target, os.W_OK):
        return "cannot be written"
    try:  # the folder takes the temporary file the report is first written to
        fd, probe = tempfile.mkstemp(prefix=f".{target.name}.", dir=folder)
    except OSError:
        return "cannot be written"
    os.close(fd)
    os.unlink(probe)
    return None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write(path: Path, data: str) -> None:
    """Write the whole file or nothing: a temporary file beside it, given the umask's mode, renamed over it (or,
    for standard output, the report at once)."""
    if is_stdout(path):
        sys.stdout.write(data)
        sys.stdout.flush()
        return
    target = path.resolve()
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(data)
        os.replace(tmp, target)
    except BaseException:
        os.unlink(tmp)
        raise
    _claimed[target] = True


def pending() -> list[Path]:
    """The claimed reports not yet written."""
    return [target for target, written in _claimed.items() if not written]


def abandon() -> list[Path]:
    """After an interruption: remove each claimed report this process did not write; the paths removed."""
    removed = []
    for target, written in _claimed.items():
        if not written and target.is_file():
            target.unlink()
            removed.append(target)
    _claimed.clear()
    return removed


def release() -> None:
    """Forget the claims of a finished command (one process may run several, as the tests do)."""
    _claimed.clear()
