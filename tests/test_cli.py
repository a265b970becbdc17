"""The `gammonspec` command, called in-process: exit codes, reports, filters, expected failures."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import ENGINES, MINI_IDS, MINI_SUITE, dedent
from gammonspec.conformance import cli
from gammonspec.conformance.harness.cases import load
from gammonspec.model import PROTOCOL_VERSION, __version__
from gammonspec.model.rulesets import rulesets

FAILING = ["mini-spread-65", "mini-hit-65", "mini-count-44"]  # what DropOne gets wrong


def report(path) -> dict:
    return json.loads(path.read_text())


# --- exit 0 and 1 --------------------------------------------------------------------------------


def test_reference_engine_passes_the_real_suite(capsys):
    assert cli.main(["run", "-q"]) == 0
    out = capsys.readouterr().out
    assert "gammonspec-reference" in out and " 0 failed" in out


def test_reference_engine_passes_the_mini_suite(mini_cli, capsys, tmp_path):
    assert cli.main(["run", "-q", "--json", str(tmp_path / "r.json")]) == 0
    data = report(tmp_path / "r.json")
    assert data["summary"]["passed"] == data["summary"]["total"] == 6
    assert capsys.readouterr().out.strip().endswith("6 passed, 0 failed")


def test_failing_engine_exits_1(mini_cli, capsys):
    assert cli.main(["run", "--engine", "fake_engines:DropOne"]) == 1
    out = capsys.readouterr().out
    assert "3 passed, 3 failed" in out
    assert "FAILED backgammon::mini-spread-65" in out and "  missing: " in out
    assert "mini-dance" not in out.split("\n\n")[0]  # passed cases are not described


def test_errored_engine_exits_1(mini_cli):
    assert cli.main(["run", "-q", "--engine", "fake_engines:Raises"]) == 1


def test_skipping_engine_exits_0(mini_cli, capsys):
    assert cli.main(["run", "-q", "--engine", "fake_engines:Skips"]) == 0
    assert "1 skipped" in capsys.readouterr().out


# --- exit 2 --------------------------------------------------------------------------------------
# An error that is one command, one line and its status is a fault-corpus entry (tests/faults/*.yaml);
# the tests here assert more (processes stopped, reports written, every line).


def _running(token: str) -> list[str]:
    """The processes whose command line holds `token`."""
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if token in (proc / "cmdline").read_bytes().decode(errors="replace"):
                found.append(proc.name)
        except OSError:  # it ended meanwhile
            pass
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_engine_started_beside_the_loading_is_stopped_when_nothing_runs(mini_cli, tmp_path, capsys):
    """The engine process starts while the cases load; a run that then stops (no case matches) stops it too."""
    engine = tmp_path / "engine.py"  # says hello, then waits for what never comes
    engine.write_text(
        "import json, sys, time\n"
        f"sys.stdout.write(json.dumps({{'type': 'hello', 'protocol': '{PROTOCOL_VERSION}', 'name': 'slow',"
        " 'version': '1', 'rulesets': ['backgammon']}) + '\\n')\n"
        "sys.stdout.flush()\n"
        "time.sleep(600)\n"
    )
    assert cli.main(["run", "--case", "zzz-*", "--engine-cmd", f"{sys.executable} {engine}"]) == 2
    assert capsys.readouterr().err == "gammonspec: --case 'zzz-*' matches no case id of the 6 in the cases loaded\n"
    assert _running(str(engine)) == []


def test_malformed_case_directory(monkeypatch, tmp_path, capsys):
    bad = tmp_path / "cases" / "backgammon" / "bad.yaml"
    bad.parent.mkdir(parents=True)
    bad.write_text(
        dedent("""
        game: backgammon
        cases:
          - id: broken
            rules: [bg.move.closed-point]
            title: t
            position: start
            turn: white
            roll: [6, 9]
            expect: {count: 1}
            derivation: by hand, from the rules
    """)
    )
    monkeypatch.setattr("gammonspec.conformance.harness.cases.shipped", lambda: load([tmp_path / "cases"]))
    monkeypatch.setattr("gammonspec.conformance.commands.rulesets", lambda: {"backgammon": rulesets()["backgammon"]})
    assert cli.main(["run", "-q"]) == 2
    first, last = capsys.readouterr().err.splitlines()  # one clear error, then why nothing ran
    assert first == f"gammonspec: {bad}:8: cases/0/roll/1: 9 is greater than the maximum of 6"
    assert last == "gammonspec: no case loaded: nothing to run"
    (bad.parent / "mini.yaml").write_text(MINI_SUITE)  # a good file beside it: its cases run, the exit is still 2
    assert cli.main(["run", "-q"]) == 2
    captured = capsys.readouterr()
    assert captured.out.strip().endswith("6 passed, 0 failed")
    assert captured.err.splitlines() == [
        first,
        "gammonspec: 1 problem in the input (listed first); 6 cases ran (6 case-ruleset pairs, as the summary counts them)",
    ]


def test_engine_failing_its_handshake(mini_cli, capsys, fake_cmd):
    assert cli.main(["run", "--engine-cmd", fake_cmd("proto2")]) == 2
    err = capsys.readouterr().err
    assert "failed its handshake" in err and "protocol 2.0" in err
    assert "fake-engine[proto2]: started" in err  # the engine's stderr is shown


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["frobnicate"],
        ["run", "--no-such-option"],
        ["run", "--engine", "reference", "--engine-cmd", "true"],
        ["run", "--timeout", "soon"],
    ],
)
def test_usage_errors(argv, capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(argv)
    assert info.value.code == 2
    [line] = capsys.readouterr().err.splitlines()  # one line, as every error
    assert line.startswith("gammonspec") and line.endswith("--help)")


def test_version(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["--version"])
    assert info.value.code == 0
    assert f"gammonspec {__version__} (protocol {PROTOCOL_VERSION})" in capsys.readouterr().out


# --- reports -------------------------------------------------------------------------------------


def test_json_report(mini_cli, tmp_path):
    path = tmp_path / "report.json"
    assert cli.main(["run", "-q", "--engine", "fake_engines:DropOne", "--json", str(path)]) == 1
    data = report(path)
    s = data["summary"]
    for key in ("total", "passed", "failed", "skipped", "errored", "xfailed", "xpassed"):
        assert type(s[key]) is int, key
    assert (s["total"], s["passed"], s["failed"], s["skipped"], s["errored"]) == (6, 3, 3, 0, 0)
    assert data["suite"]["version"] == __version__ and data["suite"]["protocol"] == PROTOCOL_VERSION
    assert data["engine"]["name"] == "gammonspec-reference" and data["engine"]["restarts"] == 0
    results = {r["id"]: r for r in data["results"]}
    assert list(results) == MINI_IDS
    assert {k for k, r in results.items() if r["status"] == "failed"} == set(FAILING)
    spread = results["mini-spread-65"]
    assert (
        spread["ruleset"] == "backgammon"
        and spread["game"] == "backgammon"
        and spread["rules"] == ["bg.move.closed-point"]
    )
    assert spread["missing"] and set(spread["missing"]) <= {"13/7 13/8", "13/2"} and spread["extra"] == []
    assert results["mini-dance"]["status"] == "passed" and results["mini-dance"]["message"] == ""


def test_json_report_of_a_subprocess_engine(mini_cli, tmp_path, fake_cmd):
    path = tmp_path / "report.json"
    assert cli.main(["run", "-q", "--engine-cmd", fake_cmd("crash"), "--json", str(path)]) == 1
    data = report(path)
    assert data["engine"]["restarts"] == 1 and data["engine"]["name"] == "fake-crash"
    assert data["summary"]["errored"] == 1 and data["summary"]["passed"] == 5
    [errored] = [r for r in data["results"] if r["status"] == "errored"]
    assert errored["id"] == "mini-count-44" and "crashing on purpose" in errored["stderr"]


def test_junit_report(mini_cli, tmp_path):
    path = tmp_path / "junit.xml"
    assert cli.main(["run", "-q", "--engine", "fake_engines:DropOne", "--junit", str(path)]) == 1
    root = ET.parse(path).getroot()
    assert root.tag == "testsuites"
    [suite] = list(root)
    assert suite.tag == "testsuite"
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors"), suite.get("skipped")) == (
        "6",
        "3",
        "0",
        "0",
    )
    cases = {tc.get("name"): tc for tc in suite.iter("testcase")}
    assert list(cases) == MINI_IDS
    assert all(tc.get("classname") == "backgammon.backgammon" for tc in cases.values())
    for cid in FAILING:
        [failure] = list(cases[cid])
        assert failure.tag == "failure" and failure.get("message")
    assert "missing:" in cases["mini-spread-65"].find("failure").text
    assert list(cases["mini-dance"]) == []


def test_junit_report_with_errors_and_skips(mini_cli, tmp_path, monkeypatch):
    path = tmp_path / "junit.xml"
    assert cli.main(["run", "-q", "--engine", "fake_engines:Raises", "--junit", str(path)]) == 1
    suite = ET.parse(path).getroot()[0]
    assert suite.get("errors") == "1" and suite.get("failures") == "0"
    [error] = [tc for tc in suite.iter("testcase") if tc.get("name") == "mini-count-44"]
    assert error[0].tag == "error" and "kaboom" in error[0].get("message")
    assert cli.main(["run", "-q", "--engine", "fake_engines:Skips", "--junit", str(path)]) == 0
    suite = ET.parse(path).getroot()[0]
    assert suite.get("skipped") == "1"


# --- expected failures and filters ---------------------------------------------------------------


def test_expect_fail_turns_known_failures_green(mini_cli, tmp_path, capsys):
    listing = tmp_path / "known.txt"
    listing.write_text("# known failures\nmini-spread-65\nbackgammon::mini-hit-65   # by ruleset\n\nmini-count-44\n")
    path = tmp_path / "r.json"
    assert (
        cli.main(["run", "-q", "--engine", "fake_engines:DropOne", "--expect-fail", str(listing), "--json", str(path)])
        == 0
    )
    data = report(path)
    assert data["summary"]["xfailed"] == 3 and data["summary"]["failed"] == 0
    assert "3 xfailed" in capsys.readouterr().out


def test_expect_fail_listing_a_passing_case_fails_the_run(mini_cli, tmp_path):
    listing = tmp_path / "known.txt"
    listing.write_text("\n".join(FAILING + ["mini-dance"]) + "\n")
    path = tmp_path / "r.json"
    assert (
        cli.main(["run", "-q", "--engine", "fake_engines:DropOne", "--expect-fail", str(listing), "--json", str(path)])
        == 1
    )
    results = {r["id"]: r for r in report(path)["results"]}
    assert results["mini-dance"]["status"] == "xpassed"
    assert report(path)["summary"]["xpassed"] == 1


@pytest.mark.parametrize(
    "args, ids",
    [
        (["--case", "mini-*-65"], ["mini-spread-65", "mini-hit-65"]),
        (["--case", "mini-dance", "--case", "mini-gammon"], ["mini-dance", "mini-gammon"]),
        (["--rule", "bg.score.*"], ["mini-gammon"]),
        (["--game", "backgammon", "--ruleset", "backgammon"], MINI_IDS),
    ],
)
def test_filters(mini_cli, tmp_path, args, ids):
    path = tmp_path / "r.json"
    assert cli.main(["run", "-q", *args, "--json", str(path)]) == 0
    assert [r["id"] for r in report(path)["results"]] == ids


# --- your own cases (--cases) and checking them ----------------------------------------------------

BAD_ROLL = MINI_SUITE.replace("roll: [6, 5]\n    expect:\n      plays:", "roll: [6, 9]\n    expect:\n      plays:", 1)


def test_run_own_cases(tmp_path, capsys):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "mini.yml").write_text(MINI_SUITE)
    path = tmp_path / "r.json"
    assert cli.main(["run", "-q", "--cases", str(tmp_path / "mine"), "--json", str(path)]) == 0
    assert [r["id"] for r in report(path)["results"]] == MINI_IDS  # only the given cases ran
    assert capsys.readouterr().err == ""


def test_check_reports_every_problem(tmp_path, capsys):
    two_bad = BAD_ROLL.replace("title: white off, black none off", "title: 12\n    colour: red", 1)
    (tmp_path / "a.yaml").write_text(two_bad)
    (tmp_path / "b.yaml").write_text(MINI_SUITE.replace("[bg.score.gammon]", "[bg.score.no-such-rule]"))
    assert cli.main(["check", "--cases", str(tmp_path)]) == 2
    err = capsys.readouterr().err.splitlines()
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    assert err[:3] == [  # both mistakes of case 4, each located
        f"gammonspec: {a}:9: cases/0/roll/1: 9 is greater than the maximum of 6",
        f"gammonspec: {a}:52: cases/4/title: 12 is not of type 'string'",
        f"gammonspec: {a}:53: cases/4/colour: Additional properties are not allowed ('colour' was unexpected)",
    ]
    # b repeats a's ids: the ones that loaded from a are duplicates; and one names an unknown rule
    assert sum("duplicate case id" in line for line in err) == 4
    assert f"gammonspec: {b}:50: case mini-gammon: unknown rule bg.score.no-such-rule (no spec page defines it)" in err
    assert err[-1] == "gammonspec: 8 problems in 7 cases; 5 cases valid"


def test_check_of_good_cases(tmp_path, capsys):
    (tmp_path / "mini.yaml").write_text(MINI_SUITE)
    assert cli.main(["check", "--cases", str(tmp_path / "mini.yaml")]) == 0
    assert capsys.readouterr().out.startswith("6 cases, 5 rulesets, ")


def test_run_reports_a_broken_case_and_runs_the_rest(tmp_path, capsys):
    (tmp_path / "mini.yaml").write_text(BAD_ROLL)
    path = tmp_path / "r.json"
    assert cli.main(["run", "-q", "--cases", str(tmp_path / "mini.yaml"), "--json", str(path)]) == 2
    assert [r["id"] for r in report(path)["results"]] == MINI_IDS[1:]
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"gammonspec: {tmp_path / 'mini.yaml'}:9: cases/0/roll/1: 9 is greater than the maximum of 6",
        "gammonspec: 1 problem in the input (listed first); 5 cases ran (5 case-ruleset pairs, as the summary counts them)",
    ]


def test_stale_expect_fail_entries_are_reported(mini_cli, tmp_path, capsys):
    listing = tmp_path / "known.txt"
    listing.write_text("mini-spread-65\nmini-renamed   # gone\nchess::mini-dance\n")
    assert cli.main(["run", "-q", "--engine", "fake_engines:DropOne", "--expect-fail", str(listing)]) == 2
    captured = capsys.readouterr()
    assert captured.err.splitlines()[:2] == [
        f"gammonspec: {listing}:2: no case 'mini-renamed' in the cases loaded (a stale entry?)",
        f"gammonspec: {listing}:3: unknown ruleset 'chess' (known: backgammon)",
    ]
    assert "1 xfailed" in captured.out  # the run still ran


@pytest.mark.parametrize("option", ["--json", "--junit"])
def test_unwritable_report_stops_before_the_run(mini_cli, tmp_path, capsys, option):
    target = tmp_path / "missing" / "report"
    assert cli.main(["run", "--engine", "fake_engines:Raises", option, str(target)]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"gammonspec: {target}: {option}: no folder {target.parent}\n"
    assert captured.out == ""  # nothing ran


def test_every_reports_rerun_line_names_the_engine(tmp_path, capsys):
    """The terminal, JSON and JUnit rerun lines of a failing case under --engine-cmd all rerun that engine."""
    import shlex

    command = f"{shlex.quote(sys.executable)} {ENGINES / 'mutant_engine.py'} either-die-when-one-playable"
    json_path, junit_path = tmp_path / "r.json", tmp_path / "r.xml"
    args = ["run", "--engine-cmd", command, "--case", "bg-higher-die-single-checker", "--ruleset", "backgammon"]
    assert cli.main([*args, "--json", str(json_path), "--junit", str(junit_path)]) == 1
    wanted = f"gammonspec run --engine-cmd {shlex.quote(command)} --case bg-higher-die-single-checker"
    assert f"rerun: {wanted}" in capsys.readouterr().out
    (result,) = json.loads(json_path.read_text())["results"]
    assert result["status"] == "failed" and result["rerun"].startswith(wanted)
    (failure,) = ET.parse(junit_path).getroot().iter("failure")
    assert f"rerun: {wanted}" in failure.text


@pytest.mark.parametrize("command", [["check", "--cases"], ["run", "--cases"], ["run", "--expect-fail"], ["replay"]])
def test_a_fifo_is_refused_in_one_line_not_waited_on(tmp_path, capsys, command):
    import os

    fifo = tmp_path / "c.yaml"
    os.mkfifo(fifo)
    assert cli.main([*command, str(fifo)]) == 2
    first = capsys.readouterr().err.splitlines()[0]
    assert first == f"gammonspec: {fifo}: not a regular file (a FIFO, device or socket): give a file"


def test_the_per_rule_table_keeps_to_the_declared_rulesets_unless_verbose(capsys):
    """A backgammon-only engine's table has no rows of the Narde rules it was never asked (all with --verbose)."""
    narde_rows = []
    for extra in ([], ["--verbose"]):
        assert cli.main(["run", "--engine", "fake_engines:BackgammonPlaysOnly", *extra]) == 0
        rows = capsys.readouterr().out.splitlines()
        narde_rows.append([r for r in rows if r.startswith(("nd.", "cn."))])
    assert narde_rows[0] == [] and len(narde_rows[1]) > 50


FOUR_MISTAKES = """game: backgammon
group: Mine
cases:
  - id: my-four-mistakes
    rules: [bg.no-such-rule]
    title: Four mistakes at once
    position:
      white: {6: 2, 1: 13}
      black: {6: 15}
    turn: white
    roll: [6, 5]
    expect:
      plays: ["6/off 6/1", "6/3"]
      excludes:
        - {play: "1/off", reason: not-a-reason}
    derivation: By hand.
"""


def test_a_case_with_four_mistakes_gets_four_located_lines_from_one_check(tmp_path, capsys):
    path = tmp_path / "four.yaml"
    path.write_text(FOUR_MISTAKES)
    assert cli.main(["check", "--cases", str(path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"gammonspec: {path}:5: case my-four-mistakes: unknown rule bg.no-such-rule (no spec page defines it)",
        f"gammonspec: {path}:13: case my-four-mistakes: play '6/3': 6/3 moves 3 pips, which no numbers of 6-5 make",
        f"gammonspec: {path}:15: cases/0/expect/excludes/0/reason: 'not-a-reason': not one of point-closed, bar-first,"
        " higher-die-required, both-dice-required, all-dice-required, not-all-home, higher-checker-first,"
        " wrong-direction, no-such-checker, head-rule, six-block, home-frozen, exact-bear-off-only, bear-off-after-hit",
        f"gammonspec: {path}:16: cases/0/derivation: 'By hand.' is too short (at least 10 characters)",
        "gammonspec: 4 problems in 1 case; 0 cases valid",
    ]
    # every command refuses what check refuses: run --cases does not run it
    assert cli.main(["run", "-q", "--cases", str(path)]) == 2


LONG_ID = "a-case-id-" + "x" * 590


def test_a_case_id_of_600_characters_is_cut_in_its_middle_and_the_reports_are_written(tmp_path, capsys):
    """Each line keeps what is wrong after the ID; a run that loads no case still writes both reports."""
    from test_loading import GOOD

    bad = GOOD.replace("id: one", f"id: {LONG_ID}").replace("bg.move.closed-point", "bg.move.no-such-rule")
    (tmp_path / "c.yaml").write_text(bad)
    json_path, junit_path = tmp_path / "r.json", tmp_path / "r.xml"
    argv = ["run", "-q", "--cases", str(tmp_path / "c.yaml"), "--json", str(json_path), "--junit", str(junit_path)]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.splitlines()
    assert all(len(line) <= 300 for line in err)
    assert err[0].endswith(": unknown rule bg.move.no-such-rule (no spec page defines it)")
    assert "a-case-id-xxxxxxxxxxxxxxxxxxxx…xxxxxxxxxxxxxxxxxxxxxxxxxxxx:" in err[0]
    assert err[-1] == "gammonspec: no case loaded: nothing to run"
    written = report(json_path)
    assert written["error"] == "no case loaded: nothing to run" and "no-such-rule" in written["stderr"]
    (case,) = ET.parse(junit_path).getroot().iter("testcase")
    assert case.get("name") == "the run could not start"  # a case file's fault, not the engine's start
    assert case.find("error").get("message") == written["error"]


def test_a_failing_case_with_an_id_of_600_characters(tmp_path, capsys):
    """The report's heading line is cut; its rerun line, a command to copy, keeps the whole ID."""
    from test_loading import GOOD

    (tmp_path / "c.yaml").write_text(GOOD.replace("id: one", f"id: {LONG_ID}"))  # its plays are not all the plays
    json_path = tmp_path / "r.json"
    assert cli.main(["run", "--cases", str(tmp_path / "c.yaml"), "--json", str(json_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    heading = next(line for line in out if line.startswith("FAILED "))
    assert len(heading) <= 300 and heading.endswith("[bg.move.closed-point] a title")
    assert any(line.strip().startswith("rerun: ") and LONG_ID in line for line in out)
    assert [r["id"] for r in report(json_path)["results"]] == [LONG_ID]


def test_a_line_too_long_loses_the_middle_of_its_long_words_first():
    from gammonspec.model.terminal import MAX_MESSAGE, clipped, fitted

    line = f"c.yaml:4: case {'x' * 1000}: unknown rule " + "and more words " * 5
    assert clipped(line) == f"c.yaml:4: case {'x' * 30}…{'x' * 28}: unknown rule " + "and more words " * 4 + "and more words"
    prose = "word " * 100  # no long word to shorten: the end goes
    assert len(clipped(prose)) == MAX_MESSAGE and clipped(prose).endswith("…")
    assert fitted("FAILED x  [a]  title") == "FAILED x  [a]  title"  # a line that fits keeps its spacing


def test_run_cases_refuses_what_check_refuses_in_the_same_lines(tmp_path, capsys):
    path = tmp_path / "four.yaml"
    path.write_text(FOUR_MISTAKES)
    assert cli.main(["check", "--cases", str(path)]) == 2
    checked = capsys.readouterr().err.splitlines()[:-1]  # the problems, without check's totals
    assert len(checked) == 4
    assert cli.main(["run", "-q", "--cases", str(path)]) == 2
    ran = capsys.readouterr().err.splitlines()
    assert ran == [*checked, "gammonspec: no case loaded: nothing to run"]
