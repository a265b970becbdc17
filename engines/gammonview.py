"""gammonview's rules-based legality module, `gvformat.legality` (`pip install gammonspec[gammonview]`).

`legal_plays(mine, opp, d1, d2)` gives every legal play as sorted `(from, to)` single-die moves in the
mover's frame (`to` 0: borne off; index 25: the bar); this adapter applies each play to the position
(a checker landing on a lone opposing checker sends it to the bar) and answers `legal-plays` for the
`backgammon` ruleset, nothing else.

Deviations the suite finds (site/results/gammonview.json): none; every backgammon legal-plays case passes.
"""

from __future__ import annotations

from gammonspec.model.state import Layout, Side, other

from .base import MoveGenerator
from .boards import MIRROR, layout_of

BAR = 25


class Gammonview(MoveGenerator):
    """Backgammon legal plays from gammonview's gvformat.legality."""

    name, module_name = "gammonview", "gvformat.legality"

    def plays(self, layout: Layout, side: Side, d1: int, d2: int) -> list[Layout]:
        opp_own = layout.points(other(side))
        mine = [0, *layout.points(side), layout.on_bar(side)]
        opp = [0, *(opp_own[MIRROR[p] - 1] for p in range(1, 25)), 0]  # the opponent in the mover's numbering
        found, _ = self.module.legal_plays(mine, opp, d1, d2)
        return [self._after(layout, side, mine, opp, play) for play in found]

    @staticmethod
    def _after(layout: Layout, side: Side, mine: list[int], opp: list[int], play: tuple) -> Layout:
        me, them = list(mine), list(opp)
        for start, end in play:
            me[start] -= 1
            if end:
                me[end] += 1
        hit = {end for _, end in play if end and opp[end] == 1}
        for point in hit:
            them[point] = 0
        theirs_own = [them[MIRROR[q]] for q in range(1, 25)]
        return layout_of(side, me[1:25], theirs_own, me[BAR], layout.on_bar(other(side)) + len(hit))
