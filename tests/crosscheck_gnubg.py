"""Independent backgammon move generators, and random positions (from conformance/tools/generators.py) to compare with.

Used by tests/test_crosscheck_backgammon.py and tests/bench.py.  Two independent generators, both
optional (`pip install -e .[crosscheck]`), both listing every distinct resulting position:

* gnubg-nn (import `gnubg_nn`): `moves(board, d1, d2)` -> tuple of 20-character position keys, one per
  distinct resulting position; `()` when nothing can move.  `board` is `[opponent, mover]`, each 25
  counts: index i is the side's OWN point i + 1, index 24 its bar; borne-off checkers are implicit.
  The keys decode with `board_from_position_key(key)` in the same orientation (mover still second).
* bgsage (import `bgsage`): `possible_moves(board, d1, d2)` -> list of 26-int boards, one per distinct
  resulting position.  The board is from the mover's view: index p (1..24) is the mover's point p,
  positive = the mover's checkers, negative = the opponent's; index 25 is the mover's bar and index 0
  the opponent's bar, both as counts >= 0 (bgsage/gnubg.py documents the format; a negative index 0 is
  silently misread); borne-off checkers are implicit.  When nothing can move it returns the
  board unchanged (a one-element list); the result boards keep the mover's view.

The reference engine's `Layout` keeps each side's checkers in that side's own numbering; in backgammon
the mover's point p is the opponent's point 25 - p.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from gammonspec.conformance.harness.board import draw
from gammonspec.conformance.tools.generators import (
    position_almost_home,
    position_bar,
    position_bearoff,
    position_contact,
    random_dice,
)
from gammonspec.engines.boards import from_bgsage, from_gnubg, to_bgsage, to_gnubg
from gammonspec.model.notation import describe
from gammonspec.model.position_ids import encode_gnubg
from gammonspec.model.rulesets import Rules, rulesets
from gammonspec.model.state import CHECKERS, SIDES, Layout, Side, TurnContext, other, start_layout
from gammonspec.reference.movegen import legal_plays

GAME = "backgammon"
Dice = tuple[int, int]


def bg_rules() -> Rules:
    return rulesets()["backgammon"].rules()


def reference_plays(layout: Layout, side: Side, dice: Dice, rules: Rules) -> set[Layout]:
    return set(legal_plays(layout, side, dice, TurnContext(), rules))


def gnubg_plays(gnubg_nn: Any, layout: Layout, side: Side, dice: Dice) -> set[Layout]:
    keys = gnubg_nn.moves(to_gnubg(layout, side), dice[0], dice[1])
    if not keys:
        return {layout}
    return {from_gnubg(gnubg_nn.board_from_position_key(k), side) for k in keys}


# --- bgsage ------------------------------------------------------------------------------------


def bgsage_plays(possible_moves: Callable[..., Any], layout: Layout, side: Side, dice: Dice) -> set[Layout]:
    boards = possible_moves(to_bgsage(layout, side), dice[0], dice[1])
    if not boards:
        return {layout}
    return {from_bgsage(list(b), side) for b in boards}


# --- random positions (conformance/tools/generators.py, shared with gammonspec fuzz) ---------------------


def game_over(layout: Layout) -> bool:
    return CHECKERS in layout.off


KINDS = (position_contact, position_bar, position_bearoff, position_almost_home)


def playout(rng: random.Random, rules: Rules, max_plies: int = 200) -> Iterator[tuple[Layout, Side]]:
    """Positions from one game of random plays from the start (the plays chosen among the reference's)."""
    layout, side = start_layout(GAME), rng.choice(SIDES)
    for _ in range(max_plies):
        if game_over(layout):
            return
        yield layout, side
        layout = rng.choice(legal_plays(layout, side, random_dice(rng), TurnContext(), rules))
        side = other(side)


@dataclass(frozen=True)
class Sample:
    layout: Layout
    side: Side
    dice: Dice
    kind: str


def samples(seed: int, n: int, rules: Rules | None = None, playouts: bool = True) -> list[Sample]:
    """n random positions with rolls: a fixed mix of the kinds above (and random-playout positions)."""
    rng = random.Random(seed)
    rules = rules or bg_rules()
    out: list[Sample] = []
    game: Iterator[tuple[Layout, Side]] = iter(())
    while len(out) < n:
        pick = rng.randrange(5 if playouts else 4)
        if pick == 4:
            item = next(game, None)
            if item is None:
                game = playout(rng, rules)
                continue
            layout, side, kind = *item, "playout"
        else:
            side = rng.choice(SIDES)
            maker = KINDS[pick]
            layout, kind = maker(rng, side), maker.__name__.removeprefix("position_")
        if game_over(layout):
            continue
        out.append(Sample(layout, side, random_dice(rng), kind))
    return out


def explain(sample: Sample, plays: dict[str, set[Layout]]) -> str:
    """A mismatch, for a person: the board, the IDs, the roll and the plays each generator alone gives."""
    lay, side = sample.layout, sample.side
    lines = [
        f"--- {sample.kind} position, {side} to play {sample.dice[0]}-{sample.dice[1]}",
        draw(lay, side),
        f"GNU Backgammon Position ID (from {side}'s view): {encode_gnubg(lay, side)}",
        f"layout: {lay!r}",
    ]
    names = list(plays)
    for name in names:
        others = set().union(*(plays[o] for o in names if o != name))
        only = plays[name] - others
        if only:
            lines.append(
                f"only {name} ({len(only)} of {len(plays[name])}): "
                + " | ".join(sorted(describe(lay, x, side) for x in only))
            )
    return "\n".join(lines)
