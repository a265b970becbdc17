"""Running cases against an engine and judging its answers."""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Literal

from .cases import Case, digest
from .engine import Engine, EngineInfo, Skip
from .notation import describe
from .rules import Ruleset
from .state import Layout, StateError

Status = Literal["passed", "failed", "skipped", "errored", "xfailed", "xpassed"]


@dataclass(frozen=True)
class Filters:
    games: tuple[str, ...] = ()
    rulesets: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()  # rule ID globs
    cases: tuple[str, ...] = ()  # case id globs

    def keep(self, case: Case, ruleset: Ruleset) -> bool:
        def match(values: Iterable[str], patterns: tuple[str, ...]) -> bool:
            return not patterns or any(fnmatch.fnmatchcase(v, p) for v in values for p in patterns)

        return (
            match([case.game], self.games)
            and match([ruleset.name], self.rulesets)
            and match(case.rules, self.rules)
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

    @property
    def key(self) -> str:
        return f"{self.ruleset}::{self.case.id}"


def plan(cases: Iterable[Case], suite_rulesets: dict[str, Ruleset], filters: Filters) -> list[tuple[Case, Ruleset]]:
    """Every (case, ruleset) pair to run: a case runs under each ruleset whose switches it requires."""
    return [
        (case, rs)
        for rs in suite_rulesets.values()
        for case in cases
        if case.game == rs.game and rs.admits(case.requires, case.options) and filters.keep(case, rs)
    ]


def skip_reason(case: Case, ruleset: Ruleset, info: EngineInfo) -> str | None:
    """Why an engine is not asked a case at all, from what it declared."""
    if ruleset.name not in info.rulesets:
        return f"engine does not implement ruleset {ruleset.name}"
    if case.query not in info.capabilities:
        return f"engine does not answer {case.query} queries"
    for name, value in case.options.items():
        if name in info.options and value not in info.options[name]:
            return f"engine does not support option {name}={value}"
    return None


def judge_plays(case: Case, answer: Iterable[Layout]) -> Outcome:
    """Compare an engine's set of resulting layouts with the case's expectation."""
    before = case.state.layout
    actual: dict[str, Layout] = {}
    for layout in answer:
        if not isinstance(layout, Layout) or layout.game != case.game:
            raise StateError(f"engine answered {layout!r}, not a {case.game} layout")
        layout.validate()
        actual[layout.key()] = layout
    expect, expected = case.expect, case.expected
    missing: list[str] = []
    extra: list[str] = []
    problems: list[str] = []
    if "plays" in expected:
        wanted = {lay.key(): play for play, lay in expected["plays"].items()}
        missing = [play for key, play in wanted.items() if key not in actual]
        extra = [describe(before, lay, case.state.turn) for key, lay in actual.items() if key not in wanted]
    missing += [play for play, lay in expected.get("includes", {}).items() if lay.key() not in actual]
    for item in expect.get("excludes", []):
        if expected["excludes"][item["play"]].key() in actual:
            extra.append(f"{item['play']} (forbidden: {item['reason']})")
    if "count" in expect and len(actual) != expect["count"]:
        problems.append(f"expected {expect['count']} distinct positions, engine gave {len(actual)}")
    if "digest" in expect and digest(actual.values()) != expect["digest"]:
        problems.append(f"digest {digest(actual.values())} differs from expected {expect['digest']}")
    if missing or extra or problems:
        lines = problems + ([f"missing: {' | '.join(missing)}"] if missing else []) + ([f"extra: {' | '.join(extra)}"] if extra else [])
        return Outcome(case, "", "failed", "; ".join(lines), missing, extra)
    return Outcome(case, "", "passed")


def judge_result(case: Case, answer: object) -> Outcome:
    expect = case.expect
    if expect.get("not_over"):
        ok = answer is None
        want = "game not over"
    else:
        want = "{winner} wins {kind}, {points} points".format(**expect["result"])
        ok = answer is not None and (answer.winner, answer.kind, answer.points) == tuple(expect["result"][k] for k in ("winner", "kind", "points"))
    if ok:
        return Outcome(case, "", "passed")
    got = "game not over" if answer is None else f"{answer.winner} wins {answer.kind}, {answer.points} points"
    return Outcome(case, "", "failed", f"expected {want}; engine says {got}")


def run_one(engine: Engine, case: Case, ruleset: Ruleset) -> Outcome:
    """Ask the engine one case and judge the answer; no exception escapes."""
    rules = ruleset.rules(case.options)
    try:
        if case.query == "legal-plays":
            outcome = judge_plays(case, engine.legal_plays(case.state, rules))
        else:
            outcome = judge_result(case, engine.game_result(case.state, rules))
    except Skip as exc:
        outcome = Outcome(case, "", "skipped", f"engine skipped: {exc}")
    except Exception as exc:  # noqa: BLE001 - any engine failure is an errored result, not a crash
        outcome = Outcome(case, "", "errored", f"{type(exc).__name__}: {exc}", stderr=getattr(exc, "stderr", ""))
    outcome.ruleset = ruleset.name
    return outcome


def run(
    engine: Engine,
    pairs: list[tuple[Case, Ruleset]],
    expect_fail: set[str] = frozenset(),
    progress: Callable[[Iterable[tuple[Case, Ruleset]]], Iterable[tuple[Case, Ruleset]]] = iter,
) -> Iterator[Outcome]:
    """Outcomes in plan order; known failures (by case id or ruleset::id) become xfailed / xpassed."""
    info = engine.info()
    for case, ruleset in progress(pairs):
        reason = skip_reason(case, ruleset, info)
        outcome = Outcome(case, ruleset.name, "skipped", reason) if reason else run_one(engine, case, ruleset)
        if case.id in expect_fail or outcome.key in expect_fail:
            if outcome.status == "failed":
                outcome.status = "xfailed"
            elif outcome.status == "passed":
                outcome.status, outcome.message = "xpassed", "listed as an expected failure but passes: take it off the list"
        yield outcome
