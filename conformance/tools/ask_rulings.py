"""One engine's ruling on one state under one set of rules, and whether the state can occur there (the ask core).

Like ask.py, it imports only the model, the reference engine's rules, reachability.py and the standard library.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from gammonspec.conformance.tools import reachability
from gammonspec.model.interface import CubeOutcome, Engine, GameResult
from gammonspec.model.notation import describe, spell
from gammonspec.model.rulesets import Rules
from gammonspec.model.state import Layout, Segment, Side, State, StateError, standing_six_block
from gammonspec.reference.rules import chain_active, numbers_to_play

RESPONSES = ("take", "drop", "beaver")
QUERIES = ("game-result", "legal-plays", "next-segment", "cube")  # the capabilities a ruling asks, all of them

# ---- what cannot occur --------------------------------------------------------------------------------------


def _segment_problem(state: State, rules: Rules) -> str:
    """Why the segment cannot follow the roll under `rules` ('' when it can)."""
    seg, dice = state.segment, state.dice
    if seg is None:
        return ""
    shown = "-".join(map(str, seg.numbers))
    if not dice:
        return f"segment {shown}: give the roll whose turn it belongs to"
    double = dice[0] == dice[1]
    chained = double and len(set(seg.numbers)) == 1 and len(seg.numbers) <= 4 and seg.numbers[0] >= dice[0]
    if seg.passed:
        if rules.switch.unplayable != "opponent-plays":
            return f"segment {shown}: numbers are passed to the opponent only under unplayable=opponent-plays"
        if state.context.head_moves:
            return "context: head_moves of a passed segment count from its start, so it starts at 0"
        fits = chained if double else all(seg.numbers.count(n) <= dice.count(n) for n in seg.numbers)
        if not fits:
            return f"segment {shown}: passed numbers are some of the roll's ({dice[0]}-{dice[1]}) that were not played"
    elif not (chained and len(seg.numbers) == 4):
        return (
            f"segment {shown}: a later segment of the owner's own turn is a double above the rolled {dice[0]}-{dice[1]}"
        )
    if seg.numbers[0] > dice[0] and double and not chain_active(state.context, rules):
        return f"segment {shown}: no chain follows {dice[0]}-{dice[1]} under doubles={rules.switch.doubles} here"
    return ""


def impossible(state: State, rules: Rules, constructed: bool = False) -> str:
    """Why `state` cannot occur under `rules` ('' when it can): the state model's checks and a six-block a ban
    makes impossible; unless the state is `constructed` (a case's, which may set up a turn no game reaches to pin a
    rule: the case loader has judged it), also reachability.problem, a roll the turn context never deals, a
    segment that does not follow the roll and a cube where the rules have none."""
    dice = state.dice
    if dice and len(dice) != 2:
        return f"roll: a roll is two dice, not {len(dice)}"
    try:
        state.layout.validate(hitting=rules.switch.hitting)
    except StateError as exc:
        return f"position: {exc}"
    if rules.switch.six_block != "allowed" and standing_six_block(state.layout):
        return f"position: {standing_six_block(state.layout)} under six-block={rules.switch.six_block}"
    if constructed:
        return ""
    found = reachability.problem(state, rules)  # what is left: what the turn context needs
    if found:
        return f"context: {found}"
    if dice and dice[0] == dice[1] and state.context.rolls_in_game == 0 and rules.switch.opening == "play-lead-dice":
        return (
            f"roll {dice[0]}-{dice[1]}: the game's first roll is the opening roll, one die each and never a double,"
            " under opening=play-lead-dice"
        )
    if (state.cube.value != 1 or state.cube.owner) and not rules.switch.cube:
        return "cube: these rules have no doubling cube (cube=none)"
    return _segment_problem(state, rules)


# ---- one engine's answer --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ruling:
    """What one engine answers under one set of rules.  None: not asked (or the game is over)."""

    result: GameResult | None = None
    plays: frozenset[Layout] | None = None
    next: Segment | None = None
    cube: tuple[bool, tuple[tuple[str, CubeOutcome], ...]] | None = None  # may double; each response's outcome

    def canonical(self) -> str:
        """The ruling as text: equal rulings, equal texts (the plays as sorted canonical keys)."""
        return json.dumps(
            [
                None if self.result is None else self.result.to_wire(),
                None if self.plays is None else sorted(layout.key() for layout in self.plays),
                None if self.next is None else self.next.to_wire(),
                None if self.cube is None else [self.cube[0], [(r, outcome_json(o)) for r, o in self.cube[1]]],
            ]
        )


def asked(state: State, cube: bool) -> tuple[str, ...]:
    """What a question asks: always the result; with dice the plays (and what follows them), else, where a
    ruleset asked has a cube (`cube`), the cube questions."""
    return ("result", "plays") if state.dice else ("result", "cube") if cube else ("result",)


def rule(engine: Engine, state: State, rules: Rules, capabilities: Sequence[str], parts: Sequence[str]) -> Ruling:
    """`engine`'s ruling on `state` under `rules`: the `parts` asked (asked()), of the queries in `capabilities`."""
    result = engine.game_result(state, rules) if "game-result" in capabilities else None
    if result is not None:
        return Ruling(result=result)
    if "plays" in parts:
        if "legal-plays" not in capabilities:
            return Ruling()
        plays = frozenset(engine.legal_plays(state, rules))
        after = engine.next_segment(state, rules) if "next-segment" in capabilities else None
        return Ruling(plays=plays, next=after.unordered() if after else None)
    if "cube" not in parts or "cube" not in capabilities:
        return Ruling()
    may = engine.may_double(state, rules)
    outcomes = tuple((r, engine.cube_action(state, rules, r)) for r in RESPONSES) if may else ()
    return Ruling(cube=(may, outcomes))


# ---- the document ---------------------------------------------------------------------------------------------


def _numbers(state: State) -> tuple[int, ...]:
    """The numbers a play is spelled with, highest first: the spelling does not depend on the dice's order."""
    return tuple(sorted(state.segment.numbers if state.segment else numbers_to_play(state.dice), reverse=True))


@lru_cache(maxsize=4096)
def _spelled_one(before: Layout, after: Layout, side: Side, numbers: tuple[int, ...], hitting: bool) -> str:
    """One play in notation, worked out once: a position is spelled for its group, and again in flips and
    differences."""
    return spell(before, after, side, numbers, hitting) or describe(before, after, side)


def spelled(state: State, layouts: Iterable[Layout], hitting: bool) -> list[dict[str, Any]]:
    """Plays in move notation, with the position each leaves, sorted by their notation."""
    numbers = _numbers(state)
    found = [(_spelled_one(state.layout, after, state.turn, numbers, hitting), after) for after in layouts]
    return [
        {"play": text, "position": after.to_wire()} for text, after in sorted(found, key=lambda f: (f[0], f[1].key()))
    ]


def outcome_json(outcome: CubeOutcome) -> dict[str, Any]:
    return {
        "legal": outcome.legal,
        "cube": None if outcome.cube is None else outcome.cube.to_wire(),
        "result": None if outcome.result is None else outcome.result.to_wire(),
    }


def answer_json(state: State, ruling: Ruling, hitting: bool, plays: bool = True) -> dict[str, Any]:
    """A ruling as the document writes it; without `plays`, all but the plays (a flip lists only those it changes)."""
    listed = {"plays": None if ruling.plays is None else spelled(state, ruling.plays, hitting)} if plays else {}
    return {
        "result": None if ruling.result is None else ruling.result.to_wire(),
        **listed,
        "next": None if ruling.next is None else ruling.next.to_wire(),
        "cube": None
        if ruling.cube is None
        else {"may_double": ruling.cube[0], "double": {r: outcome_json(o) for r, o in ruling.cube[1]} or None},
    }
