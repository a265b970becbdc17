"""Whole turns: every position a turn of several segments (a chain of doubles, passed numbers) can end in.

Not a query of the protocol (engines answer segment by segment); the benchmark uses it to size
the largest turns.  Breadth-first over segments, deduplicating the positions between them, so the
work grows with the number of distinct positions, never with the number of move orders.  Between
segments the positions stay packed in the next player's view (packed.py), grouped by the state
they are played in; layouts are built only for the ends of the turn, when they are read.
"""

from __future__ import annotations

from dataclasses import replace

from gammonspec.model.games import HEAD
from gammonspec.model.rulesets import Rules
from gammonspec.model.state import Segment, State

from .movegen import Layouts, Position, search_view
from .packed import geometry
from .scoring import game_over

Group = tuple[Segment | None, int]  # the segment to play and the owner's head moves so far


def on_head(side: int) -> int:
    """The checkers a packed side has on its head (its 24-point, games.HEAD): the head moves of a turn are the
    drop of this count (state.head_moves)."""
    return side >> 8 * HEAD & 255


def turn_results(state: State, rules: Rules) -> tuple[Layouts, int]:
    """The distinct layouts the whole turn can leave (built when read), and the most positions held between two
    segments."""
    g = geometry(state.game)
    owner = state.segment.owner if state.segment else state.turn
    # head moves so far plus the checkers still on the head: constant while only the owner's moves count
    heads = state.context.head_moves + on_head(g.to_view(state.layout, owner)[0])
    start: Group = (state.segment, state.context.head_moves)
    groups = {start: state}
    frontier = {start: {g.to_view(state.layout, state.turn)}}
    finals: set[Position] = set()  # in the owner's view
    played: dict[Group, set[Position]] = {}  # the positions each group has been played from
    widest = 1
    while frontier:
        following: dict[Group, set[Position]] = {}
        for group, positions in frontier.items():
            # a position a group has been played from before adds nothing: where a broken rule passes numbers
            # round for ever, the search stops (and such a turn has no end)
            done = played.setdefault(group, set())
            positions -= done
            done |= positions
            current = groups[group]
            for me, them in positions:
                results, _, after = search_view(current, me, them, rules, g)
                if after is None and current.turn == owner:
                    finals.update(results.positions)
                    continue
                for i, end in enumerate(results.positions):
                    layout = results[i]
                    if after is None or game_over(layout, rules):  # cn.end.win, cn.draw.both-blocked: mid-turn too
                        finals.add(end if current.turn == owner else g.to_view(layout, owner))
                        continue
                    if after.player != current.turn:
                        end = g.to_view(layout, after.player)
                    head = 0 if after.passed else heads - on_head(end[0])
                    if (after, head) not in groups:
                        context = replace(current.context, head_moves=head)
                        groups[after, head] = replace(current, turn=after.player, segment=after, context=context)
                    following.setdefault((after, head), set()).add(end)
        frontier = following
        widest = max(widest, sum(map(len, frontier.values())))
    return Layouts(g, owner, list(finals)), widest
