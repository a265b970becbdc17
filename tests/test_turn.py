"""Whole Crazy Narde turns (reference/turn.py) against the independent enumerator's `chain_results`.

Random positions from the Crazy Narde property test's generator, rolls that start short chains (5-5,
6-6) or may pass numbers to the opponent (two different numbers); positions whose first segment has
many results are skipped to keep the brute force cheap (a count, not a clock).
"""

from __future__ import annotations

import random

import pytest
from gammonspec.conformance.tools.mutants import all_mutants
from gammonspec.model.state import Layout, State, TurnContext
from gammonspec.reference.movegen import search
from gammonspec.reference.turn import turn_results
from independent_crazy import chain_results
from test_crazy_independent import _rules, random_layout

ROLLS = [(5, 5), (5, 5), (5, 5), (6, 6), (3, 1), (6, 2), (5, 4), (2, 1)]
SAMPLES = 40
MOST_FIRST_RESULTS = 30  # skip positions whose first segment leaves more


@pytest.mark.parametrize("ruleset", ["crazy-narde", "gul-bara"])
def test_whole_turns_match_independent_chains(ruleset: str) -> None:
    rules = _rules(ruleset)
    rng = random.Random(20260102)
    compared = longer = 0
    while compared < SAMPLES:
        layout = random_layout(rng, rules)
        dice = rng.choice(ROLLS)
        context = TurnContext(rng.random() < 0.3, rng.choice([0, 5, 10]), 0)
        state = State(layout, "white", dice, context)
        first = search(state, rules)
        if len(first.results) > MOST_FIRST_RESULTS:
            continue
        compared += 1
        longer += first.next is not None
        mine, _ = turn_results(state, rules)
        independent = chain_results(layout, "white", dice, context, rules)
        assert {lay.key() for lay in mine} == independent, f"{ruleset} {layout.key()} roll {dice} {context}"
    assert longer >= SAMPLES // 8  # turns of more than one segment: chains or passed numbers


def test_a_turn_passed_round_for_ever_stops() -> None:
    """White's 15 checkers on its 5-point bear one off with the 5; the 6 passes to black, who cannot use it
    either.  Under the mutant that passes it back (cn.unplayable.once broken) the 6 would go round for ever:
    the search stops, with no end, where it once never returned."""
    rules = _rules("crazy-narde")
    white, black = [0] * 24, [0] * 24
    white[4], black[1] = 15, 4
    state = State(Layout("crazy-narde", tuple(white), tuple(black), (0, 0), (0, 11)), "white", (6, 5))
    borne_off = Layout("crazy-narde", (0, 0, 0, 0, 14, *[0] * 19), tuple(black), (0, 0), (1, 11))
    assert list(turn_results(state, rules)[0]) == [borne_off]
    (passed_back,) = (m for m in all_mutants() if m.name == "passed-back-again")
    with passed_back.applied():
        assert list(turn_results(state, rules)[0]) == []
