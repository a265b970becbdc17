"""The shipped adapters for third-party engines, run on the suite by name, and `gammonspec report`."""

from __future__ import annotations

import json
import re

import pytest
from gammonspec.conformance import cli
from gammonspec.conformance.harness.cases import suite
from gammonspec.conformance.harness.loading import load_engine
from gammonspec.conformance.harness.runner import Filters, plan, run
from gammonspec.engines.base import third_party
from gammonspec.model.interface import EngineLoadError
from gammonspec.model.rulesets import rulesets

# The deviations each adapter's docstring records, found by the suite.
DEVIATIONS = {"gnubg-nn": set(), "bgsage": {"bg-bearoff-hit-first-to-use-both-numbers"}, "gammonview": set()}


@pytest.mark.parametrize("name", sorted(DEVIATIONS))
def test_adapter_on_the_suite(name):
    engine = load_engine(name)
    info = engine.info()
    assert (info.name, info.rulesets, info.capabilities) == (name, ("backgammon",), ("legal-plays",))
    outcomes = list(run(engine, plan(suite(), rulesets(), Filters(games=("backgammon",)))))
    asked = [o for o in outcomes if o.status != "skipped"]
    assert len(asked) > 100 and {o.status for o in asked} <= {"passed", "failed"}
    failed = {o.case.id for o in asked if o.status == "failed"}
    assert failed == DEVIATIONS[name]
    assert all(case_id in _doc(engine) for case_id in failed)  # each deviation recorded in the docstring
    skipped = {o.message for o in outcomes if o.status == "skipped"}
    assert skipped and all("does not answer" in m for m in skipped)


def _doc(engine) -> str:
    import sys

    return sys.modules[type(engine).__module__].__doc__ or ""


def test_a_missing_third_party_module_is_one_clear_error():
    with pytest.raises(EngineLoadError, match=r"the x adapter needs no_such_engine: pip install 'gammonspec\[x\]'"):
        third_party("no_such_engine", "x")


def test_report_writes_one_json_per_engine(tmp_path, capsys):
    assert cli.main(["report", "--out", str(tmp_path), "gnubg-nn", "bgsage"]) == 1  # bgsage fails one case
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == ["bgsage.json", "gnubg-nn.json"]
    data = json.loads((tmp_path / "bgsage.json").read_text())
    assert data["engine"]["name"] == "bgsage" and data["engine"]["version"] and data["engine"]["adapter"] == "bgsage"
    assert data["suite"]["version"] and data["date"]
    assert [d["id"] for d in data["deviations"]] == ["bg-bearoff-hit-first-to-use-both-numbers"]
    (found,) = data["identified"]
    assert found["game"] == "backgammon" and found["unexplained"] == ["bg-bearoff-hit-first-to-use-both-numbers"]
    assert re.search(r"bgsage\.json: \d{3} passed, 1 failed", capsys.readouterr().out)


def test_report_needs_a_folder_and_known_engines(tmp_path, capsys):
    (tmp_path / "file").write_text("")
    assert cli.main(["report", "--out", str(tmp_path / "file"), "gnubg-nn"]) == 2
    assert cli.main(["report", "--out", str(tmp_path / "new"), "no-such-engine"]) == 2
    assert [p.name for p in tmp_path.iterdir()] == ["file"]  # nothing made before every engine loads


def test_committed_results_are_current_in_what_they_claim():
    """site/results holds a report per shipped adapter and the reference, with the deviations recorded above."""
    from pathlib import Path

    folder = Path(__file__).resolve().parent.parent / "site" / "results"
    for name, deviations in {**DEVIATIONS, "gammonspec-reference": set()}.items():
        data = json.loads((folder / f"{name}.json").read_text())
        assert {d["id"] for d in data["deviations"]} == deviations, name
