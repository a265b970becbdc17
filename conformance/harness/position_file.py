"""A position file (`gammonspec ask FILE.yaml`): one state written as a case writes its own, in YAML or JSON.

Its fields are a case's position fields (spec/conventions.md): `game`, then `position` (or `xgid`, `gnubgid`),
`turn`, `roll`, `context`, `segment`, `cube`, `match`, or the whole state as a Narde position ID (`nid`); checked
against the case schema's definitions of them and read by the case reader (cases.read_state)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from gammonspec.conformance.harness.cases import read_state
from gammonspec.model.state import Side, State
from gammonspec.model.validation import Compiled, schema
from gammonspec.model.yamlio import DataError, LineDict, load_yaml, locate

FIELDS = ("position", "xgid", "gnubgid", "nid", "turn", "roll", "context", "segment", "cube", "match")


@cache
def _validator() -> Compiled:
    whole = schema("case")
    case = whole["$defs"]["case"]
    definition = {
        "$defs": whole["$defs"],
        "type": "object",
        "required": ["game"],
        "additionalProperties": False,
        "properties": {"game": {"$ref": "#/$defs/game"}, **{k: case["properties"][k] for k in FIELDS}},
        "oneOf": case["oneOf"],
    }
    return Compiled(definition, strict_integers=True)


def read_position(path: Path, turn: Side | None = None) -> tuple[State, bool]:
    """The state a position file writes (its side on roll `turn` when it names none), and whether it gives a turn
    context; DataError naming the file, the line and the field at fault."""
    data = load_yaml(path)
    if not isinstance(data, LineDict):
        raise DataError(path, 1, "a position file is a mapping: game, position (or xgid, gnubgid), turn, roll, ...")
    failure = _validator().failure(data)
    if failure is not None:
        where, message, error = failure
        if error is not None and error.validator == "additionalProperties" and isinstance(error.instance, dict):
            where = where + [k for k in error.instance if k not in error.schema.get("properties", {})][:1]
        if not where and ("oneOf" in message or "valid under" in message):
            message = "give exactly one of position, xgid and gnubgid"
        raise DataError(path, locate(data, *where), f"{'/'.join(map(str, where)) or '(top)'}: {message}")
    if turn is not None and "turn" not in data:
        data["turn"] = turn
    state = read_state(data, data["game"], path, None, "position")
    if state.turn is None:
        raise DataError(path, data.line, "position: no side on roll: give 'turn' (or --turn)")
    return state, "context" in data or "nid" in data
