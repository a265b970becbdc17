"""Running cases against an engine and judging its answers."""

from __future__ import annotations

import fnmatch
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from gammonspec.conformance.harness.cases import Case, Step, digest
from gammonspec.conformance.harness.messages import METHODS, QUERIES, STEP_QUERIES
from gammonspec.conformance.harness.steps import play_name
from gammonspec.model.interface import (
    CubeOutcome,
    Engine,
    EngineFailure,
    EngineInfo,
    GameResult,
    MatchOutcome,
    Opening,
    Skip,
    describe_exception,
)
from gammonspec.model.notation import describe, origins
from gammonspec.model.profiles import Profile
from gammonspec.model.rulesets import Rules, Ruleset
from gammonspec.model.state import Cube, Layout, Segment, Side, State, StateError
from gammonspec.model.terminal import shortened

Target = Ruleset | Profile  # what a case runs under: a ruleset, or an engine profile
Status = Literal["passed", "failed", "skipped", "errored", "xfailed", "xpassed"]


@dataclass(frozen=True)
class Filters:
    games: tuple[str, ...] = ()
    rulesets: tuple[str, ...] = ()
    rule_ids: tuple[str, ...] = ()  # rule ID globs
    cases: tuple[str, ...] = ()  # case id globs

    def keep(self, case: Case, ruleset: Target) -> bool:
        def match(values: Iterable[str], patterns: tuple[str, ...]) -> bool:
            return not patterns or any(fnmatch.fnmatchcase(v, p) for v in values for p in patterns)

        return (
            match([case.game], self.games)
            and match([ruleset.name, getattr(ruleset, "base", ruleset.name)], self.rulesets)
            and match(case.rule_ids, self.rule_ids)
            and match([case.id], self.cases)
        )


@dataclass
class Outcome:
    case: Case
    ruleset: str
    status: Status
    message: str = ""
    missing: list[str] = field(default_factory=list)  # expected plays the engine did not give
    extra: list[str] = field(default_factory=list)  # plays the engine gave that are not legal
    stderr: str = ""
    step: int = 0  # the step of the case the status refers to
    unchecked: str = ""  # a part of the case not asked (the engine does not answer next-segment)
    target: Target | None = None  # the ruleset or profile the case ran under
    seconds: float = 0.0  # the engine's time on the case (a process's restart not counted)
    fatal: bool = False  # the engine cannot be asked anything more: the run stops after this case

    @property
    def key(self) -> str:
        return f"{self.ruleset}::{self.case.id}"

    @property
    def state(self) -> State:
        return self.case.steps[self.step].state


def plan(cases: Iterable[Case], suite_rulesets: dict[str, Target], filters: Filters) -> list[tuple[Case, Target]]:
    """Every (case, ruleset or profile) pair to run: a case runs under each one whose switches it requires."""
    return [
        (case, rs)
        for rs in suite_rulesets.values()
        for case in cases
        if case.game == rs.game and rs.admits(case.requires, case.options) and filters.keep(case, rs)
    ]


NOT_DECLARED, NOT_OFFERED = "not declared by the engine", "capability not offered"


def skip_kind(reason: str) -> str:
    """The summary's kind of skip: the ruleset/profile not declared, a query or option not offered, or the engine's."""
    if reason.startswith(("engine does not implement ruleset", "engine does not declare profile")):
        return NOT_DECLARED
    if reason.startswith(("engine does not answer", "engine does not support option")):
        return NOT_OFFERED
    return "skipped by the engine"


def skip_reason(case: Case, ruleset: Target, info: EngineInfo) -> str | None:
    """Why an engine is not asked a case at all, from what it declared."""
    if not info.declares(ruleset):
        if isinstance(ruleset, Profile):
            return f"engine does not declare profile {ruleset.name} (nor reads switches)"
        return f"engine does not implement ruleset {ruleset.name}"
    missing = case.queries - set(info.capabilities) - {"next-segment"}  # `next` alone is skipped, not the case
    if missing:
        return f"engine does not answer {', '.join(sorted(missing))} queries"
    for name, value in case.options.items():
        if name in info.options and value not in info.options[name]:
            return f"engine does not support option {name}={value}"
    return None


@dataclass
class Verdict:
    passed: bool
    message: str = ""
    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)


def judge_plays(step: Step, answer: Iterable[Layout], hitting: bool | None = None) -> tuple[Verdict, dict[str, Layout]]:
    """Compare an engine's set of resulting layouts with the step's expectation.

    A layout is judged possible as the game's rulesets have it (state.Layout.validate), or with a bar where
    `hitting` is True (a flip to hitting=blots): a position that cannot arise is a wrong answer."""
    before, game, turn = step.state.layout, step.state.game, step.state.turn
    actual: dict[str, Layout] = {}
    rejected: list[str] = []
    for layout in answer:
        if not isinstance(layout, Layout) or layout.game != game:
            raise StateError(f"engine answered {shortened(repr(layout), 60)}, not a {game} layout")
        try:
            layout.validate(hitting)
        except StateError as exc:  # a position no legal play can leave: a wrong play, listed as extra
            rejected.append(f"{_shown(before, layout, turn)} (impossible position: {exc})")
            continue
        actual[layout.key()] = layout
    expect, expected = step.expect, step.expected
    missing: list[str] = []
    extra: dict[str, str] = {}
    problems: list[str] = []
    if expected.get("plays"):
        wanted = {lay.key(): play for play, lay in expected["plays"].items()}
        missing = [play for key, play in wanted.items() if key not in actual]
        extra = {key: describe(before, lay, turn) for key, lay in actual.items() if key not in wanted}
    missing += [play for play, lay in expected.get("includes", {}).items() if lay.key() not in actual]
    forbidden: set[str] = set()
    for item in expect.get("excludes", []):
        key = expected["excludes"][play_name(item["play"])].key()
        if key in actual:  # shown once, with the reason it is forbidden
            extra[key] = f"{play_name(item['play'])} (forbidden: {item['reason']})"
            forbidden.add(key)
    if "count" in expect and len(actual) != expect["count"]:
        problems.append(f"expected {expect['count']} distinct positions, engine gave {len(actual)}")
    if "digest" in expect and digest(actual.values()) != expect["digest"]:
        problems.append(f"digest {digest(actual.values())} differs from expected {expect['digest']}")
    if problems and "divide" in expect:
        problems.append(divide_report(expect["divide"], divide(before, actual.values(), step.state.turn)))
    if step.play and step.play[1].key() not in actual:
        problems.append(f"the scenario's play {step.play[0]} is not among the engine's legal plays")
    extras = [*extra.values(), *rejected]
    # every extra play says why it is wrong: forbidden (its reason), impossible, or outside the case's set
    outside = f" (not one of the case's {len(expected.get('plays', {}))} legal plays)"
    shown = [text if key in forbidden else f"{text}{outside}" for key, text in extra.items()]
    lines = (
        problems
        + ([f"missing: {' | '.join(missing)}"] if missing else [])
        + ([f"extra: {' | '.join([*shown, *rejected])}"] if extras else [])
    )
    return Verdict(not lines, "; ".join(lines), missing, extras), actual


def _shown(before: Layout, after: Layout, side: Side) -> str:
    """A play in move notation where the position allows it, else the position itself."""
    try:
        return describe(before, after, side)
    except Exception:  # noqa: BLE001 - an impossible position may have no notation
        return f"position {after.to_wire()}"


def _show_result(result: GameResult) -> str:
    if result.winner is None:
        return f"a {result.kind}, nobody scores"
    return f"{result.winner} wins {result.kind}, {result.points} points"


def divide(before: Layout, layouts: Iterable[Layout], side: Side) -> dict[str, int]:
    """Results counted by the highest point the mover's checkers left (conventions: divide), as perft tools
    count per first move."""
    counts: dict[str, int] = {}
    for after in layouts:
        key = origins(before, after, side).split(" ")[0].split("(")[0]
        counts[key] = counts.get(key, 0) + 1
    return counts


def divide_report(expected: dict[str, int], actual: dict[str, int]) -> str:
    rows = [
        f"{key or '(none)'}: expected {expected.get(key, 0)}, engine {actual.get(key, 0)}"
        for key in sorted(set(expected) | set(actual), key=lambda k: (-len(k), k))
        if expected.get(key, 0) != actual.get(key, 0)
    ]
    return "divide by the highest point left, where they differ: " + "; ".join(rows)


def judge_result(step: Step, answer: GameResult | None) -> Verdict:
    expect = step.expect
    if expect.get("not_over"):
        want, ok = "game not over", answer is None
    else:
        wanted = GameResult.from_wire(expect["result"])
        want, ok = _show_result(wanted), answer == wanted
    got = "game not over" if answer is None else _show_result(answer)
    return Verdict(ok, "" if ok else f"expected {want}; engine says {got}")


def judge_opening(step: Step, answer: Opening) -> Verdict:
    def norm(dice: Iterable[int] | None) -> list[int] | None:
        return None if dice is None else sorted(dice, reverse=True)

    want = {"starts": step.expect["starts"]} if "starts" in step.expect else {}
    if "dice" in step.expect:
        want["dice"] = norm(step.expect["dice"])
    if "cube" in step.expect:
        want["cube"] = Cube.from_wire(step.expect["cube"])
    got = {"starts": answer.starts, "dice": norm(answer.dice), "cube": answer.cube}
    wrong = {k: v for k, v in want.items() if got[k] != v}
    return Verdict(not wrong, "" if not wrong else f"opening: expected {want}, engine says {got}")


def judge_next(step: Step, answer: Segment | None) -> Verdict:
    def show(segment: Segment | None) -> str:
        if segment is None:
            return "the turn ends"
        return f"{segment.player} plays {list(segment.numbers)}" + (" (passed)" if segment.passed else "")

    def same(a: Segment | None, b: Segment | None) -> bool:
        return a is b if a is None or b is None else a.unordered() == b.unordered()

    ok = same(answer, step.next)
    return Verdict(ok, "" if ok else f"next: expected {show(step.next)}; engine says {show(answer)}")


def judge_double(step: Step, answer: CubeOutcome) -> Verdict:
    expect = step.expect
    problems = []
    if answer.legal != expect.get("legal", True):
        problems.append(
            f"expected the double ({step.response}) to be {'legal' if expect.get('legal', True) else 'illegal'}"
        )
    if answer.legal and "cube" in expect:
        want = Cube.from_wire(expect["cube"])
        if answer.cube != want:
            problems.append(f"expected cube {want.value} owned by {want.owner or 'nobody'}, engine says {answer.cube}")
    if answer.legal and "result" in expect:
        wanted, got = GameResult.from_wire(expect["result"]), answer.result
        if got != wanted:
            shown = "no result" if got is None else _show_result(got)
            problems.append(f"expected {_show_result(wanted)}, engine says {shown}")
    return Verdict(not problems, "; ".join(problems))


def judge_match(step: Step, answer: MatchOutcome) -> Verdict:
    want, got = MatchOutcome.from_wire(step.expect).to_wire(), answer.to_wire()
    wrong = {k for k in want if want[k] != got[k]}
    return Verdict(not wrong, "" if not wrong else f"match after the game: expected {want}, engine says {got}")


@dataclass(frozen=True)
class PlayingAs:
    """An engine with another reading of the rules: `engine` playing `target` whatever a query asks (the query's
    options kept), its answers judged, as any engine's are, under the rules it was asked."""

    engine: Engine
    target: Target

    def __getattr__(self, method: str) -> Any:
        if method.startswith("__") or method in ("engine", "target"):  # not yet set (copy, pickle)
            raise AttributeError(method)
        query = getattr(self.engine, method)
        if method not in METHODS:
            return query
        return lambda *args: query(*(self.target.rules(a.options) if isinstance(a, Rules) else a for a in args))


def judge_may_double(step: Step, allowed: bool) -> Verdict:
    ok = allowed == step.expect["may_double"]
    return Verdict(ok, "" if ok else f"expected may_double {step.expect['may_double']}, engine says {allowed}")


JUDGES: dict[str, Callable[[Step, Any], Verdict]] = {  # by step kind; plays steps are judged with their next
    "result": judge_result,
    "opening": judge_opening,
    "may-double": judge_may_double,
    "double": judge_double,
    "next-game": judge_match,
}


def ask(engine: Engine, kind: str, step: Step, rules: Rules) -> object:
    """The engine's answer to query `kind` (messages.QUERIES) asked at this step."""
    query = QUERIES[kind]
    return getattr(engine, query.method)(*step.arguments(query, rules))


def judge_step(engine: Engine, step: Step, rules: Rules, ask_next: bool = True) -> Verdict:
    kind = STEP_QUERIES[step.kind].request_type
    if step.kind == "plays":
        verdict = judge_plays(step, ask(engine, kind, step, rules), rules.state_hitting)[0]
        if verdict.passed and step.check_next and ask_next:
            verdict = judge_next(step, ask(engine, "next-segment", step, rules))
        return verdict
    return JUDGES[step.kind](step, ask(engine, kind, step, rules))


def run_one(engine: Engine, case: Case, ruleset: Target, ask_next: bool = True) -> Outcome:
    """Ask the engine every step of one case and judge the answers; no exception escapes.

    Without `ask_next` (the engine does not answer next-segment) the plays are judged and `next` is left unchecked."""
    rules = ruleset.rules(case.options)
    outcome = Outcome(case, ruleset.name, "passed", target=ruleset)
    if not ask_next and any(step.check_next for step in case.steps):
        outcome.unchecked = "next (the engine does not answer next-segment)"
    for i, step in enumerate(case.steps):
        outcome.step = i
        prefix = f"step {i + 1}: " if len(case.steps) > 1 else ""
        try:
            verdict = judge_step(engine, step, rules, ask_next)
        except Skip as exc:
            outcome.status, outcome.message = "skipped", f"engine skipped: {exc}"
            return outcome
        except StateError as exc:
            outcome.status = "errored"
            outcome.message = f"{prefix}impossible position in the engine's answer to case {outcome.key}: {exc}"
            return outcome
        except EngineFailure as exc:
            outcome.status, outcome.message = "errored", f"{prefix}{exc}"
            outcome.stderr, outcome.fatal = exc.stderr, exc.fatal
            return outcome
        except Exception as exc:  # noqa: BLE001 - any engine failure is an errored result, not a crash
            outcome.status, outcome.message = "errored", prefix + describe_exception(exc)
            outcome.stderr = getattr(exc, "stderr", "")
            return outcome
        if not verdict.passed:
            outcome.status, outcome.message = "failed", prefix + verdict.message
            outcome.missing, outcome.extra = verdict.missing, verdict.extra
            return outcome
    outcome.step = 0
    return outcome


def run(
    engine: Engine,
    pairs: list[tuple[Case, Target]],
    expect_fail: set[str] = frozenset(),
    progress: Callable[[Iterable[tuple[Case, Target]]], Iterable[tuple[Case, Target]]] = iter,
) -> Iterator[Outcome]:
    """Outcomes in plan order; known failures (by case id or ruleset::id) become xfailed / xpassed.

    Each outcome is given once the next case ran, so that a line the engine wrote unasked after its
    answer (seen only at the next request) errors the case it followed.  The run ends after an outcome
    marked `fatal`."""
    info = engine.info()
    held: Outcome | None = None
    for case, ruleset in progress(pairs):
        reason = skip_reason(case, ruleset, info)
        if reason:
            outcome = Outcome(case, ruleset.name, "skipped", reason, target=ruleset)
        else:
            outcome = _timed(engine, case, ruleset, "next-segment" in info.capabilities)
        _blame_strays(engine, [o for o in (held, outcome) if o is not None])
        if held is not None:
            yield _expected(held, expect_fail)
        held = outcome
        if outcome.fatal:
            break
    if held is not None:
        yield _expected(held, expect_fail)


def _timed(engine: Engine, case: Case, ruleset: Target, ask_next: bool) -> Outcome:
    """run_one, with the engine's time on it (less any start-up of a new engine process)."""
    if hasattr(engine, "label"):
        engine.label = f"case {ruleset.name}::{case.id}"  # type: ignore[attr-defined]
    startup, began = getattr(engine, "startup_seconds", 0.0), time.perf_counter()
    outcome = run_one(engine, case, ruleset, ask_next)
    outcome.seconds = time.perf_counter() - began - (getattr(engine, "startup_seconds", 0.0) - startup)
    return outcome


def _blame_strays(engine: Engine, recent: list[Outcome]) -> None:
    """Error the case after whose answer the engine wrote a line it was not asked for."""
    strays = getattr(engine, "strays", None)
    while strays:
        label, line = strays.pop(0)
        blamed = next((o for o in recent if label == f"case {o.key}"), recent[-1])
        after = f"the answer to {label}" if label.startswith("case ") else label
        shown = line if len(line) <= 100 else line[:97] + "..."
        blamed.status, blamed.message = "errored", f"unexpected line after {after}: {shown!r}"
        blamed.missing, blamed.extra = [], []


def _expected(outcome: Outcome, expect_fail: set[str]) -> Outcome:
    """Known failures (by case id or ruleset::id) become xfailed; a listed case that passes, xpassed."""
    if outcome.case.id in expect_fail or outcome.key in expect_fail:
        if outcome.status == "failed":
            outcome.status = "xfailed"
        elif outcome.status == "passed":
            outcome.status = "xpassed"
            outcome.message = "listed as an expected failure but passes: take it off the list"
    return outcome
