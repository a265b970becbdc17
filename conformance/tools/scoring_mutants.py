"""Rule mutants of a game's result and its stakes: the winner, gammons and cokes, draws, the cube, the match.

Each breaks one rule function of scoring or cube (conformance/tools/mutants.py holds the registry).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from gammonspec.conformance.tools.mutant_patches import Mutant, const, mutant
from gammonspec.model.interface import CubeOutcome, GameResult
from gammonspec.model.rulesets import Rules
from gammonspec.model.state import Cube
from gammonspec.reference import cube, scoring

# ---- replacements that need more than one line -------------------------------------------------


def _bar_not_backgammon(original: Any) -> Any:
    def backgammoned(layout, loser):
        return any(layout.points(loser)[18:24])

    return backgammoned


def _coke_any_game(original: Any) -> Any:
    def win_kind(layout, loser, rules):  # oin-mars scores a coke as well
        if rules["scoring"] == "oin-mars":
            rules = Rules(rules.ruleset, rules.game, {**rules.switches, "scoring": "oin-mars-coke"}, {"coke-value": 3})
        return original(layout, loser, rules)

    return win_kind


def _coke_value_ignored(original: Any) -> Any:
    def win_kind(layout, loser, rules):
        if "coke-value" in rules.options:
            rules = replace(rules, options={**rules.options, "coke-value": 3})
        return original(layout, loser, rules)

    return win_kind


def _no_backgammon(original: Any) -> Any:
    def win_kind(layout, loser, rules):
        kind, points = original(layout, loser, rules)
        return ("gammon", 2) if kind == "backgammon" else (kind, points)

    return win_kind


def _one_walled(original: Any) -> Any:
    def mutual_block(layout):  # a draw when either side's home board is full and the other is in its start
        sides = ("white", "black")
        return (
            any(all(layout.points(s)[:6]) and any(layout.points(o)[18:24]) for s, o in zip(sides, reversed(sides)))
            and scoring.winner(layout) is None
        )

    return mutual_block


def _drop_doubled(original: Any) -> Any:
    def cube_action(state, rules, response):  # a drop pays the doubled stake
        outcome = original(state, rules, response)
        if outcome.result is not None:
            res = outcome.result
            return CubeOutcome(True, result=GameResult(res.winner, res.kind, res.points * 2))
        return outcome

    return cube_action


def _beaver_as_take(original: Any) -> Any:
    def cube_action(state, rules, response):  # a beaver only doubles, like a take
        return original(state, rules, "take" if response == "beaver" else response)

    return cube_action


def _take_centres(original: Any) -> Any:
    def cube_action(state, rules, response):  # a take leaves the cube in the middle
        outcome = original(state, rules, response)
        if outcome.cube is not None:
            return CubeOutcome(True, cube=Cube(outcome.cube.value))
        return outcome

    return cube_action


def _beaver_dead_cube(original: Any) -> Any:
    def may_beaver(state, rules):  # a beaver allowed whatever the score and the ceiling
        return bool(rules.options.get("beavers"))

    return may_beaver


def _crawford_every_time(original: Any) -> Any:
    def next_game_is_crawford(match, score):  # every game after reaching match point is a Crawford game
        return match.length > 0 and not match.crawford and max(score) == match.length - 1

    return next_game_is_crawford


def _draw_scores(original: Any) -> Any:
    def match_after_game(state, rules, result):  # a draw gives each side a point
        if result.winner is None:
            match = state.match
            score = (match.score[0] + 1, match.score[1] + 1)
            return cube.MatchOutcome(score, False, None)
        return original(state, rules, result)

    return match_after_game


def _dead_cube_off_by_one(original: Any) -> Any:
    def stake_wins_match(match, side, stake):  # dead only when the stake would pass the length
        return match.length > 0 and match.points(side) + stake > match.length

    return stake_wins_match


SCORING_MUTANTS: tuple[Mutant, ...] = (
    mutant(
        "fourteen-off-wins",
        "bg.object",
        scoring,
        "winner",
        lambda o: lambda lay: next((s for s in ("white", "black") if lay.borne_off(s) >= 14), None),
    ),
    mutant("bar-not-backgammon", "bg.score.backgammon", scoring, "backgammoned", _bar_not_backgammon),
    mutant("coke-scored-as-mars", "nd.score.coke", scoring, "coke", const(False)),
    mutant(
        "coke-one-checker-home",
        "nd.score.coke",
        scoring,
        "coke",
        lambda o: lambda lay, loser, rules: any(lay.points(loser)[18:24]),
    ),
    mutant("coke-under-oin-mars", "nd.score.mars", scoring, "win_kind", _coke_any_game),
    mutant("coke-value-ignored", "nd.score.coke-value", scoring, "win_kind", _coke_value_ignored),
    mutant("no-backgammon", "bg.score.backgammon", scoring, "win_kind", _no_backgammon),
    mutant("draw-one-side-walled", "cn.draw.both-blocked", scoring, "mutual_block", _one_walled),
    mutant("draw-never", "cn.draw.both-blocked", scoring, "mutual_block", const(False)),
    mutant("cube-in-a-game-without-cube", "cn.cube.none", cube, "game_has_cube", const(True)),
    mutant("non-owner-may-double", "bg.cube.owner", cube, "cube_available", const(True)),
    mutant("no-64-ceiling", "bg.cube.faces", cube, "below_ceiling", const(True)),
    mutant("no-crawford-ban", "bg.cube.crawford-game", cube, "crawford_game", const(False)),
    mutant("no-dead-cube-ban", "bg.cube.dead", cube, "stake_wins_match", const(False)),
    mutant("dead-cube-off-by-one", "bg.cube.dead", cube, "stake_wins_match", _dead_cube_off_by_one),
    mutant("double-on-lead-turn", "bg.cube.offer", cube, "dice_already_thrown", const(False)),
    mutant("double-mid-turn", "cn.cube.as-backgammon", cube, "turn_under_way", const(False)),
    mutant("beaver-at-any-score", "bg.option.beavers", cube, "may_beaver", _beaver_dead_cube),
    mutant("beavers-refused", "bg.option.beavers", cube, "may_beaver", const(False)),
    mutant("drop-pays-doubled-stake", "bg.cube.drop", cube, "cube_action", _drop_doubled),
    mutant("beaver-doubles-only", "bg.option.beavers", cube, "cube_action", _beaver_as_take),
    mutant("take-leaves-cube-centred", "bg.cube.take", cube, "cube_action", _take_centres),
    mutant("jacoby-ignored", "bg.option.jacoby", cube, "jacoby", const(False)),
    mutant(
        "jacoby-after-a-double",
        "bg.option.jacoby",
        cube,
        "jacoby",
        lambda o: lambda state, rules: bool(rules.options.get("jacoby")) and state.match.length == 0,
    ),
    mutant("no-crawford-game", "bg.match.crawford", cube, "next_game_is_crawford", const(False)),
    mutant("crawford-every-time", "bg.match.crawford", cube, "next_game_is_crawford", _crawford_every_time),
    mutant("draw-scores-a-point", "cn.draw.match", cube, "match_after_game", _draw_scores),
)
