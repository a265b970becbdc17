"""GNU Backgammon's move generator, from the gnubg-nn package (`pip install gammonspec[gnubg-nn]`).

`gnubg_nn.moves(board, d1, d2)` lists every distinct resulting position as a position key; this
adapter answers `legal-plays` for the `backgammon` ruleset and declares nothing else.

Deviations the suite finds (site/results/gnubg-nn.json): none; all 105 backgammon legal-plays cases pass.
"""

from __future__ import annotations

from gammonspec.conformance.engine import EngineInfo
from gammonspec.conformance.rules import Rules
from gammonspec.conformance.state import Layout, State

from .base import LegalPlaysOnly, third_party
from .boards import from_gnubg, to_gnubg


class GnubgNN(LegalPlaysOnly):
    """Backgammon legal plays from gnubg-nn."""

    def __init__(self) -> None:
        self.gnubg = third_party("gnubg_nn", "gnubg-nn")

    def info(self) -> EngineInfo:
        from importlib.metadata import version

        return EngineInfo("gnubg-nn", version("gnubg-nn"), ("backgammon",), ("legal-plays",))

    def legal_plays(self, state: State, rules: Rules) -> list[Layout]:
        d1, d2 = state.dice
        keys = self.gnubg.moves(to_gnubg(state.layout, state.turn), d1, d2)
        if not keys:
            return [state.layout]
        return [from_gnubg(self.gnubg.board_from_position_key(key), state.turn) for key in keys]
