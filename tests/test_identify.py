"""`gammonspec identify`: the reference engine under every one-switch-flipped profile, and the fake engines."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import deviant_engines as de
import fake_engines as fe
import pytest
from gammonspec.conformance import cli
from gammonspec.conformance.harness.cases import suite
from gammonspec.conformance.tools.identify import identify
from gammonspec.conformance.tools.identify_report import to_json
from gammonspec.model.rulesets import rulesets
from gammonspec.reference import ReferenceEngine
from identify_flips import FLIPS, KNOWN_GAPS, MODEL, check

# A few flips of tests/identify_flips.py (tests/soak runs every flip): recovered ones of each game family,
# among them readings that once tied with a neighbour (the two six-block bans, the oin readings, the chains,
# values whose cases mostly pass either way, hitting in Narde, whose answers have a bar) and one the suite cannot see.
SAMPLE = {
    "backgammon+bear-off=exact-only": "recovered",
    "backgammon+next-game-opener=previous-winner": "recovered",
    "crazy-narde+opening=winner-rolls": "recovered",
    "crazy-narde+six-block=banned-after-turn": "recovered",
    "gul-bara+doubles=chain": "recovered",
    "narde-guide+six-block=banned-within-turn": "recovered",
    "narde-guide+scoring=oin-mars": "recovered",
    "narde-guide+head-exception=none": "recovered",
    "backgammon+draw=both-blocked": "invisible",
    "narde-guide+hitting=blots": "recovered",
}


@pytest.mark.parametrize("name", SAMPLE)
def test_identify_recovers_a_visible_flip(name):
    """An engine that plays a flip while declaring its ruleset: identify names the flipped switch value."""
    ((ruleset, flip),) = [(rs, f) for rs, f in FLIPS if f.name == name]
    verdict, seen = check(ruleset, flip)
    assert verdict == SAMPLE[name], seen
    assert name not in KNOWN_GAPS


def test_the_reference_as_itself_has_no_changes():
    for ruleset in rulesets().values():
        found = identify(ReferenceEngine(), suite(), ruleset, MODEL)
        assert found.changes == {} and not found.unexplained and not found.errored, ruleset.name
        assert found.closest() == ruleset.name
        for switch, row in found.switch_table.items():  # the declared value fits every case pinning the switch
            assert row[ruleset.switches[switch]][0] == row[ruleset.switches[switch]][1], (ruleset.name, row)


# DropOne fails all six cases pinning head-rule=none; on four of them the play it drops is the one a head rule
# forbids, but a reading stands only where it fits every case pinning its switch: the rest is a bug.
def test_a_bug_is_an_unexplained_failure():
    found = identify(fe.DropOne(), suite(), rulesets()["backgammon"])
    failed = {o.case.id for o in found.outcomes if o.status == "failed" and o.case.query == "legal-plays"}
    assert failed and failed <= set(found.unexplained) and found.changes == {}
    assert "unexplained" in to_json(found) and to_json(found)["unexplained"] == found.unexplained


def test_wrong_results_are_bugs():
    found = identify(fe.WrongResult(), suite(), rulesets()["backgammon"])
    assert found.unexplained and all(
        o.case.query != "legal-plays" for o in found.outcomes if o.case.id in found.unexplained
    )


def test_errors_are_listed_not_bugs():
    raising = identify(fe.Raises(), suite(), rulesets()["backgammon"])
    assert raising.errored and not raising.unexplained


def test_cli_text_and_json(tmp_path, capsys):
    assert (
        cli.main(["identify", "--game", "narde", "--switch", "scoring=oin-mars", "--json", str(tmp_path / "i.json")])
        == 0
    )
    out = capsys.readouterr().out
    assert "closest profile: narde-guide + scoring=oin-mars" in out and "unexplained failures (bugs): none" in out
    (data,) = json.loads((tmp_path / "i.json").read_text())
    assert data["asked_as"] == "narde-guide+scoring=oin-mars" and data["unexplained"] == []
    row = data["switches"]["scoring"]
    # many cases pinning scoring hold under both oin readings, and only the coke cases tell them apart
    assert row["oin-mars"]["consistent"] == row["oin-mars"]["total"] > row["oin-mars-coke"]["consistent"]
    assert row["single-gammon-backgammon"]["consistent"] < row["oin-mars-coke"]["consistent"]
    assert data["plays"]["scoring"] == "oin-mars" and data["ties"] == {}


def test_cli_bug_exits_1_and_skips_are_not_evidence(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "160")
    assert cli.main(["identify", "--engine", "fake_engines:DropOne", "--game", "backgammon"]) == 1
    out = capsys.readouterr().out
    assert "unexplained failures (bugs): 50," in out and "  the engine misses legal plays: 22 case(s) of " in out
    assert "  the engine does not enter from the bar where a point is open: 10 case(s) of bg.bar.enter, " in out
    assert "    e.g. bg-opening-65-run-or-split (" in out and "missing: 24/13" in out  # a representative board


# Engines in the wild have several deviations (tests/engines/deviant_engines.py): each is named, the switch
# readings jointly and the broken rules by the rule mutant whose answers the engine gives.
def test_two_readings_and_a_broken_rule_are_all_named():
    found = identify(de.ThreeDeviations(), suite(), rulesets()["narde-guide"])
    assert found.changes == {"head-rule": "none", "bear-off": "exact-only"}
    assert list(found.broken) == ["six-block-edge-counts-ahead"]
    assert found.broken["six-block-edge-counts-ahead"] == found.unexplained  # every bug explained by it
    # the reading's counter-evidence is the mutant's: a case pinning bear-off that fails for the six-block bug
    assert set(found.against["bear-off=exact-only"]) <= set(found.unexplained)
    data = to_json(found)
    (bug,) = data["bugs"]
    assert bug["mutant"] == "six-block-edge-counts-ahead" and bug["rule"] == "nd.block.six" and not found.behaviours
    assert all(data["rules"][i][0].startswith("nd.block") for i in bug["cases"])


def test_a_reading_and_two_broken_rules():
    found = identify(de.OneFlipTwoBugs(), suite(), rulesets()["narde-guide"])
    assert found.changes == {"head-rule": "none"}
    assert set(found.broken) == {"six-block-own-numbering", "either-die-when-one-playable"}
    assert sorted(i for ids in found.broken.values() for i in ids) == sorted(found.unexplained)


def test_a_mutant_refuted_by_a_pass_explains_nothing():
    # DropOne's dropped play is, on three cases, the play blot-closes-point forbids; the cases it passes refute it
    found = identify(fe.DropOne(), suite(), rulesets()["backgammon"])
    assert found.broken == {} and found.unexplained


def test_lines_keep_to_the_terminal_and_verbose_lists_every_id(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "100")
    assert cli.main(["identify", "--engine", "deviant_engines:ThreeDeviations"]) == 1
    out = capsys.readouterr().out
    assert max(map(len, out.splitlines())) <= 100 and "(--verbose lists all)" in out
    assert cli.main(["identify", "--engine", "deviant_engines:ThreeDeviations", "--verbose"]) == 1
    verbose = capsys.readouterr().out
    found = identify(de.ThreeDeviations(), suite(), rulesets()["narde-guide"])
    assert all(i in verbose for i in found.unexplained) and "(--verbose lists all)" not in verbose
    # a kept value that no case pinning it fits is not said to be played
    assert not any("<- plays" in line and " 0/" in line for line in out.splitlines())


def test_no_answers_no_reading(capsys):
    assert cli.main(["identify", "--engine", "deviant_engines:AlwaysRaises", "--game", "backgammon"]) == 1
    out = capsys.readouterr().out
    assert "no answers: no reading" in out and "closest profile" not in out
    found = identify(de.AlwaysRaises(), suite(), rulesets()["backgammon"])
    assert to_json(found)["closest_profile"] is None and found.errored
    assert cli.main(["identify", "--engine", "fake_engines:NoRulesets"]) == 2


def test_a_real_narde_engine_with_several_deviations():
    # nard-backgammon 0.1.0 has no head rule, no higher-number rule and its own six-block row (its adapter's
    # docstring gives the lines of its source): two readings and a broken rule, the rest bugs by clause
    pytest.importorskip("nard_backgammon")
    from gammonspec.engines.nard_backgammon import NardBackgammon

    found = identify(NardBackgammon(), suite(), rulesets()["narde-guide"])
    assert found.changes == {"head-rule": "none", "six-block": "allowed"}
    assert "either-die-when-one-playable" in found.broken


# The control of issue 46: a protocol process in front of the independent Narde enumerator (not the reference
# engine) with planted rule changes, listing its plays in shuffled order. The positions are a set: whatever the
# order, identify names exactly the planted readings, and nothing is left unexplained.
BRIDGE = Path(__file__).resolve().parent / "engines" / "independent_bridge.py"


@pytest.mark.parametrize(("planted", "seed"), [(("head-rule=none",), 3), (("head-rule=none", "six-block=allowed"), 5)])
def test_an_independent_engine_with_planted_changes_is_named_exactly(planted, seed, tmp_path):
    engine = shlex.join([sys.executable, str(BRIDGE), *planted, "--seed", str(seed)])
    out = tmp_path / "i.json"
    assert cli.main(["identify", "--engine-cmd", engine, "--game", "narde", "--json", str(out)]) == 0
    (data,) = json.loads(out.read_text())
    assert data["changes"] == dict(p.split("=") for p in planted)
    assert data["closest_profile"] == " + ".join(["narde-guide", *planted])
    assert data["unexplained"] == [] and data["bugs"] == [] and data["against"] == {}
    assert data["summary"]["failed"] > 20 and "errored" not in data["summary"]  # the readings had work to do


def test_the_bridge_lists_one_set_in_different_orders():
    hello = {"type": "hello", "protocol": "1.1", "suite": "0"}
    white = [0] * 24
    white[23], white[19], white[17], white[14], white[12], white[8] = 10, 1, 1, 1, 1, 1  # 10 on the head, 5 out
    start = {
        "white": white,
        "black": [0] * 23 + [15],
        "bar": {"white": 0, "black": 0},
        "off": {"white": 0, "black": 0},
    }
    state = {
        "game": "narde",
        "turn": "white",
        "dice": [6, 5],
        "position": start,
        "context": {"first_turn": False, "rolls_in_game": 3, "head_moves": 0},
        "cube": {"value": 1, "owner": None},
        "match": {"length": 0, "score": {"white": 0, "black": 0}, "crawford": False},
        "segment": None,
    }
    ask = {"type": "legal-plays", "id": "1", "rules": rulesets()["narde-guide"].rules().to_wire(), "state": state}
    lists = []
    for seed in ("1", "2"):
        lines = "".join(json.dumps(m) + "\n" for m in (hello, ask, {"type": "bye"}))
        done = subprocess.run(
            [sys.executable, str(BRIDGE), "head-rule=none", "--seed", seed],
            input=lines,
            capture_output=True,
            text=True,
            check=True,
        )
        lists.append([json.dumps(p, sort_keys=True) for p in json.loads(done.stdout.splitlines()[1])["positions"]])
    assert lists[0] != lists[1] and sorted(lists[0]) == sorted(lists[1]) and len(lists[0]) > 10


# One misreading, one bug group: a bug no rule mutant names is grouped by what its plays do, across clauses.
def test_the_bugs_no_mutant_names_are_grouped_by_what_they_do():
    from gammonspec.conformance.tools.identify import does

    found = identify(fe.DropOne(), suite(), rulesets()["backgammon"])
    outcomes = {o.case.id: o for o in found.outcomes}
    assert sorted(i for ids in found.behaviours.values() for i in ids) == sorted(found.unexplained)
    entering = found.behaviours["does not enter from the bar where a point is open"]
    assert {r for i in entering for r in outcomes[i].case.rule_ids} >= {"bg.bar.enter", "bg.bar.enter-first"}
    assert all(does(outcomes[i]) == "does not enter from the bar where a point is open" for i in entering)
    bugs = [b for b in to_json(found)["bugs"] if "does" in b]
    assert len(bugs) == len(found.behaviours) and all(b["rules"] and b["cases"] for b in bugs)
