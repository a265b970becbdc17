"""Each game's facts as data (spec/conventions.md): its geometry, start position, head, home and quarters.

Each side counts the 24 points from its own point of view: its 24-point is the farthest from
home, 1-6 is its home board, 19-24 its first quarter.  Where the other side's checkers stand in
those numbers is the game's geometry:

* the sides move towards each other (backgammon): my point p is the other's 25 - p;
* both move the same way round from diagonally opposite heads (Narde, Crazy Narde): my point p
  is the other's p - 12 (p > 12) or p + 12 (p <= 12).

Whether there is hitting and a bar is a rule switch (`hitting`), not a fact of the game.  A new
variant is one more entry in GAME_DATA.
"""

from __future__ import annotations

from dataclasses import dataclass, field

CHECKERS = 15
HOME = range(1, 7)  # a side's home board, in its own numbering, in every game
FIRST_QUARTER = range(19, 25)  # the quarter a side starts in (the loser's checkers there make a coke)
BACKGAMMON_START = {24: 2, 13: 5, 8: 3, 6: 5}  # a backgammon side's checkers at the start, by its own point
HEAD = 24  # the point the head rule watches, in each side's own numbering (its 24-point)


@dataclass(frozen=True, eq=False)
class Game:
    """One game's board: geometry, start and head."""

    name: str
    title: str
    towards: bool  # the sides move towards each other; else both the same way round
    start: dict[int, int]  # each side's checkers at the start, by its own point
    head: int | None = None  # the point every checker starts on, as drawn (None: none); the head rule watches HEAD
    position_ids: bool = False  # XGID and GNU Position IDs describe its positions
    transcripts: bool = False  # match transcripts (.mat, SGF: transcripts.py) record its games
    nid: str = ""  # its letter in a Narde position ID (narde_ids.py); '': those IDs do not describe it
    mirror: tuple[int, ...] = field(init=False, repr=False)  # mirror[p]: the other side's number of my point p

    def __post_init__(self) -> None:
        other = [0] + [25 - p if self.towards else p - 12 if p > 12 else p + 12 for p in range(1, 25)]
        object.__setattr__(self, "mirror", tuple(other))

    def start_points(self) -> tuple[int, ...]:
        """A side's 24 point counts at the start (the same for both, each in its own numbering)."""
        return tuple(self.start.get(p, 0) for p in range(1, 25))


GAME_DATA: dict[str, Game] = {
    game.name: game
    for game in (
        Game("backgammon", "Backgammon", towards=True, start=BACKGAMMON_START, position_ids=True, transcripts=True),
        Game("narde", "Narde", towards=False, start={HEAD: CHECKERS}, head=HEAD, nid="N"),
        Game("crazy-narde", "Crazy Narde", towards=False, start={HEAD: CHECKERS}, head=HEAD, nid="C"),
    )
}
