"""Legal plays: every sequence of single-number moves the rules allow, kept as distinct end positions.

A depth-first search over (position, numbers left, head moves) that visits each node once;
every node is a candidate end of the turn (a play may stop early only when nothing more can
be played, which `keep_maximal` settles over the whole set).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from gammonspec.conformance.rules import Rules
from gammonspec.conformance.state import Layout, Segment, Side, State, TurnContext

from . import rules as r
from .scoring import game_over
from .view import BAR, OFF, Counts, to_layout, to_view

Position = r.Position


def single_moves(
    me: Counts, them: Counts, die: int, head_left: int, m: r.Movement, top: int = BAR
) -> Iterator[tuple[Counts, Counts, int, int]]:
    """Each position one move of `die` from a point no higher than `top` can reach, with the head moves left and the source."""
    sources = (BAR,) if r.must_enter_first(me) else tuple(p for p in range(min(top, 24), 0, -1) if me[p])
    home = r.all_home(me)
    for source in sources:
        target = r.entry_point(die) if source == BAR else source - die
        if target >= 1:
            if r.point_closed(them[target], m) or r.home_checker_frozen(source, target, home, m):
                continue
        elif not r.bear_off_allowed(me, source, die, home, m):
            continue
        head = r.leaves_head(source, m)
        if head and not head_left:
            continue
        new_me = list(me)
        new_me[source] -= 1
        new_me[max(target, OFF)] += 1
        new_them = them
        if target >= 1 and r.hits_blot(them[target], m):
            hit = list(them)
            hit[target], hit[BAR] = 0, hit[BAR] + 1
            new_them = tuple(hit)
        yield tuple(new_me), new_them, head_left - head, source


def legal_positions(
    me: Counts, them: Counts, numbers: tuple[int, ...], head_start: int, rules: Rules, game: str
) -> tuple[list[Position], tuple[int, ...]]:
    """The distinct end positions of all legal plays of `numbers` in the mover's view, and the numbers they use."""
    m = r.Movement.of(rules)
    used: dict[Position, set[tuple[int, ...]]] = {}
    seen: set[tuple[Counts, Counts, tuple[int, ...], int, int]] = set()
    # Moves of one number commute: with equal numbers it is enough to try sources in falling
    # order (each position is still reached), unless the six-block ban watches every step, or
    # exact-only bear-off with a free home lets home checkers move only before the last outside
    # checker arrives (then a lower move must come first).
    ordered = len(set(numbers)) == 1 and not m.block_within and not (m.exact_only and not m.home_frozen)

    def visit(me: Counts, them: Counts, left: tuple[int, ...], head_left: int, top: int) -> None:
        node = (me, them, left, head_left, top)
        if node in seen:
            return
        seen.add(node)
        if not (m.block_after and r.six_block_trap(me, them, game)):
            used.setdefault((me, them), set()).add(left)
        if r.game_ends(me, them, game, m):
            return
        for i, die in enumerate(left):
            if die in left[:i]:
                continue
            rest = left[:i] + left[i + 1 :]
            for new_me, new_them, new_head, source in single_moves(me, them, die, head_left, m, top):
                if m.block_within and r.six_block_trap(new_me, new_them, game):
                    continue
                visit(new_me, new_them, rest, new_head, source if ordered else BAR)

    numbers = tuple(sorted(numbers))
    visit(me, them, numbers, max(head_start, 0), BAR)
    return r.keep_maximal(used, numbers) if used else ([(me, them)], ())


def segment_numbers(state: State, rules: Rules) -> tuple[int, ...]:
    """The numbers to play now: the state's segment, or the roll (a double four times)."""
    return state.segment.numbers if state.segment else r.numbers_to_play(state.dice, rules)


def play_segment(state: State, rules: Rules) -> tuple[list[Layout], tuple[int, ...]]:
    """Every distinct layout a legal play of the current segment leaves, and the numbers such a play uses."""
    me, them = to_view(state.layout, state.turn)
    passed = state.segment is not None and state.segment.passed
    head_start = r.head_allowance(state.dice, state.context, rules, passed) - state.context.head_moves
    numbers = segment_numbers(state, rules)
    positions, used = legal_positions(me, them, numbers, head_start, rules, state.game)
    return [to_layout(state.game, state.turn, m, t) for m, t in positions], used


def legal_plays(layout: Layout, side: Side, dice: tuple[int, ...], context: TurnContext, rules: Rules) -> list[Layout]:
    """Every distinct layout a legal play of a fresh roll can leave; the unchanged layout when nothing can move."""
    return play_segment(State(layout, side, dice, context), rules)[0]


@dataclass(frozen=True)
class SegmentPlays:
    """One search of a segment: its legal results, the numbers they use, and what follows it."""

    results: list[Layout]
    used: tuple[int, ...]
    next: Segment | None


def search(state: State, rules: Rules) -> SegmentPlays:
    """The legal plays of the current segment and what follows them, from one move search."""
    results, used = play_segment(state, rules)
    return SegmentPlays(results, used, next_segment(state, rules, results, used))


def next_segment(state: State, rules: Rules, results: list[Layout], used: tuple[int, ...]) -> Segment | None:
    """What follows the current segment, given its legal `results` and the numbers they `used`: the opponent plays
    the remainder, the chain goes on, or the turn ends.

    cn.unplayable.opponent-plays, cn.unplayable.once, cn.doubles.chain, cn.chain.returns."""
    numbers = segment_numbers(state, rules)
    owner = state.segment.owner if state.segment else state.turn
    if all(game_over(layout, rules) for layout in results):
        return None  # cn.end.win, cn.draw.both-blocked: the game ends at once, mid-turn too
    if not (state.segment and state.segment.passed):
        left = list(numbers)
        for n in used:
            left.remove(n)
        if left and r.remainder_passes(rules):
            return Segment(owner, tuple(left), passed=True)
        if left and len(numbers) == 4:
            return None  # a chain whose double is not played in full ends (unplayable=lost)
    if len(state.dice) != 2 or state.dice[0] != state.dice[1]:
        return None  # only a rolled double starts a chain
    chained = r.next_in_chain((numbers[0],) * 4, state.context, rules)
    return Segment(owner, chained) if chained else None
