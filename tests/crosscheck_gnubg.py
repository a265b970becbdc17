"""Independent backgammon move generators, and random positions to compare the reference engine with.

Used by tests/test_crosscheck_backgammon.py and tests/bench.py.  Two independent generators, both
optional (`pip install -e .[crosscheck]`), both listing every distinct resulting position:

* gnubg-nn (import `gnubg_nn`): `moves(board, d1, d2)` -> tuple of 20-character position keys, one per
  distinct resulting position; `()` when nothing can move.  `board` is `[opponent, mover]`, each 25
  counts: index i is the side's OWN point i + 1, index 24 its bar; borne-off checkers are implicit.
  The keys decode with `board_from_position_key(key)` in the same orientation (mover still second).
* bgsage (import `bgsage`): `possible_moves(board, d1, d2)` -> list of 26-int boards, one per distinct
  resulting position.  The board is from the mover's view: index p (1..24) is the mover's point p,
  positive = the mover's checkers, negative = the opponent's; index 25 is the mover's bar and index 0
  the opponent's bar, both as counts >= 0 (bgsage/gnubg.py documents the format; a negative index 0 is
  silently misread); borne-off checkers are implicit.  When nothing can move it returns the
  board unchanged (a one-element list); the result boards keep the mover's view.

The reference engine's `Layout` keeps each side's checkers in that side's own numbering; in backgammon
the mover's point p is the opponent's point 25 - p.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from gammonspec.conformance.board import draw
from gammonspec.conformance.notation import describe
from gammonspec.conformance.position_ids import encode_gnubg
from gammonspec.conformance.rules import Rules, rulesets
from gammonspec.conformance.state import CHECKERS, SIDES, Layout, Side, TurnContext, other, start_layout
from gammonspec.engines.boards import from_bgsage, from_gnubg, layout_of, to_bgsage, to_gnubg
from gammonspec.reference.movegen import legal_plays

GAME = "backgammon"
Dice = tuple[int, int]


def bg_rules() -> Rules:
    return rulesets()["backgammon"].rules()


def reference_plays(layout: Layout, side: Side, dice: Dice, rules: Rules) -> set[Layout]:
    return set(legal_plays(layout, side, dice, TurnContext(), rules))


def _layout(side: Side, mine: list[int], theirs_own: list[int], my_bar: int, their_bar: int) -> Layout:
    """A layout from the mover's 24 counts and the opponent's 24 counts, each in its own numbering."""
    lay = layout_of(side, mine, theirs_own, my_bar, their_bar)
    lay.validate()
    return lay


def gnubg_plays(gnubg_nn: Any, layout: Layout, side: Side, dice: Dice) -> set[Layout]:
    keys = gnubg_nn.moves(to_gnubg(layout, side), dice[0], dice[1])
    if not keys:
        return {layout}
    return {from_gnubg(gnubg_nn.board_from_position_key(k), side) for k in keys}


# --- bgsage ------------------------------------------------------------------------------------


def bgsage_plays(possible_moves: Callable[..., Any], layout: Layout, side: Side, dice: Dice) -> set[Layout]:
    boards = possible_moves(to_bgsage(layout, side), dice[0], dice[1])
    if not boards:
        return {layout}
    return {from_bgsage(list(b), side) for b in boards}


# --- random positions --------------------------------------------------------------------------


def _spread(rng: random.Random, n: int, points: list[int], counts: list[int]) -> None:
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


def _view_layout(side: Side, me: list[int], them: list[int], my_bar: int, their_bar: int) -> Layout:
    """A layout from counts in the MOVER's numbering for both sides (index 1..24; index 0 unused)."""
    theirs_own = [them[25 - q] for q in range(1, 25)]
    return _layout(side, me[1:25], theirs_own, my_bar, their_bar)


def _random_side_placement(
    rng: random.Random, n: int, allowed: list[int], taken: set[int], spots: tuple[int, int] = (2, 9)
) -> list[int]:
    """n checkers on a few random points among `allowed` not in `taken`; counts indexed 0..25."""
    counts = [0] * 26
    pool = [p for p in allowed if p not in taken]
    if n == 0:
        return counts
    chosen = rng.sample(pool, min(len(pool), rng.randint(*spots)))
    _spread(rng, n, chosen, counts)
    return counts


def position_contact(rng: random.Random, side: Side) -> Layout:
    """Both sides anywhere: blots, points, a few checkers on the bar or off."""
    my_bar = rng.choice((0, 0, 0, 0, 1, 1, 2, 3))
    their_bar = rng.choice((0, 0, 0, 0, 1, 2))
    my_off = rng.choice((0, 0, 0, 0, 0, 1, 3))
    their_off = rng.choice((0, 0, 0, 0, 0, 2, 5))
    me = _random_side_placement(rng, CHECKERS - my_bar - my_off, list(range(1, 25)), set(), (2, 10))
    mine = {p for p in range(1, 25) if me[p]}
    them = _random_side_placement(rng, CHECKERS - their_bar - their_off, list(range(1, 25)), mine, (2, 10))
    held = mine | {p for p in range(1, 25) if them[p]}
    free = [p for p in range(1, 25) if p not in held]
    _blots(rng, them, free)
    _blots(rng, me, free)
    return _view_layout(side, me, them, my_bar, their_bar)


def position_bar(rng: random.Random, side: Side) -> Layout:
    """The mover on the bar, the opponent's home board (the mover's 19-24) partly closed, blots to hit."""
    my_bar = rng.randint(1, 4)
    their_bar = rng.choice((0, 0, 0, 1))
    me = _random_side_placement(rng, CHECKERS - my_bar, list(range(1, 25)), set(), (2, 8))
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
    _spread(rng, left, rng.sample(rest, min(len(rest), rng.randint(1, 6))), them)
    return _view_layout(side, me, them, my_bar, their_bar)


def position_bearoff(rng: random.Random, side: Side) -> Layout:
    """All the mover's checkers home, some off; the opponent racing home or still in contact."""
    my_off = rng.randint(0, 14)
    me = _random_side_placement(rng, CHECKERS - my_off, list(range(1, 7)), set(), (1, 6))
    mine = {p for p in range(1, 25) if me[p]}
    if rng.random() < 0.5:  # contact: opponent checkers (blots too) in the mover's home, maybe on the bar
        their_bar = rng.choice((0, 0, 1, 2))
        their_off = rng.choice((0, 0, 3))
        allowed = list(range(1, 25))
    else:  # race: the opponent in its own home board (the mover's 19-24) with some off
        their_bar = 0
        their_off = rng.randint(0, 14)
        allowed = list(range(19, 25))
    them = _random_side_placement(rng, CHECKERS - their_bar - their_off, allowed, mine, (1, 7))
    free = [p for p in range(1, 7) if not me[p] and not them[p]]
    if allowed[0] == 1:
        _blots(rng, them, free)
    return _view_layout(side, me, them, 0, their_bar)


def position_almost_home(rng: random.Random, side: Side) -> Layout:
    """One to three checkers still outside the home board (or on the bar): bear-off can start mid-turn."""
    my_off = rng.choice((0, 0, 0, 2, 5, 9))
    outside = rng.randint(1, 3)
    my_bar = 1 if rng.random() < 0.15 else 0
    out = max(outside - my_bar, 0)
    me = _random_side_placement(rng, CHECKERS - my_off - outside, list(range(1, 7)), set(), (1, 6))
    _spread(rng, out, rng.sample(range(7, 19), rng.randint(1, 3)), me)
    mine = {p for p in range(1, 25) if me[p]}
    their_bar = rng.choice((0, 0, 0, 1))
    their_off = rng.choice((0, 0, 2))
    them = _random_side_placement(rng, CHECKERS - their_bar - their_off, list(range(1, 25)), mine, (2, 8))
    held = mine | {p for p in range(1, 25) if them[p]}
    _blots(rng, them, [p for p in range(1, 25) if p not in held])
    return _view_layout(side, me, them, my_bar, their_bar)


def random_dice(rng: random.Random) -> Dice:
    if rng.random() < 0.25:  # doubles more often than 1 in 6: they are where four-step plays live
        d = rng.randint(1, 6)
        return d, d
    return rng.randint(1, 6), rng.randint(1, 6)


def game_over(layout: Layout) -> bool:
    return CHECKERS in layout.off


KINDS = (position_contact, position_bar, position_bearoff, position_almost_home)


def playout(rng: random.Random, rules: Rules, max_plies: int = 200) -> Iterator[tuple[Layout, Side]]:
    """Positions from one game of random plays from the start (the plays chosen among the reference's)."""
    layout, side = start_layout(GAME), rng.choice(SIDES)
    for _ in range(max_plies):
        if game_over(layout):
            return
        yield layout, side
        layout = rng.choice(legal_plays(layout, side, random_dice(rng), TurnContext(), rules))
        side = other(side)


@dataclass(frozen=True)
class Sample:
    layout: Layout
    side: Side
    dice: Dice
    kind: str


def samples(seed: int, n: int, rules: Rules | None = None, playouts: bool = True) -> list[Sample]:
    """n random positions with rolls: a fixed mix of the kinds above (and random-playout positions)."""
    rng = random.Random(seed)
    rules = rules or bg_rules()
    out: list[Sample] = []
    game: Iterator[tuple[Layout, Side]] = iter(())
    while len(out) < n:
        pick = rng.randrange(5 if playouts else 4)
        if pick == 4:
            item = next(game, None)
            if item is None:
                game = playout(rng, rules)
                continue
            layout, side, kind = *item, "playout"
        else:
            side = rng.choice(SIDES)
            maker = KINDS[pick]
            layout, kind = maker(rng, side), maker.__name__.removeprefix("position_")
        if game_over(layout):
            continue
        out.append(Sample(layout, side, random_dice(rng), kind))
    return out


def explain(sample: Sample, plays: dict[str, set[Layout]]) -> str:
    """A mismatch, for a person: the board, the IDs, the roll and the plays each generator alone gives."""
    lay, side = sample.layout, sample.side
    lines = [
        f"--- {sample.kind} position, {side} to play {sample.dice[0]}-{sample.dice[1]}",
        draw(lay, side),
        f"GNU Backgammon Position ID (from {side}'s view): {encode_gnubg(lay, side)}",
        f"layout: {lay!r}",
    ]
    names = list(plays)
    for name in names:
        others = set().union(*(plays[o] for o in names if o != name))
        only = plays[name] - others
        if only:
            lines.append(
                f"only {name} ({len(only)} of {len(plays[name])}): "
                + " | ".join(sorted(describe(lay, x, side) for x in only))
            )
    return "\n".join(lines)
