"""GNU Backgammon's Python package from PyPI, `gnubg` 1.1.0a16 (`pip install gammonspec[gnubg]`, a prebuilt wheel).

The wheel (github.com/StonesAndDice/gnubg-pypi) compiles GNU Backgammon's own engine into `gnubg._gnubg`;
`findbestmoves(board, cubeinfo, evalcontext, dice)` lists every legal play of `board` (gnubg's
`[opponent, mover]`, 25 counts each, index 24 the bar) as `{"move": (from, to, ...), "score": ...}`, the
steps one die each, 1-based from the mover's view (25: the bar, 0: off).  This adapter applies each play's
steps to the position (a step landing on a lone opposing checker sends it to the bar) and answers
`legal-plays` for the `backgammon` ruleset, nothing else.

What it does differently: the binding ends a play's tuple at its first bear-off, writing only the `from`
of that step (6-1 with checkers on the 6 and the 1 gives `(6,)` for both 6/off 1/off and 6/off 5/4: two
plays, one tuple).  The wheel ships no source for `_gnubg`, so no file:line; seen by calling
`findbestmoves` on such positions.  A lone `from` is read as that checker borne off and the steps after it
are lost, so the plays that bear off and then move again come out short, which the suite reports.
"""

from __future__ import annotations

from typing import Any

from gammonspec.model.state import Layout, Side

from .base import MoveGenerator
from .boards import from_gnubg, gnubg_after, to_gnubg


def pairs(steps: tuple[int, ...]) -> list[tuple[int, int]]:
    """findbestmoves' flat (from, to, from, to, ...) as pairs; a trailing lone from is a bear-off."""
    return [(steps[i], steps[i + 1] if i + 1 < len(steps) else 0) for i in range(0, len(steps), 2)]


class GnubgPyPI(MoveGenerator):
    """Backgammon legal plays from the gnubg wheel's findbestmoves."""

    name, module_name = "gnubg", "gnubg"

    def __init__(self) -> None:
        super().__init__()
        self.cube: Any = self.module.cubeinfo()
        self.context: Any = self.module.evalcontext(0, 0, 0, 0, 0)  # 0-ply: only the order depends on it

    def plays(self, layout: Layout, side: Side, d1: int, d2: int) -> list[Layout]:
        board = to_gnubg(layout, side)
        found = self.module.findbestmoves(tuple(map(tuple, board)), self.cube, self.context, (d1, d2))
        return sorted({from_gnubg(gnubg_after(board, pairs(play["move"])), side) for play in found})
