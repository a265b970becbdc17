"""Cross-check the reference engine's backgammon move generator against two independent ones.

gnubg-nn (`moves`) and bgsage (`possible_moves`) each list every distinct position a legal play of a
roll can leave; the reference engine must give exactly the same set for every random position and
roll drawn here (tests/crosscheck_gnubg.py makes them and converts between the board formats).
Both packages are the optional extra `crosscheck` (`pip install -e .[crosscheck]`); each test is
skipped when its package is absent.

GAMMONSPEC_CROSSCHECK_N (default 10000) sets the number of positions, GAMMONSPEC_CROSSCHECK_SEED
(default 20240601) the seed.  On a mismatch the test prints the board, its GNU Backgammon Position
ID, the roll and the plays each generator alone gives (run with -s, or read the failure message).
"""

from __future__ import annotations

import importlib.util
import os
from functools import cache

import crosscheck_gnubg as cc
import pytest
from gammonspec.model.position_ids import encode_gnubg
from gammonspec.model.state import CHECKERS, Layout, other, start_layout

EXTRA = "the optional extra 'crosscheck' (pip install -e .[crosscheck])"
if not any(importlib.util.find_spec(m) for m in ("gnubg_nn", "bgsage")):
    pytest.skip(f"neither gnubg-nn nor bgsage is installed: they are {EXTRA}", allow_module_level=True)

N = int(os.environ.get("GAMMONSPEC_CROSSCHECK_N", "10000"))
SEED = int(os.environ.get("GAMMONSPEC_CROSSCHECK_SEED", "20240601"))
SHOW = 20  # mismatches printed in full


def _import(name: str):
    return pytest.importorskip(name, reason=f"{name} is not installed: it is part of {EXTRA}")


@cache
def _cases() -> tuple[tuple[cc.Sample, frozenset[Layout]], ...]:
    """The samples and the reference engine's answer to each, computed once for all the tests here."""
    rules = cc.bg_rules()
    return tuple(
        (s, frozenset(cc.reference_plays(s.layout, s.side, s.dice, rules))) for s in cc.samples(SEED, N, rules)
    )


def _fail(name: str, bad: list[str], total: int) -> None:
    shown = "\n\n".join(bad[:SHOW])
    print(shown)
    pytest.fail(f"{len(bad)} of {total} positions: the reference engine and {name} disagree\n\n{shown}", pytrace=False)


def _pips(layout: Layout, side: str) -> int:
    return sum(p * n for p, n in enumerate(layout.points(side), 1)) + 25 * layout.on_bar(side)


def test_sample_mix_covers_the_hard_cases() -> None:
    """The random positions reach what the move rules are about, often enough to matter."""
    counts = dict.fromkeys(("doubles", "bar", "hit", "bear-off", "no-play", "partial", "kinds"), 0)
    for s, plays in _cases():
        me, opp = s.side, other(s.side)
        counts["doubles"] += s.dice[0] == s.dice[1]
        counts["bar"] += s.layout.on_bar(me) > 0
        counts["hit"] += any(p.on_bar(opp) > s.layout.on_bar(opp) for p in plays)
        counts["bear-off"] += any(p.borne_off(me) > s.layout.borne_off(me) for p in plays)
        counts["no-play"] += plays == {s.layout}
        # a play that moves fewer pips than the roll without bearing off: some number was lost
        full = sum(s.dice) * (2 if s.dice[0] == s.dice[1] else 1)
        counts["partial"] += any(
            p != s.layout and p.borne_off(me) == s.layout.borne_off(me) and _pips(s.layout, me) - _pips(p, me) < full
            for p in plays
        )
    counts["kinds"] = len({s.kind for s, _ in _cases()})
    print(counts)
    assert counts["kinds"] == 5
    for what in ("doubles", "bar", "hit", "bear-off", "no-play", "partial"):
        assert counts[what] >= N // 50, f"only {counts[what]} of {N} samples exercise {what}: {counts}"


def test_gnubg_board_conversion() -> None:
    """Our gnubg boards give the same Position IDs as our own encoder, and convert back unchanged."""
    gnubg_nn = _import("gnubg_nn")
    assert gnubg_nn.position_id(cc.to_gnubg(start_layout("backgammon"), "white")) == "4HPwATDgc/ABMA"
    for s, _ in _cases():
        board = cc.to_gnubg(s.layout, s.side)
        assert gnubg_nn.position_id(board) == encode_gnubg(s.layout, s.side), s
        assert cc.from_gnubg(gnubg_nn.board_from_position_key(gnubg_nn.key_of_board(board)), s.side) == s.layout


def test_bgsage_board_conversion() -> None:
    """Our bgsage boards flip to the other side's board as bgsage flips them, and convert back unchanged."""
    bgsage = _import("bgsage")
    start = start_layout("backgammon")
    assert cc.to_bgsage(start, "white") == bgsage.STARTING_BOARD == cc.to_bgsage(start, "black")
    for s, _ in _cases():
        board = cc.to_bgsage(s.layout, s.side)
        assert bgsage.flip_board(board) == cc.to_bgsage(s.layout, other(s.side)), s
        assert cc.from_bgsage(board, s.side) == s.layout


def test_reference_matches_gnubg_nn() -> None:
    gnubg_nn = _import("gnubg_nn")
    bad = []
    for s, ref in _cases():
        theirs = cc.gnubg_plays(gnubg_nn, s.layout, s.side, s.dice)
        if theirs != ref:
            bad.append(cc.explain(s, {"reference": set(ref), "gnubg-nn": theirs}))
    if bad:
        _fail("gnubg-nn", bad, N)


def bgsage_last_checker_extra(s: cc.Sample, ref: frozenset[Layout], theirs: set[Layout]) -> bool:
    """bgsage's one known deviation: it also lists bearing off the LAST checker with one number when
    the other order plays both (the first number hits on the way, e.g. 2/1*/off with 6-1).  Those
    one-number plays are illegal (bg.move.both-numbers: a play must use as many numbers as any
    sequence can); gnubg-nn and the reference engine leave them out.  Everything else must match."""
    extra = theirs - ref
    return bool(extra) and ref < theirs and all(p.borne_off(s.side) == CHECKERS for p in extra | ref)


def test_reference_matches_bgsage() -> None:
    bgsage = _import("bgsage")
    bad, known = [], []
    for s, ref in _cases():
        theirs = cc.bgsage_plays(bgsage.possible_moves, s.layout, s.side, s.dice)
        if theirs == ref:
            continue
        (known if bgsage_last_checker_extra(s, ref, theirs) else bad).append(
            cc.explain(s, {"reference": set(ref), "bgsage": theirs})
        )
    if known:
        print(f"{len(known)} positions where bgsage also bears off the last checker with one number (known, allowed):")
        print(known[0])
    if bad:
        _fail("bgsage", bad, N)
