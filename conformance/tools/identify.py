"""`gammonspec identify`: which switch values and options an engine's answers are consistent with.

Every case of a game is asked under the rules the engine is run as (its declared ruleset or profile), whatever
the case requires. A case pins the switch values its expectation depends on; what an engine reading one pinned
switch (or option) otherwise would answer is modelled by the reference engine playing the same case with that
one value changed, its answer judged under the rules asked as the engine's is (it passes the whole suite under
every one-switch flip: `gammonspec pinning`). The model only tells which cases tell two values apart; every
expectation is still the case's own. A case is evidence for a value only where it tells it from the others: a
pass supports every value under which the model passes too, and a failure is explained by a value only when
the model playing it gives the engine's very answer.

The closest profile is searched jointly over the pinned switches and options, greedily with backtracking: from
the declared values, the one change (or, when none helps, the pair of changes) that fits the most more answers,
while one does; then every change the fit does not need is undone. A reading is contradicted by a case the engine
passes that the reading would fail, and by a case pinning it that fails under it too, unless a named rule mutant
of conformance/tools/mutants.py (the reference engine with one rule function broken, playing the reading) gives
the engine's answer there: another deviation, not evidence against. A reading stands while its support (the
failures it explains) outweighs what contradicts it (weighing.stands, as fuzz weighs its states); else it is
held at the declared value and the search runs again. Failures no reading fits are bugs, named by the fewest
rule mutants that give the engine's very answers (the rule the engine breaks), the rest grouped by what they do
(the plays they miss or give wrongly: conformance/tools/behaviour.py), across clauses.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from gammonspec.conformance.harness.cases import Case
from gammonspec.conformance.harness.runner import Outcome, PlayingAs, Target, run_one, skip_reason
from gammonspec.conformance.tools import behaviour
from gammonspec.conformance.tools.mutants import RULE_MUTANTS, Mutant
from gammonspec.conformance.tools.weighing import stands
from gammonspec.model.interface import Engine
from gammonspec.model.profiles import Profile, closest_ruleset, make
from gammonspec.model.rulesets import accepted, registry, rulesets
from gammonspec.model.state import Layout

Key = str | tuple[str, Any]  # a switch, or (option, value): whether the engine plays that option value as asked
Answer = tuple[Any, ...] | None  # an outcome's verdict with the engine's answer in it; None when it errored
PASSED: Answer = ("passed",)


def answer(outcome: Outcome) -> Answer:
    """What an outcome says of the answer: passed, or the step and the answer it got wrong, as it compares (the
    set of positions, not the order the engine listed them in: runner.Outcome.got)."""
    if outcome.status == "passed":
        return PASSED
    if outcome.status == "failed":
        return (outcome.step, outcome.got)
    return None


@dataclass
class Model:
    """The reference engine playing a case under other switch or option values, asked and judged under the
    target's: the answer of an engine with that reading.

    Answers are kept, so one model serves many identifications (tests/identify_flips.py)."""

    engine: Engine | None = None
    answers: dict[tuple[Any, ...], Answer] = field(default_factory=dict)

    def answer(
        self,
        case: Case,
        target: Target,
        switches: dict[str, str],
        options: dict[str, Any],
        ask_next: bool,
        mutant: Mutant | None = None,
    ) -> Answer:
        key = (case.id, target.name, tuple(sorted(switches.items())), tuple(sorted(options.items())), ask_next)
        key += (mutant.name,) if mutant else ()
        if key not in self.answers:
            if self.engine is None:
                from gammonspec.reference import ReferenceEngine

                self.engine = ReferenceEngine()
            base = rulesets()[target.base] if isinstance(target, Profile) else target
            fixed = target.fixed_options if isinstance(target, Profile) else {}
            engine = type(self.engine)() if mutant else self.engine  # its one-search memo knows nothing of mutants
            reading = PlayingAs(engine, make(f"{target.name} (model)", base, switches, fixed))
            with mutant.applied() if mutant else contextlib.nullcontext():
                try:
                    self.answers[key] = answer(run_one(reading, replace(case, options=options), target, ask_next))
                except Exception:  # a broken rule may break the engine's own invariants: it explains nothing
                    self.answers[key] = None
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
        if all(self.holds(k, values) for k in self.keys):
            return self.seen == PASSED
        return self._model_gives(values, around or values)

    def fits_broken(self, values: dict[Key, Any], mutant: Mutant) -> bool:
        """Whether an engine playing `values` with `mutant`'s rule broken gives the answer seen."""
        return self.seen is not None and self._model_gives(values, values, mutant)

    def _model_gives(self, values: dict[Key, Any], around: dict[Key, Any], mutant: Mutant | None = None) -> bool:
        case = self.outcome.case
        options = dict(case.options)
        for option, value in case.options.items():
            if not values[(option, value)]:
                options[option] = _ignored(option, value)
                if options[option] is None:
                    return False
        switches = {**{k: around[k] for k in self.target.switches}, **{k: values[k] for k in case.requires}}
        return self.model.answer(case, self.target, switches, options, self.ask_next, mutant) == self.seen


def _misfits(evidence: list[Evidence], values: dict[Key, Any], around: dict[Key, Any] | None = None) -> int:
    return sum(not e.fits(values, around) for e in evidence)


def _refuting(evidence: list[Evidence], values: dict[Key, Any], key: Key) -> list[Evidence]:
    """The cases pinning `key` whose other pins hold that the engine passes and an engine playing `values` would
    fail: where the engine plays as declared, `values[key]` is refuted."""
    return [
        e
        for e in evidence
        if e.seen == PASSED and key in e.keys and all(e.holds(k, values) for k in e.keys if k != key)
        and not e.fits(values)
    ]


def _stands(evidence: list[Evidence], values: dict[Key, Any], key: Key) -> bool:
    """Whether the reading `values[key]` stands (weighing.stands): the failures it explains, against the passes
    that refute it and the cases pinning `key` (their other pins holding) that fail under it too and that no rule
    mutant explains (its doubts)."""
    rows = [e for e in evidence if key in e.keys and all(e.holds(k, values) for k in e.keys if k != key)]
    support = sum(e.seen != PASSED and e.fits(values) for e in rows)
    doubt = sum(
        e.seen != PASSED and not e.fits(values) and not any(e.fits_broken(values, m) for m in RULE_MUTANTS)
        for e in rows
    )
    return stands(support, len(_refuting(evidence, values, key)), doubt)


PAIRED = 8  # the least costly single changes tried two at a time when no single change fits more answers


def _search(evidence: list[Evidence], domains: dict[Key, list[Any]], start: dict[Key, Any]) -> dict[Key, Any]:
    """The assignment that fits the most answers: from `start`, the one change that fits the most more, while one
    does, else the pair of changes among the least costly single ones that does (two deviations that only show
    together); then every change the fit does not need is undone (a value is chosen only on evidence for it)."""
    pinned = [e for e in evidence if e.keys]  # a case that pins nothing fits every assignment or none
    best, cost = dict(start), _misfits(pinned, start)
    while True:
        singles = sorted(
            (_misfits(pinned, {**best, k: x}, best), i, k, x)
            for i, (k, xs) in enumerate(domains.items())
            for x in xs
            if x != best[k]
        )
        changes: dict[Key, Any] = {singles[0][2]: singles[0][3]} if singles and singles[0][0] < cost else {}
        if not changes:
            pairs = [
                (_misfits(pinned, {**best, a[2]: a[3], b[2]: b[3]}, best), a[1], b[1], {a[2]: a[3], b[2]: b[3]})
                for n, a in enumerate(singles[:PAIRED])
                for b in singles[n + 1 : PAIRED]
                if a[2] != b[2]
            ]
            fewest = min(pairs, key=lambda p: p[:3], default=None)
            changes = fewest[3] if fewest and fewest[0] < cost else {}
        if not changes or _misfits(pinned, {**best, **changes}) >= cost:
            break
        best.update(changes)
        cost = _misfits(pinned, best)
    for k in domains:
        if best[k] != start[k] and _misfits(pinned, {**best, k: start[k]}) <= cost:
            best[k] = start[k]
            cost = _misfits(pinned, best)
    return best


def _label(key: Key, value: Any) -> str:
    return f"{key}={value}" if isinstance(key, str) else f"{key[0]}={str(key[1]).lower()} ignored"


def _broken(evidence: list[Evidence], failures: list[Evidence], values: dict[Key, Any]) -> dict[str, list[Outcome]]:
    """Mutant name -> the failures an engine playing `values` with that mutant's rule broken answers so: the
    fewest mutants that explain the most failures (a greedy cover, the mutant explaining most taken first). A
    mutant that would fail cases the engine passes is weighed as a reading is (weighing.stands): refuted, it
    explains nothing."""
    hits = {m.name: [e.outcome for e in failures if e.fits_broken(values, m)] for m in RULE_MUTANTS}
    passes = [e for e in evidence if e.seen == PASSED]
    for m in RULE_MUTANTS:
        if hits[m.name] and not stands(len(hits[m.name]), sum(not e.fits_broken(values, m) for e in passes)):
            hits[m.name] = []
    found: dict[str, list[Outcome]] = {}
    left = {id(e.outcome) for e in failures}
    while left:
        name, explains = max(hits.items(), key=lambda h: sum(id(o) in left for o in h[1]))
        mine = [o for o in explains if id(o) in left]
        if not mine:
            break
        found[name] = mine
        left -= {id(o) for o in mine}
    return found


ANSWERS = {  # a wrong answer to a query other than legal-plays, in words
    "next-segment": "says otherwise what follows a segment",
    "game-result": "scores a finished game otherwise",
    "opening": "opens a game otherwise",
    "may-double": "answers otherwise whether the side on roll may double",
    "cube-action": "answers a double otherwise",
    "match-after-game": "keeps the match's score otherwise",
}


def does(outcome: Outcome) -> str:
    """What a failure does, in one line an author can act on (behaviour.says): for plays, the leading feature of
    the plays it misses and those it gives wrongly (behaviour.leading); else which answer is wrong."""
    query, given = outcome.got
    step = outcome.case.steps[outcome.step]
    if query != "legal-plays" or outcome.target is None:
        return ANSWERS.get(query, f"answers {query} otherwise")
    state = step.state
    got = {key: Layout.from_key(state.game, key) for key in given}
    expected = {lay.key(): lay for lay in step.expected["plays"].values()}
    if not expected:  # only some plays stated: those it must give, and (not among the others) those it must not
        forbidden = {lay.key() for lay in step.expected["excludes"].values()}
        expected = {k: lay for k, lay in got.items() if k not in forbidden}
        expected |= {lay.key(): lay for lay in step.expected["includes"].values()}
    rules = outcome.target.rules(outcome.case.options)
    shape = behaviour.shape(state.layout, state.turn, rules, expected.values(), got.values())
    said = behaviour.says(behaviour.leading(shape))
    return said or "gives another number of plays than the case counts"


def _behaviours(bugs: list[Evidence], broken: dict[str, list[str]]) -> dict[str, list[str]]:
    """The bugs no rule mutant explains, by what they do (`does`), across clauses, the largest group first."""
    named = {i for ids in broken.values() for i in ids}
    groups: dict[str, list[str]] = {}
    for e in bugs:
        if e.outcome.case.id not in named:
            groups.setdefault(does(e.outcome), []).append(e.outcome.case.id)
    return dict(sorted(groups.items(), key=lambda g: (-len(g[1]), g[0])))


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
    explained: dict[str, list[str]]  # "switch=value" -> failed case ids that value explains (its support)
    against: dict[str, list[str]]  # "switch=value" -> case ids pinning it that fail for another reason
    unexplained: list[str]  # failed case ids no assignment explains: bugs
    broken: dict[str, list[str]]  # mutant name -> the bugs an engine with that rule broken answers so
    behaviours: dict[str, list[str]]  # what the rest do, in one line (does) -> their case ids
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
    while True:  # a reading that does not stand is held at the declared value, and the search runs again
        best = _search(evidence, {**domains, **fixed}, start)
        refuted = {k: [start[k]] for k in domains if best[k] != start[k] and not _stands(evidence, best, k)}
        if not refuted:
            break
        fixed.update(refuted)
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
    against: dict[str, list[str]] = {}
    for e in evidence:
        case = e.outcome.case
        changed = [k for k in e.keys if not e.holds(k, best)]
        if e.seen != PASSED and target.admits(case.requires, case.options) and e.fits(best):
            for k in changed:
                explained.setdefault(_label(k, best[k]), []).append(case.id)
        elif len(changed) == 1 and not e.fits(best):
            against.setdefault(_label(changed[0], best[changed[0]]), []).append(case.id)
    bugs = [e for e in evidence if e.seen != PASSED and not e.fits(best)]
    broken = {name: [o.case.id for o in found] for name, found in _broken(evidence, bugs, best).items()}
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
        against={label: ids for label, ids in against.items() if label in explained},
        unexplained=[e.outcome.case.id for e in bugs],
        broken=broken,
        behaviours=_behaviours(bugs, broken),
        errored=[o.case.id for o in outcomes if o.status == "errored"],
        own_cases=frozenset(o.case.id for o in outcomes if target.admits(o.case.requires, o.case.options)),
    )


def asked_as(targets: Iterable[Target], game: str) -> Target | None:
    """The ruleset or profile of `game` an engine is identified under: its first declared one."""
    return next((t for t in targets if t.game == game), None)
