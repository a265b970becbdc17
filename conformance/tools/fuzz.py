"""`gammonspec fuzz`: an engine against the reference engine on random valid states (conformance/tools/generators.py).

For each ruleset or profile, seeded states of every kind that applies are asked of both engines: the
legal plays, the next segment and the game's result, where the engine answers those queries; then half as many
questions about the opening, the cube and the match (fuzz_queries), of the queries the engine answers.  A
disagreement is shrunk (fewer checkers, fewer points, a simpler roll, a plainer turn context) while it
persists, explained by the one-switch (or option) flips of the reference engine that give the engine's
answer, and grouped with the others it shares that explanation with (or, for a bug no flip explains,
the shape of the plays it gets wrong), so that a reading difference is one failure, not thousands.
Each failure is written as a *draft* case (`draft: fuzz`): its expectation is the reference engine's
answer, which must be confirmed by hand before the case may enter a suite.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gammonspec.conformance.harness.runner import Target
from gammonspec.conformance.tools import (
    behaviour,
    fuzz_evidence,
    fuzz_queries,
    fuzz_rules,
    generators,
    shrink,
)
from gammonspec.conformance.tools.fuzz_evidence import Reading, Seen
from gammonspec.conformance.tools.fuzz_queries import Asked, Question
from gammonspec.conformance.tools.mutants import LOCK
from gammonspec.model import profiles
from gammonspec.model.interface import Engine, EngineFailure, Skip, describe_exception
from gammonspec.model.rulesets import Rules, registry
from gammonspec.model.state import Layout, Segment, State, StateError
from gammonspec.model.terminal import shortened
from gammonspec.reference import ReferenceEngine

ASPECTS = ("plays", "next", "result", *fuzz_queries.CAPABILITY)
ORACLE = ReferenceEngine()  # one instance: it answers the legal plays and next segment of a state from one search
CAPABILITY = {"plays": "legal-plays", "next": "next-segment", "result": "game-result", **fuzz_queries.CAPABILITY}
WHAT = {
    "plays": "legal plays",
    "next": "next segment",
    "result": "game result",
    "opening": "opening",
    "may-double": "may double",
    "double": "double",
    "next-game": "match after the game",
}

# ---- asking -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answers:
    """What an engine says of a state, per aspect, in a form that compares (absent: not asked)."""

    values: dict[str, Any]
    layouts: dict[str, Layout] = field(default_factory=dict)  # the plays' layouts by key


def _next_of(segment: Segment | None) -> Segment | None:
    return None if segment is None else segment.unordered()


def ask(engine: Engine, state: Asked, rules: Rules, aspects: Iterable[str]) -> Answers:
    """The engine's answers on `aspects` (a question: on its own aspect); its exceptions propagate (Skip,
    EngineFailure, its own)."""
    if isinstance(state, Question):
        return Answers({state.aspect: fuzz_queries.answer(engine, state, rules)})
    values: dict[str, Any] = {}
    layouts: dict[str, Layout] = {}
    for aspect in aspects:
        if aspect == "plays":
            for layout in engine.legal_plays(state, rules):
                if not isinstance(layout, Layout) or layout.game != state.game:
                    raise StateError(f"engine answered {shortened(repr(layout), 60)}, not a {state.game} layout")
                layouts[layout.key()] = layout
            values["plays"] = frozenset(layouts)
        elif aspect == "next":
            values["next"] = _next_of(engine.next_segment(state, rules))
        else:
            values["result"] = engine.game_result(state, rules)
    return Answers(values, layouts)


def differs(expected: Answers, got: Answers) -> str | None:
    """The first aspect the answers differ on (the next segment only once the plays agree)."""
    return next((a for a in ASPECTS if a in got.values and got.values[a] != expected.values[a]), None)


# ---- explaining and grouping --------------------------------------------------------------------


def flips(target: Target) -> dict[str, Rules]:
    """The rules of every one-switch change of `target` and of every other allowed value of each of its options, by
    'name=value' (profiles.override, as identify and pinning flip them)."""
    changes = [
        (name, value)
        for name, spec in registry()["switches"].items()
        for value in spec["values"]
        if value != target.switches[name]
    ]
    changes += [(name, v) for name, spec in target.options.items() for v in spec["allowed"] if v != spec["default"]]
    return {
        f"{name}={str(value).lower()}": profiles.override(target, [(name, value)]).rules() for name, value in changes
    }


def explained_by(state: Asked, target: Target, aspect: str, got: Answers) -> frozenset[str]:
    """The flips under which the reference engine gives the engine's answer on `aspect`."""
    found = set()
    for name, flipped in flips(target).items():
        try:
            if ask(ORACLE, state, flipped, [aspect]).values[aspect] == got.values[aspect]:
                found.add(name)
        except (StateError, KeyError, ValueError):
            continue  # a combination of values the reference engine cannot play
    return frozenset(found)


def features(state: Asked, rules: Rules, aspect: str, expected: Answers, got: Answers) -> tuple[str, ...]:
    """The shape of a disagreement no flip explains: what the missing and the extra plays do (or the next segment
    and results each gives, or each one's answer to a question)."""
    if isinstance(state, Question):
        return (
            f"expected {fuzz_queries.shape(expected.values[aspect])}",
            f"engine {fuzz_queries.shape(got.values[aspect])}",
        )
    if aspect != "plays":
        shape = {
            "next": lambda v: "ends" if v is None else ("passed" if v.passed else f"{len(v.numbers)} numbers")
        }.get(aspect, lambda v: "not over" if v is None else v.kind)
        return (f"expected {shape(expected.values[aspect])}", f"engine {shape(got.values[aspect])}")
    return behaviour.shape(
        state.layout, state.turn, rules, expected.layouts.values(), got.layouts.values()
    )


@dataclass
class Failure:
    """One distinct disagreement: the first state that showed it, shrunk, and how many states showed it.

    States join a failure by the signature of the unshrunk state (`key`: its explaining flips, narrowed as states
    join, or its shape), so only the first is shrunk; `explanation` and `features` are the shrunk state's."""

    target: str
    aspect: str
    key: tuple[frozenset[str], tuple[str, ...]]
    explanation: frozenset[str]  # flips that give the engine's answer on the shrunk state
    features: tuple[str, ...]  # the shape, when no flip explains it
    kind: str
    original: Asked
    state: Asked  # shrunk (a question is not)
    expected: Answers
    got: Answers
    states: int = 1
    draft: Path | None = None
    shapes: set[tuple[str, ...]] = field(default_factory=set)  # shapes of unexplained states that shrank to this
    readings: list[Reading] = field(default_factory=list)  # the flips and mutants weighed (fuzz_evidence)

    def joins(self, target: str, aspect: str, key: tuple[frozenset[str], tuple[str, ...]]) -> bool:
        """Whether a disagreement with this signature is this failure; if so it joins (narrowing the flips)."""
        (mine, my_shape), (theirs, their_shape) = self.key, key
        if (self.target, self.aspect) != (target, aspect):
            return False
        if theirs:  # the flips in common, with the first state's or with the shrunk one's
            common = (mine & theirs) or (self.explanation & theirs)
            same = bool(common)
        else:  # a shape no flip explains: the first state's, or one whose state shrank to this failure
            common, same = mine, their_shape == my_shape or their_shape in self.shapes
        if same:
            self.states += 1
            self.key = (common or mine, my_shape)
        return same

    def absorbs(self, other_: Failure) -> bool:
        """Whether a new failure shrank to this one's explanation (or, unexplained, its shape); if so it joins, with
        the shape of its first state, so that states like it join at once."""
        if (self.target, self.aspect) != (other_.target, other_.aspect):
            return False
        unexplained = not self.explanation and not other_.explanation
        if not (self.explanation & other_.explanation or unexplained and self.features == other_.features):
            return False
        self.states += other_.states
        self.shapes.add(other_.key[1])
        mine = {r.name: r for r in self.readings}
        for reading in other_.readings:  # a share's evidence adds to this one's (fuzz_jobs.combine)
            if reading.name in mine:
                mine[reading.name].supports += reading.supports
                mine[reading.name].refutes += reading.refutes
        return True

    @property
    def sound(self) -> list[Reading]:
        """The readings no state refutes (before they are weighed: the explaining flips)."""
        if not self.readings:
            return [Reading(name) for name in sorted(self.explanation)]
        return [r for r in self.readings if not r.refuted]

    @property
    def rules(self) -> list[str]:
        """The rule IDs of the engine's own game it is about (fuzz_rules)."""
        return fuzz_rules.rule_ids(self.state.game, self.aspect, self.sound, self.features)

    @property
    def title(self) -> str:
        what = f"{WHAT[self.aspect]} ({', '.join(self.rules)})"
        flipped = [r.name for r in self.sound if not r.mutant]
        broken = [r.words for r in self.sound if r.mutant]
        said = [f"as if {' or '.join(flipped)}"] if flipped else []
        said += [f"as if {' or '.join(broken[:3])}{' (or more)' * (len(broken) > 3)}"] if broken else []
        if said:
            return f"{what}: the engine plays {'; '.join(said)}"
        said = behaviour.says(self.features) if self.aspect == "plays" else ", ".join(self.features)
        return f"{what}: no one-switch reading explains it (a bug): {said}"


# ---- the campaign ---------------------------------------------------------------------------------


@dataclass
class Tally:
    target: str
    positions: int = 0
    questions: int = 0  # asked besides the positions (fuzz_queries)
    mismatches: int = 0
    skipped: int = 0
    errored: int = 0
    seconds: float = 0.0
    kinds: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)


@dataclass
class Campaign:
    engine: str
    seed: int
    tallies: list[Tally]
    failures: list[Failure]
    stopped: str = ""  # why it ended before its count, if it did
    fatal: str = ""


def _aspects(capabilities: Iterable[str], over: bool) -> tuple[str, ...]:
    wanted = ("result",) if over else ASPECTS
    return tuple(a for a in wanted if CAPABILITY[a] in capabilities)


def check_state(
    engine: Engine, state: Asked, rules: Rules, capabilities: tuple[str, ...]
) -> tuple[str | None, Answers, Answers]:
    """(the aspect they differ on or None, the reference's answers, the engine's)."""
    with LOCK:  # never while another thread (a cluster of worker threads) has a rule mutant applied
        if isinstance(state, Question):
            aspects: tuple[str, ...] = (state.aspect,)
        else:
            aspects = _aspects(capabilities, ORACLE.game_result(state, rules) is not None)
        expected = ask(ORACLE, state, rules, aspects)
    got = ask(engine, state, rules, aspects)
    return differs(expected, got), expected, got


def fuzz(
    engine: Engine,
    targets: list[Target],
    kinds: tuple[str, ...] = (),
    seed: int = 0,
    count: int = 1000,
    seconds: float | None = None,
    max_failures: int = 10,
    progress: Callable[[int], None] = lambda n: None,
    found: Callable[[Failure, int], None] = lambda f, n: None,
) -> Campaign:
    """Ask `count` states of each target (the kinds that apply to it) of `engine` and of the reference engine, then
    (no `kinds` given) half as many questions of the queries it offers besides (fuzz_queries); `found` is told
    of each new distinct failure (and its number) as it is found, before it is weighed."""
    info = engine.info()
    capabilities = tuple(info.capabilities)
    began = time.perf_counter()
    campaign = Campaign(f"{info.name} {info.version}", seed, [], [])
    for index, target in enumerate(targets):
        rules = target.rules()
        tally = Tally(target.name)
        campaign.tallies.append(tally)
        rng = random.Random(f"{seed}:{index}:{target.name}")
        seen: list[Seen] = []
        started = time.perf_counter()
        check = _Checker(engine, target, rules, capabilities, campaign, tally, seen, max_failures, found)
        for kind, state in generators.states(rng, rules, generators.kinds_for(rules, kinds)):
            if tally.positions >= count or not check.going(began, seconds):
                break
            tally.positions += 1
            progress(1)
            check(kind, state)
        offered = [k for k, c in fuzz_queries.KINDS.items() if c in capabilities]
        if offered and not kinds:
            for kind, question in _questions(random.Random(f"{seed}:{index}:{target.name}:questions"), rules):
                if tally.questions >= count // 2 or not check.going(began, seconds):
                    break
                if kind in offered:
                    tally.questions += 1
                    check(kind, question)
        for failure in campaign.failures:
            if failure.target == target.name:
                weigh(failure, target, seen)
        campaign.failures = merge_alike(campaign.failures)
        tally.seconds = time.perf_counter() - started
        if campaign.stopped or campaign.fatal:
            break
    return campaign


def _questions(rng: random.Random, rules: Rules) -> Iterator[tuple[str, Asked]]:
    """The questions of a target's campaign, drawn from positions of its own generators (fuzz_queries)."""

    def of(names: tuple[str, ...]) -> Iterator[State] | None:
        chosen = generators.kinds_for(rules, names)
        return (s for _, s in generators.states(rng, rules, chosen)) if chosen else None

    positions, ended = of(()), of(("ended",))
    assert positions is not None and ended is not None  # every ruleset has positions and finished games
    return fuzz_queries.questions(rng, rules, positions, of(("chain", "passed", "passed-start")), ended, ORACLE)


@dataclass
class _Checker:
    """Asks one state or question of a target's campaign and files what disagrees."""

    engine: Engine
    target: Target
    rules: Rules
    capabilities: tuple[str, ...]
    campaign: Campaign
    tally: Tally
    seen: list[Seen]
    max_failures: int
    found: Callable[[Failure, int], None]

    def going(self, began: float, seconds: float | None) -> bool:
        """Whether the campaign goes on (not stopped, not fatal, within its time budget)."""
        if seconds is not None and time.perf_counter() - began > seconds and not self.campaign.stopped:
            self.campaign.stopped = f"the time budget of {seconds:g} s ran out"
        return not (self.campaign.stopped or self.campaign.fatal)

    def __call__(self, kind: str, state: Asked) -> None:
        campaign, tally, target = self.campaign, self.tally, self.target
        tally.kinds[kind] += 1
        try:
            aspect, expected, got = check_state(self.engine, state, self.rules, self.capabilities)
        except Skip:
            tally.skipped += 1
            return
        except (EngineFailure, StateError, Exception) as exc:  # noqa: BLE001 - the engine's fault, counted
            tally.errored += 1
            if len(tally.errors) < 5:
                tally.errors.append(f"{kind} {_asked_text(state)}: {describe_exception(exc)}")
            if isinstance(exc, EngineFailure) and exc.fatal:
                campaign.fatal = str(exc)
            return
        self.seen.append(Seen(state, expected.values, got.values))
        if aspect is None:
            return
        tally.mismatches += 1
        key = signature(state, self.rules, target, aspect, expected, got)
        if any(f.joins(target.name, aspect, key) for f in campaign.failures):
            return
        failure = _failure(self.engine, state, self.rules, target, kind, aspect, self.capabilities, key)
        if not any(f.absorbs(failure) for f in campaign.failures):
            campaign.failures.append(failure)
            self.found(failure, len(campaign.failures))
        if len(campaign.failures) >= self.max_failures:
            campaign.stopped = f"{self.max_failures} distinct failures found (--max-failures)"


def _asked_text(state: Asked) -> str:
    """A state or question as an error line names it."""
    if isinstance(state, Question):  # named, not its whole wire form (both 24-point lists: hundreds of characters)
        s, extra = state.state, ""
        if state.aspect == "opening":
            extra = f", dice {state.dice[0]}-{state.dice[1]}, game {state.game_number}"
        elif state.response or state.result is not None:
            extra = f", {state.response or state.result.to_wire()}"
        match = f"match to {s.match.length} at {s.match.score[0]}-{s.match.score[1]}" if s.match.length else "money play"
        return f"{state.aspect} question ({s.turn} on roll{extra}, cube {s.cube.value}, {match}; position {s.layout.key()})"
    return f"state {state.layout.key()} {list(state.dice)}"


def signature(
    state: Asked, rules: Rules, target: Target, aspect: str, expected: Answers, got: Answers
) -> tuple[frozenset[str], tuple[str, ...]]:
    """What a disagreement is grouped by: the flips that explain it, or (none does) its shape."""
    explanation = explained_by(state, target, aspect, got)
    return explanation, () if explanation else features(state, rules, aspect, expected, got)


def _failure(
    engine: Engine,
    state: Asked,
    rules: Rules,
    target: Target,
    kind: str,
    aspect: str,
    capabilities: tuple[str, ...],
    key: tuple[frozenset[str], tuple[str, ...]],
) -> Failure:
    """The disagreement on `state`, shrunk while it persists on the same aspect, explained and shaped."""

    def still(candidate: Asked) -> bool:
        try:
            return check_state(engine, candidate, rules, capabilities)[0] == aspect
        except Exception:  # noqa: BLE001 - a candidate the engine cannot answer is not the same failure
            return False

    small = fuzz_queries.shrink(state, still) if isinstance(state, Question) else shrink.shrink(state, rules, still)
    _, expected, got = check_state(engine, small, rules, capabilities)
    explanation = explained_by(small, target, aspect, got)
    shape = features(small, rules, aspect, expected, got)
    return Failure(target.name, aspect, key, explanation, shape, kind, state, small, expected, got)


def merge_alike(failures: list[Failure]) -> list[Failure]:
    """The failures with those that hold the same readings (after weighing) as an earlier one merged into it."""
    kept: list[Failure] = []
    for f in failures:
        names = {r.name for r in f.sound} if f.readings else set()
        twin = next(
            (
                k
                for k in kept
                if names and (k.target, k.aspect) == (f.target, f.aspect) and {r.name for r in k.sound} == names
            ),
            None,
        )
        if twin is None:
            kept.append(f)
        else:
            twin.states += f.states
    return kept


def _answer(aspect: str, fresh: bool = False) -> Callable[[State, Rules], Any]:
    """The reference engine's answer on `aspect`; `fresh`: from an instance of its own (under a mutant, whose
    answers must neither come from nor be kept in the oracle's last search)."""
    return lambda state, rules: ask(ReferenceEngine() if fresh else ORACLE, state, rules, [aspect]).values[aspect]


def weigh(failure: Failure, target: Target, seen: list[Seen]) -> None:
    """The failure's readings, weighed against the states its target's campaign asked: the flips that give the
    engine's answer on it, and the rule mutants that do (fuzz_evidence)."""
    ask_, ask_mutated = _answer(failure.aspect), _answer(failure.aspect, fresh=True)
    rules = target.rules()
    flipped = flips(target)
    readings = [Reading(name) for name in sorted(failure.explanation)]
    for reading in readings:
        fuzz_evidence.weigh(reading, failure.aspect, seen, ask_, flipped[reading.name])
    mutants = fuzz_evidence.attributed(failure.state, rules, failure.got.values[failure.aspect], ask_mutated)
    for reading in mutants:
        mutant = fuzz_evidence.mutant_named(reading.name)
        fuzz_evidence.weigh(reading, failure.aspect, seen, ask_mutated, rules, mutant)
    failure.readings = readings + mutants
