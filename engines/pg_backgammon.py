"""pg-backgammon, "Backgammon game" (pypi.org/project/pg-backgammon, 0.1.1, pure Python; github.com/SaitoTsutomu/
pg-backgammon, Apache-2.0, by Saito Tsutomu), module `pg_backgammon.backgammon`: not driven, for the reason below.

Its move generator, `PlayerState.enumerate_moves_state(dice)` (backgammon.py:217-240 in pg-backgammon 0.1.1), would
suit an adapter: it lists every sequence of moves from a 28-int board that can be set (`State.board`,
backgammon.py:92-102), keeping those that use the most pips.  But the wheel declares Requires-Python >=3.14, and
its code needs 3.14: the module's annotations are evaluated when they are defined on Python 3.13 and before, and
two of them name what is not yet defined at that point, which only 3.14's deferred annotations (PEP 649) allow.
`Player.opponent`'s return annotation `-> Player` (backgammon.py:55) names the class it is defined in, and
`enumerate_moves_state`'s `-> Iterator[MovesState]` (backgammon.py:217) names `Iterator`, which is imported only
under `TYPE_CHECKING` (backgammon.py:14-15).  Installed with `pip install --ignore-requires-python --no-deps
--target DIR pg-backgammon multiset` (`multiset` is its one dependency the generator uses), `import
pg_backgammon.backgammon` raises `NameError: name 'Player' is not defined` at backgammon.py:55 on Python 3.11.7,
3.12.1 and 3.13.0 alike; the package's `__init__` (__init__.py:5-19) also imports its pygame display code
(pg_backgammon.py:5, from pygame-ce).  tests/test_thirdparty_engines.py checks the NameError where
GAMMONSPEC_PG_BACKGAMMON_PATH names such a folder.
"""

from __future__ import annotations

from .base import NotDriven


class PgBackgammon(NotDriven):
    """pg-backgammon, reported as not driven."""

    name, latest = "pg-backgammon", "0.1.1"
    reason = (
        "needs Python 3.14 (Requires-Python >=3.14): on 3.11 to 3.13 importing pg_backgammon.backgammon raises"
        " NameError: name 'Player' is not defined at backgammon.py:55, an annotation only 3.14 leaves unevaluated"
        " (PEP 649)"
    )
