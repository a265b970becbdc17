"""bgsage's move generator (`pip install gammonspec[bgsage]`).

`bgsage.possible_moves(board, d1, d2)` lists every distinct resulting board, from the mover's view;
this adapter answers `legal-plays` for the `backgammon` ruleset and declares nothing else.

Deviations the suite finds (site/results/bgsage.json), the one backgammon legal-plays case it fails:
- `bg-bearoff-hit-first-to-use-both-numbers`: white's last checker on the 2 and a black blot on white's 1,
  roll 6-1. Hitting with the 1 (2/1*) and bearing off with the 6 uses both numbers, so bearing off the
  last checker with the 6 alone (2/off) is illegal; bgsage offers 2/off among its plays (bg.move.both-numbers).
"""

from __future__ import annotations

from gammonspec.model.state import Layout, Side

from .base import MoveGenerator
from .boards import from_bgsage, to_bgsage


class Bgsage(MoveGenerator):
    """Backgammon legal plays from bgsage."""

    name, module_name = "bgsage", "bgsage"

    def plays(self, layout: Layout, side: Side, d1: int, d2: int) -> list[Layout]:
        return [from_bgsage(list(board), side) for board in self.module.possible_moves(to_bgsage(layout, side), d1, d2)]
