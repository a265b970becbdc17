"""pytest plugin: `pytest --gammonspec-engine=ENGINE` collects every applicable case as a test item.

ENGINE is `module:attr`, an installed engine's name, or `cmd:<command line>` for a protocol engine.
Filters: `--gammonspec-ruleset`, `--gammonspec-game` (repeatable).
"""

from __future__ import annotations

from typing import Any

import pytest

from .cases import Case, suite
from .engine import Engine, load_engine
from .rules import Ruleset, rulesets
from .runner import Filters, plan, run_one, skip_reason


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("gammonspec")
    group.addoption("--gammonspec-engine", metavar="ENGINE", help="collect the gammonspec suite against this engine")
    group.addoption("--gammonspec-ruleset", action="append", default=[], help="only this ruleset")
    group.addoption("--gammonspec-game", action="append", default=[], help="only this game")


class CaseItem(pytest.Item):
    def __init__(self, *, case: Case, ruleset: Ruleset, engine: Engine, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case, self.ruleset, self.engine = case, ruleset, engine
        for rule in case.rules:
            self.add_marker(pytest.mark.gammonspec_rule(rule))

    def runtest(self) -> None:
        info = self.engine.info()
        reason = skip_reason(self.case, self.ruleset, info)
        if reason:
            pytest.skip(reason)
        outcome = run_one(self.engine, self.case, self.ruleset, "next-segment" in info.capabilities)
        if outcome.status == "skipped":
            pytest.skip(outcome.message)
        if outcome.status != "passed":
            raise CaseFailed(outcome.message)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, CaseFailed):
            return f"{self.case.where} [{', '.join(self.case.rules)}] {self.case.title}\n{excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Any, int, str]:
        return self.case.path, self.case.line - 1, f"{self.ruleset.name}::{self.case.id}"


class CaseFailed(Exception):
    pass


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "gammonspec_rule(id): the rule a gammonspec case pins")


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    spec = config.getoption("--gammonspec-engine")
    if not spec:
        return
    if spec.startswith("cmd:"):
        from .subprocess_engine import SubprocessEngine

        engine: Engine = SubprocessEngine(spec[4:])
    else:
        engine = load_engine(spec)
    filters = Filters(
        games=tuple(config.getoption("--gammonspec-game")), rulesets=tuple(config.getoption("--gammonspec-ruleset"))
    )
    for case, ruleset in plan(suite(), rulesets(), filters):
        items.append(
            CaseItem.from_parent(session, name=f"{ruleset.name}::{case.id}", case=case, ruleset=ruleset, engine=engine)
        )
