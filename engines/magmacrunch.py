"""magmacrunch-backgammon's rules (`pip install gammonspec[magmacrunch-backgammon]`, pure Python), module `backgammon`.

`backgammon.rules.legal_moves(board, who, d1, d2)` (rules.py:207-230) lists whole moves as `Step`s on a
28-int board: index p the point p as PLAYER numbers it (PLAYER positive, moving down; AI negative), 0 PLAYER's
bar, 25 AI's bar (negative), 26/27 the checkers off.  This adapter makes the mover PLAYER, applies each move
with `apply_move` (rules.py:196-198) and answers `legal-plays` for the `backgammon` ruleset, nothing else.

What its source does differently (file:line in magmacrunch-backgammon 0.1.1):
- Neither "both numbers when possible" nor "the higher number" (bg.move.both-numbers, bg.move.higher-die):
  `legal_moves` gives every two-step move, and only when there is none falls back to one step with either
  number (rules.py:224-229); with doubles it gives every count of steps from one to four
  (rules.py:233-239), so fewer than the dice allow are offered too.
- Entering from the bar: only one checker is entered per step and nothing else moves while one is on the
  bar (rules.py:153-158), as the rules say.
- Bearing off past the edge is allowed only from the furthest checker (rules.py:165-172).
"""

from __future__ import annotations

from gammonspec.model.state import Layout, Side

from .base import MoveGenerator
from .boards import from_bgsage, to_bgsage


class Magmacrunch(MoveGenerator):
    """Backgammon legal plays from magmacrunch-backgammon's rules module."""

    name, module_name = "magmacrunch-backgammon", "backgammon.rules"

    def plays(self, layout: Layout, side: Side, d1: int, d2: int) -> list[Layout]:
        rules, mine = self.module, to_bgsage(layout, side)  # the mover's view, as bgsage takes it
        board = [mine[25], *mine[1:25], -mine[0], 0, 0]
        ends = []
        for move in rules.legal_moves(board, rules.PLAYER, d1, d2):
            after = board[:]
            rules.apply_move(after, move)
            ends.append(from_bgsage([-after[25], *after[1:25], after[0]], side))
        return sorted(set(ends))
