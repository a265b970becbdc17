"""What `gammonspec replay` found, and how it is reported: findings, per-transcript counts, text and JSON."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from gammonspec.conformance.harness import report_files
from gammonspec.model import __version__
from gammonspec.model.interface import EngineInfo
from gammonspec.model.yamlio import DataError


@dataclass(frozen=True)
class Finding:
    """An error (the transcript breaks a rule as the engine reads it) or a note (reported, not judged)."""

    level: str  # "error" or "note"
    path: str
    line: int | None
    game: int
    move: int | None
    message: str
    board: str | None = None
    xgid: str | None = None
    nearest: tuple[str, ...] = ()

    def text(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        at = f"game {self.game}" + (f", move {self.move}" if self.move else "")
        lines = [f"{where}: {at}: {self.message}"]
        if self.board:
            lines += ["    " + row for row in self.board.splitlines()]
        if self.xgid:
            lines.append(f"    {self.xgid}")
        if self.nearest:
            lines.append(f"    nearest legal plays: {', '.join(self.nearest)}")
        return "\n".join(lines)


@dataclass
class Replayed:
    path: str
    format: str
    ruleset: str
    games: int = 0  # read: every game the transcript holds
    skipped: int = 0  # with a line that cannot be read
    judged: int = 0  # replayed to its end and its recorded result compared with the engine's
    cut_short: int = 0  # the record ends before the game does
    plays: int = 0
    cube_actions: int = 0
    findings: list[Finding] = field(default_factory=list)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.level == "error"]


def _count(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def counts(r: Replayed) -> str:
    """A transcript's games read, skipped and judged, and those whose record ends before the game does."""
    said = f"{_count(r.games, 'game')} read, {r.skipped} skipped, {r.judged} judged"
    return said + (f", {r.cut_short} cut short (the record ends before the game does)" if r.cut_short else "")


def text(results: list[Replayed], info: EngineInfo, seconds: float, quiet: bool) -> str:
    lines = []
    for r in results:
        lines += [f.text() for f in (r.errors if quiet else r.findings)]
        lines.append(
            f"{r.path} as {r.ruleset}: {counts(r)}; {_count(r.plays, 'play')},"
            f" {_count(r.cube_actions, 'cube answer')} replayed: {_count(len(r.errors), 'error')}"
        )
    games, skipped, cut, plays, answers, errors = (
        sum(n)
        for n in zip(*((r.games, r.skipped, r.cut_short, r.plays, r.cube_actions, len(r.errors)) for r in results))
    )
    more = (f", {skipped} skipped" if skipped else "") + (f", {cut} cut short" if cut else "")
    lines.append(
        f"{info.name} {info.version}: {_count(len(results), 'transcript')} replayed, {_count(games, 'game')}{more},"
        f" {_count(plays, 'play')}, {_count(answers, 'cube answer')} in {seconds:.1f} s: {_count(errors, 'error')}"
    )
    return "\n".join(lines)


def to_json(
    results: list[Replayed], info: EngineInfo | None, seconds: float, refused: Sequence[DataError] = ()
) -> dict[str, object]:
    """The report: each transcript replayed, each input refused (file, line, why), and the totals; `info` None
    when no engine was asked (every input refused before)."""
    return {
        "suite": __version__,
        "engine": None if info is None else {"name": info.name, "version": info.version},
        "seconds": round(seconds, 3),
        "transcripts": [
            {
                "path": r.path,
                "format": r.format,
                "ruleset": r.ruleset,
                "games": r.games,
                "skipped": r.skipped,
                "judged": r.judged,
                "cut_short": r.cut_short,
                "plays": r.plays,
                "cube_actions": r.cube_actions,
                "errors": [asdict(f) for f in r.findings if f.level == "error"],
                "notes": [asdict(f) for f in r.findings if f.level == "note"],
            }
            for r in results
        ],
        "refused": [{"path": str(e.path), "line": e.line, "message": e.message} for e in refused],
        "summary": {
            "transcripts": len(results),
            "refused": len(refused),
            "games": sum(r.games for r in results),
            "skipped": sum(r.skipped for r in results),
            "cut_short": sum(r.cut_short for r in results),
            "plays": sum(r.plays for r in results),
            "errors": sum(len(r.errors) for r in results),
        },
    }


def write_json(
    path: Path | None, results: list[Replayed], refused: Sequence[DataError], info: EngineInfo | None, seconds: float
) -> None:
    """The JSON report, when asked for: every input, replayed or refused (written even when every one is refused)."""
    if path is not None:
        report_files.write(path, json.dumps(to_json(results, info, seconds, refused), indent=2) + "\n")
