"""Seeded random states of every game: valid by the state model and reachable as far as it can tell.

The property tests (tests/test_*_independent.py, tests/crosscheck_gnubg.py) and `gammonspec fuzz` draw
their positions here.  Two families of layouts:

* with hitting (switch hitting=blots): the backgammon placements, built in the mover's numbering
  (contact, the mover on the bar against a closing board, bear-off against contact or a race, the last
  few checkers still outside);
* without hitting: one *style* per side (many on the head, mid-game, stragglers, a frozen home, all
  home, a nearly built six-block, a wide board, a few stacks, a walled-in home board for near-draws).

A fuzz *kind* (`KINDS`) turns a layout into a whole state (the side on roll, the roll, the turn
context, a segment) and says which rules it is for, by their switch values.  Every state a kind makes
is checked by `problem` before it is used: the state model's validation, the six-block a ban makes
impossible, and what reachability needs of the turn context (a first turn only from the start, enough
rolls for the pips moved, head moves within the allowance).
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from math import ceil

from gammonspec.model.rulesets import Rules
from gammonspec.model.state import (
    CHECKERS,
    HEAD,
    SIDES,
    Layout,
    Segment,
    Side,
    State,
    StateError,
    TurnContext,
    mirror,
    other,
    standing_six_block,
    start_layout,
)

Dice = tuple[int, int]
Counts = dict[int, int]  # own point -> checkers

# ---- placing checkers ---------------------------------------------------------------------------


def spread(rng: random.Random, n: int, points: list[int], most: int) -> Counts:
    """n checkers on between 1 and `most` of the given points, at least one on each chosen point."""
    if n == 0 or not points:
        return {}  # nothing placed: the caller sees the count is short and draws again
    chosen = rng.sample(points, min(len(points), n, rng.randint(1, most)))
    counts = dict.fromkeys(chosen, 1)
    for _ in range(n - len(chosen)):
        counts[rng.choice(chosen)] += 1
    return counts


def add(counts: Counts, more: Counts) -> Counts:
    for p, n in more.items():
        counts[p] = counts.get(p, 0) + n
    return counts


def random_dice(rng: random.Random, doubles: float = 0.25) -> Dice:
    """A roll, doubles more often than 1 in 6 (`doubles`): they are where four-step plays live."""
    if rng.random() < doubles:
        d = rng.randint(1, 6)
        return d, d
    return rng.randint(1, 6), rng.randint(1, 6)


# ---- layouts with hitting (in the mover's numbering; the opponent's point 25 - q) ---------------

BG = "backgammon"  # the placements below are drawn for its geometry, and work in any (a profile may turn hitting on)


def _spread_each(rng: random.Random, n: int, points: list[int], counts: list[int]) -> None:
    """Drop n checkers on the given points (indices into counts), each checker on a random one."""
    for _ in range(n):
        counts[rng.choice(points)] += 1


def _blots(rng: random.Random, counts: list[int], free: list[int]) -> None:
    """Peel single checkers off stacks onto free points, to make blots that can be hit."""
    for _ in range(rng.randint(0, 3)):
        stacks = [p for p in range(1, 25) if counts[p] >= 2]
        if not stacks or not free:
            return
        src = rng.choice(stacks)
        dst = free.pop(rng.randrange(len(free)))
        counts[src] -= 1
        counts[dst] += 1


def view_layout(side: Side, me: list[int], them: list[int], my_bar: int, their_bar: int, game: str = BG) -> Layout:
    """A layout with hitting from counts in the MOVER's numbering for both sides (index 1..24; 0 unused);
    borne-off checkers are what is left of fifteen."""
    mine = tuple(me[1:25])
    theirs = tuple(them[mirror(game, q)] for q in range(1, 25))
    offs = (CHECKERS - sum(mine) - my_bar, CHECKERS - sum(theirs) - their_bar)
    white, black = (mine, theirs) if side == "white" else (theirs, mine)
    bar = (my_bar, their_bar) if side == "white" else (their_bar, my_bar)
    layout = Layout(game, white, black, bar, offs if side == "white" else offs[::-1])
    layout.validate(hitting=True)
    return layout


def _placement(
    rng: random.Random, n: int, allowed: list[int], taken: set[int], spots: tuple[int, int] = (2, 9)
) -> list[int]:
    """n checkers on a few random points among `allowed` not in `taken`; counts indexed 0..25."""
    counts = [0] * 26
    pool = [p for p in allowed if p not in taken]
    if n == 0:
        return counts
    chosen = rng.sample(pool, min(len(pool), rng.randint(*spots)))
    _spread_each(rng, n, chosen, counts)
    return counts


def position_contact(rng: random.Random, side: Side, game: str = BG) -> Layout:
    """Both sides anywhere: blots, points, a few checkers on the bar or off."""
    my_bar = rng.choice((0, 0, 0, 0, 1, 1, 2, 3))
    their_bar = rng.choice((0, 0, 0, 0, 1, 2))
    my_off = rng.choice((0, 0, 0, 0, 0, 1, 3))
    their_off = rng.choice((0, 0, 0, 0, 0, 2, 5))
    me = _placement(rng, CHECKERS - my_bar - my_off, list(range(1, 25)), set(), (2, 10))
    mine = {p for p in range(1, 25) if me[p]}
    them = _placement(rng, CHECKERS - their_bar - their_off, list(range(1, 25)), mine, (2, 10))
    held = mine | {p for p in range(1, 25) if them[p]}
    free = [p for p in range(1, 25) if p not in held]
    _blots(rng, them, free)
    _blots(rng, me, free)
    return view_layout(side, me, them, my_bar, their_bar, game)


def position_bar(rng: random.Random, side: Side, game: str = BG) -> Layout:
    """The mover on the bar, its entry points (its 19-24, the opponent's home board in backgammon) partly closed,
    blots to hit."""
    my_bar = rng.randint(1, 4)
    their_bar = rng.choice((0, 0, 0, 1))
    me = _placement(rng, CHECKERS - my_bar, list(range(1, 25)), set(), (2, 8))
    mine = {p for p in range(1, 25) if me[p]}
    them = [0] * 26
    home = [p for p in range(19, 25) if p not in mine]
    closed = rng.sample(home, rng.randint(0, len(home)))
    for p in closed:
        them[p] = rng.choice((1, 2, 2, 3))  # 1 = a blot on an entry point
    while sum(them) > CHECKERS - their_bar:
        them[rng.choice([p for p in closed if them[p] > 1])] -= 1
    left = CHECKERS - their_bar - sum(them)
    rest = [p for p in range(1, 25) if p not in mine and p not in closed]
    _spread_each(rng, left, rng.sample(rest, min(len(rest), rng.randint(1, 6))), them)
    return view_layout(side, me, them, my_bar, their_bar, game)


def position_bearoff(rng: random.Random, side: Side, game: str = BG) -> Layout:
    """All the mover's checkers home, some off; the opponent racing home or still in contact."""
    my_off = rng.randint(0, 14)
    me = _placement(rng, CHECKERS - my_off, list(range(1, 7)), set(), (1, 6))
    mine = {p for p in range(1, 25) if me[p]}
    if rng.random() < 0.5:  # contact: opponent checkers (blots too) in the mover's home, maybe on the bar
        their_bar = rng.choice((0, 0, 1, 2))
        their_off = rng.choice((0, 0, 3))
        allowed = list(range(1, 25))
    else:  # race: the opponent in its own home board (the mover's 19-24) with some off
        their_bar = 0
        their_off = rng.randint(0, 14)
        allowed = list(range(19, 25))
    them = _placement(rng, CHECKERS - their_bar - their_off, allowed, mine, (1, 7))
    free = [p for p in range(1, 7) if not me[p] and not them[p]]
    if allowed[0] == 1:
        _blots(rng, them, free)
    return view_layout(side, me, them, 0, their_bar, game)


def position_almost_home(rng: random.Random, side: Side, game: str = BG) -> Layout:
    """One to three checkers still outside the home board (or on the bar): bear-off can start mid-turn."""
    my_off = rng.choice((0, 0, 0, 2, 5, 9))
    outside = rng.randint(1, 3)
    my_bar = 1 if rng.random() < 0.15 else 0
    out = max(outside - my_bar, 0)
    me = _placement(rng, CHECKERS - my_off - outside, list(range(1, 7)), set(), (1, 6))
    _spread_each(rng, out, rng.sample(range(7, 19), rng.randint(1, 3)), me)
    mine = {p for p in range(1, 25) if me[p]}
    their_bar = rng.choice((0, 0, 0, 1))
    their_off = rng.choice((0, 0, 2))
    them = _placement(rng, CHECKERS - their_bar - their_off, list(range(1, 25)), mine, (2, 8))
    held = mine | {p for p in range(1, 25) if them[p]}
    _blots(rng, them, [p for p in range(1, 25) if p not in held])
    return view_layout(side, me, them, my_bar, their_bar, game)


def position_one_out(rng: random.Random, side: Side, game: str = BG) -> Layout:
    """All the mover's checkers home but one, most often on its 7-point: the edge of bearing off."""
    me = _placement(rng, CHECKERS - 1, list(range(1, 7)), set(), (1, 6))
    me[rng.choice((7, 7, 7, 8, 9, 12))] += 1
    mine = {p for p in range(1, 25) if me[p]}
    them = _placement(rng, CHECKERS - rng.choice((0, 0, 3)), list(range(1, 25)), mine, (2, 8))
    return view_layout(side, me, them, 0, 0, game)


def block_edge_layout(rng: random.Random, game: str, side: Side) -> Layout | None:
    """`side` holds five of six points in a row (read along the opponent's path, its q0..q0+5) with a spare
    behind the gap, and the opponent has one checker just ahead of the row (q0-1: building the sixth is legal)
    or just behind it (q0+6: building it is banned), the rest further behind: the six-block ban's edge."""
    q0 = rng.randint(2, 17)
    theirs: Counts = {q0 - 1 if rng.random() < 0.4 else q0 + 6: 1}
    add(theirs, spread(rng, CHECKERS - 1, list(range(q0 + 7, 25)), 3))
    taken = {mirror(game, q) for q in theirs}  # the opponent's points in the mover's numbering
    row = [mirror(game, q) for q in range(q0, q0 + 6)]
    gap = rng.choice(row)
    mine: Counts = {p: 1 for p in row if p != gap}
    behind = [p for p in range(gap + 1, min(gap + 7, 25)) if p not in taken and p not in row]
    if not behind:
        return None
    add(mine, spread(rng, rng.randint(1, 3), behind, 2))
    free = [p for p in range(1, 25) if p not in taken and p not in row]
    add(mine, spread(rng, CHECKERS - sum(mine.values()), free, rng.randint(1, 4)))
    if sum(mine.values()) != CHECKERS or sum(theirs.values()) != CHECKERS:
        return None
    points = {
        side: tuple(mine.get(p, 0) for p in range(1, 25)),
        other(side): tuple(theirs.get(q, 0) for q in range(1, 25)),
    }
    layout = Layout(game, points["white"], points["black"], (0, 0), (0, 0))
    try:
        layout.validate(hitting=False)
    except StateError:
        return None
    return layout


def _block_edge(rng: random.Random, rules: Rules) -> State | None:
    side = rng.choice(SIDES)
    layout = next((lay for _ in range(10) if (lay := block_edge_layout(rng, rules.game, side))), None)
    return _mid_game(rng, layout, rules, side)


def position_prime(rng: random.Random, side: Side, game: str = BG) -> Layout:
    """The mover's back checkers behind a prime of four to six points: often only one number, or none, plays."""
    length = rng.randint(4, 6)
    top = rng.randint(length + 6, 23)  # the prime holds the mover's top-length+1 .. top
    prime = list(range(top - length + 1, top + 1))
    them = [0] * 26
    for q in prime:
        them[q] = 2
    them_left = CHECKERS - 2 * length
    rest = [q for q in range(1, 25) if q < prime[0] - 6 or q > top + 1]
    _spread_each(rng, them_left, rng.sample(rest, min(len(rest), rng.randint(1, 4))), them)
    back = rng.randint(1, 3)
    me = [0] * 26
    behind = [q for q in range(top + 1, 25) if not them[q]]
    _spread_each(rng, back, behind or [24], me)
    home = [q for q in range(1, rng.choice((3, 4, prime[0]))) if not them[q]]  # deep, often with little to play
    _spread_each(rng, CHECKERS - back, rng.sample(home, min(len(home), rng.randint(1, 3))) or behind, me)
    return view_layout(side, me, them, 0, 0, game)


def position_race(rng: random.Random, side: Side, game: str = BG) -> Layout:
    """No contact left: every checker of the mover below every checker of the opponent (in its numbering)."""
    split = rng.randint(6, 18)
    me = _placement(rng, CHECKERS - rng.choice((0, 0, 3, 8)), list(range(1, split + 1)), set(), (1, 6))
    them = _placement(rng, CHECKERS - rng.choice((0, 0, 3, 8)), list(range(split + 1, 25)), set(), (1, 6))
    return view_layout(side, me, them, 0, 0, game)


# ---- layouts without hitting: one style per side ------------------------------------------------

STYLES = ("head", "mid", "late", "frozen", "home", "block", "wide", "few", "walled")


def side_checkers(rng: random.Random, game: str, style: str, free: list[int]) -> tuple[Counts, int]:
    """({own point: count}, borne off) for one side in the given style, only on `free` own points."""

    def only(points: range | list[int]) -> list[int]:
        return [p for p in points if p in free]

    if style == "head" and HEAD in free:  # many on the head: the head rule bites
        head = rng.choice([CHECKERS, CHECKERS - 1, rng.randint(5, CHECKERS)])
        counts = spread(rng, CHECKERS - head, only(range(13, 24)) or only(range(1, 24)), 6)
        counts[HEAD] = head
        return counts, 0
    if style == "head-last" and HEAD in free:  # one or two left on the head: the head rule's last checkers
        head = rng.choice((1, 1, 2))
        counts = spread(rng, CHECKERS - head, only(range(1, 24)), rng.randint(3, 8))
        counts[HEAD] = head
        return counts, 0
    if style == "one-out":  # all home but one, most often on the point just outside: bear-off's edge
        counts = spread(rng, CHECKERS - 1, only(range(1, 7)), rng.randint(1, 6))
        return add(counts, spread(rng, 1, only([7, 7, 7, *range(8, 13)]), 1)), 0
    if style == "home":  # all home: bearing off
        off = rng.choice([0, 0, rng.randint(1, 14), rng.randint(10, 14)])
        return spread(rng, CHECKERS - off, only(range(1, 7)), rng.randint(1, 6)), off
    if style == "late":  # all but one to three home: the last ones come in, then bear off or not
        out = rng.randint(1, 3)
        counts = spread(rng, CHECKERS - out, only(range(1, 7)), 6)
        return add(counts, spread(rng, out, only(range(7, 14)), 3)), 0  # none off while some are outside
    if style == "frozen":  # many home, the rest just outside: frozen home checkers, entering ones stop
        inside = rng.randint(4, 12)
        counts = spread(rng, inside, only(range(1, 7)), 6)
        return add(counts, spread(rng, CHECKERS - inside, only(range(7, 19)), 5)), 0
    if style == "walled":  # home board full or one point short, checkers still in the first quarter
        counts = {p: 1 for p in only(range(1, 7))}
        if counts and rng.random() < 0.6:  # one home point empty, a checker one to six points behind it
            gap = rng.choice(sorted(counts))
            del counts[gap]
            add(counts, spread(rng, 1, only(range(max(gap + 1, 7), gap + 7)), 1))
        add(counts, spread(rng, rng.randint(1, 3), only(range(19, 25)), 2))
        rest = CHECKERS - sum(counts.values())
        return add(counts, spread(rng, rest, only([*range(1, 13), *range(19, 25)]), 6)), 0
    if style == "block":  # five of six points in a row (for the opponent) held, spares just behind the gap
        start = rng.randint(1, 19)
        row = [mirror(game, q) for q in range(start, start + 6)]
        gap = rng.choice(row)
        counts = {p: 1 for p in only(row) if p != gap}
        spare = rng.randint(2, 5)
        add(counts, spread(rng, spare, only(range(gap + 1, min(gap + 7, 25))) or only(range(1, 25)), 3))
        rest = CHECKERS - sum(counts.values())
        return add(counts, spread(rng, rest, only(range(1, 25)), 8)), 0
    if style == "wide":  # one or two checkers on each of many points: closes much of the board
        return spread(rng, CHECKERS, only(range(1, 25)), rng.randint(10, 15)), 0
    if style == "few":  # stacks on one to three points: against a wide opponent, often little plays
        return spread(rng, CHECKERS, only(range(1, 25)), 3), 0
    return spread(rng, CHECKERS, only(range(1, 25)), rng.randint(3, 12)), 0  # mid-game


def styled_layout(rng: random.Random, game: str, style_w: str, style_b: str) -> Layout | None:
    """A layout without hitting, each side in its style; None when a style could not place every checker."""
    white, off_w = side_checkers(rng, game, style_w, list(range(1, 25)))
    black_free = [p for p in range(1, 25) if not white.get(mirror(game, p))]
    black, off_b = side_checkers(rng, game, style_b, black_free)
    if sum(white.values()) + off_w != CHECKERS or sum(black.values()) + off_b != CHECKERS:
        return None
    layout = Layout(
        game,
        tuple(white.get(p, 0) for p in range(1, 25)),
        tuple(black.get(p, 0) for p in range(1, 25)),
        (0, 0),
        (off_w, off_b),
    )
    layout.validate(hitting=False)
    return layout


# ---- reachability --------------------------------------------------------------------------------


def pips(layout: Layout, side: Side) -> int:
    return sum(p * n for p, n in enumerate(layout.points(side), 1)) + 25 * layout.on_bar(side)


def most_pips_per_roll(rules: Rules) -> int:
    """The most pips one roll can move: 6-6 four times, or a chain of doubles from 1-1 to 6-6."""
    return 24 if rules.switch.doubles == "four-moves" else 4 * sum(range(1, 7))


def most_head_moves(dice: tuple[int, ...], context: TurnContext, rules: Rules) -> int:
    """The most checkers a turn may take off the head (nd.head.one-per-turn, nd.head.first-turn): two at most."""
    if not rules.switch.head_rule:
        return CHECKERS
    return 2 if dice[:1] * 2 == dice or context.rolls_in_game == 0 else 1


def problem(state: State, rules: Rules) -> str:
    """Why `state` cannot be asked under `rules` ('' when it can): impossible, or not reachable as far as the
    position shows."""
    layout = state.layout
    try:
        layout.validate(hitting=rules.switch.hitting)
    except StateError as exc:
        return str(exc)
    if rules.switch.six_block != "allowed" and standing_six_block(layout):
        return standing_six_block(layout)
    ctx = state.context
    if ctx.first_turn and ctx.rolls_in_game > 1:
        return "a side's first turn comes on the game's first or second roll"
    if ctx.rolls_in_game == 0 and not ctx.first_turn:
        return "the game's first roll is its roller's first turn"
    start = start_layout(layout.game)
    if (
        ctx.first_turn
        and rules.switch.unplayable != "opponent-plays"
        and pips(layout, state.turn) < pips(start, state.turn)
    ):
        return "on its first turn a side has not moved yet (and nobody else moves its checkers forward)"
    if ctx.rolls_in_game < least_rolls(layout, rules):
        return f"{ctx.rolls_in_game} rolls cannot have moved the checkers this far"
    if ctx.head_moves and ctx.head_moves > min(
        most_head_moves(state.dice, ctx, rules),
        CHECKERS - layout.points(state.turn)[HEAD - 1],
    ):
        return f"{ctx.head_moves} checkers cannot have left the head earlier in this turn"
    if state.dice and len(state.dice) != 2:
        return "a roll is two dice"
    return ""


def least_rolls(layout: Layout, rules: Rules) -> int:
    """The fewest rolls that can have moved the pips the layout shows moved since the start."""
    start = start_layout(layout.game)
    moved = sum(pips(start, s) - pips(layout, s) for s in SIDES)
    return ceil(max(moved, 0) / most_pips_per_roll(rules))


def rolls_for(rng: random.Random, layout: Layout, rules: Rules) -> int:
    """Rolls already played in the game: at random, but at least two and enough for the pips moved."""
    return max(2, least_rolls(layout, rules)) + rng.choice((0, 0, 1, 2, 5, 20))


# ---- kinds of states ----------------------------------------------------------------------------

Maker = Callable[[random.Random, Rules], State | None]


@dataclass(frozen=True)
class Kind:
    """A kind of state: how to make one, for which rules (switch -> the values it needs) and what it is."""

    name: str
    make: Maker
    needs: dict[str, tuple[str, ...]]
    summary: str

    def applies(self, rules: Rules) -> bool:
        return all(rules[switch] in values for switch, values in self.needs.items())


HITTING = {"hitting": ("blots",)}
NO_HITTING = {"hitting": ("none",)}


def _mid_game(rng: random.Random, layout: Layout | None, rules: Rules, side: Side) -> State | None:
    if layout is None:
        return None
    return State(layout, side, random_dice(rng), TurnContext(False, rolls_for(rng, layout, rules), 0))


def _placed(maker: Callable[[random.Random, Side, str], Layout]) -> Maker:
    def make(rng: random.Random, rules: Rules) -> State | None:
        side = rng.choice(SIDES)
        try:
            return _mid_game(rng, maker(rng, side, rules.game), rules, side)
        except StateError:  # checkers of both sides placed on one point: draw again
            return None

    return make


def _styled(style: str) -> Maker:
    """A layout without hitting with one side (at random) in `style`, the other in any style."""

    def make(rng: random.Random, rules: Rules) -> State | None:
        pair = [style, rng.choice(STYLES)]
        rng.shuffle(pair)
        side = rng.choice(SIDES)
        return _mid_game(rng, styled_layout(rng, rules.game, *pair), rules, side)

    return make


def _opening_dice(rng: random.Random, rules: Rules, rolls: int) -> Dice:
    """The first roll of a game: two different numbers when the winner plays the lead dice."""
    if rolls == 0 and rules.switch.opening == "play-lead-dice":
        a, b = rng.sample(range(1, 7), 2)
        return a, b
    return random_dice(rng, 0.4)


def _turn(
    engine_plays: Callable[[State], tuple[list[Layout], Segment | None]], rng: random.Random, state: State
) -> Layout:
    """Play one whole turn from `state` by random legal plays, segment after segment."""
    while True:
        plays, following = engine_plays(state)
        layout = rng.choice(plays)
        if following is None:
            return layout
        turn = following.player
        ctx = state.context
        if following.passed:
            ctx = TurnContext(False, ctx.rolls_in_game, 0)
        state = State(layout, turn, state.dice, ctx, segment=following)


def reference_turns(rules: Rules) -> Callable[[State], tuple[list[Layout], Segment | None]]:
    """The reference engine's plays and next segment, for positions made by playing (not for expectations)."""
    from gammonspec.reference import ReferenceEngine  # the generators need the rules only for playouts

    engine = ReferenceEngine()
    return lambda state: (engine.legal_plays(state, rules), engine.next_segment(state, rules))


def first_turn(rng: random.Random, rules: Rules) -> State | None:
    """The start of a game: the side on roll's first turn, the opponent at the start or after its first roll."""
    layout, side, rolls = start_layout(rules.game), rng.choice(SIDES), 0
    if rng.random() < 0.5:  # the opponent started: it played its first roll
        opener = State(layout, other(side), _opening_dice(rng, rules, 0), TurnContext(True, 0, 0))
        layout, rolls = _turn(reference_turns(rules), rng, opener), 1
    return State(layout, side, _opening_dice(rng, rules, rolls), TurnContext(True, rolls, 0))


def playout(rng: random.Random, rules: Rules) -> Iterator[State]:
    """States of one game of random plays from the start (the plays chosen among the reference engine's)."""
    from gammonspec.reference.scoring import game_over

    turns = reference_turns(rules)
    layout, side = start_layout(rules.game), rng.choice(SIDES)
    fresh = set(SIDES)
    for rolls in range(400):
        if game_over(layout, rules):
            return
        state = State(layout, side, _opening_dice(rng, rules, rolls), TurnContext(side in fresh, rolls, 0))
        yield state
        fresh.discard(side)
        layout, side = _turn(turns, rng, state), other(side)


_GAMES: weakref.WeakKeyDictionary[random.Random, tuple[Rules, Iterator[State]]] = weakref.WeakKeyDictionary()


def _playout_state(rng: random.Random, rules: Rules) -> State | None:
    """The next state of the game being played out with this generator (a new game when it ends)."""
    game = _GAMES.get(rng)
    if game is None or game[0] is not rules:
        _GAMES[rng] = game = (rules, playout(rng, rules))
    state = next(game[1], None)
    if state is None:
        del _GAMES[rng]
    return state


def _chain(rng: random.Random, rules: Rules) -> State | None:
    """A later double of a chain: the roll d-d, the segment e-e-e-e above it, head moves already used."""
    state = _styled(rng.choice(("head", "mid", "wide", "frozen", "home")))(rng, rules)
    if state is None:
        return None
    d = rng.randint(1, 5)
    e = rng.randint(d + 1, 6)
    rolls = state.context.rolls_in_game
    if rules.switch.doubles == "chain-after-three-rolls":
        rolls = max(rolls, 3)
    context = TurnContext(False, rolls, rng.randint(0, 1))
    return State(state.layout, state.turn, (d, d), context, segment=Segment(state.turn, (e,) * 4))


def passed_numbers(rng: random.Random) -> tuple[Dice, tuple[int, ...]]:
    """The owner's roll and the numbers of it passed on: one to four of a double's number (or of a later double of
    its chain), one number of two different ones, or both."""
    shape = rng.choice(["double", "double", "single", "both"])
    if shape == "double":
        d = rng.randint(1, 6)
        e = rng.randint(d, 6)  # from the roll d-d itself or from a later double of its chain
        return (d, d), (e,) * rng.randint(1, 4)
    a, b = rng.sample(range(1, 7), 2)
    return (a, b), ((a,) if shape == "single" else (a, b))


def _passed(rng: random.Random, rules: Rules) -> State | None:
    """Numbers the owner could not play, passed to the other side (asked with no head moves charged)."""
    state = _styled(rng.choice(STYLES))(rng, rules)
    if state is None:
        return None
    owner = other(state.turn)
    dice, numbers = passed_numbers(rng)
    ctx = TurnContext(False, state.context.rolls_in_game, 0)
    return State(state.layout, state.turn, dice, ctx, segment=Segment(owner, numbers, passed=True))


def _passed_at_start(rng: random.Random, rules: Rules) -> State | None:
    """Numbers of a 3-3, 4-4 or 6-6 passed on a first turn, the receiver still at the start: where the owner's
    first-turn head exception must not go with them (cn.unplayable.head-rule)."""
    turn = rng.choice(SIDES)
    owner, d = other(turn), rng.choice((3, 4, 6))
    start = start_layout(rules.game)
    mine = list(start.points(owner))
    for _ in range(rng.randint(1, 2)):  # what the owner played of its double: checkers off its head
        mine[HEAD - 1] -= 1
        mine[HEAD - 1 - d * rng.randint(1, 2)] += 1
    points = {owner: tuple(mine), turn: start.points(turn)}
    layout = Layout(rules.game, points["white"], points["black"], (0, 0), (0, 0))
    segment = Segment(owner, (d,) * rng.randint(2, 3), passed=True)
    return State(layout, turn, (d, d), TurnContext(True, 1, 0), segment=segment)


def _ended(rng: random.Random, rules: Rules) -> State | None:
    """A finished game: the winner has borne off all fifteen, the loser anywhere (for the game's result)."""
    state = (_placed(position_contact) if rules.switch.hitting else _styled(rng.choice(STYLES)))(rng, rules)
    if state is None:
        return None
    lay, winner = state.layout, rng.choice(SIDES)
    empty = (0,) * 24
    white, black = (empty, lay.black) if winner == "white" else (lay.white, empty)
    bar = (0, lay.bar[1]) if winner == "white" else (lay.bar[0], 0)
    off = (CHECKERS, lay.off[1]) if winner == "white" else (lay.off[0], CHECKERS)
    layout = Layout(lay.game, white, black, bar, off)
    return State(layout, other(winner), random_dice(rng), TurnContext(False, rolls_for(rng, layout, rules), 0))


KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        Kind("contact", _placed(position_contact), HITTING, "both sides anywhere, blots, some on the bar or off"),
        Kind("bar", _placed(position_bar), HITTING, "the mover on the bar against a partly closed board"),
        Kind("bear-off", _placed(position_bearoff), HITTING, "all home, bearing off against contact or a race"),
        Kind("stragglers", _placed(position_almost_home), HITTING, "one to three checkers still outside home"),
        Kind("one-out", _placed(position_one_out), HITTING, "all home but one, most often on the 7-point"),
        Kind("race", _placed(position_race), HITTING, "no contact left"),
        Kind("prime", _placed(position_prime), HITTING, "back checkers behind a prime of four to six points"),
        Kind("first-turn", first_turn, {}, "a side's first turn: from the start, after the opponent's first roll"),
        Kind("playout", _playout_state, {}, "a position of a game of random legal plays"),
        Kind("head", _styled("head"), NO_HITTING, "many checkers on the head"),
        Kind("mid", _styled("mid"), NO_HITTING, "mid-game"),
        Kind("home", _styled("home"), NO_HITTING, "all home, bearing off"),
        Kind("late", _styled("late"), NO_HITTING, "all but one to three home"),
        Kind("block", _styled("block"), NO_HITTING, "five of six points in a row held, spares behind the gap"),
        Kind(
            "block-edge",
            _block_edge,
            {**NO_HITTING, "six-block": ("banned-after-turn", "banned-within-turn")},
            "five of six in a row, an opposing checker just ahead of the row or just behind it",
        ),
        Kind(
            "head-last",
            _styled("head-last"),
            {**NO_HITTING, "head-rule": ("one-per-turn",)},
            "one or two left on the head",
        ),
        Kind("home-one-out", _styled("one-out"), NO_HITTING, "all home but one, most often on the 7-point"),
        Kind("wide", _styled("wide"), NO_HITTING, "a checker or two on many points"),
        Kind("few", _styled("few"), NO_HITTING, "stacks on one to three points"),
        Kind("frozen", _styled("frozen"), NO_HITTING, "many home, the rest just outside"),
        Kind("near-draw", _styled("walled"), {**NO_HITTING, "draw": ("both-blocked",)}, "a home board walled in"),
        Kind("chain", _chain, {"doubles": ("chain", "chain-after-three-rolls")}, "a later double of a chain"),
        Kind("passed", _passed, {"unplayable": ("opponent-plays",)}, "numbers passed to the opponent"),
        Kind(
            "passed-start",
            _passed_at_start,
            {"unplayable": ("opponent-plays",), "head-rule": ("one-per-turn",)},
            "a first turn's double passed on, the receiver at the start",
        ),
        Kind("ended", _ended, {}, "a finished game, for its result"),
    )
}


def kinds_for(rules: Rules, names: tuple[str, ...] = ()) -> list[Kind]:
    """The kinds that apply to `rules` (of `names`, or all)."""
    return [k for k in KINDS.values() if (not names or k.name in names) and k.applies(rules)]


def states(rng: random.Random, rules: Rules, kinds: list[Kind]) -> Iterator[tuple[str, State]]:
    """Endless (kind, state) pairs, the kinds in turn; every state passes `problem` under `rules`."""
    made = True
    while made:  # ends only when a whole round of kinds made nothing
        made = False
        for kind in kinds:
            for _ in range(50):  # a kind that keeps failing to place its checkers is passed over this round
                state = kind.make(rng, rules)
                if state is not None and not problem(state, rules):
                    made = True
                    yield kind.name, state
                    break
