"""The end of the game and what it scores."""

from __future__ import annotations

from collections.abc import Sequence

from gammonspec.model.interface import GameResult
from gammonspec.model.rulesets import Rules
from gammonspec.model.state import CHECKERS, SIDES, Layout, Side, State, other

from .cube import jacoby


def winner(layout: Layout) -> Side | None:
    """The game ends when a side has borne off all fifteen checkers.  bg.object."""
    return next((side for side in SIDES if layout.borne_off(side) == CHECKERS), None)


def backgammoned(layout: Layout, loser: Side) -> bool:
    """A checker of the loser on the bar or in the winner's home board (the loser's 19-24).  bg.score.backgammon."""
    return layout.on_bar(loser) > 0 or any(layout.points(loser)[18:24])


def coke(layout: Layout, loser: Side, rules: Rules) -> bool:
    """All fifteen of the loser's checkers still in its starting quadrant (its 19-24), read literally; with the
    option coke-any-checker, at least one of them (the common reading).  nd.score.coke."""
    in_quarter = sum(layout.points(loser)[18:24])
    return in_quarter > 0 if rules.options.get("coke-any-checker") else in_quarter == CHECKERS


def win_kind(layout: Layout, loser: Side, rules: Rules) -> tuple[str, int]:
    """The kind of win and its base points.

    bg.score.single, bg.score.gammon, bg.score.backgammon (switch scoring=single-gammon-backgammon);
    nd.score.oin, nd.score.mars (scoring=oin-mars and oin-mars-coke); nd.score.coke and
    nd.score.coke-value (oin-mars-coke: a coke is worth the option coke-value; at 2 it is a mars)."""
    scheme = rules.switch.scoring
    if layout.borne_off(loser):
        return ("single", 1) if scheme == "single-gammon-backgammon" else ("oin", 1)
    if scheme == "single-gammon-backgammon":
        return ("backgammon", 3) if backgammoned(layout, loser) else ("gammon", 2)
    if scheme == "oin-mars-coke" and coke(layout, loser, rules) and rules.option("coke-value") != 2:
        return "coke", rules.option("coke-value")
    return "mars", 2


def walled_in(points: Sequence[int]) -> bool:
    """A side's home board full (all six points held) with a checker of it still in its first quarter (19-24);
    `points` are its 24 counts in its own numbering.  cn.draw.both-blocked, when it holds for both sides."""
    return all(points[:6]) and any(points[18:24])


def mutual_block(layout: Layout) -> bool:
    """Both sides walled in: neither can ever pass the other's home board.  cn.draw.both-blocked."""
    return all(walled_in(layout.points(side)) for side in SIDES)


def game_over(layout: Layout, rules: Rules) -> bool:
    """A side has borne off all its checkers, or (draw=both-blocked) the position is a draw."""
    return winner(layout) is not None or (rules.switch.draw and mutual_block(layout))


def game_result(state: State, rules: Rules) -> GameResult | None:
    """Winner, kind and points: the base points times the cube (bg.score.cube); a draw scores nothing."""
    layout = state.layout
    won = winner(layout)
    if won is None:
        if rules.switch.draw and mutual_block(layout):
            return GameResult(None, "draw", 0)
        return None
    kind, points = win_kind(layout, other(won), rules)
    if kind in ("gammon", "backgammon") and jacoby(state, rules):
        points = 1
    return GameResult(won, kind, points * state.cube.value)
