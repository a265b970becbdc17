"""The board as the side on roll sees it, the form the rule functions work on.

`me[p]` for p in 1..24 is the mover's checkers on its point p, `me[BAR]` its bar and
`me[OFF]` its borne-off checkers.  `them[p]` is the opponent's checkers standing on
the mover's point p, `them[BAR]` the opponent's bar and `them[OFF]` its borne-off.
"""

from __future__ import annotations

from gammonspec.conformance.games import GAME_DATA
from gammonspec.conformance.state import SIDES, Layout, Side, other

OFF, BAR = 0, 25
Counts = tuple[int, ...]  # 26 entries: OFF, points 1..24, BAR


def mirrored(game: str, theirs: tuple[int, ...]) -> tuple[int, ...]:
    """24 counts re-indexed from one side's numbering to the other's (the game's geometry; its own inverse)."""
    return GAME_DATA[game].mirrored(theirs)


def to_view(layout: Layout, side: Side) -> tuple[Counts, Counts]:
    """The layout from `side`'s point of view."""
    i, j = SIDES.index(side), SIDES.index(other(side))
    me = (layout.off[i], *layout.points(side), layout.bar[i])
    them = (layout.off[j], *mirrored(layout.game, layout.points(other(side))), layout.bar[j])
    return me, them


def to_layout(game: str, side: Side, me: Counts, them: Counts) -> Layout:
    """Back from the mover's view to a layout."""
    theirs = mirrored(game, them[1:25])  # mirroring is its own inverse
    mine = tuple(me[1:25])
    if side == "white":
        return Layout(game, mine, theirs, (me[BAR], them[BAR]), (me[OFF], them[OFF]))
    return Layout(game, theirs, mine, (them[BAR], me[BAR]), (them[OFF], me[OFF]))
