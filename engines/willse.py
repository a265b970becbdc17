"""willse-backgammon's game logic (`pip install gammonspec[willse-backgammon]`; pulls arcade, numpy and pandas),
module `willse_backgammon.Main_Files.Logic` (github.com/GillsSpace/Backgammon_AI, MIT).

`Board.returnMoveSequences(player, roll)` (Logic.py:233-303 in willse-backgammon 0.0.2) lists a roll's plays as
sequences of `(start, end)` moves (1001: from the bar, 2002: off) on `Board.positions`, 28 ints: index i the
point i + 1, positive for player 2 (moving down to point 1), negative for player 1; 24 and 25 the bars and 26 and
27 the checkers off, of players 1 and 2.  This adapter makes the mover player 2 (its point p is index p - 1, the
opponent's point q index 24 - q), plays each sequence with `makeMoves` (Logic.py:153-167) and answers
`legal-plays` for the `backgammon` ruleset, nothing else.  Importing the module imports its display code
(Graphics.py, with arcade), which changes the working folder: the adapter changes it back.

What its source does differently (file:line in willse-backgammon 0.0.2); `gammonspec report` finds the first two in
8 of its 110 backgammon cases; `fuzz` finds the first and plays that bear off missing and extra:
- A play of one number is listed whenever the other number cannot follow that first move (Logic.py:254-256), even
  when another first move lets both be played (bg.move.both-numbers), and whichever number it is
  (bg.move.higher-die: identify names the rule mutant either-die-when-one-playable).
- Bearing off with a number larger than the farthest checker's point is offered only when the number is the larger
  die or the second move (`isBiggestDieOrSecondMove`, Logic.py:213 and 228), so it is missing when the smaller
  die is played first (bg.bearoff.higher).
- A move that bears off the last checker makes the play that move alone (Logic.py:248-250).
"""

from __future__ import annotations

import copy
import os
from typing import Any

from gammonspec.model.state import Layout, Side, other

from .base import MoveGenerator, third_party
from .boards import MIRROR, layout_of

MOVER, OPPONENT = 2, 1


def steps_of(sequence: Any) -> list[tuple[int, int]]:
    """One listed play as its moves: the source lists a lone move as a bare `(start, end)` pair."""
    return [tuple(sequence)] if sequence and isinstance(sequence[0], int) else [tuple(m) for m in sequence]


class Willse(MoveGenerator):
    """Backgammon legal plays from willse-backgammon's Board."""

    name, module_name = "willse-backgammon", "willse_backgammon.Main_Files.Logic"

    def __init__(self) -> None:
        folder = os.getcwd()
        try:
            self.module = third_party(self.module_name, self.name)
        finally:
            os.chdir(folder)  # Graphics.py changes it on import

    def plays(self, layout: Layout, side: Side, d1: int, d2: int) -> list[Layout]:
        mine, theirs = layout.points(side), layout.points(other(side))
        positions = [mine[i] or -theirs[MIRROR[i + 1] - 1] for i in range(24)]
        positions += [layout.on_bar(other(side)), layout.on_bar(side)]
        positions += [layout.borne_off(other(side)), layout.borne_off(side)]
        board = self.module.Board(positions)
        board.updatePip()
        for player in (OPPONENT, MOVER):
            board.updateLastOccupiedPoint(player)
        board.updateBearOffStatus()
        ends = set()
        for sequence in board.returnMoveSequences(MOVER, (d1, d2)):
            after = copy.deepcopy(board)
            after.makeMoves(steps_of(sequence), MOVER)
            p = after.positions
            me = [max(p[i], 0) for i in range(24)]
            them = [max(-p[MIRROR[q] - 1], 0) for q in range(1, 25)]
            ends.add(layout_of(side, me, them, p[25], p[24]))
        return sorted(ends)
