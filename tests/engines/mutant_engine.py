"""The reference engine with one named rule mutant of conformance/tools/mutants.py applied: a planted bug to find.

In process (`MutantEngine("bar-ignored")`, or `--engine mutant_engine:BarIgnored`) the mutant's patches
hold only while the engine answers, so the reference engine in the same process (the fuzzer's oracle)
plays the rules as written between its calls.  As a protocol process:
`gammonspec perft --engine-cmd "python tests/engines/mutant_engine.py NAME"` (or `gammonspec fuzz`).
"""

from __future__ import annotations

import sys
from typing import Any

from gammonspec.conformance.harness.protocol import serve
from gammonspec.conformance.tools.mutants import all_mutants
from gammonspec.model.interface import EngineInfo
from gammonspec.reference import ReferenceEngine


class MutantEngine(ReferenceEngine):
    def __init__(self, name: str) -> None:
        super().__init__()
        self.mutant = next(m for m in all_mutants() if m.name == name)

    def info(self) -> EngineInfo:
        base = super().info()
        return EngineInfo(f"reference with mutant {self.mutant.name}", base.version, base.rulesets, reads_switches=True)

    def _patched(self, method: str, *args: Any) -> Any:
        with self.mutant.applied():
            return getattr(ReferenceEngine, method)(self, *args)

    def legal_plays(self, *args: Any) -> Any:
        return self._patched("legal_plays", *args)

    def next_segment(self, *args: Any) -> Any:
        return self._patched("next_segment", *args)

    def game_result(self, *args: Any) -> Any:
        return self._patched("game_result", *args)

    def opening(self, *args: Any) -> Any:
        return self._patched("opening", *args)

    def may_double(self, *args: Any) -> Any:
        return self._patched("may_double", *args)

    def cube_action(self, *args: Any) -> Any:
        return self._patched("cube_action", *args)

    def match_after_game(self, *args: Any) -> Any:
        return self._patched("match_after_game", *args)


def BarIgnored() -> MutantEngine:  # noqa: N802 - an engine spec names it like a class
    return MutantEngine("bar-ignored")


if __name__ == "__main__":
    engine = MutantEngine(sys.argv[1])
    sys.exit(serve(engine, name=engine.info().name))
