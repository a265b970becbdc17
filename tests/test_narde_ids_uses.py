"""Where the Narde position ID is used: cases written as `nid:`, the failure output of run, fuzz and perft,
`perft --nid`, and the ID block of the case pages."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from conftest import ENGINES
from gammonspec.conformance import cli
from gammonspec.conformance.harness.cases import load_file, suite
from gammonspec.conformance.tools import fuzz, fuzz_report
from gammonspec.model.narde_ids import decode_nid, encode_nid, position_id
from gammonspec.model.rulesets import rulesets
from gammonspec.model.state import Layout, State, start_layout
from gammonspec.model.yamlio import DataError
from mutant_engine import MutantEngine

ROOT = Path(__file__).resolve().parent.parent
NARDE_CASES = ROOT / "cases" / "narde" / "position-ids.yaml"
MID_GAME = "NID1_N_3a7l1B2b2C3J_b42_f0r20h0"  # nd-nid-mid-game-black-42


def mutant_cmd(name: str) -> str:
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(ENGINES / 'mutant_engine.py'))} {name}"


# ---- cases written as a Narde position ID ---------------------------------------------------------------


def test_shipped_nid_cases_start_from_the_state_their_id_describes() -> None:
    written = {c.id: c for c in suite() if c.path.stem == "position-ids" and c.game != "backgammon"}
    assert len(written) == 5
    for case in written.values():
        nid = next(line.split("nid: ")[1] for line in case.path.read_text().splitlines()[case.line :] if "nid: " in line)
        assert case.state == decode_nid(nid) and encode_nid(case.state) == nid, case.id
    chain = written["cn-nid-chain-55-head-already-used"].state
    assert chain.segment is not None and chain.segment.numbers == (5, 5, 5, 5) and chain.context.head_moves == 1
    passed = written["cn-nid-passed-5-white-plays-it"].state
    assert passed.segment is not None and passed.segment.passed and passed.cube.owner == "white"
    assert passed.match.length == 7 and passed.match.score == (2, 4)


def test_every_shipped_narde_family_state_has_an_id_that_round_trips() -> None:
    """Each case's start and each scenario step's state: the ID a case page and a failure show is always there."""
    states = [s.state for c in suite() if c.game != "backgammon" for s in c.steps]
    assert len(states) > 500
    for state in states:
        assert decode_nid(encode_nid(state)) == state


CASE = """\
game: {game}
cases:
  - id: one
    rules: [nd.head.one-per-turn]
    title: a title
    nid: {nid}
{extra}    expect:
      plays: ["24/18"]
    derivation: by hand, from the rules
"""


@pytest.mark.parametrize(
    ("game", "nid", "extra", "line", "message"),
    [
        ("narde", "NID1_N_11oA10N_b66_f1r1h", "", 6, "case one: nid: Narde position ID 'NID1_N_11oA10N_b66_f1r1h': context"),
        ("narde", "NID1_N_11oA10P_b66_f1r1h0", "", 6, "nid: Narde position ID 'NID1_N_11oA10P_b66_f1r1h0': points: character 7"),
        ("narde", "NID1_C_11oA10N_b66_f1r1h0", "", 6, "case one: nid: a crazy-narde position in a narde file"),
        ("backgammon", "NID1_N_11oA10N_b66_f1r1h0", "", 6, "case one: nid: a narde position in a backgammon file"),
        ("narde", "NID1_N_11oA10N_b66_f1r1h0", "    turn: black\n", 7, "case one: turn: the nid carries it"),
        ("narde", "NID1_N_11oA10N_b66_f1r1h0", "    roll: [6, 6]\n", 7, "case one: roll: the nid carries it"),
        ("narde", "NID1_N_11oA10N_b66_f1r1h0", "    context: {first_turn: true}\n", 7, "case one: context: the nid"),
        ("narde", "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "", 6, "nid: 'XGID="),
    ],
)
def test_a_bad_nid_case_is_one_located_error(
    tmp_path: Path, game: str, nid: str, extra: str, line: int, message: str
) -> None:
    path = tmp_path / "nid.yaml"
    path.write_text(CASE.format(game=game, nid=nid, extra=extra))
    with pytest.raises(DataError) as refused:
        load_file(path)
    text = str(refused.value)
    assert text.startswith(f"{path}:{line}: ") and message in text and "\n" not in text


def test_a_nid_case_with_a_six_block_is_impossible_where_building_one_is_banned(tmp_path: Path) -> None:
    # white holds its 13-18 (black's 1-6) with black's 15 all behind the row: a standing six-block
    path = tmp_path / "block.yaml"
    path.write_text(CASE.format(game="narde", nid="NID1_N_11oAAAAAA5I_b21_f0r30h0", extra=""))
    with pytest.raises(DataError) as refused:
        load_file(path)
    assert str(refused.value).startswith(f"{path}:6: case one: impossible position:") and "six-block" in str(refused.value)


# ---- run, fuzz and perft print the ID ----------------------------------------------------------------------


def test_runs_failure_output_shows_the_cases_own_id(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["run", "--engine-cmd", mutant_cmd("no-head-limit"), "--cases", str(NARDE_CASES), "--case", "nd-nid-mid-*"]
    assert cli.main(args) == 1
    out = capsys.readouterr().out
    assert f"\n  {MID_GAME}\n" in out and "extra:   24/20 24/22" in out


def test_fuzz_shows_the_id_of_each_failure() -> None:
    target = rulesets()["narde-guide"]
    campaign = fuzz.fuzz(MutantEngine("no-head-limit"), [target], seed=1, count=60, max_failures=1)
    (failure,) = campaign.failures
    shown = fuzz_report.board_text(failure).splitlines()[-1]
    state = failure.state if isinstance(failure.state, State) else failure.state.state
    assert shown.startswith("NID1_N_") and decode_nid(shown) == state


def test_perft_from_the_start_written_as_an_id_meets_the_published_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["perft", "--ruleset", "narde-guide", "-d", "1", "--nid", "NID1_N_11o11O_w_f1r0h0"]) == 0
    out = capsys.readouterr().out
    assert "agree with the published table" in out and "from the start" in out


def test_perft_from_an_id_counts_that_position(capsys: pytest.CaptureFixture[str]) -> None:
    # black's first turn after white's 24/13; its dice are ignored (perft sums over every roll)
    assert cli.main(["perft", "--ruleset", "narde-guide", "-d", "1", "--nid", "NID1_N_11oA10N_b66_f1r1h0"]) == 0
    out = capsys.readouterr().out
    assert "the position given" in out and "published table" not in out


def test_perfts_bisection_shows_the_id_of_the_state_where_plays_differ(capsys: pytest.CaptureFixture[str]) -> None:
    engine = mutant_cmd("head-exception-any-double")
    assert cli.main(["perft", "--ruleset", "narde-guide", "-d", "2", "--engine-cmd", engine]) == 1
    out = capsys.readouterr().out
    state = State.from_wire(json.loads(out.split("state: ")[1].splitlines()[0]))
    ident = next(line for line in out.splitlines() if line.startswith("NID1_"))
    assert ident.startswith("NID1_N_") and decode_nid(ident) == state


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--nid", "NID1_N_11o11O"], "--nid: Narde position ID 'NID1_N_11o11O': ends after 3 of its 5 fields"),
        (["--nid", "NID1_N_11o11P_w_f1r0h0"], "--nid: Narde position ID 'NID1_N_11o11P_w_f1r0h0': points"),
        (["--ruleset", "backgammon", "--nid", "NID1_N_11o11O_w_f1r0h0"], "of the position's game, narde"),
    ],
)
def test_perft_nid_bad_input_is_one_line_and_exit_two(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["perft", "-d", "1", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_position_id_picks_the_games_own_format() -> None:
    assert position_id(State(start_layout("narde"), "white", (6, 5))) == "NID1_N_11o11O_w65_f0r0h0"
    assert position_id(State(start_layout("backgammon"), "white", (6, 5))).startswith("XGID=-b----E-C---eE---c-e----B-:")
    # a Narde position with a checker on the bar (asked under hitting=blots) has no ID: nothing is printed
    barred = Layout("narde", (0,) * 23 + (14,), start_layout("narde").black, (1, 0), (0, 0))
    assert position_id(State(barred, "white", (6, 5))) is None


# ---- the case pages ----------------------------------------------------------------------------------------


def test_case_pages_show_the_id_in_a_block_with_a_copy_button() -> None:
    sys.path.insert(0, str(ROOT / "site"))
    try:
        import case_pages
    finally:
        sys.path.remove(str(ROOT / "site"))
    by_id = {c.id: c for c in suite()}
    body = case_pages.case_body(by_id["nd-nid-mid-game-black-42"])
    at = body.index(MID_GAME)
    assert body[at - 1 : at + 2] == ["```text", MID_GAME, "```"]  # a code block: the site's copy button
    crazy = by_id["cn-chain-66-is-the-last-double"]
    assert f"```text\n{encode_nid(crazy.state)}\n```" in "\n".join(case_pages.case_body(crazy))
    backgammon = "\n".join(case_pages.case_body(by_id["bg-xgid-start-white-61"]))
    assert "XGID=-b----E-C---eE---c-e----B-:0:0:1:61" in backgammon and "NID1" not in backgammon
