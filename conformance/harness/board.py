"""A layout drawn as a text board, numbered from the side on roll's point of view."""

from __future__ import annotations

from gammonspec.model.state import Layout, Side, mirror, other

MARK = {"white": "W", "black": "B"}


def _cell(layout: Layout, side: Side, point: int) -> str:
    mine = layout.points(side)[point - 1]
    theirs = layout.points(other(side))[mirror(layout.game, point) - 1]
    if mine:
        return f"{MARK[side]}{mine}"
    return f"{MARK[other(side)]}{theirs}" if theirs else "."


def draw(layout: Layout, side: Side) -> str:
    """Points 13-24 above, 12-1 below, in `side`'s numbering; W = white, B = black, with counts."""
    top, bottom = range(13, 25), range(12, 0, -1)

    def row(points: range) -> str:
        cells = [f"{_cell(layout, side, p):>3}" for p in points]
        return " ".join(cells[:6]) + " |" + " ".join(cells[6:])

    def numbers(points: range) -> str:
        cells = [f"{p:>3}" for p in points]
        return " ".join(cells[:6]) + " |" + " ".join(cells[6:])

    other_side = other(side)
    return "\n".join(
        [
            numbers(top),
            row(top),
            row(bottom),
            numbers(bottom),
            f"{MARK[side]} = {side} on roll, numbered from its side; "
            f"bar {MARK[side]}{layout.on_bar(side)} {MARK[other_side]}{layout.on_bar(other_side)}, "
            f"off {MARK[side]}{layout.borne_off(side)} {MARK[other_side]}{layout.borne_off(other_side)}",
        ]
    )
