"""`gammonspec perft`: the published tables, the oracles behind them, divide, bisection, jobs and shards.

Depth 1 of every table is checked here against the independent oracles and the reference engine;
the deeper rows run in tests/soak (`python tests/perft_independent.py --check`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import perft_independent
import pytest
from gammonspec.conformance import cli
from gammonspec.conformance.tools.perft import ROLLS, Node, Perft, published, roll_text
from gammonspec.model.rulesets import rulesets
from gammonspec.model.state import State, start_layout
from gammonspec.reference import ReferenceEngine

MUTANT = f"{sys.executable} {Path(__file__).parent / 'engines' / 'mutant_engine.py'}"


def test_every_ruleset_has_a_published_table_to_depth_two():
    tables = published()
    assert set(tables) == set(rulesets())
    for table in tables.values():
        assert {1, 2} <= set(table.depths)
        for row in table.depths.values():
            assert sum(c[0] for c in row["rolls"].values()) == row["positions"]
            assert sum(c[1] for c in row["rolls"].values()) == row["weighted"]


@pytest.mark.parametrize("name", sorted(rulesets()))
def test_depth_one_agrees_with_the_independent_oracle_and_the_reference(name):
    row = published()[name].depths[1]
    n, w, by_roll = perft_independent.perft(name, 1)
    assert {k: list(v) for k, v in by_roll.items()} == row["rolls"] and (n, w) == (row["positions"], row["weighted"])
    rs = rulesets()[name]
    reference = Perft(ReferenceEngine(), rs.rules())
    start = Node.start(rs.game)
    counted = {roll_text(r): reference.roll_count(start, r, 1) for r in ROLLS if roll_text(r) in row["rolls"]}
    assert {k: [c.positions, c.weighted * (1 if k[0] == k[2] else 2)] for k, c in counted.items()} == row["rolls"]


def test_the_opening_roll_is_never_a_double_under_play_lead_dice():
    for name, rs in rulesets().items():
        first = published()[name].depths[1]["rolls"]
        doubles = {roll_text((d, d)) for d in range(1, 7)}
        if rs.switches["opening"] == "play-lead-dice":
            assert not doubles & set(first), name
        else:
            assert doubles <= set(first), name


def test_perft_prints_counts_and_agrees_with_the_table(capsys):
    assert cli.main(["perft", "--ruleset", "narde-guide", "--depth", "2", "--divide"]) == 0
    out = capsys.readouterr().out
    assert "narde-guide: depth 2 from the start: 330 positions, 1110 over 36 rolls" in out
    assert "    24/21 " in out and "agree with the published table" in out


def test_divide_bisects_a_planted_bug_to_its_position_and_roll(capsys):
    engine = f"{MUTANT} head-exception-any-double"
    assert cli.main(["perft", "--ruleset", "narde-guide", "-d", "2", "--engine-cmd", engine]) == 1
    out = capsys.readouterr().out
    assert "(reference: 330, 1110)" in out
    assert "after 2-1: 24/21\nblack to play 1-1:" in out  # the first roll and play whose subtree differs
    assert "extra (2): 24/22(2) | 24/23 24/21" in out  # two checkers off the head on a 1-1: the planted bug
    state = json.loads(out.split("state: ")[1].splitlines()[0])
    assert state["turn"] == "black" and state["dice"] == [1, 1] and state["context"]["first_turn"] is True


def test_an_engine_that_agrees_passes(capsys):
    assert cli.main(["perft", "--ruleset", "gul-bara", "-d", "1", "--engine", "reference"]) == 0
    assert "(reference: 53, 83)" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args, message",
    [
        (["--xgid", "XGID=nonsense"], "--xgid"),
        (["--ruleset", "narde-guide", "--xgid", "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"], "game"),
        (["--ruleset", "nope"], "unknown ruleset nope"),
        (["--engine", "no_such_module:Engine"], "no_such_module"),
    ],
)
def test_bad_input_is_one_line_and_exit_two(args, message, capsys):
    assert cli.main(["perft", "-d", "1", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_state_file_that_is_not_json_names_the_file(tmp_path, capsys):
    bad = tmp_path / "state.json"
    bad.write_text("{not json")
    assert cli.main(["perft", "-d", "1", "--state", str(bad)]) == 2
    assert f"{bad}:1: not JSON" in capsys.readouterr().err


START = json.dumps(State(start_layout("backgammon"), "white", (6, 5)).to_wire())


@pytest.mark.parametrize(
    "text, message",
    [
        (START.replace('"rolls_in_game": 0', '"rolls_in_game": NaN'), "context/rolls_in_game: nan is not of type"),
        (START.replace('"value": 1', '"value": Infinity'), "cube/value: inf is not one of"),
        (START.replace('"dice": [6, 5]', '"dice": [6.5, 5]'), "dice/0: 6.5 is not of type 'integer'"),
        (START.replace('"white": [0, 0, 0, 0, 0, 5', '"white": ["0", 0, 0, 0, 0, 5'), "position/white/0: '0' is not"),
        (START.replace('"dice": [6, 5]', '"dice": [' + "9" * 5001 + ", 5]"), "an integer of over 4,300 digits"),
        ("[" * 100_000 + "]" * 100_000, "nested too deep"),
        ("[1, 2]", "(top): [1, 2] is not of type 'object'"),
    ],
)
def test_a_state_file_not_as_the_protocol_says_names_the_file_and_field(tmp_path, capsys, text, message):
    bad = tmp_path / "state.json"
    bad.write_text(text)
    assert cli.main(["perft", "-d", "1", "--state", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"gammonspec: {bad}: not a protocol state: ") and message in err, err
    assert len(err.splitlines()) == 1


def test_the_state_of_these_checks_is_counted(tmp_path, capsys):
    good = tmp_path / "state.json"
    good.write_text(START)
    assert cli.main(["perft", "-d", "1", "--state", str(good)]) == 0


@pytest.mark.parametrize("option", [["--shard", "3/2"], ["--jobs", "0"], ["--depth", "0"]])
def test_bad_scale_options_are_usage_errors(option, capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["perft", *option])
    assert exit_.value.code == 2 and option[0] in capsys.readouterr().err


def test_a_state_file_with_only_what_perft_reads_is_counted(tmp_path, capsys):
    """spec/perft.md: the state's dice and segment are ignored, so a file may leave them (and the rest) out."""
    data = json.loads(START)
    for field in ("dice", "context", "cube", "match", "segment"):
        del data[field]
    small = tmp_path / "state.json"
    small.write_text(json.dumps(data))
    assert cli.main(["perft", "-d", "1", "--state", str(small)]) == 0


def test_a_bear_off_or_a_hit_reads_as_the_movers_play_alone():
    """The other side is named only where its own checkers were played (passed numbers), not where the mover
    bore off or hit (this read '6/off; black: <not a play from this position: ...>')."""
    from gammonspec.conformance.tools.perft import play_text
    from gammonspec.model.notation import apply
    from gammonspec.model.state import Layout

    white, black = [0] * 24, [0] * 24
    white[5], white[0], white[12], black[17], black[23] = 2, 1, 1, 1, 1  # black's 18 is white's 7
    before = Layout("backgammon", tuple(white), tuple(black))
    assert play_text(before, apply(before, "white", "6/off"), "white") == "6/off"
    assert play_text(before, apply(before, "white", "13/7*"), "white") == "13/7*"


def test_a_depth_past_the_limit_is_refused_in_one_line(capsys):
    from gammonspec.conformance import cli

    with pytest.raises(SystemExit) as info:
        cli.main(["perft", "--depth", "9"])
    assert info.value.code == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "9 plies: at most 4" in line
