"""The board legend: a page of two boards with numbered callouts, and the compact key atop every page that draws boards."""

from __future__ import annotations

from gammonspec.conformance.tools import diagram as d
from gammonspec.model.state import Cube, Layout, State, start_layout

PAGE = "legend.md"
# Compact key, one line atop each board page; the full legend is one click away.
KEY = (
    '<p class="legend-key" markdown>**Reading the boards:** numbers are the points of the side on roll · '
    "a coloured arrow per side shows which way it moves · a pink outline and an underlined number mark a head "
    "(Narde games) · a number on a checker counts the checkers on that point · slices at the edge are checkers "
    "borne off · the cube sits on the bar, at its owner's side once taken · on a board after a play, a green ring "
    "marks each checker that arrived and a dashed ring each place one left. "
    f"[Full legend with pictures]({PAGE})</p>"
)


def _callouts(marks: list[tuple[int, float, float]]) -> str:
    """Numbered red discs at board coordinates (SVG user units)."""
    out = []
    for n, x, y in marks:
        out.append(
            f'<circle cx="{x:g}" cy="{y:g}" r="7" fill="#d55e00" stroke="#fff" stroke-width="1.5"/>'
            f'<text x="{x:g}" y="{y + 3.5:g}" style="fill:#fff;font-size:10px;font-weight:bold">{n}</text>'
        )
    return "".join(out)


def _with(
    state: State, marks: list[tuple[int, float, float]], title: str, cube: bool = True, before: Layout | None = None
) -> str:
    return d.svg(state, title, cube, before=before).replace("</svg>", _callouts(marks) + "</svg>")


def backgammon_state() -> State:
    """A late backgammon position: a count on a stack, a checker on the bar, checkers off, the cube taken."""
    white = [0] * 24
    white[5], white[4], white[3], white[12] = 7, 3, 2, 1  # own points 6, 5, 4, 13
    black = [0] * 24
    black[0], black[1], black[2], black[5] = 4, 3, 3, 2  # own points 1, 2, 3, 6
    layout = Layout("backgammon", tuple(white), tuple(black), bar=(0, 1), off=(2, 2))
    return State(layout, "white", (6, 3), cube=Cube(2, "black"))


def after_state() -> tuple[State, Layout]:
    """The backgammon start after white's opening 3-1 played 8/5 6/5, and the start it was played from."""
    start = start_layout("backgammon")
    white = list(start.white)
    white[7], white[5], white[4] = white[7] - 1, white[5] - 1, 2  # off its 8 and 6, two on its 5
    return State(start._replace(white=tuple(white)), "white", (3, 1)), start


def narde_state() -> State:
    return State(start_layout("narde"), "white", (6, 5))


def boards() -> dict[str, str]:
    """The legend's two boards, file name -> SVG."""
    bottom = d.TOP + d.BOARD_H
    status = bottom + d.LABEL + 18
    bar_x = d.LEFT + 6 * d.W + d.BAR / 2
    bg = [
        (1, d.x_of(d.column(1)) + 13, bottom + d.LABEL - 6),  # white's point 1, numbered for white on roll
        (2, d.x_of(d.column(19)) + 14, d.TOP + d.HALF + 6),  # the arrows
        (3, d.x_of(d.column(6)) + 12, bottom - 5 * d.R * 2 + 4),  # the count on the fifth checker
        (4, bar_x + 14, d.TOP + d.HALF + d.GAP / 2 + 22),  # a checker on the bar
        (5, d.WIDTH - d.TRAY - 6, bottom - 26),  # white's tray
        (6, bar_x + 16, d.TOP + 12),  # the cube, on its owner's (black's) side
        (7, 92, status - 4),  # who is on roll, between its words and the dice
        (8, 153, status - 4),  # the dice
        (9, 214, status - 4),  # the pip counts
    ]
    nd = [
        (10, d.x_of(d.column(24)) + 14, d.TOP + 30),  # white's head, outlined
        (11, d.x_of(d.column(24)) + 12, d.TOP - 8),  # its number, underlined
        (2, d.x_of(d.column(19)) + 14, d.TOP + d.HALF + 6),
    ]
    low = bottom - d.R - 1  # the y of a bottom point's first checker
    after, start = after_state()
    moved = [
        (12, d.x_of(d.column(5)), low - 4 * d.R - 4),  # two checkers arrived on white's 5
        (13, d.x_of(d.column(8)) + 13, low - 4 * d.R),  # one left white's 8 (a dashed ring)
        (14, 118, status - 4),  # "after the play", no dice
    ]
    return {
        "boards/legend-backgammon.svg": _with(backgammon_state(), bg, "Legend: a backgammon board"),
        "boards/legend-after.svg": _with(after, moved, "Legend: a board after white's 3-1, 8/5 6/5", before=start),
        "boards/legend-narde.svg": _with(narde_state(), nd, "Legend: a Narde board at the start", cube=False),
    }


ITEMS = [
    "**Point numbers** are those of the side on roll: every side numbers the points from its own point of view, "
    "its home board 1-6, and moves from higher numbers to lower. The board is always drawn the same way round: "
    "white's home board bottom right.",
    "**Arrows**, one per side in its colour, run along that side's first six points from its 24-point, beside the row "
    "they belong to: the way it moves. In Backgammon the sides move towards each other; in Narde and Crazy Narde both go the same way round.",
    "**A number on a checker**: a point shows at most five checkers; when more stand there, the fifth carries "
    "the count.",
    "**The bar**, the strip in the middle: a hit checker waits there, on the half where it comes back in "
    "(Backgammon only; the Narde games have no hitting).",
    "**The trays** at the edges: each slice is a checker borne off, the number says how many.",
    "**The cube**: in the middle of the bar showing 64 while nobody owns it; once taken, on its owner's side "
    "showing its value. Boards of a ruleset without a cube draw none.",
    "**On roll**: the disc in the colour of the side whose turn it is.",
    "**The dice** to play: the roll, or the numbers of the current segment of a turn.",
    "**Pips**: each side's count, the side on roll first.",
    "**The head** (Narde, Crazy Narde): the point all fifteen checkers start on, outlined in pink.",
    "**An underlined, bold number**: the head's point number.",
    "**A green ring** on a checker (boards drawn after a play): a checker the play brought there; on a stack that "
    "shows its count, the checker carrying the count.",
    "**A dashed ring**: a place a checker left in the play (a hit checker's too); a borne-off slice the play added "
    "is outlined in green.",
    '**"after the play"**: the board after the side on roll played, with no dice; the play itself is written "'
    "under the board.",
]


SIZE = f'width="560" height="{round(560 * d.HEIGHT / d.WIDTH)}"'  # the legend's boards, their room kept while loading


def page() -> str:
    """The legend page: the two boards, then what each numbered callout shows."""
    lines = [
        "# Reading the boards",
        "",
        "Every board on this site is drawn by one program in one orientation. The numbered discs below are "
        "not part of a real board; they point at what the list explains.",
        "",
        f'![A backgammon board with numbered callouts](boards/legend-backgammon.svg){{ {SIZE} }}',
        "",
        f'![A Narde starting position with numbered callouts](boards/legend-narde.svg){{ {SIZE} }}',
        "",
        f'![The backgammon start after white played 3-1 as 8/5 6/5, with numbered callouts](boards/legend-after.svg){{ {SIZE} }}',
        "",
    ]
    lines += [f"{n}. {item}" for n, item in enumerate(ITEMS, 1)]
    lines += [
        "",
        "For screen readers, each board's text alternative lists where every checker stands, in its own "
        "side's numbering, with the dice and the cube.",
        "",
    ]
    return "\n".join(lines)
