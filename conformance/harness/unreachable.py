"""States a case may not ask about: a layout can be possible while the turn the case sets on it is not.

The model (state.py) refuses what no game holds at all (checker counts, a cube at 1 with an owner, a
Crawford game of money play); here are the states that contradict the rest of a step: a game that is
over asked for a play, a first turn whose head is already short, a double as a game's first roll where
the opening never deals one.  Each check reads the switch values of the rulesets the case runs under,
never a game's name.
"""

from __future__ import annotations

from collections.abc import Iterable

from gammonspec.conformance.harness.steps import Step
from gammonspec.model.games import CHECKERS, GAME_DATA, HEAD
from gammonspec.model.rulesets import Ruleset
from gammonspec.model.state import SIDES, State


def _game_over(state: State) -> str:
    done = [side for side in SIDES if state.layout.borne_off(side) == CHECKERS]
    if not done:
        return ""
    return f"{done[0]} has borne off all {CHECKERS} checkers, so the game is over and nobody plays"


def _first_roll_double(state: State, running: Iterable[Ruleset]) -> str:
    dice = state.dice
    if state.context.rolls_in_game or len(dice) != 2 or dice[0] != dice[1]:
        return ""
    lead = sorted(rs.name for rs in running if rs.switches["opening"] == "play-lead-dice")
    if not lead:
        return ""
    return (
        f"{dice[0]}-{dice[1]} as the game's first roll (rolls_in_game 0) under {', '.join(lead)}, where the opening"
        " roll is played (opening=play-lead-dice) and a tie is rolled again: the first roll is never a double"
    )


def _head_short(state: State) -> str:
    if not state.context.first_turn or state.segment is not None and state.segment.passed:
        return ""
    at_start = GAME_DATA[state.game].start_points()[HEAD - 1]
    left = at_start - state.layout.points(state.turn)[HEAD - 1]
    if left <= state.context.head_moves:
        return ""
    return (
        f"{state.turn}'s first turn (first_turn true), yet {left} of its {at_start} checkers have left its"
        f" {HEAD}-point and only {state.context.head_moves} this turn (context head_moves)"
    )


def why_unreachable(step: Step, running: Iterable[Ruleset]) -> tuple[str, str] | None:
    """Why no game under the rulesets `running` reaches this step's state, with the case field at fault
    (position, roll or context); None when one can."""
    if step.kind != "plays":
        return None
    state = step.state
    for field, why in (
        ("position", _game_over(state)),
        ("roll", _first_roll_double(state, running)),
        ("context", _head_short(state)),
    ):
        if why:
            return field, why
    return None
