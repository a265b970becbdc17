"""The doubling cube and match play: who may double, what a take, a drop or a beaver does, the match score."""

from __future__ import annotations

from gammonspec.model.interface import CubeOutcome, GameResult, MatchOutcome
from gammonspec.model.rulesets import Rules
from gammonspec.model.state import CUBE_VALUES, SIDES, Cube, Match, Side, State, other

CEILING = CUBE_VALUES[-1]


def game_has_cube(rules: Rules) -> bool:
    """switch cube=doubling; gul-bara and the Narde texts have no doubling (cn.cube.none)."""
    return rules.switch.cube


def cube_available(cube: Cube, side: Side) -> bool:
    """A side may offer only with the cube centred or its own.  bg.cube.offer, bg.cube.owner."""
    return cube.owner in (None, side)


def below_ceiling(value: int) -> bool:
    """The stake cannot pass 64.  bg.cube.faces."""
    return value <= CEILING


def crawford_game(match: Match) -> bool:
    """No doubling in the Crawford game.  bg.cube.crawford-game, bg.match.crawford."""
    return match.length > 0 and match.crawford


def stake_wins_match(match: Match, side: Side, stake: int) -> bool:
    """The stake already gives `side` enough points to win the match: doubling is pointless and banned.  bg.cube.dead."""
    return match.length > 0 and match.points(side) + stake >= match.length


def dice_already_thrown(state: State, rules: Rules) -> bool:
    """The game's first turn under switch opening=play-lead-dice is played with the opening roll, which
    is already thrown: there is no moment before the roll to double in.  bg.cube.offer."""
    return rules.switch.opening == "play-lead-dice" and state.context.rolls_in_game == 0


def turn_under_way(state: State) -> bool:
    """A later segment of a turn (the next double of a chain, numbers handed to the opponent) is played
    without a throw: it is not the start of a turn, where alone a double is offered.  cn.cube.as-backgammon."""
    return state.segment is not None


def may_double(state: State, rules: Rules) -> bool:
    """Whether the side on roll may offer a double now (before rolling).  bg.cube.offer."""
    return (
        game_has_cube(rules)
        and not dice_already_thrown(state, rules)
        and not turn_under_way(state)
        and cube_available(state.cube, state.turn)
        and below_ceiling(state.cube.value * 2)
        and not crawford_game(state.match)
        and not stake_wins_match(state.match, state.turn, state.cube.value)
    )


def may_beaver(state: State, rules: Rules) -> bool:
    """The taker may redouble at once and keep the cube, under the same limits as any double.  bg.option.beavers."""
    taker = other(state.turn)
    return (
        bool(rules.options.get("beavers"))
        and below_ceiling(state.cube.value * 4)
        and not stake_wins_match(state.match, taker, state.cube.value * 2)
    )


def cube_action(state: State, rules: Rules, response: str) -> CubeOutcome:
    """The side on roll doubles and the other responds: take (bg.cube.take), drop (bg.cube.drop) or beaver."""
    if not may_double(state, rules) or (response == "beaver" and not may_beaver(state, rules)):
        return CubeOutcome(False)
    value, taker = state.cube.value, other(state.turn)
    if response == "drop":
        return CubeOutcome(True, result=GameResult(state.turn, "dropped", value))
    return CubeOutcome(True, cube=Cube(value * (4 if response == "beaver" else 2), taker))


def jacoby(state: State, rules: Rules) -> bool:
    """Gammons and backgammons count single when nobody doubled (an automatic double does not count), in money
    play and in a match alike, as the source's challenger may switch it on for a match.

    bg.option.jacoby."""
    return bool(rules.options.get("jacoby")) and state.cube.owner is None


def next_game_is_crawford(match: Match, score: tuple[int, int]) -> bool:
    """The game after a side first comes within one point of the match is the Crawford game.  bg.match.crawford."""
    first_time = all(points < match.length - 1 for points in match.score)
    return match.length > 0 and not match.crawford and first_time and max(score) == match.length - 1


def match_after_game(state: State, rules: Rules, result: GameResult) -> MatchOutcome:
    """The score after a game, whether the next game is the Crawford game, and the match winner.

    bg.match.length; cn.draw.match: a draw scores nothing and the match goes on."""
    match = state.match
    score = tuple(points + (result.points if result.winner == side else 0) for side, points in zip(SIDES, match.score))
    winner = next((side for side, points in zip(SIDES, score) if match.length and points >= match.length), None)
    crawford = winner is None and next_game_is_crawford(match, score)
    return MatchOutcome((score[0], score[1]), crawford, winner)
