"""`gammonspec ask`: the position as people have it, every ruleset's answer side by side, engines beside them.

The expected plays, next segments and results are derived by hand from the rules (each test says how); the
fixtures' positions are checked against what the exporting program printed beside them (pip counts, its own
list of plays), never against the reference engine's answer."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conftest import dedent
from gammonspec.conformance import cli
from gammonspec.model.notation import apply
from gammonspec.model.position_ids import decode_xgid
from gammonspec.model.state import Layout
from gammonspec.model.validation import compiled

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "positions"
HEAD_CASE = "nd-head-variant-first-roll-65-two-checkers"


def ask(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        status = cli.main(["ask", *argv])
    except SystemExit as exc:  # a usage error, as argparse ends it
        status = exc.code
    out, err = capsys.readouterr()
    return status, out, err


def document(capsys, *argv: str) -> dict:
    status, out, err = ask(capsys, *argv, "--json", "-")
    assert status == 0, err
    data = json.loads(out)
    assert compiled("ask").failure(data) is None
    return data


def plays(data: dict, name: str) -> set[str]:
    ruling = next(r for r in data["rulings"] if r["name"] == name)
    return {p["play"] for p in data["groups"][ruling["group"]]["answer"]["plays"]}


def answer_of(data: dict, name: str) -> dict:
    ruling = next(r for r in data["rulings"] if r["name"] == name)
    return data["groups"][ruling["group"]]["answer"]


def test_a_shipped_case_under_every_narde_ruleset_names_head_exception(capsys):
    """By hand (the case's own derivation): on the game's first roll 6-5 narde-guide lets one checker leave the
    head, 24/13 (its exception is for a first 3-3, 4-4 or 6-6), narde-variant two, also 24/18 24/19; the one
    switch that makes the difference is head-exception (nd.head.first-turn)."""
    status, out, _ = ask(capsys, "--case", HEAD_CASE)
    assert status == 0
    assert "narde-guide: 1 play\n  24/18/13\n" in out and "narde-variant: 2 plays\n  24/18 24/19\n  24/18/13\n" in out
    assert "only under narde-variant: 24/18 24/19" in out
    assert "switch head-exception: first-turn-3-4-6 under narde-guide, game-first-roll under narde-variant" in out
    data = document(capsys, "--case", HEAD_CASE)
    assert [r["name"] for r in data["rulings"]] == ["narde-guide", "narde-variant"]
    assert plays(data, "narde-guide") == {"24/18/13"} and plays(data, "narde-variant") == {"24/18/13", "24/18 24/19"}
    (difference,) = data["differences"]
    assert [(c["name"], c["alone"], c["clauses"]) for c in difference["causes"]] == [
        ("head-exception", True, ["nd.head.first-turn"])
    ]
    # the same question by its Narde position ID (spec/conventions.md: the start, white to play 6-5, first turn)
    assert data["ids"] == {"nid": "NID1_N_11o11O_w65_f1r0h0"}
    by_id = document(capsys, "NID1_N_11o11O_w65_f1r0h0")
    assert by_id["groups"] == data["groups"] and by_id["differences"] == data["differences"]


BEAR_OFF = "XGID=--AA--------------------o-:0:0:1:65:0:0:0:0:10"  # white: one on 3, one on 2; black all on its 1


def test_a_backgammon_xgid_under_two_profiles_names_bear_off(capsys, tmp_path):
    """By hand: 6-5 with checkers on 3 and 2 only. bg.bearoff.higher: the higher numbers bear both off, 3/off
    2/off; under bear-off=exact-only neither bears off and nothing moves inside home: no move. Asked as the
    ruleset and as a profile with that one value, the two differ by bear-off alone; asked as the ruleset only,
    the one flip that changes the answer is that one."""
    exact = tmp_path / "exact.yaml"
    exact.write_text("name: exact\nbase: backgammon\nswitches: {bear-off: exact-only}\n")
    plain = tmp_path / "plain.yaml"
    plain.write_text("name: plain\nbase: backgammon\nswitches: {}\n")
    data = document(capsys, BEAR_OFF, "--profile", str(plain), "--profile", str(exact))
    assert plays(data, "plain") == {"3/off 2/off"} and plays(data, "exact") == {"(no move)"}
    (difference,) = data["differences"]
    assert [(c["name"], c["values"], c["alone"]) for c in difference["causes"]] == [
        ("bear-off", ["higher-from-highest", "exact-only"], True)
    ]
    status, out, _ = ask(capsys, BEAR_OFF)
    assert status == 0 and "backgammon: 1 play\n  3/off 2/off\n" in out
    assert "backgammon with bear-off=exact-only (bg.bearoff.higher): +(no move), -3/off 2/off" in out


CHAIN = """\
    game: crazy-narde
    position:
      white: {20: 1, 1: 14}
      black: {20: 1, 2: 14}
    turn: white
    roll: [2, 2]
    segment: {owner: white, numbers: [4, 4, 4, 4]}
    """


def test_a_crazy_narde_chain_position_names_unplayable(capsys, tmp_path):
    """By hand. Black's 20 and 2 are white's 8 and 14. In the 4s of white's chain from 2-2, its 20 goes 20/16/12
    and 12/8 is closed; its 1-point checkers cannot move (not all home): two 4s of four, one play. crazy-narde
    passes the two 4s left to black (cn.unplayable.opponent-plays); gul-bara loses them and the chain ends
    (cn.unplayable.lost-ends-chain). The difference is unplayable's alone."""
    path = tmp_path / "chain.yaml"
    path.write_text(dedent(CHAIN))
    data = document(capsys, str(path))
    assert plays(data, "crazy-narde") == plays(data, "gul-bara") == {"20/16/12"}
    assert answer_of(data, "crazy-narde")["next"] == {"owner": "white", "numbers": [4, 4], "passed": True}
    assert answer_of(data, "gul-bara")["next"] is None
    ((cause,),) = [d["causes"] for d in data["differences"]]
    assert (cause["name"], cause["alone"]) == ("unplayable", True)
    status, out, _ = ask(capsys, str(path), "--no-flips")
    assert status == 0 and "then: 4-4 passed to black" in out and "then: the turn ends" in out


def test_a_position_file_may_write_the_state_as_a_narde_id(capsys, tmp_path):
    """`nid:` in a position file carries the whole state, its turn context too (the game's first roll here)."""
    path = tmp_path / "start.yaml"
    path.write_text("game: narde\nnid: NID1_N_11o11O_w65_f1r0h0\n")
    data = document(capsys, str(path), "--no-flips")
    assert data["state"]["context"] == {"first_turn": True, "rolls_in_game": 0, "head_moves": 0}
    assert plays(data, "narde-variant") == {"24/18/13", "24/18 24/19"}


def test_passed_numbers_then_the_chain_returns(capsys, tmp_path):
    """By hand, the sequel: white played 20/16/12, and black plays the two passed 4s. Black's 20 (white's 8) goes
    20/16/12 (white's 4 and 24, empty); its 2-point checkers cannot bear off (not all home): one play. Then the
    chain returns to its owner with the next double, 5-5 (cn.chain.returns). Under gul-bara nothing is ever passed:
    the position cannot occur there."""
    path = tmp_path / "passed.yaml"
    path.write_text("game: crazy-narde\nposition:\n  white: {12: 1, 1: 14}\n  black: {20: 1, 2: 14}\n")
    data = document(capsys, str(path), "--turn", "black", "--dice", "2-2", "--passed", "4-4")
    assert plays(data, "crazy-narde") == {"20/16/12"}
    assert answer_of(data, "crazy-narde")["next"] == {"owner": "white", "numbers": [5, 5, 5, 5], "passed": False}
    gul_bara = next(r for r in data["rulings"] if r["name"] == "gul-bara")
    assert gul_bara["status"] == "cannot-occur" and "unplayable=opponent-plays" in gul_bara["message"]


def _pips(layout: Layout, side: str) -> int:
    return sum(p * n for p, n in enumerate(layout.points(side), 1)) + 25 * layout.on_bar(side)


@pytest.mark.parametrize(
    "path, pips, dice, listed",
    [
        ("xg/01_checkerPosition_EN.txt", (111, 52), [2, 1], ["19/18 14/12", "19/18 3/1", "14/11", "14/12 3/2"]),
        ("xg/01_checkerPosition_FR.txt", (111, 52), [2, 1], ["19/18 14/12"]),
        ("bgblitz/01_checkerPosition_EN.txt", (111, 52), [2, 1], ["19/18 14/12", "19/17 18/17", "14/11"]),
        ("bgblitz/01_checkerPosition_DE.txt", (111, 52), [2, 1], ["19/18 14/12"]),
        ("xg/03_DT_EN.txt", (139, 156), [], []),
        ("bgblitz/03_DT_EN.txt", (139, 156), [], []),
    ],
)
def test_real_position_exports(capsys, path, pips, dice, listed):
    """Each export is read as the program printed it: the pip counts it wrote beside the board (X is white), the
    roll, the cube and the score; the positions the plays the program itself listed for the roll leave are among
    the legal plays' positions."""
    data = document(capsys, str(FIXTURES / path))
    layout = Layout.from_wire("backgammon", data["state"]["position"])
    assert (_pips(layout, "white"), _pips(layout, "black")) == pips
    assert data["state"]["turn"] == "white" and data["state"]["dice"] == dice
    if dice:  # 7-point match at 3-6 (X, white, first), cube 2 owned by O
        assert data["state"]["cube"] == {"value": 2, "owner": "black"}
        assert data["state"]["match"] == {"length": 7, "score": {"white": 3, "black": 6}, "crawford": False}
        positions = {json.dumps(p["position"]) for p in answer_of(data, "backgammon")["plays"]}
        for play in listed:
            after = apply(decode_xgid(data["ids"]["xgid"])[0], "white", play)
            assert json.dumps(after.to_wire()) in positions, play
    else:  # a cube decision: 9-point match at 2-4, cube centred
        assert data["state"]["match"]["score"] == {"white": 2, "black": 4}
        assert answer_of(data, "backgammon")["cube"]["may_double"] is True


def test_an_xgid_money_game_with_jacoby_and_beavers_is_asked_with_them(capsys):
    """The XGID's rules field 3 in money play: Jacoby and beavers (the XGID format; eXtreme Gammon's export prints
    "Unlimited Game, Jacoby Beaver" beside it). By hand, bg.option.beavers: white may double from a centred cube,
    and black may beaver, keeping the cube at 4. --switch beavers=false overrides what the position records."""
    xgid = "XGID=-b----E-C--AeD---bAdb---A-:0:0:1:00:0:0:3:0:10"
    data = document(capsys, xgid, "--no-flips")
    assert [r["name"] for r in data["rulings"]] == ["backgammon+jacoby=true+beavers=true"]
    assert answer_of(data, data["rulings"][0]["name"])["cube"]["double"]["beaver"]["cube"] == {
        "value": 4,
        "owner": "black",
    }
    data = document(capsys, xgid, "--no-flips", "--switch", "beavers=false")
    assert [r["name"] for r in data["rulings"]] == ["backgammon+beavers=false+jacoby=true"]


def test_gnu_position_and_match_ids(capsys):
    """GNU Backgammon's `Position ID:Match ID`: BGBlitz's export of the checker play writes both beside its XGID
    (Position-ID b9sBCIC5bYDQAA, Match-ID QYnoAGAAGAAE): read from the GNU IDs, the same position, side on roll,
    cube (2, O's) and 7-point score (3-6), and the dice it shows as "1-2"."""
    export = document(capsys, str(FIXTURES / "bgblitz/01_checkerPosition_EN.txt"), "--no-flips")
    gnu = document(capsys, "b9sBCIC5bYDQAA:QYnoAGAAGAAE", "--no-flips")
    assert gnu["state"]["dice"] == [1, 2] and export["state"]["dice"] == [2, 1]
    assert {**gnu["state"], "dice": [2, 1]} == export["state"] and gnu["groups"] == export["groups"]
    cube_decision = document(capsys, "Mw5jkCQyz+AhAg:cAkgAUAAEAAE", "--no-flips")  # BGBlitz's 03_DT, no dice
    assert cube_decision["state"]["dice"] == [] and cube_decision["state"]["match"]["score"] == {"white": 2, "black": 4}


def test_the_two_programs_exports_of_one_position_read_alike(capsys):
    first = document(capsys, str(FIXTURES / "xg/01_checkerPosition_EN.txt"), "--no-flips")
    second = document(capsys, str(FIXTURES / "bgblitz/01_checkerPosition_EN.txt"), "--no-flips")
    assert first["state"] == second["state"] and first["groups"] == second["groups"]


def test_engines_beside_the_rulesets(capsys):
    """Babelmark for rules: the reference engine through the Python adapter agrees with each ruleset it is asked
    as (exit 0); an engine that leaves out a play agrees with neither narde-variant nor narde-guide's group where
    it drops one, and the exit status says so (1)."""
    status, out, _ = ask(capsys, "--case", HEAD_CASE, "--engine", "reference", "--no-flips")
    assert status == 0 and "gammonspec-reference 0.1.0 as narde-variant: agrees with narde-variant" in out
    status, out, _ = ask(capsys, "--case", HEAD_CASE, "--engine", "fake_engines:DropOne", "--no-flips")
    assert status == 1
    assert "as narde-variant: agrees with narde-guide" in out  # two plays less the one with the smallest key


def test_an_engine_process_beside_the_rulesets(capsys):
    """The same through the protocol: `gammonspec serve` started by --engine-cmd, as any engine process is."""
    command = f"{sys.executable} -m gammonspec.conformance.cli serve"
    status, out, _ = ask(capsys, "--case", HEAD_CASE, "--engine-cmd", command, "--no-flips")
    assert status == 0 and "as narde-guide: agrees with narde-guide" in out


def test_the_readme_position_file_example(capsys, tmp_path):
    """The README's example file is a position `ask` reads: the chain's 4s, as in the test above."""
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    example = readme.split("A position file, for a Crazy Narde chain", 1)[1].split("```yaml\n", 1)[1].split("```")[0]
    path = tmp_path / "chain.yaml"
    path.write_text(example)
    data = document(capsys, str(path), "--no-flips")
    assert plays(data, "crazy-narde") == {"20/16/12"}


def test_an_engine_that_fails_a_query_is_reported_beside_the_rulesets(capsys):
    """An engine that raises on 4-4 (tests/engines/fake_engines.py): its error is its answer, and the exit 1."""
    status, out, _ = ask(capsys, BEAR_OFF, "--dice", "4-4", "--engine", "fake_engines:Raises", "--no-flips")
    assert status == 1 and "as backgammon: error: " in out and "kaboom on 4-4" in out


def test_the_readme_example_output_is_what_ask_prints(capsys):
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    command = f"$ gammonspec ask --case {HEAD_CASE}\n"
    shown = readme.split(command, 1)[1].split("```", 1)[0]
    status, out, _ = ask(capsys, "--case", HEAD_CASE)
    assert status == 0 and out == shown


def test_json_written_to_a_file_beside_the_text(capsys, tmp_path):
    out_file = tmp_path / "answer.json"
    status, out, _ = ask(capsys, "--case", HEAD_CASE, "--json", str(out_file))
    assert status == 0 and "narde-guide: 1 play" in out
    assert compiled("ask").failure(json.loads(out_file.read_text())) is None


def test_json_never_overwrites_the_position_file(capsys, tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text("game: narde\nposition: start\nturn: white\nroll: [6, 5]\n")
    status, _, err = ask(capsys, str(path), "--json", str(path))
    assert status == 2 and "--json: the position file itself" in err and path.read_text().startswith("game: narde")


def _two_xgids(tmp_path: Path) -> Path:
    path = tmp_path / "two.txt"
    text = (FIXTURES / "xg/01_checkerPosition_EN.txt").read_text()
    path.write_text(text + "\n" + text)
    return path


def _mismatched_bgblitz(tmp_path: Path) -> Path:
    path = tmp_path / "bgblitz.txt"
    text = (FIXTURES / "bgblitz/01_checkerPosition_EN.txt").read_text()
    path.write_text(text.replace("Position-ID: b9sBCIC5bYDQAA", "Position-ID: 4HPwATDgc/ABMA"))
    return path


def _file(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


BAD = {
    "truncated XGID": (["XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0"], "has 8 fields, expected 9 or 10"),
    "XGID bad character": (["XGID=-b----E-C---eE---c-e----Z-:0:0:1:52:0:0:0:0:10"], "bad character 'Z'"),
    "XGID with 16 checkers": (["XGID=-b----E-C---eE---c-e----C-:0:0:1:52:0:0:0:0:10"], "white has 16 checkers"),
    "XGID with a cube of 128": (["XGID=-b----E-C---eE---c-e----B-:7:0:1:52:0:0:0:0:10"], "a cube of 128, beyond 64"),
    "truncated Narde ID": (["NID1_N_11o11O_w65"], "Narde position ID 'NID1_N_11o11O_w65': ends after 4 of its 5"),
    "GNU ID without --turn": (["4HPwATDgc/ABMA"], "give the side on roll with --turn"),
    "truncated GNU ID": (["4HPwATDgc/AB", "--turn", "white"], "not a Narde position ID (NID1_...), an XGID"),
    "GNU Match ID cut short": (["4HPwATDgc/ABMA:cAkAAAAAAA"], "GNU Match ID 'cAkAAAAAAA' must be 12 characters"),
    "unknown case": (["--case", "no-such-case"], "--case 'no-such-case': no case with this ID among the shipped"),
    "a case ID cut short": (["--case", HEAD_CASE[:-4]], f"no case with this ID among the shipped cases (did you mean {HEAD_CASE}?)"),
    "nothing given": ([], "give a position (an ID or a file) or --case ID"),
    "a double on the opening roll": (
        ["--case", HEAD_CASE, "--dice", "6-6", "--ruleset", "narde-guide"],
        "roll 6-6: the game's first roll is the opening roll",
    ),
    "a chain double below the roll": (["--case", "cn-chain-segment-44-then-55", "--segment", "1111"], "segment 1-1-1-1"),
    "a segment without a double": (
        ["--case", "cn-chain-segment-44-then-55", "--dice", "5-3"],
        "a later segment of the owner's own turn is a double above the rolled 5-3",
    ),
    "a first turn too late": (["--case", HEAD_CASE, "--rolls-in-game", "5"], "context: a side's first turn comes"),
    "too many head moves": (["--case", HEAD_CASE, "--head-moves", "3"], "--head-moves 3: at most 2"),
    "dice out of range": (["--case", HEAD_CASE, "--dice", "7-7"], "argument --dice/--roll: '7-7'"),
    "the other side on roll": (["--case", HEAD_CASE, "--turn", "black"], "has white on roll"),
    "unknown ruleset": (["--case", HEAD_CASE, "--ruleset", "nope"], "--ruleset nope: no such ruleset"),
    "ruleset of another game": (["--case", HEAD_CASE, "--ruleset", "gul-bara"], "no ruleset or profile of narde"),
    "an engine of another game": (
        ["--case", HEAD_CASE, "--engine", "fake_engines:BackgammonPlaysOnly"],
        "engine bg-plays-only declares none of the rulesets or profiles asked (narde-guide, narde-variant)",
    ),
    "an engine that cannot start": (["--case", HEAD_CASE, "--engine-cmd", "/no/such/engine"], "cannot start engine"),
    "unknown switch": (["--case", HEAD_CASE, "--switch", "six-block=maybe"], "switch six-block has no value 'maybe'"),
}


@pytest.mark.parametrize("argv, message", BAD.values(), ids=BAD.keys())
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    status, out, err = ask(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("gammonspec ask: ") and message in err, err
    assert "Traceback" not in err


BAD_FILES = {
    "two positions in one export": (_two_xgids, "two.txt:45: a second position (XGID= line)"),  # 43 lines, a blank
    "BGBlitz Position-ID against its XGID": (_mismatched_bgblitz, ":15: Position-ID 4HPwATDgc/ABMA and the XGID"),
    "no XGID in a text file": (lambda d: _file(d, "notes.txt", "hello\n"), "notes.txt: no XGID= line"),
    "malformed YAML": (lambda d: _file(d, "p.yaml", "game: narde\nposition: [\n"), "p.yaml:3: malformed YAML"),
    "an unknown field": (
        lambda d: _file(d, "p.yaml", "game: narde\nposition: start\nturn: white\nrol: [6, 5]\n"),
        "p.yaml:4: rol: Additional properties are not allowed",
    ),
    "16 checkers in a position file": (
        lambda d: _file(d, "p.json", '{"game": "narde", "turn": "white", "position": {"white": {"24": 14, "1": 2}, "black": {"24": 15}}}'),
        "p.json:1: position: impossible position: white has a negative checker count (board 16",
    ),
    "no side on roll": (lambda d: _file(d, "p.yaml", "game: narde\nposition: start\n"), "no side on roll"),
}


@pytest.mark.parametrize("make, message", BAD_FILES.values(), ids=BAD_FILES.keys())
def test_bad_files_are_located(capsys, tmp_path, make, message):
    status, out, err = ask(capsys, str(make(tmp_path)))
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("gammonspec ask: ") and message in err, err


def test_fixtures_have_their_sources_recorded():
    sources = (FIXTURES / "SOURCES.md").read_text()
    for path in sorted(FIXTURES.rglob("*.txt")):
        assert f"`{path.name}`" in sources, path
