"""The playground's Python side: it runs in the reader's browser under Pyodide (site/playground_page.py bundles it with the
model, the reference engine and the ask core); play.js only handles the page and calls the two functions here.

    view(request: str) -> str    # {"id", "rulesets"} -> {"id", "game", "form", "board", "answer", "results", "errors"}
    edit(request: str) -> str    # {"id", "change"} -> {"id"} or {"errors"}

Both take and give JSON text.  `id` is the whole position (an XGID for backgammon, a Narde ID for Narde and Crazy
Narde); `rulesets` the names asked (null: every ruleset of the game).  `answer` is the ask core's document, the one
`gammonspec ask --json` prints; `errors` maps a field of the page (id, board, turn, dice, context, segment, cube,
rulesets) to one line saying what is wrong with it.  Nothing here knows a rule: the plays are the ask core's.
"""

from __future__ import annotations

import json
from dataclasses import replace
from html import escape
from typing import Any

from gammonspec.conformance.tools import diagram
from gammonspec.conformance.tools.ask import AskError, Question, Target, answer, default_context
from gammonspec.model import position_ids
from gammonspec.model.clauses import clauses
from gammonspec.model.narde_ids import GAMES_WITH_NIDS, decode_nid, encode_nid, is_nid
from gammonspec.model.profiles import override
from gammonspec.model.rulesets import rulesets
from gammonspec.model.state import (
    GAMES,
    SIDES,
    Cube,
    Layout,
    Segment,
    Side,
    State,
    StateError,
    TurnContext,
    mirror,
    other,
    start_layout,
)

AFTER_BOARDS = 12  # after-boards drawn per group before the rest are only listed (play.js asks for them on demand)
FIELDS = ("roll", "dice", "context", "segment", "cube", "position", "game", "rulesets", "turn")  # AskError's prefixes


# ---- the position as text -------------------------------------------------------------------------------------


def read_id(text: str) -> State:
    """The state an ID describes: a Narde ID carries the turn context, an XGID gets the context `gammonspec ask`
    gives it (ask.default_context)."""
    text = text.strip()
    if not text:
        raise StateError("empty: paste an XGID or a Narde ID (NID1_...), or pick a game")
    if is_nid(text):
        return decode_nid(text)
    layout, turn, dice = position_ids.decode_xgid(text)
    if turn is None:
        raise StateError("the XGID names no side on roll (its turn field is 0)")
    cube, match = position_ids.decode_xgid_stakes(text)
    return State(layout, turn, dice or (), default_context(layout, turn), cube, None, match)


def write_id(state: State) -> str:
    """The ID of a state, in its game's format."""
    if state.game in GAMES_WITH_NIDS:
        return encode_nid(state)
    dice = state.dice if len(state.dice) == 2 else None
    return position_ids.encode_xgid(state.layout, state.turn, dice, state.cube, state.match)


def carries_context(state: State) -> bool:
    """Whether the state's ID holds its turn context (and segment): else the page cannot set them."""
    return state.game in GAMES_WITH_NIDS


# ---- editing ----------------------------------------------------------------------------------------------------


def _counts(layout: Layout, at: int) -> tuple[int, int]:
    """White's and black's checkers on white's point `at`."""
    return layout.white[at - 1], layout.black[mirror(layout.game, at) - 1]


def _held(state: State, at: str) -> Side | None:
    """The side whose checker is picked up at `at` (a point, `bar`, `off-white`, `off-black`): the one there (on the
    bar, the side on roll's first)."""
    layout = state.layout
    if at.startswith("off-"):
        side = at[4:]
        return side if side in SIDES and layout.borne_off(side) else None  # type: ignore[arg-type]
    if at == "bar":
        return next((s for s in (state.turn, other(state.turn)) if layout.on_bar(s)), None)
    white, black = _counts(layout, int(at))
    return "white" if white else "black" if black else None


def _shift(layout: Layout, side: Side, at: str, delta: int) -> Layout:
    """`delta` checkers of `side` added at `at` (a point in white's numbering, `bar` or its tray `off-<side>`)."""
    i = SIDES.index(side)
    if at in ("bar", f"off-{side}"):
        name = "bar" if at == "bar" else "off"
        counts = list(getattr(layout, name))
        counts[i] += delta
        return layout._replace(**{name: tuple(counts)})
    own = int(at) if side == "white" else mirror(layout.game, int(at))
    points = list(layout.points(side))
    points[own - 1] += delta
    return layout._replace(**{side: tuple(points)})


def move(state: State, source: str, target: str) -> Layout:
    """One checker carried from `source` to `target`, each a point of white's numbering (1-24), `bar`, `off-white`
    or `off-black`: how the board is set up (taking a checker off the board is carrying it to its tray)."""
    places = {str(p) for p in range(1, 25)} | {"bar", "off-white", "off-black"}
    for at in (source, target):
        if at not in places:
            raise StateError(f"no such place {at!r} (a point 1-24, bar, off-white, off-black)")
    side = _held(state, source)
    if side is None:
        raise StateError(f"no checker to pick up at {source}")
    if target.startswith("off-") and target != f"off-{side}":
        raise StateError(f"a {side} checker goes to {side}'s tray, not {target[4:]}'s")
    if (
        target not in ("bar",)
        and not target.startswith("off-")
        and _counts(state.layout, int(target))[1 - SIDES.index(side)]
    ):
        raise StateError(f"white's point {target} holds {other(side)} checkers: move them away first")
    return _shift(_shift(state.layout, side, source, -1), side, target, 1)


def _segment(state: State, change: dict[str, Any]) -> Segment | None:
    """The segment the page names: none, the side on roll's own chain numbers, or numbers passed to it."""
    kind, text = change.get("kind"), str(change.get("numbers", ""))
    if not kind:
        return None
    numbers = tuple(int(c) for c in text if c.isdigit())
    if (
        not 1 <= len(numbers) <= 4
        or any(not 1 <= n <= 6 for n in numbers)
        or len(numbers) != len(text.replace("-", ""))
    ):
        raise StateError(f"segment: {text!r}: give 1 to 4 numbers 1-6, e.g. 55 or 6-4")
    if kind == "passed":
        return Segment(other(state.turn), numbers, passed=True)
    return Segment(state.turn, numbers)


def changed(state: State, change: dict[str, Any]) -> State:
    """The state after one change made on the page."""
    if "move" in change:
        source, target = map(str, change["move"])
        return replace(state, layout=move(state, source, target))
    if "turn" in change:
        if change["turn"] not in SIDES:
            raise StateError(f"turn: no such side {change['turn']!r}")
        return replace(state, turn=change["turn"], segment=None)  # a segment is the side on roll's
    if "dice" in change:
        dice = tuple(int(d) for d in change["dice"])
        if len(dice) not in (0, 2) or any(not 1 <= d <= 6 for d in dice):
            raise StateError("dice: a roll is two dice, each 1-6")
        return replace(state, dice=dice)
    if "context" in change:
        return replace(state, context=TurnContext.from_wire(change["context"]))
    if "segment" in change:
        return replace(state, segment=_segment(state, change["segment"]))
    if "cube" in change:
        return replace(state, cube=Cube.from_wire(change["cube"]))
    raise StateError(f"unknown change {sorted(change)}")


# ---- drawing ----------------------------------------------------------------------------------------------------


def _hit(at: int | str, x: float, y: float, w: float, h: float, label: str) -> str:
    return (
        f'<rect class="hit" data-at="{at}" x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" tabindex="0"'
        f' role="button" aria-label="{escape(label)}"/>'
    )


def editor(state: State) -> str:
    """The state's board as the site draws it, with a focusable target over each point, the bar and each side's tray
    (in visual order: the top row from the left, the bottom row from the left, the bar, the trays) for play.js."""
    d, layout, game = diagram, state.layout, state.game
    view = state.turn
    hits = []
    for top in (True, False):
        for col in range(12):
            at = col + 13 if top else 12 - col
            shown = at if view == "white" else mirror(game, at)
            white, black = _counts(layout, at)
            held = f"{white} white" if white else f"{black} black" if black else "empty"
            y = d.TOP if top else d.TOP + d.HALF + d.GAP
            hits.append(_hit(str(at), d.x_of(col) - d.W / 2, y, d.W, d.HALF, f"{view}'s point {shown}: {held}"))
    bar = ", ".join(f"{layout.on_bar(s)} {s}" for s in SIDES)
    hits.append(_hit("bar", d.LEFT + 6 * d.W, d.TOP, d.BAR, d.BOARD_H, f"the bar: {bar}"))
    for side in SIDES:
        x = 3 if d._home_left(game, side) else d.WIDTH - d.TRAY - 3
        y = d.TOP if d.is_top(d.white_point(game, side, 1)) else d.TOP + d.HALF + d.GAP
        hits.append(_hit(f"off-{side}", x, y, d.TRAY, d.HALF, f"{side}'s tray: {layout.borne_off(side)} off"))
    drawn = diagram.svg(state, cube=_has_cube(game))
    return drawn.replace("</svg>", f'<g class="hits">{"".join(hits)}</g></svg>')


def _has_cube(game: str) -> bool:
    return any(rs.switches.get("cube") != "none" for rs in rulesets().values() if rs.game == game)


def _has_segments(game: str) -> bool:
    """Whether a turn of the game can have later segments: a chain of doubles or numbers passed on."""
    return any(
        rs.switches["doubles"] != "four-moves" or rs.switches["unplayable"] != "lost"
        for rs in rulesets().values()
        if rs.game == game
    )


def _after(state: State, position: dict[str, Any], play: str, differs: bool) -> str:
    after = Layout.from_wire(state.game, position, check=False)
    board = diagram.svg(
        replace(state, layout=after), f"after {play or 'no move'}", _has_cube(state.game), before=state.layout
    )
    mark = ' class="differs"' if differs else ""
    note = ' <span class="mark" title="not every ruleset asked allows this play">≠</span>' if differs else ""
    return f"<figure{mark}>{board}<figcaption><code>{escape(play) or '(no move)'}</code>{note}</figcaption></figure>"


def _link(rule: str) -> str:
    clause = clauses().get(rule)
    href = f"../{clause.path.stem}/#{rule}" if clause else ""
    return f'<a href="{href}"><code>{escape(rule)}</code></a>' if href else f"<code>{escape(rule)}</code>"


def _cause(cause: dict[str, Any]) -> str:
    name, values = cause["name"], " / ".join(json.dumps(v) if not isinstance(v, str) else v for v in cause["values"])
    what = (
        f'<a href="../switches/#{name}"><code>{name}</code></a>'
        if cause["kind"] == "switch"
        else f"option <code>{name}</code>"
    )
    rules = ", ".join(_link(r) for r in cause["clauses"])
    return f"{what} ({escape(values)}){': ' + rules if rules else ''}"


def results(state: State, document: dict[str, Any], shown: int = AFTER_BOARDS) -> str:
    """The answer as HTML: each group of agreeing rulesets with its plays drawn as after-boards (those not every group
    allows marked), what follows the play, and the switches and clauses that make the groups differ."""
    plays = [{p["play"] for p in g["answer"]["plays"] or []} for g in document["groups"] if g["answer"]]
    common = set.intersection(*plays) if plays else set()
    out = []
    for i, group in enumerate(document["groups"]):
        members = ", ".join(group["members"])
        out.append(f'<section class="group" data-group="{i}"><h3>{escape(members)}</h3>')
        found = group["answer"]
        if found is None:
            out.append(f'<p class="cannot">Cannot occur: {escape(group["message"])}</p></section>')
            continue
        if found["result"]:
            out.append(f"<p>The game is over: <code>{escape(json.dumps(found['result']))}</code></p>")
        if found["plays"] is not None:
            listed = found["plays"]
            out.append(f'<p>{len(listed)} legal play{"s" if len(listed) != 1 else ""}:</p><div class="boards">')
            out += [_after(state, p["position"], p["play"], p["play"] not in common) for p in listed[:shown]]
            out.append("</div>")
            if len(listed) > shown:
                rest = " ".join(f"<code>{escape(p['play'])}</code>" for p in listed[shown:])
                out.append(f'<p>and {rest} <button type="button" class="more" data-group="{i}">draw all</button></p>')
        if found["next"]:
            seg = found["next"]
            who = f"{seg['owner']}'s numbers passed on" if seg["passed"] else f"{seg['owner']} plays on"
            out.append(f"<p>Then: {who}, {'-'.join(map(str, seg['numbers']))}.</p>")
        if found["cube"]:
            out.append(f"<p>May double: {'yes' if found['cube']['may_double'] else 'no'}.</p>")
        out.append("</section>")
    why = [
        f"<li><b>{escape(a)}</b> and <b>{escape(b)}</b> differ in {', '.join(d['differs'])}"
        + (": " + "; ".join(_cause(c) for c in d["causes"]) if d["causes"] else "")
        + "</li>"
        for d in document["differences"]
        for a, b in [d["between"]]
    ]
    if why:
        out.append(f'<section class="why"><h3>Why they differ</h3><ul>{"".join(why)}</ul></section>')
    return "".join(out)


# ---- the calls --------------------------------------------------------------------------------------------------


def _field(message: str) -> str:
    """The field of the page an error message is about, from its first word (AskError's and the IDs' messages
    start with it)."""
    head = message.split(":", 1)[0].split(" ", 1)[0].lower()
    return {"roll": "dice", "position": "board", "points": "board", "game": "id"}.get(
        head, head if head in FIELDS else "id"
    )


def recorded_options(text: str) -> dict[str, bool]:
    """The options of the rules an ID records: an XGID's money-play Jacoby and beavers (a Narde ID records none)."""
    return {} if is_nid(text.strip()) else position_ids.decode_xgid_options(text.strip())


def _targets(game: str, names: list[str] | None, recorded: dict[str, bool]) -> list[Target]:
    """The rulesets of `game` asked (every one when `names` is empty), with the options the ID records on top where
    they change what a ruleset plays, as `gammonspec ask` chooses them (ask_command._selected)."""
    of_game = [rs for rs in rulesets().values() if rs.game == game]
    unknown = [n for n in names or [] if n not in {rs.name for rs in of_game}]
    if unknown:
        raise AskError(f"rulesets: {', '.join(unknown)}: not a {game} ruleset")
    chosen = [rs for rs in of_game if not names or rs.name in names]
    return [
        override(t, [(k, v) for k, v in recorded.items() if k in t.options and t.options[k]["default"] != v])
        for t in chosen
    ]


def _form(state: State) -> dict[str, Any]:
    """What the page's fields show for the state."""
    segment = state.segment
    return {
        "turn": state.turn,
        "dice": list(state.dice),
        "context": state.context.to_wire() if carries_context(state) else None,
        "segment": None
        if segment is None
        else {"kind": "passed" if segment.passed else "own", "numbers": "".join(map(str, segment.numbers))},
        "segments": carries_context(state) and _has_segments(state.game),
        "cube": state.cube.to_wire() if _has_cube(state.game) else None,
        "rulesets": [rs.name for rs in rulesets().values() if rs.game == state.game],
    }


def ask(text: str, names: list[str] | None = None) -> tuple[State, dict[str, Any]]:
    """The ask core's document for a position ID, as `gammonspec ask ID --json -` gives it (the same source, the same
    context), under the rulesets named (None: every ruleset of the game)."""
    state = read_id(text)
    return state, answer(Question(state, text.strip()), _targets(state.game, names, recorded_options(text)))


def view(request: str) -> str:
    """Everything the page shows for a position ID and the rulesets asked (see the module's docstring)."""
    asked = json.loads(request)
    text, names = str(asked.get("id", "")), asked.get("rulesets")
    try:
        state = read_id(text)
    except StateError as exc:
        return json.dumps({"errors": {"id": str(exc)}})
    shown = {"id": text.strip(), "game": state.game, "form": _form(state), "board": editor(state)}
    try:
        state, document = ask(text, names)
    except (AskError, StateError) as exc:
        return json.dumps({**shown, "answer": None, "results": "", "errors": {_field(str(exc)): str(exc)}})
    html = results(state, document, int(asked.get("shown", AFTER_BOARDS)))
    return json.dumps({**shown, "answer": document, "results": html, "errors": {}})


def edit(request: str) -> str:
    """The position ID after one change made on the page (`changed`), or {"game": name} for its starting position;
    errors name the field changed."""
    asked = json.loads(request)
    change = asked.get("change", {})
    where = "board" if "move" in change else next(iter(change), "id")
    try:
        if "game" in change:
            if change["game"] not in GAMES:
                raise StateError(f"no such game {change['game']!r}")
            state = State(start_layout(change["game"]), "white")
            state = replace(state, context=default_context(state.layout, state.turn))
        else:
            state = changed(read_id(str(asked.get("id", ""))), change)
        return json.dumps({"id": write_id(state)})
    except (StateError, KeyError, TypeError, ValueError) as exc:
        message = str(exc).strip("'\"").removeprefix("no Narde position ID for this state: ")
        return json.dumps({"errors": {where: message}})
