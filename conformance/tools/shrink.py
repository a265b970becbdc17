"""Shrinking a state while a disagreement persists: a small greedy delta-debugging loop (`gammonspec fuzz`).

Candidates are tried biggest simplification first: a whole point (or the bar) borne off, two neighbouring
points of a side merged, one checker borne off, then a simpler roll or segment, then a plainer turn
context.  Each candidate is valid and reachable under the rules (reachability.problem), so a shrunk state
is one an engine can be asked, and it is smaller in checkers, points, numbers or context at each step,
so the loop ends.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from gammonspec.conformance.tools import reachability
from gammonspec.model.rulesets import Rules
from gammonspec.model.state import SIDES, Layout, Side, State

BUDGET = 600  # candidates tried (each asked of both engines) while shrinking one disagreement


def _with_counts(state: State, side: Side, points: list[int], bar: int, off: int) -> State:
    lay = state.layout
    i = SIDES.index(side)
    pts = [lay.white, lay.black]
    pts[i] = tuple(points)
    bars, offs = list(lay.bar), list(lay.off)
    bars[i], offs[i] = bar, off
    return replace(state, layout=Layout(lay.game, pts[0], pts[1], (bars[0], bars[1]), (offs[0], offs[1])))


def _layout_steps(state: State) -> Iterator[State]:
    """Smaller layouts: a whole point borne off, two neighbouring points merged, one checker borne off (bar ones too)."""
    lay = state.layout
    for side in SIDES:
        pts, bar, off = list(lay.points(side)), lay.on_bar(side), lay.borne_off(side)
        held = [p for p in range(24) if pts[p]]
        if bar:
            yield _with_counts(state, side, pts, 0, off + bar)
        for p in held:
            yield _with_counts(state, side, [0 if q == p else n for q, n in enumerate(pts)], bar, off + pts[p])
        for p, q in (*zip(held, held[1:]), *zip(held[1:], held)):  # onto the next held point, either way
            merged = list(pts)
            merged[q], merged[p] = merged[q] + merged[p], 0
            yield _with_counts(state, side, merged, bar, off)
        for p in held:
            if pts[p] > 1:
                yield _with_counts(state, side, [n - (q == p) for q, n in enumerate(pts)], bar, off + 1)


def _roll_steps(state: State) -> Iterator[State]:
    """Simpler rolls: two different numbers for a double, lower numbers; simpler segments."""
    seg = state.segment
    if seg is not None and seg.passed and len(seg.numbers) > 1:
        for i in range(len(seg.numbers)):
            yield replace(state, segment=replace(seg, numbers=seg.numbers[:i] + seg.numbers[i + 1 :]))
    if seg is not None and not seg.passed and seg.numbers[0] - 1 > state.dice[0]:
        yield replace(state, segment=replace(seg, numbers=(seg.numbers[0] - 1,) * len(seg.numbers)))
    a, b = state.dice
    if seg is None:
        if a == b:
            yield from (replace(state, dice=(a, c)) for c in range(1, a))
        yield from (replace(state, dice=(c, b)) for c in range(1, a) if c != b or a == b)
        yield from (replace(state, dice=(a, c)) for c in range(1, b) if c != a)
    elif not seg.passed and a > 1:
        yield replace(state, dice=(a - 1, a - 1))


def _context_steps(state: State) -> Iterator[State]:
    ctx = state.context
    if ctx.head_moves:
        yield replace(state, context=replace(ctx, head_moves=0))
    if ctx.first_turn:
        yield replace(state, context=replace(ctx, first_turn=False, rolls_in_game=max(ctx.rolls_in_game, 2)))
    for rolls in (0, 1, 2, 3):
        if rolls < ctx.rolls_in_game:
            yield replace(state, context=replace(ctx, rolls_in_game=rolls))


def _fit_rolls(state: State, rules: Rules) -> State:
    """A smaller layout moved more pips: enough rolls for it (a first turn stays one, and is then refused)."""
    least = reachability.least_rolls(state.layout, rules, state.turn)
    if state.context.first_turn or state.context.rolls_in_game >= least:
        return state
    return replace(state, context=replace(state.context, rolls_in_game=least))


def simpler(state: State, rules: Rules) -> Iterator[State]:
    """Candidate simplifications of `state`, the biggest first; each is valid and reachable under `rules`."""
    for candidate in (
        *(_fit_rolls(s, rules) for s in _layout_steps(state)),
        *_roll_steps(state),
        *_context_steps(state),
    ):
        if not reachability.problem(candidate, rules):
            yield candidate


def shrink(state: State, rules: Rules, still: Callable[[State], bool], budget: int = BUDGET) -> State:
    """A locally minimal state for which `still` holds: greedy delta debugging over `simpler` candidates."""
    asked = 0
    progress = True
    while progress and asked < budget:
        progress = False
        for candidate in simpler(state, rules):
            asked += 1
            if still(candidate):
                state, progress = candidate, True
                break
            if asked >= budget:
                break
    return state
