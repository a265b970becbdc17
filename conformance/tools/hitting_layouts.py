"""Random layouts with hitting (switch hitting=blots): the backgammon placements, in the mover's numbering.

Contact, the mover on the bar against a closing board, bear-off against contact or a race, the last few
checkers still outside, a prime, a race; conformance/tools/generators.py makes states of them.
"""

from __future__ import annotations

import random

from gammonspec.model.state import CHECKERS, Layout, Side, mirror

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
