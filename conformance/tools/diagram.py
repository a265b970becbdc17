"""A state drawn as an SVG board, for the site.

One fixed orientation for every game: white's home board at the bottom right, white's
points 1-12 along the bottom from right to left, 13-24 along the top from left to right.
Where the other side's checkers stand, which way it moves, where its head and home are,
all follow from the game's geometry (`state.mirror`) and starting position
(`state.start_layout`); the point numbers shown are those of the side on roll, or of the side
asked for (`view`).
"""

from __future__ import annotations

from html import escape

from gammonspec.model.games import GAME_DATA
from gammonspec.model.state import SIDES, Layout, Side, State, mirror, other

# Geometry, in SVG user units.
W = 24  # a point's width
BAR = 26  # the bar's width
TRAY = 26  # a borne-off tray's width
HALF = 92  # a half of the board's height (one row of points)
GAP = 22  # between the rows
LABEL = 14  # a row of point numbers
R = 9  # a checker's radius: five in a row fit a point, clear of the middle gap
VISIBLE = 5  # checkers drawn on a point before the count is written on the last
LEFT = TRAY + 6  # the left quadrant's x
TOP = LABEL + 2  # the top row's y
WIDTH = LEFT + 12 * W + BAR + 6 + TRAY
BOARD_H = 2 * HALF + GAP
HEIGHT = TOP + BOARD_H + LABEL + 26

# Okabe-Ito colours (safe for the common colour-vision deficiencies), and checkers that differ in
# lightness, not hue; the board has its own background, so it reads the same in a dark page.
COLOURS = {
    "felt": "#e8dcc0",
    "frame": "#5b4630",
    "point-a": "#0072b2",
    "point-b": "#e69f00",
    "head": "#cc79a7",
    "text": "#1a1a1a",
    "label": "#f4f0e6",
    "white": "#fbfbf7",
    "black": "#2b2b2b",
    "cube": "#ffffff",
    "moved": "#009e73",  # an after-board's marks: a checker that arrived, the place one left
}
INK = {"white": COLOURS["black"], "black": COLOURS["white"]}  # a checker's outline and count
CLASS = {"white": "w", "black": "k"}  # a checker's style; its tray slice is "t" + this, its count "n" + this
C = COLOURS
# Every repeated look is a class here, so a board's elements carry only their geometry (boards are many).
STYLE = (
    f".a{{fill:{C['point-a']}}}.b{{fill:{C['point-b']}}}.f{{fill:{C['frame']}}}.e{{fill:{C['felt']}}}"
    f".w,.tw{{fill:{C['white']};stroke:{C['black']};stroke-width:1.5}}.k,.tk{{fill:{C['black']};stroke:{C['white']};stroke-width:1.5}}"
    f".tw,.tk{{stroke-width:.7}}.d{{fill:{C['cube']};stroke:{C['text']}}}"
    f"text{{text-anchor:middle;font-size:11px;fill:{C['text']}}}.nw,.nk,.d+text{{font-weight:bold}}"
    f".nw{{fill:{C['black']}}}.nk{{fill:{C['white']}}}.l text,.s{{fill:{C['label']}}}.l text{{font-size:10px}}"
    f".h{{font-weight:bold;text-decoration:underline}}.head{{fill:none;stroke:{C['head']};stroke-width:3}}"
    f".s{{font-size:12px;text-anchor:start}}.p{{text-anchor:end}}.o{{font-size:10px}}.r{{fill:none;stroke-width:2}}"
    f".m,.g,.gh{{fill:none;stroke:{C['moved']};stroke-width:2.5}}.g{{stroke-width:1.5;stroke-dasharray:3 2}}"
    f".gh{{stroke:{C['label']};stroke-width:3;opacity:.7}}"  # under a dashed ring: it shows on every point colour
)


def column(point: int) -> int:
    """The column (0-11, left to right) of white's point `point`."""
    return point - 13 if point > 12 else 12 - point


def x_of(col: int) -> float:
    """The centre x of a column."""
    return LEFT + col * W + (BAR if col >= 6 else 0) + W / 2


def is_top(point: int) -> bool:
    return point > 12


def heads(game: str) -> dict[Side, int]:
    """Each side's head (its own point holding all fifteen checkers at the start), where the game has one."""
    head = GAME_DATA[game].head
    return {} if head is None else dict.fromkeys(SIDES, head)


def white_point(game: str, side: Side, point: int) -> int:
    """White's number for `side`'s own point `point`."""
    return point if side == "white" else mirror(game, point)


def pips(state: State, side: Side) -> int:
    """The pip count: each checker's distance to bearing off, a checker on the bar 25."""
    layout = state.layout
    return sum(p * n for p, n in enumerate(layout.points(side), 1)) + 25 * layout.on_bar(side)


def _checker(x: float, y: float, side: Side, label: str = "") -> str:
    svg = f'<circle class="{CLASS[side]}" cx="{x:g}" cy="{y:g}" r="{R}"/>'
    if label:
        svg += f'<text class="n{CLASS[side]}" x="{x:g}" y="{y + 4:g}">{label}</text>'
    return svg


def _stack(x: float, base: float, step: float, n: int, side: Side) -> list[str]:
    """`n` checkers from `base`, each `step` further; past VISIBLE, the last carries the count."""
    shown = min(n, VISIBLE)
    return [_checker(x, base + i * step, side, str(n) if n > VISIBLE and i == shown - 1 else "") for i in range(shown)]


def _point_slots(point: int) -> tuple[float, float, float]:
    """Where the checkers of white's point `point` stand: x, the first checker's y, the step to the next."""
    first, step = (TOP + R + 1, 2 * R) if is_top(point) else (TOP + BOARD_H - R - 1, -2 * R)
    return x_of(column(point)), first, step


def _bar_slots(game: str, side: Side) -> tuple[float, float, float]:
    """Where `side`'s checkers on the bar stand: on the half where they come back in."""
    top, middle = is_top(white_point(game, side, 24)), TOP + HALF + GAP / 2
    return LEFT + 6 * W + BAR / 2, middle - R - 12 if top else middle + R + 12, -2 * R if top else 2 * R


def _points(state: State, view: Side) -> list[str]:
    game, layout = state.game, state.layout
    head_at = {white_point(game, side, p) for side, p in heads(game).items()}
    out, labels, triangles = [], [], {"a": "", "b": ""}
    for p in range(1, 25):
        x, top = x_of(column(p)), is_top(p)
        base, tip = (TOP, TOP + HALF - 8) if top else (TOP + BOARD_H, TOP + BOARD_H - HALF + 8)
        triangles["a" if column(p) % 2 == (0 if top else 1) else "b"] += f"M{x - W / 2:g} {base}h{W}L{x:g} {tip}Z"
        label_y = TOP - 4 if top else TOP + BOARD_H + LABEL - 2
        shown = p if view == "white" else mirror(game, p)
        css = ' class="h"' if p in head_at else ""
        labels.append(f'<text{css} x="{x:g}" y="{label_y}">{shown}</text>')
        if p in head_at:
            out.append(f'<path class="head" d="M{x - W / 2 + 1:g} {base}L{x:g} {tip}L{x + W / 2 - 1:g} {base}"/>')
        for side in SIDES:
            n = layout.points(side)[(p if side == "white" else mirror(game, p)) - 1]
            if n:
                out += _stack(*_point_slots(p), n, side)
    drawn = [f'<path class="{name}" d="{d}"/>' for name, d in triangles.items()]
    return drawn + ['<g class="l">', *labels, "</g>"] + out


def _arrows(state: State) -> list[str]:
    """For each side, an arrow from its 24-point along its first six points: which way it moves."""
    out = []
    for i, side in enumerate(SIDES):
        start, end = (white_point(state.game, side, p) for p in (24, 19))
        y = TOP + HALF + 6 + i * 10 if is_top(start) else TOP + HALF + GAP - 6 - (1 - i) * 10
        x1, x2 = x_of(column(start)), x_of(column(end))
        tip = 5 if x2 > x1 else -5
        out.append(
            f'<path class="r" d="M{x1:g} {y}L{x2:g} {y}M{x2 - tip:g} {y - 3}L{x2:g} {y}L{x2 - tip:g} {y + 3}" stroke="{COLOURS[side]}"/>'
        )
    return out


def _home_left(game: str, side: Side) -> bool:
    """Whether `side`'s home board (its points 1-6) is on the left half."""
    return column(white_point(game, side, 1)) < 6


def _bar_and_trays(state: State) -> list[str]:
    layout, out = state.layout, []
    for side in SIDES:
        n = layout.on_bar(side)
        if n:  # a checker on the bar waits on the half where it re-enters
            out += _stack(*_bar_slots(state.game, side), n, side)
        off = layout.borne_off(side)
        tray_x, ys = _tray_slices(state.game, side, off)
        top_half = is_top(white_point(state.game, side, 1))
        if off:  # one slice per checker off, all in one path
            slices = "".join(f"M{tray_x + 2} {y}h{TRAY - 4}v5h{4 - TRAY}z" for y in ys)
            out.append(f'<path class="t{CLASS[side]}" d="{slices}"/>')
            y = TOP + 2 + off * 6 + 10 if top_half else TOP + BOARD_H - 7 - off * 6 - 2
            out.append(f'<text class="o" x="{tray_x + TRAY / 2:g}" y="{y}">{off}</text>')
    return out


def _tray_slices(game: str, side: Side, off: int) -> tuple[float, list[float]]:
    """`side`'s tray: its x and the y of each of its `off` slices."""
    tray_x = 3 if _home_left(game, side) else WIDTH - TRAY - 3
    top_half = is_top(white_point(game, side, 1))
    return tray_x, [TOP + 2 + i * 6 if top_half else TOP + BOARD_H - 7 - i * 6 for i in range(off)]


def _moved(state: State, before: Layout) -> list[str]:
    """An after-board's marks, where the play changed the board: a ring on each checker that arrived on a point or
    the bar (the top ones of its stack), a dashed ring in each place a checker left, an outline on each slice borne
    off; where the change is within a stack's count, the checker that carries the count."""
    game, after, out = state.game, state.layout, []
    for side in SIDES:
        places = [
            (_point_slots(white_point(game, side, p)), before.points(side)[p - 1], after.points(side)[p - 1])
            for p in range(1, 25)
        ]
        places.append((_bar_slots(game, side), before.on_bar(side), after.on_bar(side)))
        for (x, first, step), was, now in places:
            lo, hi = min(was, now), max(was, now)
            if hi > VISIBLE and lo < hi:  # the change is within the count: the checker carrying it is marked
                lo, hi = min(lo, VISIBLE - 1), VISIBLE
            for i in range(lo, hi):
                at = f'cx="{x:g}" cy="{first + i * step:g}"'
                if now > was:
                    out.append(f'<circle class="m" {at} r="{R - 2.5:g}"/>')
                else:
                    out.append(f'<circle class="gh" {at} r="{R - 1}"/><circle class="g" {at} r="{R - 1}"/>')
        tray_x, ys = _tray_slices(game, side, after.borne_off(side))
        for y in ys[before.borne_off(side) :]:
            out.append(f'<rect class="m" x="{tray_x + 1}" y="{y - 1}" width="{TRAY - 2}" height="7"/>')
    return out


def _cube(state: State) -> list[str]:
    """The cube on the bar: in the middle when centred, else at its owner's home side."""
    value, owner = state.cube.value, state.cube.owner
    if owner is None and value == 1:
        shown, y = "64", TOP + HALF + GAP / 2 - 10
    else:
        shown = str(value)
        home_top = owner is not None and is_top(white_point(state.game, owner, 1))
        y = TOP + HALF + GAP / 2 - 10 if owner is None else TOP + 2 if home_top else TOP + BOARD_H - 22
    x = LEFT + 6 * W + BAR / 2 - 10
    return [
        f'<g class="cube"><rect class="d" x="{x:g}" y="{y:g}" width="20" height="20" rx="3"/>',
        f'<text x="{x + 10:g}" y="{y + 14:g}">{shown}</text></g>',
    ]


def dice(state: State) -> tuple[int, ...]:
    """The numbers shown on the dice: the segment's, or the roll's."""
    return tuple(state.segment.numbers) if state.segment else tuple(state.dice)


def _status(state: State, after: bool = False) -> list[str]:
    """Under the board: who is on roll and the dice, or on an after-board "after the play" (of the side on roll),
    then the pip counts."""
    y = TOP + BOARD_H + LABEL + 18
    turn = state.turn
    out = [
        f'<circle cx="10" cy="{y - 4}" r="6" fill="{COLOURS[turn]}" stroke="{INK[turn]}"/>',
        f'<text class="s" x="20" y="{y}">{"after the play" if after else f"{turn} on roll"}</text>',
    ]
    x = 100
    for d in () if after else dice(state):
        out.append(
            f'<rect class="d" x="{x}" y="{y - 14}" width="18" height="18" rx="3"/><text x="{x + 9}" y="{y}">{d}</text>'
        )
        x += 22
    pip_text = " · ".join(f"{side} {pips(state, side)}" for side in (turn, other(turn)))
    out.append(f'<text class="s p" x="{WIDTH - 4}" y="{y}">pips: {pip_text}</text>')
    return out


def describe(state: State, after: bool = False) -> str:
    """The board in words: where each side's checkers stand (in its own numbering), bar, off, dice, cube; on an
    after-board, the position after the side on roll has played."""
    layout, parts = state.layout, []
    for side in (state.turn, other(state.turn)):
        where = [f"{n} on {p}" for p, n in reversed(list(enumerate(layout.points(side), 1))) if n]
        if layout.on_bar(side):
            where.append(f"{layout.on_bar(side)} on the bar")
        if layout.borne_off(side):
            where.append(f"{layout.borne_off(side)} off")
        parts.append(f"{side.capitalize()} ({pips(state, side)} pips): {', '.join(where)}.")
    numbers = dice(state)
    roll = f" to play {'-'.join(map(str, numbers))}" if numbers else ""
    owner = state.cube.owner or "nobody"
    cube = f" Cube {state.cube.value}, owned by {owner}." if state.cube != type(state.cube)() else ""
    lead = f"After {state.turn}'s play." if after else f"{state.turn.capitalize()} on roll{roll}."
    return f"{lead} " + " ".join(parts) + cube


def svg(
    state: State, title: str = "", cube: bool = True, view: Side | None = None, before: Layout | None = None
) -> str:
    """The state as a standalone SVG document, with a title and a description for screen readers;
    `cube=False` for a ruleset without a doubling cube; the points numbered from `view`'s side (default: the
    side on roll), so that a scenario's boards can keep one numbering. With `before`, an after-board: the state is
    the position after the side on roll has played from `before`, its moves marked (`_moved`)."""
    title = title or f"{state.game} position, {state.turn} on roll"
    board = [
        f'<rect class="f" width="{WIDTH}" height="{HEIGHT}" rx="4"/>',
        f'<rect class="e" x="{LEFT}" y="{TOP}" width="{12 * W + BAR}" height="{BOARD_H}"/>',
        f'<rect class="f" x="{LEFT + 6 * W}" y="{TOP}" width="{BAR}" height="{BOARD_H}"/>',
        f'<rect class="e" x="3" y="{TOP}" width="{TRAY}" height="{BOARD_H}" opacity=".6"/>',
        f'<rect class="e" x="{WIDTH - TRAY - 3}" y="{TOP}" width="{TRAY}" height="{BOARD_H}" opacity=".6"/>',
    ]
    body = (
        board
        + _points(state, view or state.turn)
        + _arrows(state)
        + _bar_and_trays(state)
        + (_cube(state) if cube else [])
        + ([] if before is None else _moved(state, before))
        + _status(state, after=before is not None)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}"'
        f' role="img" aria-labelledby="t d" font-family="sans-serif">'
        f'<title id="t">{escape(title)}</title><desc id="d">{escape(describe(state, before is not None))}</desc>'
        f"<style>{STYLE}</style>" + "".join(body) + "</svg>"
    )
