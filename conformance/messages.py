"""The protocol's queries in one table (spec/protocol.md): for each, the request and reply types, the engine
method and its arguments, the capability it needs and the kind of case step that asks it.

`protocol.answer` (the server side), `SubprocessEngine` (the runner's side) and the case loader's
capabilities all read this table; each argument and answer has one writer and one reader.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .engine import CubeOutcome, GameResult, MatchOutcome, Opening
from .rulesets import Rules
from .state import Cube, Layout, Match, Segment, State


@dataclass(frozen=True)
class Field:
    """How one argument of an engine method travels: written by the runner, read by the server."""

    write: Callable[[Any], Any]
    read: Callable[[Any], Any]


def _same(value: Any) -> Any:
    return value


FIELDS: dict[str, Field] = {
    "rules": Field(Rules.to_wire, Rules.from_wire),
    "state": Field(State.to_wire, State.from_wire),
    "result": Field(GameResult.to_wire, GameResult.from_wire),
    "cube": Field(Cube.to_wire, Cube.from_wire),
    "match": Field(Match.to_wire, Match.from_wire),
    "response": Field(_same, _same),
    "dice": Field(_same, _same),
    "game_number": Field(_same, _same),
    "previous_winner": Field(_same, _same),
}


@dataclass(frozen=True)
class Query:
    """One query: `params` name the engine method's arguments in order (each a FIELDS entry); `reply` writes the
    method's answer as the reply's fields, `answer` reads them back given the request's arguments."""

    request: str
    reply_type: str
    method: str
    capability: str
    step: str | None  # the case step kind that asks it (None: asked along with a plays step)
    params: tuple[str, ...]
    reply: Callable[[Any], dict[str, Any]]
    answer: Callable[[dict[str, Any], dict[str, Any]], Any]


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
    query.request: query
    for query in (
        Query(
            "legal-plays",
            "plays",
            "legal_plays",
            "legal-plays",
            "plays",
            ("state", "rules"),
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
            MatchOutcome.to_wire,
            lambda reply, args: MatchOutcome.from_wire(reply),
        ),
    )
}
STEP_QUERIES = {query.step: query for query in QUERIES.values() if query.step is not None}
