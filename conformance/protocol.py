"""The JSON-lines engine protocol (spec/protocol.md): message checking and the server side.

`serve` makes any Python engine speak the protocol on stdin/stdout; `subprocess_engine`
is the runner's side.
"""

from __future__ import annotations

import json
import sys
import traceback
from functools import cache
from typing import Any, TextIO

from . import PROTOCOL_VERSION
from .engine import (
    MAX_POSITIONS,
    Engine,
    EngineFailure,
    EngineInfo,
    GameResult,
    Skip,
    check_answer,
    check_info,
    check_methods,
    describe_exception,
)
from .rules import Rules
from .state import SIDES, Cube, Layout, Match, State, StateError
from .validation import Compiled, schema

MAX_LINE = 4 * 1024 * 1024  # bytes in one message line, its newline not counted (spec/protocol.md, "Limits")


class ProtocolError(ValueError):
    """A message that is not JSON, or not a message of this protocol."""


@cache
def _messages(kind: str) -> dict[str, tuple[dict[str, Any], Compiled]]:
    """Each message type of `kind` (to_engine / from_engine), read off the schema's oneOf: its definition and validator."""
    defs = schema("protocol")["$defs"]
    messages = {}
    for ref in defs[kind]["oneOf"]:
        name = ref["$ref"].rsplit("/", 1)[1]
        type_ = defs[name]["properties"]["type"]
        entry = (defs[name], Compiled({"$ref": f"#/$defs/{name}", "$defs": defs}))
        for value in type_.get("enum", [type_.get("const")]):
            messages[value] = entry
    return messages


def check(kind: str, message: Any) -> dict[str, Any]:
    """Raise ProtocolError unless `message` is a valid `to_engine` / `from_engine` message."""
    messages = _messages(kind)
    if not isinstance(message, dict) or message.get("type") not in messages:
        got = message.get("type") if isinstance(message, dict) else type(message).__name__
        raise ProtocolError(f"message: unknown message type {got!r} (expected one of {', '.join(messages)})")
    failure = messages[message["type"]][1].failure(message)
    if failure is not None:
        path, text, _ = failure
        text = text if len(text) <= 200 else text[:197] + "..."
        raise ProtocolError(f"{'/'.join(map(str, path)) or 'message'}: {text}")
    return message


def unknown_fields(message: dict[str, Any]) -> list[str]:
    """The top-level fields of a from_engine message that this version does not define (they are ignored)."""
    entry = _messages("from_engine").get(message.get("type"))
    return [] if entry is None else sorted(set(message) - set(entry[0]["properties"]))


def decode(line: str, kind: str) -> dict[str, Any]:
    try:
        message = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ProtocolError(f"not JSON ({exc.msg}): {line[:120]!r}") from None
    positions = message.get("positions") if isinstance(message, dict) else None
    if isinstance(positions, list) and len(positions) > MAX_POSITIONS:  # before the schema: checking them is slow
        raise ProtocolError(f"positions: {len(positions):,} of them, over the protocol's limit of {MAX_POSITIONS:,}")
    return check(kind, message)


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


def compatible(version: str) -> bool:
    """Same major version, as semantic versioning has it."""
    return version.split(".")[0] == PROTOCOL_VERSION.split(".")[0]


def result_to_wire(result: GameResult) -> dict[str, Any]:
    return {"winner": result.winner, "kind": result.kind, "points": result.points}


def result_from_wire(data: dict[str, Any]) -> GameResult:
    return GameResult(data["winner"], data["kind"], data["points"])


def answer(engine: Engine, request: dict[str, Any]) -> dict[str, Any]:
    """The engine's answer to one query, as a protocol message."""
    rid = request["id"]
    try:
        rules = Rules.from_wire(request["rules"])
        if request["type"] == "opening":
            cube, match = Cube.from_wire(request.get("cube")), Match.from_wire(request.get("match"))
            start = _call(
                engine,
                "opening",
                rules,
                request["dice"],
                request["game_number"],
                request["previous_winner"],
                cube,
                match,
            )
            return {
                "type": "opening",
                "id": rid,
                "starts": start.starts,
                "dice": None if start.dice is None else list(start.dice),
                "cube": start.cube.to_wire(),
            }
        state = State.from_wire(request["state"])
        if request["type"] == "may-double":
            return {"type": "may-double", "id": rid, "allowed": _call(engine, "may_double", state, rules)}
        if request["type"] == "cube-action":
            outcome = _call(engine, "cube_action", state, rules, request["response"])
            reply: dict[str, Any] = {"type": "cube-action", "id": rid, "legal": outcome.legal}
            if outcome.cube is not None:
                reply["cube"] = outcome.cube.to_wire()
            if outcome.result is not None:
                reply["result"] = result_to_wire(outcome.result)
            return reply
        if request["type"] == "match-after-game":
            after = _call(engine, "match_after_game", state, rules, result_from_wire(request["result"]))
            return {
                "type": "match-after-game",
                "id": rid,
                "score": dict(zip(SIDES, after.score)),
                "crawford": after.crawford,
                "winner": after.winner,
            }
        if request["type"] == "next-segment":
            following = _call(engine, "next_segment", state, rules)
            return {"type": "next-segment", "id": rid, "next": None if following is None else following.to_wire()}
        if request["type"] == "legal-plays":
            return {
                "type": "plays",
                "id": rid,
                "positions": [lay.to_wire() for lay in _call(engine, "legal_plays", state, rules)],
            }
        result = _call(engine, "game_result", state, rules)
        return {"type": "game-result", "id": rid, "result": None if result is None else result_to_wire(result)}
    except Skip as exc:
        return {"type": "skip", "id": rid, "reason": str(exc)}
    except StateError as exc:
        return {"type": "error", "id": rid, "message": f"bad state: {exc}"}
    except EngineFailure as exc:  # a wrong answer of the engine's, already worded
        return {"type": "error", "id": rid, "message": str(exc)}
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - the server reports, the runner decides
        traceback.print_exc(file=sys.stderr)
        return {"type": "error", "id": rid, "message": describe_exception(exc)}


def _call(engine: Engine, method: str, *args: Any) -> Any:
    """An engine method's answer, checked for its type (a wrong one is an error naming the method)."""
    answer = check_answer(method, getattr(engine, method)(*args))
    wrong = [lay for lay in answer if not isinstance(lay, Layout)][:1] if method == "legal_plays" else []  # type: ignore[attr-defined]
    if wrong:
        raise TypeError(f"legal_plays answered {type(wrong[0]).__name__} {wrong[0]!r}, not a Layout")
    return answer


def serve(engine: Engine, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout, name: str = "engine") -> int:
    """Speak the protocol for `engine` (loaded as `name`) until `bye` or end of input."""
    info = check_info(name, engine.info())
    check_methods(name, engine, info)
    for line in stdin:
        if not line.strip():
            continue
        try:
            message = decode(line, "to_engine")
        except ProtocolError as exc:
            print(f"gammonspec serve: ignoring bad message: {exc}", file=sys.stderr)
            continue
        if message["type"] == "bye":
            return 0
        if message["type"] == "hello":
            reply: dict[str, Any] = {
                "type": "hello",
                "protocol": PROTOCOL_VERSION,
                "name": info.name,
                "version": info.version,
                "rulesets": list(info.rulesets),
                "capabilities": list(info.capabilities),
                **hello_profiles(info),
            }
            if not compatible(message["protocol"]):
                print(
                    f"gammonspec serve: runner speaks protocol {message['protocol']}, this is {PROTOCOL_VERSION}",
                    file=sys.stderr,
                )
        else:
            reply = answer(engine, message)
        stdout.write(encode(reply) + "\n")
        stdout.flush()
    return 0


def hello_profiles(info: EngineInfo) -> dict[str, Any]:
    """The 1.1 fields of an engine's hello, present only when the engine declares profiles or reads switches."""
    fields: dict[str, Any] = {}
    if info.profiles:
        fields["profiles"] = [profile.to_wire() for profile in info.profiles]
    if info.reads_switches:
        fields["reads_switches"] = True
    return fields


def layouts(game: str, positions: list[dict[str, Any]]) -> list[Layout]:
    """Positions from an engine's answer, read but not judged: the runner reports an impossible one as a wrong play."""
    return [Layout.from_wire(game, p, check=False) for p in positions]
