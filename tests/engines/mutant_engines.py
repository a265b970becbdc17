"""The named rule mutants of tests/mutants.py as engines: the reference engine with one rule broken.

A mutant's patches hold only while the engine answers, so the reference engine in the same process
(the fuzzer's oracle) plays the rules as written between its calls."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from gammonspec.conformance.engine import EngineInfo
from gammonspec.reference import ReferenceEngine

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/, for mutants.py
from mutants import all_mutants  # noqa: E402


class MutantEngine(ReferenceEngine):
    def __init__(self, name: str) -> None:
        super().__init__()
        self.mutant = next(m for m in all_mutants() if m.name == name)

    def info(self) -> EngineInfo:
        base = super().info()
        return EngineInfo(f"mutant-{self.mutant.name}", base.version, base.rulesets, reads_switches=True)

    def _patched(self, method: str, *args: Any) -> Any:
        with self.mutant.applied():
            return getattr(ReferenceEngine, method)(self, *args)

    def legal_plays(self, *args: Any) -> Any:
        return self._patched("legal_plays", *args)

    def next_segment(self, *args: Any) -> Any:
        return self._patched("next_segment", *args)

    def game_result(self, *args: Any) -> Any:
        return self._patched("game_result", *args)


def BarIgnored() -> MutantEngine:  # noqa: N802 - an engine spec names it like a class
    return MutantEngine("bar-ignored")
