"""The runner: planning (case x ruleset), asking engines, judging answers, expected failures."""

from __future__ import annotations

import fake_engines as fe
import pytest
from conftest import MINI_IDS
from gammonspec.conformance.harness import reports
from gammonspec.conformance.harness.cases import digest, load_file
from gammonspec.conformance.harness.runner import Filters, Outcome, plan, run
from gammonspec.model.interface import EngineInfo
from gammonspec.model.notation import apply
from gammonspec.model.rulesets import Ruleset, accepted, rulesets
from gammonspec.reference import ReferenceEngine

BACKGAMMON = rulesets()["backgammon"]


def outcomes(engine, cases, expect_fail=frozenset()) -> dict[str, Outcome]:
    result = list(run(engine, plan(cases, {"backgammon": BACKGAMMON}, Filters()), set(expect_fail)))
    assert [o.case.id for o in result] == [c.id for c in cases]  # one outcome per case, in order
    return {o.case.id: o for o in result}


def statuses(results: dict[str, Outcome]) -> dict[str, str]:
    return {k: o.status for k, o in results.items()}


def dropped_play(case) -> str:
    """The expected play DropOne leaves out: the one whose position has the smallest key."""
    plays = case.steps[0].expected["plays"]
    return min(plays, key=lambda p: plays[p].key())


# --- correct and wrong engines -------------------------------------------------------------------


def test_mini_suite_ids(mini):
    assert [c.id for c in mini] == MINI_IDS


def test_reference_engine_passes(mini):
    results = outcomes(ReferenceEngine(), mini)
    assert statuses(results) == dict.fromkeys(MINI_IDS, "passed")
    assert all(o.ruleset == "backgammon" and o.key == f"backgammon::{o.case.id}" for o in results.values())
    assert all(not (o.message or o.missing or o.extra or o.stderr) for o in results.values())
    assert reports.ok(list(results.values()))
    assert reports.summary(list(results.values())) == {
        "total": 6,
        "passed": 6,
        "failed": 0,
        "skipped": 0,
        "errored": 0,
        "xfailed": 0,
        "xpassed": 0,
    }


def test_missing_play(mini):
    results = outcomes(fe.DropOne(), mini)
    assert statuses(results) == {
        "mini-spread-65": "failed",
        "mini-hit-65": "failed",
        "mini-count-44": "failed",
        "mini-dance": "passed",
        "mini-gammon": "passed",
        "mini-not-over": "passed",
    }
    for cid in ("mini-spread-65", "mini-hit-65"):
        o, play = results[cid], dropped_play(results[cid].case)
        assert o.missing == [play] and o.extra == []
        assert o.message == f"missing: {play}"
    assert not reports.ok(list(results.values()))


def test_wrong_count(mini):
    o = outcomes(fe.DropOne(), mini)["mini-count-44"]
    assert o.status == "failed"
    assert "expected 3 distinct positions, engine gave 2" in o.message


def test_extra_play(mini):
    results = outcomes(fe.ExtraPlay(), mini)
    assert results["mini-spread-65"].status == "failed"
    assert results["mini-spread-65"].extra == ["13/12"] and results["mini-spread-65"].missing == []
    assert results["mini-spread-65"].message == "extra: 13/12 (not one of the case's 2 legal plays)"
    assert results["mini-hit-65"].extra == ["24/23"]
    # no_play expects the unchanged position only
    assert results["mini-dance"].status == "failed" and results["mini-dance"].extra == ["13/12"]
    assert "expected 3 distinct positions, engine gave 4" in results["mini-count-44"].message
    assert results["mini-gammon"].status == results["mini-not-over"].status == "passed"


def test_extra_play_with_a_hit_is_written_with_a_star(write):
    path = write(
        "hit.yaml",
        """\
        game: backgammon
        cases:
          - id: blot-ahead
            rules: [bg.hit.blot]
            title: t
            position: {white: {22: 1, 6: 14}, black: {4: 1, 1: 14}}
            turn: white
            roll: [2, 1]
            expect: {plays: ["22/21*/19", "22/19", "22/21* 6/4", "22/20 6/5", "6/5 6/4", "6/3"]}
            derivation: >-
              by hand: white's 21 is black's 4, a blot; white's 24 is black's 1 (closed). 1s: 22/21*, 6/5;
              2s: 22/20, 6/4. Both numbers must be played: six distinct positions.
    """,
    )
    [case] = load_file(path)

    class HitOnly(fe.Reference):
        def legal_plays(self, state, rules):
            return super().legal_plays(state, rules) + [apply(state.layout, state.turn, "22/21*")]

    assert outcomes(ReferenceEngine(), [case])["blot-ahead"].status == "passed"
    o = outcomes(HitOnly(), [case])["blot-ahead"]
    assert o.status == "failed" and o.extra == ["22/21*"] and o.missing == []


def test_excluded_play_given(write, mini):
    # mini-count-44 excludes 13/9(3); an engine that answers it is told so, with the reason
    class Excluded(fe.Reference):
        def legal_plays(self, state, rules):
            return super().legal_plays(state, rules) + [apply(state.layout, state.turn, "13/9(3)")]

    o = outcomes(Excluded(), mini)["mini-count-44"]
    assert o.status == "failed"
    assert o.extra == ["13/9(3) (forbidden: all-dice-required)"]


def test_missing_include(mini):
    class NoDoubleFive(fe.Reference):
        def legal_plays(self, state, rules):
            bad = apply(state.layout, state.turn, "13/5(2)").key()
            return [lay for lay in super().legal_plays(state, rules) if lay.key() != bad]

    o = outcomes(NoDoubleFive(), mini)["mini-count-44"]
    assert o.status == "failed" and o.missing == ["13/5(2)"]
    assert "missing: 13/5(2)" in o.message and "expected 3 distinct positions, engine gave 2" in o.message


def test_digest(write):
    plays = ["13/7 13/8", "13/2"]
    start = load_file(write("d0.yaml", MINI_DIGEST.format(digest="0" * 16)))[0].state.layout
    want = digest(apply(start, "white", p) for p in plays)
    [case] = load_file(write("d.yaml", MINI_DIGEST.format(digest=want)))
    assert outcomes(ReferenceEngine(), [case])["digested"].status == "passed"
    o = outcomes(fe.DropOne(), [case])["digested"]
    assert o.status == "failed" and f"differs from expected {want}" in o.message


MINI_DIGEST = """\
game: backgammon
cases:
  - id: digested
    rules: [bg.move.closed-point]
    title: t
    position: {{white: {{13: 15}}, black: {{24: 15}}}}
    turn: white
    roll: [6, 5]
    expect: {{digest: "{digest}"}}
    derivation: by hand, as mini-spread-65
"""


def test_wrong_game_result(mini):
    o = outcomes(fe.WrongResult(), mini)["mini-gammon"]
    assert o.status == "failed"
    assert o.message == "expected white wins gammon, 2 points; engine says white wins single, 1 points"


def test_result_for_a_game_not_over(mini):
    class AlwaysOver(fe.Reference):
        def game_result(self, state, rules):
            from gammonspec.model.interface import GameResult

            return GameResult("black", "single", 1)

    o = outcomes(AlwaysOver(), mini)["mini-not-over"]
    assert o.status == "failed" and o.message == "expected game not over; engine says black wins single, 1 points"


# --- errors and skips ----------------------------------------------------------------------------


def test_engine_exception_is_errored_and_the_run_goes_on(mini):
    results = outcomes(fe.Raises(), mini)
    assert statuses(results) == {**dict.fromkeys(MINI_IDS, "passed"), "mini-count-44": "errored"}
    assert results["mini-count-44"].message.startswith("RuntimeError: kaboom on 4-4 (at ")
    assert results["mini-count-44"].message.endswith("fake_engines.py:44)")  # where the engine raised it
    assert not reports.ok(list(results.values()))


def test_exception_stderr_is_kept(mini):
    class WithStderr(fe.Reference):
        def legal_plays(self, state, rules):
            exc = RuntimeError("engine died")
            exc.stderr = "Traceback: somewhere deep"
            raise exc

    o = outcomes(WithStderr(), mini)["mini-spread-65"]
    assert o.status == "errored" and o.stderr == "Traceback: somewhere deep"


def test_answer_that_is_not_a_layout_is_errored(mini):
    o = outcomes(fe.NotLayouts(), mini)["mini-count-44"]
    assert o.status == "errored" and o.message == (
        "impossible position in the engine's answer to case backgammon::mini-count-44: "
        "engine answered '13/5(2)', not a backgammon layout"
    )


def test_impossible_position_is_a_wrong_play_listed_as_extra(mini):
    """A position the harness rejects is a failure (the play is not legal), shown as extra with the reason."""

    class Sixteen(fe.Reference):
        def legal_plays(self, state, rules):
            lay = state.layout
            return [*super().legal_plays(state, rules), lay._replace(off=(lay.off[0] + 1, lay.off[1]))]

    o = outcomes(Sixteen(), mini)["mini-spread-65"]
    assert o.status == "failed" and o.missing == []
    (extra,) = o.extra
    assert "impossible position: white has 16 checkers" in extra and extra in o.message


def test_skip(mini):
    results = outcomes(fe.Skips(), mini)
    assert statuses(results) == {**dict.fromkeys(MINI_IDS, "passed"), "mini-count-44": "skipped"}
    assert results["mini-count-44"].message == "engine skipped: 4-4 is not implemented"
    assert reports.ok(list(results.values()))


def test_capability_not_declared_is_skipped(mini):
    results = outcomes(fe.PlaysOnly(), mini)
    assert results["mini-gammon"].status == results["mini-not-over"].status == "skipped"
    assert "game-result" in results["mini-gammon"].message
    assert results["mini-spread-65"].status == "passed"


def test_ruleset_not_declared_is_skipped(mini):
    results = outcomes(fe.NoRulesets(), mini)
    assert statuses(results) == dict.fromkeys(MINI_IDS, "skipped")
    assert all(o.message == "engine does not implement ruleset backgammon" for o in results.values())


def test_option_not_supported_is_skipped(write):
    [case] = load_file(write("opt.yaml", JACOBY))
    assert outcomes(fe.NoJacoby(), [case])["jacoby-gammon"].status == "skipped"
    assert "jacoby=True" in outcomes(fe.NoJacoby(), [case])["jacoby-gammon"].message
    assert outcomes(ReferenceEngine(), [case])["jacoby-gammon"].status != "skipped"


JACOBY = """\
game: backgammon
cases:
  - id: jacoby-gammon
    rules: [bg.option.jacoby]
    query: game-result
    options: {jacoby: true}
    title: t
    position: {white: {off: 15}, black: {12: 15}}
    turn: black
    expect: {result: {winner: white, kind: single, points: 1}}
    derivation: by hand, jacoby with the cube centred counts a gammon single
"""


# --- expected failures ---------------------------------------------------------------------------


def test_expected_failures(mini):
    results = outcomes(fe.DropOne(), mini, {"mini-spread-65", "backgammon::mini-hit-65", "backgammon::mini-count-44"})
    assert statuses(results) == {
        "mini-spread-65": "xfailed",
        "mini-hit-65": "xfailed",
        "mini-count-44": "xfailed",
        "mini-dance": "passed",
        "mini-gammon": "passed",
        "mini-not-over": "passed",
    }
    assert results["mini-spread-65"].missing == [dropped_play(results["mini-spread-65"].case)]  # the detail stays
    assert reports.ok(list(results.values()))


def test_listed_case_that_passes_is_xpassed(mini):
    results = outcomes(fe.DropOne(), mini, {"mini-spread-65", "mini-hit-65", "mini-count-44", "mini-dance"})
    assert results["mini-dance"].status == "xpassed"
    assert "take it off the list" in results["mini-dance"].message
    assert not reports.ok(list(results.values()))
    assert reports.summary(list(results.values()))["xpassed"] == 1


def test_expect_fail_for_another_ruleset_does_not_apply(mini):
    results = outcomes(fe.DropOne(), mini, {"narde-guide::mini-spread-65"})
    assert results["mini-spread-65"].status == "failed"


def test_errored_and_skipped_stay_under_expect_fail(mini):
    assert outcomes(fe.Raises(), mini, {"mini-count-44"})["mini-count-44"].status == "errored"
    assert outcomes(fe.Skips(), mini, {"mini-count-44"})["mini-count-44"].status == "skipped"


# --- planning ------------------------------------------------------------------------------------


def ruleset(name: str, game: str = "backgammon", options=None, **switches: str) -> Ruleset:
    base = dict(BACKGAMMON.switches)
    base.update({k.replace("_", "-"): v for k, v in switches.items()})
    return Ruleset(name, game, "test", "test", base, options or {})


PLAN_CASES = """\
game: backgammon
cases:
  - id: any-rules
    rules: [bg.move.kinds]
    title: t
    position: start
    turn: white
    roll: [6, 5]
    expect: {count: 1}
    derivation: not run, only planned
  - id: needs-chain
    rules: [bg.move.forward]
    requires: {doubles: chain}
    title: t
    position: start
    turn: white
    roll: [6, 5]
    expect: {count: 1}
    derivation: not run, only planned
  - id: needs-jacoby
    rules: [bg.score.single]
    options: {jacoby: true}
    title: t
    position: start
    turn: white
    roll: [6, 5]
    expect: {count: 1}
    derivation: not run, only planned
  - id: needs-no-hitting
    rules: [bg.hit.blot]
    requires: {hitting: none, doubles: four-moves}
    title: t
    position: start
    turn: white
    roll: [6, 5]
    expect: {count: 1}
    derivation: not run, only planned
"""


@pytest.fixture
def plan_cases(write):
    return load_file(write("plan.yaml", PLAN_CASES))


@pytest.fixture
def plan_rulesets():
    jacoby = {"jacoby": {"default": False, "allowed": [False, True]}}
    return {
        "plain": ruleset("plain", options=jacoby),
        "chain": ruleset("chain", doubles="chain"),
        "gentle": ruleset("gentle", hitting="none"),
        "narde-x": ruleset("narde-x", game="narde", hitting="none"),
    }


def pairs(cases, sets, filters: Filters | None = None) -> list[tuple[str, str]]:
    return [(c.id, rs.name) for c, rs in plan(cases, sets, filters or Filters())]


def test_plan_respects_requires_options_and_game(plan_cases, plan_rulesets):
    assert sorted(pairs(plan_cases, plan_rulesets)) == sorted(
        [
            ("any-rules", "plain"),
            ("any-rules", "chain"),
            ("any-rules", "gentle"),
            ("needs-chain", "chain"),
            ("needs-jacoby", "plain"),
            ("needs-no-hitting", "gentle"),
        ]
    )


def test_plan_filters(plan_cases, plan_rulesets):
    assert pairs(plan_cases, plan_rulesets, Filters(rulesets=("chain",))) == [
        ("any-rules", "chain"),
        ("needs-chain", "chain"),
    ]
    assert pairs(plan_cases, plan_rulesets, Filters(cases=("needs-*",), rulesets=("plain",))) == [
        ("needs-jacoby", "plain")
    ]
    assert pairs(plan_cases, plan_rulesets, Filters(rule_ids=("bg.hit.*",))) == [("needs-no-hitting", "gentle")]
    assert pairs(plan_cases, plan_rulesets, Filters(games=("narde",))) == []
    assert pairs(plan_cases, plan_rulesets, Filters(cases=("nothing",))) == []


def test_plan_of_the_real_suite_respects_requires():
    from gammonspec.conformance.harness.cases import suite

    planned = plan(suite(), rulesets(), Filters())
    assert planned
    for case, rs in planned:
        assert case.game == rs.game
        assert all(rs.switches[k] in accepted(v) for k, v in case.requires.items()), (case.id, rs.name)


def test_engine_is_told_the_ruleset_and_options(write, plan_cases, plan_rulesets):
    seen = []

    class Recorder(fe.Reference):
        def info(self):
            return EngineInfo("recorder", "0", tuple(plan_rulesets))

        def legal_plays(self, state, rules):
            seen.append((rules.ruleset, rules.switches["doubles"], tuple(sorted(rules.options.items()))))
            return super().legal_plays(state, rules)

    list(run(Recorder(), plan(plan_cases, plan_rulesets, Filters())))
    assert sorted(seen) == sorted(
        [
            ("plain", "four-moves", (("jacoby", False),)),
            ("chain", "chain", ()),
            ("gentle", "four-moves", ()),
            ("chain", "chain", ()),
            ("plain", "four-moves", (("jacoby", True),)),
            ("gentle", "four-moves", ()),
        ]
    )


def test_progress_wraps_the_plan(mini):
    seen = []

    def progress(it):
        for item in it:
            seen.append(item[0].id)
            yield item

    list(run(ReferenceEngine(), plan(mini, {"backgammon": BACKGAMMON}, Filters()), progress=progress))
    assert seen == MINI_IDS


def test_count_mismatch_shows_the_divide() -> None:
    """A wrong count or digest comes with the split by highest point left, expected against the engine's."""
    from gammonspec.conformance.harness.cases import suite
    from gammonspec.conformance.harness.runner import run_one
    from gammonspec.model.rulesets import rulesets
    from gammonspec.reference import ReferenceEngine

    case = next(c for c in suite() if c.id == "cn-large-spread-11-first-segment")

    class DropsFromTheHead(ReferenceEngine):
        """Forgets every play that moves the checker on the head, and one more."""

        def legal_plays(self, state, rules):  # type: ignore[override]
            head = state.layout.points(state.turn)[23]
            return [lay for lay in super().legal_plays(state, rules) if lay.points(state.turn)[23] == head][:-1]

    outcome = run_one(DropsFromTheHead(), case, rulesets()["crazy-narde"])
    assert outcome.status == "failed"
    assert "expected 486 distinct positions" in outcome.message
    assert "divide by the highest point left" in outcome.message
    assert "24: expected 147, engine 0" in outcome.message
