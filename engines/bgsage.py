"""bgsage's move generator (`pip install gammonspec[bgsage]`).

`bgsage.possible_moves(board, d1, d2)` lists every distinct resulting board, from the mover's view;
this adapter answers `legal-plays` for the `backgammon` ruleset and declares nothing else.

Deviations the suite finds (site/results/bgsage.json), 104 of 105 backgammon legal-plays cases pass:
- `bg-bearoff-hit-first-to-use-both-numbers`: white's last checker on the 2 and a black blot on white's 1,
  roll 6-1. Hitting with the 1 (2/1*) and bearing off with the 6 uses both numbers, so bearing off the
  last checker with the 6 alone (2/off) is illegal; bgsage offers 2/off among its plays (bg.move.both-numbers).
"""

from __future__ import annotations

from importlib.metadata import version

from gammonspec.conformance.engine import EngineInfo
from gammonspec.conformance.rules import Rules
from gammonspec.conformance.state import Layout, State

from .base import LegalPlaysOnly, third_party
from .boards import from_bgsage, to_bgsage


class Bgsage(LegalPlaysOnly):
    """Backgammon legal plays from bgsage."""

    def __init__(self) -> None:
        self.bgsage = third_party("bgsage", "bgsage")

    def info(self) -> EngineInfo:
        return EngineInfo("bgsage", version("bgsage"), ("backgammon",), ("legal-plays",))

    def legal_plays(self, state: State, rules: Rules) -> list[Layout]:
        d1, d2 = state.dice
        boards = self.bgsage.possible_moves(to_bgsage(state.layout, state.turn), d1, d2)
        if not boards:
            return [state.layout]
        return [from_bgsage(list(board), state.turn) for board in boards]
