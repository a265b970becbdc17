"""The reference engine playing a profile whatever the request says: an engine with another reading of the rules."""

from __future__ import annotations

from gammonspec.conformance.engine import CubeOutcome, GameResult, MatchOutcome, Opening
from gammonspec.conformance.profiles import Profile
from gammonspec.conformance.rules import Rules
from gammonspec.conformance.state import Cube, Layout, Match, Segment, Side, State
from gammonspec.reference import ReferenceEngine


class PlaysAs(ReferenceEngine):
    """Answers every request by `profile`'s switch values (the request's options kept)."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile

    def _rules(self, rules: Rules) -> Rules:
        return self.profile.rules(rules.options)

    def legal_plays(self, state: State, rules: Rules) -> list[Layout]:
        return super().legal_plays(state, self._rules(rules))

    def next_segment(self, state: State, rules: Rules) -> Segment | None:
        return super().next_segment(state, self._rules(rules))

    def game_result(self, state: State, rules: Rules) -> GameResult | None:
        return super().game_result(state, self._rules(rules))

    def opening(
        self,
        rules: Rules,
        dice: dict[str, int],
        game_number: int,
        previous_winner: Side | None,
        cube: Cube,
        match: Match,
    ) -> Opening:
        return super().opening(self._rules(rules), dice, game_number, previous_winner, cube, match)

    def may_double(self, state: State, rules: Rules) -> bool:
        return super().may_double(state, self._rules(rules))

    def cube_action(self, state: State, rules: Rules, response: str) -> CubeOutcome:
        return super().cube_action(state, self._rules(rules), response)

    def match_after_game(self, state: State, rules: Rules, result: GameResult) -> MatchOutcome:
        return super().match_after_game(state, self._rules(rules), result)
