"""Legal plays: every sequence of single-number moves the rules allow, kept as distinct end positions.

A breadth-first search, a number at a time for each order of the numbers, over (position, head
moves left), each node once; every node is a candidate end of the turn (a play may stop early
only when nothing more can be played, which `keep_maximal` settles over the whole set; when some
play uses every number, those plays are the answer and the rest need not be weighed).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import permutations

from gammonspec.model.rulesets import Rules
from gammonspec.model.state import Layout, Segment, Side, State, TurnContext

from . import rules as r
from .packed import (
    BAR,
    BAR_SHIFT,
    EVERY_POINT,
    FALLING_HIGH,
    FALLING_LOW,
    FALLING_MID,
    OFF,
    SLOT,
    Geometry,
    geometry,
    occupied,
)
from .scoring import game_over

Position = r.Position
Order = tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]  # an order of the numbers, the numbers left after each step
Move = tuple[int, int, int, int, int]  # (me, mine, them, head moves left, points at or below its source) after it
FROM_BAR = 1 << BAR
AT_OR_BELOW = tuple(EVERY_POINT & (2 << p) - 1 for p in range(BAR + 1))  # a point -> the points 1-24 up to it


@dataclass(frozen=True)
class RuleTables:
    """The answers of the per-point rule functions under one Movement, for every point, count and number.

    Kept per Movement and per rule functions (a patched function gets tables of its own)."""

    heads: int  # sources a move from which leaves the head
    closed: bytes  # a checker count -> b"1" where a point holding that many opposing checkers is closed, else b"0"
    blots: bytes  # a checker count -> b"1" where landing on that many opposing checkers hits, else b"0"
    bar_first: tuple[bool, ...]  # checkers on the bar -> whether nothing else may move
    outside: int  # the points (and the bar) a checker on which keeps the mover from having all home
    by_number: tuple[ByNumber, ...]  # number -> its tables


ByNumber = tuple[
    tuple[int, ...],  # targets: source -> where a move of the number lands (OFF: borne off)
    tuple[int, ...],  # steps: source -> what the move adds to the mover's packed side
    tuple[int, int],  # frozen: all home -> mask of the sources frozen for it
    tuple[int, ...],  # bear-offs: occupancy of a mover with all home -> where it bears off
]


_TABLES: dict[tuple[object, ...], tuple[r.Movement, RuleTables]] = {}
HOME_OR_OFF = (1 << 7) - 1  # bits 0-6: a mover with every checker home is occupancy within them


def movement(rules: Rules) -> tuple[r.Movement, RuleTables]:
    """The switch values move generation reads (Movement.of) and the rule tables under them, worked out once per
    switch assignment and rule functions (a patched function gets tables of its own)."""
    key = (
        rules.switch,  # one object per assignment, hashed by identity
        r.Movement.of,
        r.leaves_head,
        r.point_closed,
        r.hits_blot,
        r.home_checker_frozen,
        r.entry_point,
        r.must_enter_first,
        r.bear_off_allowed,
        r.all_home,
    )
    found = _TABLES.get(key)
    if found is None:
        m = r.Movement.of(rules)
        found = _TABLES[key] = m, rule_tables(m)
    return found


def rule_tables(m: r.Movement) -> RuleTables:
    """The answers of the per-point rule functions under `m`, for every point, count and number."""
    targets = tuple((*(max(p - die, OFF) for p in range(BAR)), r.entry_point(die)) for die in range(7))
    steps = tuple(tuple(SLOT[target] - SLOT[source] for source, target in enumerate(row)) for row in targets)
    frozen = tuple(
        tuple(
            sum(1 << p for p in range(die + 1, 25) if r.home_checker_frozen(p, p - die, home, m))
            for home in (False, True)
        )
        for die in range(7)
    )
    bear_offs = tuple(
        tuple(
            sum(1 << p for p in range(1, die + 1) if mine >> p & 1 and r.bear_off_allowed(mine, p, die, True, m))
            for mine in range(HOME_OR_OFF + 1)
        )
        for die in range(7)
    )
    return RuleTables(
        sum(1 << p for p in range(1, BAR + 1) if r.leaves_head(p, m)),
        bytes(b"01"[r.point_closed(n, m)] for n in range(256)),
        bytes(b"01"[r.hits_blot(n, m)] for n in range(256)),
        tuple(r.must_enter_first(n) for n in range(256)),
        sum(1 << p for p in range(BAR + 1) if not r.all_home(1 << p)),
        tuple(zip(targets, steps, frozen, bear_offs)),
    )


class SingleMoves:
    """The single-number moves of one search, a number at a time from every node of a frontier, the opponent's
    side read once per `them`.

    A node is a Move: (me, mine, them, head moves left, below), `below` the points it may move from when moves
    of one number are tried in falling order (those at or below the source of the move that reached it).  The
    points the mover may land on and the opponent's blots (masks of the mover's points) depend only on the
    opponent's checkers, which only a hit changes."""

    __slots__ = ("m", "g", "tables", "boards", "occupancy", "traps", "may_end")

    def __init__(self, m: r.Movement, tables: RuleTables, g: Geometry, me: int, them: int, numbers: int) -> None:
        self.m, self.g, self.tables = m, g, tables
        self.boards = {them: self.board(them)}  # them -> (open points, blots); hit() adds the others
        if m.block_after:  # only the six-block ban reads these
            self.occupancy: dict[int, int] = {}  # them -> its occupancy mask
            self.traps: dict[tuple[int, int], bool] = {}  # (mine, them) -> six_block_trap
        self.may_end = r.game_can_end(me, numbers, m)  # else no node needs asking game_ends

    def board(self, them: int) -> tuple[int, int]:
        """The points the mover may land on and the opponent's blots, as masks of the mover's points."""
        counts = them.to_bytes(26, "big")  # highest slot first: read as binary digits, a mask
        closed, blots = int(counts.translate(self.tables.closed), 2), int(counts.translate(self.tables.blots), 2)
        return EVERY_POINT & ~closed, EVERY_POINT & blots

    def theirs(self, them: int) -> int:
        found = self.occupancy.get(them)
        if found is None:
            found = self.occupancy[them] = occupied(them)
        return found

    def hit(self, them: int, target: int) -> int:
        """The opponent after its blot on `target` is hit, its board updated from the point that changed."""
        after = them - SLOT[target] + SLOT[BAR]
        if after not in self.boards:
            landable, blots = self.boards[them]  # known: the move that hits was found on it
            bit, empty = 1 << target, 0  # the target now holds no opposing checker
            self.boards[after] = (
                landable & ~bit | bit * (self.tables.closed[empty] == ord("0")),
                blots & ~bit | bit * (self.tables.blots[empty] == ord("1")),
            )
        return after

    def trapped(self, mine: int, them: int) -> bool:
        """six_block_trap, asked once per occupancy (a step and the end it reaches ask the same)."""
        found = self.traps.get((mine, them))
        if found is None:
            found = self.traps[mine, them] = r.six_block_trap(mine, self.theirs(them), self.g)
        return found

    def step(
        self, frontier: list[Move], die: int, ordered: bool, ends: dict[Position, None] | None = None
    ) -> list[Move]:
        """Every move of `die` from every node of `frontier` (with `ordered`, only from the points its `below` holds),
        as the nodes they reach; given `ends` (at the last number of a play), the positions reached go into it
        instead and no nodes are returned."""
        t, g, m, boards, over = self.tables, self.g, self.m, self.boards, self.may_end and r.game_ends
        targets, steps, frozen, bear_offs = t.by_number[die]
        heads, outside, bar_first, bar_target = t.heads, t.outside, t.bar_first, targets[BAR]
        positions_only = ends is not None and not m.block_within  # the ban reads the mover's occupancy after each move
        found: list = []
        append = found.append
        for me, mine, them, head_left, below in frontier:
            landable, blots = boards[them]
            if over and over(me, mine, them, g, m):
                continue
            if mine >= FROM_BAR and bar_first[me >> BAR_SHIFT]:  # only a checker on the bar asks
                if not landable >> bar_target & 1:
                    continue
                sources: tuple[int, ...] = (BAR,)
            else:
                free = mine & (below if ordered else EVERY_POINT)
                home = 0 if mine & outside else 1  # all_home (an int: it indexes `frozen`)
                points = free & landable << die & ~frozen[home]  # the moves that land on a point
                if home:  # and the ones that bear off, where the rule allows it
                    points |= bear_offs[mine & HOME_OR_OFF] & free
                if not head_left:
                    points &= ~heads
                if points < 512:  # all within points 1-8 (as when bearing off)
                    if not points:
                        continue
                    sources = FALLING_LOW[points]
                else:
                    sources = FALLING_HIGH[points >> 18] + FALLING_MID[points >> 9 & 511] + FALLING_LOW[points & 511]
            if positions_only:
                for source in sources:
                    target = targets[source]
                    ends[me + steps[source], self.hit(them, target) if blots >> target & 1 else them] = None  # type: ignore[index]
                continue
            for source in sources:
                target = targets[source]
                new_them = self.hit(them, target) if blots >> target & 1 else them
                new_mine = (mine if me >> 8 * source & 255 > 1 else mine ^ 1 << source) | 1 << target
                append((me + steps[source], new_mine, new_them, head_left - (heads >> source & 1), AT_OR_BELOW[source]))
        if m.block_within:
            found = [move for move in found if not self.trapped(move[1], move[2])]
            if ends is not None:
                ends.update(dict.fromkeys([(move[0], move[2]) for move in found]))
                return []
        return found


def legal_positions(
    me: int, them: int, numbers: tuple[int, ...], head_start: int, rules: Rules, g: Geometry
) -> tuple[list[Position], tuple[int, ...]]:
    """The distinct end positions of all legal plays of `numbers` in the mover's packed view, and the numbers they use.

    Breadth-first, a number at a time, for each order of the numbers; every node is a candidate end of the play."""
    m, tables = movement(rules)
    numbers, orders = plan(numbers)
    moves = SingleMoves(m, tables, g, me, them, len(numbers))
    # Moves of one number commute: with equal numbers it is enough to try sources in falling
    # order (each position is then reached once), unless the six-block ban watches every step, or
    # exact-only bear-off with a free home lets home checkers move only before the last outside
    # checker arrives (then a lower move must come first).
    ordered = len(orders) == 1 and not m.block_within and not (m.exact_only and not m.home_frozen)
    root = (me, occupied(me), them, head_start if head_start > 0 else 0, EVERY_POINT)
    partial: list[tuple[tuple[int, ...], list[Move]]] = []  # per order and number but the last: numbers left, nodes
    full: dict[Position, None] = {}  # the ends of the plays that use every number, in the order found
    for order, lefts in orders:
        frontier = [root]
        for k, left in enumerate(lefts):
            frontier = moves.step(frontier, order[k], ordered)
            # One number from one position reaches each node once, and so do falling sources; otherwise two
            # orders of the moves can meet (the same position with the same head moves left): keep one.
            if k and not ordered:
                frontier = list({move[:4]: move for move in frontier}.values())
            partial.append((left, frontier))
        moves.step(frontier, order[-1], ordered, full)
    if full and not m.block_after:
        return list(full), numbers  # a play that uses every number is never bettered (keep_maximal)
    used = candidates((me, them), numbers, partial)
    used.update(dict.fromkeys(full, ((),)))
    return kept(used, numbers, m, moves) or ([(me, them)], ())


def candidates(
    root: Position, numbers: tuple[int, ...], partial: list[tuple[tuple[int, ...], list[Move]]]
) -> dict[Position, tuple[tuple[int, ...], ...]]:
    """The candidate ends of the plays that stop early, as keep_maximal takes them: each position reached, with
    the numbers left by the sequences reaching it that use the most numbers."""
    used: dict[Position, tuple[tuple[int, ...], ...]] = {root: (numbers,)}
    for left, nodes in partial:
        n_left = len(left)
        for move in nodes:
            position = move[0], move[2]
            lefts = used.get(position)
            if lefts is None or n_left < len(lefts[0]):  # new, or reached by a play that uses more numbers
                used[position] = (left,)
            elif n_left == len(lefts[0]) and left not in lefts:
                used[position] = (*lefts, left)
    return used


@cache
def plan(numbers: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[Order, ...]]:
    """The numbers sorted, and each distinct order in which they can be played with the numbers left after each
    of its numbers but the last (no orders when there are no numbers: the position stays)."""
    numbers = tuple(sorted(numbers))
    if len(set(numbers)) <= 1:
        orders: tuple[tuple[int, ...], ...] = (numbers,) if numbers else ()
    else:
        orders = tuple(dict.fromkeys(permutations(numbers)))
    return numbers, tuple(
        (order, tuple(tuple(sorted(order[k + 1 :])) for k in range(len(order) - 1))) for order in orders
    )


def kept(
    used: dict[Position, tuple[tuple[int, ...], ...]], numbers: tuple[int, ...], m: r.Movement, moves: SingleMoves
) -> tuple[list[Position], tuple[int, ...]] | None:
    """keep_maximal over the candidate ends that leave no banned six-block (None when there are none).

    The ban is checked on the ends keep_maximal would keep, the banned ones dropped and the rest asked again
    until none is banned: the same answer as dropping every banned end first, for far fewer checks."""
    while used:
        positions, played = r.keep_maximal(used, numbers)
        if not m.block_after:
            return positions, played
        banned = [pos for pos in positions if moves.trapped(occupied(pos[0]), pos[1])]
        if not banned:
            return positions, played
        for pos in banned:
            del used[pos]
    return None


def segment_numbers(state: State, rules: Rules) -> tuple[int, ...]:
    """The numbers to play now: the state's segment, or the roll (a double four times)."""
    return state.segment.numbers if state.segment else r.numbers_to_play(state.dice)


def play_view(state: State, me: int, them: int, rules: Rules, g: Geometry) -> tuple[list[Position], tuple[int, ...]]:
    """search in the mover's packed view: `me`, `them` stand for the state's layout (which is not read)."""
    passed = state.segment is not None and state.segment.passed
    head_start = r.head_allowance(state.dice, state.context, rules, passed) - state.context.head_moves
    return legal_positions(me, them, segment_numbers(state, rules), head_start, rules, g)


@dataclass(frozen=True)
class Layouts(Sequence[Layout]):
    """Packed positions in `side`'s view read as layouts, each built when it is read."""

    g: Geometry
    side: Side
    positions: list[Position]

    def __len__(self) -> int:
        return len(self.positions)

    def __getitem__(self, i):  # type: ignore[override]  # an index, never a slice
        return self.g.to_layouts(self.side, [self.positions[i]])[0]

    def __iter__(self) -> Iterator[Layout]:
        yield from self.g.to_layouts(self.side, self.positions[:1])  # alone: all() and any() often stop at it
        yield from self.g.to_layouts(self.side, self.positions[1:])


def legal_plays(layout: Layout, side: Side, dice: tuple[int, ...], context: TurnContext, rules: Rules) -> list[Layout]:
    """Every distinct layout a legal play of a fresh roll can leave; the unchanged layout when nothing can move."""
    return search(State(layout, side, dice, context), rules).results


class SegmentPlays:
    """One search of a segment: its legal results, the numbers they use, and what follows it (`next`, read
    from the results when first asked: a legal-plays query alone never needs it)."""

    __slots__ = ("state", "rules", "results", "used", "_next")

    def __init__(self, state: State, rules: Rules, results: list[Layout], used: tuple[int, ...]) -> None:
        self.state, self.rules, self.results, self.used = state, rules, results, used

    @property
    def next(self) -> Segment | None:
        try:
            return self._next
        except AttributeError:
            self._next: Segment | None = next_segment(self.state, self.rules, self.results, self.used)
            return self._next


def search(state: State, rules: Rules) -> SegmentPlays:
    """The legal plays of the current segment and what follows them, from one move search."""
    g = geometry(state.game)
    positions, used = play_view(state, *g.to_view(state.layout, state.turn), rules, g)
    results = g.to_layouts(state.turn, positions)  # all of them are read: built at once
    return SegmentPlays(state, rules, results, used)


def search_view(
    state: State, me: int, them: int, rules: Rules, g: Geometry
) -> tuple[Layouts, tuple[int, ...], Segment | None]:
    """search in the mover's packed view (play_view): the results as `Layouts` (their packed positions in
    `.positions`), the numbers they use and what follows them."""
    positions, used = play_view(state, me, them, rules, g)
    results = Layouts(g, state.turn, positions)
    return results, used, next_segment(state, rules, results, used)


def next_segment(state: State, rules: Rules, results: Sequence[Layout], used: tuple[int, ...]) -> Segment | None:
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
