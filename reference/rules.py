"""The movement rules, one small function each, named for the rule, its IDs in the docstring.

All functions work on the mover's view, packed (packed.py): `me`/`them` the packed counts, `mine`/`theirs`
occupancy masks, all in the mover's numbering.  `movegen.py` composes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import compress
from operator import itemgetter

from gammonspec.model.games import CHECKERS, HEAD
from gammonspec.model.rulesets import Rules, Switches
from gammonspec.model.state import TurnContext

from .packed import BAR, FIRST_QUARTER, HOME, OUTSIDE, Geometry, occupied

Position = tuple[int, int]  # (me, them), packed


def numbers_to_play(dice: tuple[int, ...]) -> tuple[int, ...]:
    """A roll's numbers; a double is played four times.

    bg.move.dice-separate, bg.move.doubles; switch doubles=four-moves."""
    if len(dice) == 2 and dice[0] == dice[1]:
        return (dice[0],) * 4
    return tuple(dice)


@dataclass(frozen=True)
class Movement:
    """The switch values move generation reads, looked up once per query rather than once per move."""

    hitting: bool
    higher_bears_off: bool
    exact_only: bool
    home_frozen: bool
    head_rule: bool
    block_within: bool
    block_after: bool
    draw_rule: bool

    @classmethod
    def of(cls, rules: Rules) -> Movement:
        return _movement(rules.switch)


@cache
def _movement(s: Switches) -> Movement:
    return Movement(
        hitting=s.hitting,
        higher_bears_off=s.bear_off == "higher-from-highest",
        exact_only=s.bear_off == "exact-only",
        home_frozen=s.home_frozen,
        head_rule=s.head_rule,
        block_within=s.six_block == "banned-within-turn",
        block_after=s.six_block != "allowed",
        draw_rule=s.draw,
    )


def point_closed(opponent_checkers: int, m: Movement) -> bool:
    """A point the mover may not land on.

    bg.move.closed-point (two or more, with hitting=blots); nd.point.single-holds, cn.point.single-holds:
    with hitting=none one checker holds a point (nd.point.no-hitting)."""
    return opponent_checkers >= (2 if m.hitting else 1)


def hits_blot(opponent_checkers: int, m: Movement) -> bool:
    """Landing on a lone opposing checker sends it to the bar.  bg.hit.blot; switch hitting=blots."""
    return m.hitting and opponent_checkers == 1


def must_enter_first(on_bar: int) -> bool:
    """While a checker is on the bar, nothing else moves.  bg.bar.enter-first."""
    return on_bar > 0


def entry_point(die: int) -> int:
    """A checker on the bar enters on the opponent's home board: the mover's point 25 - die.  bg.bar.enter."""
    return BAR - die


def all_home(mine: int) -> bool:
    """Bearing off needs all fifteen checkers home (none on 7-24 or the bar).  bg.bearoff.all-home.

    A test of the occupancy point by point: the move search tables the points it rejects."""
    return not mine & OUTSIDE


def bear_off_allowed(mine: int, source: int, die: int, home: bool, m: Movement) -> bool:
    """Whether `die` bears off the checker on `source` (`home`: all the mover's checkers are home).

    bg.bearoff.exact, nd.bearoff.exact: the number equal to the point; bg.bearoff.higher,
    nd.bearoff.higher, cn.bearoff.higher: a higher number from the highest occupied point only
    (bg.bearoff.move-inside otherwise); switch bear-off=exact-only allows the exact number alone
    (cn.bearoff.exact-only)."""
    if not home or die < source:
        return False
    if die == source:
        return True
    return m.higher_bears_off and not mine & HOME >> source + 1 << source + 1


def home_checker_frozen(source: int, target: int, home: bool, m: Movement) -> bool:
    """Home-board checkers that may not move inside the home board.

    cn.home.frozen (switch home-frozen=frozen): until bearing off starts; cn.bearoff.exact-only
    (switch bear-off=exact-only): once it has started, home checkers only bear off."""
    if source > 6 or target < 1:
        return False
    return (m.home_frozen and not home) or (m.exact_only and home)


def head_allowance(dice: tuple[int, ...], context: TurnContext, rules: Rules, passed: bool = False) -> int:
    """How many checkers may leave the head this turn.

    switch head-rule=one-per-turn: one; head-exception=first-turn-3-4-6: two on the side's first
    turn with 3-3, 4-4 or 6-6; head-exception=game-first-roll: two on the game's first roll.
    nd.head.one-per-turn, nd.head.first-turn; numbers passed to the opponent are played with one
    head checker at most and no exception (cn.unplayable.head-rule)."""
    if not rules.switch.head_rule:
        return 15
    if passed:
        return 1
    exception = rules.switch.head_exception
    double = len(dice) == 2 and dice[0] == dice[1]
    if exception == "first-turn-3-4-6" and context.first_turn and double and dice[0] in (3, 4, 6):
        return 2
    if exception == "game-first-roll" and context.rolls_in_game == 0:
        return 2
    return 1


def leaves_head(source: int, m: Movement) -> bool:
    """A move that takes a checker off the head (the side's 24-point) under the head rule.  nd.head.one-per-turn."""
    return m.head_rule and source == HEAD


def six_block_trap(mine: int, theirs: int, g: Geometry) -> bool:
    """A row of six or more held points with no opposing checker ahead of it.

    Contiguity and "ahead" are read along the opponent's path, in its own numbering q (it moves
    from q=24 down to q=1): the row is q = lo..lo+5 and ahead means an opposing checker on some
    q < lo.  Borne-off checkers are not on the path and do not count.  nd.block.six, cn.block.six: switch
    six-block=banned-after-turn checks the position a play leaves, banned-within-turn every step."""
    held = g.theirs(mine)  # bit q: my checkers on their point q
    if not six_in_a_row(held):
        return False
    ahead = g.theirs(theirs)  # bit q: their checkers on their point q
    behind_them = (ahead & -ahead) - 1 if ahead else (1 << 25) - 1  # every q below their most advanced checker
    return six_in_a_row(held & behind_them)


def six_in_a_row(mask: int) -> bool:
    """Six consecutive bits set in `mask`."""
    two = mask & mask >> 1
    return bool(two & two >> 2 & two >> 4)


def game_ends(me: int, mine: int, them: int, g: Geometry, m: Movement) -> bool:
    """A play has ended the game: the mover bore off its last checker (bg.object, nd.object, cn.end.win) or, with
    draw=both-blocked, both sides are walled in (cn.draw.both-blocked).  Nothing more is played; for the
    full-move rule the play counts the numbers it used, like any other."""
    if me & 255 == CHECKERS:
        return True
    if not m.draw_rule:
        return False
    theirs = occupied(them)
    walled_in = mine & HOME == HOME and theirs & g.their_home == g.their_home
    return walled_in and bool(mine & FIRST_QUARTER) and bool(theirs & g.their_first_quarter)


def game_can_end(me: int, moves: int, m: Movement) -> bool:
    """Whether a play of `moves` single moves can end the game (game_ends): each bears off one checker at most."""
    return m.draw_rule or (me & 255) + moves >= CHECKERS


def keep_maximal(
    used: dict[Position, tuple[tuple[int, ...], ...]], numbers: tuple[int, ...]
) -> tuple[list[Position], tuple[int, ...]]:
    """The plays that use as many numbers as possible; if only one of two numbers can be used, the higher.

    bg.move.both-numbers, bg.move.higher-die, bg.move.no-play; nd.move.both-numbers, nd.move.full-move,
    nd.move.higher-die, nd.move.compulsory, nd.move.no-play; cn.move.both-numbers, cn.move.higher-die.
    `used` maps each candidate end position to the numbers LEFT by the sequences reaching it that use the most
    numbers (all of one length, each once).  Returns the kept positions and the numbers they use."""
    shortest = list(map(len, map(itemgetter(0), used.values())))  # the numbers each candidate leaves unplayed
    fewest = min(shortest)
    best = list(compress(used, map(fewest.__eq__, shortest)))
    if fewest == 1 and len(numbers) == 2 and numbers[0] != numbers[1]:
        low = (min(numbers),)  # left over when the higher number was played
        with_high = [pos for pos in best if low in used[pos]]
        if with_high:
            return with_high, (max(numbers),)
    played = list(numbers)
    for n in used[best[0]][0]:
        played.remove(n)
    return best, tuple(played)


def chain_active(context: TurnContext, rules: Rules) -> bool:
    """Whether a double starts a chain up to 6-6.

    cn.doubles.chain (switch doubles=chain); doubles=chain-after-three-rolls: only once three rolls
    of the game have been played (cn.doubles.first-three-rolls)."""
    doubles = rules.switch.doubles
    return doubles == "chain" or (doubles == "chain-after-three-rolls" and context.rolls_in_game >= 3)


def next_in_chain(numbers: tuple[int, ...], context: TurnContext, rules: Rules) -> tuple[int, ...] | None:
    """The next double of a chain after a segment of four equal numbers, or None when the chain ends at 6-6."""
    if len(numbers) == 4 and len(set(numbers)) == 1 and numbers[0] < 6 and chain_active(context, rules):
        return (numbers[0] + 1,) * 4
    return None


def remainder_passes(rules: Rules) -> bool:
    """Numbers the player cannot play go to the opponent, once (switch unplayable=opponent-plays).

    cn.unplayable.opponent-plays; with unplayable=lost they are lost, and with a chain the turn ends
    (cn.unplayable.lost-ends-chain)."""
    return rules.switch.unplayable == "opponent-plays"
