"""What `gammonspec identify` prints and writes: the table of switch values, the readings with their evidence for
and against, and the bugs, by the rule mutant that explains them or by what they do."""

from __future__ import annotations

import shutil
import textwrap
from collections import Counter
from typing import Any

from gammonspec.conformance.harness.runner import Outcome
from gammonspec.conformance.tools.diagram import describe
from gammonspec.conformance.tools.identify import Identified
from gammonspec.conformance.tools.mutants import RULE_MUTANTS

MUTANTS = {m.name: m for m in RULE_MUTANTS}
SHOWN_PLAYS = 4  # of a representative failure's missing and extra plays


def width() -> int:
    return max(60, min(shutil.get_terminal_size((100, 24)).columns, 160))


def listing(ids: list[str], room: int, verbose: bool) -> str:
    """Case ids for one line of `room` characters: as many as fit and how many more, or all with --verbose."""
    if verbose:
        return ", ".join(ids)
    shown: list[str] = []
    for n, case_id in enumerate(ids):
        rest = len(ids) - n - 1
        tail = f", … +{rest} (--verbose lists all)" if rest else ""
        if len(", ".join([*shown, case_id]) + tail) > room and shown:
            return ", ".join(shown) + f", … +{len(ids) - n} (--verbose lists all)"
        shown.append(case_id)
    return ", ".join(shown)


def _wrapped(line: str, indent: str = "") -> list[str]:
    return textwrap.wrap(line, width(), subsequent_indent=indent + "  ", break_on_hyphens=False) or [""]


def _by_rule(ids: list[str], outcomes: dict[str, Outcome]) -> Counter[str]:
    return Counter(outcomes[i].case.rule_ids[0] for i in ids)


def _table(result: Identified) -> list[str]:
    lines = ["switch / option      value                      consistent"]
    for name, row in result.switch_table.items():
        for i, (value, (good, total)) in enumerate(row.items()):
            mark = ""
            if result.assignment[name] == value and total:
                mark = "  <- plays" if good else "  <- kept: no case pinning it fits any value"
            mark += "  (declared)" if result.declared[name] == value else ""
            lines.append(f"{name if i == 0 else '':<20} {value:<26} {good:>3}/{total:<3}{mark}")
    for option, row in result.option_table.items():
        for i, (value, (good, total)) in enumerate(row.items()):
            mark = "" if result.honoured[(option, value)] else "  <- not played as asked"
            lines.append(f"{option if i == 0 else '':<20} {str(value).lower():<26} {good:>3}/{total:<3}{mark}")
    return lines


def _readings(result: Identified, outcomes: dict[str, Outcome], verbose: bool) -> list[str]:
    lines = []
    for label, ids in result.explained.items():
        against = result.against.get(label, [])
        mutated = sum(i in ids_ for i in against for ids_ in result.broken.values())
        lines += _wrapped(
            f"reading {label}: explains {len(ids)} failure(s)"
            + (f"; {len(against)} case(s) pinning it fail for another reason" if against else "")
            + (f" ({mutated} of them explained by a rule mutant below)" if mutated else "")
        )
        for rule, n in _by_rule(ids, outcomes).items():
            mine = [i for i in ids if outcomes[i].case.rule_ids[0] == rule]
            head = f"  for {rule} ({n}): "
            lines += _wrapped(head + listing(mine, width() - len(head), verbose), "    ")
        if against:
            head = f"  against ({len(against)}): "
            lines += _wrapped(head + listing(against, width() - len(head), verbose), "    ")
    return lines or ["no failure of the declared rules is explained by another switch value"]


def _representative(outcome: Outcome) -> list[str]:
    case = outcome.case
    lines = _wrapped(f"    e.g. {case.id} ({case.where}), step {outcome.step + 1}: {describe(outcome.state)}", "    ")
    for what, plays in (("missing", outcome.missing), ("extra", outcome.extra)):
        if plays:
            more = f" … +{len(plays) - SHOWN_PLAYS}" if len(plays) > SHOWN_PLAYS else ""
            lines += _wrapped(f"      {what}: {', '.join(plays[:SHOWN_PLAYS])}{more}", "      ")
    if not outcome.missing and not outcome.extra:
        lines += _wrapped(f"      {outcome.message}", "      ")
    return lines


def _bugs(result: Identified, outcomes: dict[str, Outcome], verbose: bool) -> list[str]:
    if not result.unexplained:
        return ["unexplained failures (bugs): none"]
    lines = [f"unexplained failures (bugs): {len(result.unexplained)}, no reading of the switches explains them"]
    for name, ids in result.broken.items():
        m = MUTANTS[name]
        rules = ", ".join(sorted(_by_rule(ids, outcomes)))
        lines += _wrapped(
            f"  plays as if {m.rule_in(result.game) or 'its rule'} were '{name.replace('-', ' ')}': {len(ids)} case(s)"
            f" of {rules} answer as the rule mutant {name} (of {m.target}) does",
            "  ",
        )
        head = "    cases: "
        lines += _wrapped(head + listing(ids, width() - len(head), verbose), "    ")
        lines += _representative(outcomes[ids[0]])
    for said, ids in result.behaviours.items():
        rules = ", ".join(sorted(_by_rule(ids, outcomes)))
        lines += _wrapped(f"  the engine {said}: {len(ids)} case(s) of {rules}, no rule mutant explains them", "  ")
        head = "    cases: "
        lines += _wrapped(head + listing(ids, width() - len(head), verbose), "    ")
        lines += _representative(outcomes[ids[0]])
    return lines


def text(result: Identified, verbose: bool = False) -> str:
    counts = Counter(o.status for o in result.outcomes)
    foreign = sum(o.status == "failed" and o.case.id not in result.own_cases for o in result.outcomes)
    lines = [
        *_wrapped(
            f"{result.engine} asked as {result.asked_as} on every {result.game} case: "
            + ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
            + (f" ({foreign} failed cases require other values than asked: evidence, not faults)" if foreign else "")
        ),
        "",
    ]
    outcomes = {o.case.id: o for o in result.outcomes}
    if not counts["passed"] + counts["failed"]:
        lines.append("no answers: no reading (every case errored or was skipped)")
    else:
        lines += [*_table(result), "", *_wrapped(f"closest profile: {result.closest()}")]
        lines += [*_readings(result, outcomes, verbose), *_bugs(result, outcomes, verbose)]
    if result.errored:
        head = f"errored: {len(result.errored)}: "
        lines += _wrapped(head + listing(result.errored, width() - len(head), verbose))
    return "\n".join(lines)


def to_json(result: Identified) -> dict[str, Any]:
    outcomes = {o.case.id: o for o in result.outcomes}
    answered = any(o.status in ("passed", "failed") for o in result.outcomes)
    broken = {i for ids in result.broken.values() for i in ids}
    return {
        "engine": result.engine,
        "game": result.game,
        "asked_as": result.asked_as,
        "summary": dict(Counter(o.status for o in result.outcomes)),
        "switches": {
            name: {value: {"consistent": good, "total": total} for value, (good, total) in row.items()}
            for name, row in result.switch_table.items()
        },
        "options": {
            option: {str(value).lower(): {"passed": good, "total": total} for value, (good, total) in row.items()}
            for option, row in result.option_table.items()
        },
        "closest_profile": result.closest() if answered else None,
        "plays": result.assignment,
        "ties": result.ties,
        "changes": result.changes,
        "explained": result.explained,
        "against": result.against,
        "unexplained": result.unexplained,
        "bugs": [
            *(
                {"mutant": name, "rule": MUTANTS[name].rule_in(result.game), "breaks": MUTANTS[name].target, "cases": ids}
                for name, ids in result.broken.items()
            ),
            *(
                {"does": said, "rules": sorted(_by_rule(ids, outcomes)), "cases": ids}
                for said, ids in result.behaviours.items()
            ),
        ],
        "rules": {i: list(outcomes[i].case.rule_ids) for i in {*result.unexplained, *broken}},
        "errored": result.errored,
    }
