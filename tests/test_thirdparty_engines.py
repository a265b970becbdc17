"""The adapters to the engines from the package index added for issue 28, on positions worked out by hand from each
engine's own source, and the report of an engine that cannot be driven."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from gammonspec.conformance import cli
from gammonspec.conformance.harness.loading import load_engine
from gammonspec.model.interface import EngineLoadError
from gammonspec.model.state import Layout

HEAD_ONLY = tuple([0] * 23 + [15])  # fifteen on the 24-point, the Narde start


def _narde(white: dict[int, int], black: dict[int, int], off: tuple[int, int] = (0, 0)) -> Layout:
    return Layout("narde", *(tuple(side.get(p, 0) for p in range(1, 25)) for side in (white, black)), (0, 0), off)


@pytest.fixture(scope="module")
def nard():
    pytest.importorskip("nard_backgammon", reason="the nard-backgammon extra is not installed")
    return load_engine("nard-backgammon")


@pytest.mark.parametrize("side", ["white", "black"])
def test_nard_backgammon_has_no_head_rule(nard, side):
    """From the start, 6-5: board.py:129-141 offers every number from the head, so besides 24/13 the engine
    plays two checkers off the head (24/18 24/19), which the head rule forbids."""
    start = Layout("narde", HEAD_ONLY, HEAD_ONLY)
    found = {p.points(side) for p in nard.plays(start, side, 6, 5)}
    one = tuple(1 if p == 13 else 14 if p == 24 else 0 for p in range(1, 25))
    two = tuple(1 if p in (18, 19) else 13 if p == 24 else 0 for p in range(1, 25))
    assert found == {one, two}
    assert all(p.points("black" if side == "white" else "white") == HEAD_ONLY for p in nard.plays(start, side, 6, 5))


def test_nard_backgammon_bears_off_with_a_smaller_number(nard):
    """White's last checker on its 6-point, black on white's 5 and 4 (black's 17 and 16), roll 2-1: no ordinary
    move, so board.py:156-157 offers a bear-off with either number; the rules leave the checker where it is."""
    before = _narde({6: 1}, {17: 1, 16: 1, 24: 13}, off=(14, 0))
    assert nard.plays(before, "white", 2, 1) == [_narde({}, {17: 1, 16: 1, 24: 13}, off=(15, 0))]


def test_nard_backgammon_doubles_from_the_start(nard):
    """3-3 from the start: four threes, any number of them off the head, none to white's 12 (black's head)."""
    start = Layout("narde", HEAD_ONLY, HEAD_ONLY)
    found = {p.white for p in nard.plays(start, "white", 3, 3)}
    expected = [{21: 4, 24: 11}, {18: 1, 21: 2, 24: 12}, {18: 2, 24: 13}, {15: 1, 21: 1, 24: 13}]
    assert found == {tuple(e.get(p, 0) for p in range(1, 25)) for e in expected}


def test_an_engine_that_cannot_be_driven_gets_a_report_saying_why(tmp_path, capsys):
    assert cli.main(["report", "--out", str(tmp_path), "open-spiel"]) == 1  # nothing was checked
    data = json.loads((tmp_path / "open-spiel.json").read_text())
    assert "no SetState binding" in data["not_driven"]
    assert data["results"] == [] and data["summary"]["total"] == 0 and data["identified"] == []
    assert data["engine"]["rulesets"] == [] and data["engine"]["adapter"] == "open-spiel"
    assert "open-spiel.json: not driven: pyspiel cannot be set" in capsys.readouterr().out


def test_pg_backgammon_is_reported_as_needing_python_3_14(tmp_path, capsys):
    assert cli.main(["report", "--out", str(tmp_path), "pg-backgammon"]) == 1
    data = json.loads((tmp_path / "pg-backgammon.json").read_text())
    assert "NameError: name 'Player' is not defined at backgammon.py:55" in data["not_driven"]
    assert data["engine"]["version"] == "0.1.1" and data["results"] == [] and data["history"][0]["not_driven"]
    assert "pg-backgammon.json: not driven: needs Python 3.14" in capsys.readouterr().out


def test_pg_backgammon_does_not_import_before_python_3_14(tmp_path):
    """The reason engines/pg_backgammon.py gives, checked on the wheel: `-> Player` inside class Player
    (backgammon.py:55) is evaluated when the method is defined, before the class exists, on Python 3.13 and
    before.  GAMMONSPEC_PG_BACKGAMMON_PATH names a folder it was installed into with its dependency multiset
    (`pip install --ignore-requires-python --no-deps --target DIR pg-backgammon multiset`)."""
    folder = os.environ.get("GAMMONSPEC_PG_BACKGAMMON_PATH")
    if not folder or not (Path(folder) / "pg_backgammon").is_dir():
        pytest.skip("set GAMMONSPEC_PG_BACKGAMMON_PATH to a folder pg-backgammon and multiset are installed into")
    if sys.version_info >= (3, 14):
        pytest.skip("Python 3.14 defers annotations: there the module may import")
    env = {**os.environ, "PYTHONPATH": folder}
    done = subprocess.run(
        [sys.executable, "-c", "import pg_backgammon.backgammon"], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == "NameError: name 'Player' is not defined"
    assert 'backgammon.py", line 55, in Player' in done.stderr


def _bg(white: dict[int, int], black: dict[int, int]) -> Layout:
    """A backgammon layout; what is not on the board is borne off."""
    w, b = (tuple(side.get(p, 0) for p in range(1, 25)) for side in (white, black))
    return Layout("backgammon", w, b, (0, 0), (15 - sum(w), 15 - sum(b)))


def test_gnubg_wheel_loses_the_steps_after_a_bear_off():
    """White's last two on its 6 and 1, roll 6-1.  By hand two positions can follow: 6/off 1/off (none left)
    and 6/5 5/off (one left on the 1).  The wheel writes the first as `(6,)`, ending at the bear-off, so the
    adapter sees 6/off alone, which leaves the same position as the second: the empty board is lost."""
    pytest.importorskip("gnubg", reason="the gnubg extra is not installed")
    engine = load_engine("gnubg")
    before = _bg({6: 1, 1: 1}, {1: 2})
    assert engine.plays(before, "white", 6, 1) == [_bg({1: 1}, {1: 2})]


def test_magmacrunch_offers_one_number_when_both_can_be_played():
    """White's one checker on its 8, black's two on white's 2 (black's 23), roll 6-1: 8/2 is blocked, so by hand
    the only play is 8/7 7/1; from the start, 6-5 allows 24/13 (run a back checker)."""
    pytest.importorskip("backgammon.rules", reason="the magmacrunch-backgammon extra is not installed")
    engine = load_engine("magmacrunch-backgammon")
    before = _bg({8: 1}, {23: 2})
    assert engine.plays(before, "white", 6, 1) == [_bg({1: 1}, {23: 2})]
    start = _bg({24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})
    assert _bg({24: 1, 13: 6, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5}) in engine.plays(start, "white", 6, 5)


def test_gym_backgammon_misses_a_checker_stepped_down_and_borne_off():
    """Black's last two checkers on its 4-point, roll 1-1.  By hand the four ones split 4-0, 3-1 or 2-2 between
    the two checkers: one borne off (4/3/2/1/off, the other stays), one on the 3 and one on the 1, or both on
    the 2.  gym-backgammon offers the last two only (found by fuzz; engines/gym_backgammon.py says where)."""
    pytest.importorskip("gym_backgammon", reason="the gym-backgammon extra is not installed")
    engine = load_engine("gym-backgammon")
    before = _bg({6: 1}, {4: 2})
    both_home = [_bg({6: 1}, {1: 1, 3: 1}), _bg({6: 1}, {2: 2})]
    assert engine.plays(before, "black", 1, 1) == sorted(both_home)
    start = _bg({24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})
    assert _bg({24: 1, 13: 6, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5}) in engine.plays(start, "white", 6, 5)


@pytest.fixture(scope="module")
def gnubg_cli():
    try:
        return load_engine("gnubg-cli")
    except EngineLoadError as exc:
        pytest.skip(str(exc))


def test_gnubg_program_lists_the_plays_the_wheel_loses(gnubg_cli):
    """The wheel's case above (white's last two on its 6 and 1, roll 6-1): by hand 6/off 1/off empties the
    board and 6/5/off leaves one on the 1; the program lists both."""
    before = _bg({6: 1, 1: 1}, {1: 2})
    assert gnubg_cli.plays(before, "white", 6, 1) == sorted([_bg({}, {1: 2}), _bg({1: 1}, {1: 2})])


def test_gnubg_program_lists_a_forced_play_and_none(gnubg_cli):
    """White's one checker on its 8, black's two on white's 2, roll 6-1: 8/2 is blocked, so by hand the only
    play is 8/7/1 (gnubg plays forced moves itself unless told not to).  On the bar against a closed board,
    6-6: no play, so the position stays."""
    assert gnubg_cli.plays(_bg({8: 1}, {23: 2}), "white", 6, 1) == [_bg({1: 1}, {23: 2})]
    closed = Layout("backgammon", (0,) * 24, (2,) * 6 + (0,) * 17 + (3,), (1, 0), (14, 0))
    assert gnubg_cli.plays(closed, "white", 6, 6) == []


def test_willse_plays_either_number_when_only_one_can_be_played():
    """White's last checker on its 13, black's two on white's 2 (black's 23), roll 6-5: 13/7/2 and 13/8/2 are
    blocked, so by hand only the higher number may be played, 13/7; willse-backgammon also offers 13/8."""
    pytest.importorskip("willse_backgammon", reason="the willse-backgammon extra is not installed")
    engine = load_engine("willse-backgammon")
    before = _bg({13: 1}, {23: 2})
    assert engine.plays(before, "white", 6, 5) == sorted([_bg({7: 1}, {23: 2}), _bg({8: 1}, {23: 2})])
    mirrored = _bg({23: 2}, {13: 1})  # the same for black
    assert engine.plays(mirrored, "black", 6, 5) == sorted([_bg({23: 2}, {7: 1}), _bg({23: 2}, {8: 1})])


def test_pygammon_counts_steps_only(tmp_path):
    """White's last checker on its 13, black's two on white's 2, roll 6-5: by hand only 13/7 (the higher number);
    pygammon, which only counts the steps a turn must take, also offers 13/8.  Its wheel's top-level `tests`
    package would hide ours, so it is asked in a child process with GAMMONSPEC_PYGAMMON_PATH (a folder it was
    installed into: `pip install --target DIR pygammon`) on its path."""
    folder = os.environ.get("GAMMONSPEC_PYGAMMON_PATH")
    if not folder or not (Path(folder) / "pygammon").is_dir():
        pytest.skip("set GAMMONSPEC_PYGAMMON_PATH to a folder pygammon is installed into (pip install --target)")
    script = (
        "from gammonspec.conformance.harness.loading import load_engine\n"
        "from gammonspec.model.state import Layout\n"
        "w, b = tuple(1 if p == 13 else 0 for p in range(1, 25)), tuple(2 if p == 23 else 0 for p in range(1, 25))\n"
        "before = Layout('backgammon', w, b, (0, 0), (14, 13))\n"
        "print(sorted(p.white.index(1) + 1 for p in load_engine('pygammon').plays(before, 'white', 6, 5)))\n"
    )
    env = {**os.environ, "PYTHONPATH": folder}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[7,", "8]"]
