"""The board as the side on roll sees it, the form the rule functions work on.

`me[p]` for p in 1..24 is the mover's checkers on its point p, `me[BAR]` its bar and
`me[OFF]` its borne-off checkers.  `them[p]` is the opponent's checkers standing on
the mover's point p, `them[BAR]` the opponent's bar and `them[OFF]` its borne-off.
"""

from __future__ import annotations

from gammonspec.conformance.state import SIDES, Layout, Side, mirror, other

OFF, BAR = 0, 25
Counts = tuple[int, ...]  # 26 entries: OFF, points 1..24, BAR


def to_view(layout: Layout, side: Side) -> tuple[Counts, Counts]:
    """The layout from `side`'s point of view."""
    i, j = SIDES.index(side), SIDES.index(other(side))
    theirs = layout.points(other(side))
    me = (layout.off[i], *layout.points(side), layout.bar[i])
    them = [0] * 26
    for p in range(1, 25):
        them[p] = theirs[mirror(layout.game, p) - 1]
    them[OFF], them[BAR] = layout.off[j], layout.bar[j]
    return me, tuple(them)


def to_layout(game: str, side: Side, me: Counts, them: Counts) -> Layout:
    """Back from the mover's view to a layout."""
    theirs = [0] * 24
    for p in range(1, 25):
        theirs[mirror(game, p) - 1] = them[p]
    mine = tuple(me[1:25])
    if side == "white":
        return Layout(game, mine, tuple(theirs), (me[BAR], them[BAR]), (me[OFF], them[OFF]))
    return Layout(game, tuple(theirs), mine, (them[BAR], me[BAR]), (them[OFF], me[OFF]))
