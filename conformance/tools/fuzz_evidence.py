"""How far a fuzz failure's readings hold: each switch flip (or rule mutant) that gives the engine's answer on the
failure's state, weighed against the campaign's other states.

A reading is tested where it changes the reference engine's answer: a state there on which the engine gave the
reading's answer supports it, one on which the engine agreed with the reference refutes it (an engine that plays
as if bear-off=exact-only would not play the rules as written where exact-only plays otherwise).  A reading is
refuted when what is against it outweighs what is for it as identify weighs it (weighing.stands: one state
against 35 for does not refute it); a refuted reading is marked so and no longer titles the failure.  The rule mutants are those of conformance/tools/mutants.py:
a failure whose answer a mutant gives plays as if the mutant's rule were broken its way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

from gammonspec.conformance.tools.mutants import Mutant, all_mutants
from gammonspec.conformance.tools.weighing import stands
from gammonspec.model.rulesets import Rules
from gammonspec.model.state import State, StateError


@dataclass
class Reading:
    """One way to read a failure: a switch flip ('bear-off=exact-only') or a rule mutant, and its evidence."""

    name: str  # the flip, or the mutant's name
    rule: str = ""  # a mutant's rule ID as the game's own page names it (Mutant.rule_in); '' for a flip, or none
    mutant: bool = False  # a rule mutant, not a flip
    supports: int = 0  # states where it changes the reference's answer and the engine gives the changed one
    refutes: int = 0  # states where it changes the reference's answer and the engine agrees with the reference

    @property
    def refuted(self) -> bool:
        """Refuted by the states against it, weighed against those for it as identify weighs cases (weighing)."""
        return not stands(self.supports, self.refutes)

    @property
    def words(self) -> str:
        """How a title says it: the flip itself, or '<rule ID> were <the mutant's description>'."""
        if not self.mutant:
            return self.name
        return f"{self.rule} were {description(self.name)}" if self.rule else f"its rule were {description(self.name)}"

    def weight(self) -> str:
        verdict = "refuted" if self.refuted else "holds"
        return f"{self.words}: {self.supports} state(s) for, {self.refutes} against ({verdict})"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"reading": self.name, "supports": self.supports, "refutes": self.refutes}
        if self.mutant:
            out["rule"] = self.rule or None
        return out | {"refuted": self.refuted}


def description(mutant: str) -> str:
    """A mutant's name as words: 'higher-bears-off-any-point' -> 'higher bears off any point'."""
    if mutant.startswith("reads-"):  # reads-bear-off=exact-only-as-higher-from-highest
        switch, instead = mutant.removeprefix("reads-").split("-as-", 1)
        return f"read as {instead} (mutant {mutant})"
    return f"'{mutant.replace('-', ' ')}' (mutant {mutant})"


Asker = Callable[[State, Rules], Any]  # the reference engine's answer on one aspect


@dataclass(frozen=True)
class Seen:
    """A state the campaign asked, with the reference engine's answers and the engine's (by aspect)."""

    state: State
    expected: dict[str, Any]
    got: dict[str, Any]


def attributed(state: State, rules: Rules, answer: Any, ask: Asker) -> list[Reading]:
    """The rule mutants under which the reference engine gives `answer` on `state` (a mutant that raises gives
    nothing), each citing its rule as the state's game names it."""
    found = []
    for m in all_mutants():
        try:
            with m.applied():
                given = ask(state, rules)
        except (StateError, KeyError, ValueError, TypeError, AttributeError, AssertionError, IndexError):
            continue  # a broken rule may break the engine's own invariants
        if given == answer:
            found.append(Reading(m.name, m.rule_in(state.game) or "", mutant=True))
    return found


def weigh(
    reading: Reading,
    aspect: str,
    seen: Iterable[Seen],
    ask: Asker,
    rules: Rules,
    mutant: Mutant | None = None,
) -> None:
    """Count the states of `seen` that support or refute `reading` (under `rules`: a flip's rules, or the target's
    with `mutant` applied)."""
    context: AbstractContextManager[Any] = mutant.applied() if mutant else nullcontext()
    with context:  # entered once: a mutant's patches hold for every state weighed
        for s in seen:
            if aspect not in s.got:
                continue
            try:
                changed = ask(s.state, rules)
            except (StateError, KeyError, ValueError, TypeError, AttributeError, AssertionError, IndexError):
                continue
            if changed == s.expected[aspect]:
                continue  # the reading plays this state as the rules do: no evidence either way
            if s.got[aspect] == s.expected[aspect]:
                reading.refutes += 1
            elif s.got[aspect] == changed:
                reading.supports += 1


def mutant_named(name: str) -> Mutant:
    return next(m for m in all_mutants() if m.name == name)
