"""Move notation: parsing, applying plays to layouts, and describing a change of layout as a play."""

from __future__ import annotations

import random
import re

import pytest
from conftest import layout
from gammonspec.model.notation import BAR, OFF, NotationError, apply, check_numbers, describe, parse
from gammonspec.model.state import SIDES, Layout, Side, other, start_layout
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

START = start_layout("backgammon")


def points(lay: Layout, side: Side) -> dict[int, int]:
    return {p: n for p, n in enumerate(lay.points(side), 1) if n}


# --- parse ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "play, paths",
    [
        ("24/18 13/10", [[(24, False), (18, False)], [(13, False), (10, False)]]),
        ("24/18/13", [[(24, False), (18, False), (13, False)]]),
        ("13/7(2)", [[(13, False), (7, False)], [(13, False), (7, False)]]),
        ("bar/22*", [[(BAR, False), (22, True)]]),
        ("6/off", [[(6, False), (OFF, False)]]),
        ("24/18*/13", [[(24, False), (18, True), (13, False)]]),
        ("BAR/20 6/OFF", [[(BAR, False), (20, False)], [(6, False), (OFF, False)]]),
        ("8/4(4)", [[(8, False), (4, False)]] * 4),
        ("  24/18   13/10 ", [[(24, False), (18, False)], [(13, False), (10, False)]]),
        ("", []),
    ],
)
def test_parse(play, paths):
    assert parse(play) == paths


@pytest.mark.parametrize(
    "play, message",
    [
        ("24-18", "cannot read move '24-18'"),
        ("24", "cannot read move '24'"),
        ("24/", "cannot read move"),
        ("/18", "cannot read move"),
        ("24/18x", "cannot read move"),
        ("24*/18", "cannot read move"),
        ("off/6", "cannot read move"),
        ("24/bar", "cannot read move"),
        ("13/7(2", "cannot read move"),
        ("13/7(22)", "cannot read move"),
        ("(no move)", "cannot read move"),
        ("25/20", "point 25 in '25/20' is not a point 1-24"),
        ("3/0", "point 0 in '3/0' is not a point 1-24"),
        ("0/off", "is not a point 1-24"),
        ("18/24", "'18/24' moves backwards"),
        ("13/13", "moves backwards"),
        ("24/18/20", "moves backwards"),
        ("6/off/3", "moves backwards"),
        ("24/18 13/17", "'13/17' moves backwards"),
    ],
)
def test_parse_rejects(play, message):
    with pytest.raises(NotationError, match=message.replace("(", r"\(").replace(")", r"\)").replace("*", r"\*")):
        parse(play)


def test_parse_rejects_zero_repetitions():
    with pytest.raises(NotationError):
        parse("13/7(0)")


# --- apply ---------------------------------------------------------------------------------------


def test_apply_two_checkers():
    after = apply(START, "white", "24/18 13/10")
    assert points(after, "white") == {24: 1, 18: 1, 13: 4, 10: 1, 8: 3, 6: 5}
    assert after.black == START.black and after.bar == (0, 0) and after.off == (0, 0)


def test_apply_one_checker_through_a_point():
    after = apply(START, "white", "24/18/13")
    assert points(after, "white") == {24: 1, 13: 6, 8: 3, 6: 5}
    assert after == apply(START, "white", "24/13")


def test_apply_repeated_move():
    after = apply(START, "white", "13/7(2)")
    assert points(after, "white") == {24: 2, 13: 3, 8: 3, 7: 2, 6: 5}
    assert after == apply(START, "white", "13/7 13/7")


def test_apply_for_black_uses_blacks_numbering():
    after = apply(START, "black", "24/18 13/10")
    assert points(after, "black") == {24: 1, 18: 1, 13: 4, 10: 1, 8: 3, 6: 5}
    assert after.white == START.white


def test_apply_empty_play_changes_nothing():
    assert apply(START, "white", "") == START
    assert apply(START, "black", "   ") == START


def test_apply_enter_and_hit():
    before = layout("backgammon", {"bar": 1, 13: 14}, {3: 1, 6: 14})  # white's 22 is black's 3, a blot
    after = apply(before, "white", "bar/22*")
    assert points(after, "white") == {22: 1, 13: 14}
    assert after.bar == (0, 1)
    assert points(after, "black") == {6: 14}
    assert after.key() == apply(before, "white", "bar/22").key()  # landing on a blot hits, star or not


def test_apply_hit_on_the_way():
    before = layout("backgammon", {24: 1, 13: 14}, {7: 1, 6: 14})  # white's 18 = black's 7, a blot
    after = apply(before, "white", "24/18*/13")
    assert points(after, "white") == {13: 15}
    assert after.bar == (0, 1) and points(after, "black") == {6: 14}


def test_apply_bear_off():
    before = layout("backgammon", {6: 2, 2: 3, "off": 10}, {24: 15})
    after = apply(before, "white", "6/off")
    assert points(after, "white") == {6: 1, 2: 3} and after.off == (11, 0)
    after = apply(before, "white", "6/off 2/off(3)")
    assert points(after, "white") == {6: 1} and after.off == (14, 0)
    after = apply(before, "white", "6/4/off")
    assert points(after, "white") == {6: 1, 2: 3} and after.off == (11, 0)


def test_apply_narde_geometry():
    start = start_layout("narde")
    after = apply(start, "white", "24/18 24/21")
    assert points(after, "white") == {24: 13, 21: 1, 18: 1}
    # black's head (24) is white's 12: white may pass over it but cannot land on it (or list it)
    with pytest.raises(NotationError, match="point 12 is held by black"):
        apply(start, "white", "24/12")
    assert points(apply(start, "white", "24/6"), "white") == {24: 14, 6: 1}
    with pytest.raises(NotationError, match="point 12 is held"):
        apply(start, "white", "24/12/6")  # a listed point is landed on


def test_apply_does_not_modify_its_input():
    before = layout("backgammon", {24: 1, 13: 14}, {7: 1, 6: 14})
    copy = Layout(before.game, before.white, before.black, before.bar, before.off)
    apply(before, "white", "24/18*/13")
    assert before == copy


@pytest.mark.parametrize(
    "before, side, play, message",
    [
        (START, "white", "23/18", "white has no checker on point 23"),
        (START, "black", "22/18", "black has no checker on point 22"),
        (START, "white", "24/18(3)", "white has no checker on point 24"),
        (START, "white", "bar/20", "white has no checker on the bar"),
        (START, "white", "24/19", r"point 19 is held by black \(5 checkers\)"),
        (START, "white", "13/1", r"point 1 is held by black \(2 checkers\)"),
        (START, "white", "24/19/13", "point 19 is held by black"),
        (START, "black", "13/1", "point 1 is held by white"),
        (START, "white", "24/18*", r"18\* marks a hit, but there is no black blot on point 18"),
        (START, "white", "24/18*/13", r"18\* marks a hit"),
        (START, "white", "24/18 13/7*", r"7\* marks a hit"),
        (START, "white", "18/24", "moves backwards"),
        (START, "white", "24/18/x", "cannot read move"),
        (start_layout("narde"), "white", "24/12", "point 12 is held by black"),
        (start_layout("narde"), "white", "24/20*", "no black blot"),
        (layout("narde", {24: 14, 1: 1}, {24: 14, 20: 1}), "white", "24/8", r"point 8 is held by black \(1 checkers\)"),
    ],
)
def test_apply_rejects(before, side, play, message):
    with pytest.raises(NotationError, match=message):
        apply(before, side, play)


def test_narde_single_checker_is_not_a_blot():
    before = layout("narde", {24: 15}, {24: 14, 8: 1})  # black's 8 is white's 20
    with pytest.raises(NotationError, match="held by black"):
        apply(before, "white", "24/20")


# --- describe ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "before, side, play, description",
    [
        (START, "white", "24/18 13/10", "24/18 13/10"),
        (START, "white", "13/7(2)", "13/7(2)"),
        (START, "white", "13/7 13/7", "13/7(2)"),
        (START, "white", "24/18/13", "24/13"),
        (START, "black", "8/5 6/5", "8/5 6/5"),
        (layout("backgammon", {"bar": 1, 13: 14}, {3: 1, 6: 14}), "white", "bar/22*", "bar/22*"),
        (layout("backgammon", {24: 1, 13: 14}, {7: 1, 6: 14}), "white", "24/18*/13", "24/18*/13"),
        (layout("backgammon", {21: 2, 13: 13}, {7: 1, 6: 14}), "white", "21/18* 21/18", "21/18* 21/18"),
        (layout("backgammon", {10: 1, 4: 1, 13: 13}, {20: 1, 23: 1, 6: 13}), "white", "10/5*/2* 4/2", "10/5*/2* 4/2"),
        (layout("backgammon", {6: 2, 2: 3, "off": 10}, {24: 15}), "white", "6/off", "6/off"),
        (layout("backgammon", {6: 2, 2: 3, "off": 10}, {24: 15}), "white", "2/off(2)", "2/off(2)"),
    ],
)
def test_describe_examples(before, side, play, description):
    after = apply(before, side, play)
    assert describe(before, after, side) == description


def test_describe_no_change():
    assert describe(START, START, "white") == "(no move)"


def test_describe_impossible_change():
    backwards = apply(START, "white", "13/7")
    text = describe(backwards, START, "white")  # 7 -> 13 is not a play
    assert text.startswith("<not a play from this position")


def random_position(rng: random.Random, game: str) -> Layout:
    """A position reached from the start by random geometrically possible single moves of both sides."""
    lay = start_layout(game)
    for _ in range(rng.randint(0, 40)):
        lay = random_moves(rng, lay, rng.choice(SIDES), rng.randint(1, 2))[1]
    return lay


def random_moves(rng: random.Random, lay: Layout, side: Side, n: int) -> tuple[list[str], Layout]:
    """Up to n random single moves (1-6 pips) that apply accepts, made one at a time."""
    made = []
    for _ in range(n):
        sources = (["bar"] if lay.on_bar(side) else []) + [str(p) for p, c in enumerate(lay.points(side), 1) if c]
        rng.shuffle(sources)
        for source in sources:
            die = rng.randint(1, 6)
            start = 25 if source == "bar" else int(source)
            target = "off" if start - die < 1 else str(start - die)
            try:
                lay = apply(lay, side, f"{source}/{target}")
            except NotationError:
                continue
            made.append(f"{source}/{target}")
            break
    return made, lay


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(["backgammon", "narde"]), moves=st.integers(1, 4))
def test_describe_round_trips(seed, game, moves):
    rng = random.Random(seed)
    before = random_position(rng, game)
    side = rng.choice(SIDES)
    made, after = random_moves(rng, before, side, moves)
    if not made:
        return
    text = describe(before, after, side)
    assert not text.startswith("<"), (made, text)
    assert apply(before, side, text) == after, (made, text)
    # the other side's checkers only change by being hit, and then only in backgammon
    if game == "narde":
        assert after.points(other(side)) == before.points(other(side)) and "*" not in text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(["backgammon", "narde", "crazy-narde"]))
def test_apply_keeps_a_valid_layout_valid(seed, game):
    """apply does not re-validate what it builds: from a valid layout every play it makes is valid too."""
    rng = random.Random(seed)
    lay = random_position(rng, game)
    for _ in range(8):
        lay = random_moves(rng, lay, rng.choice(SIDES), rng.randint(1, 4))[1]
        lay.validate(reachable=False)


def test_describe_round_trips_many_hits():
    rng = random.Random(7)
    hits = 0
    for _ in range(500):
        before = random_position(rng, "backgammon")
        side = rng.choice(SIDES)
        made, after = random_moves(rng, before, side, 4)
        if not made:
            continue
        text = describe(before, after, side)
        assert apply(before, side, text) == after, (before.key(), made, text)
        hits += "*" in text
    assert hits > 8  # the sample exercised hitting


# --- a play's moves are made by the numbers to play ------------------------------------------------


@pytest.mark.parametrize(
    "play, numbers",
    [
        ("24/13", (6, 5)),  # one checker, both numbers, the stop not written
        ("24/18/13", (6, 5)),
        ("24/18 13/8", (6, 5)),
        ("24/18", (6, 5)),  # one number left unplayed is the rules' business, not the notation's
        ("13/5(2)", (4, 4, 4, 4)),
        ("24/8", (4, 4, 4, 4)),
        ("bar/22*", (3, 1)),
        ("6/off 5/off", (6, 5)),
        ("3/off", (6, 5)),  # bearing off may use a higher number
        ("4/off", (2, 2, 2, 2)),  # 2 then 2
        ("", (6, 5)),
    ],
)
def test_plays_made_by_the_numbers(play, numbers):
    check_numbers(play, numbers)


@pytest.mark.parametrize(
    "play, numbers, message",
    [
        ("20/16", (6, 5), "20/16 moves 4 pips, which no numbers of 6-5 make"),
        ("24/18 13/7", (6, 5), "its moves (6, 6) need more numbers than 6-5 gives"),
        ("24/12", (6, 5), "24/12 moves 12 pips"),
        ("13/5(3)", (4, 4, 4, 4), "its moves (8, 8, 8) need more numbers than 4-4-4-4 gives"),
        ("6/off 6/off", (6, 5), "its moves (6/off, 6/off) need more numbers"),
        ("6/off", (2, 2, 2, 2), None),  # 2+2+2 reaches off exactly: fine
        ("9/off", (2, 2, 2, 2), "9/off moves 9 or less pips, which no numbers of 2-2-2-2 make"),
        ("bar/20", (6, 4), "bar/20 moves 5 pips"),
    ],
)
def test_plays_the_numbers_do_not_make(play, numbers, message):
    if message is None:
        check_numbers(play, numbers)
        return
    with pytest.raises(NotationError, match=re.escape(message)):
        check_numbers(play, numbers)
