"""The fault corpus: kinds of bad input, misbehaving engines and CLI misuse, each with its exact error.

A `Fault` says how to provoke one kind of fault (the `gammonspec` argv, files written into a fresh
folder first) and what a user must see: the exact first line of the error and the documented exit
status (0 pass, 1 failures, 2 bad input or usage).  `check` runs the command as a subprocess (no
shell, a generous time limit: a hang fails, speed never does) and asserts that, plus: no Python
traceback anywhere in the output, no line of gammonspec's own over MAX_MESSAGE characters (counted with
the folders above as their placeholders, so that the length of a path here does not count), and a run
that executed no case never exits 0.

Entries live in data modules, one per area: `faults_cases.py` (case files, loader, CLI arguments)
and `faults_engines.py` (engine processes, in-process engines, reports, the pytest plugin).
In argv, file contents and expected lines, `{tmp}` is the folder the files are written to (also the
working directory), `{python}` this interpreter, `{engines}` the folder of the fake engines and `{protocol}` the runner's
protocol version.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from gammonspec.model import PROTOCOL_VERSION
from gammonspec.model.terminal import MAX_MESSAGE

CLASSES = ("hang", "traceback", "lost-result", "unclear-message", "protocol-doc", "cli-misuse")
ENGINES = Path(__file__).resolve().parent / "engines"
TIME_LIMIT = 300.0  # seconds: only a hang gets near it
MAX_STDERR = 20_000  # characters: an error is a line, never an expanded document
_PROGRAMS = {
    "gammonspec": [str(Path(sys.executable).with_name("gammonspec"))],
    "pytest": [sys.executable, "-m", "pytest", "-p", "no:cacheprovider"],
}
_RAN = re.compile(r"\b(\d+) (?:passed|xfailed)\b")


@dataclass(frozen=True)
class Fault:
    fault_class: str  # one of CLASSES: what went wrong before the fix
    kind: str  # a short unique name, the test id
    argv: tuple[str, ...]  # arguments after the program name
    first_line: str  # the exact first line of the error (on `stream`)
    status: int  # the documented exit status
    files: dict[str, str | bytes] = field(default_factory=dict)  # relative path -> content, written first
    program: str = "gammonspec"  # or "pytest" (the plugin)
    stream: str = "stderr"  # where the error's first line is: stderr or stdout

    def __post_init__(self) -> None:
        assert self.fault_class in CLASSES, (self.kind, self.fault_class)
        assert self.stream in ("stderr", "stdout"), self.kind
        assert self.program in _PROGRAMS, self.kind


@dataclass(frozen=True)
class Result:
    status: int | None  # None: the time limit ran out
    stdout: str
    stderr: str


def _fill(text: str, tmp: Path) -> str:
    return (
        text.replace("{tmp}", str(tmp))
        .replace("{python}", sys.executable)
        .replace("{engines}", str(ENGINES))
        .replace("{protocol}", PROTOCOL_VERSION)
    )


def _unfill(text: str, tmp: Path) -> str:
    """`text` with this machine's folders as the placeholders again: a line's length as the corpus has it."""
    return text.replace(str(tmp), "{tmp}").replace(sys.executable, "{python}").replace(str(ENGINES), "{engines}")


def provoke(fault: Fault, tmp: Path) -> Result:
    """Write the fault's files into `tmp` and run its command there."""
    for name, content in fault.files.items():
        path = tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(_fill(content, tmp), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ENGINES), os.environ.get("PYTHONPATH", "")])}
    env.pop("COLUMNS", None)
    argv = [*_PROGRAMS[fault.program], *(_fill(a, tmp) for a in fault.argv)]
    try:
        done = subprocess.run(
            argv, cwd=tmp, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=TIME_LIMIT, check=False
        )
    except subprocess.TimeoutExpired as exc:
        return Result(None, (exc.stdout or b"").decode(errors="replace"), (exc.stderr or b"").decode(errors="replace"))
    return Result(done.returncode, done.stdout.decode(errors="replace"), done.stderr.decode(errors="replace"))


def check(fault: Fault, result: Result, tmp: Path) -> None:
    """Assert what the user sees: the documented status, the exact first line, no traceback, no empty green run."""
    shown = f"{fault.kind}: status {result.status}\n--- stdout\n{result.stdout[-3000:]}\n--- stderr\n{result.stderr[-3000:]}"
    assert result.status is not None, f"hang: no end within {TIME_LIMIT} s\n{shown}"
    for name, text in (("stdout", result.stdout), ("stderr", result.stderr)):
        assert "Traceback" not in text, f"a traceback on {name}\n{shown}"
    assert len(result.stderr) <= MAX_STDERR, f"stderr of {len(result.stderr)} characters\n{shown}"
    if fault.program == "gammonspec" and fault.argv[:1] == ("run",) and result.status == 0:
        assert sum(map(int, _RAN.findall(result.stdout))) > 0, f"a green run that ran no case\n{shown}"
    own = [_unfill(line, tmp) for line in result.stderr.splitlines() if line.startswith("gammonspec: ")]
    long = [line for line in own if len(line) > MAX_MESSAGE]
    assert not long, f"a line over {MAX_MESSAGE} characters (its folders as placeholders): {long[0]}\n{shown}"
    lines = (result.stderr if fault.stream == "stderr" else result.stdout).splitlines()
    first = lines[0] if lines else "(nothing)"
    expected = _fill(fault.first_line, tmp)
    assert first == expected, f"first {fault.stream} line:\n  {first}\nexpected:\n  {expected}\n{shown}"
    assert result.status == fault.status, f"exit status {result.status}, documented {fault.status}\n{shown}"


def corpus() -> list[Fault]:
    """Every entry of every area, checked for unique kinds."""
    import faults_cases
    import faults_engines

    faults = [*faults_cases.FAULTS, *faults_engines.FAULTS]
    kinds = [f.kind for f in faults]
    duplicates = sorted({k for k in kinds if kinds.count(k) > 1})
    assert not duplicates, f"duplicate fault kinds: {duplicates}"
    return faults
