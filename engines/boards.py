"""Backgammon boards as gnubg-nn and bgsage take them, to and from the suite's layouts.

* gnubg-nn: `[opponent, mover]`, each 25 counts: index i is the side's own point i + 1, index 24 its bar.
* bgsage: 26 ints from the mover's view: index p (1..24) the mover's point p, positive for the mover's
  checkers, negative for the opponent's; index 25 the mover's bar, index 0 the opponent's bar (a count).

Borne-off checkers are implicit in both.  The mover's point p is the opponent's MIRROR[p] (25 - p).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gammonspec.model.games import GAME_DATA
from gammonspec.model.state import CHECKERS, Layout, Side, other

GAME = "backgammon"
MIRROR = GAME_DATA[GAME].mirror  # MIRROR[p]: the other side's number of my point p


def layout_of(side: Side, mine: list[int], theirs_own: list[int], my_bar: int, their_bar: int) -> Layout:
    """A layout from the mover's 24 counts and the opponent's 24 counts, each in its own numbering."""
    my_off, their_off = CHECKERS - sum(mine) - my_bar, CHECKERS - sum(theirs_own) - their_bar
    if side == "white":
        return Layout(GAME, tuple(mine), tuple(theirs_own), (my_bar, their_bar), (my_off, their_off))
    return Layout(GAME, tuple(theirs_own), tuple(mine), (their_bar, my_bar), (their_off, my_off))


def to_gnubg(layout: Layout, side: Side) -> list[list[int]]:
    opp = other(side)
    return [list(layout.points(opp)) + [layout.on_bar(opp)], list(layout.points(side)) + [layout.on_bar(side)]]


def from_gnubg(board: Any, side: Side) -> Layout:
    opp, me = board
    return layout_of(side, list(me[:24]), list(opp[:24]), me[24], opp[24])


def to_bgsage(layout: Layout, side: Side) -> list[int]:
    opp = other(side)
    mine, theirs = layout.points(side), layout.points(opp)
    board = [0] * 26
    for p in range(1, 25):
        board[p] = mine[p - 1] - theirs[MIRROR[p] - 1]  # one of the two is zero
    board[25] = layout.on_bar(side)
    board[0] = layout.on_bar(opp)
    return board


def from_bgsage(board: list[int], side: Side) -> Layout:
    mine = [max(board[p], 0) for p in range(1, 25)]
    theirs_own = [max(-board[MIRROR[q]], 0) for q in range(1, 25)]
    return layout_of(side, mine, theirs_own, board[25], board[0])


def gnubg_after(board: list[list[int]], steps: Iterable[tuple[int, int]]) -> list[list[int]]:
    """A gnubg-nn board after the mover makes `steps` ((from, to) pairs, 0 for off; a landing on a lone
    opposing checker hits it).  Point 25 is the bar."""
    opp, me = list(board[0]), list(board[1])
    for start, end in steps:
        me[start - 1] -= 1
        if end:
            me[end - 1] += 1
            if opp[24 - end] == 1:  # the mover's point `end` is the opponent's 25 - end
                opp[24 - end] = 0
                opp[24] += 1
    return [opp, me]
