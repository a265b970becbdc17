"""nard-backgammon's Narde game (`pip install gammonspec[nard-backgammon]`), the first Narde engine here.

Its `Board` (nard_backgammon/board.py) holds 24 `slots`, white positive and black negative; each side sees them
from its own head (`player_pov_slots`, board.py:179-189): index 0 is the side's 24-point (its head), index 23
its 1-point, so the side's point p is index 24 - p; black's view is the slots turned by 12.  `Nard.play_move`
(nard.py:98-133) plays one checker by one number and takes that number off `dice_nums`; the turn passes when
the numbers are used up.  This adapter plays every sequence of the moves `get_valid_moves` offers through
`play_move` until the turn passes or no move is offered (then `skip` is the only action, nard.py:136-144), and
answers the positions they leave, for the `narde-guide` ruleset (its first roll is played by the player who
won it, nard.py:79-96), legal plays only.

What its source does differently (file:line in nard_backgammon 0.1.0), each found again by the suite:
- No head rule (nd.head.one-per-turn, nd.head.exception): `get_valid_moves` offers a move from every occupied
  point, the head included, for every number (board.py:129-141); nothing counts checkers taken off the head.
- Neither "both numbers when possible" nor "the higher number" (nd.move.both-numbers, nd.move.higher-die): each
  number is offered on its own (board.py:132-139) and any of them may be played first; the turn ends when no
  move is offered for the numbers left (nard.py:136-144), even when another order would have played them all.
- Bear-off (nd.bearoff.*): once all fifteen are home, a checker leaves with its exact number only
  (board.py:153-155), or with any number when no ordinary move is offered (board.py:156-157), a smaller one
  included; and whenever some checker can be borne off, only bear-offs are offered (board.py:159-160), so a
  checker may not move inside the home board instead.  A bear-off with a number smaller than the distance
  uses up no number at all (nard.py:116-120 takes the smallest number at least the distance, if any).
- Six-block (nd.block.six): `is_unacceptable_mars` (board.py:103-124) counts a row of any occupied points,
  either side's (`player.WHITE and s > 0 or player.BLACK and s < 0` is true for every nonzero s: an enum member
  is always true, board.py:113), on a scratch board where the landing point loses a checker instead of gaining
  one (board.py:105-106).
- Its dice (`random_nums`, nard.py:165-169) are `randrange(1, 6)`: never a 6.  Not asked here.

What the suite finds (site/results/nard-backgammon.json): 48 narde-guide cases passed, 86 failed.  `identify`
(asked as narde-guide) names two readings, head-rule=none (17 failures explained) and six-block=allowed (28),
each with the cases that fail for its other deviations as counter-evidence; two failures play as the rule
mutant either-die-when-one-playable (the higher number); the rest are bugs by clause (its own six-block row,
its bear-off).  `fuzz --count 200` ended in an internal error on its first draft (a wrong play that notation
cannot write from the dice: a bear-off that uses no number), the crash of issue 28, section 2.
"""

from __future__ import annotations

import copy
from typing import Any

from gammonspec.model.state import Layout, Side

from .base import MoveGenerator, turn_ends

GAME = "narde"


def to_slots(layout: Layout) -> tuple[int, ...]:
    """The engine's slots: white's point p at slot 24 - p (white's view), black's point p at slot (36 - p) % 24."""
    slots = [0] * 24
    for p in range(1, 25):
        slots[24 - p] += layout.white[p - 1]
        slots[(36 - p) % 24] -= layout.black[p - 1]
    return tuple(slots)


def from_slots(slots: tuple[int, ...], white_off: int, black_off: int) -> Layout:
    white = tuple(max(slots[24 - p], 0) for p in range(1, 25))
    black = tuple(max(-slots[(36 - p) % 24], 0) for p in range(1, 25))
    return Layout(GAME, white, black, (0, 0), (white_off, black_off))


class NardBackgammon(MoveGenerator):
    """Narde legal plays from nard-backgammon."""

    name, module_name, rulesets = "nard-backgammon", "nard_backgammon", ("narde-guide",)

    def plays(self, layout: Layout, side: Side, d1: int, d2: int) -> list[Layout]:
        nard = self.module
        board = nard.Board()
        board.slots, board._white_off, board._black_off = to_slots(layout), layout.off[0], layout.off[1]
        player = nard.Player.WHITE if side == "white" else nard.Player.BLACK
        game = nard.Nard(board, nard.NardState.PLAYING, player)
        game.dice_nums = (d1, d2) * 2 if d1 == d2 else (d1, d2)

        def steps(node: Any) -> list[Any]:
            if node.player_turn != player or node.outcome:  # the turn has passed, or the game is over
                return []
            following = []
            for move in {(m.source, m.direction) for m in node.get_valid_moves(player)}:
                child = copy.deepcopy(node)
                child.play_move(nard.board.Move(*move))
                following.append(child)
            return following

        def key(node: Any) -> tuple:
            return node.board.slots, node.board.white_off, node.board.black_off, node.dice_nums, node.player_turn

        ends = turn_ends(game, steps, key)
        return sorted({from_slots(n.board.slots, n.board.white_off, n.board.black_off) for n in ends})
