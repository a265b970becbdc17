"""Legal plays: every sequence of single-number moves the rules allow, kept as distinct end positions.

A depth-first search over (position, numbers left, head moves) that visits each node once;
every node is a candidate end of the turn (a play may stop early only when nothing more can
be played, which `keep_maximal` settles over the whole set).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gammonspec.conformance.rulesets import Rules
from gammonspec.conformance.state import Layout, Segment, Side, State, TurnContext

from . import rules as r
from .packed import BAR, BAR_SHIFT, EVERY_POINT, OFF, POINT_SLOTS, SLOT, Geometry, falling, geometry, occupied
from .scoring import game_over

Position = r.Position
Move = tuple[int, int, int, int, int]  # (me, mine, them, head moves left, source) after the move


@dataclass(frozen=True)
class RuleTables:
    """The answers of the per-point rule functions under one Movement, for every point, count and number.

    Kept per Movement and per rule functions (a patched function gets tables of its own)."""

    heads: int  # sources a move from which leaves the head
    closed: bytes  # a checker count -> 1 where a point holding that many opposing checkers is closed
    blots: bytes  # a checker count -> 1 where landing on that many opposing checkers hits
    frozen: dict[tuple[int, bool], int]  # (number, all home) -> mask of the sources frozen for it


_TABLES: dict[tuple[object, ...], RuleTables] = {}


def rule_tables(m: r.Movement) -> RuleTables:
    key = (m, r.leaves_head, r.point_closed, r.hits_blot, r.home_checker_frozen)
    tables = _TABLES.get(key)
    if tables is None:
        tables = _TABLES[key] = RuleTables(
            sum(1 << p for p in range(1, BAR + 1) if r.leaves_head(p, m)),
            bytes(r.point_closed(n, m) for n in range(256)),
            bytes(r.hits_blot(n, m) for n in range(256)),
            {
                (die, home): sum(1 << p for p in range(die + 1, 25) if r.home_checker_frozen(p, p - die, home, m))
                for die in range(1, 7)
                for home in (False, True)
            },
        )
    return tables


@dataclass
class SingleMoves:
    """The single-number moves of one search, the opponent's side read once per `them`.

    The opponent's closed points and blots (packed: one flag a slot) depend only on its checkers,
    which only a hit changes."""

    m: r.Movement
    tables: RuleTables
    boards: dict[int, tuple[int, int]] = field(default_factory=dict)  # them -> (closed, blots)
    occupancy: dict[int, int] = field(default_factory=dict)  # them -> its occupancy mask
    traps: dict[int, dict[int, bool]] = field(default_factory=dict)  # them -> mine -> six_block_trap

    def board(self, them: int) -> tuple[int, int]:
        """The opponent's closed points and blots, one flag a slot of the mover's points."""
        found = self.boards.get(them)
        if found is None:
            counts = them.to_bytes(26, "little")
            closed = int.from_bytes(counts.translate(self.tables.closed), "little") & POINT_SLOTS
            blots = int.from_bytes(counts.translate(self.tables.blots), "little") & POINT_SLOTS
            found = self.boards[them] = (closed, blots)
        return found

    def theirs(self, them: int) -> int:
        found = self.occupancy.get(them)
        if found is None:
            found = self.occupancy[them] = occupied(them)
        return found

    def hit(self, them: int, target: int) -> int:
        """The opponent after its blot on `target` is hit, its board updated from the point that changed."""
        after = them - SLOT[target] + SLOT[BAR]
        if after not in self.boards:
            closed, blots = self.boards[them]
            shift, keep = 8 * target, ~(255 << 8 * target)
            self.boards[after] = (
                closed & keep | self.tables.closed[0] << shift,
                blots & keep | self.tables.blots[0] << shift,
            )
        return after

    def trapped(self, mine: int, them: int, g: Geometry) -> bool:
        """six_block_trap, asked once per occupancy (a step and the end it reaches ask the same)."""
        known = self.traps.get(them)
        if known is None:
            known = self.traps[them] = {}
        found = known.get(mine)
        if found is None:
            found = known[mine] = r.six_block_trap(mine, self.theirs(them), g)
        return found

    def of(self, me: int, mine: int, them: int, die: int, head_left: int, top: int = BAR) -> list[Move]:
        """Each position one move of `die` from a point no higher than `top` can reach."""
        closed, blots = self.board(them)
        if r.must_enter_first(me >> BAR_SHIFT & 255):
            sources: tuple[int, ...] = (BAR,)
        else:
            sources = falling(mine & EVERY_POINT & (2 << top) - 1)
        home = r.all_home(mine)
        frozen, heads = self.tables.frozen[(die, home)], self.tables.heads
        moves = []
        for source in sources:
            target = r.entry_point(die) if source == BAR else source - die
            if target >= 1:
                if closed >> 8 * target & 1 or frozen >> source & 1:
                    continue
            elif r.bear_off_allowed(mine, source, die, home, self.m):
                target = OFF
            else:
                continue
            head = heads >> source & 1
            if head and not head_left:
                continue
            new_me = me - SLOT[source] + SLOT[target]
            new_mine = (mine if me >> 8 * source & 255 > 1 else mine ^ 1 << source) | 1 << target
            new_them = self.hit(them, target) if blots >> 8 * target & 1 else them
            moves.append((new_me, new_mine, new_them, head_left - head, source))
        return moves


def legal_positions(
    me: int, them: int, numbers: tuple[int, ...], head_start: int, rules: Rules, g: Geometry
) -> tuple[list[Position], tuple[int, ...]]:
    """The distinct end positions of all legal plays of `numbers` in the mover's packed view, and the numbers they use."""
    m = r.Movement.of(rules)
    moves = SingleMoves(m, rule_tables(m))
    used: dict[Position, set[tuple[int, ...]]] = {}
    seen: set[tuple[int, int, tuple[int, ...], int, int]] = set()
    # Moves of one number commute: with equal numbers it is enough to try sources in falling
    # order (each position is still reached), unless the six-block ban watches every step, or
    # exact-only bear-off with a free home lets home checkers move only before the last outside
    # checker arrives (then a lower move must come first).
    ordered = len(set(numbers)) == 1 and not m.block_within and not (m.exact_only and not m.home_frozen)

    def visit(me: int, mine: int, them: int, left: tuple[int, ...], head_left: int, top: int) -> None:
        node = (me, them, left, head_left, top)
        if node in seen:
            return
        seen.add(node)
        used.setdefault((me, them), set()).add(left)  # every node is a candidate end of the play
        if r.game_ends(me, mine, them, g, m):
            return
        for i, die in enumerate(left):
            if die in left[:i]:
                continue
            rest = left[:i] + left[i + 1 :]
            for new_me, new_mine, new_them, new_head, source in moves.of(me, mine, them, die, head_left, top):
                if m.block_within and moves.trapped(new_mine, new_them, g):
                    continue
                if rest:
                    visit(new_me, new_mine, new_them, rest, new_head, source if ordered else BAR)
                else:  # the last number: nothing follows, no node to keep
                    used.setdefault((new_me, new_them), set()).add(rest)

    numbers = tuple(sorted(numbers))
    visit(me, occupied(me), them, numbers, max(head_start, 0), BAR)
    return kept(used, numbers, m, moves, g) or ([(me, them)], ())


def kept(
    used: dict[Position, set[tuple[int, ...]]], numbers: tuple[int, ...], m: r.Movement, moves: SingleMoves, g: Geometry
) -> tuple[list[Position], tuple[int, ...]] | None:
    """keep_maximal over the candidate ends that leave no banned six-block (None when there are none).

    The ban is checked on the ends keep_maximal would keep, the banned ones dropped and the rest asked again
    until none is banned: the same answer as dropping every banned end first, for far fewer checks."""
    while used:
        positions, played = r.keep_maximal(used, numbers)
        banned = [pos for pos in positions if m.block_after and moves.trapped(occupied(pos[0]), pos[1], g)]
        if not banned:
            return positions, played
        for pos in banned:
            del used[pos]
    return None


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
    return g.to_layouts(state.turn, positions), used


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
