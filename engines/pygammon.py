"""pygammon, "Backgammon engine core" (`pip install gammonspec[pygammon]`, pure Python; github.com/amikrop/pygammon,
MIT, by Aristotelis Mikropoulos), module `pygammon.core`.

pygammon has no list of legal plays: `Game.move(die_index, source)` (core.py:68-149 in pygammon 0.0.3) makes one
step or raises InvalidMove, and `get_max_move_count()` (core.py:192-201) says how many steps the turn must take.
This adapter sets a `Game`'s 24 `Point`s and its players' `hit` and `borne` counts, makes the mover Side.FIRST
(moving down from index 23: its point p is index p - 1, the opponent's point q index 24 - q), tries every order of
dice and every source, and keeps the positions reached after that many steps; it answers `legal-plays` for the
`backgammon` ruleset, nothing else.  Its wheel also installs a top-level `tests` package, which hides
gammonspec's own tests/ where both are installed: keep it out of the virtualenv that runs gammonspec's tests
(the extra is not in `crosscheck`; tests/test_thirdparty_engines.py runs it in a child process).

What its source does differently (file:line in pygammon 0.0.3); `gammonspec report` has 16 of its 110 backgammon
cases fail, 5 named as the rule mutant higher-bears-off-any-point and 3 as either-die-when-one-playable:
- Only the number of steps is enforced (`get_max_move_count`, core.py:171-201): when only one number can be
  played, either may be (bg.move.higher-die).
- A checker may bear off with any number larger than its distance once all are home (core.py:118-131): there is
  no check for checkers on higher points (bg.bearoff.higher); the other 8 failures (bg.bearoff.move-inside,
  bg.move.both-numbers, bg.bearoff.exact) are bear-off plays the rules forbid offered besides the legal ones.
"""

from __future__ import annotations

import copy
from typing import Any

from gammonspec.model.state import Layout, Side, other

from .base import MoveGenerator
from .boards import MIRROR, layout_of


class Pygammon(MoveGenerator):
    """Backgammon legal plays from pygammon's Game, one step at a time."""

    name, module_name = "pygammon", "pygammon.core"

    def game(self, layout: Layout, side: Side, d1: int, d2: int) -> Any:
        core = self.module
        first, second = core.Side.FIRST, core.Side.SECOND
        game = core.Game(first)
        mine, theirs = layout.points(side), layout.points(other(side))
        for i in range(24):
            owner, count = (first, mine[i]) if mine[i] else (second, theirs[MIRROR[i + 1] - 1])
            game.board[i] = core.Point(owner if count else None, count)
        for who, s in ((first, side), (second, other(side))):
            game.players[who].hit, game.players[who].borne = layout.on_bar(s), layout.borne_off(s)
        game.dice = (d1, d2, d1, d2) if d1 == d2 else (d1, d2)
        return game

    def plays(self, layout: Layout, side: Side, d1: int, d2: int) -> list[Layout]:
        core = self.module
        start = self.game(layout, side, d1, d2)
        steps = start.get_max_move_count()
        ends: set[Layout] = set()
        todo, seen = [(start, 0)], set()
        while todo:
            game, made = todo.pop()
            key = (self.layout_of(game, side), tuple(sorted(game.dice[i] for i in game.dice_played)))
            if key in seen:  # the same position with the same numbers left: searched already
                continue
            seen.add(key)
            if made == steps:
                ends.add(key[0])
                continue
            hit = game.players[core.Side.FIRST].hit
            for die in range(len(game.dice)):
                for source in [None] if hit else range(24):
                    after = copy.deepcopy(game)
                    try:
                        after.move(die, source)
                    except core.InvalidMove:
                        continue
                    except core.GameWon:
                        ends.add(self.layout_of(after, side))
                        continue
                    todo.append((after, made + 1))
        return sorted(ends)

    def layout_of(self, game: Any, side: Side) -> Layout:
        first = self.module.Side.FIRST
        board = game.board
        me = [board[i].count if board[i].side == first else 0 for i in range(24)]
        them = [
            board[MIRROR[q] - 1].count if board[MIRROR[q] - 1].side not in (None, first) else 0 for q in range(1, 25)
        ]
        players = game.players
        return layout_of(side, me, them, players[first].hit, players[self.module.Side.SECOND].hit)
