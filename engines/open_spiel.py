"""OpenSpiel's backgammon (`pip install open-spiel`, module pyspiel): not driven, for the reason below.

OpenSpiel's `BackgammonState` (C++, behind pyspiel 2.0.2) generates the legal moves of the state it holds, but
the Python binding gives no way to make it hold a given position: `BackgammonState` exposes no `SetState`
(its Python attributes are listed by `dir(pyspiel.load_game("backgammon").new_initial_state())`), the game's
`new_initial_state(json)` raises `SpielError: NewInitialState from state json is not implemented`, `to_struct`
raises `ToStruct is not implemented`, and a state serializes as the history of its actions (`serialize()` of
the start is an empty history), so only positions reached by playing from the start can be set.  The suite's
cases and fuzz states are given as positions, so none of them can be asked.
"""

from __future__ import annotations

from .base import NotDriven


class OpenSpiel(NotDriven):
    """OpenSpiel's backgammon, reported as not driven."""

    name, latest = "open-spiel", "2.0.2"
    reason = (
        "pyspiel cannot be set to a given position: BackgammonState has no SetState binding, new_initial_state(json)"
        " raises 'NewInitialState from state json is not implemented' and a state deserializes only from the"
        " history of actions from the start"
    )
