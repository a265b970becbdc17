"""In-process engines for the harness tests: the reference engine, with one deliberate fault each.

Each misbehaves on 4-4 rolls only (in the test suite, one case), so a run shows the fault on
that case and normal results on the others."""

from __future__ import annotations

from gammonspec.model.interface import EngineInfo, GameResult, Skip
from gammonspec.model.notation import apply
from gammonspec.model.rulesets import Rules, rulesets
from gammonspec.model.state import Layout, State
from gammonspec.reference import ReferenceEngine

TRIGGER = (4, 4)


class Reference(ReferenceEngine):
    """The reference engine, under another name."""


class DropOne(ReferenceEngine):
    """Leaves out the legal play whose position has the smallest key."""

    def legal_plays(self, state: State, rules: Rules) -> list[Layout]:
        plays = sorted(super().legal_plays(state, rules), key=Layout.key)
        return plays[1:] if len(plays) > 1 else plays


class ExtraPlay(ReferenceEngine):
    """Adds one illegal play: a checker from the mover's highest point moved one pip."""

    def legal_plays(self, state: State, rules: Rules) -> list[Layout]:
        plays = super().legal_plays(state, rules)
        mine = state.layout.points(state.turn)
        high = max(p for p in range(1, 25) if mine[p - 1])
        return plays + [apply(state.layout, state.turn, f"{high}/{high - 1}")]


class Raises(ReferenceEngine):
    """Raises on 4-4."""

    def legal_plays(self, state: State, rules: Rules) -> list[Layout]:
        if state.dice == TRIGGER:
            raise RuntimeError("kaboom on 4-4")
        return super().legal_plays(state, rules)


class Skips(ReferenceEngine):
    """Declines 4-4."""

    def legal_plays(self, state: State, rules: Rules) -> list[Layout]:
        if state.dice == TRIGGER:
            raise Skip("4-4 is not implemented")
        return super().legal_plays(state, rules)


class NotLayouts(ReferenceEngine):
    """Answers 4-4 with strings instead of layouts."""

    def legal_plays(self, state: State, rules: Rules) -> list[Layout]:
        if state.dice == TRIGGER:
            return ["13/5(2)"]  # type: ignore[list-item]
        return super().legal_plays(state, rules)


class WrongResult(ReferenceEngine):
    """Calls every finished game a single game worth 1."""

    def game_result(self, state: State, rules: Rules) -> GameResult | None:
        result = super().game_result(state, rules)
        return None if result is None else GameResult(result.winner, "single", 1)


class PlaysOnly(ReferenceEngine):
    """Declares only the legal-plays query."""

    def info(self) -> EngineInfo:
        base = super().info()
        return EngineInfo(base.name, base.version, base.rulesets, ("legal-plays",))


class NoRulesets(ReferenceEngine):
    """Implements no ruleset at all."""

    def info(self) -> EngineInfo:
        return EngineInfo("no-rulesets", "0", ())


class NoJacoby(ReferenceEngine):
    """Declares that it supports only jacoby=false."""

    def info(self) -> EngineInfo:
        base = super().info()
        return EngineInfo(base.name, base.version, base.rulesets, base.capabilities, {"jacoby": (False,)})


not_an_engine = object()


class DeclaresProfile(ReferenceEngine):
    """Declares one profile (narde-guide with the six-block checked at every step) and reads no other switches."""

    def info(self) -> EngineInfo:
        from gammonspec.model.profiles import override

        within = override(rulesets()["narde-guide"], [("six-block", "banned-within-turn")])
        return EngineInfo("declares-profile", "1", ("narde-guide",), profiles=(within,))


class NoNextSegment(ReferenceEngine):
    """Answers every query but next-segment."""

    def info(self) -> EngineInfo:
        base = super().info()
        return EngineInfo(base.name, base.version, base.rulesets, ("legal-plays", "game-result", "opening", "cube"))


class BackgammonPlaysOnly(ReferenceEngine):
    """Backgammon legal plays, nothing else."""

    def info(self) -> EngineInfo:
        return EngineInfo("bg-plays-only", "0", ("backgammon",), ("legal-plays",))
