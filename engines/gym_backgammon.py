"""gym-backgammon's game logic (`pip install gammonspec[gym-backgammon]`, pure Python), module
`gym_backgammon.envs.backgammon` (github.com/dellalibera/gym-backgammon, MIT, by Alessio Della Libera).

`Backgammon.get_valid_plays(player, roll)` (backgammon.py:1382-1411 in gym-backgammon 0.0.1) lists whole plays
as tuples of `(source, target)` on a board of 24 `(count, colour)` pairs; WHITE moves from index 23 to 0 with
negative dice, so the mover's point p is index p - 1 when the mover is WHITE, and the opponent (BLACK) has its
point q at index 24 - q.  This adapter makes the mover WHITE, plays each play with `execute_play`
(backgammon.py:1413-1450) and answers `legal-plays` for the `backgammon` ruleset, nothing else.  The logic
module is loaded on its own: the package's `__init__` imports gym and its environment imports pyglet (a display),
neither of which the move generator uses.

What it does differently: all 110 backgammon cases pass; `gammonspec fuzz` finds one bug in 10,000 states
(seed 1, 8 of them): in a bear-off with doubles, a checker that is moved down to a lower point and then borne
off by the same roll is not offered (black's two on its 4-point, 1-1: `4/3/2/1/off` is missing, the other two
plays are there).  `get_bear_off_play_double` (backgammon.py:509-1217) lists the bear-offs of a double case
by case, from the checkers on the point the number bears off from or above it once the stragglers are home,
and a checker that first steps down to that point and then bears off is not among the cases.
"""

from __future__ import annotations

import importlib.util
from types import ModuleType

from gammonspec.model.interface import EngineLoadError
from gammonspec.model.state import Layout, Side, other

from .base import MoveGenerator
from .boards import MIRROR, layout_of


def logic_module() -> ModuleType:
    """gym_backgammon/envs/backgammon.py loaded by its path, without the package's gym and pyglet imports."""
    spec = importlib.util.find_spec("gym_backgammon")
    if spec is None or not spec.submodule_search_locations:
        raise EngineLoadError(
            "the gym-backgammon adapter needs gym_backgammon: pip install 'gammonspec[gym-backgammon]'"
        )
    path = f"{spec.submodule_search_locations[0]}/envs/backgammon.py"
    logic = importlib.util.spec_from_file_location("gym_backgammon_logic", path)
    assert logic is not None and logic.loader is not None  # a source file always has a loader
    module = importlib.util.module_from_spec(logic)
    logic.loader.exec_module(module)
    return module


def point(gym: ModuleType, mine: int, theirs: int) -> tuple[int, int | None]:
    """A point as gym-backgammon holds it: (count, colour), the mover WHITE; an empty point is (0, None)."""
    return (mine, gym.WHITE) if mine else (theirs, gym.BLACK) if theirs else (0, None)


class GymBackgammon(MoveGenerator):
    """Backgammon legal plays from gym-backgammon's Backgammon class."""

    name, module_name = "gym-backgammon", "gym_backgammon.envs.backgammon"

    def __init__(self) -> None:
        self.module = logic_module()

    def plays(self, layout: Layout, side: Side, d1: int, d2: int) -> list[Layout]:
        gym = self.module
        game = gym.Backgammon()
        mine, theirs = layout.points(side), layout.points(other(side))
        game.board = [point(gym, mine[p - 1], theirs[MIRROR[p] - 1]) for p in range(1, 25)]
        game.bar = [layout.on_bar(side), layout.on_bar(other(side))]
        game.off = [layout.borne_off(side), layout.borne_off(other(side))]
        game.players_positions = game.get_players_positions()
        start = game.save_state()
        ends = set()
        for play in game.get_valid_plays(gym.WHITE, (-d1, -d2)):
            game.restore_state(start)
            game.execute_play(gym.WHITE, play)
            board = game.board
            me = [board[p - 1][0] if board[p - 1][1] == gym.WHITE else 0 for p in range(1, 25)]
            them = [board[MIRROR[q] - 1][0] if board[MIRROR[q] - 1][1] == gym.BLACK else 0 for q in range(1, 25)]
            ends.add(layout_of(side, me, them, game.bar[gym.WHITE], game.bar[gym.BLACK]))
        return sorted(ends)
