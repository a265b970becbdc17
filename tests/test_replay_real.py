"""Replay of real match exports (tests/fixtures/transcripts/real, SOURCES.md says where each came from) and the
quirks of the programs that wrote them."""

from __future__ import annotations

import re
from pathlib import Path

from gammonspec.conformance.tools.match_files import read

from tests.test_replay import FIXTURES, MAT_HEAD, REAL, read_text_as, replay, write  # noqa: F401  (shared helpers)

STUDIO = "bglab/Moderntavla31 - Llabba 9pt Backgammon Studio 2023_09_20 21_30_21.txt"
# per file: games read, skipped, judged, cut short, errors (tests/fixtures/transcripts/real/SOURCES.md says why)
REAL_COUNTS = {
    "bglab/match10013413.txt": (5, 0, 5, 0, 0),
    "bglab/match1574521.txt": (1, 0, 0, 0, 0),
    "bglab/match6465581.txt": (1, 0, 0, 0, 0),
    "bglab/match2900236.txt": (2, 0, 1, 0, 0),
    "bglab/match4025136.txt": (3, 0, 2, 0, 0),
    "bglab/match8239468.txt": (1, 0, 1, 0, 0),
    "bglab/match7986278.txt": (1, 0, 1, 0, 0),
    STUDIO: (7, 0, 6, 0, 0),
    "bglab/solnze - Lasse 3pt Backgammon Studio 2024_05_11 19_56_16.txt": (2, 0, 1, 0, 0),
    "lazybg/match1.txt": (4, 0, 2, 0, 0),
    "lazybg/match2.txt": (9, 0, 5, 0, 0),
    "lazybg/match3.txt": (7, 0, 7, 0, 0),
    "gnubgparser/charlot1-charlot2_7p_2025-11-08-2305.mat": (4, 0, 2, 0, 0),
}


def test_the_real_corpus_replays_with_its_known_counts(capsys, tmp_path):
    files = sorted(p for p in REAL.rglob("*") if p.suffix in (".txt", ".mat", ".sgf"))
    assert sorted(p.relative_to(REAL).as_posix() for p in files) == sorted(REAL_COUNTS)
    status, report, err = replay(capsys, tmp_path, "-q", str(REAL))
    assert err == "" and status == 0
    counts = {
        Path(e["path"]).relative_to(REAL).as_posix(): (
            e["games"],
            e["skipped"],
            e["judged"],
            e["cut_short"],
            len(e["errors"]),
        )
        for e in report["transcripts"]
    }
    assert counts == REAL_COUNTS


def test_a_hit_on_a_repeated_move_is_the_first_checkers():
    """Backgammon Studio's `55: 8/3(2) 6/1*(2)` (eXtreme Gammon writes the same): one hit, then a checker onto it."""
    written = [
        (n, hit)
        for n, text in enumerate((REAL / STUDIO).read_text().splitlines(), 1)
        for hit in re.findall(r"(\d+/\d+)\*\(2\)", text)
    ]
    plays = {(a.line, a.play) for g in read(REAL / STUDIO).games for a in g.actions if a.play}
    assert len(written) >= 2
    for n, hit in written:
        assert any(line == n and f"{hit}* {hit}" in play for line, play in plays)


def test_galaxy_quirks_read_as_meant(capsys, tmp_path):
    """An empty player name; the move number written again mid-line before `Losses`; a one-game 16 point match."""
    assert read(REAL / "bglab/match4025136.txt").players == ("lasse", "")
    jammed = read(REAL / "bglab/match2900236.txt").games[1]  # ` 24) 43: ...   24)  Losses 2 point   Wins 2 point`
    assert (jammed.unread, jammed.ending.winner, jammed.ending.points) == (None, "black", 2)
    money = read(REAL / "bglab/match8239468.txt")
    assert (money.length, money.options, money.cap) == (0, {"jacoby": True}, 16)
    status, report, _ = replay(
        capsys, tmp_path, str(REAL / "bglab/match8239468.txt"), str(REAL / "bglab/match7986278.txt")
    )
    jacoby, capped = report["transcripts"]
    assert status == 0 and not jacoby["errors"] and not capped["errors"]
    # black's gammon with the cube never turned: one point under the Jacoby rule, as recorded
    assert jacoby["notes"][0]["message"].endswith("replayed as a money game with the Jacoby rule")
    assert any(
        "white wins 16, the most" in n["message"] and "scores 48 (backgammon, cube 16)" in n["message"]
        for n in capped["notes"]
    )


def test_markers_of_the_programs(tmp_path):
    """`Cannot Move`, `????`, `Illegal play (...)` and Galaxy's `Losses` beside `Wins`, each read as the program means."""
    text = (
        MAT_HEAD
        + "  1) 31: 8/5 6/5                 64: Cannot Move\n"
        + "  2) 52: ????                    Losses 1 point\n"
        + "      Wins 1 point and the match\n"
    )
    (game,) = read(write(tmp_path, "galaxy.mat", text)).games
    assert [(a.side, a.play) for a in game.actions] == [("white", "8/5 6/5"), ("black", ""), ("white", None)]
    assert (game.ending.winner, game.ending.points, game.unread) == ("white", 1, None)


def test_a_mat_cut_after_the_dice_is_cut_short_not_an_illegal_play(capsys, tmp_path):
    path = write(tmp_path, "cut.mat", MAT_HEAD + "  1) 31: 8/5 6/5                 64:")
    status, report, _ = replay(capsys, tmp_path, "-q", str(path))
    (entry,) = report["transcripts"]
    assert status == 0 and entry["errors"] == [] and entry["cut_short"] == 1
    assert "1 cut short" in capsys.readouterr().out


def test_a_capped_match_winning_game_is_a_note(capsys, tmp_path):
    """gnubg-5pt-gammon's gammon at cube 4 (8 points) recorded as the 5 points that won the match."""
    text = (FIXTURES / "gnubg-5pt-gammon.mat").read_text().replace("Wins 8 points", "Wins 5 points")
    status, report, _ = replay(capsys, tmp_path, str(write(tmp_path, "capped.mat", text)))
    (entry,) = report["transcripts"]
    assert status == 0 and entry["errors"] == []
    assert any("the points white needed to win the match" in n["message"] for n in entry["notes"])


def test_a_record_starting_mid_match_is_judged_from_its_score(capsys, tmp_path):
    text = (
        (FIXTURES / "gnubg-5pt-gammon.mat").read_text().replace("bob : 0", "bob : 2").replace("alice : 0", "alice : 1")
    )
    status, report, _ = replay(capsys, tmp_path, str(write(tmp_path, "mid.mat", text)))
    (entry,) = report["transcripts"]
    assert status == 0 and entry["errors"] == [] and entry["judged"] == 1
    assert entry["notes"][0]["message"] == "starts at 1-2: judged from its recorded score"


def test_an_sgf_game_with_no_moves_is_cut_short_even_with_q(capsys, tmp_path):
    path = write(tmp_path, "empty-game.sgf", "(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[a]PB[b]RU[Crawford])\n")
    status, report, _ = replay(capsys, tmp_path, "-q", str(path))
    (entry,) = report["transcripts"]
    assert (status, entry["games"], entry["judged"], entry["cut_short"]) == (0, 1, 0, 1)
    assert "1 cut short (the record ends before the game does)" in capsys.readouterr().out


def test_ratings_after_the_names_are_not_part_of_them(tmp_path):
    """FIBS-style score lines (`name (1712.3) : 0`): the rating changes from game to game, the player does not."""
    game = "  1) 31: 8/5 6/5                 64: 24/18 13/9\n      Wins 1 point\n"
    text = (
        " 3 point match\n\n Game 1\n al (1712.3) : 0              bo b (1650) : 0\n"
        + game
        + "\n Game 2\n al (1714.1) : 1              bo b (1648) : 0\n"
        + game
    )
    transcript = read(write(tmp_path, "rated.mat", text))
    assert transcript.players == ("al", "bo b") and [g.unread for g in transcript.games] == [None, None]
