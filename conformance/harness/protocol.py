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

from gammonspec.conformance.harness.loading import check_info
from gammonspec.conformance.harness.messages import QUERIES, check_answer, check_methods
from gammonspec.model import PROTOCOL_VERSION
from gammonspec.model.interface import MAX_POSITIONS, Engine, EngineFailure, EngineInfo, Skip, describe_exception
from gammonspec.model.rulesets import RulesError
from gammonspec.model.state import Layout, StateError
from gammonspec.model.terminal import clipped, shortened
from gammonspec.model.validation import Compiled, schema

try:  # JSON read and written in Rust, where a wheel of it is installed (pyproject: as jsonschema-rs)
    import orjson
except ImportError:  # pragma: no cover - elsewhere the standard library serves alone
    orjson = None

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
        entry = (defs[name], Compiled({"$ref": f"#/$defs/{name}", "$defs": defs}, json_shaped=True))
        for value in type_.get("enum", [type_.get("const")]):
            messages[value] = entry
    return messages


@cache
def _definition(name: str) -> Compiled:
    return Compiled({"$ref": f"#/$defs/{name}", "$defs": schema("protocol")["$defs"]}, json_shaped=True)


def check_state(data: Any) -> None:
    """Raise ProtocolError unless `data` is a protocol state (the schema's `state`), as a file may hold one."""
    failure = _definition("state").failure(data)
    if failure is not None:
        path, text, _ = failure
        raise ProtocolError(f"{'/'.join(map(str, path)) or '(top)'}: {shortened(clipped(text), 200)}")


def check(kind: str, message: Any) -> dict[str, Any]:
    """Raise ProtocolError unless `message` is a valid `to_engine` / `from_engine` message."""
    messages = _messages(kind)
    if not isinstance(message, dict) or message.get("type") not in messages:
        got = message.get("type") if isinstance(message, dict) else type(message).__name__
        if isinstance(got, str) and got.lower() in messages:
            raise ProtocolError(f"message: unknown message type {got!r}: types are lower case ({got.lower()!r})")
        shown = shortened(repr(got), 60)
        raise ProtocolError(f"message: unknown message type {shown} (expected one of {', '.join(messages)})")
    failure = messages[message["type"]][1].failure(message)
    if failure is not None:
        path, text, _ = failure
        text = shortened(" ".join(text.split()), 100)  # its end says what is wrong with the value it quotes
        raise ProtocolError(f"{'/'.join(map(str, path)) or 'message'}: {text}")
    return message


def unknown_fields(message: dict[str, Any]) -> list[str]:
    """The top-level fields of a from_engine message that this version does not define (they are ignored)."""
    entry = _messages("from_engine").get(message.get("type"))
    return [] if entry is None else sorted(set(message) - set(entry[0]["properties"]))


_DIGITS = bytes(48 if 48 <= b < 58 else 32 for b in range(256))  # digits to "0", every other byte to " "
_LONG_NUMBER = b"0" * 19  # an integer orjson might read past 64 bits, as a float


def _loads(line: str) -> Any:
    """What json.loads reads, faster: orjson reads a line unless it fails or the line has a number of 19 digits
    or more; json reads those (NaN, lone surrogates, big integers) and words every error."""
    if orjson is not None and _LONG_NUMBER not in line.encode("utf-8", "surrogatepass").translate(_DIGITS):
        try:
            return orjson.loads(line)
        except orjson.JSONDecodeError:
            pass
    return json.loads(line)


def decode(line: str, kind: str) -> dict[str, Any]:
    try:
        message = _loads(line)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError, an integer of too many digits, too deep
        raise ProtocolError(f"not JSON ({_unreadable(exc)}): {shortened(repr(line[:80]), 120)}") from None
    positions = message.get("positions") if isinstance(message, dict) else None
    if isinstance(positions, list) and len(positions) > MAX_POSITIONS:  # before the schema: checking them is slow
        raise ProtocolError(f"positions: {len(positions):,} of them, over the protocol's limit of {MAX_POSITIONS:,}")
    return check(kind, message)


def _unreadable(exc: ValueError | RecursionError) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return exc.msg
    if isinstance(exc, RecursionError):
        return "nested too deep"
    text = str(exc).split(":", 1)[0]  # "Exceeds the limit (4300 digits) for integer string conversion"
    return "an integer of too many digits" if "integer string conversion" in text else text


# orjson refuses (so json decides) what json would not write as orjson does
_AS_JSON_DOES = (
    0
    if orjson is None
    else orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS
)


def encode(message: dict[str, Any]) -> str:
    """One line of compact ASCII JSON (orjson writes it where it can: not past 64-bit integers nor non-ASCII)."""
    if orjson is not None:
        try:
            line = orjson.dumps(message, option=_AS_JSON_DOES)
        except TypeError:  # what json alone writes (or refuses)
            pass
        else:
            if line.isascii():
                return line.decode("ascii")
    return json.dumps(message, separators=(",", ":"))


def hello_refusal(raw: bytes) -> str:
    """An `error` or `skip` line in answer to hello (which has no id), in words with the engine's own reason ('' for
    any other line)."""
    try:
        message = _loads(raw.decode("utf-8", errors="replace"))
    except (ValueError, RecursionError):
        return ""
    if not isinstance(message, dict) or message.get("type") not in ("error", "skip"):
        return ""
    reason = message.get("message" if message["type"] == "error" else "reason")
    return f"{message['type']}: {clipped(str(reason))}" if reason is not None else f"a bare {message['type']}"


def compatible(version: str) -> bool:
    """Same major version, as semantic versioning has it."""
    return version.split(".")[0] == PROTOCOL_VERSION.split(".")[0]


def answer(engine: Engine, request: dict[str, Any]) -> dict[str, Any]:
    """The engine's answer to one query, as a protocol message (the query's entry in messages.QUERIES)."""
    rid = request["id"]
    try:
        query = QUERIES[request["type"]]
        return {
            "type": query.reply_type,
            "id": rid,
            **query.reply(_call(engine, query.method, *query.arguments(request))),
        }
    except Skip as exc:
        return {"type": "skip", "id": rid, "reason": str(exc)}
    except StateError as exc:
        return {"type": "error", "id": rid, "message": f"bad state: {exc}"}
    except RulesError as exc:
        return {"type": "error", "id": rid, "message": f"bad rules: {exc}"}
    except EngineFailure as exc:  # a wrong answer of the engine's, already worded
        return {"type": "error", "id": rid, "message": str(exc)}
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - the server reports, the runner decides
        traceback.print_exc(file=sys.stderr)
        return {"type": "error", "id": rid, "message": describe_exception(exc)}


def _call(engine: Engine, method: str, *args: Any) -> Any:
    """An engine method's answer, checked for its type (a wrong one is an error naming the method)."""
    answer = check_answer(method, getattr(engine, method)(*args))
    wrong = [lay for lay in answer if not isinstance(lay, Layout)][:1] if method == "legal_plays" else []
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
