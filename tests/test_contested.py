"""Contested positions: one start, cases pinning different values of the switch, one shown per ruleset."""

from __future__ import annotations

from gammonspec.conformance.harness.cases import suite
from gammonspec.conformance.tools.contested import _position, contests, coupled, game_rulesets, why_none
from gammonspec.model.rulesets import accepted, registry, rulesets


def test_every_contest_compares_one_position_under_values_no_ruleset_holds_together() -> None:
    found = contests(suite())
    assert set(found) == set(registry()["switches"])
    assert sum(c is not None for c in found.values()) >= 8  # most switches have a contested position
    for switch, contest in found.items():
        if contest is None:
            assert why_none(switch)
            continue
        assert len({_position(case) for case in contest.cases}) == 1, switch
        shown = {name: case for name, case in contest.shown.items() if case}
        assert set(contest.shown) == {rs.name for rs in game_rulesets(contest.cases[0].game)}
        for name, case in shown.items():
            assert rulesets()[name].admits(case.requires, case.options) and case in contest.cases
        values = [set(accepted(case.requires[switch])) for case in shown.values() if switch in case.requires]
        assert any(not a & b for a in values for b in values), f"{switch}: the shown cases agree on it"


def test_a_switch_without_a_contest_has_no_two_cases_on_one_position_pinning_it_apart() -> None:
    by_position: dict[str, list] = {}
    for case in suite():
        by_position.setdefault(case.query + _position(case), []).append(case)
    for switch, contest in contests(suite()).items():
        if contest is not None:
            continue
        for cases in by_position.values():
            pinned = [set(accepted(c.requires[switch])) for c in cases if switch in c.requires]
            assert all(a & b for a in pinned for b in pinned), switch


def test_each_game_compares_its_rulesets_on_one_switch_alone_where_the_suite_can() -> None:
    """Per game (the matrix links each cell there): Narde's two rulesets are compared on the opening and on who starts
    the next game with nothing else pinned apart; where no position differs on a switch alone (Gul Bara has no head
    rule for the head exception to relax), `coupled` finds one where it is at work beside the switch that also differs."""
    narde = contests([c for c in suite() if c.game == "narde"])
    for switch in ("opening", "next-game-opener", "head-exception", "scoring"):
        assert narde[switch] is not None and narde[switch].also == (), switch
    assert narde["opening"].shown["narde-guide"].id == "nd-opening-guide-lead-dice-played"
    crazy = [c for c in suite() if c.game == "crazy-narde"]
    assert contests(crazy)["head-exception"] is None
    found = coupled(crazy, "head-exception")
    assert found is not None and found.also == ("head-rule",)
    assert any(case and "head-exception" in case.requires for case in found.shown.values())
