"""The protocol's queries in one table (spec/protocol.md): one record per query, and everything about it.

A record gives the request and reply types, the engine method, its arguments and the type of its answer, the
capability it needs, the kind of case step that asks it, the judge of its answer, the answer the step expects
in the reply's terms (export) and the step in words (the site).  `protocol.answer` (the server side),
`SubprocessEngine` and `PythonEngine` (the runner's side), the runner, export, the case loader's capabilities,
fuzz and the site hooks all read this table; each argument and answer has one writer and one reader.  A new
query is one record here plus the engine's method (README: "Adding a query or a step kind").
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gammonspec.conformance.harness import judges, wording
from gammonspec.conformance.harness.judges import Verdict
from gammonspec.conformance.harness.steps import Step, play_name
from gammonspec.model.interface import (
    MAX_POSITIONS,
    CubeOutcome,
    EngineFailure,
    EngineLoadError,
    GameResult,
    MatchOutcome,
    Opening,
)
from gammonspec.model.rulesets import Rules
from gammonspec.model.state import Cube, Layout, Match, Segment, State

if TYPE_CHECKING:
    from gammonspec.model.interface import EngineInfo


@dataclass(frozen=True)
class Field:
    """How one argument of an engine method travels: written by the runner, read by the server given the
    request's rules (a state has a bar only where they hit blots)."""

    write: Callable[[Any], Any]
    read: Callable[[Any, Rules], Any]


def _same(value: Any, rules: Rules | None = None) -> Any:
    return value


FIELDS: dict[str, Field] = {
    "rules": Field(Rules.to_wire, lambda wire, rules: rules),  # read first, by Query.arguments
    "state": Field(State.to_wire, lambda wire, rules: State.from_wire(wire, rules.state_hitting)),
    "result": Field(GameResult.to_wire, lambda wire, rules: GameResult.from_wire(wire)),
    "cube": Field(Cube.to_wire, lambda wire, rules: Cube.from_wire(wire)),
    "match": Field(Match.to_wire, lambda wire, rules: Match.from_wire(wire)),
    "response": Field(_same, _same),
    "dice": Field(_same, _same),
    "game_number": Field(_same, _same),
    "previous_winner": Field(_same, _same),
}


Judge = Callable[[Step, Any, Rules], Verdict]


def _judged(judge: Callable[[Step, Any], Verdict]) -> Judge:
    """A judge that needs only the step and the answer."""
    return lambda step, answer, rules: judge(step, answer)


@dataclass(frozen=True)
class Query:
    """One query: `params` name the engine method's arguments in order (each a FIELDS entry); `check` takes the
    method's answer as returned (wrong type: EngineFailure), `reply` writes it as the reply's fields, `answer`
    reads them back given the request's arguments.  For a case step: `judge` compares the answer with the step's
    expectation, `expected` gives the reply's fields the step expects, `words` that expectation in words and
    `scene` what the step does ("" where its words say it)."""

    request_type: str
    reply_type: str
    method: str
    capability: str
    step: str | None  # the case step kind that asks it (None: asked only as another query's `then`)
    params: tuple[str, ...]
    check: Callable[[str, Any], Any]
    reply: Callable[[Any], dict[str, Any]]
    answer: Callable[[dict[str, Any], dict[str, Any]], Any]
    judge: Judge
    expected: Callable[[Step], dict[str, Any]]
    words: Callable[[Step], list[str]]
    scene: Callable[[Step], str] = wording.no_scene
    then: str | None = None  # the query asked next where the step expects it (`next`: Step.check_next)

    def asked(self, step: Step, rules: Rules) -> tuple[Any, ...]:
        """The arguments `step` asks this query with, in the order of `params` (FIELDS names)."""
        state = step.state
        values = {"state": state, "rules": rules, "cube": state.cube, "match": state.match}
        values |= {"response": step.response, "result": step.outcome, **(step.opening or {})}
        return tuple(values[name] for name in self.params)

    def request(self, rid: str, args: tuple[Any, ...]) -> dict[str, Any]:
        """The request asking this query with the engine method's arguments (schema-valid by construction)."""
        return {"type": self.request_type, "id": rid, **{n: FIELDS[n].write(v) for n, v in zip(self.params, args)}}

    def arguments(self, request: dict[str, Any]) -> tuple[Any, ...]:
        """The engine method's arguments read from a (checked) request: its rules first, which the state needs."""
        rules = Rules.from_wire(request["rules"])
        return tuple(FIELDS[name].read(request.get(name), rules) for name in self.params)


def _materialised(method: str, answer: Any) -> list[Any]:
    """A legal-plays answer as a list, at most MAX_POSITIONS long."""
    if isinstance(answer, (str, bytes)) or not isinstance(answer, Iterable):
        raise EngineFailure(f"{method} returned {type(answer).__name__}, expected an iterable of Layout")
    plays = list(itertools.islice(answer, MAX_POSITIONS + 1))
    if len(plays) > MAX_POSITIONS:
        raise EngineFailure(f"{method} answered more than {MAX_POSITIONS:,} positions (the protocol's limit)")
    return plays


def _of_type(wanted: str, *types: type) -> Callable[[str, Any], Any]:
    """A check that the answer is one of `types` (`wanted` says which, in words)."""

    def check(method: str, answer: Any) -> Any:
        if not isinstance(answer, types):
            shown = repr(answer)
            shown = shown if len(shown) <= 60 else shown[:57] + "..."
            raise EngineFailure(f"{method} returned {type(answer).__name__} {shown}, expected {wanted}")
        return answer

    return check


def _optional(write: Callable[[Any], Any], value: Any) -> Any:
    return None if value is None else write(value)


def _cube_outcome(outcome: CubeOutcome) -> dict[str, Any]:
    fields: dict[str, Any] = {"legal": outcome.legal}
    if outcome.cube is not None:
        fields["cube"] = outcome.cube.to_wire()
    if outcome.result is not None:
        fields["result"] = outcome.result.to_wire()
    return fields


def _plays_expected(step: Step) -> dict[str, Any]:
    """What a legal-plays answer must hold, with positions in the wire format (the scripted play among them)."""
    expect, expected = step.expect, step.expected
    out: dict[str, Any] = {}
    if expected.get("plays"):
        out["positions"] = [layout.to_wire() for layout in expected["plays"].values()]
    if expect.get("no_play"):
        out["positions"] = [step.state.layout.to_wire()]
    if expected.get("includes"):
        out["includes"] = [layout.to_wire() for layout in expected["includes"].values()]
    if expect.get("excludes"):
        out["excludes"] = [
            {
                "position": expected["excludes"][play_name(item["play"])].to_wire(),
                "reason": item["reason"],
                "play": play_name(item["play"]),
            }
            for item in expect["excludes"]
        ]
    out |= {name: expect[name] for name in ("count", "digest", "divide") if name in expect}
    if step.play is not None:
        out["includes"] = [*out.get("includes", []), step.play[1].to_wire()]  # the scripted play must be legal
    return out


def _next_reply(following: Segment | None) -> dict[str, Any]:
    return {"next": _optional(Segment.to_wire, following)}


def _result_reply(result: GameResult | None) -> dict[str, Any]:
    return {"result": _optional(GameResult.to_wire, result)}


def _stated(step: Step, names: tuple[str, ...], given: dict[str, Any] | None = None) -> dict[str, Any]:
    """The fields of an answer that the step states (an opening's, a double's: the others are not judged)."""
    return (given or {}) | {name: step.expect[name] for name in names if name in step.expect}


QUERIES: dict[str, Query] = {
    query.request_type: query
    for query in (
        Query(
            request_type="legal-plays",
            reply_type="plays",
            method="legal_plays",
            capability="legal-plays",
            step="plays",
            params=("state", "rules"),
            check=_materialised,
            reply=lambda plays: {"positions": [layout.to_wire() for layout in plays]},
            answer=lambda reply, args: [
                Layout.from_wire(args["state"].game, p, check=False) for p in reply["positions"]
            ],
            judge=judges.judge_legal_plays,
            expected=_plays_expected,
            words=wording.plays_words,
            scene=wording.plays_scene,
            then="next-segment",
        ),
        Query(
            request_type="next-segment",
            reply_type="next-segment",
            method="next_segment",
            capability="next-segment",
            step=None,
            params=("state", "rules"),
            check=_of_type("a Segment or None", Segment, type(None)),
            reply=_next_reply,
            answer=lambda reply, args: Segment.from_wire(reply["next"]),
            judge=_judged(judges.judge_next),
            expected=lambda step: _next_reply(step.next),
            words=wording.next_words,
        ),
        Query(
            request_type="game-result",
            reply_type="game-result",
            method="game_result",
            capability="game-result",
            step="result",
            params=("state", "rules"),
            check=_of_type("a GameResult or None", GameResult, type(None)),
            reply=_result_reply,
            answer=lambda reply, args: _optional(GameResult.from_wire, reply["result"]),
            judge=_judged(judges.judge_result),
            expected=lambda step: _result_reply(
                None if step.expect.get("not_over") else GameResult.from_wire(step.expect["result"])
            ),
            words=wording.result_words,
        ),
        Query(
            request_type="opening",
            reply_type="opening",
            method="opening",
            capability="opening",
            step="opening",
            params=("rules", "dice", "game_number", "previous_winner", "cube", "match"),
            check=_of_type("an Opening", Opening),
            reply=lambda start: {
                "starts": start.starts,
                "dice": _optional(list, start.dice),
                "cube": start.cube.to_wire(),
            },
            answer=lambda reply, args: Opening(
                reply["starts"],
                _optional(tuple, reply["dice"]),
                Cube.from_wire(reply.get("cube", args["cube"].to_wire())),
            ),
            judge=_judged(judges.judge_opening),
            expected=lambda step: _stated(step, ("starts", "dice", "cube")),
            words=wording.opening_words,
            scene=wording.opening_scene,
        ),
        Query(
            request_type="may-double",
            reply_type="may-double",
            method="may_double",
            capability="cube",
            step="may-double",
            params=("state", "rules"),
            check=_of_type("a bool", bool),
            reply=lambda allowed: {"allowed": allowed},
            answer=lambda reply, args: reply["allowed"],
            judge=_judged(judges.judge_may_double),
            expected=lambda step: {"allowed": step.expect["may_double"]},
            words=wording.may_double_words,
        ),
        Query(
            request_type="cube-action",
            reply_type="cube-action",
            method="cube_action",
            capability="cube",
            step="double",
            params=("state", "rules", "response"),
            check=_of_type("a CubeOutcome", CubeOutcome),
            reply=_cube_outcome,
            answer=lambda reply, args: CubeOutcome(
                reply["legal"],
                Cube.from_wire(reply["cube"]) if "cube" in reply else None,
                _optional(GameResult.from_wire, reply.get("result")),
            ),
            judge=_judged(judges.judge_double),
            expected=lambda step: _stated(step, ("cube", "result"), {"legal": step.expect.get("legal", True)}),
            words=wording.double_words,
            scene=wording.double_scene,
        ),
        Query(
            request_type="match-after-game",
            reply_type="match-after-game",
            method="match_after_game",
            capability="cube",
            step="next-game",
            params=("state", "rules", "result"),
            check=_of_type("a MatchOutcome", MatchOutcome),
            reply=MatchOutcome.to_wire,
            answer=lambda reply, args: MatchOutcome.from_wire(reply),
            judge=_judged(judges.judge_match),
            expected=lambda step: MatchOutcome.from_wire(step.expect).to_wire(),
            words=wording.match_words,
            scene=lambda step: "the match after the game",
        ),
    )
}
STEP_QUERIES = {query.step: query for query in QUERIES.values() if query.step is not None}  # by case step kind
METHODS = {query.method: query for query in QUERIES.values()}  # the Engine protocol's query methods


def asked_by(step: Step) -> list[Query]:
    """The queries a step asks, in order: its kind's, then the one after it where the step expects it."""
    query = STEP_QUERIES[step.kind]
    return [query] + ([QUERIES[query.then]] if query.then and step.check_next else [])


def check_answer(method: str, answer: object) -> Any:
    """An engine method's answer, checked for its type (legal_plays: materialised, at most MAX_POSITIONS)."""
    return METHODS[method].check(method, answer)


def check_methods(spec: str, engine: object, info: EngineInfo) -> None:
    """Every method of a declared capability is there (undeclared ones are never called)."""
    wanted = [q for capability in info.capabilities for q in QUERIES.values() if q.capability == capability]
    for query in wanted:  # in the order declared: the first missing method is named
        if not callable(getattr(engine, query.method, None)):
            raise EngineLoadError(
                f"engine {spec!r} declares capability {query.capability} but has no method {query.method}: add it, "
                f"or declare only the capabilities it answers in its EngineInfo (capabilities=(...))"
            )
