"""The engine interface: what an engine implements and answers (spec/protocol.md, "Python engines").

An in-process engine is any object with these methods.  A subprocess engine
speaks the JSON-lines protocol and is wrapped into the same shape by
`subprocess_engine.SubprocessEngine`, so the runner sees one kind of engine.
"""

from __future__ import annotations

import traceback
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from gammonspec.model.profiles import Profile
from gammonspec.model.rulesets import Rules, Ruleset, rulesets
from gammonspec.model.state import SIDES, Cube, Layout, Match, Segment, Side, State
from gammonspec.model.terminal import clipped

CAPABILITIES = ("legal-plays", "game-result", "opening", "next-segment", "cube")
MAX_POSITIONS = 10_000  # positions in one legal-plays answer (spec/protocol.md, "Limits")
TIMEOUT = 10.0  # seconds for one request, by default (--timeout)
STARTUP_TIMEOUT = 60.0  # seconds to start an engine and have its hello, when no limit is given


@dataclass(frozen=True)
class EngineInfo:
    """What an engine declares: who it is, which rulesets and profiles it implements, which queries it answers.

    `reads_switches`: it plays whatever switch values a request carries (for the games of its rulesets),
    so it runs any profile (`gammonspec run --profile/--switch`)."""

    name: str
    version: str
    rulesets: tuple[str, ...]
    capabilities: tuple[str, ...] = CAPABILITIES
    options: dict[str, tuple[object, ...]] = field(default_factory=dict)  # option -> values supported; absent = all
    profiles: tuple[Profile, ...] = ()
    reads_switches: bool = False

    def declares(self, target: Ruleset | Profile) -> bool:
        """Whether the engine implements this ruleset or profile."""
        if isinstance(target, Ruleset):
            return target.name in self.rulesets
        games = {rulesets()[name].game for name in self.rulesets if name in rulesets()}
        return any(p.name == target.name for p in self.profiles) or self.reads_switches and target.game in games


@dataclass(frozen=True)
class GameResult:
    """A finished game: who won (None in a draw), the kind of result as the ruleset names it, and points after the cube."""

    winner: Side | None
    kind: str
    points: int

    def to_wire(self) -> dict[str, Any]:
        return {"winner": self.winner, "kind": self.kind, "points": self.points}

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> GameResult:
        """A result as the protocol carries it and a case states it."""
        return cls(data["winner"], data["kind"], data["points"])


@dataclass(frozen=True)
class Opening:
    """Who moves first in a game, and the numbers it plays (None: it rolls both dice); starts None: a tie, roll again.

    `cube` is the cube after the roll (an automatic double on a tie)."""

    starts: Side | None
    dice: tuple[int, int] | None
    cube: Cube = Cube()


@dataclass(frozen=True)
class CubeOutcome:
    """What a double and its answer do: illegal, a new cube (take, beaver), or the end of the game (drop)."""

    legal: bool
    cube: Cube | None = None
    result: GameResult | None = None


@dataclass(frozen=True)
class MatchOutcome:
    """The match after a game: the score, whether the next game is the Crawford game, the match winner if any."""

    score: tuple[int, int]
    crawford: bool
    winner: Side | None

    def to_wire(self) -> dict[str, Any]:
        return {"score": dict(zip(SIDES, self.score)), "crawford": self.crawford, "winner": self.winner}

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> MatchOutcome:
        """Read from an answer or a case's expectation, where a score of 0, no Crawford game and no winner may
        be left out."""
        score = data.get("score", {})
        return cls((score.get("white", 0), score.get("black", 0)), data.get("crawford", False), data.get("winner"))


class Skip(Exception):
    """Raised by an engine for a request it chooses not to answer (reported as skipped, not failed)."""


@runtime_checkable
class Engine(Protocol):
    def info(self) -> EngineInfo:
        """Name, version, rulesets and capabilities; called once before any request."""

    def legal_plays(self, state: State, rules: Rules) -> Iterable[Layout]:
        """Every distinct layout a legal play of `state.dice` by `state.turn` can leave.

        When no checker can move, the only result is the unchanged layout."""

    def next_segment(self, state: State, rules: Rules) -> Segment | None:
        """What follows the segment `state` is about (state.segment, or the roll's first segment) once it is
        played: the next segment of the turn, or None when the turn ends."""

    def game_result(self, state: State, rules: Rules) -> GameResult | None:
        """The result of the game if it is over in `state.layout`, else None."""

    def opening(
        self,
        rules: Rules,
        dice: dict[str, int],
        game_number: int,
        previous_winner: Side | None,
        cube: Cube,
        match: Match,
    ) -> Opening:
        """Who starts game `game_number` after the opening roll `dice` ({"white": d, "black": d}), and the cube after it."""

    def may_double(self, state: State, rules: Rules) -> bool:
        """Whether the side on roll may offer a double now, before rolling."""

    def cube_action(self, state: State, rules: Rules, response: str) -> CubeOutcome:
        """The side on roll doubles and the other side answers `take`, `drop` or `beaver`."""

    def match_after_game(self, state: State, rules: Rules, result: GameResult) -> MatchOutcome:
        """The match (state.match) after a game that ended with `result`."""


class EngineFailure(RuntimeError):
    """An engine that did not answer a request as the protocol says; `stderr` is the tail of its standard error.

    `fatal`: the engine cannot be asked anything more (a Python engine stuck past its time limit)."""

    def __init__(self, message: str, stderr: str = "", fatal: bool = False) -> None:
        super().__init__(message)
        self.stderr, self.fatal = stderr, fatal


class EngineLoadError(Exception):
    """An engine that cannot be loaded or started: one line saying why, for a usage error (exit 2)."""


def raised_at(exc: BaseException) -> str:
    """Where an exception was raised: the innermost frame's file and line."""
    if isinstance(exc, SyntaxError) and exc.filename:
        return f"{exc.filename}:{exc.lineno}"
    frames = traceback.extract_tb(exc.__traceback__)
    return f"{frames[-1].filename}:{frames[-1].lineno}" if frames else "?"


def describe_exception(exc: BaseException) -> str:
    """One line for an exception from an engine's code: its type, its message and where it was raised."""
    if isinstance(exc, SystemExit):
        return f"SystemExit: sys.exit({clipped(repr(exc.code))}) called at {raised_at(exc)}"
    if isinstance(exc, SyntaxError):
        return f"SyntaxError: {clipped(str(exc.msg))} at {raised_at(exc)}"
    message = clipped(str(exc))
    return f"{type(exc).__name__}{': ' + message if message else ''} (at {raised_at(exc)})"
