"""The pytest plugin (`pytest --gammonspec-engine=ENGINE`) runs the cases and gives the runner's verdicts.

Its usage errors are in the fault corpus (tests/faults/serve-pytest-perft.yaml); here it runs real cases in a pytest of
its own, in an empty folder, against the reference engine and an engine that drops a legal play."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import fake_engines
from conftest import ENGINES
from gammonspec.conformance.harness.cases import suite
from gammonspec.conformance.harness.runner import Filters, plan, run
from gammonspec.model.rulesets import rulesets

PAIRS = plan(suite(), rulesets(), Filters(games=("backgammon",)))


def plugin_run(engine: str, folder: Path) -> tuple[int, str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ENGINES), os.environ.get("PYTHONPATH", "")])}
    argv = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--tb=no", "-rf"]
    argv += [f"--gammonspec-engine={engine}", "--gammonspec-game=backgammon"]
    done = subprocess.run(argv, cwd=folder, env=env, capture_output=True, text=True, check=False)
    return done.returncode, done.stdout


def counts(out: str) -> dict[str, int]:
    return {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|skipped|error)", out.splitlines()[-1])}


def test_the_reference_engine_passes_every_case_collected(tmp_path):
    status, out = plugin_run("reference", tmp_path)
    assert status == 0, out[-2000:]
    assert counts(out) == {"passed": len(PAIRS)}


def test_an_engine_that_drops_a_play_fails_the_cases_the_runner_fails(tmp_path):
    status, out = plugin_run("fake_engines:DropOne", tmp_path)
    failed = set(re.findall(r"^FAILED gammonspec::(\S+)", out, re.M))
    want = {f"{o.target.name}::{o.case.id}" for o in run(fake_engines.DropOne(), PAIRS) if o.status == "failed"}
    assert status == 1, out[-2000:]
    assert want and failed == want
    assert counts(out) == {"failed": len(want), "passed": len(PAIRS) - len(want)}
