"""Legal plays: every sequence of single-number moves the rules allow, kept as distinct end positions.

A depth-first search over (position, numbers left, head moves) that visits each node once;
every node is a candidate end of the turn (a play may stop early only when nothing more can
be played, which `keep_maximal` settles over the whole set).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gammonspec.conformance.rules import Rules
from gammonspec.conformance.state import Layout, Segment, Side, State, TurnContext

from . import rules as r
from .packed import BAR, BAR_SHIFT, EVERY_POINT, OFF, SLOT, Geometry, falling, geometry, occupied
from .scoring import game_over

Position = r.Position
Move = tuple[int, int, int, int, int]  # (me, mine, them, head moves left, source) after the move


@dataclass
class SingleMoves:
    """The single-number moves of one search, with the rule functions' answers kept as masks.

    The opponent's closed points and blots depend only on its checkers (`them`), which only a hit
    changes; home-board freezing only on the number and whether all the mover's checkers are home."""

    m: r.Movement
    heads: int = 0  # sources a move from which leaves the head
    boards: dict[int, tuple[int, int, int]] = field(default_factory=dict)  # them -> (closed, blots, theirs)
    frozen: dict[tuple[int, bool], int] = field(default_factory=dict)  # (die, home) -> frozen sources

    def __post_init__(self) -> None:
        self.heads = sum(1 << p for p in range(1, BAR + 1) if r.leaves_head(p, self.m))

    def board(self, them: int) -> tuple[int, int, int]:
        """The opponent's closed points, its blots and its occupancy, as masks of the mover's points."""
        found = self.boards.get(them)
        if found is None:
            counts = them.to_bytes(26, "little")
            closed = sum(1 << p for p in range(1, 25) if r.point_closed(counts[p], self.m))
            blots = sum(1 << p for p in range(1, 25) if r.hits_blot(counts[p], self.m))
            found = self.boards[them] = (closed, blots, occupied(them))
        return found

    def frozen_sources(self, die: int, home: bool) -> int:
        found = self.frozen.get((die, home))
        if found is None:
            found = sum(1 << p for p in range(die + 1, 25) if r.home_checker_frozen(p, p - die, home, self.m))
            self.frozen[(die, home)] = found
        return found

    def of(self, me: int, mine: int, them: int, die: int, head_left: int, top: int = BAR) -> list[Move]:
        """Each position one move of `die` from a point no higher than `top` can reach."""
        m = self.m
        closed, blots, _ = self.board(them)
        if r.must_enter_first(me >> BAR_SHIFT & 255):
            sources: tuple[int, ...] = (BAR,)
        else:
            sources = falling(mine & EVERY_POINT & (2 << top) - 1)
        home = r.all_home(mine)
        frozen = self.frozen_sources(die, home)
        moves = []
        for source in sources:
            target = r.entry_point(die) if source == BAR else source - die
            if target >= 1:
                if closed >> target & 1 or frozen >> source & 1:
                    continue
            elif r.bear_off_allowed(mine, source, die, home, m):
                target = OFF
            else:
                continue
            head = self.heads >> source & 1
            if head and not head_left:
                continue
            new_me = me - SLOT[source] + SLOT[target]
            new_mine = (mine if me >> 8 * source & 255 > 1 else mine ^ 1 << source) | 1 << target
            new_them = them
            if blots >> target & 1:
                new_them = them - SLOT[target] + SLOT[BAR]
            moves.append((new_me, new_mine, new_them, head_left - head, source))
        return moves


def legal_positions(
    me: int, them: int, numbers: tuple[int, ...], head_start: int, rules: Rules, g: Geometry
) -> tuple[list[Position], tuple[int, ...]]:
    """The distinct end positions of all legal plays of `numbers` in the mover's packed view, and the numbers they use."""
    m = r.Movement.of(rules)
    moves = SingleMoves(m)
    used: dict[Position, set[tuple[int, ...]]] = {}
    seen: set[tuple[int, int, tuple[int, ...], int, int]] = set()
    # Moves of one number commute: with equal numbers it is enough to try sources in falling
    # order (each position is still reached), unless the six-block ban watches every step, or
    # exact-only bear-off with a free home lets home checkers move only before the last outside
    # checker arrives (then a lower move must come first).
    ordered = len(set(numbers)) == 1 and not m.block_within and not (m.exact_only and not m.home_frozen)

    def end(me: int, mine: int, them: int, left: tuple[int, ...]) -> None:
        """A candidate end of the play: kept unless it leaves a banned six-block."""
        if not (m.block_after and r.six_block_trap(mine, moves.board(them)[2], g)):
            used.setdefault((me, them), set()).add(left)

    def visit(me: int, mine: int, them: int, left: tuple[int, ...], head_left: int, top: int) -> None:
        node = (me, them, left, head_left, top)
        if node in seen:
            return
        seen.add(node)
        end(me, mine, them, left)
        if r.game_ends(me, mine, moves.board(them)[2], g, m):
            return
        for i, die in enumerate(left):
            if die in left[:i]:
                continue
            rest = left[:i] + left[i + 1 :]
            for new_me, new_mine, new_them, new_head, source in moves.of(me, mine, them, die, head_left, top):
                if m.block_within and r.six_block_trap(new_mine, moves.board(new_them)[2], g):
                    continue
                if rest:
                    visit(new_me, new_mine, new_them, rest, new_head, source if ordered else BAR)
                else:  # the last number: nothing follows, no node to keep
                    end(new_me, new_mine, new_them, rest)

    numbers = tuple(sorted(numbers))
    visit(me, occupied(me), them, numbers, max(head_start, 0), BAR)
    return r.keep_maximal(used, numbers) if used else ([(me, them)], ())


def segment_numbers(state: State, rules: Rules) -> tuple[int, ...]:
    """The numbers to play now: the state's segment, or the roll (a double four times)."""
    return state.segment.numbers if state.segment else r.numbers_to_play(state.dice, rules)


def play_segment(state: State, rules: Rules) -> tuple[list[Layout], tuple[int, ...]]:
    """Every distinct layout a legal play of the current segment leaves, and the numbers such a play uses."""
    g = geometry(state.game)
    me, them = g.to_view(state.layout, state.turn)
    passed = state.segment is not None and state.segment.passed
    head_start = r.head_allowance(state.dice, state.context, rules, passed) - state.context.head_moves
    numbers = segment_numbers(state, rules)
    positions, used = legal_positions(me, them, numbers, head_start, rules, g)
    return [g.to_layout(state.turn, m, t) for m, t in positions], used


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
