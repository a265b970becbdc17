"""Coverage: the cases that pin each rule clause of the spec pages (model/clauses.py), as `gammonspec coverage` reports it."""

from __future__ import annotations

from collections import defaultdict

from gammonspec.conformance.harness.cases import Case
from gammonspec.model.clauses import clauses
from gammonspec.model.yamlio import DataError

MIN_CASES = 2  # every testable clause is pinned by at least this many cases


def directness(case: Case, rule: str) -> tuple[bool, int, int]:
    """How directly a case shows a rule, lowest first: a case of the clause's own game before one of another game
    (a clause's examples open on its own board), then where the rule stands in its list (first: the rule the case
    is about), then how many rules the case names (fewer: the rule less mixed with others)."""
    clause = clauses().get(rule)
    return bool(clause and clause.path.stem != case.game), case.rule_ids.index(rule), len(case.rule_ids)


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
