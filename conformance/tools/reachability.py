"""Whether a generated state can be asked: valid by the state model and reachable as far as it can tell.

`problem` checks the state model's validation, the six-block a ban makes impossible, and what
reachability needs of the turn context, per side: a first turn only from the start, enough rolls of each side
for the pips it moved (the side on roll made every other roll before this one, the other side the rest), the
game's first roll moving a checker off the start, no double as the game's first roll where the opening's lead
dice are played, head moves within the allowance.
"""

from __future__ import annotations

import random
from math import ceil

from gammonspec.model.rulesets import Rules
from gammonspec.model.state import (
    CHECKERS,
    HEAD,
    SIDES,
    Layout,
    Side,
    State,
    StateError,
    TurnContext,
    other,
    standing_six_block,
    start_layout,
)

# ---- reachability --------------------------------------------------------------------------------


def pips(layout: Layout, side: Side) -> int:
    return sum(p * n for p, n in enumerate(layout.points(side), 1)) + 25 * layout.on_bar(side)


def most_pips_per_roll(rules: Rules) -> int:
    """The most pips one roll can move: 6-6 four times, or a chain of doubles from 1-1 to 6-6."""
    return 24 if rules.switch.doubles == "four-moves" else 4 * sum(range(1, 7))


def most_head_moves(dice: tuple[int, ...], context: TurnContext, rules: Rules) -> int:
    """The most checkers a turn may take off the head (nd.head.one-per-turn, nd.head.first-turn): two at most."""
    if not rules.switch.head_rule:
        return CHECKERS
    return 2 if dice[:1] * 2 == dice or context.rolls_in_game == 0 else 1


def problem(state: State, rules: Rules) -> str:
    """Why `state` cannot be asked under `rules` ('' when it can): impossible, or not reachable as far as the
    position shows."""
    layout = state.layout
    try:
        layout.validate(hitting=rules.switch.hitting)
    except StateError as exc:
        return str(exc)
    if rules.switch.six_block != "allowed" and standing_six_block(layout):
        return standing_six_block(layout)
    ctx = state.context
    if ctx.first_turn and ctx.rolls_in_game > 1:
        return "a side's first turn comes on the game's first or second roll"
    if ctx.rolls_in_game == 0 and not ctx.first_turn:
        return "the game's first roll is its roller's first turn"
    start = start_layout(layout.game)
    if (
        ctx.first_turn
        and rules.switch.unplayable != "opponent-plays"
        and pips(layout, state.turn) < pips(start, state.turn)
    ):
        return "on its first turn a side has not moved yet (and nobody else moves its checkers forward)"
    if ctx.rolls_in_game < least_rolls(layout, rules, state.turn):
        return f"{ctx.rolls_in_game} rolls, every other one {state.turn}'s, cannot have moved the checkers this far"
    if ctx.rolls_in_game and layout == start:
        return "the game's first roll moves a checker from the start (there is always a play)"
    double = len(state.dice) == 2 and state.dice[0] == state.dice[1]
    if ctx.rolls_in_game == 0 and rules.switch.opening == "play-lead-dice" and double:
        return "the game's first roll plays the opening's lead dice, never a double"
    if ctx.head_moves and ctx.head_moves > min(
        most_head_moves(state.dice, ctx, rules),
        CHECKERS - layout.points(state.turn)[HEAD - 1],
    ):
        return f"{ctx.head_moves} checkers cannot have left the head earlier in this turn"
    if state.dice and len(state.dice) != 2:
        return "a roll is two dice"
    return ""


def least_rolls(layout: Layout, rules: Rules, turn: Side) -> int:
    """The fewest rolls before this one that can have moved the pips each side moved since the start, `turn` on
    roll now: turns alternate, so of n rolls it made n // 2 and the other side the rest; where numbers pass to the
    opponent (unplayable=opponent-plays) either side may have moved on any roll."""
    start, most = start_layout(layout.game), most_pips_per_roll(rules)
    need = {s: ceil(max(pips(start, s) - pips(layout, s), 0) / most) for s in SIDES}
    if rules.switch.unplayable == "opponent-plays":
        return max(need.values())
    return max(2 * need[turn], 2 * need[other(turn)] - 1, 0)


def rolls_for(rng: random.Random, layout: Layout, rules: Rules, turn: Side) -> int:
    """Rolls already played in the game: at random, but at least two and enough for the pips each side moved."""
    return max(2, least_rolls(layout, rules, turn)) + rng.choice((0, 0, 1, 2, 5, 20))
