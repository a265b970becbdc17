"""Loading and checking case files (cases/<game>/*.yaml, schema/case.schema.json)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from . import position_ids
from .notation import NotationError, apply, parse
from .rules import check_options, check_switches, schema
from .state import CHECKERS, HEAD, SIDES, Cube, Layout, Match, Segment, Side, State, StateError, TurnContext, other, start_layout
from .yamlio import DataError, LineDict, load_yaml, locate

CASES_DIR = Path(__file__).resolve().parent.parent / "cases"


def digest(layouts: Iterable[Layout]) -> str:
    """Digest of a set of positions: sha256 of the sorted canonical keys, one per line; 16 hex digits."""
    text = "\n".join(sorted({layout.key() for layout in layouts}))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Step:
    """One query of a case and its expectation: a single-state case has one, a scenario several.

    kind: "plays" (legal-plays query, then optionally the scripted `play` is made),
    "result" (game-result query), "opening" (who starts, with which numbers), "may-double",
    "double" (a double and its answer) or "next-game" (the match after a game)."""

    kind: str
    state: State
    expect: dict[str, Any]
    line: int
    expected: dict[str, dict[str, Layout]] = field(default_factory=dict)  # plays/includes/excludes -> {play: layout}
    play: tuple[str, Layout] | None = None
    opening: dict[str, Any] | None = None
    check_next: bool = False  # also ask what follows this segment, and expect `next`
    next: Segment | None = None
    response: str | None = None  # double steps: take, drop or beaver
    outcome: dict[str, Any] | None = None  # next-game steps: how the game ended  # {"dice": {...}, "game_number": n, "previous_winner": side | None}


@dataclass(frozen=True)
class Case:
    id: str
    rules: tuple[str, ...]
    title: str
    game: str
    query: str  # legal-plays | game-result | scenario
    requires: dict[str, str]
    options: dict[str, Any]
    steps: tuple[Step, ...]
    derivation: str
    path: Path
    line: int

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"

    @property
    def state(self) -> State:
        """The state the case starts from."""
        return self.steps[0].state

    @property
    def expect(self) -> dict[str, Any]:
        return self.steps[0].expect

    @property
    def queries(self) -> set[str]:
        """The engine capabilities the case needs."""
        names = {"plays": "legal-plays", "result": "game-result", "opening": "opening", "may-double": "cube", "double": "cube", "next-game": "cube"}
        needed = {names[step.kind] for step in self.steps if step.expect or step.kind == "plays"}
        return needed | ({"next-segment"} if any(step.check_next for step in self.steps) else set())


def _checkers(spec: dict[str, int]) -> tuple[tuple[int, ...], int, int | None]:
    points = [0] * 24
    for key, n in spec.items():
        if key not in ("bar", "off"):
            if not 1 <= int(key) <= 24:
                raise StateError(f"no point {key}: a side's points are 1-24, plus bar and off")
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


PLAY_EXPECTATIONS = {"plays", "no_play", "includes", "excludes", "count", "digest", "divide"}
RESULT_EXPECTATIONS = {"result", "not_over"}
MIDGAME_ROLLS = 10  # rolls_in_game assumed for a position other than the start, unless the case says


def _context(raw: LineDict, is_start: bool) -> TurnContext:
    """The case's turn context; by default the start is everyone's first turn and any other position mid-game."""
    default = {"first_turn": is_start, "rolls_in_game": 0 if is_start else MIDGAME_ROLLS}
    return TurnContext(**{**default, **raw.get("context", {})})


def _plays_step(raw: LineDict, at: list[Any], expect: dict[str, Any], state: State, line: int, path: Path) -> Step:
    wrong = set(expect) - PLAY_EXPECTATIONS
    if wrong or not expect and not at:
        raise DataError(path, locate(raw, *at, "expect"), f"case {raw['id']}: {', '.join(sorted(wrong))} is not an expectation of legal plays")
    if "plays" in expect and "no_play" in expect:
        raise DataError(path, locate(raw, *at, "expect"), f"case {raw['id']}: give either plays or no_play")
    layout, turn = state.layout, state.turn
    expected = {
        name: _resolve(raw, [*at, "expect", name], expect.get(name, []), layout, turn, path) for name in ("plays", "includes")
    }
    expected["excludes"] = _resolve(raw, [*at, "expect", "excludes"], [e["play"] for e in expect.get("excludes", [])], layout, turn, path)
    if expect.get("no_play"):
        expected["plays"] = {"(no move)": layout}
    return Step("plays", state, expect, line, expected)


def _result_step(raw: LineDict, at: list[Any], expect: dict[str, Any], state: State, line: int, path: Path) -> Step:
    wrong = set(expect) - RESULT_EXPECTATIONS
    if wrong or not expect:
        raise DataError(path, locate(raw, *at, "expect"), f"case {raw['id']}: a game-result check expects result or not_over")
    return Step("result", state, expect, line)


def _next(raw: LineDict, at: list[Any], data: dict[str, Any] | None, owner: Side, path: Path) -> Segment | None:
    """A step's expected next segment (`next: null` ends the turn)."""
    if data is None:
        return None
    return Segment(owner, tuple(data["numbers"]), bool(data.get("passed", False)))


def _head_moves(play: str) -> int:
    """Checkers a play takes off the head (the 24-point)."""
    return sum(1 for path in parse(play) if path[0][0] == HEAD)


@dataclass
class _Walk:
    """The game as a scenario script leaves it, step by step; the harness's own bookkeeping, never the engine's."""

    raw: LineDict
    path: Path
    layout: Layout
    turn: Side | None
    cube: Cube
    match: Match
    played: set[str]  # sides that have had a turn this game
    rolls: int  # rolls played this game
    pending: Segment | None = None  # the segment the next step must play
    roll: tuple[int, ...] = ()
    head: int = 0  # checkers the owner took off the head this turn
    result: dict[str, Any] | None = None  # how the current game ended, as the script says
    game_number: int = 1

    def fail(self, line: int | None, message: str) -> DataError:
        return DataError(self.path, line, f"case {self.raw['id']}: {message}")

    def state(self, player: Side, context: TurnContext | None = None) -> State:
        context = context or TurnContext(player not in self.played, self.rolls)
        return State(self.layout, player, self.roll, context, self.cube, self.pending, self.match)

    def opening(self, step: LineDict, at: list[Any], expect: dict[str, Any], line: int) -> Step:
        if set(expect) - {"starts", "dice", "cube"}:
            raise self.fail(locate(self.raw, *at, "expect"), "an opening step expects starts, dice and cube")
        if step.get("game_number", self.game_number) != self.game_number:
            raise self.fail(locate(self.raw, *at, "game_number"), f"this is game {self.game_number} of the scenario (next_game starts the next one)")
        opening = {"dice": dict(step["opening"]), "game_number": self.game_number, "previous_winner": step.get("previous_winner")}
        checked = Step("opening", self.state(self.turn or "white"), expect, line, opening=opening)
        self.turn = expect.get("starts", self.turn)
        if "cube" in expect:
            self.cube = Cube(expect["cube"]["value"], expect["cube"].get("owner"))
        return checked

    def play(self, step: LineDict, at: list[Any], expect: dict[str, Any], line: int) -> Step:
        if "roll" in step:
            self.roll, self.head = tuple(step["roll"]), 0
        pending = self.pending
        owner = pending.owner if pending else self.turn
        passed = bool(pending and pending.passed)
        player = pending.player if pending else self.turn
        context = TurnContext(player not in self.played, self.rolls, 0 if passed else self.head)
        checked = _plays_step(self.raw, at, expect, self.state(player, context), line, self.path)
        if "play" in step:
            played_to = _resolve(self.raw, [*at, "play"], [step["play"]], self.layout, player, self.path)[step["play"]]
            checked = replace(checked, play=(step["play"], played_to))
            self.layout = played_to
            self.head += 0 if passed else _head_moves(step["play"])
        elif not expect.get("no_play"):
            raise self.fail(line, "a turn needs the 'play' made (or expect no_play)")
        if "next" in step:
            if step["next"] is not None and self.layout.borne_off(player) == CHECKERS:
                raise self.fail(locate(self.raw, *at, "next"), "the play bears off the last checker: the game is over, nothing comes next")
            checked = replace(checked, check_next=True, next=_next(self.raw, at, step["next"], owner, self.path))
        self.pending = checked.next if checked.check_next else None
        if self.pending is None:
            self.played.add(owner)
            self.rolls += 1
            self.turn, self.roll = other(owner), ()
        return checked

    def double(self, step: LineDict, at: list[Any], expect: dict[str, Any], line: int) -> Step:
        if set(expect) - {"legal", "cube", "result"} or not expect:
            raise self.fail(locate(self.raw, *at, "expect"), "a double step expects legal, cube or result")
        checked = Step("double", self.state(self.turn), expect, line, response=step["double"])
        if "cube" in expect:
            self.cube = Cube(expect["cube"]["value"], expect["cube"]["owner"])
        if "result" in expect:
            self.result = expect["result"]
        return checked

    def next_game(self, step: LineDict, at: list[Any], expect: dict[str, Any], line: int) -> Step:
        if self.result is None:
            raise self.fail(line, "next_game needs the game's result first (a result check or a dropped double)")
        checked = Step("next-game", self.state(self.turn or "white"), expect, line, outcome=self.result)
        score = expect.get("score", {})
        self.match = Match(self.match.length, (score.get("white", 0), score.get("black", 0)), expect.get("crawford", False))
        if expect.get("winner") is None and self.match.length and max(self.match.score) >= self.match.length:
            raise self.fail(line, "the expected score ends the match: give its winner")
        self.layout, self.turn, self.cube = start_layout(self.layout.game), None, Cube()
        self.played, self.rolls, self.result = set(), 0, None
        self.game_number += 1
        return checked

    def step(self, i: int, step: LineDict) -> Step:
        at, line = ["steps", i], self.raw["steps"].item_lines[i]
        expect = dict(step.get("expect", {}))
        if "opening" in step:
            return self.opening(step, at, expect, line)
        if "next_game" in step:
            return self.next_game(step, at, expect, line)
        if self.turn is None:
            raise self.fail(line, f"step {i + 1}: nobody is on roll yet (start with an opening step or give 'turn')")
        if self.pending is not None and "numbers" not in step:
            raise self.fail(line, f"step {i + 1}: the turn goes on: {self.pending.player} plays {list(self.pending.numbers)} (a 'numbers' step)")
        if "numbers" in step and (self.pending is None or sorted(step["numbers"]) != sorted(self.pending.numbers)):
            raise self.fail(locate(self.raw, *at, "numbers"), f"step {i + 1}: no segment {step['numbers']} is due here (due: {self.pending})")
        player = self.pending.player if self.pending else self.turn
        if step.get("turn", player) != player:
            raise self.fail(locate(self.raw, *at, "turn"), f"step {i + 1}: it is {player}'s turn, not {step['turn']}'s")
        if "roll" in step or "numbers" in step:
            return self.play(step, at, expect, line)
        if "double" in step:
            return self.double(step, at, expect, line)
        if "may_double" in step:
            return Step("may-double", self.state(self.turn), {"may_double": step["may_double"]}, line)
        checked = _result_step(self.raw, at, expect, self.state(self.turn), line, self.path)
        self.result = expect.get("result")
        return checked


def _scenario(raw: LineDict, first: State, path: Path) -> list[Step]:
    """Walk a scripted sequence: the harness keeps the state; each step checks the engine on it.

    A `roll` starts a turn; while a step's `next` names a segment, the turn goes on with a
    `numbers` step for it; otherwise the other side is on roll.  `next_game` moves a match on."""
    played = set() if first.context.first_turn else {"white", "black"}
    walk = _Walk(raw, path, first.layout, first.turn, first.cube, first.match, played, first.context.rolls_in_game)
    steps = [walk.step(i, step) for i, step in enumerate(raw["steps"])]
    if walk.pending is not None:
        raise walk.fail(raw.line, f"the scenario stops in the middle of a turn ({walk.pending} is due)")
    return steps


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
    query = raw.get("query", "legal-plays")
    turn = raw.get("turn", id_turn)
    if turn is None and query != "scenario":
        raise DataError(path, where, f"case {raw['id']}: no side on roll: give 'turn'")
    dice = tuple(raw.get("roll", id_dice or ()))
    segment = None
    if "segment" in raw:
        seg = raw["segment"]
        segment = Segment(seg["owner"], tuple(seg["numbers"]), seg.get("passed", False))
        if segment.player != turn:
            raise DataError(path, locate(raw, "segment"), f"case {raw['id']}: the segment is {segment.player}'s to play, but turn is {turn}")
    cube = raw.get("cube", 1)
    cube = Cube(cube) if isinstance(cube, int) else Cube(cube["value"], cube.get("owner"))
    match = Match()
    if "match" in raw:
        m = raw["match"]
        match = Match(m["length"], (m.get("score", {}).get("white", 0), m.get("score", {}).get("black", 0)), m.get("crawford", False))
        if match.length and max(match.score) >= match.length:
            raise DataError(path, locate(raw, "match"), f"case {raw['id']}: a match in progress has both scores below its length")
    state = State(layout, turn, dice, _context(raw, raw.get("position") == "start"), cube, segment, match)
    if query == "scenario":
        if "steps" not in raw or "expect" in raw:
            raise DataError(path, where, f"case {raw['id']}: a scenario has 'steps' (each with its own expect), no top-level expect")
        steps = _scenario(raw, state, path)
    elif "expect" not in raw:
        raise DataError(path, where, f"case {raw['id']}: no 'expect'")
    elif query == "legal-plays":
        if not dice:
            raise DataError(path, where, f"case {raw['id']}: a legal-plays case needs a 'roll'")
        steps = [_plays_step(raw, [], dict(raw["expect"]), state, where, path)]
        if "next" in raw:
            owner = segment.owner if segment else turn
            steps = [replace(steps[0], check_next=True, next=_next(raw, [], raw["next"], owner, path))]
    else:
        steps = [_result_step(raw, [], dict(raw["expect"]), state, where, path)]
    return Case(
        id=raw["id"], rules=tuple(raw["rules"]), title=raw["title"], game=game, query=query,
        requires=requires, options=dict(raw.get("options", {})), steps=tuple(steps),
        derivation=raw["derivation"], path=path, line=where,
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


@cache
def _case_validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema("case"))


def load_file(path: Path) -> list[Case]:
    """Every case of one file; the first problem raises DataError naming file and line."""
    data = load_yaml(path)
    if not isinstance(data, dict):
        raise DataError(path, 1, "a case file is a mapping with 'game' and 'cases'")
    error = jsonschema.exceptions.best_match(_case_validator().iter_errors(data))
    if error is not None:
        at = list(error.absolute_path)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            at += [key for key in error.instance if key not in error.schema.get("properties", {})][:1]  # the unknown field's line
        field_path = "/".join(map(str, at)) or "(top)"
        raise DataError(path, locate(data, *at), f"{field_path}: {error.message}")
    defaults = dict(data.get("requires", {}))
    check_switches(defaults, path, data.get("requires", data), "file requires")
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
