"""GNU Backgammon's move generator, from the gnubg-nn package (`pip install gammonspec[gnubg-nn]`).

`gnubg_nn.moves(board, d1, d2)` lists every distinct resulting position as a position key; this
adapter answers `legal-plays` for the `backgammon` ruleset and declares nothing else.

Deviations the suite finds (site/results/gnubg-nn.json): none; every backgammon legal-plays case passes.
"""

from __future__ import annotations

from gammonspec.model.state import Layout, Side

from .base import MoveGenerator
from .boards import from_gnubg, to_gnubg


class GnubgNN(MoveGenerator):
    """Backgammon legal plays from gnubg-nn."""

    name, module_name = "gnubg-nn", "gnubg_nn"

    def plays(self, layout: Layout, side: Side, d1: int, d2: int) -> list[Layout]:
        keys = self.module.moves(to_gnubg(layout, side), d1, d2)
        return [from_gnubg(self.module.board_from_position_key(key), side) for key in keys]
