"""`gammonspec identify`: the reference engine under every one-switch-flipped profile, and the fake engines."""

from __future__ import annotations

import json

import fake_engines as fe
import pytest
from gammonspec.conformance import cli
from gammonspec.conformance.cases import suite
from gammonspec.conformance.identify import identify, to_json
from gammonspec.conformance.rules import rulesets
from gammonspec.reference import ReferenceEngine
from identify_flips import FLIPS, KNOWN_GAPS, check

# A few flips of tests/identify_flips.py (CI runs every flip): one recovered per game family, one the suite
# cannot see, one known gap.
SAMPLE = {
    "backgammon+bear-off=exact-only": "recovered",
    "crazy-narde+opening=winner-rolls": "recovered",
    "narde-variant+bear-off=exact-only": "recovered",
    "backgammon+doubles=chain": "recovered",  # the gap cases of a chain ended by a win make it visible
    "gul-bara+doubles=chain": "missed",
}


@pytest.mark.parametrize("name", SAMPLE)
def test_identify_recovers_a_visible_flip(name):
    """An engine that plays a flip while declaring its ruleset: identify names the flipped switch value."""
    ((ruleset, flip),) = [(rs, f) for rs, f in FLIPS if f.name == name]
    verdict, seen = check(ruleset, flip)
    assert verdict == SAMPLE[name], seen
    assert (name in KNOWN_GAPS) == (verdict == "missed")


def test_the_reference_as_itself_has_no_changes():
    for ruleset in rulesets().values():
        found = identify(ReferenceEngine(), suite(), ruleset)
        assert found.changes == {} and not found.unexplained and not found.errored, ruleset.name
        assert found.closest() == ruleset.name
        # every pinned switch has evidence, and the declared value explains all of it
        for switch, row in found.switch_table.items():  # the declared value is the most consistent one
            assert row[ruleset.switches[switch]][0] == max(good for good, _ in row.values()), (ruleset.name, row)


# Since the switch-pinning check, the backgammon start cases pin head-rule=none and the result cases pin scoring:
# a bug that fails every case pinning a value is, by verdicts alone, also explained by a value no case pins.
@pytest.mark.xfail(strict=True, reason="DropOne fails all 6 head-rule=none cases: read as head-rule=one-per-turn")
def test_a_bug_is_an_unexplained_failure():
    found = identify(fe.DropOne(), suite(), rulesets()["backgammon"])
    failed = {o.case.id for o in found.outcomes if o.status == "failed" and o.case.query == "legal-plays"}
    assert failed and failed <= set(found.unexplained) and found.changes == {}
    assert "unexplained" in to_json(found) and to_json(found)["unexplained"] == found.unexplained


@pytest.mark.xfail(strict=True, reason="WrongResult fails every scoring-pinned result case: read as another scoring")
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
    # the cases pinning scoring often list both oin readings, so oin-mars-coke is nearly as consistent
    assert row["oin-mars"]["consistent"] > row["single-gammon-backgammon"]["consistent"]
    assert data["plays"]["scoring"] == "oin-mars"


def test_cli_bug_exits_1_and_skips_are_not_evidence(capsys):
    assert cli.main(["identify", "--engine", "fake_engines:DropOne", "--game", "backgammon"]) == 1
    assert "unexplained failures (bugs): bg-" in capsys.readouterr().out
    assert cli.main(["identify", "--engine", "fake_engines:NoRulesets"]) == 2
