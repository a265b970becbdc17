"""What the shipped adapters share: loading the third-party module, what they declare, and the queries they do
not offer."""

from __future__ import annotations

import importlib
from importlib.metadata import version
from typing import Any, NoReturn

from gammonspec.conformance.engine import EngineInfo, EngineLoadError, Skip
from gammonspec.conformance.rulesets import Rules
from gammonspec.conformance.state import Layout, Side, State


def third_party(module: str, extra: str) -> Any:
    """The module an adapter drives; a one-line error naming the extra when it is not installed."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise EngineLoadError(f"the {extra} adapter needs {exc.name}: pip install 'gammonspec[{extra}]'") from None


class BackgammonMoveGenerator:
    """An adapter for a backgammon move generator: legal plays of the `backgammon` ruleset and nothing else.

    A subclass names its engine (also its distribution and extra) and the module it drives, and lists the
    positions a roll can leave with `self.module` (`plays`); when there are none the position stays as it is.
    The other queries are not declared, so never asked."""

    name: str
    module_name: str

    def __init__(self) -> None:
        self.module = third_party(self.module_name, self.name)

    def info(self) -> EngineInfo:
        return EngineInfo(self.name, version(self.name), ("backgammon",), ("legal-plays",))

    def plays(self, layout: Layout, side: Side, d1: int, d2: int) -> list[Layout]:
        raise NotImplementedError

    def legal_plays(self, state: State, rules: Rules) -> list[Layout]:
        return self.plays(state.layout, state.turn, *state.dice) or [state.layout]

    def _not_offered(self, *args: object) -> NoReturn:
        raise Skip("this adapter answers legal-plays only")

    next_segment = game_result = opening = may_double = cube_action = match_after_game = _not_offered
