"""The reference engine: every rule of every ruleset, each in one small function (rules.py)."""

from __future__ import annotations

from typing import Any

from gammonspec.model import __version__
from gammonspec.model.interface import CubeOutcome, EngineInfo, GameResult, MatchOutcome, Opening
from gammonspec.model.rulesets import Rules, rulesets
from gammonspec.model.state import Layout, Segment, State

from .cube import cube_action, match_after_game, may_double
from .movegen import SegmentPlays, search
from .opening import opening
from .scoring import game_result


class ReferenceEngine:
    """gammonspec's own engine; it passes the whole suite, and plays whatever switch values a request carries."""

    # the last move search (set per instance on first use; a class default, so a subclass with its own
    # __init__ need not call this one)
    _last: tuple[State, Rules, SegmentPlays] | None = None

    def info(self) -> EngineInfo:
        return EngineInfo("gammonspec-reference", __version__, tuple(rulesets()), reads_switches=True)

    def segment_plays(self, state: State, rules: Rules) -> SegmentPlays:
        """The move search of one segment, kept for the next query: legal-plays and next-segment of the same
        state (a step that checks `next`) share one search."""
        last = self._last
        # the layouts first: the cheap test, and the one that differs from one query to the next
        if last is None or last[0].layout != state.layout or last[0] != state or last[1] != rules:
            last = self._last = (state, rules, search(state, rules))
        return last[2]

    def legal_plays(self, state: State, rules: Rules) -> list[Layout]:
        return list(self.segment_plays(state, rules).results)

    def next_segment(self, state: State, rules: Rules) -> Segment | None:
        return self.segment_plays(state, rules).next

    def game_result(self, state: State, rules: Rules) -> GameResult | None:
        return game_result(state, rules)

    def opening(self, *args: Any) -> Opening:
        """opening(rules, dice, game_number, previous_winner, cube, match), as engine.Engine has it."""
        return opening(*args)

    def may_double(self, state: State, rules: Rules) -> bool:
        return may_double(state, rules)

    def cube_action(self, state: State, rules: Rules, response: str) -> CubeOutcome:
        return cube_action(state, rules, response)

    def match_after_game(self, state: State, rules: Rules, result: GameResult) -> MatchOutcome:
        return match_after_game(state, rules, result)
