"""The search core's board: the mover's view of a position packed into ints, and masks of points.

A side's 26 counts in the mover's numbering (OFF = 0, points 1..24, BAR = 25) are one int, count c
at slot i adding c << 8 * i: a move is two additions, reading a count a shift and a mask, and the
int is its own canonical key.  An occupancy mask has bit p set where a side has checkers on the
mover's point p (bit 0: some borne off).  `me` is the mover, `them` the opponent, both in the
mover's numbering.  Layouts are made only for the results a search keeps (`Geometry.to_layouts`).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import cache
from operator import itemgetter

from gammonspec.model.games import CHECKERS, GAME_DATA
from gammonspec.model.state import Layout, Side

OFF, BAR = 0, 25
SLOT = tuple(1 << 8 * i for i in range(26))  # one checker at slot i
BAR_SHIFT = 8 * BAR
HOME = 0b1111110  # points 1-6
OUTSIDE = ((1 << 26) - 1) & ~HOME & ~1  # points 7-24 and the bar
FIRST_QUARTER = 0b111111 << 19  # points 19-24
POINTS = struct.Struct("<x24Bx").unpack  # the 24 point counts of a packed side's bytes
# A layout's bar or off pair (white's count, black's), looked up [opponent's count][mover's count]: the mover's
# count second when the mover is black, first when white
THEIRS_FIRST = tuple(tuple((theirs, mine) for mine in range(CHECKERS + 1)) for theirs in range(CHECKERS + 1))
MINE_FIRST = tuple(tuple((mine, theirs) for mine in range(CHECKERS + 1)) for theirs in range(CHECKERS + 1))
EVERY_POINT = ((1 << 25) - 1) & ~1  # points 1-24


_BINARY = bytes([ord("0")] + [ord("1")] * 255)  # a count -> its occupancy as a binary digit


def occupied(packed: int) -> int:
    """The occupancy mask of a packed side (its slots as binary digits, highest first)."""
    return int(packed.to_bytes(26, "big").translate(_BINARY), 2)


# The points set in a mask, highest first, nine bits at a time: FALLING_HIGH[mask >> 18] + FALLING_MID[mask >> 9 & 511]
# + FALLING_LOW[mask & 511].  Three tables of 512 stay in the processor's cache, where a memo of every mask would not.
FALLING_LOW, FALLING_MID, FALLING_HIGH = (
    tuple(tuple(9 * k + j for j in range(8, -1, -1) if v >> j & 1) for v in range(512)) for k in range(3)
)


def mask_table(numbers: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Per byte of a mask, for each of its 256 values, the mask with each point p moved to bit numbers[p]."""
    return tuple(
        tuple(sum(1 << numbers[8 * k + j] for j in range(8) if v >> j & 1 and 1 <= 8 * k + j <= 24) for v in range(256))
        for k in range(4)
    )


@dataclass(frozen=True, eq=False)
class Geometry:
    """A game's geometry in the forms the search core uses (games.Game.mirror)."""

    game: str
    renumbered: itemgetter  # 24 point counts in one side's numbering -> the same in the other's (its own inverse)
    table: tuple[tuple[int, ...], ...]  # mask_table of the mirror
    their_home: int  # the opponent's home board (its points 1-6) as my points
    their_first_quarter: int  # its points 19-24 as my points

    def theirs(self, mask: int) -> int:
        """A mask of my points re-numbered as the other side's points."""
        t = self.table
        return t[0][mask & 255] | t[1][mask >> 8 & 255] | t[2][mask >> 16 & 255] | t[3][mask >> 24 & 255]

    def to_view(self, layout: Layout, side: Side) -> tuple[int, int]:
        """The layout from `side`'s point of view, packed: (me, them)."""
        if side == "white":
            i, j, mine, theirs = 0, 1, layout.white, layout.black
        else:
            i, j, mine, theirs = 1, 0, layout.black, layout.white
        off, bar = layout.off, layout.bar
        me = int.from_bytes(bytes(mine), "little") << 8 | off[i] | bar[i] << BAR_SHIFT
        them = int.from_bytes(bytes(self.renumbered(theirs)), "little") << 8 | off[j] | bar[j] << BAR_SHIFT
        return me, them

    def to_layouts(self, side: Side, positions: list[tuple[int, int]]) -> list[Layout]:
        """Back from the mover's packed views to layouts (the opponent's part read once per distinct `them`)."""
        white = side == "white"
        pairs = MINE_FIRST if white else THEIRS_FIRST
        opponent: dict[int, tuple[tuple[int, ...], tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]] = {}
        make, game = tuple.__new__, self.game  # a Layout from its fields, without a Python call
        layouts: list[Layout] = []
        append, last = layouts.append, None
        for me, them in positions:
            if them is not last:  # most results share the opponent's side (the same int) with the one before
                last, theirs = them, opponent.get(them)
                if theirs is None:
                    seen = them.to_bytes(26, "little")
                    theirs = opponent[them] = (self.renumbered(seen[1:BAR]), pairs[seen[BAR]], pairs[seen[OFF]])
                their_points, bars, offs = theirs
            counts = me.to_bytes(26, "little")
            if white:
                append(make(Layout, (game, POINTS(counts), their_points, bars[counts[BAR]], offs[counts[OFF]])))
            else:
                append(make(Layout, (game, their_points, POINTS(counts), bars[counts[BAR]], offs[counts[OFF]])))
        return layouts


@cache
def geometry(game: str) -> Geometry:
    mirror = GAME_DATA[game].mirror  # mirror[p]: the other side's number of my point p (its own inverse)
    table = mask_table(mirror)
    return Geometry(
        game,
        itemgetter(*(q - 1 for q in mirror[1:25])),
        table,
        sum(1 << mirror[q] for q in range(1, 7)),
        sum(1 << mirror[q] for q in range(19, 25)),
    )
