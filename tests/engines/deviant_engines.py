"""The reference engine with several deviations at once: switch values read otherwise and named rule mutants,
as engines in the wild have them (tests/test_identify.py asks `identify` to name every one)."""

from __future__ import annotations

import contextlib
from typing import Any

from gammonspec.conformance.harness.messages import METHODS
from gammonspec.conformance.tools.mutants import all_mutants
from gammonspec.model.interface import EngineInfo
from gammonspec.model.profiles import override
from gammonspec.model.rulesets import Rules, rulesets
from gammonspec.reference import ReferenceEngine


class Deviant:
    """Declares `ruleset`, plays it with `switches` changed and `mutants` (names from conformance/tools/mutants.py)
    applied while it answers, so the reference engine in the same process plays the rules as written."""

    def __init__(self, ruleset: str, switches: dict[str, str], mutants: list[str]) -> None:
        self.engine = ReferenceEngine()
        self.plays = override(rulesets()[ruleset], switches.items())
        self.mutants = [m for m in all_mutants() if m.name in mutants]
        assert len(self.mutants) == len(mutants), mutants
        self.ruleset = ruleset

    def info(self) -> EngineInfo:
        base = self.engine.info()
        return EngineInfo("deviant", base.version, (self.ruleset,), reads_switches=True)

    def __getattr__(self, method: str) -> Any:
        if method not in METHODS:
            raise AttributeError(method)

        def query(*args: Any) -> Any:
            args = tuple(self.plays.rules(a.options) if isinstance(a, Rules) else a for a in args)
            with contextlib.ExitStack() as stack:
                for m in self.mutants:
                    stack.enter_context(m.applied())
                return getattr(self.engine, method)(*args)

        return query


def ThreeDeviations() -> Deviant:  # noqa: N802 - an engine spec names it like a class
    """Narde with no head rule, exact-only bear-off and its own six-block edge."""
    return Deviant("narde-guide", {"head-rule": "none", "bear-off": "exact-only"}, ["six-block-edge-counts-ahead"])


def OneFlipTwoBugs() -> Deviant:  # noqa: N802
    """Narde with no head rule, either number played when only one can be, and its own six-block numbering."""
    return Deviant("narde-guide", {"head-rule": "none"}, ["either-die-when-one-playable", "six-block-own-numbering"])


class AlwaysRaises:
    """Raises on every query: no answer to read anything from."""

    def info(self) -> EngineInfo:
        return ReferenceEngine().info()

    def __getattr__(self, method: str) -> Any:
        if method not in METHODS:
            raise AttributeError(method)

        def query(*args: Any) -> Any:
            raise RuntimeError("kaboom")

        return query
