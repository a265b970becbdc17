"""Rule mutants of checker movement: points, hitting, the bar, bearing off, the head, the six-block, the play.

Each breaks one rule function of movegen or rules (conformance/tools/mutants.py holds the registry).
"""

from __future__ import annotations

from dataclasses import replace
from itertools import permutations
from typing import Any

from gammonspec.conformance.tools.mutant_patches import Mutant, const, mutant
from gammonspec.model.rulesets import Rules
from gammonspec.reference import movegen, packed
from gammonspec.reference import rules as r
from gammonspec.reference.packed import BAR

# ---- replacements that need more than one line -------------------------------------------------


def _bear_off_any_higher(original: Any) -> Any:
    def bear_off_allowed(me, source, die, home, m):  # a higher number bears off from any point
        return home and die >= source and (die == source or m.higher_bears_off)

    return bear_off_allowed


def _standard_bear_off(original: Any) -> Any:
    def bear_off_allowed(me, source, die, home, m):  # bear-off=exact-only read as higher-from-highest
        return original(me, source, die, home, replace(m, higher_bears_off=m.higher_bears_off or m.exact_only))

    return bear_off_allowed


def _no_higher_bear_off(original: Any) -> Any:
    def bear_off_allowed(me, source, die, home, m):  # only the exact number, whatever the switch
        return original(me, source, die, home, replace(m, higher_bears_off=False))

    return bear_off_allowed


def _head_any_double(original: Any) -> Any:
    def head_allowance(dice, context, rules, passed=False):  # the first-turn exception for any double
        if rules["head-exception"] == "first-turn-3-4-6" and not passed and context.first_turn:
            if len(dice) == 2 and dice[0] == dice[1]:
                return 2
        return original(dice, context, rules, passed)

    return head_allowance


def _head_any_turn(original: Any) -> Any:
    def head_allowance(dice, context, rules, passed=False):  # 3-3, 4-4, 6-6 lift two on any turn
        return original(dice, replace(context, first_turn=True, rolls_in_game=0), rules, passed)

    return head_allowance


def _head_no_exception(original: Any) -> Any:
    def head_allowance(dice, context, rules, passed=False):
        return min(original(dice, context, rules, passed), 1) if rules["head-rule"] != "none" else 15

    return head_allowance


def _head_passed_exception(original: Any) -> Any:
    def head_allowance(dice, context, rules, passed=False):  # passed numbers get the owner's exception
        return original(dice, context, rules, False)

    return head_allowance


def _block_own_numbering(original: Any) -> Any:
    def six_block_trap(mine, theirs, g):  # contiguity and "ahead" read along the mover's own numbering
        highest = (theirs & packed.EVERY_POINT).bit_length() - 1  # their checker highest in my numbering
        return r.six_in_a_row(mine & packed.EVERY_POINT & ~((2 << max(highest, 0)) - 1))

    return six_block_trap


def _block_edge_ahead(original: Any) -> Any:
    def six_block_trap(mine, theirs, g):  # a checker just behind the row counts as ahead of it
        held, ahead = g.theirs(mine), g.theirs(theirs)
        return r.six_in_a_row(held & (((ahead & -ahead) >> 1) - 1 if ahead else (1 << 25) - 1))

    return six_block_trap


def _rows(held: int) -> list[int]:
    """The lowest point of every six held points in a row (bit q: point q of the path the row is read along)."""
    return [lo for lo in range(1, 20) if held >> lo & 63 == 63]


def _ahead_of(lo: int, ahead: int, gap: int = 0) -> bool:
    """Whether an opposing checker stands ahead of a row starting at `lo`, `gap` points short of it or more."""
    return bool(ahead & (1 << max(lo - gap, 0)) - 1)


CORNER = (1 << 13) - 2  # their points 1-12: the mover's 13-24 in Narde; a row across their 12/13 crosses its 1/24


def _block_corner_missed(original: Any) -> Any:
    def six_block_trap(mine, theirs, g):  # a row across the mover's 1/24 corner is not seen as one row
        held, ahead = g.theirs(mine), g.theirs(theirs)
        halves = (held & CORNER, held & ~CORNER)
        return any(not _ahead_of(lo, ahead) for half in halves for lo in _rows(half))

    return six_block_trap


def _block_seam_counts(original: Any) -> Any:
    def six_block_trap(mine, theirs, g):  # the mover's 13/12 seam read as contiguous: their 24 next to their 1
        held = g.theirs(mine)
        around = held | held << 24  # their 1-24, then 1-24 again as 25-48: a row through 24 and 1 shows
        return any(lo + 5 > 24 for lo in range(1, 25) if around >> lo & 63 == 63) or original(mine, theirs, g)

    return six_block_trap


def _block_edge_ahead_ignored(original: Any) -> Any:
    def six_block_trap(mine, theirs, g):  # an opposing checker just ahead of the row does not count as ahead
        held, ahead = g.theirs(mine), g.theirs(theirs)
        return any(not _ahead_of(lo, ahead, 1) for lo in _rows(held))

    return six_block_trap


def _higher_when_die_idle(original: Any) -> Any:
    def bear_off_allowed(mine, source, die, home, m):  # a higher number bears off from any point, but only when no
        # checker stands on its point or above (then the number has no other move on an open board)
        idle = home and m.higher_bears_off and die > source and not mine >> die
        return idle or original(mine, source, die, home, m)

    return bear_off_allowed


def _higher_first(original: Any) -> Any:
    def plan(numbers):  # two different numbers tried in one order only, the higher first
        numbers, orders = original(numbers)
        falling = [o for o in orders if list(o[0]) == sorted(o[0], reverse=True)]
        return numbers, tuple(falling[:1]) or orders

    return plan


def _block_after_only(original: Any) -> Any:
    def of(rules: Rules) -> r.Movement:  # banned-within-turn checked only on the position the play leaves
        return replace(original(rules), block_within=False)

    return of


def _stuck_order(original: Any) -> Any:
    def legal_positions(me, them, numbers, head_start, rules, g):
        """Each order of the numbers played as far as it goes: the first order that gets stuck is a play,
        instead of only the plays that use the most numbers."""
        moves = movegen.SingleMoves(*movegen.movement(rules), g, me, them, len(numbers))
        ends: dict[r.Position, tuple[int, ...]] = {}

        def go(me, mine, them, rest, head, used):
            moved = False
            if rest:  # step() leaves out the moves the six-block ban forbids, and any once the game has ended
                for new_me, new_mine, new_them, new_head, _ in moves.step([(me, mine, them, head, 0)], rest[0], False):
                    moved = True
                    go(new_me, new_mine, new_them, rest[1:], new_head, (*used, rest[0]))
            if not moved and not (moves.m.block_after and moves.trapped(mine, them)):
                if len(used) >= len(ends.get((me, them), ())):
                    ends[(me, them)] = used

        for order in set(permutations(numbers)):
            go(me, packed.occupied(me), them, order, max(head_start, 0), ())
        if not ends:
            return [(me, them)], ()
        return list(ends), max(ends.values(), key=len)

    return legal_positions


def _either_die(original: Any) -> Any:
    def keep_maximal(used, numbers):  # when only one number can be played, either will do
        if len(numbers) == 2 and numbers[0] != numbers[1]:
            fewest = min(len(left) for lefts in used.values() for left in lefts)
            if fewest == 1:
                best = [pos for pos, lefts in used.items() if any(len(left) == 1 for left in lefts)]
                return best, (max(numbers),)
        return original(used, numbers)

    return keep_maximal


MOVEMENT_MUTANTS: tuple[Mutant, ...] = (
    mutant(
        "double-two-moves",
        "bg.move.doubles",
        r,
        "numbers_to_play",
        lambda o: lambda dice: tuple(dice),
        also=("cn.doubles.chain",),
    ),
    mutant("blot-never-holds", "nd.point.no-hitting", r, "point_closed", lambda o: lambda n, m: n >= 2),
    mutant("blot-closes-point", "bg.move.closed-point", r, "point_closed", lambda o: lambda n, m: n >= 1),
    mutant("no-hitting", "bg.hit.blot", r, "hits_blot", const(False)),
    mutant("bar-ignored", "bg.bar.enter-first", r, "must_enter_first", const(False)),
    mutant("entry-off-by-one", "bg.bar.enter", r, "entry_point", lambda o: lambda die: BAR - die - 1),
    mutant(
        "bear-off-seven-point-home",
        "bg.bearoff.all-home",
        r,
        "all_home",
        lambda o: lambda mine: not mine & packed.OUTSIDE & ~(1 << 7),
    ),
    mutant("higher-bears-off-any-point", "bg.bearoff.higher", r, "bear_off_allowed", _bear_off_any_higher),
    mutant("standard-bear-off-under-exact-only", "cn.bearoff.exact-only", r, "bear_off_allowed", _standard_bear_off),
    mutant("no-higher-bear-off", "bg.bearoff.higher", r, "bear_off_allowed", _no_higher_bear_off),
    mutant(
        "higher-bears-off-any-point-when-die-idle", "bg.bearoff.higher", r, "bear_off_allowed", _higher_when_die_idle
    ),
    mutant(
        "home-not-frozen",
        "cn.home.frozen",
        r,
        "home_checker_frozen",
        lambda o: lambda s, t, home, m: o(s, t, home, replace(m, home_frozen=False)),
    ),
    mutant(
        "exact-only-home-moves-inside",
        "cn.bearoff.exact-only",
        r,
        "home_checker_frozen",
        lambda o: lambda s, t, home, m: o(s, t, home, replace(m, exact_only=False)),
    ),
    mutant("no-head-limit", "nd.head.one-per-turn", r, "head_allowance", const(15)),
    mutant("head-exception-any-double", "nd.head.first-turn", r, "head_allowance", _head_any_double),
    mutant("head-exception-any-turn", "nd.head.first-turn", r, "head_allowance", _head_any_turn),
    mutant("no-head-exception", "nd.head.first-turn", r, "head_allowance", _head_no_exception),
    mutant("passed-numbers-head-exception", "cn.unplayable.head-rule", r, "head_allowance", _head_passed_exception),
    mutant("head-moves-not-counted", "nd.head.one-per-turn", r, "leaves_head", const(False)),
    mutant("head-is-the-23-point", "nd.head.one-per-turn", r, "leaves_head", lambda o: lambda s, m: o(s + 1, m)),
    mutant("no-six-block-ban", "nd.block.six", r, "six_block_trap", const(False)),
    mutant("six-block-own-numbering", "nd.block.six", r, "six_block_trap", _block_own_numbering),
    mutant("six-block-edge-counts-ahead", "nd.block.six", r, "six_block_trap", _block_edge_ahead),
    mutant("six-block-checked-at-end-only", "cn.block.six", r.Movement, "of", _block_after_only),
    mutant("six-block-corner-missed", "nd.block.six", r, "six_block_trap", _block_corner_missed),
    mutant("six-block-seam-counts", "nd.block.six", r, "six_block_trap", _block_seam_counts),
    mutant("six-block-edge-ahead-ignored", "nd.block.six", r, "six_block_trap", _block_edge_ahead_ignored),
    mutant("either-die-when-one-playable", "bg.move.higher-die", r, "keep_maximal", _either_die),
    mutant(
        "stuck-order-is-a-play",
        "nd.move.full-move",
        movegen,
        "legal_positions",
        _stuck_order,
        also=("bg.move.both-numbers", "cn.move.both-numbers"),
    ),
    mutant(
        "higher-number-first-only",
        "nd.move.full-move",
        movegen,
        "plan",
        _higher_first,
        also=("bg.move.both-numbers", "cn.move.both-numbers"),
    ),
)
