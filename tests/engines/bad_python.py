"""In-process engines that misbehave on purpose, for the fault corpus (`--engine bad_python:NAME`)."""

from __future__ import annotations

import sys
import time

from gammonspec.model.interface import EngineInfo
from gammonspec.model.state import Layout
from gammonspec.reference import ReferenceEngine


def _info(**changes: object) -> EngineInfo:
    fields = {"name": "bad-python", "version": "0", "rulesets": ("backgammon",), **changes}
    return EngineInfo(**fields)  # type: ignore[arg-type]


class Base(ReferenceEngine):
    def info(self) -> EngineInfo:
        return _info()


class CtorRaises(Base):
    def __init__(self) -> None:
        raise RuntimeError("no licence file")


class CtorExits(Base):
    def __init__(self) -> None:
        sys.exit(3)


class CtorHangs(Base):
    def __init__(self) -> None:
        time.sleep(600)


class InfoRaises(Base):
    def info(self) -> EngineInfo:
        raise ValueError("info is not ready")


class InfoDict(Base):
    def info(self):  # type: ignore[override]
        return {"name": "bad-python", "rulesets": ["backgammon"]}


class InfoNone(Base):
    def info(self):  # type: ignore[override]
        return None


class InfoHangs(Base):
    def info(self) -> EngineInfo:
        time.sleep(600)
        return _info()


class InfoRulesetString(Base):
    def info(self) -> EngineInfo:
        return _info(rulesets="backgammon")


class InfoNameNumber(Base):
    def info(self) -> EngineInfo:
        return _info(name=42)


class InfoUnknownCapability(Base):
    def info(self) -> EngineInfo:
        return _info(capabilities=("legal-plays", "teleport"))


class InfoNoRulesets(Base):
    def info(self) -> EngineInfo:
        return _info(rulesets=())


class InfoUnknownRulesets(Base):
    def info(self) -> EngineInfo:
        return _info(rulesets=("bg-classic",))


class InfoExits(Base):
    def info(self) -> EngineInfo:
        sys.exit(4)


class Minimal:
    """Only info and legal_plays, as the protocol allows (capabilities: legal-plays)."""

    def info(self) -> EngineInfo:
        return _info(capabilities=("legal-plays",))

    def legal_plays(self, state, rules):
        return ReferenceEngine().legal_plays(state, rules)


class MinimalClaimsAll(Minimal):
    """Only info and legal_plays, but declares every capability (the default)."""

    def info(self) -> EngineInfo:
        return _info()


class NoInfo:
    def legal_plays(self, state, rules):
        return []


class PlaysRaise(Base):
    def legal_plays(self, state, rules):
        return {}["no such key"]


class PlaysExit(Base):
    def legal_plays(self, state, rules):
        sys.exit(3)


class PlaysHang(Base):
    def legal_plays(self, state, rules):
        time.sleep(600)
        return []


class PlaysNone(Base):
    def legal_plays(self, state, rules):
        return None


class PlaysInt(Base):
    def legal_plays(self, state, rules):
        return 7


class PlaysStrings(Base):
    def legal_plays(self, state, rules):
        return ["13/7 13/8"]


class PlaysTooMany(Base):
    def legal_plays(self, state, rules):
        return [state.layout] * 100_000


class PlaysSixteen(Base):
    def legal_plays(self, state, rules):
        lay = state.layout
        return [Layout(lay.game, lay.white, lay.black, lay.bar, (lay.off[0] + 1, lay.off[1]))]


class ResultTuple(Base):
    def game_result(self, state, rules):
        return ("white", "single", 1)


class ResultInt(Base):
    def game_result(self, state, rules):
        return 1


class ResultString(Base):
    def game_result(self, state, rules):
        return "white wins"


class NextSegmentList(Base):
    def info(self) -> EngineInfo:
        return _info(rulesets=("crazy-narde",))

    def next_segment(self, state, rules):
        return [3, 3]


class MayDoubleString(Base):
    def may_double(self, state, rules):
        return "yes"


class OpeningNone(Base):
    def opening(self, rules, dice, game_number, previous_winner, cube, match):
        return None


class AnsiRaise(Base):
    def legal_plays(self, state, rules):
        raise RuntimeError("\x1b[31mcolour\x1b[0m and a bell\x07")


def factory_raises():
    raise OSError("cannot open the neural net weights")


not_callable = 42


class PlaysRaiseThreeMegabytes(Base):
    def legal_plays(self, state, rules):  # type: ignore[no-untyped-def]
        raise ValueError("E" * 3_000_000)


class PlaysInterrupt(Base):
    def legal_plays(self, state, rules):
        raise KeyboardInterrupt


class PlaysDicts(Base):
    """Positions as the protocol's JSON has them, not as Layouts."""

    def legal_plays(self, state, rules):
        return [{"white": list(state.layout.white), "black": list(state.layout.black), "bar": [0, 0], "off": [0, 0]}]
