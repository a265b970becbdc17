"""`gammonspec replay`: GNU Backgammon's own matches replay clean, each planted error is reported once,
bad input is one located line and exit 2 (tests/fixtures/transcripts/README.md says how each file was made)."""

from __future__ import annotations

import io
import json
import re
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from gammonspec.conformance import cli
from gammonspec.conformance.tools.match_files import read
from gammonspec.model.notation import apply
from gammonspec.model.state import start_layout

FIXTURES = Path(__file__).parent / "fixtures" / "transcripts"
REAL = FIXTURES / "real"  # real exports (SOURCES.md): test_replay_real.py replays them
MADE = sorted(FIXTURES.glob("gnubg-*.*"))
GAMES = {
    "gnubg-1pt": 1,
    "gnubg-5pt": 3,
    "gnubg-5pt-plain": 3,
    "gnubg-5pt-gammon": 1,
    "gnubg-5pt-long": 6,
    "gnubg-money": 1,
}


def replay(capsys, tmp_path, *argv: str) -> tuple[int, dict, str]:
    """The exit status, the JSON report and stderr; stdout is left in capsys."""
    out = tmp_path / "replay.json"
    status = cli.main(["replay", "--json", str(out), *argv])
    captured = capsys.readouterr()
    print(captured.out, end="")
    return status, json.loads(out.read_text()) if out.exists() else {}, captured.err


def test_gnubg_matches_replay_clean(capsys, tmp_path):
    status, report, err = replay(capsys, tmp_path, *map(str, MADE))
    assert status == 0, err
    assert err == ""
    for entry in report["transcripts"]:
        name = Path(entry["path"]).stem
        assert entry["errors"] == [], entry["errors"][:1]
        assert entry["games"] == GAMES[name]
        assert entry["plays"] > 20 * entry["games"]
        if entry["format"] == "sgf":  # the early endings are exactly the games the SGF records as resigned (R)
            resigned = re.findall(r"RE\[[WB]\+\d+(R?)\]", Path(entry["path"]).read_text())
            early = [n for n in entry["notes"] if "ended early" in n["message"]]
            assert len(early) == resigned.count("R") and len(resigned) == entry["games"]
    assert report["summary"]["games"] == sum(GAMES[p.stem] for p in MADE)
    early = {e["path"]: [n["line"] for n in e["notes"] if "ended early" in n["message"]] for e in report["transcripts"]}
    for sgf in (p for p in MADE if p.suffix == ".sgf" and p.with_suffix(".mat").exists()):  # the same games end early
        assert len(early[str(sgf)]) == len(early[str(sgf.with_suffix(".mat"))])


@pytest.mark.parametrize("stem", ["gnubg-1pt", "gnubg-5pt-gammon", "gnubg-money"])
def test_the_mat_and_the_sgf_of_a_match_record_the_same_game(stem):
    """The two readers agree action by action: kind, side, dice and the position each play leaves."""
    mat, sgf = read(FIXTURES / f"{stem}.mat"), read(FIXTURES / f"{stem}.sgf")
    assert (mat.length, mat.players, len(mat.games)) == (sgf.length, sgf.players, len(sgf.games))
    for a, b in zip(mat.games, sgf.games):
        assert (a.score, a.ending.winner, a.ending.points) == (b.score, b.ending.winner, b.ending.points)
        assert [(x.kind, x.side, x.dice) for x in a.actions] == [(x.kind, x.side, x.dice) for x in b.actions]
        layout_a = layout_b = start_layout("backgammon")
        for x, y in zip(a.actions, b.actions):
            if x.kind == "play":
                layout_a, layout_b = apply(layout_a, x.side, x.play), apply(layout_b, y.side, y.play)
                assert layout_a == layout_b, (x, y)


PLANTED = {
    "illegal-play.mat": [(9, "illegal play white 54: 8/3 6/3")],
    "wrong-score.mat": [(32, "the game starts at 1-0; the games before make it 2-0")],
    "wrong-points.mat": [(36, "recorded: white wins 4; the engine scores white winning 8 (gammon, cube 4)")],
    "take-after-end.mat": [
        (
            35,
            "recorded after the game ended with white 55: 2/off 2/off (line 35; white wins 8):"
            " black doubles to 8 (line 35), white takes (line 36)",
        )
    ],
    "crawford-double.mat": [
        (
            56,
            "black doubles to 2, but may not double here (cube 1 centred, the Crawford game, score 4-0 of 5)",
        )
    ],
    "crawford-double.sgf": [
        (76, "not recorded as the Crawford game, but at 4-0 it is"),
        (80, "black doubles, but may not double here (cube 1 centred, the Crawford game"),
    ],
    "beaver.mat": [(17, "white beavers to 4: not a legal answer to the double")],
}


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_each_planted_error_is_reported_once(capsys, tmp_path, name):
    path = FIXTURES / "planted" / name
    status, report, _ = replay(capsys, tmp_path, str(path))
    assert status == 1
    errors = report["transcripts"][0]["errors"]
    assert [(e["line"], e["message"][: len(m)]) for e, (_, m) in zip(errors, PLANTED[name])] == PLANTED[name]
    assert len(errors) == len(PLANTED[name])


def test_an_illegal_play_shows_the_board_the_xgid_and_the_nearest_legal_plays(capsys, tmp_path):
    status, report, _ = replay(capsys, tmp_path, str(FIXTURES / "planted" / "illegal-play.mat"))
    (error,) = report["transcripts"][0]["errors"]
    assert error["xgid"] == "XGID=-aa---E-D---dD---b-eb-A-A-:0:0:1:54:0:0:0:1:10"
    assert "W = white on roll" in error["board"]
    # 5-4 from there: the 8/3 of the record with a 4 (13/9, 22/18 or 6/2*) is one checker away from it
    assert error["nearest"] == ["13/9 8/3", "22/18 8/3", "8/3 6/2*"]
    out = capsys.readouterr().out
    assert "nearest legal plays: 13/9 8/3, 22/18 8/3, 8/3 6/2*" in out and "XGID=" in out


def test_a_beaver_is_legal_with_the_option_on(capsys, tmp_path):
    status, report, _ = replay(capsys, tmp_path, "--switch", "beavers=true", str(FIXTURES / "planted" / "beaver.mat"))
    assert status == 0 and report["summary"]["errors"] == 0


def test_an_engine_that_scores_wrongly_is_caught(capsys, tmp_path):
    status, report, _ = replay(
        capsys, tmp_path, "--engine", "fake_engines:WrongResult", str(FIXTURES / "gnubg-5pt-gammon.mat")
    )
    assert status == 1
    (error,) = report["transcripts"][0]["errors"]
    assert error["message"] == "recorded: white wins 8; the engine scores white winning 1 (single, cube 4)"


def test_an_engine_over_the_protocol(capsys, tmp_path):
    status, report, err = replay(capsys, tmp_path, "--engine-cmd", "gammonspec serve", str(FIXTURES / "gnubg-1pt.mat"))
    assert status == 0, err
    assert report["summary"] == {
        "transcripts": 1, "refused": 0, "games": 1, "skipped": 0, "cut_short": 0, "plays": 53, "errors": 0
    }


BAD = {
    "no-length.mat": ("\n Game 1\n a : 0   b : 0\n", ":2: expected the match length ('3 point match'), found 'Game 1'"),
    "unclosed.sgf": ("(;FF[4]GM[6]\n;W[31hefe]\n", ":1: the game tree opened here is not closed"),
    "variation.sgf": ("(;FF[4]GM[6]\n(;W[31hefe]))\n", ":2: a variation"),
    "go.sgf": ("(;FF[4]GM[1]SZ[19];B[dd])\n", ":1: not a backgammon game (GM[6])"),
    "bad-move.sgf": ("(;FF[4]GM[6]\n;W[71hefe])\n", ":2: W[71hefe]: expected two dice and letter pairs"),
    "edited.sgf": ("(;FF[4]GM[6]\n;AE[a:y]AW[a])\n", ":2: an edited position"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_input_is_one_located_line_and_exit_2(capsys, tmp_path, name):
    text, message = BAD[name]
    path = tmp_path / name
    path.write_text(text)
    status = cli.main(["replay", str(path)])
    err = capsys.readouterr().err
    assert status == 2
    assert len(err.splitlines()) == 1 and err.startswith(f"gammonspec: {path}{message}"), err


def test_good_transcripts_still_replay_beside_a_bad_one(capsys, tmp_path):
    bad = tmp_path / "empty.mat"
    bad.write_text("")
    status = cli.main(["replay", str(bad), str(FIXTURES / "gnubg-1pt.mat")])
    captured = capsys.readouterr()
    assert status == 2
    assert captured.err == f"gammonspec: {bad}: empty: no match in it\n"
    assert "1 game, 53 plays" in captured.out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--ruleset", "narde-guide"], "no backgammon ruleset or profile selected (narde-guide): transcripts are"),
        (["--ruleset", "nope"], "unknown ruleset nope"),
        (["--engine", "fake_engines:PlaysOnly"], "does not answer game-result, cube, which replay needs"),
        (["--switch", "jacoby=maybe"], "jacoby"),
    ],
)
def test_usage_errors_exit_2(capsys, argv, message):
    status = cli.main(["replay", *argv, str(FIXTURES / "gnubg-1pt.mat")])
    err = capsys.readouterr().err
    assert status == 2 and message in err and len(err.splitlines()) == 1


def test_a_missing_file_is_bad_input(capsys, tmp_path):
    status = cli.main(["replay", str(tmp_path / "nowhere.mat")])
    assert status == 2
    assert capsys.readouterr().err.startswith(f"gammonspec: {tmp_path / 'nowhere.mat'}: cannot read:")


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


MAT_HEAD = " 1 point match\n\n Game 1\n a : 0                          b : 0\n"


def test_an_opening_double_is_a_tie_rolled_again(capsys, tmp_path):
    path = write(tmp_path, "double.mat", MAT_HEAD + "  1) 33: 8/5(2) 6/3(2)\n")
    status, report, _ = replay(capsys, tmp_path, str(path))
    assert status == 1
    (error,) = report["transcripts"][0]["errors"]
    assert error["message"] == (
        "white 33: 8/5(2) 6/3(2) opens the game, but for that opening roll the engine says a tie, rolled again"
    )


def test_a_move_out_of_turn_stops_the_game(capsys, tmp_path):
    path = write(tmp_path, "turn.sgf", "(;FF[4]GM[6]MI[length:1]\n;W[31hefe]\n;W[21mkxw])\n")
    status, report, _ = replay(capsys, tmp_path, str(path))
    assert status == 1
    (error,) = report["transcripts"][0]["errors"]
    assert (error["line"], error["message"]) == (3, "white 21: 13/11 24/23, but it is black's turn")
    notes = [(n["line"], n["message"]) for n in report["transcripts"][0]["notes"]]
    assert notes == [(3, "the rest of this game is not checked")]  # where checking stopped, not the game's start


def test_a_beaver_as_gnubg_records_it():
    """A double answering a double is a beaver; the doubler's take after it only confirms it."""
    path = FIXTURES / "gnubg-money.sgf"
    text = path.read_text().replace(";W[take]", ";W[double]\n;B[take]", 1)
    assert text.count(";W[double]") == 1
    (game,) = read_text_as(path, text).games
    assert [a.kind for a in game.actions if a.kind != "play"] == ["double", "beaver"]


def read_text_as(path: Path, text: str):
    from gammonspec.conformance.tools.sgf import read_sgf

    return read_sgf(path, text)


def test_jellyfish_spellings_and_header_options(tmp_path):
    """`bar` and `off` as Jellyfish writes them, `and the match`, and the options a header records."""
    text = (
        '; [Jacoby "On"]\n; [Beaver "Off"]\n; [Crawford "On"]\n\n 0 point match\n\n Game 1\n a : 0      b : 0\n'
        "  1) 31: 8/5 6/5                 64: 24/18 13/9\n  2) 52: 13/8* 6/4               44: bar/21 6/2(2) 21/17\n"
        "  3)  Doubles => 2                Takes\n  4) 66: 24/18 24/18 6/off 6/off\n      Wins 1 point and the match\n"
    )
    transcript = read(write(tmp_path, "jf.mat", text))
    assert transcript.options == {"jacoby": True, "beavers": False} and transcript.crawford_rule is True
    (game,) = transcript.games
    assert [a.play for a in game.actions if a.kind == "play"][-3:] == [
        "13/8* 6/4",
        "bar/21 6/2(2) 21/17",
        "24/18 24/18 6/off 6/off",
    ]
    assert [(a.kind, a.side) for a in game.actions[4:6]] == [("double", "white"), ("take", "black")]
    assert (game.ending.winner, game.ending.points) == ("white", 1)


def test_an_engine_that_fails_stops_the_replay_with_one_located_line(capsys):
    status = cli.main(["replay", "--engine", "fake_engines:Raises", str(FIXTURES / "gnubg-5pt.mat")])
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith(
        f"gammonspec: engine gammonspec-reference failed, replay stopped at {FIXTURES / 'gnubg-5pt.mat'}:25: game 1,"
        " move 19 (white 44: 6/2 5/1 4/off 4/off): RuntimeError: kaboom on 4-4"
    )
    assert len(err.splitlines()) == 1


def test_a_game_after_the_match_is_won(capsys, tmp_path):
    text = (FIXTURES / "gnubg-1pt.mat").read_text()
    second = text[text.index(" Game 1") :].replace(" Game 1", " Game 2").replace("bob : 0", "bob : 1")
    status, report, _ = replay(capsys, tmp_path, str(write(tmp_path, "two.mat", text + second)))
    assert status == 1
    (error,) = report["transcripts"][0]["errors"]
    assert (error["game"], error["message"]) == (2, "recorded after black won the match")


def test_dice_rolled_before_a_resignation_are_no_play(tmp_path):
    """GNU Backgammon writes a roll and then the resignation; a roll without a move whose roller then loses is that,
    while a dance followed by the other side's resignation stays a play."""
    rolled = MAT_HEAD + "  1) 31: 8/5 6/5                 64:\n      Wins 1 point\n"
    danced = MAT_HEAD + "  1) 31: 8/5 6/5                 64:\n                                  Wins 1 point\n"
    (game,) = read(write(tmp_path, "rolled.mat", rolled)).games
    assert [a.side for a in game.actions] == ["white"]
    (game,) = read(write(tmp_path, "danced.mat", danced)).games
    assert [(a.side, a.play) for a in game.actions] == [("white", "8/5 6/5"), ("black", "")]


CONCEDED = (  # Backgammon Studio's and eXtreme Gammon's spellings of a resignation
    " 3 point match\n\n Game 1\n a : 0                          b : 0\n"
    "  1) 31: 8/5 6/5                  {black}\n"
    "  2) Wins 1 point\n\n"
    " Game 2\n a : 1                          b : 0\n  1) 42: 8/4 6/4\n"
)


@pytest.mark.parametrize("black", ["Concedes", "00: ????", "????", "64: ????"])
def test_a_resignation_as_the_programs_write_it_ends_the_game(tmp_path, black):
    """Black's `Concedes`, a turn with no roll (`00: ????`, a bare `????`) or a roll whose move was not recorded,
    then white's `Wins`: a resignation; the next game is read."""
    first, second = read(write(tmp_path, "conceded.mat", CONCEDED.format(black=black))).games
    assert first.unread is None and second.unread is None, first.unread
    assert first.ending is not None and (first.ending.winner, first.ending.points) == ("white", 1)
    assert [a.play for a in first.actions] == ["8/5 6/5"]  # a roll its player resigned after is no play


def test_concedes_and_wins_on_one_line(capsys, tmp_path):
    """eXtreme Gammon's shape: ` 2)  Concedes       Wins 1 point`, the loser's word and the winner's result."""
    text = MAT_HEAD + "  1) 31: 8/5 6/5                 64: 24/18 13/9\n  2)  Concedes                      Wins 1 point\n"
    status, report, _ = replay(capsys, tmp_path, str(write(tmp_path, "xg.mat", text)))
    (entry,) = report["transcripts"]
    assert status == 0 and (entry["games"], entry["skipped"], entry["plays"], entry["errors"]) == (1, 0, 2, [])
    assert [n["message"] for n in entry["notes"]] == ["ended early: white resigns, black wins 1 (not judged)"]


def test_a_turn_with_no_roll_followed_by_a_move_is_refused_where_it_is(tmp_path):
    from gammonspec.conformance.tools.transcripts import TranscriptError

    text = MAT_HEAD + "  1) 31: 8/5 6/5                 ????\n  2) 42: 8/4 6/4\n"
    with pytest.raises(TranscriptError, match=r":6: '42: 8/4 6/4' after a turn with no roll \(line 5\)"):
        read(write(tmp_path, "noroll.mat", text))


def test_a_player_renamed_between_games_is_the_same_side(tmp_path):
    text = (
        " 3 point match\n\n Game 1\n alice : 0                      bob : 0\n  1) 31: 8/5 6/5\n"
        "                                  Wins 1 point\n\n"
        " Game 2\n alice2 : 0                     bob : 1\n  1) 42: 8/4 6/4\n"
    )
    transcript = read(write(tmp_path, "renamed.mat", text))
    assert transcript.players == ("alice", "bob") and [g.unread for g in transcript.games] == [None, None]


def test_a_record_cut_within_a_play_judges_only_what_was_recorded_whole(capsys, tmp_path):
    """The file ends within the play (no line break after it): that play is not judged, the game is cut short."""
    path = write(tmp_path, "cut.mat", MAT_HEAD + "  1) 31: 8/5 6/5                 64: 24/18")
    status, report, _ = replay(capsys, tmp_path, str(path))
    (entry,) = report["transcripts"]
    assert status == 0 and entry["errors"] == [] and entry["cut_short"] == 1 and entry["plays"] == 1


def test_refused_inputs_are_in_the_json_even_when_every_one_is(capsys, tmp_path):
    bad = write(tmp_path, "bad.mat", "not a match\n")
    good = FIXTURES / "gnubg-1pt.mat"
    status, report, _ = replay(capsys, tmp_path, str(bad), str(good))
    assert status == 2 and [t["path"] for t in report["transcripts"]] == [str(good)]
    assert report["refused"] == [
        {"path": str(bad), "line": 1, "message": "expected the match length ('3 point match'), found 'not a match'"}
    ]
    status, report, _ = replay(capsys, tmp_path, str(bad))
    assert status == 2 and report["engine"] is None and report["transcripts"] == []
    assert report["summary"]["refused"] == 1 and report["refused"][0]["path"] == str(bad)


def test_a_single_games_export_names_the_players_without_a_score(tmp_path):
    text = " 0 point match\n\n Game 1\n alice                          bob\n  1) 31: 8/5 6/5\n"
    transcript = read(write(tmp_path, "game.mat", text))
    assert transcript.players == ("alice", "bob") and transcript.games[0].score is None


def test_a_run_whose_every_transcript_is_refused_says_so_in_one_line(capsys):
    """gnubg-1pt.sgf was played without Jacoby, so under jacoby=true the one transcript is refused."""
    status = cli.main(["replay", "--switch", "jacoby=true", str(FIXTURES / "gnubg-1pt.sgf")])
    captured = capsys.readouterr()
    assert status == 2 and captured.out == ""
    assert captured.err.splitlines() == [
        f"gammonspec: {FIXTURES / 'gnubg-1pt.sgf'}: played with jacoby off, which backgammon+jacoby=true does not allow"
    ]


def test_a_transcript_saved_as_utf16_reads_as_the_utf8_one(tmp_path):
    utf16 = tmp_path / "gnubg-1pt.mat"
    utf16.write_bytes((FIXTURES / "gnubg-1pt.mat").read_text(encoding="utf-8").encode("utf-16"))
    assert read(utf16) == replace(read(FIXTURES / "gnubg-1pt.mat"), path=utf16)


def test_an_empty_transcript_says_so(tmp_path, capsys):
    empty = tmp_path / "empty.sgf"
    empty.write_text("")
    assert cli.main(["replay", str(empty)]) == 2
    assert capsys.readouterr().err == f"gammonspec: {empty}: empty: no match in it\n"


UNREAD = {
    "bad-token.mat": (
        " 1 point match\n\n Game 1\n a : 0      b : 0\n  1) 31: 8/5 6/5    64 24/18\n",
        ":5: cannot read '64' at column 21",
    ),
    "bad-column.mat": (
        " 1 point match\n\n Game 1\n a : 0      b : 0\n  1) 31: 8/5 6/5\n  2) 64: 24/18 13/9\n",
        ":6: '64: 24/18 13/9' is in the left column, but it is black's turn",
    ),
    "bad-move.mat": (
        " 1 point match\n\n Game 1\n a : 0      b : 0\n  1) 31: 8/5 6/8\n",
        ":5: cannot read the play '8/5 6/8'",
    ),
}


@pytest.mark.parametrize("name", sorted(UNREAD))
def test_a_line_that_cannot_be_read_skips_its_game_with_one_located_note(capsys, tmp_path, name):
    """The game is skipped, the next one replays (here a copy of gnubg-1pt's game with its score line)."""
    text, message = UNREAD[name]
    good = (FIXTURES / "gnubg-1pt.mat").read_text()
    second = good[good.index(" Game 1") :].replace(" Game 1", " Game 2").replace("alice", "a").replace("bob", "b")
    path = write(tmp_path, name, text + "\n" + second)
    status, report, err = replay(capsys, tmp_path, str(path))
    (entry,) = report["transcripts"]
    assert status == 0 and err == ""
    assert (entry["games"], entry["skipped"], entry["judged"]) == (2, 1, 0)
    (note,) = [n for n in entry["notes"] if n["game"] == 1]
    line, what = re.match(r":(\d+): (.*)", message).groups()
    assert note["line"] == int(line) and note["message"].startswith(f"game not replayed: {what}")


def test_a_folder_replays_every_transcript_in_it_and_an_empty_one_is_bad_input(capsys, tmp_path):
    folder = tmp_path / "matches"
    (folder / "sub").mkdir(parents=True)
    for name in ("gnubg-1pt.mat", "gnubg-1pt.sgf"):
        (folder / "sub" / name).write_bytes((FIXTURES / name).read_bytes())
    (folder / "notes.md").write_text("not a transcript")
    status, report, err = replay(capsys, tmp_path, str(folder))
    assert status == 0 and err == ""
    assert [Path(e["path"]).name for e in report["transcripts"]] == ["gnubg-1pt.mat", "gnubg-1pt.sgf"]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert cli.main(["replay", str(empty)]) == 2
    assert capsys.readouterr().err == f"gammonspec: {empty}: a folder with no transcript in it (.mat, .txt, .sgf)\n"


def test_a_long_replay_shows_files_and_plays_on_a_terminal(capsys, monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    shown = Terminal()
    monkeypatch.setattr(sys, "stderr", shown)
    assert cli.main(["replay", str(REAL / "lazybg")]) == 0
    assert re.search(r"3/3 \[.*plays=781", shown.getvalue()), shown.getvalue()[-300:]
    monkeypatch.setattr(sys, "stderr", Terminal())
    assert cli.main(["replay", "-q", str(REAL / "lazybg")]) == 0
    assert sys.stderr.getvalue() == ""  # none with -q


@pytest.mark.parametrize(
    "written, read_as",
    [
        ("6/1*(2)", "6/1* 6/1"),
        ("2/1*(4)", "2/1* 2/1(3)"),  # 11 with four checkers onto one blot (Backgammon Studio)
        ("13/7*(2) 7/1*(2)", "13/7* 13/7 7/1* 7/1"),  # 66: each point hit once
        ("bar/20*(2)", "bar/20* bar/20"),
        ("24/20(2) 13/9*", "24/20(2) 13/9*"),
    ],
)
def test_a_repeated_move_with_a_hit(written, read_as):
    from gammonspec.conformance.tools.transcripts import standard_play

    assert standard_play(Path("x.mat"), 1, written.split()) == read_as


def test_the_json_names_every_finding_where_it_is(capsys, tmp_path):
    """Each note and error carries its file, line, game and (where it is one move's) move."""
    status, report, _ = replay(capsys, tmp_path, str(REAL), str(FIXTURES / "planted" / "illegal-play.mat"))
    assert status == 1
    findings = [f for e in report["transcripts"] for f in e["errors"] + e["notes"]]
    assert len(findings) == 19  # 15 resignations (one in illegal-play.mat), 2 money games, 1 capped result, 1 error
    for f in findings:
        assert Path(f["path"]).exists() and f["line"] >= 1 and f["game"] >= 1 and "move" in f
    (error,) = [f for e in report["transcripts"] for f in e["errors"]]
    assert (Path(error["path"]).name, error["line"], error["game"], error["move"]) == ("illegal-play.mat", 9, 1, 3)


def test_a_file_of_several_matches_is_read_match_by_match(capsys, tmp_path):
    """Matches one after another in one file (each with its header, or `Game 1` again): each replayed as a match."""
    one = (FIXTURES / "gnubg-1pt.mat").read_text()
    again = one[one.index(" Game 1") :]  # the same match without its header: `Game 1` begins the next one
    path = write(tmp_path, "three.mat", one + "\n" + one + "\n" + again)
    status, report, _ = replay(capsys, tmp_path, str(path))
    names = [t["path"] for t in report["transcripts"]]
    assert status == 0 and names == [f"{path} (match {k})" for k in (1, 2, 3)]
    assert [t["games"] for t in report["transcripts"]] == [1, 1, 1] and report["summary"]["errors"] == 0
    lines = one.count("\n") + 1
    assert [t["notes"][-1]["line"] > lines * k for k, t in enumerate(report["transcripts"])] == [True] * 3


def _walked(game) -> list[tuple]:
    """A game's actions, each play as the layout it leaves."""
    layout, walked = start_layout("backgammon"), []
    for a in game.actions:
        if a.kind == "play":
            layout = apply(layout, a.side, a.play) if a.play else layout
        walked.append((a.kind, a.side, a.dice, layout if a.kind == "play" else None))
    return walked


def test_gnubg_export_match_text_reads_as_the_sgf_of_the_same_match(capsys, tmp_path):
    """GNU Backgammon's `export match text` (one file a game, with diagrams and analysis) of two matches: each
    game's actions are those of the SGF the program saved, and the files replay clean."""
    exported = FIXTURES / "export-text"
    pairs = [("gnubg-5pt-plain.sgf", ["gnubg-5pt-plain-export.txt", "gnubg-5pt-plain-export_002.txt",
              "gnubg-5pt-plain-export_003.txt"]), ("gnubg-money.sgf", ["gnubg-money-export.txt"])]
    for sgf, texts in pairs:
        games = read(FIXTURES / sgf).games
        read_games = [read(exported / name).games[0] for name in texts]
        assert [g.number for g in read_games] == [g.number for g in games]
        for ours, theirs in zip(read_games, games):  # each play as the position it leaves (spellings differ)
            assert _walked(ours) == _walked(theirs)
            assert (ours.ending.winner, ours.ending.points) == (theirs.ending.winner, theirs.ending.points)
            assert ours.score == (theirs.score or (0, 0))
    status, report, _ = replay(capsys, tmp_path, str(exported))
    assert status == 0 and report["summary"]["errors"] == 0 and report["summary"]["games"] == 4
    assert report["summary"]["plays"] == 106 + 42
