"""The rule IDs a fuzz failure cites (conformance/tools/fuzz_rules.py) and a rule mutant's rule in each game:
always clauses of the engine's own game, matched whole."""

from __future__ import annotations

import pytest
from gammonspec.conformance.tools.fuzz_evidence import Reading
from gammonspec.conformance.tools.fuzz_rules import ASPECTS, FEATURES, rule_ids
from gammonspec.conformance.tools.identify_report import to_json
from gammonspec.conformance.tools.mutants import all_mutants
from gammonspec.model.clauses import game_clauses
from gammonspec.model.games import GAME_DATA
from gammonspec.model.rulesets import registry

GAMES = tuple(GAME_DATA)
FLIPS = [f"{name}={value}" for name, spec in registry()["switches"].items() for value in spec["values"]]


@pytest.mark.parametrize("game", GAMES)
def test_every_cited_id_is_a_clause_of_the_game(game: str) -> None:
    own = set(game_clauses(game))
    assert own and all(c.split(".")[0] == next(iter(own)).split(".")[0] for c in own)  # one prefix a page
    for m in all_mutants():
        assert m.rule_in(game) in own | {None}, m.name
        readings = [Reading(m.name, m.rule_in(game) or "", mutant=True)]
        assert set(rule_ids(game, "plays", readings, ())) <= own, m.name
    for flip in FLIPS:
        assert set(rule_ids(game, "plays", [Reading(flip)], ())) <= own, flip
    for aspect in ("plays", *ASPECTS):
        for feature in FEATURES:
            ids = rule_ids(game, aspect, [], (f"extra {feature}", f"missing {feature}"))
            assert ids and set(ids) <= own, (aspect, feature)


def test_a_head_bug_is_cited_by_the_head_rules_not_by_a_part_of_a_bear_off_id() -> None:
    # `.move` is a part of nd.bearoff.move-inside: only whole names count
    assert rule_ids("narde", "plays", [], ("extra leaves the head twice",)) == ["nd.head.one-per-turn", "nd.head.first-turn"]
    assert rule_ids("narde", "plays", [], ("extra stops short",)) == ["nd.move.both-numbers", "nd.move.full-move"]
    assert rule_ids("narde", "plays", [], ("missing bears off",)) == ["nd.bearoff.higher", "nd.bearoff.exact"]
    assert rule_ids("backgammon", "plays", [], ("missing enters",)) == ["bg.bar.enter", "bg.bar.enter-first"]
    assert rule_ids("narde", "plays", [], ("missing enters",)) == ["nd.object"]  # Narde has no bar: its object


def test_a_narde_failure_cites_narde_clauses_of_its_readings() -> None:
    either = next(m for m in all_mutants() if m.name == "either-die-when-one-playable")
    assert either.rule == "bg.move.higher-die" and either.rule_in("narde") == "nd.move.higher-die"
    assert either.rule_in("crazy-narde") == "cn.move.higher-die"
    assert rule_ids("narde", "plays", [Reading(either.name, either.rule_in("narde"), mutant=True)], ()) == [
        "nd.move.higher-die"
    ]
    assert rule_ids("narde", "plays", [Reading("head-rule=none")], ()) == ["nd.head.one-per-turn"]
    assert rule_ids("narde", "next", [Reading("doubles=chain")], ()) == ["nd.move.doubles"]
    assert rule_ids("crazy-narde", "plays", [Reading("six-block=allowed")], ()) == ["cn.block.six"]
    bar = next(m for m in all_mutants() if m.name == "bar-ignored")
    assert bar.rule_in("narde") is None  # no Narde clause: cited by none, never by bg.bar.enter-first
    assert Reading(bar.name, "", mutant=True).words.startswith("its rule were ")


def test_identify_cites_the_mutant_rule_of_the_engines_game() -> None:
    import deviant_engines as de
    from gammonspec.conformance.harness.cases import suite
    from gammonspec.conformance.tools.identify import identify
    from gammonspec.model.rulesets import rulesets

    data = to_json(identify(de.OneFlipTwoBugs(), suite(), rulesets()["narde-guide"]))
    rules = {b["mutant"]: b["rule"] for b in data["bugs"] if "mutant" in b}
    assert rules["either-die-when-one-playable"] == "nd.move.higher-die"
    assert all(r.startswith("nd.") for b in data["bugs"] for r in [b["rule"]])
