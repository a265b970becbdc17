"""Narde position IDs: one state of Narde or Crazy Narde as a short, URL-safe word.

No published format describes Narde positions (the XGID and the GNU Position ID, position_ids.py, are
backgammon's), so gammonspec defines one in spec/conventions.md ("Narde position IDs", with worked examples).
Version 1, its fields in this order, joined by '_':

    NID1 _ <game> _ <points> _ <turn><dice> _ f<first turn>r<rolls in game>h<head moves> [_ s...] [_ c...] [_ m...]

* `NID` and the version character `1`;
* the game's letter (games.Game.nid): `N` Narde, `C` Crazy Narde;
* white's points 1-24 in white's own numbering: `A`-`O` for 1-15 white checkers, `a`-`o` for 1-15 black ones, a
  run of empty points as its length in decimal; no bar (these games have none), the rest of each side is off;
* the side on roll, `w` or `b`, then the two dice in their order (no dice: nothing);
* the turn context: `f` 0 or 1, `r` the rolls already made in the game, `h` the checkers already off the head;
* only when not the default, in this order: the segment (`s`, its owner `w`/`b`, `p` when passed, its 1-4
  numbers), the cube (`c`, its value, its owner `w`/`b` when owned) and the match (`m` length, `w` white's
  score, `b` black's, `c` in the Crawford game).

Every state has exactly one ID (numbers without leading zeros, defaults left out); decoding refuses any other
spelling, and every impossible state, with one line naming the field.  No checksum: the fields are validated,
and an ID stays readable and editable by hand.
"""

from __future__ import annotations

import re
import string

from gammonspec.model.games import CHECKERS, GAME_DATA
from gammonspec.model.position_ids import GNUBG_ID_LENGTH, encode_xgid
from gammonspec.model.state import (
    CUBE_VALUES,
    SIDES,
    Cube,
    Layout,
    Match,
    Segment,
    Side,
    State,
    StateError,
    TurnContext,
    mirror,
)

NID_PREFIX = "NID"
VERSION = "1"
SEPARATOR = "_"
_GAME_OF_LETTER = {game.nid: name for name, game in GAME_DATA.items() if game.nid}
GAMES_WITH_NIDS = tuple(_GAME_OF_LETTER.values())
_SIDE_OF_LETTER: dict[str, Side] = {"w": "white", "b": "black"}
_LETTER_OF_SIDE = {side: letter for letter, side in _SIDE_OF_LETTER.items()}
_ALPHABET = frozenset(string.ascii_letters + string.digits + SEPARATOR)
_BIGGEST = 99_999  # a number field holds at most five digits
_NUMBER = r"(0|[1-9][0-9]{0,4})"  # in decimal, without leading zeros
_REQUIRED = ("NID and version", "game", "points", "turn and dice", "context")
_OPTIONAL = {"s": "segment", "c": "cube", "m": "match"}  # tag -> field, in their order
_SHOWN = 60  # characters of an ID quoted in a message


def _quoted(text: str, limit: int = 24) -> str:
    """`text` quoted for a message, cut to `limit` characters (a message stays one short line)."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


def is_nid(text: object) -> bool:
    """Whether `text` is meant as a Narde position ID (it starts with NID and is not a 14-character GNU Position
    ID); decode_nid then judges it."""
    if not isinstance(text, str):
        return False
    text = text.strip()
    return text.startswith(NID_PREFIX) and (SEPARATOR in text or len(text) != GNUBG_ID_LENGTH)


def position_id(state: State) -> str | None:
    """The ID a reader pastes elsewhere for `state`: its XGID (with the cube and match) where XGIDs describe the
    game, its Narde position ID where these do; None when neither carries the state (a bar in Narde)."""
    game = GAME_DATA[state.game]
    try:
        if game.position_ids:
            return encode_xgid(state.layout, state.turn, state.dice or None, state.cube, state.match)
        return encode_nid(state) if game.nid else None
    except StateError:
        return None


# ---- writing -----------------------------------------------------------------------------------------------


def encode_nid(state: State) -> str:
    """The Narde position ID of `state`; StateError when the state is impossible or the ID cannot carry it."""
    try:
        _check(state)
    except StateError as exc:
        raise StateError(f"no Narde position ID for this state: {exc}") from None
    ctx = state.context
    fields = [
        NID_PREFIX + VERSION,
        GAME_DATA[state.game].nid,
        _write_points(state.layout),
        _LETTER_OF_SIDE[state.turn] + "".join(map(str, state.dice)),
        f"f{int(ctx.first_turn)}r{ctx.rolls_in_game}h{ctx.head_moves}",
    ]
    if state.segment is not None:
        seg = state.segment
        fields.append(f"s{_LETTER_OF_SIDE[seg.owner]}{'p' if seg.passed else ''}{''.join(map(str, seg.numbers))}")
    if state.cube != Cube():
        fields.append(f"c{state.cube.value}{_LETTER_OF_SIDE.get(state.cube.owner, '')}")  # type: ignore[arg-type]
    if state.match != Match():
        m = state.match
        fields.append(f"m{m.length}w{m.score[0]}b{m.score[1]}{'c' if m.crawford else ''}")
    return SEPARATOR.join(fields)


def _write_points(layout: Layout) -> str:
    out, empty = [], 0
    for p in range(1, 25):
        white, black = layout.white[p - 1], layout.black[mirror(layout.game, p) - 1]
        if not white and not black:
            empty += 1
            continue
        if empty:
            out.append(str(empty))
            empty = 0
        out.append(chr(ord("A") + white - 1) if white else chr(ord("a") + black - 1))
    if empty:
        out.append(str(empty))
    return "".join(out)


# ---- reading -----------------------------------------------------------------------------------------------


def decode_nid(text: str) -> State:
    """The state a Narde position ID describes, validated; StateError (one line, naming the field or character)
    when it is malformed, truncated or describes a state that cannot occur."""
    if not isinstance(text, str):
        raise StateError(f"a Narde position ID must be text, not {type(text).__name__}")
    nid = text.strip()
    shown = nid if len(nid) <= _SHOWN else nid[:_SHOWN] + "..."
    try:
        return _read(nid)
    except StateError as exc:
        raise StateError(f"Narde position ID {shown!r}: {exc}") from None


def _read(nid: str) -> State:
    if not nid.startswith(NID_PREFIX):
        raise StateError(f"does not start with {NID_PREFIX}")
    bad = sorted(set(nid) - _ALPHABET)
    if bad:
        raise StateError(f"character {bad[0]!r} is not one of A-Z, a-z, 0-9 and '_'")
    fields = nid.split(SEPARATOR)
    version = fields[0][len(NID_PREFIX) :]
    if version != VERSION:
        raise StateError(
            f"version {_quoted(version)} is not one this reader knows (it reads version {VERSION}: {NID_PREFIX}{VERSION}_...)"
            if version
            else f"no version character after {NID_PREFIX}"
        )
    if len(fields) < len(_REQUIRED):
        missing = ", ".join(_REQUIRED[len(fields) :])
        raise StateError(f"ends after {len(fields)} of its {len(_REQUIRED)} fields: {missing} missing")
    game = _read_game(fields[1])
    layout = _read_points(fields[2], game)
    turn, dice = _read_turn(fields[3])
    state = State(layout, turn, dice, _read_context(fields[4]), *_read_optional(fields[len(_REQUIRED) :]))
    _check(state)
    return state


def _read_game(field: str) -> str:
    if field not in _GAME_OF_LETTER:
        letters = ", ".join(f"{letter} {game}" for letter, game in _GAME_OF_LETTER.items())
        raise StateError(f"game {_quoted(field)} is not a game letter ({letters})")
    return _GAME_OF_LETTER[field]


def _read_points(field: str, game: str) -> Layout:
    counts: dict[Side, list[int]] = {"white": [0] * 24, "black": [0] * 24}
    point, i = 1, 0  # the next white point to read, the next character
    while i < len(field):
        ch, at = field[i], f"character {i + 1}"
        if ch.isdigit():
            run = re.match(r"[0-9]+", field[i:]).group()  # type: ignore[union-attr]
            if run[0] == "0" or len(run) > 2 or int(run) > 24:
                raise StateError(f"points: {at}: {_quoted(run)} is not a run of 1-24 empty points")
            size = int(run)
        elif "A" <= ch <= "O" or "a" <= ch <= "o":
            size = 1
        else:
            raise StateError(f"points: {at}: {ch!r} is not a count (A-O white, a-o black) or a run of empty points")
        if point + size > 25:
            raise StateError(f"points: {at}: {_quoted(field, 40)} runs past white's 24-point")
        if size == 1 and not ch.isdigit():
            side: Side = "white" if ch.isupper() else "black"
            own = point if side == "white" else mirror(game, point)
            counts[side][own - 1] = ord(ch.lower()) - ord("a") + 1
        point, i = point + size, i + (len(run) if ch.isdigit() else 1)
    if point != 25:
        raise StateError(f"points: {_quoted(field, 40)} covers {point - 1} points, expected 24")
    off = []
    for side in SIDES:
        on_board = sum(counts[side])
        if on_board > CHECKERS:
            raise StateError(f"points: {side} has {on_board} checkers on the board, more than {CHECKERS}")
        off.append(CHECKERS - on_board)
    return Layout(game, tuple(counts["white"]), tuple(counts["black"]), (0, 0), (off[0], off[1]))


def _match(pattern: str, field: str, name: str, expected: str) -> tuple[str, ...]:
    found = re.fullmatch(pattern, field)
    if found is None:
        raise StateError(f"{name} {_quoted(field)} is not {expected}")
    return found.groups()


def _read_turn(field: str) -> tuple[Side, tuple[int, ...]]:
    side, dice = _match(r"([wb])([1-6][1-6])?", field, "turn and dice", "w or b then none or two dice 1-6 (as w65)")
    return _SIDE_OF_LETTER[side], tuple(int(d) for d in dice or "")


def _read_context(field: str) -> TurnContext:
    first, rolls, head = _match(
        f"f([01])r{_NUMBER}h{_NUMBER}",
        field,
        "context",
        "f 0 or 1, r the rolls in the game, h the head moves, numbers without leading zeros (as f1r0h0)",
    )
    return TurnContext(first == "1", int(rolls), int(head))


def _read_optional(fields: list[str]) -> tuple[Cube, Segment | None, Match]:
    """The cube, segment and match of the optional fields (each tagged by its first letter, in order)."""
    found: dict[str, str] = {}
    for field in fields:
        tag = field[:1]
        if tag not in _OPTIONAL:
            raise StateError(f"field {_quoted(field)} is not a segment (s...), cube (c...) or match (m...)")
        if any(list(_OPTIONAL).index(t) >= list(_OPTIONAL).index(tag) for t in found):
            raise StateError(
                f"the {_OPTIONAL[tag]} field {_quoted(field)} is out of order (segment, cube, match; each once)"
            )
        found[tag] = field
    segment, cube, match = None, Cube(), Match()
    if "s" in found:
        owner, passed, numbers = _match(
            r"s([wb])(p?)([1-6]{1,4})", found["s"], "segment", "s, its owner w or b, p if passed, 1-4 numbers 1-6"
        )
        segment = Segment(_SIDE_OF_LETTER[owner], tuple(map(int, numbers)), passed == "p")
    if "c" in found:
        value, owner = _match(f"c{_NUMBER}([wb]?)", found["c"], "cube", "c, its value, its owner w or b if owned")
        cube = Cube(int(value), _SIDE_OF_LETTER.get(owner))
        if cube == Cube():
            raise StateError("cube 'c1' is the default (a centred 1-cube): leave the field out")
    if "m" in found:
        length, white, black, crawford = _match(
            f"m{_NUMBER}w{_NUMBER}b{_NUMBER}(c?)",
            found["m"],
            "match",
            "m length, w white's score, b black's, c if Crawford",
        )
        match = Match(int(length), (int(white), int(black)), crawford == "c")
        if match == Match():
            raise StateError(f"match {_quoted(found['m'])} is the default (money play at 0-0): leave the field out")
    return cube, segment, match


# ---- what every ID's state must be --------------------------------------------------------------------------


def _check(state: State) -> None:
    """Refuse a state no ID describes: impossible, or beyond what the fields carry (validated once, here)."""
    game, layout = state.game, state.layout
    if game not in GAMES_WITH_NIDS:
        raise StateError(f"game: Narde position IDs describe {' and '.join(GAMES_WITH_NIDS)}, not {game}")
    if any(layout.bar):
        raise StateError(f"points: {game} has no bar, but the position has checkers on it {layout.bar}")
    try:
        layout.validate()
    except StateError as exc:
        raise StateError(f"points: {exc}") from None
    if layout.off == (CHECKERS, CHECKERS):
        raise StateError(f"points: both sides have borne off all {CHECKERS}; the game ended when the first did")
    if state.turn not in SIDES:
        raise StateError(f"turn: {state.turn!r} is not white or black")
    if len(state.dice) not in (0, 2) or any(d not in range(1, 7) for d in state.dice):
        raise StateError(f"dice: {list(state.dice)} is neither no dice nor two numbers 1-6")
    _check_context(state.context)
    _check_segment(state.segment, state.turn)
    if state.cube.value not in CUBE_VALUES or state.cube.owner not in (None, *SIDES):
        raise StateError(f"cube: value {state.cube.value} owned by {state.cube.owner} (value one of {CUBE_VALUES})")
    _check_match(state.match)


def _check_context(ctx: TurnContext) -> None:
    if not isinstance(ctx.first_turn, bool):
        raise StateError(f"context: first_turn {ctx.first_turn!r} is not true or false")
    if ctx.rolls_in_game not in range(_BIGGEST + 1):
        raise StateError(f"context: rolls_in_game {ctx.rolls_in_game} is not 0-{_BIGGEST}")
    if ctx.head_moves not in range(CHECKERS + 1):
        raise StateError(f"context: head_moves {ctx.head_moves} is not 0-{CHECKERS} (a head holds at most {CHECKERS})")


def _check_segment(segment: Segment | None, turn: Side) -> None:
    if segment is None:
        return
    if (
        segment.owner not in SIDES
        or not 1 <= len(segment.numbers) <= 4
        or any(n not in range(1, 7) for n in segment.numbers)
    ):
        raise StateError(f"segment: {segment.to_wire()} is not an owner and 1-4 numbers 1-6")
    if segment.player != turn:
        passed = ", passed" if segment.passed else ""
        raise StateError(
            f"segment: it is {segment.player}'s to play ({segment.owner}'s roll{passed}), but {turn} is on roll"
        )


def _check_match(match: Match) -> None:
    length, score = match.length, match.score
    if length not in range(_BIGGEST + 1) or any(s not in range(_BIGGEST + 1) for s in score):
        raise StateError(f"match: length {length} and score {list(score)} must be 0-{_BIGGEST}")
    if length and max(score) >= length:
        raise StateError(f"match: score {score[0]}-{score[1]} has reached the length {length}: the match is over")
    if match.crawford and not (length and max(score) == length - 1 > min(score)):
        raise StateError(
            f"match: the Crawford game needs one side one point from the match and the other behind, "
            f"not {score[0]}-{score[1]} of {length}"
        )
