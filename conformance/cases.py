"""Loading and checking case files (cases/<game>/*.yaml, schema/case.schema.json)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from . import position_ids
from .notation import NotationError, apply
from .rules import check_options, check_switches, schema
from .state import CHECKERS, SIDES, Layout, Side, State, StateError, TurnContext, start_layout
from .yamlio import DataError, LineDict, load_yaml, locate

CASES_DIR = Path(__file__).resolve().parent.parent / "cases"


def digest(layouts: Iterable[Layout]) -> str:
    """Digest of a set of positions: sha256 of the sorted canonical keys, one per line; 16 hex digits."""
    text = "\n".join(sorted({layout.key() for layout in layouts}))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Case:
    id: str
    rules: tuple[str, ...]
    title: str
    game: str
    query: str
    requires: dict[str, str]
    options: dict[str, Any]
    state: State
    expect: dict[str, Any]
    derivation: str
    path: Path
    line: int
    expected: dict[str, Any] = field(default_factory=dict)  # plays resolved to layouts: name -> {play: Layout}

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


def _checkers(spec: dict[str, int]) -> tuple[tuple[int, ...], int, int | None]:
    points = [0] * 24
    for key, n in spec.items():
        if key not in ("bar", "off"):
            points[int(key) - 1] = n
    return tuple(points), spec.get("bar", 0), spec.get("off")


def _layout(game: str, raw: dict[str, Any], path: Path) -> tuple[Layout, Side | None, tuple[int, ...] | None]:
    """The case's position, from point lists, 'start', an XGID or a GNU Position ID."""
    if "xgid" in raw:
        return position_ids.decode_xgid(raw["xgid"])
    if "gnubgid" in raw:
        if "turn" not in raw:
            raise DataError(path, raw.line, "a gnubgid position needs 'turn' (the ID is from the side on roll's view)")
        return position_ids.decode_gnubg(raw["gnubgid"], raw["turn"]), None, None
    if raw["position"] == "start":
        return start_layout(game), None, None
    sides = {s: _checkers(raw["position"][s]) for s in SIDES}
    off = tuple(
        CHECKERS - sum(sides[s][0]) - sides[s][1] if sides[s][2] is None else sides[s][2] for s in SIDES
    )
    return Layout(game, sides["white"][0], sides["black"][0], (sides["white"][1], sides["black"][1]), off), None, None


def _case(raw: LineDict, game: str, defaults: dict[str, str], path: Path) -> Case:
    where = raw.line
    requires = {**defaults, **raw.get("requires", {})}
    check_switches(requires, path, raw.get("requires", raw), f"case {raw['id']}")
    check_options(raw.get("options", {}), path, raw.get("options", raw), f"case {raw['id']}")
    try:
        layout, id_turn, id_dice = _layout(game, raw, path)
        layout.validate()
    except (StateError, ValueError) as exc:
        raise DataError(path, locate(raw, "position") or where, f"case {raw['id']}: impossible position: {exc}") from None
    turn = raw.get("turn", id_turn)
    if turn is None:
        raise DataError(path, where, f"case {raw['id']}: no side on roll: give 'turn'")
    dice = tuple(raw.get("roll", id_dice or ()))
    query = raw.get("query", "legal-plays")
    expect = dict(raw["expect"])
    if query == "legal-plays" and not dice:
        raise DataError(path, where, f"case {raw['id']}: a legal-plays case needs a 'roll'")
    kinds = {"legal-plays": {"plays", "no_play", "includes", "excludes", "count", "digest"}, "game-result": {"result", "not_over"}}
    wrong = set(expect) - kinds[query]
    if wrong:
        raise DataError(path, locate(raw, "expect"), f"case {raw['id']}: {', '.join(sorted(wrong))} is not an expectation of a {query} query")
    if "plays" in expect and "no_play" in expect:
        raise DataError(path, locate(raw, "expect"), f"case {raw['id']}: give either plays or no_play")
    state = State(layout, turn, dice, TurnContext(**raw.get("context", {})), raw.get("cube", 1))
    expected: dict[str, dict[str, Layout]] = {}
    for name in ("plays", "includes"):
        expected[name] = _resolve(raw, ["expect", name], expect.get(name, []), layout, turn, path)
    expected["excludes"] = _resolve(raw, ["expect", "excludes"], [e["play"] for e in expect.get("excludes", [])], layout, turn, path)
    if expect.get("no_play"):
        expected["plays"] = {"(no move)": layout}
    return Case(
        id=raw["id"], rules=tuple(raw["rules"]), title=raw["title"], game=game, query=query,
        requires=requires, options=dict(raw.get("options", {})), state=state, expect=expect,
        derivation=raw["derivation"], path=path, line=where, expected=expected,
    )


def _resolve(raw: LineDict, at: list[Any], plays: list[str], layout: Layout, turn: Side, path: Path) -> dict[str, Layout]:
    resolved: dict[str, Layout] = {}
    for i, play in enumerate(plays):
        try:
            result = apply(layout, turn, play)
        except NotationError as exc:
            raise DataError(path, locate(raw, *at, i), f"case {raw['id']}: play {play!r}: {exc}") from None
        key = result.key()
        twin = next((p for p, lay in resolved.items() if lay.key() == key), None)
        if twin is not None and at[-1] == "plays":
            raise DataError(path, locate(raw, *at, i), f"case {raw['id']}: {play!r} and {twin!r} reach the same position: list it once")
        resolved[play] = result
    return resolved


def load_file(path: Path) -> list[Case]:
    """Every case of one file; the first problem raises DataError naming file and line."""
    data = load_yaml(path)
    if not isinstance(data, dict):
        raise DataError(path, 1, "a case file is a mapping with 'game' and 'cases'")
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema("case")).iter_errors(data))
    if error is not None:
        field_path = "/".join(map(str, error.absolute_path)) or "(top)"
        raise DataError(path, locate(data, *error.absolute_path), f"{field_path}: {error.message}")
    defaults = dict(data.get("requires", {}))
    return [_case(raw, data["game"], defaults, path) for raw in data["cases"]]


def load_all(root: Path = CASES_DIR) -> list[Case]:
    """The whole suite, checked for duplicate ids across files."""
    cases: list[Case] = []
    seen: dict[str, Case] = {}
    for path in sorted(root.rglob("*.yaml")):
        for case in load_file(path):
            if case.id in seen:
                raise DataError(path, case.line, f"duplicate case id {case.id!r} (first at {seen[case.id].where})")
            seen[case.id] = case
            cases.append(case)
    return cases


@cache
def suite() -> tuple[Case, ...]:
    return tuple(load_all())
