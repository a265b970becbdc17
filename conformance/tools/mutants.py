"""Named rule mutants of the reference engine: the registry (`all_mutants`), `explaining` and the switch misreadings.

The mutation check (tests/mutation.py) requires each to fail cases; they also name the rule an
engine's wrong answer breaks.

Each mutant breaks one rule the way an engine author might get it wrong: it replaces one rule
function of `gammonspec.reference` (or wraps it) for the length of a `with mutant.applied():`
block, and names the rule ID it breaks (conformance/tools/mutant_patches.py says how, and why only one
at a time: `LOCK`).  The rule mutants live by the rule area they break: movement_mutants.py,
turn_mutants.py (with the opening's) and scoring_mutants.py (with the cube's).  Mutants that no
position can tell apart from the rule are left out (a checker on the bar bearing off: nothing else
moves while one is on the bar; a play going on after the last checker is off; a six-block ban waived
for borne-off opponents: a trap needs an opposing checker on the board behind it; a draw found only
after the play: the draw needs the mover's home board full, home checkers are frozen while one stands
in the first quarter, and the walled-in opponent's home checkers stand ahead of any row, so whatever
the mover could still play after the draw it could have played before it, to the same end).  A second
family, defined here, reads one switch value as another at the engine's boundary, so every switch
value of every ruleset is needed by some cases.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

import yaml
from gammonspec.conformance.harness.messages import METHODS
from gammonspec.conformance.tools.movement_mutants import MOVEMENT_MUTANTS
from gammonspec.conformance.tools.mutant_patches import LOCK as LOCK  # re-exported: the one-mutant-at-a-time lock
from gammonspec.conformance.tools.mutant_patches import Mutant
from gammonspec.conformance.tools.scoring_mutants import SCORING_MUTANTS
from gammonspec.conformance.tools.turn_mutants import OPENING_MUTANTS, TURN_MUTANTS
from gammonspec.model.rulesets import SPEC_DIR, Rules, registry
from gammonspec.reference import ReferenceEngine

RULE_MUTANTS: tuple[Mutant, ...] = MOVEMENT_MUTANTS + TURN_MUTANTS + SCORING_MUTANTS + OPENING_MUTANTS


# ---- one switch value read as another, at the engine's boundary ------------------------------------

# Left out as equivalent under every ruleset: head-exception=none comes only with head-rule=none.
MISREAD: dict[tuple[str, str], str] = {
    ("hitting", "blots"): "none",
    ("hitting", "none"): "blots",
    ("opening", "play-lead-dice"): "winner-rolls",
    ("opening", "winner-rolls"): "play-lead-dice",
    ("next-game-opener", "opening-roll"): "previous-winner",
    ("next-game-opener", "previous-winner"): "opening-roll",
    ("doubles", "four-moves"): "chain",
    ("doubles", "chain"): "four-moves",
    ("doubles", "chain-after-three-rolls"): "chain",
    ("unplayable", "lost"): "opponent-plays",
    ("unplayable", "opponent-plays"): "lost",
    ("head-rule", "none"): "one-per-turn",
    ("head-rule", "one-per-turn"): "none",
    ("head-exception", "first-turn-3-4-6"): "game-first-roll",
    ("head-exception", "game-first-roll"): "first-turn-3-4-6",
    ("six-block", "allowed"): "banned-after-turn",
    ("six-block", "banned-after-turn"): "banned-within-turn",
    ("six-block", "banned-within-turn"): "banned-after-turn",
    ("bear-off", "higher-from-highest"): "exact-only",
    ("bear-off", "exact-only"): "higher-from-highest",
    ("home-frozen", "free"): "frozen",
    ("home-frozen", "frozen"): "free",
    ("scoring", "single-gammon-backgammon"): "oin-mars",
    ("scoring", "oin-mars-coke"): "oin-mars",
    ("scoring", "oin-mars"): "oin-mars-coke",
    ("draw", "none"): "both-blocked",
    ("draw", "both-blocked"): "none",
    ("cube", "doubling"): "none",
    ("cube", "none"): "doubling",
}


def _misread(switch: str, value: str, instead: str) -> Callable[[Any], Any]:
    def make(method: Any) -> Any:
        def wrapped(self, *args):
            args = tuple(_rules_misread(a, switch, value, instead) for a in args)
            return method(self, *args)

        return wrapped

    return make


def _rules_misread(arg: Any, switch: str, value: str, instead: str) -> Any:
    if not isinstance(arg, Rules) or arg.switches.get(switch) != value:
        return arg
    options = dict(arg.options)
    if instead == "oin-mars-coke":
        options.setdefault("coke-value", 3)
    return replace(arg, switches={**arg.switches, switch: instead}, options=options)


def switch_mutants() -> tuple[Mutant, ...]:
    used = {
        (s, v)
        for path in (SPEC_DIR / "rulesets").glob("*.yaml")
        for s, v in yaml.safe_load(path.read_text())["switches"].items()
    }
    named = {name: spec.get("clauses", {}) for name, spec in registry()["switches"].items()}
    return tuple(
        Mutant(
            f"reads-{switch}={value}-as-{instead}",
            f"switch {switch}={value}",
            "ReferenceEngine (rules at the boundary)",
            tuple((ReferenceEngine, name, _misread(switch, value, instead)) for name in METHODS),
            tuple(  # the switch's clauses: the value's, the one read instead, the others'
                c for v in sorted(named[switch], key=lambda v: (v != value, v != instead)) for c in named[switch][v]
            ),
        )
        for (switch, value), instead in MISREAD.items()
        if (switch, value) in used
    )


def all_mutants() -> tuple[Mutant, ...]:
    return RULE_MUTANTS + switch_mutants()


def explaining(answer: object, ask: Callable[[], object], mutants: Iterable[Mutant] | None = None) -> list[Mutant]:
    """The mutants under which `ask()`, a question to the reference engine answered in the form `answer` has,
    gives `answer`: the broken rules that an engine answering so plays as if it had.  A mutant under which the
    question raises explains nothing."""
    found = []
    for m in all_mutants() if mutants is None else mutants:
        with m.applied():
            try:
                given = ask()
            except Exception:  # a broken rule may break the engine's own invariants
                continue
        if given == answer:
            found.append(m)
    return found
