"""`gammonspec fuzz`: it finds each rule class's bug in a small budget, shrinks it, groups a reading difference once,
writes drafts that reproduce it, and finds nothing against the reference engine itself.

Cheap: fixed seeds, small count budgets, no wall-clock budget (the 100,000-position run per ruleset is
`gammonspec fuzz --count 100000`, run by hand before a release)."""

from __future__ import annotations

import json
import random
import shlex
import sys
from dataclasses import replace

import pytest
from conftest import ENGINES
from gammonspec.conformance import cli
from gammonspec.conformance.harness.cases import load, read_file
from gammonspec.conformance.harness.runner import run_one
from gammonspec.conformance.tools import fuzz, fuzz_queries, fuzz_report, generators, reachability
from gammonspec.model.interface import EngineInfo
from gammonspec.model.rulesets import rulesets
from gammonspec.model.state import Layout, State, TurnContext, start_layout
from gammonspec.reference import ReferenceEngine
from mutant_engine import MutantEngine

# One mutant per rule class, the ruleset it is fuzzed under, the aspect it gets wrong, and the most points a side
# may hold once shrunk (a six-block needs six).
CLASSES = {
    "higher die": ("either-die-when-one-playable", "backgammon", "plays", 3),
    "most numbers": ("stuck-order-is-a-play", "narde-guide", "plays", 3),
    "bar first": ("bar-ignored", "backgammon", "plays", 3),
    "bear-off": ("higher-bears-off-any-point", "backgammon", "plays", 3),
    "head rule": ("no-head-limit", "narde-guide", "plays", 3),
    "six-block": ("no-six-block-ban", "narde-guide", "plays", 6),
    "exact bear-off": ("standard-bear-off-under-exact-only", "crazy-narde", "plays", 3),
    "chains": ("chain-stops-after-one-double", "crazy-narde", "next", 3),
    "scoring": ("no-backgammon", "backgammon", "result", 3),
}
BUDGET = 400  # states per class: each bug is found well within it


def points_held(layout: Layout, side: str) -> int:
    return sum(1 for n in layout.points(side) if n) + (layout.on_bar(side) > 0)


@pytest.mark.parametrize("rule_class", CLASSES)
def test_fuzz_finds_and_shrinks_each_rule_class(rule_class: str, tmp_path) -> None:
    name, ruleset, aspect, most = CLASSES[rule_class]
    engine, target = MutantEngine(name), rulesets()[ruleset]
    campaign = fuzz.fuzz(engine, [target], seed=1, count=BUDGET, max_failures=1)
    assert campaign.failures, f"{name} not found in {BUDGET} {ruleset} states"
    failure = campaign.failures[0]
    assert failure.aspect == aspect
    held = {side: points_held(failure.state.layout, side) for side in ("white", "black")}
    assert max(held.values()) <= most, f"shrunk only to {held} points held:\n{fuzz_report.failure_text(1, failure)}"
    assert reachability.problem(failure.state, target.rules()) == ""  # reachable, each side's rolls counted
    # the draft reproduces it: the mutant fails it and the reference engine passes it
    path = fuzz_report.write_draft(tmp_path, failure, target, 1, "mutant", 1)
    (case,) = load([path]).strict()
    assert run_one(engine, case, target).status == "failed"
    assert run_one(ReferenceEngine(), case, target).status == "passed"


def test_a_reading_difference_is_one_failure() -> None:
    """An engine that plays exact-only bear-off as the higher-number rule disagrees on many states: one failure."""
    engine = MutantEngine("standard-bear-off-under-exact-only")
    campaign = fuzz.fuzz(engine, [rulesets()["crazy-narde"]], kinds=("home",), seed=2, count=30)
    assert sum(t.mismatches for t in campaign.tallies) > 5
    assert len(campaign.failures) == 1, [f.title for f in campaign.failures]
    assert campaign.failures[0].explanation == {"bear-off=higher-from-highest"}
    assert campaign.failures[0].states == campaign.tallies[0].mismatches


def test_the_reference_engine_agrees_with_itself_on_every_kind() -> None:
    campaign = fuzz.fuzz(ReferenceEngine(), list(rulesets().values()), seed=3, count=30)
    assert not campaign.failures and not any(t.errored for t in campaign.tallies)
    for tally in campaign.tallies:
        rules = rulesets()[tally.target].rules()
        questions = set(fuzz_queries.KINDS)  # the reference engine answers every query
        assert set(tally.kinds) == {k.name for k in generators.kinds_for(rules)} | questions, tally.target


def test_every_kind_makes_states_the_state_model_accepts() -> None:
    for target in rulesets().values():
        rules = target.rules()
        rng = random.Random(4)
        for kind in generators.kinds_for(rules):
            made = [s for s in (kind.make(rng, rules) for _ in range(12)) if s is not None]
            good = [s for s in made if not generators.problem(s, rules)]
            assert len(good) >= 6, f"{target.name}: kind {kind.name} made {len(good)} usable states of 12"


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"context": TurnContext(False, 0, 0)}, "first roll is its roller's first turn"),
        ({"context": TurnContext(True, 5, 0)}, "first or second roll"),
        ({"context": TurnContext(False, 1, 0)}, "cannot have moved"),
        ({"context": TurnContext(False, 30, 2)}, "cannot have left the head"),
    ],
)
def test_unreachable_states_are_refused(change, why) -> None:
    rules = rulesets()["narde-guide"].rules()
    white = (0,) * 12 + (5,) + (0,) * 10 + (10,)  # 5 on the 13-point, 10 on the head
    black = (0,) * 6 + (3,) * 5 + (0,) * 13  # 3 each on its 7-11 (white's 19-23)
    state = State(Layout("narde", white, black), "white", (6, 5), TurnContext(False, 30, 0))
    assert generators.problem(state, rules) == ""
    assert why in generators.problem(replace(state, **change), rules)


def test_a_standing_six_block_is_refused_where_building_one_is_banned() -> None:
    white = (0,) * 12 + (1, 1, 1, 1, 1, 1) + (0,) * 5 + (9,)
    layout = Layout("narde", white, (0,) * 23 + (15,))
    state = State(layout, "black", (6, 5), TurnContext(False, 30, 0))
    assert "six-block" in generators.problem(state, rulesets()["narde-guide"].rules())


def test_drafts_are_refused_in_a_suite_with_a_located_error(tmp_path, capsys) -> None:
    engine, target = MutantEngine("bar-ignored"), rulesets()["backgammon"]
    campaign = fuzz.fuzz(engine, [target], seed=1, count=50, max_failures=1)
    path = fuzz_report.write_draft(tmp_path, campaign.failures[0], target, 1, "mutant", 1)
    cases, errors = read_file(path, drafts=False)
    assert not cases and len(errors) == 1
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if text.strip().startswith("draft:"))
    assert str(errors[0]).startswith(f"{path}:{line}: case fuzz-backgammon-1-1: a draft found by fuzzing")
    assert cli.main(["check", "--cases", str(path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0] == f"gammonspec: {errors[0]}" and "Traceback" not in "".join(err)
    assert cli.main(["run", "-q", "--cases", str(path)]) == 0  # a draft reruns against an engine


def test_fuzz_command(tmp_path, capsys) -> None:
    out, report = tmp_path / "drafts", tmp_path / "fuzz.json"
    args = ["fuzz", "-q", "--engine", "mutant_engine:BarIgnored", "--ruleset", "backgammon", "--count", "40"]
    assert cli.main([*args, "--seed", "1", "--out", str(out), "--json", str(report)]) == 1
    printed = capsys.readouterr().out
    data = json.loads(report.read_text())
    (failure,) = data["failures"]
    assert failure["missing"] and failure["extra"] == ["(no move)"] and "XGID=" in failure["board"]
    assert failure["draft"] in printed and (out / failure["draft"].split("/")[-1]).exists()
    assert data["targets"][0]["positions"] <= 40 and "backgammon" in printed


def status(argv: list[str]) -> int:
    """The exit status of a command line, a usage error included."""
    try:
        return cli.main(argv)
    except SystemExit as exc:
        return int(exc.code)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--kinds", "contact,nope"], "argument --kinds: unknown kind nope"),
        (["--count", "0"], "argument --count: '0' is not a whole number above 0"),
        (["--ruleset", "chess"], "unknown ruleset chess"),
        (["--engine", "fake_engines:NoSuchClass"], "cannot load engine"),
        (["--kinds", "chain", "--ruleset", "backgammon"], "no kind of state selected applies"),
        (["--out", f"{__file__}/drafts"], "--out: " + __file__ + " is not a folder that can be written"),
    ],
)
def test_fuzz_bad_input_is_one_line_and_exit_2(args, message, capsys) -> None:
    assert status(["fuzz", "-q", "--count", "5", *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0], err


@pytest.mark.parametrize("fake", ["DropOne", "ExtraPlay"])
def test_fuzz_finds_the_fake_engines_faults(fake: str) -> None:
    import fake_engines

    campaign = fuzz.fuzz(getattr(fake_engines, fake)(), [rulesets()["backgammon"]], seed=1, count=30, max_failures=1)
    assert campaign.failures and campaign.failures[0].aspect == "plays"
    assert (fake == "DropOne") == bool(
        campaign.failures[0].expected.values["plays"] - campaign.failures[0].got.values["plays"]
    )


def test_fuzz_over_the_protocol(tmp_path, capsys) -> None:
    """The mutant as a process speaking the protocol: found and reported as in process."""
    command = f"{shlex.quote(sys.executable)} {ENGINES / 'mutant_engine.py'} no-head-limit"
    argv = ["fuzz", "-q", "--engine-cmd", command, "--ruleset", "narde-guide", "--count", "5", "--out", str(tmp_path)]
    assert cli.main(argv) == 1
    out = capsys.readouterr().out
    (title,) = [line for line in out.splitlines() if line.startswith("failure 1: ")]
    assert "(nd.head.one-per-turn" in title and "head-rule=none" in title.split("the engine plays as if ")[1]
    assert "reference with mutant no-head-limit" in out


class _PlaysAndResults(ReferenceEngine):
    """The reference engine declaring legal plays and game results only."""

    def info(self) -> EngineInfo:
        return replace(super().info(), capabilities=("legal-plays", "game-result"))


def test_questions_are_asked_of_the_queries_an_engine_offers_only() -> None:
    """Half as many questions as positions, of the kinds the engine answers: here only a finished game with a cube
    and a match (game-result), never an opening or a double."""
    campaign = fuzz.fuzz(_PlaysAndResults(), [rulesets()["backgammon"]], seed=3, count=40)
    (tally,) = campaign.tallies
    assert tally.positions == 40 and tally.questions == 20 and not campaign.failures
    assert tally.kinds["cube-result"] == 20
    assert not set(tally.kinds) & {"opening", "may-double", "double", "next-game"}
    assert fuzz.fuzz(ReferenceEngine(), [rulesets()["backgammon"]], kinds=("race",), count=10).tallies[0].questions == 0


def test_reachability_counts_each_sides_rolls() -> None:
    """White with 14 off and its last checker on its 1-point moved 359 pips: 15 rolls of its own at 24 pips a roll
    (6-6 four times), so 30 rolls in all with white on roll (it made every other one), 29 with black on roll; both
    sides' pips over every roll (359 + black's 50) made it 18."""
    rules = rulesets()["narde-guide"].rules()
    white = (1,) + (0,) * 23
    black = (0,) * 13 + (5,) + (0,) * 9 + (10,)  # 5 on its 14-point (white's 2)
    layout = Layout("narde", white, black, off=(14, 0))
    assert reachability.least_rolls(layout, rules, "white") == 30
    assert reachability.least_rolls(layout, rules, "black") == 29
    for turn, enough in (("white", 30), ("black", 29)):
        state = State(layout, turn, (6, 5), TurnContext(False, enough, 0))
        assert generators.problem(state, rules) == ""
        for fewer in (18, enough - 1):
            assert "cannot have moved" in generators.problem(replace(state, context=TurnContext(False, fewer, 0)), rules)


def test_the_start_after_a_roll_and_a_double_as_the_lead_dice_are_refused() -> None:
    start = start_layout("narde")
    for name in ("narde-guide", "narde-variant"):
        rules = rulesets()[name].rules()
        after = State(start, "white", (6, 6), TurnContext(True, 1, 0))
        assert "moves a checker from the start" in generators.problem(after, rules)
        first = State(start, "white", (6, 6), TurnContext(True, 0, 0))
        said = generators.problem(first, rules)
        # narde-guide's first roll plays the opening's lead dice, never a double; narde-variant's winner rolls anew
        assert ("never a double" in said) == (name == "narde-guide") and (said == "") == (name == "narde-variant")
        assert generators.problem(replace(first, dice=(6, 5)), rules) == ""


def test_fuzz_reads_an_independent_engine_in_shuffled_order(tmp_path, capsys) -> None:
    """The independent Narde enumerator with no head rule behind the protocol, its plays in shuffled order: one
    failure, read as head-rule=none and never refuted, cited by Narde's head clauses alone."""
    bridge = ENGINES / "independent_bridge.py"
    command = f"{shlex.quote(sys.executable)} {bridge} head-rule=none --seed 4"
    report = tmp_path / "fuzz.json"
    argv = ["fuzz", "-q", "--engine-cmd", command, "--ruleset", "narde-guide", "--count", "80", "--seed", "3"]
    assert cli.main([*argv, "--out", str(tmp_path / "drafts"), "--json", str(report)]) == 1
    (failure,) = json.loads(report.read_text())["failures"]
    reading = next(r for r in failure["readings"] if r["reading"] == "head-rule=none")
    assert reading["supports"] == failure["states"] > 5 and reading["refutes"] == 0 and not reading["refuted"]
    assert failure["title"].startswith("legal plays (nd.head.one-per-turn") and "head-rule=none" in failure["title"]
    assert all(r.startswith("nd.") for r in [*failure["rules"], *failure["attributed"]])
