"""What the shipped adapters share: loading the third-party module, what they declare, the queries they do
not offer, the search over a turn played one step at a time, and the report of an engine that cannot be driven."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Hashable, Iterable
from importlib.metadata import PackageNotFoundError, version
from typing import Any, NoReturn, TypeVar

from gammonspec.model.interface import EngineInfo, EngineLoadError, Skip
from gammonspec.model.rulesets import Rules
from gammonspec.model.state import Layout, Side, State


def third_party(module: str, extra: str) -> Any:
    """The module an adapter drives; a one-line error naming the extra when it is not installed."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise EngineLoadError(f"the {extra} adapter needs {exc.name}: pip install 'gammonspec[{extra}]'") from None


class MoveGenerator:
    """An adapter for a move generator: legal plays of its rulesets (backgammon unless it says) and nothing else.

    A subclass names its engine (also its distribution and extra) and the module it drives, and lists the
    positions a roll can leave with `self.module` (`plays`); when there are none the position stays as it is.
    The other queries are not declared, so never asked."""

    name: str
    module_name: str
    rulesets: tuple[str, ...] = ("backgammon",)

    def __init__(self) -> None:
        self.module = third_party(self.module_name, self.name)

    def info(self) -> EngineInfo:
        return EngineInfo(self.name, self.version(), self.rulesets, ("legal-plays",))

    def version(self) -> str:
        return version(self.name)

    def plays(self, layout: Layout, side: Side, d1: int, d2: int) -> list[Layout]:
        raise NotImplementedError

    def legal_plays(self, state: State, rules: Rules) -> list[Layout]:
        return self.plays(state.layout, state.turn, *state.dice) or [state.layout]

    def _not_offered(self, *args: object) -> NoReturn:
        raise Skip("this adapter answers legal-plays only")

    next_segment = game_result = opening = may_double = cube_action = match_after_game = _not_offered


Node = TypeVar("Node")


def turn_ends(start: Node, steps: Callable[[Node], Iterable[Node]], key: Callable[[Node], Hashable]) -> list[Node]:
    """Where a turn played one step at a time can end: the nodes from which `steps` offers no further step.

    Each node (told apart by `key`) is expanded once, so transpositions of the same steps cost nothing."""
    seen, ends, todo = {key(start)}, [], [start]
    while todo:
        node = todo.pop()
        following = list(steps(node))
        if not following:
            ends.append(node)
        for child in following:
            if (k := key(child)) not in seen:
                seen.add(k)
                todo.append(child)
    return ends


class NotDriven:
    """An engine that cannot be driven: it declares no ruleset and no query, and `not_driven` says exactly why.

    `gammonspec report` writes its report with that reason and no results, so the results page shows it."""

    name: str
    reason: str
    latest: str  # the version the reason is about, when the distribution is not installed here

    @property
    def not_driven(self) -> str:
        return self.reason

    def info(self) -> EngineInfo:
        try:
            found = version(self.name)
        except PackageNotFoundError:
            found = self.latest
        return EngineInfo(self.name, found, (), ())


class Unbuilt(NotDriven):
    """A third-party engine that cannot be built here (engines/thirdparty/*/source.json says why)."""

    def __init__(self, name: str, version: str, reason: str) -> None:
        self.name, self.latest, self.reason = name, version, reason
