"""The engine protocol page's example engine runs as printed: spec/protocol.md is tested like the cases."""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from gammonspec.conformance.harness.cases import suite
from gammonspec.conformance.harness.runner import Filters, plan, run
from gammonspec.conformance.harness.subprocess_engine import SubprocessEngine
from gammonspec.model.rulesets import rulesets

PAGE = Path(__file__).resolve().parent.parent / "spec" / "protocol.md"


def test_minimal_engine_from_the_page_speaks_the_protocol(tmp_path: Path) -> None:
    section = PAGE.read_text().split("## A minimal engine", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code, "the page's minimal engine example is missing"
    script = tmp_path / "lazy.py"
    script.write_text(code.group(1))
    engine = SubprocessEngine(f"{sys.executable} {script}", timeout=10)
    try:
        outcomes = list(run(engine, plan(suite(), rulesets(), Filters(games=("backgammon",)))))
    finally:
        engine.close()
    by_status = {o.status for o in outcomes}
    assert "errored" not in by_status, [o.message for o in outcomes if o.status == "errored"][:3]
    passed = [o for o in outcomes if o.status == "passed"]
    assert passed and all(o.case.expect.get("no_play") for o in passed)  # it knows no rules: only no-play cases pass
    assert any(o.status == "skipped" for o in outcomes)  # it does not answer game-result queries


JS_ENGINE = Path(__file__).resolve().parent / "engines" / "backgammon.js"


def test_javascript_engine_on_the_page_is_the_tested_file_and_passes_backgammon_legal_plays():
    section = PAGE.read_text().split("## A complete engine in JavaScript", 1)[1]
    code = re.search(r"```javascript\n(.*?)```", section, re.S)
    assert code and code.group(1) == JS_ENGINE.read_text(), "spec/protocol.md and tests/engines/backgammon.js differ"
    assert len(code.group(1).splitlines()) < 150
    node = shutil.which("node")
    if node is None:
        if os.environ.get("GAMMONSPEC_NODE_REQUIRED"):
            pytest.fail("node is required here (GAMMONSPEC_NODE_REQUIRED is set)")
        pytest.skip("node is not installed")
    engine = SubprocessEngine(f"{node} {JS_ENGINE}", timeout=30)
    try:
        info = engine.info()
        outcomes = list(run(engine, plan(suite(), rulesets(), Filters(games=("backgammon",)))))
    finally:
        engine.close()
    assert (info.rulesets, info.capabilities) == (("backgammon",), ("legal-plays",))
    asked = [o for o in outcomes if o.status != "skipped"]
    # plays are judged wherever next-segment is the only other query (the next segment is left unchecked)
    legal_plays = [o for o in outcomes if o.case.queries in ({"legal-plays"}, {"legal-plays", "next-segment"})]
    assert len(asked) > 100 and asked == legal_plays
    assert all(o.status == "passed" for o in asked), [(o.case.id, o.message) for o in asked if o.status != "passed"]


def test_the_message_table_covers_the_engine_protocol_and_its_capabilities() -> None:
    """messages.QUERIES is the one table: each method of the Engine protocol (but info) is one query, with the
    method's parameters in order, and the capabilities it names are those an EngineInfo may declare."""
    import inspect

    from gammonspec.conformance.harness.messages import FIELDS, QUERIES
    from gammonspec.model.interface import CAPABILITIES, Engine

    methods = {name for name, _ in inspect.getmembers(Engine, inspect.isfunction) if not name.startswith("_")}
    assert methods - {"info"} == {q.method for q in QUERIES.values()}
    for query in QUERIES.values():
        params = list(inspect.signature(getattr(Engine, query.method)).parameters)[1:]
        assert tuple(params) == query.params, query.method
        assert set(query.params) <= set(FIELDS), query.method
    assert {q.capability for q in QUERIES.values()} == set(CAPABILITIES)
    page = PAGE.read_text()
    assert all(f'"{q.request_type}"' in page or f"`{q.request_type}`" in page for q in QUERIES.values())
