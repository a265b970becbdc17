"""Rule mutants of a turn's segments (chains of doubles, passed numbers, a win mid-turn) and of the opening.

Each breaks one rule function of movegen, rules or opening (conformance/tools/mutants.py holds the registry).
"""

from __future__ import annotations

import importlib
from dataclasses import replace
from typing import Any

from gammonspec.conformance.tools.mutant_patches import Mutant, const, mutant
from gammonspec.model.interface import Opening
from gammonspec.model.state import Segment
from gammonspec.reference import movegen, scoring
from gammonspec.reference import rules as r

opening = importlib.import_module("gammonspec.reference.opening")  # the package re-exports a function of that name


# ---- replacements that need more than one line -------------------------------------------------


def _chain_from_start(original: Any) -> Any:
    def chain_active(context, rules):  # chain-after-three-rolls read as a chain from the first roll
        return rules["doubles"] in ("chain", "chain-after-three-rolls")

    return chain_active


def _chain_after_two(original: Any) -> Any:
    def chain_active(context, rules):  # the first three rolls counted from the opening roll's next roll
        return original(replace(context, rolls_in_game=context.rolls_in_game + 1), rules)

    return chain_active


def _passed_not_returned(original: Any) -> Any:
    def next_segment(state, rules, results, used):  # after passed numbers the turn ends: the chain does not return
        following = original(state, rules, results, used)
        if state.segment and state.segment.passed:
            return None
        return following

    return next_segment


def _passed_twice(original: Any) -> Any:
    def next_segment(
        state, rules, results, used
    ):  # passed numbers the opponent cannot use go back (cn.unplayable.once)
        following = original(state, rules, results, used)
        if state.segment and state.segment.passed and following is None:
            left = list(state.segment.numbers)
            for n in used:
                left.remove(n)
            if left and not all(scoring.game_over(lay, rules) for lay in results):
                return replace(state.segment, owner=state.segment.player, numbers=tuple(left), passed=True)
        return following

    return next_segment


def _chain_on_partial(original: Any) -> Any:
    def next_segment(state, rules, results, used):  # a double not played in full still goes on to the next double
        following = original(state, rules, results, used)
        numbers = movegen.segment_numbers(state, rules)
        chained = r.next_in_chain((numbers[0],) * 4, state.context, rules) if len(numbers) == 4 else None
        if following is None and chained and not (state.segment and state.segment.passed):
            if not all(scoring.game_over(lay, rules) for lay in results):
                owner = state.segment.owner if state.segment else state.turn
                return replace(state.segment, numbers=chained) if state.segment else Segment(owner, chained)
        return following

    return next_segment


def _head_moves_forgotten(original: Any) -> Any:
    def play_view(state, me, them, rules, g):  # head moves of earlier segments of the turn are not counted
        return original(replace(state, context=replace(state.context, head_moves=0)), me, them, rules, g)

    return play_view


def _auto_double_in_crawford(original: Any) -> Any:
    def automatic_double(cube_, match, rules):
        return bool(rules.options.get("automatic-doubles")) and cube_.value == 1

    return automatic_double


def _auto_double_again(original: Any) -> Any:
    def automatic_double(cube_, match, rules):  # every tie doubles again
        return bool(rules.options.get("automatic-doubles")) and not match.crawford

    return automatic_double


def _lead_dice_rolled_anew(original: Any) -> Any:
    def opening_(rules, dice, game_number, previous_winner, cube_, match):  # the starter always rolls anew
        o = original(rules, dice, game_number, previous_winner, cube_, match)
        return Opening(o.starts, None, o.cube)

    return opening_


def _lead_dice_always(original: Any) -> Any:
    def opening_(rules, dice, game_number, previous_winner, cube_, match):  # the starter always plays the lead dice
        o = original(rules, dice, game_number, previous_winner, cube_, match)
        if o.starts and o.dice is None and dice["white"] != dice["black"]:
            return Opening(o.starts, (max(dice.values()), min(dice.values())), o.cube)
        return o

    return opening_


def _lower_die_starts(original: Any) -> Any:
    def opening_(rules, dice, game_number, previous_winner, cube_, match):  # the lower die starts
        flipped = {"white": dice["black"], "black": dice["white"]}
        return original(rules, flipped, game_number, previous_winner, cube_, match)

    return opening_


TURN_MUTANTS: tuple[Mutant, ...] = (
    mutant("chain-from-first-roll", "cn.doubles.first-three-rolls", r, "chain_active", _chain_from_start),
    mutant("chain-after-two-rolls", "cn.doubles.first-three-rolls", r, "chain_active", _chain_after_two),
    mutant("chain-stops-after-one-double", "cn.doubles.chain", r, "next_in_chain", const(None)),
    mutant("passed-numbers-lost", "cn.unplayable.opponent-plays", r, "remainder_passes", const(False)),
    mutant("unplayable-passes-under-lost", "cn.unplayable.opponent-plays", r, "remainder_passes", const(True)),
    mutant("chain-not-returned", "cn.chain.returns", movegen, "next_segment", _passed_not_returned),
    mutant("passed-back-again", "cn.unplayable.once", movegen, "next_segment", _passed_twice),
    mutant(
        "chain-goes-on-after-partial-double",
        "cn.unplayable.lost-ends-chain",
        movegen,
        "next_segment",
        _chain_on_partial,
    ),
    mutant("win-mid-turn-ignored", "cn.end.win", movegen, "game_over", const(False)),
    mutant("earlier-head-moves-forgotten", "nd.head.one-per-turn", movegen, "play_view", _head_moves_forgotten),
)

OPENING_MUTANTS: tuple[Mutant, ...] = (
    mutant("previous-winner-ignored", "nd.opening.next-game", opening, "previous_winner_starts", const(False)),
    mutant(
        "previous-winner-always-starts",
        "bg.opening.every-game",
        opening,
        "previous_winner_starts",
        lambda o: lambda n, prev, rules: n > 1 and prev is not None,
    ),
    mutant("automatic-doubles-ignored", "bg.option.automatic-doubles", opening, "automatic_double", const(False)),
    mutant(
        "automatic-double-every-tie", "bg.option.automatic-doubles", opening, "automatic_double", _auto_double_again
    ),
    mutant(
        "automatic-double-in-crawford",
        "bg.option.automatic-doubles",
        opening,
        "automatic_double",
        _auto_double_in_crawford,
    ),
    mutant("lead-dice-rolled-anew", "nd.opening.lead-dice", opening, "opening", _lead_dice_rolled_anew),
    mutant("winner-plays-lead-dice", "nd.opening.lead-dice", opening, "opening", _lead_dice_always),
    mutant("lower-die-starts", "bg.opening.roll", opening, "opening", _lower_die_starts),
)
