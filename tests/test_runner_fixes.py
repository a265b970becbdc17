"""Runner behaviour real engines need: `next` checked apart from plays, impossible answers, skip kinds, the
report's failing ids, table and rerun lines."""

from __future__ import annotations

import shlex
from dataclasses import replace
from pathlib import Path

import fake_engines as fe
from conftest import MINI_SUITE
from gammonspec.conformance import cli
from gammonspec.conformance.harness import reports
from gammonspec.conformance.harness.cases import suite
from gammonspec.conformance.harness.judges import judge_match
from gammonspec.conformance.harness.runner import NOT_DECLARED, NOT_OFFERED, Filters, plan, run
from gammonspec.model.interface import MatchOutcome
from gammonspec.model.notation import apply
from gammonspec.model.rulesets import rulesets


def test_next_is_unchecked_not_the_whole_case():
    pairs = [(c, rs) for c, rs in plan(suite(), rulesets(), Filters(games=("crazy-narde",))) if c.steps[0].check_next]
    assert pairs
    outcomes = list(run(fe.NoNextSegment(), pairs))
    assert all(o.status == "passed" and o.unchecked for o in outcomes), {o.status for o in outcomes}
    assert "`next` was not checked" in reports.text(outcomes, fe.NoNextSegment().info())
    full = list(run(fe.Reference(), pairs))
    assert all(o.status == "passed" and not o.unchecked for o in full)


def test_skips_say_not_declared_apart_from_not_offered():
    outcomes = list(run(fe.BackgammonPlaysOnly(), plan(suite(), rulesets(), Filters())))
    kinds = {o.message for o in outcomes if o.status == "skipped"}
    assert any("ruleset narde-guide" in k for k in kinds) and any("answer" in k for k in kinds)
    tail = reports.text(outcomes, fe.BackgammonPlaysOnly().info()).rsplit("\n\n", 1)[-1]
    not_declared = sum(o.case.game != "backgammon" for o in outcomes)
    not_offered = sum(o.case.game == "backgammon" and o.status == "skipped" for o in outcomes)
    assert f"{not_declared} {NOT_DECLARED}" in tail and f"{not_offered} {NOT_OFFERED}" in tail


def test_an_excluded_play_is_shown_once(mini):
    """mini-spread-65 with 13/7 alone also listed as forbidden: an engine giving it sees it once, with the reason."""
    case = mini[0]
    step = case.steps[0]
    half = apply(step.state.layout, step.state.turn, "13/7")
    step = replace(
        step,
        expect={**step.expect, "excludes": [{"play": "13/7", "reason": "all-dice-required"}]},
        expected={**step.expected, "excludes": {"13/7": half}},
    )
    case = replace(case, steps=(step,))

    class HalfPlay(fe.Reference):
        def legal_plays(self, state, rules):
            return [*super().legal_plays(state, rules), apply(state.layout, state.turn, "13/7")]

    (o,) = run(HalfPlay(), [(case, rulesets()["backgammon"])])
    assert o.status == "failed" and o.extra == ["13/7 (forbidden: all-dice-required)"]


def test_quiet_lists_failing_ids_and_totals_only(mini_cli, capsys):
    assert cli.main(["run", "-q", "--engine", "fake_engines:DropOne"]) == 1
    lines = [line for line in capsys.readouterr().out.strip().splitlines() if line]
    assert lines[:-2] == [f"FAILED backgammon::{i}" for i in ("mini-spread-65", "mini-hit-65", "mini-count-44")]
    assert lines[-2] == "(run without -q for each one's rules, board and plays)"  # the one line beyond IDs
    assert lines[-1].endswith("3 passed, 3 failed")


def test_rule_table_shows_rules_with_trouble_unless_verbose(mini_cli, capsys):
    cli.main(["run", "--engine", "fake_engines:DropOne"])
    table = capsys.readouterr().out.split("\n\n")[-2]
    assert "bg.move.closed-point" in table and "bg.object" not in table
    cli.main(["run", "--verbose", "--engine", "fake_engines:DropOne"])
    assert "bg.object" in capsys.readouterr().out.split("\n\n")[-2]


def test_failure_shows_xgid_and_a_rerun_line_that_works(mini_cli, capsys):
    cli.main(["run", "--engine", "fake_engines:DropOne"])
    out = capsys.readouterr().out
    block = next(b for b in out.split("\n\n") if b.startswith("FAILED backgammon::mini-hit-65"))
    assert "\n  XGID=-" in block and ":65:" in block  # the position and the roll, for other tools
    (rerun,) = [line.split("rerun: ", 1)[1] for line in block.splitlines() if "rerun: " in line]
    assert rerun == "gammonspec run --engine fake_engines:DropOne --case mini-hit-65 --ruleset backgammon"
    assert cli.main(shlex.split(rerun)[1:] + ["-q"]) == 1
    lines = [line for line in capsys.readouterr().out.strip().splitlines() if line]
    assert lines[0] == "FAILED backgammon::mini-hit-65" and lines[2].endswith(": 0 passed, 1 failed")


def test_rerun_line_of_a_profile_names_its_switches(capsys):
    cli.main(
        [
            "run",
            "--engine",
            "fake_engines:DropOne",
            "--ruleset",
            "narde-guide",
            "--switch",
            "cube=doubling",
            "--case",
            "nd-move-*",
        ]
    )
    out = capsys.readouterr().out
    assert "rerun: gammonspec run --engine fake_engines:DropOne --case nd-move-" in out
    assert "--ruleset narde-guide --switch cube=doubling" in out


def test_the_rerun_line_of_an_own_case_file_reruns_it(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("mine.yaml").write_text(MINI_SUITE, encoding="utf-8")
    assert cli.main(["run", "--engine", "fake_engines:DropOne", "--cases", "mine.yaml"]) == 1
    (line,) = {line for line in capsys.readouterr().out.splitlines() if "rerun: " in line and "mini-spread-65" in line}
    argv = shlex.split(line.split("rerun: ", 1)[1])
    assert argv[:2] == ["gammonspec", "run"] and "--cases" in argv
    assert cli.main(argv[1:]) == 1
    assert "0 passed, 1 failed" in capsys.readouterr().out


def test_a_hitting_flip_of_narde_is_judged_and_served_under_its_own_switch():
    """Under narde-guide with hitting=blots a checker may stand on the bar: serve reads such a request and
    the runner takes the hits as possible positions, not as impossible ones (as the game's rulesets would)."""
    from gammonspec.conformance.harness.protocol import answer
    from gammonspec.conformance.harness.runner import judge_step
    from gammonspec.model.state import Layout, State
    from gammonspec.reference import ReferenceEngine

    rs = rulesets()["narde-guide"]
    rules = rs.rules()
    rules = type(rules)(rules.ruleset, rules.game, {**rules.switches, "hitting": "blots"}, rules.options)
    white, black = [0] * 24, [0] * 24
    white[23], white[5], black[23], black[0] = 13, 2, 14, 0
    state = State(Layout("narde", tuple(white), tuple(black), (0, 1)), "black", (3, 1))
    request = {"type": "legal-plays", "id": "1", "state": state.to_wire(), "rules": rules.to_wire()}
    reply = answer(ReferenceEngine(), request)
    assert reply["type"] == "plays", reply
    pairs = [p for p in plan(suite(), {"narde-guide": rs}, Filters()) if p[0].steps[0].kind == "plays"]
    step = replace(pairs[0][0].steps[0], state=state, expect={"count": len(reply["positions"])}, expected={})
    verdict = judge_step(ReferenceEngine(), step, rules)
    assert verdict.passed, verdict.message


def test_the_match_after_a_game_is_judged_field_by_field_with_defaults_read_once():

    step = next(s for c in suite() for s in c.steps if s.kind == "next-game" and s.expect.get("score"))
    right = MatchOutcome.from_wire(step.expect)
    assert judge_match(step, right).passed
    wrong = MatchOutcome(right.score, not right.crawford, right.winner)
    verdict = judge_match(step, wrong)
    assert not verdict.passed and "'crawford'" in verdict.message and "engine says" in verdict.message
    assert MatchOutcome.from_wire(right.to_wire()) == right
    assert MatchOutcome.from_wire({}) == MatchOutcome((0, 0), False, None)
