"""GNU Backgammon Position IDs and XGIDs: published examples, round trips and malformed input."""

from __future__ import annotations

import base64
import random

import pytest
from gammonspec.model.position_ids import decode_gnubg, decode_xgid, encode_gnubg, encode_xgid
from gammonspec.model.state import CHECKERS, SIDES, Cube, Layout, Match, Side, StateError, mirror, start_layout
from hypothesis import given, settings
from hypothesis import strategies as st

START = start_layout("backgammon")
START_GNUBG = "4HPwATDgc/ABMA"
START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


def layout(white: dict[int, int], black: dict[int, int], bar: tuple[int, int] = (0, 0)) -> Layout:
    """A backgammon layout from {own point: count} per side; the remaining checkers are off."""
    pts = {side: tuple(own.get(p, 0) for p in range(1, 25)) for side, own in (("white", white), ("black", black))}
    off = tuple(CHECKERS - sum(pts[side]) - bar[i] for i, side in enumerate(SIDES))
    result = Layout("backgammon", pts["white"], pts["black"], bar=bar, off=off)
    result.validate()
    return result


def black_on(lay: Layout, point: int) -> int:
    """Black's checkers on white's point `point`."""
    return lay.black[mirror("backgammon", point) - 1]


def gnubg_id(bits: str) -> str:
    """A Position ID from its key written as a bit string, bit 0 first (the manual's own construction)."""
    key = sum(1 << i for i, b in enumerate(bits) if b == "1")
    return base64.b64encode(key.to_bytes(10, "little")).decode()[:14]


# --- GNU Backgammon Position IDs ---------------------------------------------------------------


def test_start_position_id() -> None:
    # GNU Backgammon manual, 11.6 "A technical description of the Position ID": the starting
    # position's key splits into the 6-bit groups 111000 000111 ... written "4HPwATDgc/ABMA".
    assert decode_gnubg(START_GNUBG, "white") == START
    assert decode_gnubg(START_GNUBG, "black") == START
    assert encode_gnubg(START, "white") == START_GNUBG
    assert encode_gnubg(START, "black") == START_GNUBG


def test_manual_bit_construction() -> None:
    # The manual's recipe for the start: per side, 5 ones on the 6-point, 3 on the 8, 5 on the 13,
    # 2 on the 24, each point closed by a 0; padded with 0s to 80 bits.
    side = "00000" + "111110" + "0" + "1110" + "0000" + "111110" + "0" * 10 + "110" + "0"
    assert gnubg_id(side + side + "0" * (80 - 2 * len(side))) == START_GNUBG


def test_position_id_with_a_checker_on_the_bar() -> None:
    # PyPI "backgammon" (Backgammon Network engine) README: Position ID 4OvgATDgc+QBUA with match
    # ID cInpAAAAAAAA; the side on roll has 3-2 to play and every listed play starts by entering
    # from the bar (bar/22, bar/23), so the side on roll is the one with a checker on the bar:
    # the second half of the key, as GNU Backgammon writes it.
    decoded = decode_gnubg("4OvgATDgc+QBUA", "white")
    assert decoded == layout({6: 5, 8: 3, 11: 1, 13: 4, 24: 1}, {6: 5, 7: 1, 8: 3, 13: 4, 24: 2}, bar=(1, 0))
    assert decoded.on_bar("white") == 1 and decoded.on_bar("black") == 0
    # white's entry points 22 (with the 3) and 23 (with the 2) are open: black's 3- and 2-points.
    assert black_on(decoded, 22) == 0 and black_on(decoded, 23) == 0
    assert encode_gnubg(decoded, "white") == "4OvgATDgc+QBUA"


def test_position_id_after_an_opening_move() -> None:
    # backgammon-engine-kit (PyPI) consumer example: GNUID "4PPgASTgc/ABMA:cAnqAAAAAAAE".  Its match
    # ID puts player 1 on roll with 4-2 in a 7-point match; the side that already played 13/8 24/22
    # (an opening 5-2) is the one NOT on roll, and it comes first in the key.
    decoded = decode_gnubg("4PPgASTgc/ABMA", "black")
    assert decoded == layout({6: 5, 8: 4, 13: 4, 22: 1, 24: 1}, {6: 5, 8: 3, 13: 5, 24: 2})
    assert decode_gnubg("4PPgASTgc/ABMA", "white") == layout(
        {6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 4, 13: 4, 22: 1, 24: 1}
    )


def test_position_id_lists_the_side_not_on_roll_first() -> None:
    # White alone has borne off one checker: its run of ones is shorter by one, and where that
    # run sits in the key depends on which side is on roll.
    lay = layout({6: 4, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2})
    start_side = "00000" + "111110" + "0" + "1110" + "0000" + "111110" + "0" * 10 + "110" + "0"
    white = "00000" + "11110" + "0" + "1110" + "0000" + "111110" + "0" * 10 + "110" + "0"
    assert encode_gnubg(lay, "black") == gnubg_id((white + start_side).ljust(80, "0"))
    assert encode_gnubg(lay, "white") == gnubg_id((start_side + white).ljust(80, "0"))


def test_position_id_of_all_checkers_off_and_of_a_full_key() -> None:
    # An all-zero key is both sides borne off: a finished game can have only one such side, so it is refused.
    with pytest.raises(StateError, match="both sides have borne off"):
        decode_gnubg("A" * 14, "black")
    # White borne off, black's one checker on its ace point: the key's only 1-bit is black's first slot. Black is
    # on roll, so white (not on roll) comes first: 25 zero bits (white's empty slots), then '10' for black's
    # 1-point; bit 25 is bit 1 of byte 3 (value 2), so the bytes are 00 00 00 02 00 ...: Base64 'AAAAAgAAAAAAAA'.
    one = Layout("backgammon", (0,) * 24, (1,) + (0,) * 23, off=(15, 14))
    assert encode_gnubg(one, "black") == "AAAAAgAAAAAAAA"
    assert decode_gnubg("AAAAAgAAAAAAAA", "black") == one
    # 15 + 15 checkers on the board use all 80 bits (30 ones and 50 zeros).
    full = layout({1: 15}, {1: 15})
    assert decode_gnubg(encode_gnubg(full, "white"), "white") == full


# --- XGIDs ---------------------------------------------------------------------------------------


def test_start_xgid() -> None:
    # The starting position as eXtreme Gammon writes it; GNU Backgammon's XGID reader (set.c SetXGID,
    # positionid.c PositionFromXG) takes 'b' at XGID point 1 as the lowercase player's 24-point.
    assert decode_xgid(START_XGID) == (START, "white", None)
    assert decode_xgid(START_XGID.removeprefix("XGID=")) == (START, "white", None)
    assert encode_xgid(START, "white") == START_XGID


def test_xgid_with_dice() -> None:
    # ch-suginami/MakeGammonBoard README: the start of a 7-point match at 0-0, the bottom (white)
    # player on roll with 6-4.
    assert decode_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:64:0:0:0:7:3") == (START, "white", (6, 4))
    assert encode_xgid(START, "white", (6, 4)) == "XGID=-b----E-C---eE---c-e----B-:0:0:1:64:0:0:0:0:10"


def test_nackgammon_start_xgid() -> None:
    # Fortuitous/CubeViz bglog (js/bgLog/bglogCore-2010C-JB-CC-svg.js), xgNackStartPos: the
    # Nackgammon start, 2 checkers each on the 24- and 23-points, 4 on the 13, 3 on the 8, 4 on the 6.
    nack = {6: 4, 8: 3, 13: 4, 23: 2, 24: 2}
    xgid = "XGID=-bb---D-C---dD---c-d---BB-:0:0:1:00:0:0:0:0:10"
    assert decode_xgid(xgid) == (layout(nack, nack), "white", None)
    assert encode_xgid(layout(nack, nack), "white") == xgid


def test_xgid_bar_checker_and_xg_moves() -> None:
    # ayanovsk/test_ass22 ilia/IG_test_deck_1.js, exported from eXtreme Gammon with its analysis:
    # the bottom player rolled 5-2 and XG's candidate plays are Bar/20 8/6, Bar/18, Bar/23 6/1*.
    lay, turn, dice = decode_xgid("XGID=-aa--CCBCa--ca---a-c-bb-CA:0:0:1:52:0:1:0:5:10")
    assert (turn, dice) == ("white", (5, 2))
    assert lay.bar == (1, 0)  # the last character is white's (the bottom player's) bar
    assert [black_on(lay, p) for p in (18, 20, 23)] == [0, 0, 0]  # where XG enters and lands
    assert black_on(lay, 21) >= 2 and black_on(lay, 22) >= 2  # closed: no entering with a 4 or a 3
    assert black_on(lay, 1) == 1  # the blot XG hits with 6/1*
    assert lay.white[5] >= 1 and lay.white[7] >= 1  # the checkers XG plays from the 6- and 8-points
    assert lay.off == (0, 0)


def test_xgid_top_player_on_roll() -> None:
    # Same deck: a cube decision for the top player (turn -1) at 2-4 in a 7-point match.
    lay, turn, dice = decode_xgid("XGID=-----bFCB---bB---c-ccA-bA-:0:0:-1:00:2:4:0:7:10")
    assert (turn, dice) == ("black", None)
    assert lay == layout({6: 6, 7: 3, 8: 2, 13: 2, 21: 1, 24: 1}, {2: 2, 5: 3, 6: 3, 8: 3, 13: 2, 20: 2})
    assert decode_xgid(encode_xgid(lay, "black"))[:2] == (lay, "black")


def test_xgid_bearoff_position() -> None:
    # backgammon-engine-kit (PyPI) README quick start: XGID=-A-B--A---------------d---, a
    # bear-off with 4 white checkers (on its 1-, 3- and 6-points) against 4 black on its 3-point.
    lay, turn, dice = decode_xgid("XGID=-A-B--A---------------d---:0:0:1:00:0:0:0:0:10")
    assert lay == layout({1: 1, 3: 2, 6: 1}, {3: 4})
    assert lay.off == (11, 11)
    assert (turn, dice) == ("white", None)


def test_xgid_cube_pending_has_no_dice() -> None:
    for code in ("D", "B", "R"):
        assert decode_xgid(START_XGID.replace(":00:", f":{code}:")) == (START, "white", None)


def test_xgid_without_max_cube_field_and_turn_zero() -> None:
    assert decode_xgid("-b----E-C---eE---c-e----B-:0:0:-1:31:0:0:0:0") == (START, "black", (3, 1))
    assert decode_xgid(START_XGID.replace(":0:0:1:", ":0:0:0:")) == (START, None, None)


# --- round trips ---------------------------------------------------------------------------------


def random_layout(rng: random.Random) -> Layout:
    """A legal backgammon layout: each side's 15 checkers spread over points, bar and off."""
    counts: dict[Side, list[int]] = {}
    for side in SIDES:
        slots = [0] * 26  # points 1-24, bar, off
        spread = rng.choice((2, 6, 24))  # crowded, medium or spread-out boards
        for _ in range(CHECKERS):
            while True:
                where = rng.choice(range(26)) if rng.random() < 0.15 else rng.randrange(spread)
                blocked = side == "black" and where < 24 and counts["white"][mirror("backgammon", where + 1) - 1]
                if not blocked:
                    break
            slots[where] += 1
        counts[side] = slots
    lay = Layout(
        "backgammon",
        tuple(counts["white"][:24]),
        tuple(counts["black"][:24]),
        bar=(counts["white"][24], counts["black"][24]),
        off=(counts["white"][25], counts["black"][25]),
    )
    lay.validate()
    return lay


def swap_colours(lay: Layout) -> Layout:
    return Layout(lay.game, lay.black, lay.white, bar=lay.bar[::-1], off=lay.off[::-1])


@settings(max_examples=400, derandomize=True)
@given(st.randoms(use_true_random=False), st.sampled_from(SIDES))
def test_gnubg_round_trip(rng: random.Random, turn: Side) -> None:
    lay = random_layout(rng)
    pid = encode_gnubg(lay, turn)
    assert len(pid) == 14
    assert decode_gnubg(pid, turn) == lay
    # The ID only knows "on roll" and "not on roll", never colours.
    assert encode_gnubg(swap_colours(lay), "black" if turn == "white" else "white") == pid


@settings(max_examples=400, derandomize=True)
@given(
    st.randoms(use_true_random=False),
    st.sampled_from(SIDES),
    st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)),
)
def test_xgid_round_trip(rng: random.Random, turn: Side, dice: tuple[int, int] | None) -> None:
    lay = random_layout(rng)
    xgid = encode_xgid(lay, turn, dice)
    assert xgid.startswith("XGID=") and len(xgid.split(":")[0]) == 5 + 26
    assert decode_xgid(xgid) == (lay, turn, dice)


def test_plain_random_round_trip_fixed_seed() -> None:
    rng = random.Random(20240531)
    for _ in range(500):
        lay = random_layout(rng)
        turn: Side = rng.choice(SIDES)
        pid = encode_gnubg(lay, turn)
        assert decode_gnubg(pid, turn) == lay
        # both formats carry the same layout
        assert decode_xgid(encode_xgid(lay, turn))[0] == decode_gnubg(pid, turn)


# --- malformed input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pid", "message"),
    [
        ("4HPwATDgc/ABM", "14 characters"),
        ("4HPwATDgc/ABMAA", "14 characters"),
        ("", "14 characters"),
        ("4HPwATDgc/AB!A", "outside Base64"),
        ("4HPwATDgc-ABMA", "outside Base64"),
        ("4HPwATDgc/ABMB", "padding bits"),
        ("/" * 14, "padding bits"),
        ("/" * 13 + "w", "ends before"),  # 80 ones: never a closing 0
        (gnubg_id("1" * 16 + "0" * 50), "16 checkers on the board and bar, more than 15"),
        (gnubg_id("0" * 60 + "1"), "beyond both sides"),
        # the side not on roll (black) on its 1-point, white on its 24-point: the same point
        (gnubg_id("10" + "0" * 24 + "0" * 23 + "10" + "0"), "holds checkers of both sides"),
    ],
)
def test_malformed_position_ids(pid: str, message: str) -> None:
    with pytest.raises(StateError, match=message):
        decode_gnubg(pid, "white")


def test_position_id_needs_a_side_on_roll() -> None:
    with pytest.raises(StateError, match="turn must be white or black"):
        decode_gnubg(START_GNUBG, "red")  # type: ignore[arg-type]
    with pytest.raises(StateError, match="turn must be white or black"):
        encode_gnubg(START, "X")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("xgid", "message"),
    [
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0", "7 fields"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10:1", "11 fields"),
        ("XGID=-b----E-C---eE---c-e---B-:0:0:1:00:0:0:0:0:10", "25 characters, expected 26"),
        ("XGID=-b----E-C---eE---c-e----B-x:0:0:1:00:0:0:0:0:10", "27 characters, expected 26"),
        ("XGID=-z----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "bad character 'z' at point 1"),
        ("XGID=-b----P-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "bad character 'P' at point 6"),
        ("XGID=Ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "bad character 'A' at black's bar"),
        ("XGID=-b----E-C---eE---c-e----Ba:0:0:1:00:0:0:0:0:10", "bad character 'a' at white's bar"),
        ("XGID=-b----F-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "white has 16 checkers"),
        ("XGID=ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "black has 16 checkers"),
        ("XGID=-b----E-C---eE---c-e----B-:x:0:1:00:0:0:0:0:10", "cube exponent 'x' is not a whole number"),
        ("XGID=-b----E-C---eE---c-e----B-:0:2:1:00:0:0:0:0:10", r"cube owner 2 is out of range"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:2:00:0:0:0:0:10", "turn '2'"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:07:0:0:0:0:10", "dice '07'"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:5:0:0:0:0:10", "dice '5'"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:X:0:0:0:0:10", "dice 'X'"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:0:31:0:0:0:0:10", "no side is on turn"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:-1:0:0:0:10", "white's score -1 is out of range"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:4:0:10", "Crawford/Jacoby field 4"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:x:10", "match length 'x'"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:99", "maximum cube exponent 99"),
    ],
)
def test_malformed_xgids(xgid: str, message: str) -> None:
    with pytest.raises(StateError, match=message):
        decode_xgid(xgid)


def test_xgid_must_be_text() -> None:
    with pytest.raises(StateError, match="must be a string"):
        decode_xgid(None)  # type: ignore[arg-type]


def test_encoders_reject_impossible_input() -> None:
    with pytest.raises(StateError, match="dice must be two numbers 1-6"):
        encode_xgid(START, "white", (7, 1))
    with pytest.raises(StateError, match="dice must be two numbers 1-6"):
        encode_xgid(START, "white", (3,))
    with pytest.raises(StateError, match="not narde"):
        encode_gnubg(start_layout("narde"), "white")
    with pytest.raises(StateError, match="not crazy-narde"):
        encode_xgid(start_layout("crazy-narde"), "white")
    fourteen = Layout("backgammon", START.white[:-1] + (1,), START.black)  # white's 15th checker is missing
    with pytest.raises(StateError, match="white has 14 checkers"):
        encode_gnubg(fourteen, "white")
    with pytest.raises(StateError, match="white has 14 checkers"):
        encode_xgid(fourteen, "white")


def test_an_xgid_carries_the_cube_and_the_match_when_given():
    """Fields as eXtreme Gammon writes them: cube exponent, owner (1 white, -1 black), turn, dice, white's score,
    black's, 1 for the Crawford game, the length; the decoder reads the position and turn back."""
    xgid = encode_xgid(START, "black", (3, 1), Cube(4, "black"), Match(5, (2, 4), crawford=True))
    assert xgid.split(":")[1:] == ["2", "-1", "-1", "31", "2", "4", "1", "5", "10"]
    assert decode_xgid(xgid) == (START, "black", (3, 1))
    assert encode_xgid(START, "white", cube=Cube(2, "white")).split(":")[1:3] == ["1", "1"]
