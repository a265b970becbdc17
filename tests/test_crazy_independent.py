"""Property test: the reference engine's Crazy Narde segments against an independent brute force.

tests/independent_crazy.py enumerates every ordering of a segment's numbers and every choice of
checker, filters whole plays by the rules and applies the full-move rule within the segment; it
shares no code with the reference engine.  For random valid Crazy Narde positions (many checkers on
the head, frozen home boards, all-home exact bear-off, nearly-built six-blocks, wide boards, a few
stacks) and random segments of a turn, under both Crazy Narde rulesets and under Crazy Narde with a
free home (exact-only bear-off, home-frozen free, a six-block judged after the play), the two must give
the same set of resulting positions and the same next segment.

Segments drawn:
* the roll itself (a fresh roll, doubles more often than 1 in 6), given as `segment: null` or as the
  owner's segment with the roll's numbers;
* a later double of a chain, [e]*4 with the roll a lower double d-d, with head moves already used;
* (ruleset crazy-narde only: gul-bara never passes numbers) a passed segment, played by the other
  side: one to four of a double's number, a single number of a roll of two different numbers, or
  both numbers of such a roll.

Counted: segments in which a draw (both sides walled in, cn.draw.both-blocked) can come in the
middle of the segment (the draw ends the play, which counts the numbers it used).  The next segment is not compared when
some legal plays end the game and others do not and the turn would go on.  A passed segment is asked with head_moves 0, as the harness does.

GAMMONSPEC_PROPERTY_N (default 800) sets the number of samples per ruleset,
GAMMONSPEC_PROPERTY_SEED (default 20240607) the seed.
"""

from __future__ import annotations

import os
import random
from dataclasses import replace

import pytest
from gammonspec.conformance.tools.generators import STYLES, passed_numbers, styled_layout
from gammonspec.model.rulesets import Rules, rulesets
from gammonspec.model.state import (
    CHECKERS,
    HEAD,
    Layout,
    Segment,
    State,
    TurnContext,
    other,
    standing_six_block,
)
from gammonspec.reference import ReferenceEngine
from independent_crazy import (
    Undetermined,
    as_segment,
    draw_in_segment,
    game_over,
    next_segment,
    numbers_of,
    segment_results,
)

N = int(os.environ.get("GAMMONSPEC_PROPERTY_N", "800"))
SEED = int(os.environ.get("GAMMONSPEC_PROPERTY_SEED", "20240607"))
SHOW = 10  # mismatches printed in full
GAME = "crazy-narde"


def random_layout(rng: random.Random, rules) -> Layout:
    """A valid Crazy Narde layout, 15 checkers a side, no point shared, the game not over."""
    while True:
        style_w, style_b = rng.choice(STYLES), rng.choice(STYLES)
        if rng.random() < 0.05:
            style_w = style_b = "walled"  # both walled in, or nearly: a draw may come in the segment
        layout = styled_layout(rng, GAME, style_w, style_b)
        if layout is None:
            continue  # a style could not place every checker on the free points: draw again
        if game_over(layout.white, layout.off[0], layout.black, layout.off[1], rules):
            continue  # a finished game (won or drawn) has no turn to play
        if rules["six-block"] != "allowed" and standing_six_block(layout):
            continue  # a standing six-block cannot arise where building one is banned
        return layout


def allowance(dice, first_turn: bool, rules) -> int:
    if rules["head-rule"] == "none":
        return 3
    return 2 if first_turn and dice[0] == dice[1] and dice[0] in (3, 4, 6) else 1


def random_segment(rng: random.Random, layout: Layout, rules):
    """(owner, turn, dice, context, segment or None, numbers, passed) for one segment of a turn."""
    owner = rng.choice(("white", "black"))
    on_head = layout.points(owner)[HEAD - 1]
    first = rng.random() < (0.6 if on_head >= CHECKERS - 1 else 0.2)
    rolls = rng.choice([0, 1, 2, 3, 4, 7, 30])
    kinds = ["roll", "roll", "chain"] + (["passed", "passed"] if rules["unplayable"] == "opponent-plays" else [])
    kind = rng.choice(kinds)
    if kind == "roll":
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if rng.random() < 0.3:
            dice = (dice[0], dice[0])
        numbers = tuple(numbers_of(dice))
        context = TurnContext(first, rolls, 0)
        segment = None if rng.random() < 0.5 else Segment(owner, numbers, False)
        return owner, owner, dice, context, segment, numbers, False
    if kind == "chain":
        d = rng.randint(1, 5)
        e = rng.randint(d + 1, 6)
        dice = (d, d)
        if rules["doubles"] == "chain-after-three-rolls":
            rolls = rng.choice([3, 4, 7, 30])  # a chain only after the game's first three rolls
        heads = rng.randint(0, allowance(dice, first, rules))
        numbers = (e,) * 4
        return owner, owner, dice, TurnContext(first, rolls, heads), Segment(owner, numbers, False), numbers, False
    # a passed segment: the owner's leftovers, played by the other side with a random context
    context = TurnContext(rng.random() < 0.3, rolls, 0)  # the harness: no head moves charged to it
    dice, numbers = passed_numbers(rng)
    return owner, other(owner), dice, context, Segment(owner, numbers, True), numbers, True


def samples(seed: int, n: int, rules):
    rng = random.Random(seed)
    for _ in range(n):
        layout = random_layout(rng, rules)
        yield layout, random_segment(rng, layout, rules)


def normal(segment: Segment | None):
    """A segment's identity for comparison: the order of its numbers does not matter."""
    if segment is None:
        return None
    return (segment.owner, tuple(sorted(segment.numbers)), bool(segment.passed))


# Assignments no ruleset has today but engine profiles may declare: a ruleset with some switches changed.
SYNTHETIC = {"exact-only-home-free": ("crazy-narde", {"home-frozen": "free", "six-block": "banned-after-turn"})}


def _rules(name: str) -> Rules:
    base, changed = SYNTHETIC.get(name, (name, {}))
    rs = rulesets()[base]
    return replace(rs, switches={**rs.switches, **changed}).rules()


@pytest.mark.parametrize("ruleset", ["crazy-narde", "gul-bara", *SYNTHETIC])
def test_reference_matches_independent_enumerator(ruleset: str) -> None:
    rules = _rules(ruleset)
    engine = ReferenceEngine()
    bad = []
    undetermined = draws = 0
    for layout, (owner, turn, dice, context, segment, numbers, passed) in samples(SEED, N, rules):
        draws += draw_in_segment(layout, turn, numbers, rules)  # counted: such samples are the rarest
        state = State(layout, turn, dice, context, segment=segment)
        theirs_plays = {result.key() for result in engine.legal_plays(state, rules)}
        theirs_next = engine.next_segment(state, rules)
        mine_plays = segment_results(layout, turn, numbers, dice, context, rules, passed)
        try:
            mine_next = as_segment(next_segment(layout, turn, numbers, dice, context, rules, owner, passed))
        except Undetermined:
            undetermined += 1
            mine_next = theirs_next  # the spec leaves it open: compare the plays only
        if theirs_plays != mine_plays or normal(theirs_next) != normal(mine_next):
            lines = [
                f"position {layout.key()}",
                f"side {turn} numbers {list(numbers)} dice {list(dice)} context {context}",
                f"segment {segment}",
            ]
            if theirs_plays != mine_plays:
                lines.append(f"  engine only:      {sorted(theirs_plays - mine_plays)}")
                lines.append(f"  independent only: {sorted(mine_plays - theirs_plays)}")
            if normal(theirs_next) != normal(mine_next):
                lines.append(f"  next: engine {theirs_next}  independent {mine_next}")
            bad.append("\n".join(lines))
    summary = (
        f"{ruleset}: {N} samples, {draws} in which a draw can come within the segment, "
        f"{undetermined} with the next segment undetermined (some plays end the game, others not)"
    )
    print(summary)
    if bad:
        shown = "\n\n".join(bad[:SHOW])
        pytest.fail(f"{summary}\n{len(bad)} samples disagree\n\n{shown}", pytrace=False)


def _layout(white: dict[int, int], black: dict[int, int]) -> Layout:
    w = tuple(white.get(p, 0) for p in range(1, 25))
    b = tuple(black.get(p, 0) for p in range(1, 25))
    layout = Layout(GAME, w, b, (0, 0), (CHECKERS - sum(w), CHECKERS - sum(b)))
    layout.validate()
    return layout


def test_enumerator_follows_the_spec_examples() -> None:
    """The oracle itself, on the examples spec/crazy-narde.md works through (derived by hand from the text)."""
    rules = rulesets()["crazy-narde"].rules()
    mid = TurnContext(False, 10, 0)
    # cn.home.frozen: from the 9-point with 5-2, 9/7/2 is allowed and 9/4/2 is not; the home checkers stay.
    layout = _layout({9: 1, 6: 14}, {24: 15})
    assert segment_results(layout, "white", (5, 2), (5, 2), mid, rules, False) == {
        _layout({2: 1, 6: 14}, {24: 15}).key()
    }
    # cn.bearoff.exact-only: all on the 1-point with 2-1, the 1 bears one off and the 2 goes to the opponent.
    layout = _layout({1: 3}, {24: 15})
    assert segment_results(layout, "white", (2, 1), (2, 1), mid, rules, False) == {_layout({1: 2}, {24: 15}).key()}
    assert next_segment(layout, "white", (2, 1), (2, 1), mid, rules, "white", False) == ("white", (2,), True)
    # cn.chain.returns: the same with 2-2: the four 2s go over entire; after them the chain goes on with 3-3.
    assert next_segment(layout, "white", (2,) * 4, (2, 2), mid, rules, "white", False) == ("white", (2,) * 4, True)
    assert next_segment(layout, "black", (2,) * 4, (2, 2), mid, rules, "white", True) == ("white", (3,) * 4, False)
    # cn.head.first-turn: a first-turn 6-6 from the start is 24/18(2); the other two 6s go to the opponent.
    start = _layout({24: 15}, {24: 15})
    first = TurnContext(True, 1, 0)
    assert segment_results(start, "white", (6,) * 4, (6, 6), first, rules, False) == {
        _layout({18: 2, 24: 13}, {24: 15}).key()
    }
    assert next_segment(start, "white", (6,) * 4, (6, 6), first, rules, "white", False) == ("white", (6, 6), True)
    # cn.end.win: bearing off the last checker ends the turn, whatever is left.
    layout = _layout({2: 1}, {24: 15})
    assert next_segment(layout, "white", (2,) * 4, (2, 2), mid, rules, "white", False) is None
