"""The rule clauses of the spec pages: a `### <rule-id> — <title>` heading followed by a `**Status:**` line.

The status is `testable`, `not machine-testable: <reason>` or `deferred: <reason>`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from gammonspec.model.rulesets import SPEC_DIR, registry
from gammonspec.model.yamlio import DataError

HEADING = re.compile(r"^### (?P<id>[a-z]+(?:\.[a-z0-9-]+)+) — (?P<title>.+)$")  # a rule clause: ID and title
_SOURCE = "**Source:** "
_CITED = re.compile(r"`(?P<id>[a-z-]+)`(?:, (?P<place>.+))?$")
_STATUS = re.compile(r"^\*\*Status:\*\* (?P<status>testable|not machine-testable|deferred)(?:: (?P<reason>.+))?$")


@dataclass(frozen=True)
class Clause:
    id: str
    title: str
    status: str  # testable | not machine-testable | deferred
    reason: str
    path: Path
    line: int
    cites: tuple[tuple[str, str], ...] = ()  # the **Source:** line: (source ID, the place in it, "" by name alone)


def cites(line: str) -> tuple[tuple[str, str], ...]:
    """The sources a `**Source:**` line cites, each with its place (a section, a paragraph), "" when by name alone:
    `narde-guide`, "The head rule"; `narde-variant`."""
    parts = line.removeprefix(_SOURCE).strip().rstrip(".").split("; ")
    found = (_CITED.match(part.strip()) for part in parts)
    return tuple((m["id"], m["place"] or "") for m in found if m)


def parse_page(path: Path) -> list[Clause]:
    found: list[Clause] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        heading = HEADING.match(line)
        if not heading:
            continue
        status = next((m for m in (_STATUS.match(s) for s in lines[i + 1 : i + 6]) if m), None)
        if status is None:
            raise DataError(
                path, i + 1, f"clause {heading['id']} has no '**Status:**' line within 5 lines of its heading"
            )
        if status["status"] != "testable" and not status["reason"]:
            raise DataError(path, i + 1, f"clause {heading['id']} is {status['status']} but gives no reason")
        source = next((s for s in lines[i + 1 : i + 6] if s.startswith(_SOURCE)), "")
        found.append(
            Clause(
                heading["id"], heading["title"], status["status"], status["reason"] or "", path, i + 1, cites(source)
            )
        )
    return found


@cache
def clauses() -> dict[str, Clause]:
    """Every clause of every spec page, by rule ID; a duplicate ID is an error."""
    result: dict[str, Clause] = {}
    for path in sorted(SPEC_DIR.glob("*.md")):
        for clause in parse_page(path):
            if clause.id in result:
                first = result[clause.id]
                raise DataError(
                    path, clause.line, f"duplicate rule ID {clause.id} (first at {first.path}:{first.line})"
                )
            result[clause.id] = clause
    return result


def switch_clauses(switch: str, value: str, game: str) -> list[str]:
    """The clauses of `game`'s spec page that state or decide a switch value (switches.yaml `clauses`)."""
    listed = registry()["switches"][switch].get("clauses", {}).get(value, [])
    return [rule for rule in listed if rule in clauses() and clauses()[rule].path.stem == game]


def option_clauses(option: str, game: str) -> list[str]:
    """The clauses of `game`'s spec page named for an option (bg.option.beavers, nd.score.coke-value)."""
    return [rule for rule, c in clauses().items() if c.path.stem == game and rule.rsplit(".", 1)[-1] == option]


def game_clauses(game: str) -> tuple[str, ...]:
    """The rule IDs of one game's clauses, in the order of its page (spec/<game>.md): the only IDs a finding about
    an engine of that game may cite."""
    return tuple(c.id for c in clauses().values() if c.path.stem == game)
