"""Fuzz drafts load whatever the engine played: plays spelled from the numbers to play, a play no numbers make
written as the position it leaves (case schema `$defs/play`), the harness judging both by position."""

from __future__ import annotations

import random

import yaml
from gammonspec.conformance.harness import steps
from gammonspec.conformance.harness.cases import load
from gammonspec.conformance.harness.judges import judge_plays
from gammonspec.conformance.tools import fuzz_report, generators
from gammonspec.model.notation import apply, check_numbers, describe, spell
from gammonspec.model.rulesets import rulesets
from gammonspec.model.state import Layout, State, TurnContext
from gammonspec.reference import ReferenceEngine

NARDE_76 = Layout("narde", (0,) * 5 + (2, 1) + (0,) * 16 + (12,), (0,) * 23 + (15,))  # white 6(2), 7, head 12


def test_a_double_is_spelled_from_its_numbers() -> None:
    """7, 6, 6 to 3, 3, 1 with 3-3-3-3 is 7/4/1 6/3(2): pairing sources with destinations (describe) gives 7/3,
    which no 3 makes."""
    after = Layout("narde", (1, 0, 2) + (0,) * 20 + (12,), (0,) * 23 + (15,))
    assert "7/3" in describe(NARDE_76, after, "white")
    play = spell(NARDE_76, after, "white", (3, 3, 3, 3), hitting=False)
    assert play == "7/4/1 6/3(2)"
    assert apply(NARDE_76, "white", play, hitting=False) == after
    check_numbers(play, (3, 3, 3, 3))
    assert spell(NARDE_76, after, "white", (6, 5), hitting=False) is None  # 12 pips, but not of a 6 and a 5


def test_every_reference_play_is_spelled_from_the_numbers() -> None:
    """Checked by the notation's own reader: the spelling makes the position with the numbers to play."""
    for target in rulesets().values():
        rules, rng = target.rules(), random.Random(6)
        for _, (_, state) in zip(range(60), generators.states(rng, rules, generators.kinds_for(rules)), strict=False):
            if ReferenceEngine().game_result(state, rules) is not None:
                continue
            for layout in ReferenceEngine().legal_plays(state, rules):
                play = spell(state.layout, layout, state.turn, steps.numbers(state), rules.switch.hitting)
                assert play is not None, (target.name, state)
                if play != "(no move)":
                    assert apply(state.layout, state.turn, play, rules.switch.hitting) == layout
                    check_numbers(play, steps.numbers(state))


def _case_file(tmp_path, expect: dict) -> list:
    data = {
        "game": "narde",
        "cases": [
            {
                "id": "position-play",
                "rules": ["nd.move.full-move"],
                "title": "A play given as its position",
                "position": {"white": {6: 2, 7: 1, 24: 12}, "black": {24: 15}},
                "turn": "white",
                "roll": [3, 3],
                "context": {"first_turn": False, "rolls_in_game": 10, "head_moves": 0},
                "expect": expect,
                "derivation": "By hand: 7/4/1 6/3(2) is the one full play of 3-3 from 7, 6, 6 in this test.",
            }
        ],
    }
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return load([path])


def test_a_play_given_as_a_position_loads_and_is_judged_by_position(tmp_path) -> None:
    wrong = {"position": {"white": {7: 1, 1: 2, 24: 12}, "black": {24: 15}}}  # 6/1(2): no 3s make it
    loaded = _case_file(tmp_path, {"includes": ["7/4/1 6/3(2)"], "excludes": [{"play": wrong, "reason": "six-block"}]})
    assert not loaded.errors, loaded.errors
    (case,) = loaded.cases
    step = case.steps[0]
    name = steps.play_name(wrong)
    assert step.expected["excludes"][name] == Layout(
        "narde", (2,) + (0,) * 5 + (1,) + (0,) * 16 + (12,), (0,) * 23 + (15,)
    )
    verdict, _ = judge_plays(step, [step.expected["excludes"][name], step.expected["includes"]["7/4/1 6/3(2)"]])
    assert not verdict.passed and f"{name} (forbidden: six-block)" in verdict.message


def test_a_play_given_as_an_impossible_position_is_a_located_error(tmp_path) -> None:
    bad = {"position": {"white": {7: 1, 1: 2, 24: 13}, "black": {24: 15}}}  # sixteen white checkers
    loaded = _case_file(tmp_path, {"plays": [bad]})
    assert len(loaded.errors) == 1 and "expect/plays/0" not in str(loaded.errors[0])
    assert "position-play: play '(position white" in str(loaded.errors[0])


def test_case_plays_writes_a_position_where_no_numbers_make_the_play() -> None:
    state = State(NARDE_76, "white", (6, 5), TurnContext(False, 10, 0))
    odd = Layout("narde", (1, 0, 2) + (0,) * 20 + (12,), (0,) * 23 + (15,))
    written = fuzz_report.case_plays(state, [odd.key()], {odd.key(): odd}, False)
    assert written == [{"position": {"white": {1: 1, 3: 2, 24: 12}, "black": {24: 15}}}]
