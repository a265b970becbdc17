"""Property test: the reference engine's Narde move generator against an independent brute force.

tests/independent_crazy.py (the Narde family's enumerator) enumerates every ordering of the numbers and every choice of checker, then
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
from gammonspec.conformance.tools.generators import styled_layout
from gammonspec.model.rulesets import rulesets
from gammonspec.model.state import CHECKERS, HEAD, Layout, TurnContext
from gammonspec.reference.movegen import legal_plays
from independent_crazy import legal_results

N = int(os.environ.get("GAMMONSPEC_PROPERTY_N", "1500"))
SEED = int(os.environ.get("GAMMONSPEC_PROPERTY_SEED", "20240607"))
SHOW = 10  # mismatches printed in full
GAME = "narde"
STYLES = ("head", "mid", "late", "home", "block", "wide", "few")


def random_layout(rng: random.Random) -> Layout:
    """A valid Narde layout: 15 checkers a side, no point shared, each side in one of STYLES."""
    while True:
        layout = styled_layout(rng, GAME, rng.choice(STYLES), rng.choice(STYLES))
        if layout is not None:  # None: a style could not place every checker on the free points
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
