"""What an engine is to the runner: the Python adapter protocol (spec/protocol.md, "Python engines").

An in-process engine is any object with these methods.  A subprocess engine
speaks the JSON-lines protocol and is wrapped into the same shape by
`subprocess_engine.SubprocessEngine`, so the runner sees one kind of engine.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Protocol, runtime_checkable

from .profiles import Profile
from .rules import Rules, Ruleset, rulesets
from .state import Cube, Layout, Match, Segment, Side, State

CAPABILITIES = ("legal-plays", "game-result", "opening", "next-segment", "cube")
ENTRY_POINT_GROUP = "gammonspec.engines"


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


class EngineLoadError(Exception):
    pass


def load_engine(spec: str) -> Engine:
    """An engine from `module:attribute` or the name of a `gammonspec.engines` entry point.

    The attribute may be an Engine instance, or a class or factory called with no arguments."""
    if ":" in spec:
        module_name, _, attr = spec.partition(":")
        try:
            target = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError) as exc:
            raise EngineLoadError(f"cannot load engine {spec!r}: {exc}") from None
    else:
        found = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == spec]
        if not found:
            names = sorted(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP))
            raise EngineLoadError(f"no engine {spec!r}: give module:attr, or one of the installed engines {names}")
        target = found[0].load()
    engine = target() if isinstance(target, type) or not isinstance(target, Engine) and callable(target) else target
    if not isinstance(engine, Engine):
        raise EngineLoadError(
            f"{spec!r} is not an engine: it needs the methods of gammonspec.conformance.engine.Engine"
        )
    return engine
