"""Running cases against an engine and judging its answers."""

from __future__ import annotations

import fnmatch
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from gammonspec.conformance.harness.cases import Case, Step
from gammonspec.conformance.harness.judges import Verdict, comparable, settled
from gammonspec.conformance.harness.messages import METHODS, Query, asked_by
from gammonspec.model.interface import (
    Engine,
    EngineFailure,
    EngineInfo,
    Skip,
    describe_exception,
)
from gammonspec.model.profiles import Profile
from gammonspec.model.rulesets import Rules, Ruleset
from gammonspec.model.state import State, StateError

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
    got: Any = None  # a failed step's wrong answer as it compares (judges.Verdict.got): the same answer, the same got
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



def ask(engine: Engine, query: Query, step: Step, rules: Rules) -> object:
    """The engine's answer to `query` (messages.QUERIES) asked at this step."""
    return getattr(engine, query.method)(*query.asked(step, rules))


def judge_step(engine: Engine, step: Step, rules: Rules, ask_next: bool = True) -> Verdict:
    """The step's queries asked and judged in turn (messages.asked_by), up to the first wrong answer; without
    `ask_next`, a `then` query (next-segment) is not asked."""
    verdict = Verdict(True)
    for n, query in enumerate(asked_by(step)):
        if n and not ask_next:
            break
        answer = settled(ask(engine, query, step, rules))
        verdict = query.judge(step, answer, rules)
        if not verdict.passed:
            verdict.got = (query.request_type, comparable(answer))
            break
    return verdict


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
            outcome.missing, outcome.extra, outcome.got = verdict.missing, verdict.extra, verdict.got
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
        blamed.missing, blamed.extra, blamed.got = [], [], None


def _expected(outcome: Outcome, expect_fail: set[str]) -> Outcome:
    """Known failures (by case id or ruleset::id) become xfailed; a listed case that passes, xpassed."""
    if outcome.case.id in expect_fail or outcome.key in expect_fail:
        if outcome.status == "failed":
            outcome.status = "xfailed"
        elif outcome.status == "passed":
            outcome.status = "xpassed"
            outcome.message = "listed as an expected failure but passes: take it off the list"
    return outcome
