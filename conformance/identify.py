"""`gammonspec identify`: which switch values and options an engine's answers are consistent with.

Every case of a game is asked under the rules the engine is run as (its declared ruleset or profile), whatever
the case requires. A case pins the switch values its expectation depends on; what an engine reading one pinned
switch (or option) otherwise would answer is modelled by the reference engine playing the same case with that
one value changed, its answer judged under the rules asked as the engine's is (it passes the whole suite under
every one-switch flip: `gammonspec pinning`). The model only tells which cases tell two values apart; every
expectation is still the case's own. A case is evidence for a value only where it tells it from the others: a
pass supports every value under which the model passes too, and a failure is explained by a value only when
the model playing it gives the engine's very answer. The closest profile is the assignment that fits the most
answers, the fewest changes from the declared one on a tie; failures it does not fit are unexplained: bugs,
not readings.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from .cases import Case
from .engine import Engine
from .profiles import Profile, closest_ruleset, make
from .rulesets import accepted, registry, rulesets
from .runner import Outcome, PlayingAs, Target, run_one, skip_reason

Key = str | tuple[str, Any]  # a switch, or (option, value): whether the engine plays that option value as asked
Answer = tuple[Any, ...] | None  # an outcome's verdict with the engine's answer in it; None when it errored
PASSED: Answer = ("passed",)


def answer(outcome: Outcome) -> Answer:
    """What an outcome says of the answer: passed, or the step and the plays or result it got wrong."""
    if outcome.status == "passed":
        return PASSED
    if outcome.status == "failed":
        return (outcome.step, outcome.message, tuple(sorted(outcome.missing)), tuple(sorted(outcome.extra)))
    return None


@dataclass
class Model:
    """The reference engine playing a case under other switch or option values, asked and judged under the
    target's: the answer of an engine with that reading.

    Answers are kept, so one model serves many identifications (tests/identify_flips.py)."""

    engine: Engine | None = None
    answers: dict[tuple[Any, ...], Answer] = field(default_factory=dict)

    def answer(
        self, case: Case, target: Target, switches: dict[str, str], options: dict[str, Any], ask_next: bool
    ) -> Answer:
        key = (case.id, target.name, tuple(sorted(switches.items())), tuple(sorted(options.items())), ask_next)
        if key not in self.answers:
            if self.engine is None:
                from ..reference import ReferenceEngine

                self.engine = ReferenceEngine()
            base = rulesets()[target.base] if isinstance(target, Profile) else target
            fixed = target.fixed_options if isinstance(target, Profile) else {}
            reading = PlayingAs(self.engine, make(f"{target.name} (model)", base, switches, fixed))
            self.answers[key] = answer(run_one(reading, replace(case, options=options), target, ask_next))
        return self.answers[key]


def _ignored(option: str, value: Any) -> Any:
    """The value an engine that ignores `option=value` plays instead (None when there is no other)."""
    if isinstance(value, bool):
        return not value
    others = sorted({v for rs in rulesets().values() for v in rs.options.get(option, {}).get("allowed", [])} - {value})
    return others[0] if others else None


@dataclass(frozen=True)
class Evidence:
    """One judged case: the answer seen, and what an engine playing given values would answer (by the model)."""

    outcome: Outcome
    seen: Answer
    target: Target
    model: Model
    ask_next: bool

    @cached_property
    def keys(self) -> list[Key]:
        """The switches the case pins, and (option, value) for each option it sets."""
        return [*self.outcome.case.requires, *self.outcome.case.options.items()]

    def holds(self, key: Key, values: dict[Key, Any]) -> bool:
        """Whether `values` give `key` a value the case accepts."""
        if isinstance(key, tuple):
            return values[key]
        return values[key] in accepted(self.outcome.case.requires[key])

    def fits(self, values: dict[Key, Any], around: dict[Key, Any] | None = None) -> bool:
        """Whether an engine playing `values` gives the answer seen: a pass where the case's pins hold, else the
        model's answer under `values` (a case whose pins do not hold may depend on switches it does not pin).
        With `around`, the switches it does not pin take their values from there: while the search weighs one
        change at a time, the model is asked once per case and pinned values, not once per change weighed."""
        case = self.outcome.case
        if all(self.holds(k, values) for k in self.keys):
            return self.seen == PASSED
        options = dict(case.options)
        for option, value in case.options.items():
            if not values[(option, value)]:
                options[option] = _ignored(option, value)
                if options[option] is None:
                    return False
        switches = {**{k: (around or values)[k] for k in self.target.switches}, **{k: values[k] for k in case.requires}}
        return self.model.answer(case, self.target, switches, options, self.ask_next) == self.seen


def _misfits(evidence: list[Evidence], values: dict[Key, Any], around: dict[Key, Any] | None = None) -> int:
    return sum(not e.fits(values, around) for e in evidence)


def _fits_all(evidence: list[Evidence], values: dict[Key, Any], key: Key) -> bool:
    """Whether `values[key]` fits the answer of every case pinning `key` whose other pins hold."""
    return all(
        e.fits(values) for e in evidence if key in e.keys and all(e.holds(k, values) for k in e.keys if k != key)
    )


def _search(evidence: list[Evidence], domains: dict[Key, list[Any]], start: dict[Key, Any]) -> dict[Key, Any]:
    """The assignment that fits the most answers: from `start`, the one change that fits the most more, while one
    does; then every change the fit does not need is undone (a value is chosen only on evidence for it)."""
    pinned = [e for e in evidence if e.keys]  # a case that pins nothing fits every assignment or none
    best, cost = dict(start), _misfits(pinned, start)
    while True:
        moves = [
            (_misfits(pinned, {**best, k: x}, best), i, k, x)
            for i, (k, xs) in enumerate(domains.items())
            for x in xs
            if x != best[k]
        ]
        fewest, _, key, value = min(moves, key=lambda m: m[:2], default=(cost, 0, None, None))
        if fewest >= cost:
            break
        best[key] = value
        cost = _misfits(pinned, best)
    for k in domains:
        if best[k] != start[k] and _misfits(pinned, {**best, k: start[k]}) <= cost:
            best[k] = start[k]
            cost = _misfits(pinned, best)
    return best


@dataclass(frozen=True)
class Identified:
    engine: str
    game: str
    asked_as: str
    declared: dict[str, str]  # the switch values the engine was asked under
    outcomes: list[Outcome]
    assignment: dict[str, str]  # the closest assignment
    ties: dict[str, list[str]]  # a changed switch -> every value that fits the answers as well (when several do)
    honoured: dict[tuple[str, Any], bool]  # (option, value) -> whether the engine plays it as asked
    switch_table: dict[str, dict[str, tuple[int, int]]]  # switch -> value -> (consistent, total)
    option_table: dict[str, dict[Any, tuple[int, int]]]  # option -> value -> (passed, total)
    explained: dict[str, list[str]]  # "switch=value" -> failed case ids that value explains
    unexplained: list[str]  # failed case ids no assignment explains: bugs
    errored: list[str]
    own_cases: frozenset[str]  # the cases that apply to the rules asked under (a normal run's cases)

    @property
    def changes(self) -> dict[str, str]:
        return {k: v for k, v in self.assignment.items() if v != self.declared[k]}

    def closest(self) -> str:
        """The closest profile, as a base ruleset and what differs from it."""
        base = closest_ruleset(self.game, self.assignment)
        parts = [
            f"{k}={' or '.join(self.ties.get(k, [v]))}" for k, v in self.assignment.items() if v != base.switches[k]
        ]
        parts += [f"{o}={str(v).lower()} ignored" for (o, v), ok in self.honoured.items() if not ok]
        return " + ".join([base.name, *parts])


def _switch_table(evidence: list[Evidence], best: dict[Key, Any]) -> dict[str, dict[str, tuple[int, int]]]:
    """Per pinned switch and value: of the cases pinning the switch whose other pins hold, how many answers the
    value fits."""
    table = {}
    for name, spec in registry()["switches"].items():
        rows = [e for e in evidence if name in e.keys and all(e.holds(k, best) for k in e.keys if k != name)]
        if rows:
            table[name] = {
                value: (sum(e.fits({**best, name: value}, best) for e in rows), len(rows)) for value in spec["values"]
            }
    return table


def _option_table(
    evidence: list[Evidence], best: dict[Key, Any], honoured: dict[tuple[str, Any], bool]
) -> dict[str, dict[Any, tuple[int, int]]]:
    """Per option value cases set: of those whose other pins hold, how many the engine passes."""
    table: dict[str, dict[Any, tuple[int, int]]] = {}
    for key in honoured:
        rows = [e for e in evidence if key in e.keys and all(e.holds(k, best) for k in e.keys if k != key)]
        table.setdefault(key[0], {})[key[1]] = (sum(e.seen == PASSED for e in rows), len(rows))
    return table


def identify(engine: Engine, cases: Iterable[Case], target: Target, model: Model | None = None) -> Identified:
    """Ask every case of `target`'s game under `target`'s rules and find the switch values that explain the answers."""
    model = model or Model()
    info = engine.info()
    ask_next = "next-segment" in info.capabilities
    outcomes = []
    for case in (c for c in cases if c.game == target.game):
        reason = skip_reason(case, target, info)
        outcomes.append(
            Outcome(case, target.name, "skipped", reason) if reason else run_one(engine, case, target, ask_next)
        )
    evidence = [Evidence(o, answer(o), target, model, ask_next) for o in outcomes if o.status in ("passed", "failed")]
    switches = registry()["switches"]
    declared = dict(target.switches)
    domains: dict[Key, list[Any]] = {
        name: list(spec["values"]) for name, spec in switches.items() if any(name in e.keys for e in evidence)
    }
    options = sorted({kv for e in evidence for kv in e.outcome.case.options.items()}, key=str)
    domains.update({kv: [True, False] for kv in options})
    start: dict[Key, Any] = {**declared, **dict.fromkeys(options, True)}
    fixed: dict[Key, list[Any]] = {}
    while True:  # a reading stands only where it fits every case pinning its switch: else the misfits are bugs
        best = _search(evidence, {**domains, **fixed}, start)
        partial = {k: [start[k]] for k in domains if best[k] != start[k] and not _fits_all(evidence, best, k)}
        if not partial:
            break
        fixed.update(partial)
    cost = _misfits(evidence, best)
    ties = {
        k: same
        for k in switches
        if best[k] != declared[k]
        and len(
            same := [x for x in domains[k] if x != declared[k] and _misfits(evidence, {**best, k: x}, best) == cost]
        )
        > 1
    }
    honoured = {kv: best[kv] for kv in options}
    explained: dict[str, list[str]] = {}
    for e in evidence:
        case = e.outcome.case
        if e.seen != PASSED and target.admits(case.requires, case.options) and e.fits(best):
            for k in (k for k in e.keys if not e.holds(k, best)):
                label = f"{k}={best[k]}" if isinstance(k, str) else f"{k[0]}={str(k[1]).lower()} ignored"
                explained.setdefault(label, []).append(case.id)
    return Identified(
        engine=f"{info.name} {info.version}",
        game=target.game,
        asked_as=target.name,
        declared=declared,
        outcomes=outcomes,
        assignment={name: best[name] for name in switches},
        ties=ties,
        honoured=honoured,
        switch_table=_switch_table(evidence, best),
        option_table=_option_table(evidence, best, honoured),
        explained=explained,
        unexplained=[e.outcome.case.id for e in evidence if e.seen != PASSED and not e.fits(best)],
        errored=[o.case.id for o in outcomes if o.status == "errored"],
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
        "ties": result.ties,
        "changes": result.changes,
        "explained": result.explained,
        "unexplained": result.unexplained,
        "errored": result.errored,
    }


def asked_as(targets: Iterable[Target], game: str) -> Target | None:
    """The ruleset or profile of `game` an engine is identified under: its first declared one."""
    return next((t for t in targets if t.game == game), None)
