"""alexonov/backgammon's Long Nardy rules (game/rules.py), asked for legal plays:
`python driver.py CHECKOUT COMMIT`, with numpy installed (its game/components.py imports it).

Its `Board` (game/components.py:170-246, `setup_position` at 227) keeps 24 slots numbered from white's head: white's position 1 is its
24-point, so a side's position n is its point 25 - n, and black's positions are the same slots turned by 12
(`convert_coordinates`, components.py:24-31); the off tray is position 25.  `find_complete_legal_moves`
(game/rules.py:221-310) lists the whole plays of a roll: every order of the numbers, the head limit, the six-block
check on the board after the play, the most numbers, then the higher one.  Each play is made on a copy of the
board (`do_single_move`, components.py:283-295) and its position answered.

What its source does differently (file:line at fd50d5a), each found again by the suite:
- Bear-off with a higher number (nd.bearoff.exact, nd.bearoff.higher, nd.bearoff.move-or-bear): a number larger
  than a checker's distance bears it off whenever that number has no other move, even while a checker stands on a
  higher point (rules.py:133-142): 8 cases.
- Six-block (nd.block.six): rows are found only along the side's own numbering, 1 to 24, never round its
  corner (`find_blocks`, components.py:348-367), and checked only on the board after the whole play
  (rules.py:66-98): 15 cases, the rows round the corner among them.
- The head (nd.head.first-turn): a second checker may leave the head only while all fifteen stand there and the
  roll cannot be played with one (rules.py:256-282), whatever the numbers: 1 case.
- The higher number (nd.move.higher-die, nd.move.compulsory): it is required only when no play uses both
  numbers (rules.py:286-292): 2 cases fail there, not traced further to a line.
- Bearing off otherwise (nd.bearoff.move-inside, 6 cases; nd.bearoff.all-home, 1): not traced to a line.
"""

from __future__ import annotations

import sys
from pathlib import Path

from gammonspec.conformance.harness.protocol import serve
from gammonspec.engines.base import MoveGenerator
from gammonspec.model.state import Layout, Side

GAME = "narde"


class AlexonovBackgammon(MoveGenerator):
    """Narde legal plays from alexonov/backgammon's rules module."""

    name, module_name, rulesets = "alexonov-backgammon", "game.rules", ("narde-guide",)

    def __init__(self, commit: str) -> None:
        super().__init__()
        self.commit = commit
        self.components = sys.modules["game.components"]

    def version(self) -> str:
        return f"commit {self.commit[:7]}"

    def plays(self, layout: Layout, side: Side, d1: int, d2: int) -> list[Layout]:
        board = self.components.Board()
        spec = []
        for colour, who in (("W", "white"), ("B", "black")):
            for p, n in enumerate(layout.points(who), start=1):
                if n:  # setup_position takes white's numbering; black's point p is white's p - 12 or p + 12
                    white_p = p if who == "white" else (p - 12 if p > 12 else p + 12)
                    spec.append(f"{25 - white_p}[{colour}{n}]")
        board.setup_position(spec)
        colour = "W" if side == "white" else "B"
        found = []
        for play in self.module.find_complete_legal_moves(board, colour, (d1, d2), filter_moves=False):
            after = board.copy_board()
            for step in play:
                after.do_single_move(step)
            found.append(self.layout(after))
        return sorted(set(found))

    def layout(self, board: object) -> Layout:
        counts = {"W": [0] * 24, "B": [0] * 24}
        for colour in counts:
            for n in range(1, 25):
                slot = board.get_slot(colour, n)  # type: ignore[attr-defined]
                if slot.color == colour:
                    counts[colour][25 - n - 1] = slot.num_checkers
        white, black = tuple(counts["W"]), tuple(counts["B"])
        return Layout(GAME, white, black, (0, 0), (15 - sum(white), 15 - sum(black)))


def main() -> int:
    if len(sys.argv) != 3:
        print("usage: python driver.py CHECKOUT COMMIT", file=sys.stderr)
        return 2
    sys.path.insert(0, str(Path(sys.argv[1]).resolve()))
    return serve(AlexonovBackgammon(sys.argv[2]), name="alexonov-backgammon")


if __name__ == "__main__":
    sys.exit(main())
