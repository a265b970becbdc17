"""The mutation check's machinery, on two mutants (the whole check runs from .ci/run)."""

from __future__ import annotations

import mutation
from gammonspec.conformance.harness import runner
from gammonspec.conformance.harness.cases import suite
from gammonspec.conformance.tools.mutants import all_mutants
from gammonspec.model.rulesets import rulesets
from gammonspec.reference import cube, rules


def by_name(name: str):
    return next(m for m in all_mutants() if m.name == name)


def test_mutant_is_undone_after_its_block():
    original = cube.cube_available
    with by_name("non-owner-may-double").applied():
        assert cube.cube_available is not original
    assert cube.cube_available is original


def test_mutant_patches_every_module_that_imported_the_function():
    with by_name("win-mid-turn-ignored").applied():
        from gammonspec.reference import movegen, scoring

        assert movegen.game_over is scoring.game_over
        assert movegen.game_over(None, None) is False


def test_kills_counts_the_cases_a_mutant_fails():
    pairs = runner.plan(suite(), rulesets(), runner.Filters(cases=("bg-cube-*", "bg-bar-doubles-*")))
    assert mutation.failing_cases(pairs) == ()
    owner, doubles = mutation.kills([by_name("non-owner-may-double"), by_name("double-two-moves")], pairs)
    assert "bg-cube-double-take-then-redouble-drop" in owner.cases
    assert all(case.startswith("bg-") for case in owner.cases + doubles.cases)
    assert len(doubles.cases) >= mutation.MIN_KILLS
    assert rules.numbers_to_play((3, 3)) == (3, 3, 3, 3)  # undone


def test_matrix_flags_an_under_killed_mutant_and_main_exits_one(capsys, monkeypatch):
    weak = mutation.Kill(by_name("no-64-ceiling"), ("one-case",))
    table = mutation.matrix([weak])
    assert "no-64-ceiling" in table and "under-killed" in table
    assert "1 killed by fewer than 2" in mutation.summary([weak])
    assert mutation.main(["--mutant", "crawford-every-time", "--mutant", "double-two-moves"]) == 0
    out = capsys.readouterr().out
    assert "crawford-every-time" in out and "double-two-moves" in out and "2 mutants" in out
    monkeypatch.setattr(mutation, "kills", lambda chosen, pairs: [weak])
    assert mutation.main(["--mutant", "no-64-ceiling"]) == 1
    assert "under-killed" in capsys.readouterr().out


def test_unknown_mutant_is_bad_usage(capsys):
    assert mutation.main(["--mutant", "no-such-mutant"]) == 2
    assert "no mutant matches no-such-mutant" in capsys.readouterr().out


def test_explaining_names_the_mutant_whose_answer_an_engine_gives() -> None:
    from gammonspec.conformance.harness.messages import QUERIES
    from gammonspec.conformance.tools.mutants import explaining
    from gammonspec.reference import ReferenceEngine

    case = next(c for c in suite() if c.id == "bg-higher-die-single-checker")
    rules = rulesets()["backgammon"].rules()
    step = case.steps[0]
    broken = by_name("either-die-when-one-playable")
    with broken.applied():
        wrong = runner.ask(ReferenceEngine(), QUERIES["legal-plays"], step, rules)
    assert wrong != runner.ask(ReferenceEngine(), QUERIES["legal-plays"], step, rules)
    found = explaining(wrong, lambda: runner.ask(ReferenceEngine(), QUERIES["legal-plays"], step, rules))
    assert broken in found and all(m.rule.startswith(("bg.", "nd.", "cn.", "switch")) for m in found)


def test_a_mutant_holds_the_rule_functions_against_other_threads() -> None:
    """Threads that apply mutants (a cluster of worker threads) take turns, so each undoes its own patches in
    order: none is left behind.  While one is applied, no other thread may apply one or ask the fuzz oracle."""
    import threading

    from gammonspec.conformance.tools.mutants import LOCK

    original = rules.bear_off_allowed
    taken: list[bool] = []
    with by_name("higher-bears-off-any-point").applied():
        other = threading.Thread(target=lambda: taken.append(LOCK.acquire(blocking=False)))
        other.start()
        other.join()
        assert rules.bear_off_allowed is not original
    assert taken == [False]
    assert rules.bear_off_allowed is original
