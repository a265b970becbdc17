"""pytest plugin: `pytest --gammonspec-engine=ENGINE` collects every applicable case as a test item.

ENGINE is `module:attr`, an installed engine's name, or `cmd:<command line>` for a protocol engine.
Filters: `--gammonspec-ruleset`, `--gammonspec-game` (repeatable); `--gammonspec-timeout` seconds per
request and for the engine's start (as `run --timeout` without `--startup-timeout`).  An engine that
cannot be loaded or fails its handshake, an unknown ruleset, or a selection in which no case can run is
a usage error (one line, pytest's exit status 4), before any test runs.
"""

from __future__ import annotations

from typing import Any

import pytest
from gammonspec.conformance.cli import MOST_SECONDS, seconds
from gammonspec.conformance.harness.cases import Case, suite
from gammonspec.conformance.harness.runner import Filters, plan, run_one, skip_reason
from gammonspec.model.interface import STARTUP_TIMEOUT, TIMEOUT, Engine, EngineFailure, EngineLoadError
from gammonspec.model.rulesets import Ruleset, rulesets

_ENGINE = pytest.StashKey[Engine]()
_PAIRS = pytest.StashKey[list]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("gammonspec")
    group.addoption("--gammonspec-engine", metavar="ENGINE", help="collect the gammonspec suite against this engine")
    group.addoption("--gammonspec-ruleset", action="append", default=[], help="only this ruleset")
    group.addoption("--gammonspec-game", action="append", default=[], help="only this game")
    group.addoption(
        "--gammonspec-timeout",
        type=seconds,
        metavar="SECONDS",
        help=f"seconds per request and for the engine's start, above 0 and at most {MOST_SECONDS:,}"
        f" (default {TIMEOUT:g} per request, {STARTUP_TIMEOUT:g} for the start)",
    )


class CaseItem(pytest.Item):
    def __init__(self, *, case: Case, ruleset: Ruleset, engine: Engine, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case, self.ruleset, self.engine = case, ruleset, engine
        for rule in case.rule_ids:
            self.add_marker(pytest.mark.gammonspec_rule(rule))

    def runtest(self) -> None:
        info = self.engine.info()
        reason = skip_reason(self.case, self.ruleset, info)
        if reason:
            pytest.skip(reason)
        outcome = run_one(self.engine, self.case, self.ruleset, "next-segment" in info.capabilities)
        if outcome.fatal:
            self.session.shouldstop = f"gammonspec: {outcome.message}"
        if outcome.status == "skipped":
            pytest.skip(outcome.message)
        if outcome.status != "passed":
            from gammonspec.conformance.harness.reports import describe_failure

            raise CaseFailed(describe_failure(outcome))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, CaseFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Any, int, str]:
        return self.case.path, self.case.line - 1, f"{self.ruleset.name}::{self.case.id}"


class CaseFailed(Exception):
    pass


class Suite(pytest.Collector):
    """The gammonspec cases, as one collector (node IDs `gammonspec::RULESET::CASE`)."""

    def collect(self) -> list[pytest.Item]:
        engine = self.config.stash[_ENGINE]
        return [
            CaseItem.from_parent(self, name=f"{ruleset.name}::{case.id}", case=case, ruleset=ruleset, engine=engine)
            for case, ruleset in self.config.stash[_PAIRS]
        ]


def _engine(spec: str, timeout: float | None) -> Engine:
    """The engine of --gammonspec-engine; a --gammonspec-timeout given limits its start too, as --timeout does."""
    limits = (TIMEOUT, STARTUP_TIMEOUT) if timeout is None else (timeout, timeout)
    if spec.startswith("cmd:"):
        from gammonspec.conformance.harness.subprocess_engine import SubprocessEngine

        return SubprocessEngine(spec[4:], *limits)
    from gammonspec.conformance.harness.python_engine import PythonEngine

    return PythonEngine(spec, *limits)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "gammonspec_rule(id): the rule a gammonspec case pins")
    spec = config.getoption("--gammonspec-engine", None)
    if not spec:
        return
    from gammonspec.conformance.harness.launch import why_nothing_runs

    chosen = config.getoption("--gammonspec-ruleset")
    unknown = sorted(set(chosen) - set(rulesets()))
    if unknown:
        raise pytest.UsageError(f"gammonspec: unknown ruleset {', '.join(unknown)} (known: {', '.join(rulesets())})")
    filters = Filters(games=tuple(config.getoption("--gammonspec-game")), rulesets=tuple(chosen))
    pairs = plan(suite(), rulesets(), filters)
    if not pairs:
        raise pytest.UsageError("gammonspec: no case matches the filters")
    try:
        engine = _engine(spec, config.getoption("--gammonspec-timeout"))
        info = engine.info()
    except EngineLoadError as exc:
        raise pytest.UsageError(f"gammonspec: {exc}") from None
    except EngineFailure as exc:
        raise pytest.UsageError(f"gammonspec: the engine failed its handshake: {exc}") from None
    nothing = why_nothing_runs(info, pairs)
    if nothing:
        raise pytest.UsageError(f"gammonspec: {nothing}")
    config.stash[_ENGINE], config.stash[_PAIRS] = engine, pairs
    if hasattr(engine, "close"):
        config.add_cleanup(engine.close)


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Any:
    report = yield
    if isinstance(collector, pytest.Session) and _ENGINE in collector.config.stash:
        report.result.append(Suite.from_parent(collector, name="gammonspec", nodeid="gammonspec"))
    return report
