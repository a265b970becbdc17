"""The protocol's queries in one table (spec/protocol.md): for each, the request and reply types, the engine
method, its arguments and the type of its answer, the capability it needs and the kind of case step that asks it.

`protocol.answer` (the server side), `SubprocessEngine` and `PythonEngine` (the runner's side), the runner's
steps, export and the case loader's capabilities all read this table; each argument and answer has one
writer and one reader.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

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


@dataclass(frozen=True)
class Query:
    """One query: `params` name the engine method's arguments in order (each a FIELDS entry); `check` takes the
    method's answer as returned (wrong type: EngineFailure), `reply` writes it as the reply's fields, `answer`
    reads them back given the request's arguments."""

    request_type: str
    reply_type: str
    method: str
    capability: str
    step: str | None  # the case step kind that asks it (None: asked along with a plays step)
    params: tuple[str, ...]
    check: Callable[[str, Any], Any]
    reply: Callable[[Any], dict[str, Any]]
    answer: Callable[[dict[str, Any], dict[str, Any]], Any]

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


QUERIES: dict[str, Query] = {
    query.request_type: query
    for query in (
        Query(
            "legal-plays",
            "plays",
            "legal_plays",
            "legal-plays",
            "plays",
            ("state", "rules"),
            _materialised,
            lambda plays: {"positions": [layout.to_wire() for layout in plays]},
            lambda reply, args: [Layout.from_wire(args["state"].game, p, check=False) for p in reply["positions"]],
        ),
        Query(
            "next-segment",
            "next-segment",
            "next_segment",
            "next-segment",
            None,
            ("state", "rules"),
            _of_type("a Segment or None", Segment, type(None)),
            lambda following: {"next": _optional(Segment.to_wire, following)},
            lambda reply, args: Segment.from_wire(reply["next"]),
        ),
        Query(
            "game-result",
            "game-result",
            "game_result",
            "game-result",
            "result",
            ("state", "rules"),
            _of_type("a GameResult or None", GameResult, type(None)),
            lambda result: {"result": _optional(GameResult.to_wire, result)},
            lambda reply, args: _optional(GameResult.from_wire, reply["result"]),
        ),
        Query(
            "opening",
            "opening",
            "opening",
            "opening",
            "opening",
            ("rules", "dice", "game_number", "previous_winner", "cube", "match"),
            _of_type("an Opening", Opening),
            lambda start: {
                "starts": start.starts,
                "dice": _optional(list, start.dice),
                "cube": start.cube.to_wire(),
            },
            lambda reply, args: Opening(
                reply["starts"],
                _optional(tuple, reply["dice"]),
                Cube.from_wire(reply.get("cube", args["cube"].to_wire())),
            ),
        ),
        Query(
            "may-double",
            "may-double",
            "may_double",
            "cube",
            "may-double",
            ("state", "rules"),
            _of_type("a bool", bool),
            lambda allowed: {"allowed": allowed},
            lambda reply, args: reply["allowed"],
        ),
        Query(
            "cube-action",
            "cube-action",
            "cube_action",
            "cube",
            "double",
            ("state", "rules", "response"),
            _of_type("a CubeOutcome", CubeOutcome),
            _cube_outcome,
            lambda reply, args: CubeOutcome(
                reply["legal"],
                Cube.from_wire(reply["cube"]) if "cube" in reply else None,
                _optional(GameResult.from_wire, reply.get("result")),
            ),
        ),
        Query(
            "match-after-game",
            "match-after-game",
            "match_after_game",
            "cube",
            "next-game",
            ("state", "rules", "result"),
            _of_type("a MatchOutcome", MatchOutcome),
            MatchOutcome.to_wire,
            lambda reply, args: MatchOutcome.from_wire(reply),
        ),
    )
}
STEP_QUERIES = {query.step: query for query in QUERIES.values() if query.step is not None}
METHODS = {query.method: query for query in QUERIES.values()}  # the Engine protocol's query methods


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
