"""How a rule mutant patches the reference engine: `Mutant`, the patches it makes and `LOCK`.

A mutant replaces one rule function of `gammonspec.reference` (or wraps it) for the length of a
`with mutant.applied():` block.  The shipped engine has no mutation code paths; the patches go where the
engine looks its rule functions up (`r.name` in movegen, module globals elsewhere).  The patches are the
process's: one mutant at a time is applied (`LOCK`), so threads that apply mutants (a cluster of worker
threads) always undo them in the order they made them and never leave one behind.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from gammonspec.model.clauses import game_clauses

Patch = tuple[Any, str, Callable[[Any], Any]]  # (module or class, attribute, original -> replacement)
LOCK = threading.RLock()  # held for the length of each `applied()`: one thread's patches at a time


@dataclass(frozen=True)
class Mutant:
    name: str
    rule: str  # the rule ID (or switch value) it breaks
    target: str  # the function it replaces, as module.function
    patches: tuple[Patch, ...]
    also: tuple[str, ...] = ()  # the same rule's clauses in games where its ID has no counterpart of the same name

    def rule_in(self, game: str) -> str | None:
        """The rule ID it breaks as `game`'s own page names it: `rule` itself, the clause of `game` with the same
        name after the game's prefix (bg.move.higher-die -> nd.move.higher-die), or the first of `also` there;
        None when `game` has no such clause.  Matched whole, never by a part of the name."""
        own = game_clauses(game)
        tail = self.rule.split(".", 1)[-1]
        named = [self.rule, *(c for c in own if c.split(".", 1)[-1] == tail), *self.also]
        return next((c for c in named if c in own), None)

    @contextlib.contextmanager
    def applied(self) -> Iterator[None]:
        with LOCK, contextlib.ExitStack() as stack:
            for owner, attr, make in self.patches:
                original = getattr(owner, attr)
                replacement = make(original)
                for where in _holders(owner, attr, original):
                    stack.enter_context(_swap(where, attr, replacement))
            yield


def _holders(owner: Any, attr: str, original: Any) -> list[Any]:
    """`owner` and every reference module that imported the same function under the same name."""
    if isinstance(owner, type):
        return [owner]
    modules = [m for name, m in sys.modules.items() if name.startswith("gammonspec.reference") and m is not owner]
    return [owner, *(m for m in modules if getattr(m, attr, None) is original)]


@contextlib.contextmanager
def _swap(owner: Any, attr: str, value: Any) -> Iterator[None]:
    original = owner.__dict__[attr] if isinstance(owner, type) else getattr(owner, attr)
    setattr(owner, attr, value)
    try:
        yield
    finally:
        setattr(owner, attr, original)


def const(value: Any) -> Callable[[Any], Any]:
    """A replacement that ignores its arguments and returns `value`."""
    return lambda _original: lambda *args, **kwargs: value


def mutant(
    name: str, rule: str, owner: Any, attr: str, make: Callable[[Any], Any], *more: Patch, also: tuple[str, ...] = ()
) -> Mutant:
    module = owner.__name__.rsplit(".", 1)[-1]
    return Mutant(name, rule, f"{module}.{attr}", ((owner, attr, make), *more), also)
