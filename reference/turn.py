"""Whole turns: every position a turn of several segments (a chain of doubles, passed numbers) can end in.

Not a query of the protocol (engines answer segment by segment); the benchmark uses it to size
the largest turns.  Breadth-first over segments, deduplicating the states between them, so the
work grows with the number of distinct positions, never with the number of move orders.
"""

from __future__ import annotations

from dataclasses import replace

from gammonspec.conformance.rulesets import Rules
from gammonspec.conformance.state import Layout, State, head_moves

from .movegen import search
from .scoring import game_over


def turn_results(state: State, rules: Rules) -> tuple[set[Layout], int]:
    """The distinct layouts the whole turn can leave, and the most states held between two segments."""
    frontier = {(state, state.context.head_moves)}  # (state, head moves of the turn's owner so far)
    finals: set[Layout] = set()
    widest = 1
    while frontier:
        following: set[tuple[State, int]] = set()
        for current, owner_head in frontier:
            found = search(current, rules)
            after = found.next
            owner_plays = not (current.segment and current.segment.passed)
            for layout in found.results:
                if after is None or game_over(layout, rules):  # cn.end.win, cn.draw.both-blocked: mid-turn too
                    finals.add(layout)
                    continue
                head = owner_head
                if owner_plays:
                    head += head_moves(current.layout, layout, current.turn)
                context = replace(current.context, head_moves=0 if after.passed else head)
                following.add(
                    (replace(current, layout=layout, turn=after.player, segment=after, context=context), head)
                )
        frontier = following
        widest = max(widest, len(frontier))
    return finals, widest
