"""Rule clauses of the spec pages and the cases that pin them (`gammonspec coverage`).

A clause is a `### <rule-id> — <title>` heading in spec/*.md followed by a
`**Status:**` line: `testable`, `not machine-testable: <reason>` or `deferred: <reason>`.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .cases import Case
from .rulesets import SPEC_DIR
from .yamlio import DataError

MIN_CASES = 2  # every testable clause is pinned by at least this many cases
HEADING = re.compile(r"^### (?P<id>[a-z]+(?:\.[a-z0-9-]+)+) — (?P<title>.+)$")  # a rule clause: ID and title
_STATUS = re.compile(r"^\*\*Status:\*\* (?P<status>testable|not machine-testable|deferred)(?:: (?P<reason>.+))?$")


@dataclass(frozen=True)
class Clause:
    id: str
    title: str
    status: str  # testable | not machine-testable | deferred
    reason: str
    path: Path
    line: int


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
        found.append(Clause(heading["id"], heading["title"], status["status"], status["reason"] or "", path, i + 1))
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


def directness(case: Case, rule: str) -> tuple[int, int]:
    """How directly a case shows a rule, lowest first: where the rule stands in its list (first: the rule the
    case is about), then how many rules the case names (fewer: the rule less mixed with others)."""
    return case.rule_ids.index(rule), len(case.rule_ids)


def cases_by_rule(cases: tuple[Case, ...]) -> dict[str, list[Case]]:
    """Each rule's cases, those that show it most directly first (`directness`), else in suite order."""
    by_rule: dict[str, list[Case]] = defaultdict(list)
    for case in cases:
        for rule in case.rule_ids:
            by_rule[rule].append(case)
    for rule, listed in by_rule.items():
        listed.sort(key=lambda case: directness(case, rule))
    return by_rule


def unknown_rules(cases: tuple[Case, ...]) -> list[DataError]:
    """A located error for each rule ID a case names that no spec page defines."""
    known = clauses()
    return [
        DataError(case.path, case.line, f"case {case.id} names unknown rule {rule}")
        for case in cases
        for rule in case.rule_ids
        if rule not in known
    ]


def problems(cases: tuple[Case, ...]) -> list[str]:
    """Gaps: testable clauses with too few cases, cases naming unknown rules, cases pinning non-testable clauses."""
    known, by_rule = clauses(), cases_by_rule(cases)
    found = [str(error) for error in unknown_rules(cases)]
    for clause in known.values():
        n = len(by_rule.get(clause.id, []))
        if clause.status == "testable" and n < MIN_CASES:
            found.append(
                f"{clause.path.name}:{clause.line}: testable clause {clause.id} has {n} case(s), needs {MIN_CASES}"
            )
        if clause.status == "not machine-testable" and n:
            found.append(
                f"{clause.path.name}:{clause.line}: clause {clause.id} is marked not machine-testable but has cases"
            )
    return found


def report(cases: tuple[Case, ...]) -> tuple[str, bool]:
    by_rule = cases_by_rule(cases)
    rows = []
    for clause in sorted(clauses().values(), key=lambda c: (c.path.name, c.line)):
        pinned = by_rule.get(clause.id, [])
        note = f"{len(pinned)} cases" if clause.status == "testable" else f"{clause.status}: {clause.reason}"
        rows.append(f"{clause.id:<34} {note}")
    gaps = problems(cases)
    counts = defaultdict(int)
    for clause in clauses().values():
        counts[clause.status] += 1
    tail = f"{len(clauses())} clauses: " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
    tail += f"; {len(cases)} cases; " + (f"{len(gaps)} problems" if gaps else "no gaps")
    return "\n".join(rows + [""] + gaps + [tail]), not gaps
