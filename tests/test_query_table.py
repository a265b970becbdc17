"""A new query is one record in messages.QUERIES plus the engine's method (README: "Adding a query or a step
kind"): the runner judges it, export writes its request and expectation, the server answers it and the site
says it in words, with nothing else changed. The query here, a pip count, is made up for the test."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import pytest
from gammonspec.conformance.harness import messages, protocol
from gammonspec.conformance.harness.judges import Verdict
from gammonspec.conformance.harness.runner import judge_step
from gammonspec.conformance.harness.steps import Step
from gammonspec.conformance.tools.export import requests
from gammonspec.model.rulesets import rulesets
from gammonspec.model.state import State, start_layout

START_PIPS = 167  # each side's pip count at backgammon's start: 2x24 + 5x13 + 3x8 + 5x6 (a known figure)


def _judge(step: Step, answer: int, rules: object) -> Verdict:
    wanted = step.expect["pips"]
    return Verdict(answer == wanted, "" if answer == wanted else f"expected {wanted} pips, engine says {answer}")


PIPS = messages.Query(
    request_type="pip-count",
    reply_type="pip-count",
    method="pip_count",
    capability="legal-plays",
    step="pips",
    params=("state", "rules"),
    check=lambda method, answer: answer,
    reply=lambda pips: {"pips": pips},
    answer=lambda reply, args: reply["pips"],
    judge=_judge,
    expected=lambda step: {"pips": step.expect["pips"]},
    words=lambda step: [f"pip count: {step.expect['pips']}"],
    scene=lambda step: f"{step.state.turn}'s pip count",
)


class Counting:
    """An engine that answers only the new query, counting pips with an offset (0: right)."""

    def __init__(self, off_by: int = 0) -> None:
        self.off_by = off_by

    def pip_count(self, state: State, rules: object) -> int:
        points = state.layout.points(state.turn)
        return sum(n * (point + 1) for point, n in enumerate(points)) + self.off_by


@pytest.fixture
def pips_query(monkeypatch: pytest.MonkeyPatch) -> messages.Query:
    monkeypatch.setitem(messages.QUERIES, PIPS.request_type, PIPS)
    monkeypatch.setitem(messages.STEP_QUERIES, PIPS.step, PIPS)
    monkeypatch.setitem(messages.METHODS, PIPS.method, PIPS)
    return PIPS


def test_a_new_query_is_judged_exported_served_and_worded_from_its_record(pips_query: messages.Query) -> None:
    rules = rulesets()["backgammon"].rules()
    step = Step("pips", State(start_layout("backgammon"), "white", ()), {"pips": START_PIPS}, line=1)

    assert judge_step(Counting(), step, rules).passed
    wrong = judge_step(Counting(off_by=-1), step, rules)
    assert not wrong.passed and wrong.message == f"expected {START_PIPS} pips, engine says {START_PIPS - 1}"

    [exported] = requests(step, rules, itertools.count(1))
    assert exported["expect"] == {"pips": START_PIPS}
    assert exported["request"]["type"] == "pip-count" and exported["request"]["state"] == step.state.to_wire()

    served = protocol.answer(Counting(), exported["request"])
    assert served == {"type": "pip-count", "id": "1", "pips": START_PIPS}

    sys.path.insert(0, str(Path(__file__).parents[1] / "site"))
    try:
        import case_pages
    finally:
        sys.path.pop(0)
    shown = case_pages._step(step, 1, cube=False, view="white", same_as=0)
    assert shown[0] == f"**Step 1.** white's pip count: pip count: {START_PIPS}"
