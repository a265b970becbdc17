"""One state model for all three games (spec/conventions.md); each game's board is data (games.py)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from typing import Any, Literal, NamedTuple

from gammonspec.model.games import CHECKERS, GAME_DATA, HEAD, HOME
from gammonspec.model.rulesets import game_hitting

Side = Literal["white", "black"]
SIDES: tuple[Side, Side] = ("white", "black")
GAMES = tuple(GAME_DATA)


class StateError(ValueError):
    """An impossible or malformed state."""


def other(side: Side) -> Side:
    return "black" if side == "white" else "white"


def mirror(game: str, point: int) -> int:
    """The other side's number for my point `point` (conventions: geometry)."""
    return GAME_DATA[game].mirror[point]


_NONE_PER_SIDE: dict[str, int] = {}  # a layout's bar or off left out: no checkers there


class Layout(NamedTuple):
    """Where the checkers stand.  points[s][p - 1] = s's checkers on s's own point p.

    A named tuple: immutable, and made, hashed and compared in C (a move search makes one per result)."""

    game: str
    white: tuple[int, ...]
    black: tuple[int, ...]
    bar: tuple[int, int] = (0, 0)  # (white, black)
    off: tuple[int, int] = (0, 0)  # (white, black)

    def points(self, side: Side) -> tuple[int, ...]:
        return self.white if side == "white" else self.black

    def on_bar(self, side: Side) -> int:
        return self.bar[SIDES.index(side)]

    def borne_off(self, side: Side) -> int:
        return self.off[SIDES.index(side)]

    def key(self) -> str:
        """Canonical text of the layout: equal layouts, equal keys (conventions: canonical key)."""
        return (
            "w:"
            + ",".join(map(str, self.white))
            + "|b:"
            + ",".join(map(str, self.black))
            + f"|bar:{self.bar[0]},{self.bar[1]}|off:{self.off[0]},{self.off[1]}"
        )

    def to_wire(self) -> dict[str, Any]:
        return {
            "white": list(self.white),
            "black": list(self.black),
            "bar": {"white": self.bar[0], "black": self.bar[1]},
            "off": {"white": self.off[0], "black": self.off[1]},
        }

    @classmethod
    def from_wire(cls, game: str, data: dict[str, Any], check: bool = True, hitting: bool | None = None) -> Layout:
        """Read a layout as the protocol carries it; raises StateError when malformed (or, with `check`, impossible
        under the switch `hitting`)."""
        try:
            white, black = tuple(map(int, data["white"])), tuple(map(int, data["black"]))
            on_bar, borne_off = data.get("bar", _NONE_PER_SIDE), data.get("off", _NONE_PER_SIDE)
            bar = (int(on_bar.get("white", 0)), int(on_bar.get("black", 0)))
            off = (int(borne_off.get("white", 0)), int(borne_off.get("black", 0)))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise StateError(f"malformed position: {exc!r}") from None
        layout = tuple.__new__(cls, (game, white, black, bar, off))  # the named tuple's fields, in order
        if check:
            layout.validate(hitting)
        return layout

    def validate(self, hitting: bool | None = None, reachable: bool = True) -> None:
        """Reject impossible layouts with a message saying what is wrong.

        `hitting` is the switch (hitting=blots; None: as the game's rulesets have it): without it there is
        no bar, and (with `reachable`) nothing leaves the home board once bearing off has begun.  With `reachable` False only the counts are
        checked (how the harness judges the result of a play that a case names as illegal, e.g. bearing
        off before all checkers are home)."""
        board = GAME_DATA.get(self.game)
        if board is None:
            raise StateError(f"unknown game {self.game!r} (expected one of {', '.join(GAMES)})")
        if hitting is None:
            hitting = game_hitting(self.game)
        for side in SIDES:
            pts, bar, off = self.points(side), self.on_bar(side), self.borne_off(side)
            if len(pts) != 24:
                raise StateError(f"{side} has {len(pts)} points, expected 24")
            on_board = sum(pts)
            if min(pts) < 0 or bar < 0 or off < 0:
                raise StateError(f"{side} has a negative checker count (board {on_board} + bar {bar} + off {off})")
            if on_board + bar + off != CHECKERS:
                raise StateError(
                    f"{side} has {on_board + bar + off} checkers (board {on_board} + bar {bar}"
                    f" + off {off}), expected {CHECKERS}"
                )
            if bar and not hitting:
                raise StateError(
                    f"{side} has checkers on the bar, but {self.game} has no hitting and no bar here (hitting=none)"
                )
        theirs = board.mirror
        for p in range(1, 25):
            if self.white[p - 1] and self.black[theirs[p] - 1]:
                raise StateError(f"white's point {p} (black's {theirs[p]}) holds checkers of both sides")
        if not reachable or hitting:
            return
        for side in SIDES:  # without hitting, nothing leaves the home board once bearing off has begun
            if self.borne_off(side) and any(self.points(side)[HOME.stop - 1 :]):
                raise StateError(
                    f"{side} has borne off checkers but still has some outside its home board, impossible in"
                    f" {self.game} without hitting: bearing off needs all fifteen home, and none can leave it"
                )


@lru_cache(maxsize=4096)
def standing_six_block(layout: Layout) -> str:
    """A row of six held points with no opposing checker ahead of it, described ('' when there is none).

    nd.block.six, cn.block.six: such a row may not be built, and a row built legally stays legal (a
    checker that has passed it never comes back, and bearing off the last one ends the game), so where
    the ban holds no position has one while the opponent has a checker on the board.  Contiguity and
    "ahead" are read along the opponent's path, in its numbering q (24 down to 1)."""
    for side in SIDES:
        mine, theirs, them = layout.points(side), layout.points(other(side)), other(side)
        if not any(theirs):
            continue  # the opponent has borne off all fifteen: the game is over
        nearest = next((q for q in range(1, 25) if theirs[q - 1]), 25)  # their most advanced checker
        run = 0
        for q in range(24, 0, -1):
            run = run + 1 if mine[mirror(layout.game, q) - 1] else 0
            if run == 6 and nearest > q:
                top, low = mirror(layout.game, q + 5), mirror(layout.game, q)
                return (
                    f"{side} holds its points {top}-{low} ({them}'s {q + 5}-{q}) with no {them} checker ahead,"
                    " a six-block that may not be built"
                )
    return ""


def head_moves(before: Layout, after: Layout, side: Side) -> int:
    """Checkers `side` took off its head (its 24-point, games.HEAD) between two layouts of one turn."""
    return before.points(side)[HEAD - 1] - after.points(side)[HEAD - 1]


@dataclass(frozen=True)
class TurnContext:
    """What the rules need to know about the turn beyond the checkers (conventions: turn context)."""

    first_turn: bool = False  # the side on roll has not yet had a turn this game
    rolls_in_game: int = 0  # rolls made in this game before this one (the opening roll counts)
    head_moves: int = 0  # checkers that already left the head this turn

    def to_wire(self) -> dict[str, Any]:
        return {"first_turn": self.first_turn, "rolls_in_game": self.rolls_in_game, "head_moves": self.head_moves}

    @classmethod
    def from_wire(cls, data: dict[str, Any] | None) -> TurnContext:
        data = data or {}
        return cls(
            first_turn=bool(data.get("first_turn", False)),
            rolls_in_game=int(data.get("rolls_in_game", 0)),
            head_moves=int(data.get("head_moves", 0)),
        )


@dataclass(frozen=True)
class Segment:
    """A part of a turn, where a turn has several (switches doubles=chain, unplayable=opponent-plays).

    The side on roll plays `numbers` now; `owner` is the side whose roll the turn is, and
    `passed` says the numbers are the owner's unplayable remainder, played by the other side."""

    owner: Side
    numbers: tuple[int, ...]
    passed: bool = False

    @property
    def player(self) -> Side:
        return other(self.owner) if self.passed else self.owner

    def unordered(self) -> Segment:
        """The segment with its numbers sorted: two segments are the same when these are (the order of the
        numbers carries no meaning)."""
        return replace(self, numbers=tuple(sorted(self.numbers)))

    def to_wire(self) -> dict[str, Any]:
        return {"owner": self.owner, "numbers": list(self.numbers), "passed": self.passed}

    @classmethod
    def from_wire(cls, data: dict[str, Any] | None) -> Segment | None:
        if data is None:
            return None
        try:
            segment = cls(data["owner"], tuple(int(n) for n in data["numbers"]), bool(data.get("passed", False)))
        except (KeyError, TypeError, ValueError) as exc:
            raise StateError(f"malformed segment: {exc!r}") from None
        if segment.owner not in SIDES or not segment.numbers or any(not 1 <= n <= 6 for n in segment.numbers):
            raise StateError(f"malformed segment: {data!r}")
        return segment


@dataclass(frozen=True)
class Cube:
    """The doubling cube: the stake's multiplier and who owns it (None: centred)."""

    value: int = 1
    owner: Side | None = None

    def to_wire(self) -> dict[str, Any]:
        return {"value": self.value, "owner": self.owner}

    @classmethod
    def from_wire(cls, data: Any) -> Cube:
        if data is None:
            return cls()
        try:
            cube = cls(int(data["value"]), data.get("owner"))
        except (KeyError, TypeError, ValueError) as exc:
            raise StateError(f"malformed cube: {exc!r}") from None
        if cube.value not in CUBE_VALUES or cube.owner not in (None, *SIDES):
            raise StateError(f"impossible cube {data!r} (value one of {CUBE_VALUES}, owner white, black or null)")
        return cube


CUBE_VALUES = (1, 2, 4, 8, 16, 32, 64)


@dataclass(frozen=True)
class Match:
    """Match play: the length (0 for money play), the score before this game, and whether this is the Crawford game."""

    length: int = 0
    score: tuple[int, int] = (0, 0)  # (white, black)
    crawford: bool = False

    def points(self, side: Side) -> int:
        return self.score[SIDES.index(side)]

    def to_wire(self) -> dict[str, Any]:
        return {"length": self.length, "score": dict(zip(SIDES, self.score)), "crawford": self.crawford}

    @classmethod
    def from_wire(cls, data: Any) -> Match:
        """A match as the protocol carries it and a case states it (a score left out is 0)."""
        if data is None:
            return cls()
        try:
            score = data.get("score", {})
            match = cls(
                int(data["length"]),
                (int(score.get("white", 0)), int(score.get("black", 0))),
                bool(data.get("crawford", False)),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise StateError(f"malformed match: {exc!r}") from None
        if match.length < 0 or min(match.score) < 0 or (match.length and max(match.score) >= match.length):
            raise StateError(f"impossible match {data!r}: a match in progress has both scores below its length")
        return match


@dataclass(frozen=True)
class State:
    """A layout, the side on roll, the dice to play and the turn context."""

    layout: Layout
    turn: Side
    dice: tuple[int, ...] = ()
    context: TurnContext = field(default_factory=TurnContext)
    cube: Cube = field(default_factory=Cube)
    segment: Segment | None = None  # None: the turn's first (or only) segment, from the dice
    match: Match = field(default_factory=Match)

    @property
    def game(self) -> str:
        return self.layout.game

    def to_wire(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "turn": self.turn,
            "dice": list(self.dice),
            "position": self.layout.to_wire(),
            "context": self.context.to_wire(),
            "cube": self.cube.to_wire(),
            "match": self.match.to_wire(),
            "segment": None if self.segment is None else self.segment.to_wire(),
        }

    @classmethod
    def from_wire(cls, data: dict[str, Any], hitting: bool | None = None) -> State:
        """Read a state as the protocol carries it, its layout judged under the switch `hitting`."""
        try:
            game, turn = data["game"], data["turn"]
        except (KeyError, TypeError) as exc:
            raise StateError(f"malformed state: missing {exc}") from None
        if turn not in SIDES:
            raise StateError(f"turn must be white or black, not {turn!r}")
        dice = tuple(int(d) for d in data.get("dice", ()))
        if any(not 1 <= d <= 6 for d in dice):
            raise StateError(f"dice must be 1-6, got {list(dice)}")
        return cls(
            layout=Layout.from_wire(game, data["position"], hitting=hitting),
            turn=turn,
            dice=dice,
            context=TurnContext.from_wire(data.get("context")),
            cube=Cube.from_wire(data.get("cube")),
            segment=Segment.from_wire(data.get("segment")),
            match=Match.from_wire(data.get("match")),
        )


@cache
def start_layout(game: str) -> Layout:
    """The starting position of a game."""
    points = GAME_DATA[game].start_points()
    return Layout(game, points, points)
