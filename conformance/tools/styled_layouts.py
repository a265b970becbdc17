"""Random layouts without hitting: one *style* per side, and the six-block ban's edge.

The styles: many on the head, mid-game, stragglers, a frozen home, all home, a nearly built six-block,
a wide board, a few stacks, a walled-in home board for near-draws; conformance/tools/generators.py makes
states of them.
"""

from __future__ import annotations

import random

from gammonspec.model.state import CHECKERS, HEAD, Layout, Side, StateError, mirror, other

Counts = dict[int, int]  # own point -> checkers

# ---- placing checkers ---------------------------------------------------------------------------


def spread(rng: random.Random, n: int, points: list[int], most: int) -> Counts:
    """n checkers on between 1 and `most` of the given points, at least one on each chosen point."""
    if n == 0 or not points:
        return {}  # nothing placed: the caller sees the count is short and draws again
    chosen = rng.sample(points, min(len(points), n, rng.randint(1, most)))
    counts = dict.fromkeys(chosen, 1)
    for _ in range(n - len(chosen)):
        counts[rng.choice(chosen)] += 1
    return counts


def add(counts: Counts, more: Counts) -> Counts:
    for p, n in more.items():
        counts[p] = counts.get(p, 0) + n
    return counts


# ---- the six-block ban's edge ------------------------------------------------------------------


def block_edge_layout(rng: random.Random, game: str, side: Side) -> Layout | None:
    """`side` holds five of six points in a row (read along the opponent's path, its q0..q0+5) with a spare
    behind the gap, and the opponent has one checker just ahead of the row (q0-1: building the sixth is legal)
    or just behind it (q0+6: building it is banned), the rest further behind: the six-block ban's edge."""
    q0 = rng.randint(2, 17)
    theirs: Counts = {q0 - 1 if rng.random() < 0.4 else q0 + 6: 1}
    add(theirs, spread(rng, CHECKERS - 1, list(range(q0 + 7, 25)), 3))
    taken = {mirror(game, q) for q in theirs}  # the opponent's points in the mover's numbering
    row = [mirror(game, q) for q in range(q0, q0 + 6)]
    gap = rng.choice(row)
    mine: Counts = {p: 1 for p in row if p != gap}
    behind = [p for p in range(gap + 1, min(gap + 7, 25)) if p not in taken and p not in row]
    if not behind:
        return None
    add(mine, spread(rng, rng.randint(1, 3), behind, 2))
    free = [p for p in range(1, 25) if p not in taken and p not in row]
    add(mine, spread(rng, CHECKERS - sum(mine.values()), free, rng.randint(1, 4)))
    if sum(mine.values()) != CHECKERS or sum(theirs.values()) != CHECKERS:
        return None
    points = {
        side: tuple(mine.get(p, 0) for p in range(1, 25)),
        other(side): tuple(theirs.get(q, 0) for q in range(1, 25)),
    }
    layout = Layout(game, points["white"], points["black"], (0, 0), (0, 0))
    try:
        layout.validate(hitting=False)
    except StateError:
        return None
    return layout


# ---- layouts without hitting: one style per side ------------------------------------------------

STYLES = ("head", "mid", "late", "frozen", "home", "block", "wide", "few", "walled")


def side_checkers(rng: random.Random, game: str, style: str, free: list[int]) -> tuple[Counts, int]:
    """({own point: count}, borne off) for one side in the given style, only on `free` own points."""

    def only(points: range | list[int]) -> list[int]:
        return [p for p in points if p in free]

    if style == "head" and HEAD in free:  # many on the head: the head rule bites
        head = rng.choice([CHECKERS, CHECKERS - 1, rng.randint(5, CHECKERS)])
        counts = spread(rng, CHECKERS - head, only(range(13, 24)) or only(range(1, 24)), 6)
        counts[HEAD] = head
        return counts, 0
    if style == "head-last" and HEAD in free:  # one or two left on the head: the head rule's last checkers
        head = rng.choice((1, 1, 2))
        counts = spread(rng, CHECKERS - head, only(range(1, 24)), rng.randint(3, 8))
        counts[HEAD] = head
        return counts, 0
    if style == "one-out":  # all home but one, most often on the point just outside: bear-off's edge
        counts = spread(rng, CHECKERS - 1, only(range(1, 7)), rng.randint(1, 6))
        return add(counts, spread(rng, 1, only([7, 7, 7, *range(8, 13)]), 1)), 0
    if style == "home":  # all home: bearing off
        off = rng.choice([0, 0, rng.randint(1, 14), rng.randint(10, 14)])
        return spread(rng, CHECKERS - off, only(range(1, 7)), rng.randint(1, 6)), off
    if style == "late":  # all but one to three home: the last ones come in, then bear off or not
        out = rng.randint(1, 3)
        counts = spread(rng, CHECKERS - out, only(range(1, 7)), 6)
        return add(counts, spread(rng, out, only(range(7, 14)), 3)), 0  # none off while some are outside
    if style == "frozen":  # many home, the rest just outside: frozen home checkers, entering ones stop
        inside = rng.randint(4, 12)
        counts = spread(rng, inside, only(range(1, 7)), 6)
        return add(counts, spread(rng, CHECKERS - inside, only(range(7, 19)), 5)), 0
    if style == "walled":  # home board full or one point short, checkers still in the first quarter
        counts = {p: 1 for p in only(range(1, 7))}
        if counts and rng.random() < 0.6:  # one home point empty, a checker one to six points behind it
            gap = rng.choice(sorted(counts))
            del counts[gap]
            add(counts, spread(rng, 1, only(range(max(gap + 1, 7), gap + 7)), 1))
        add(counts, spread(rng, rng.randint(1, 3), only(range(19, 25)), 2))
        rest = CHECKERS - sum(counts.values())
        return add(counts, spread(rng, rest, only([*range(1, 13), *range(19, 25)]), 6)), 0
    if style == "block":  # five of six points in a row (for the opponent) held, spares just behind the gap
        start = rng.randint(1, 19)
        row = [mirror(game, q) for q in range(start, start + 6)]
        gap = rng.choice(row)
        counts = {p: 1 for p in only(row) if p != gap}
        spare = rng.randint(2, 5)
        add(counts, spread(rng, spare, only(range(gap + 1, min(gap + 7, 25))) or only(range(1, 25)), 3))
        rest = CHECKERS - sum(counts.values())
        return add(counts, spread(rng, rest, only(range(1, 25)), 8)), 0
    if style == "wide":  # one or two checkers on each of many points: closes much of the board
        return spread(rng, CHECKERS, only(range(1, 25)), rng.randint(10, 15)), 0
    if style == "few":  # stacks on one to three points: against a wide opponent, often little plays
        return spread(rng, CHECKERS, only(range(1, 25)), 3), 0
    return spread(rng, CHECKERS, only(range(1, 25)), rng.randint(3, 12)), 0  # mid-game


def styled_layout(rng: random.Random, game: str, style_w: str, style_b: str) -> Layout | None:
    """A layout without hitting, each side in its style; None when a style could not place every checker."""
    white, off_w = side_checkers(rng, game, style_w, list(range(1, 25)))
    black_free = [p for p in range(1, 25) if not white.get(mirror(game, p))]
    black, off_b = side_checkers(rng, game, style_b, black_free)
    if sum(white.values()) + off_w != CHECKERS or sum(black.values()) + off_b != CHECKERS:
        return None
    layout = Layout(
        game,
        tuple(white.get(p, 0) for p in range(1, 25)),
        tuple(black.get(p, 0) for p in range(1, 25)),
        (0, 0),
        (off_w, off_b),
    )
    layout.validate(hitting=False)
    return layout
