"""Who moves first, and with which numbers."""

from __future__ import annotations

from gammonspec.model.interface import Opening
from gammonspec.model.rulesets import Rules
from gammonspec.model.state import Cube, Match, Side


def previous_winner_starts(game_number: int, previous_winner: Side | None, rules: Rules) -> bool:
    """switch next-game-opener=previous-winner: after the first game, the last winner moves first, unrolled.

    nd.opening.next-game; bg.opening.every-game for opening-roll."""
    return rules.switch.next_game_opener == "previous-winner" and game_number > 1 and previous_winner is not None


def automatic_double(cube: Cube, match: Match, rules: Rules) -> bool:
    """Option automatic-doubles: a tie on the opening roll doubles the stake, cube centred, once a game, never in
    the Crawford game.  bg.option.automatic-doubles."""
    return bool(rules.options.get("automatic-doubles")) and cube.value == 1 and not match.crawford


def opening(
    rules: Rules, dice: dict[str, int], game_number: int, previous_winner: Side | None, cube: Cube, match: Match
) -> Opening:
    """One die each: the higher starts, a tie rolls again; the starter plays the lead dice or rolls anew.

    bg.opening.roll, bg.opening.tie, nd.opening.roll, nd.opening.lead-dice (switch opening)."""
    if previous_winner_starts(game_number, previous_winner, rules):
        return Opening(previous_winner, None, cube)
    white, black = dice["white"], dice["black"]
    if white == black:
        return Opening(None, None, Cube(cube.value * 2) if automatic_double(cube, match, rules) else cube)
    starts: Side = "white" if white > black else "black"
    lead = (max(white, black), min(white, black))
    return Opening(starts, lead if rules.switch.opening == "play-lead-dice" else None, cube)
