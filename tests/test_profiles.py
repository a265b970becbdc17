"""Engine profiles: reading and checking them, which cases apply, what requests carry, hello and the CLI."""

from __future__ import annotations

import os
import sys

import pytest
from conftest import ENGINES, dedent
from gammonspec.conformance import cli
from gammonspec.conformance.harness.cases import suite
from gammonspec.conformance.harness.runner import Filters, plan, run
from gammonspec.conformance.harness.subprocess_engine import SubprocessEngine
from gammonspec.model import profiles
from gammonspec.model.profiles import Profile
from gammonspec.model.rulesets import registry, rulesets
from gammonspec.model.yamlio import DataError
from gammonspec.reference import ReferenceEngine

GUIDE = rulesets()["narde-guide"]
WITHIN = dedent(
    """
    name: guide-within
    base: narde-guide
    switches: {six-block: banned-within-turn}
    options: {coke-value: 2}
    """
)


def test_profile_from_a_base_and_overrides(write):
    profile = profiles.load(write("p.yaml", WITHIN))
    assert (profile.name, profile.base, profile.game) == ("guide-within", "narde-guide", "narde")
    assert dict(profile.switches) == {**GUIDE.switches, "six-block": "banned-within-turn"}
    assert profile.changed_switches == {"six-block": "banned-within-turn"}
    assert profile.fixed_options == {"coke-value": 2}
    rules = profile.rules()
    assert (rules.ruleset, rules.profile, rules.options) == (
        "narde-guide",
        "guide-within",
        {"coke-value": 2, "coke-any-checker": False},
    )
    assert rules.to_wire()["profile"] == "guide-within" and "profile" not in GUIDE.rules().to_wire()
    with pytest.raises(TypeError):
        profile.switches["six-block"] = "allowed"  # a frozen value


def test_a_case_applies_exactly_when_its_requires_hold(write):
    profile = profiles.load(write("p.yaml", WITHIN))
    narde = [case for case in suite() if case.game == "narde"]
    for case in narde:  # a list in requires names every value the case holds under
        holds = all(profile.switches[k] in ([v] if isinstance(v, str) else v) for k, v in case.requires.items())
        options = all(v == 2 for k, v in case.options.items() if k == "coke-value")
        assert profile.admits(case.requires, case.options) == (holds and options), case.id
    assert any(isinstance(v, list) for case in narde for v in case.requires.values())
    admitted = {case.id for case, _ in plan(narde, {profile.name: profile}, Filters())}
    assert admitted and admitted != {case.id for case, _ in plan(narde, {"g": GUIDE}, Filters())}


def test_full_assignment_takes_the_closest_ruleset_as_base():
    switches = {**rulesets()["crazy-narde"].switches, "bear-off": "higher-from-highest"}
    profile = profiles.from_data({"name": "soft", "game": "crazy-narde", "switches": switches}, "p.yaml")
    assert profile.base == "crazy-narde" and profile.changed_switches == {"bear-off": "higher-from-highest"}


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "name: x\nbase: narde-guide\nswitches: {six-block: sometimes}\n",
            "p.yaml:3: profile x: switch six-block has no value 'sometimes'",
        ),
        (
            "name: x\nbase: narde-guide\nswitches: {sixblock: allowed}\n",
            "p.yaml:3: profile x: unknown switch 'sixblock'",
        ),
        ("name: x\nbase: nardy\nswitches: {}\n", "p.yaml:2: profile x: unknown base ruleset 'nardy'"),
        (
            "name: x\ngame: narde\nswitches: {six-block: allowed}\n",
            "p.yaml:3: profile x: a full assignment sets every switch; missing",
        ),
        ("name: x\nbase: narde-guide\nswitch: {}\n", "p.yaml:3: profile: unknown field 'switch'"),
        (
            "name: x\nbase: narde-guide\noptions: {coke-value: two}\n",
            "p.yaml:3: profile x: option coke-value must be integer",
        ),
        (
            "name: x\nbase: narde-guide\noptions: {coke-value: 0}\n",
            "p.yaml:3: profile x: option coke-value is at least 1, got 0",
        ),
        (
            "name: x\nbase: narde-guide\ngame: backgammon\n",
            "p.yaml:3: profile x: base narde-guide is a narde ruleset, not backgammon",
        ),
    ],
)
def test_bad_profiles_name_file_line_and_problem(tmp_path, text, message):
    path = tmp_path / "p.yaml"
    path.write_text(text)
    with pytest.raises(DataError) as err:
        profiles.load(path)
    assert str(err.value).replace(str(tmp_path) + "/", "").startswith(message)


class Recording(ReferenceEngine):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list = []

    def legal_plays(self, state, rules):
        self.seen.append(rules)
        return super().legal_plays(state, rules)


def test_requests_carry_the_profiles_full_values(write):
    profile = profiles.load(write("p.yaml", WITHIN))
    engine = Recording()
    pairs = [(c, t) for c, t in plan(suite(), {profile.name: profile}, Filters()) if c.query == "legal-plays"][:5]
    assert pairs and all(o.status == "passed" for o in run(engine, pairs))
    assert {r.profile for r in engine.seen} == {"guide-within"}
    assert all(
        r.switches == dict(profile.switches) and set(r.switches) == set(registry()["switches"]) for r in engine.seen
    )


def test_hello_carries_declared_profiles_and_reads_switches(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ENGINES), os.environ.get("PYTHONPATH", "")]))
    engine = SubprocessEngine(
        f"{sys.executable} -m gammonspec.conformance.cli serve --engine fake_engines:DeclaresProfile"
    )
    try:
        info = engine.info()
    finally:
        engine.close()
    (declared,) = info.profiles
    assert isinstance(declared, Profile) and declared.changed_switches == {"six-block": "banned-within-turn"}
    assert not info.reads_switches and info.declares(declared) and not info.declares(profiles.flips(GUIDE)[0])
    reference = SubprocessEngine(f"{sys.executable} -m gammonspec.conformance.cli serve")
    try:
        assert reference.info().reads_switches and reference.info().declares(profiles.flips(GUIDE)[0])
    finally:
        reference.close()


def test_bad_profile_in_hello_fails_the_handshake(tmp_path):
    script = tmp_path / "bad.py"
    script.write_text(
        "import json, sys\nsys.stdin.readline()\n"
        "print(json.dumps({'type': 'hello', 'protocol': '1.1', 'name': 'b', 'version': '0', 'rulesets': [],"
        " 'profiles': [{'name': 'p', 'base': 'nardy', 'switches': {}}]}), flush=True)\n"
    )
    engine = SubprocessEngine(f"{sys.executable} {script}")
    with pytest.raises(Exception, match="engine declares a bad profile: profile p: unknown base ruleset 'nardy'"):
        engine.info()
    engine.close()


def test_cli_switch_and_profile_run_the_reference(write, capsys):
    assert cli.main(["run", "-q", "--ruleset", "narde-guide", "--switch", "six-block=banned-within-turn"]) == 0
    assert " 0 failed" in capsys.readouterr().out
    within = write("p.yaml", WITHIN.replace("options: {coke-value: 2}\n", ""))
    assert cli.main(["run", "-q", "--profile", str(within)]) == 0
    out = capsys.readouterr().out
    assert " 0 failed" in out and " under profile guide-within: " in out.splitlines()[-1]


def test_cli_profile_against_an_engine_that_reads_no_switches(capsys):
    """PlaysOnly declares the rulesets but reads no switches: a variant of them is not declared, nothing runs."""
    argv = ["run", "-q", "--engine", "fake_engines:PlaysOnly", "--switch", "cube=none", "--ruleset", "backgammon"]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "no case can run against engine" in err and "backgammon+cube=none" in err


@pytest.mark.parametrize(
    "switch, message",
    [
        ("six-block", "--switch 'six-block': give NAME=VALUE"),
        ("six-block=sometimes", "switch six-block has no value 'sometimes'"),
        ("sixblock=allowed", "'sixblock=allowed': unknown name (switches: hitting,"),
        ("jacoby=yes", "option jacoby is boolean"),
        ("coke-value=-3", "option coke-value is at least 1"),
    ],
)
def test_cli_bad_switch_is_one_line_and_exit_2(capsys, switch, message):
    assert cli.main(["run", "-q", "--switch", switch]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_cli_switch_given_two_values_is_one_line_and_exit_2(capsys):
    argv = ["run", "-q", "--switch", "six-block=allowed", "--switch", "six-block=banned-within-turn"]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert (
        err == "gammonspec: --switch 'six-block=banned-within-turn': six-block is given another value too (allowed)\n"
    )


def test_the_protocol_pages_profile_hello_is_valid():
    import json
    import re
    from pathlib import Path

    from gammonspec.conformance.harness.protocol import check

    page = (Path(__file__).resolve().parent.parent / "spec" / "protocol.md").read_text()
    block = re.search(r"```json\n(.*?)```", page.split("## Profiles", 1)[1], re.S)
    hello = check("from_engine", json.loads(block.group(1)))
    (profile,) = [profiles.from_data(p, "protocol.md") for p in hello["profiles"]]
    assert profile.changed_switches == {"six-block": "banned-within-turn"} and profile.fixed_options == {
        "coke-value": 2
    }


def test_switches_are_one_object_per_assignment_even_pickled():
    """Switches compare and hash by identity (engines key tables on them), so equal assignments must be one
    object: from any ruleset or profile that states them, and after a pickle round trip (worker processes)."""
    import pickle
    from dataclasses import replace

    from gammonspec.model.rulesets import Switches

    rules = rulesets()["backgammon"].rules()
    assert Switches.of(dict(rules.switches)) is rules.switch
    assert pickle.loads(pickle.dumps(rules)).switch is rules.switch
    flipped = replace(rules, switches={**rules.switches, "hitting": "none"})
    assert flipped.switch is not rules.switch and flipped.switch.hitting is False


def _profile_results(capsys, tmp_path, engine_option: list[str]) -> dict[str, int]:
    import json
    from collections import Counter

    report = tmp_path / "r.json"
    status = cli.main(
        ["run", "-q", "--ruleset", "narde-guide", "--rule", "nd.block.*", *engine_option, "--json", str(report)]
    )
    assert status == 0, capsys.readouterr()
    return Counter(r["ruleset"] for r in json.loads(report.read_text())["results"])


def test_an_engine_process_sending_the_protocol_pages_profile_hello_runs(capsys, tmp_path):
    """The hello of spec/protocol.md's profile example, word for word, from a real process: the cases run under
    the declared ruleset and under the profile (this was an internal error, unhashable cases)."""
    command = f"{sys.executable} {ENGINES / 'doc_hello.py'}"
    counts = _profile_results(capsys, tmp_path, ["--engine-cmd", command])
    assert counts["narde-guide"] > 0 and counts["guide-within"] > 0 and set(counts) == {"narde-guide", "guide-within"}


def test_a_python_engine_declaring_a_profile_runs_in_process(capsys, tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(ENGINES))
    counts = _profile_results(capsys, tmp_path, ["--engine", "fake_engines:DeclaresProfile"])
    assert set(counts) == {"narde-guide", "narde-guide+six-block=banned-within-turn"}
