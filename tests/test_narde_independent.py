"""Property test: the reference engine's Narde move generator against an independent brute force.

tests/independent_narde.py enumerates every ordering of the numbers and every choice of checker, then
filters whole turns by the rules; it shares no code with the reference engine.  For random valid
Narde positions (many checkers on the head, mid-game, bearing off, nearly-built six-blocks), random
rolls and random turn contexts, under both Narde rulesets, the two must give the same set of
resulting positions.

GAMMONSPEC_PROPERTY_N (default 1500) sets the number of positions per ruleset,
GAMMONSPEC_PROPERTY_SEED (default 20240607) the seed.
"""

from __future__ import annotations

import os
import random

import pytest
from gammonspec.conformance.rules import rulesets
from gammonspec.conformance.state import CHECKERS, HEAD, Layout, TurnContext, mirror
from gammonspec.reference.movegen import legal_plays
from independent_narde import legal_results

N = int(os.environ.get("GAMMONSPEC_PROPERTY_N", "1500"))
SEED = int(os.environ.get("GAMMONSPEC_PROPERTY_SEED", "20240607"))
SHOW = 10  # mismatches printed in full
GAME = "narde"
STYLES = ("head", "mid", "late", "home", "block", "wide", "few")


def spread(rng: random.Random, n: int, points: list[int], most: int) -> dict[int, int]:
    """n checkers on between 1 and `most` of the given points, at least one on each chosen point."""
    if n == 0 or not points:
        return {}  # nothing placed: the caller sees the count is short and draws again
    chosen = rng.sample(points, min(len(points), n, rng.randint(1, most)))
    counts = dict.fromkeys(chosen, 1)
    for _ in range(n - len(chosen)):
        counts[rng.choice(chosen)] += 1
    return counts


def side_checkers(rng: random.Random, style: str, free: list[int]) -> tuple[dict[int, int], int]:
    """({own point: count}, borne off) for one side in the given style, only on `free` own points."""

    def only(points):
        return [p for p in points if p in free]

    if style == "head" and HEAD in free:
        head = rng.choice([CHECKERS, CHECKERS - 1, rng.randint(5, CHECKERS)])
        counts = spread(rng, CHECKERS - head, only(range(13, 24)) or only(range(1, 24)), 6)
        counts[HEAD] = head
        return counts, 0
    if style == "home":
        off = rng.choice([0, 0, rng.randint(1, 14)])
        return spread(rng, CHECKERS - off, only(range(1, 7)), 6), off
    if style == "late":  # all but one to three home: the last ones may come in and bear off in one turn
        out = rng.randint(1, 3)
        off = 0  # none can be off while some are outside: bearing off needs all fifteen home
        counts = spread(rng, CHECKERS - out, only(range(1, 7)), 6)
        for p, n in spread(rng, out, only(range(7, 14)), 3).items():
            counts[p] = counts.get(p, 0) + n
        return counts, off
    if style == "block":  # five of six points in a row (for the opponent) held, spares just behind the gap
        start = rng.randint(1, 19)
        row = [mirror(GAME, q) for q in range(start, start + 6)]
        gap = rng.choice(row)
        counts = {p: 1 for p in only(row) if p != gap}
        spare = rng.randint(2, 5)
        for p, n in spread(rng, spare, only(range(gap + 1, min(gap + 7, 25))) or only(range(1, 25)), 3).items():
            counts[p] = counts.get(p, 0) + n
        rest = CHECKERS - sum(counts.values())
        for p, n in spread(rng, rest, only(range(1, 25)), 8).items():
            counts[p] = counts.get(p, 0) + n
        return counts, 0
    if style == "wide":  # one or two checkers on each of many points: closes much of the board
        return spread(rng, CHECKERS, only(range(1, 25)), rng.randint(10, 15)), 0
    if style == "few":  # stacks on one to three points: against a wide opponent, often only one number plays
        return spread(rng, CHECKERS, only(range(1, 25)), 3), 0
    return spread(rng, CHECKERS, only(range(1, 25)), rng.randint(3, 12)), 0  # mid-game


def random_layout(rng: random.Random) -> Layout:
    """A valid Narde layout: 15 checkers a side, no point shared."""
    while True:
        style_w, style_b = rng.choice(STYLES), rng.choice(STYLES)
        white, off_w = side_checkers(rng, style_w, list(range(1, 25)))
        black_free = [p for p in range(1, 25) if not white.get(mirror(GAME, p))]
        black, off_b = side_checkers(rng, style_b, black_free)
        if sum(white.values()) + off_w != CHECKERS or sum(black.values()) + off_b != CHECKERS:
            continue  # a style could not place every checker on the free points: draw again
        layout = Layout(
            GAME,
            tuple(white.get(p, 0) for p in range(1, 25)),
            tuple(black.get(p, 0) for p in range(1, 25)),
            (0, 0),
            (off_w, off_b),
        )
        layout.validate()
        return layout


def samples(seed: int, n: int):
    rng = random.Random(seed)
    for _ in range(n):
        layout = random_layout(rng)
        side = rng.choice(("white", "black"))
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if rng.random() < 0.15:  # doubles more often than 1 in 6: they exercise the head exception
            dice = (dice[0], dice[0])
        on_head = layout.points(side)[HEAD - 1]
        first = rng.random() < (0.6 if on_head >= CHECKERS - 1 else 0.2)  # first turns mostly from the start
        context = TurnContext(first_turn=first, rolls_in_game=rng.choice([0, 0, 1, 2, 3, 7, 30]))
        yield layout, side, dice, context


@pytest.mark.parametrize("ruleset", ["narde-guide", "narde-variant"])
def test_reference_matches_independent_enumerator(ruleset: str) -> None:
    rules = rulesets()[ruleset].rules()
    bad = []
    for layout, side, dice, context in samples(SEED, N):
        engine = {result.key() for result in legal_plays(layout, side, dice, context, rules)}
        mine = legal_results(layout, side, dice, context, rules)
        if engine != mine:
            bad.append(
                f"position {layout.key()}\nside {side} roll {list(dice)} context {context}\n"
                f"  engine only:      {sorted(engine - mine)}\n  independent only: {sorted(mine - engine)}"
            )
    if bad:
        shown = "\n\n".join(bad[:SHOW])
        pytest.fail(f"{ruleset}: {len(bad)} of {N} positions disagree\n\n{shown}", pytrace=False)
