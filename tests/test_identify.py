"""`gammonspec identify`: the reference engine under every one-switch-flipped profile, and the fake engines."""

from __future__ import annotations

import json

import fake_engines as fe
import pytest
from gammonspec.conformance import cli
from gammonspec.conformance.cases import suite
from gammonspec.conformance.identify import identify, to_json
from gammonspec.conformance.rulesets import rulesets
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


def test_cli_bug_exits_1_and_skips_are_not_evidence(capsys):
    assert cli.main(["identify", "--engine", "fake_engines:DropOne", "--game", "backgammon"]) == 1
    assert "unexplained failures (bugs): bg-" in capsys.readouterr().out
    assert cli.main(["identify", "--engine", "fake_engines:NoRulesets"]) == 2
