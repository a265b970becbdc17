"""The engine protocol page's example engine runs as printed: spec/protocol.md is tested like the cases."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from gammonspec.conformance.cases import suite
from gammonspec.conformance.rules import rulesets
from gammonspec.conformance.runner import Filters, plan, run
from gammonspec.conformance.subprocess_engine import SubprocessEngine

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
