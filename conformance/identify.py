"""`gammonspec identify`: which switch values and options an engine's answers are consistent with.

Every case of a game is asked under the rules the engine is run as (its declared ruleset or profile),
whatever the case requires. A case pins the switch values its expectation depends on, so an engine
that plays an assignment A should pass exactly the cases whose `requires` hold under A (and whose
options it honours). The closest profile is the assignment, over the values the cases pin, that
predicts the most observed verdicts, the nearest to the declared one on a tie. Failures it does not
predict are unexplained: bugs, not readings.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .cases import Case
from .engine import Engine
from .profiles import closest_ruleset
from .rules import accepted, registry
from .runner import Outcome, Target, run_one, skip_reason

OTHER = "(another value)"  # stands for every value of a switch that no case pins
SEARCH_LIMIT = 500_000  # assignments tried exhaustively; beyond, one switch at a time
# A failure the assignment does not explain weighs as much as this many passes it does not predict: a case
# may pass under values it does not require (its expectation can hold under several), but a case whose
# requires hold must pass.
UNEXPLAINED_WEIGHT = 3


@dataclass(frozen=True)
class Identified:
    engine: str
    game: str
    asked_as: str
    declared: dict[str, str]  # the switch values the engine was asked under
    outcomes: list[Outcome]
    assignment: dict[str, str]  # the closest assignment (OTHER where the evidence excludes every pinned value)
    honoured: dict[tuple[str, Any], bool]  # (option, value) -> whether the engine plays it as asked
    switch_table: dict[str, dict[str, tuple[int, int]]]  # switch -> value -> (consistent, total)
    option_table: dict[str, dict[Any, tuple[int, int]]]  # option -> value -> (passed, total)
    explained: dict[str, list[str]]  # "switch=value" -> failed case ids that value explains
    unexplained: list[str]  # failed case ids no assignment explains: bugs
    errored: list[str]
    others: dict[str, list[str]]  # switch -> the values no case pins, which OTHER stands for
    own_cases: frozenset[str]  # the cases that apply to the rules asked under (a normal run's cases)

    @property
    def changes(self) -> dict[str, str]:
        return {k: v for k, v in self.assignment.items() if v != self.declared[k]}

    def closest(self) -> str:
        """The closest profile, as a base ruleset and what differs from it."""
        known = {k: v for k, v in self.assignment.items() if v != OTHER}
        base = closest_ruleset(self.game, {**self.declared, **known})
        parts = [f"{k}={v}" for k, v in self.assignment.items() if v != base.switches[k] and v != OTHER]
        parts += [f"{k}={' or '.join(self.others[k])}" for k, v in self.assignment.items() if v == OTHER]
        parts += [f"{o}={str(v).lower()} ignored" for (o, v), ok in self.honoured.items() if not ok]
        return " + ".join([base.name, *parts])


def _predicts(case: Case, assignment: dict[str, str], honoured: dict[tuple[str, Any], bool]) -> bool:
    return all(assignment[k] in accepted(v) for k, v in case.requires.items()) and all(
        honoured[(k, v)] for k, v in case.options.items()
    )


def _search(
    groups: Counter[tuple[tuple[tuple[str, tuple[str, ...]], ...], tuple[tuple[str, Any], ...], bool]],
    domains: dict[str, list[Any]],
    start: dict[str, Any],
) -> dict[str, Any]:
    """The assignment over `domains` that mispredicts the fewest verdicts (weighted), then changes `start` least."""
    names = list(domains)

    def cost(values: dict[str, Any]) -> tuple[int, int]:
        wrong = sum(
            n * (1 if passed else UNEXPLAINED_WEIGHT)
            for (requires, options, passed), n in groups.items()
            if passed != (all(values[k] in vs for k, vs in requires) and all(values[(k, v)] for k, v in options))
        )
        return wrong, sum(values[k] != start[k] for k in names)

    size = 1
    for name in names:
        size *= len(domains[name])
    if size <= SEARCH_LIMIT:
        return min((dict(zip(names, combo)) for combo in itertools.product(*domains.values())), key=cost)
    best = dict(start)
    improved = True
    while improved:  # coordinate descent: each switch in turn to its best value
        improved = False
        for name in names:
            choice = min(domains[name], key=lambda v: cost({**best, name: v}))
            if cost({**best, name: choice}) < cost(best):
                best[name], improved = choice, True
    return best


def _switch_table(
    judged: list[Outcome],
    domains: dict[Any, list[Any]],
    assignment: dict[str, str],
    honoured: dict[tuple[str, Any], bool],
) -> dict[str, dict[str, tuple[int, int]]]:
    """Per pinned switch and value: of the cases pinning the switch whose other pins hold, how many verdicts the
    value predicts (a case passes exactly when it pins that value)."""
    table = {}
    for name in domains:
        if isinstance(name, tuple):
            continue
        relevant = [
            o
            for o in judged
            if name in o.case.requires
            and _predicts(o.case, {**assignment, name: accepted(o.case.requires[name])[0]}, honoured)
        ]
        table[name] = {
            value: (
                sum((o.status == "passed") == (value in accepted(o.case.requires[name])) for o in relevant),
                len(relevant),
            )
            for value in registry()["switches"][name]["values"]
        }
    return table


def _option_table(
    judged: list[Outcome], assignment: dict[str, str], honoured: dict[tuple[str, Any], bool]
) -> dict[str, dict[Any, tuple[int, int]]]:
    """Per option value cases set: of those whose pins hold, how many the engine passes."""
    table: dict[str, dict[Any, tuple[int, int]]] = {}
    for option, value in honoured:
        rows = [
            o
            for o in judged
            if o.case.options.get(option) == value
            and _predicts(o.case, assignment, {**honoured, (option, value): True})
        ]
        table.setdefault(option, {})[value] = (sum(o.status == "passed" for o in rows), len(rows))
    return table


def identify(engine: Engine, cases: Iterable[Case], target: Target) -> Identified:
    """Ask every case of `target`'s game under `target`'s rules and find the switch values that explain the verdicts."""
    info = engine.info()
    game_cases = [case for case in cases if case.game == target.game]
    outcomes = []
    for case in game_cases:
        reason = skip_reason(case, target, info)
        outcomes.append(
            Outcome(case, target.name, "skipped", reason)
            if reason
            else run_one(engine, case, target, "next-segment" in info.capabilities)
        )
    judged = [o for o in outcomes if o.status in ("passed", "failed")]
    switches = registry()["switches"]
    declared = dict(target.switches)
    domains: dict[Any, list[Any]] = {}
    for name, spec in switches.items():
        pinned = {v for o in judged if name in o.case.requires for v in accepted(o.case.requires[name])}
        if pinned:
            values = [v for v in spec["values"] if v in pinned or v == declared[name]]
            domains[name] = values + ([OTHER] if len(values) < len(spec["values"]) else [])
    for key in sorted({kv for o in judged for kv in o.case.options.items()}, key=str):
        domains[key] = [True, False]
    start: dict[Any, Any] = {**declared, **dict.fromkeys((k for k in domains if isinstance(k, tuple)), True)}
    groups = Counter(
        (
            tuple(sorted((k, accepted(v)) for k, v in o.case.requires.items())),
            tuple(sorted(o.case.options.items(), key=str)),
            o.status == "passed",
        )
        for o in judged
    )
    fixed: dict[Any, list[Any]] = {}
    while True:  # a change stands only where most cases of the declared value contradict it
        best = {**start, **_search(groups, {**domains, **fixed}, start)}
        assignment = {name: best[name] for name in switches}
        honoured = {k: v for k, v in best.items() if isinstance(k, tuple)}
        switch_table = _switch_table(judged, domains, assignment, honoured)
        option_table = _option_table(judged, assignment, honoured)
        weak = {
            k: [declared[k]]
            for k, row in switch_table.items()
            if assignment[k] != declared[k] and 2 * row[declared[k]][0] >= row[declared[k]][1]
        }
        weak.update(
            {
                (o, v): [True]
                for (o, v), ok in honoured.items()
                if not ok and 2 * option_table[o][v][0] >= option_table[o][v][1]
            }
        )
        if not weak:
            break
        fixed.update(weak)
    failed = [o for o in judged if o.status == "failed"]
    explained: dict[str, list[str]] = {}
    for o in failed:
        if target.admits(o.case.requires, o.case.options) and not _predicts(o.case, assignment, honoured):
            for name, value in assignment.items():
                if name in o.case.requires and value not in accepted(o.case.requires[name]):
                    explained.setdefault(f"{name}={value}", []).append(o.case.id)
            for (option, value), ok in honoured.items():
                if not ok and o.case.options.get(option) == value:
                    explained.setdefault(f"{option}={str(value).lower()} ignored", []).append(o.case.id)
    return Identified(
        engine=f"{info.name} {info.version}",
        game=target.game,
        asked_as=target.name,
        declared=declared,
        outcomes=outcomes,
        assignment=assignment,
        honoured=honoured,
        switch_table=switch_table,
        option_table=option_table,
        explained=explained,
        unexplained=[o.case.id for o in failed if _predicts(o.case, assignment, honoured)],
        errored=[o.case.id for o in outcomes if o.status == "errored"],
        others={k: [v for v in switches[k]["values"] if v not in d] for k, d in domains.items() if OTHER in d},
        own_cases=frozenset(o.case.id for o in outcomes if target.admits(o.case.requires, o.case.options)),
    )


def text(result: Identified) -> str:
    counts = Counter(o.status for o in result.outcomes)
    foreign = sum(o.status == "failed" and o.case.id not in result.own_cases for o in result.outcomes)
    lines = [
        f"{result.engine} asked as {result.asked_as} on every {result.game} case: "
        + ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
        + (f" ({foreign} failed cases require other values than asked: evidence, not faults)" if foreign else ""),
        "",
        "switch / option      value                      consistent",
    ]
    for name, row in result.switch_table.items():
        for i, (value, (good, total)) in enumerate(row.items()):
            mark = "  <- plays" if result.assignment[name] == value and total else ""
            mark += "  (declared)" if result.declared[name] == value else ""
            lines.append(f"{name if i == 0 else '':<20} {value:<26} {good:>3}/{total:<3}{mark}")
    for option, row in result.option_table.items():
        for i, (value, (good, total)) in enumerate(row.items()):
            mark = "" if result.honoured[(option, value)] else "  <- not played as asked"
            lines.append(f"{option if i == 0 else '':<20} {str(value).lower():<26} {good:>3}/{total:<3}{mark}")
    lines += ["", f"closest profile: {result.closest()}"]
    for change, ids in result.explained.items():
        lines.append(f"explains {len(ids)} failure(s): {change}: {', '.join(ids)}")
    if not result.explained:
        lines.append("no failure of the declared rules is explained by another switch value")
    lines.append(
        f"unexplained failures (bugs): {', '.join(result.unexplained)}"
        if result.unexplained
        else "unexplained failures (bugs): none"
    )
    if result.errored:
        lines.append(f"errored: {', '.join(result.errored)}")
    return "\n".join(lines)


def to_json(result: Identified) -> dict[str, Any]:
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
        "closest_profile": result.closest(),
        "plays": result.assignment,
        "changes": result.changes,
        "explained": result.explained,
        "unexplained": result.unexplained,
        "errored": result.errored,
    }


def asked_as(targets: Iterable[Target], game: str) -> Target | None:
    """The ruleset or profile of `game` an engine is identified under: its first declared one."""
    return next((t for t in targets if t.game == game), None)
