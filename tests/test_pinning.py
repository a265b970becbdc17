"""The switch-pinning check: a case whose verdict depends on a switch it does not require is caught."""

from __future__ import annotations

from gammonspec.conformance.cli import main
from gammonspec.conformance.harness.cases import load_file, suite
from gammonspec.conformance.tools.pinning import check, flips, ok, table
from gammonspec.model.rulesets import rulesets
from gammonspec.reference import ReferenceEngine

# A mars (black bore off none, all past its first quarter) is a gammon under backgammon scoring: the
# case depends on `scoring`.
PLANTED = """\
game: narde
cases:
  - id: planted-mars
    rules: [nd.score.mars]
    title: white has borne off all fifteen, black none, all on its 12-point
    query: game-result
    requires: {PINS}
    position:
      white: {off: 15}
      black: {12: 15}
    turn: black
    expect:
      result: {winner: white, kind: mars, points: 2}
    derivation: By hand, from the rules.
"""


def _planted(tmp_path, pins: str):
    path = tmp_path / "planted.yaml"
    path.write_text(PLANTED.replace("{PINS}", pins))
    return load_file(path)


def test_an_unpinned_case_is_named_with_its_switch_and_values(tmp_path):
    results = check(ReferenceEngine(), _planted(tmp_path, "{}"), rulesets())
    assert not ok(results)
    found = {(r.flip.base.name, r.flip.name, r.flip.after) for r in results for case, _ in r.unpinned}
    assert ("narde-variant", "scoring", "single-gammon-backgammon") in found
    assert ("narde-guide", "scoring", "single-gammon-backgammon") in found
    assert all(name == "scoring" for _, name, _ in found)
    assert "planted-mars (" in table(results) and "scoring oin-mars→single-gammon-backgammon" in table(results)


def test_pinning_the_switch_clears_it_and_the_pinned_change_still_shows(tmp_path):
    results = check(ReferenceEngine(), _planted(tmp_path, "{scoring: [oin-mars, oin-mars-coke]}"), rulesets())
    assert ok(results)
    assert any(r.changed and r.flip.name == "scoring" for r in results)  # the flip still changes the verdict


def test_every_switch_value_and_option_value_is_flipped_once_per_ruleset():
    all_flips = flips(rulesets().values())
    from gammonspec.model.rulesets import registry

    switches = registry()["switches"]
    expected = sum(
        sum(len(spec["values"]) - 1 for spec in switches.values())
        + sum(len(o["allowed"]) - 1 for o in rs.options.values())
        for rs in rulesets().values()
    )
    assert len(all_flips) == expected
    assert all(f.before != f.after for f in all_flips)


def test_the_shipped_suite_pins_every_switch_it_depends_on(capsys):
    assert main(["pinning"]) == 0
    out = capsys.readouterr().out
    assert "every case pins every switch and option" in out
    runs = sum(r.run for r in check(ReferenceEngine(), list(suite()), rulesets()))
    assert f"{runs} case runs" in out and runs > 10 * len(suite())


# Run by narde-variant (it pins only head-exception, where narde-variant reads game-first-roll), but its result
# is a mars only under narde-variant's scoring: under narde-guide with head-exception=game-first-roll, the one
# flip that admits it there, the reference scores a coke. It fails that flip, though narde-guide never runs it.
MISPINNED = PLANTED.replace("planted-mars", "planted-coke-is-mars").replace(
    "black: {12: 15}", "black: {24: 5, 23: 3, 22: 3, 21: 2, 20: 1, 19: 1}"
)


def test_a_case_fails_a_flip_of_a_ruleset_that_does_not_run_it(tmp_path):
    path = tmp_path / "mispinned.yaml"
    path.write_text(MISPINNED.replace("{PINS}", "{head-exception: game-first-roll}"))
    results = check(ReferenceEngine(), load_file(path), rulesets())
    assert not ok(results)
    failed = {(r.flip.base.name, r.flip.name, r.flip.after) for r in results for _ in r.failed}
    assert ("narde-guide", "head-exception", "game-first-roll") in failed
    assert "planted-coke-is-mars (" in table(results) and "fails under narde-guide: head-exception" in table(results)


# Includes only: under hitting=blots white's 6-1 may also hit on white's 14 (20/14*), which leaves the listed play
# legal, so asked under the flip the case still passes; but an engine that hits while asked under hitting=none
# answers a position with a checker on the bar, impossible there, so the case depends on `hitting` all the same.
HIT_ON_THE_WAY = """\
game: narde
cases:
  - id: planted-includes-past-a-lone-checker
    rules: [nd.point.single-holds]
    title: white 6-1 from 20, a lone black checker on white's 14 (black's 2)
    requires: {PINS}
    position:
      white: {20: 1, 1: 14}
      black: {24: 14, 2: 1}
    turn: white
    roll: [6, 1]
    expect:
      includes: ["20/19/13"]
    derivation: By hand, from the rules.
"""


def test_a_pin_is_needed_where_an_engine_reading_the_flip_answers_an_impossible_position(tmp_path):
    path = tmp_path / "hit.yaml"
    path.write_text(HIT_ON_THE_WAY.replace("{PINS}", "{}"))
    results = check(ReferenceEngine(), load_file(path), rulesets())
    found = {(r.flip.base.name, r.flip.name, r.flip.after) for r in results for _ in r.unpinned}
    assert found == {("narde-guide", "hitting", "blots"), ("narde-variant", "hitting", "blots")}
    assert "(playing the flip, asked as narde-guide)" in table(results)
    path.write_text(HIT_ON_THE_WAY.replace("{PINS}", "{hitting: none}"))
    assert ok(check(ReferenceEngine(), load_file(path), rulesets()))
