"""The position `gammonspec ask` is asked about, as people have it: a position ID, a position file (a case's format, or
a position export of eXtreme Gammon or BGBlitz), or a shipped case; and the turn the command line gives on top.

Each reader raises AskError (or DataError, for a file) with one line naming what is wrong."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace
from pathlib import Path

from gammonspec.conformance.harness.cases import load, shipped
from gammonspec.conformance.harness.position_file import read_position
from gammonspec.conformance.tools.ask import AskError, Question, default_context
from gammonspec.model import position_ids
from gammonspec.model.narde_ids import decode_nid, is_nid
from gammonspec.model.state import Segment, Side, State, StateError, other
from gammonspec.model.terminal import shortened
from gammonspec.model.yamlio import DataError, read_text

POSITION_FILES = (".yaml", ".yml", ".json")  # a case-format position; any other file is a position export
_XGID_LINE = re.compile(r"^[ \t]*(XGID=\S+)[ \t]*\r?$", re.MULTILINE)
_GNU_POSITION_ID = re.compile(r"^[ \t]*Position-ID:[ \t]*(\S+)", re.MULTILINE)
_DIGITS = re.compile(r"^[1-6](?:[-,/]?[1-6])*$")


@dataclass(frozen=True)
class Given:
    """What the command line says about the turn, each None when not given."""

    turn: Side | None = None
    dice: tuple[int, ...] | None = None
    first_turn: bool | None = None
    rolls_in_game: int | None = None
    head_moves: int | None = None
    segment: tuple[int, ...] | None = None  # the numbers the side on roll plays now, of its own turn's chain
    passed: tuple[int, ...] | None = None  # the numbers the opponent passed to the side on roll


@dataclass(frozen=True)
class Position:
    """A position as read: its state, whether its side on roll is still to be given, where it came from, and the
    options of the rules it records (an XGID's money-play Jacoby and beavers)."""

    state: State
    no_turn: bool = False
    source: str = ""
    options: tuple[tuple[str, bool], ...] = ()


def numbers(option: str, text: str, most: int) -> tuple[int, ...]:
    """Dice or a segment's numbers as typed: `65`, `6-5`, `6,5`, `4444`; AskError naming `option` otherwise."""
    digits = tuple(int(c) for c in text if c.isdigit())
    if not _DIGITS.match(text.strip()) or not 1 <= len(digits) <= most:
        raise AskError(f"{option} {shortened(text, 20)!r}: give 1 to {most} numbers 1-6, e.g. 6-5 or 65")
    return digits


def _is_xgid(text: str) -> bool:
    return text.upper().startswith(position_ids.XGID_PREFIX) or text.count(":") in (8, 9)


def _from_xgid(xgid: str, source: str) -> Position:
    """The position of an XGID (a mid-game context unless told otherwise), with its money-play options."""
    try:
        layout, turn, dice = position_ids.decode_xgid(xgid)
        cube, match = position_ids.decode_xgid_stakes(xgid)
        options = position_ids.decode_xgid_options(xgid)
    except StateError as exc:
        raise AskError(str(exc)) from None
    state = State(layout, turn or "white", dice or (), default_context(layout), cube, None, match)
    return Position(state, turn is None, source, tuple(options.items()))


def _from_id(text: str, given: Given) -> Position:
    """The position of a Narde position ID, an XGID or a GNU Position ID (with its Match ID, or --turn)."""
    if is_nid(text):
        try:
            return Position(decode_nid(text), source=text)
        except StateError as exc:
            raise AskError(str(exc)) from None
    if _is_xgid(text):
        return _from_xgid(text, text)
    pid, colon, mid = text.partition(":")
    if colon and len(pid) == position_ids.GNUBG_ID_LENGTH:
        try:
            turn, dice, cube, match = position_ids.decode_gnubg_match(mid)
            layout = position_ids.decode_gnubg(pid, turn)
        except StateError as exc:
            raise AskError(str(exc)) from None
        return Position(State(layout, turn, dice, default_context(layout), cube, None, match), source=text)
    if len(text) == position_ids.GNUBG_ID_LENGTH:
        if given.turn is None:
            raise AskError(f"GNU Position ID {text!r}: give the side on roll with --turn (the ID is from its view)")
        try:
            layout = position_ids.decode_gnubg(text, given.turn)
        except StateError as exc:
            raise AskError(str(exc)) from None
        return Position(State(layout, given.turn, (), default_context(layout)), source=text)
    raise AskError(
        f"position {shortened(text, 40)!r}: not a Narde position ID (NID1_...), an XGID, a GNU Position ID (14"
        " characters, or Position ID:Match ID) nor a file"
        " (a case-format .yaml/.json, or a position export of eXtreme Gammon or BGBlitz)"
    )


def _from_export(path: Path) -> Position:
    """A position export (eXtreme Gammon's position as text, a BGBlitz text position): its one XGID line, checked
    against BGBlitz's Position-ID where there is one."""
    text = read_text(path)
    found = list(_XGID_LINE.finditer(text))
    if not found:
        raise DataError(path, None, "no XGID= line: not a position export of eXtreme Gammon or BGBlitz")
    if len(found) > 1:
        line = text.count("\n", 0, found[1].start()) + 1
        raise DataError(path, line, "a second position (XGID= line): ask one position at a time")
    line = text.count("\n", 0, found[0].start()) + 1
    try:
        read = _from_xgid(found[0].group(1), "")
    except AskError as exc:
        raise DataError(path, line, str(exc)) from None
    state, program = read.state, "eXtreme Gammon" if "eXtreme Gammon" in text else "a position export"
    pid = _GNU_POSITION_ID.search(text)
    if pid:
        program = "BGBlitz"
        where = text.count("\n", 0, pid.start()) + 1
        try:
            agrees = position_ids.decode_gnubg(pid.group(1), state.turn) == state.layout
        except StateError as exc:
            raise DataError(path, where, str(exc)) from None
        if not agrees:
            raise DataError(path, where, f"Position-ID {pid.group(1)} and the XGID describe different positions")
    return replace(read, source=f"{program} {path}")


def _from_file(path: Path, given: Given) -> Position:
    if path.suffix.lower() in POSITION_FILES:
        state, has_context = read_position(path, given.turn)
        if not has_context:
            state = replace(state, context=default_context(state.layout))
        return Position(state, source=f"position file {path}")
    return _from_export(path)


def _from_case(case_id: str, cases: tuple[Path, ...]) -> State:
    loaded = load(cases) if cases else shipped()
    ids = {c.id: c for c in loaded.cases}
    if case_id not in ids:
        near = difflib.get_close_matches(case_id, ids, n=1)
        hint = f" (did you mean {near[0]}?)" if near else ""
        where = "in the files given" if cases else "among the shipped cases"
        raise AskError(f"--case {shortened(case_id, 60)!r}: no case with this ID {where}{hint}")
    return ids[case_id].state


def read(position: str | None, case_id: str | None, cases: tuple[Path, ...], given: Given) -> Question:
    """The question the command line asks: the position, then the turn given on top of it."""
    return read_with_options(position, case_id, cases, given)[0]


def read_with_options(
    position: str | None, case_id: str | None, cases: tuple[Path, ...], given: Given
) -> tuple[Question, dict[str, bool]]:
    """read(), and the options of the rules the position records (an XGID's money-play Jacoby and beavers)."""
    if (position is None) == (case_id is None):
        raise AskError("give a position (an ID or a file) or --case ID, one of the two")
    if case_id is not None:
        state = _from_case(case_id, cases)
        read_as = Position(state, state.turn is None, f"case {case_id}")
    elif Path(position).is_file() or Path(position).suffix.lower() in POSITION_FILES:
        read_as = _from_file(Path(position), given)
    else:
        read_as = _from_id(position.strip(), given)
    state, no_turn, source = read_as.state, read_as.no_turn, read_as.source
    if no_turn and given.turn is None:
        raise AskError(f"{shortened(source, 60)}: no side on roll in the position: give --turn")
    if not no_turn and given.turn not in (None, state.turn):
        raise AskError(f"--turn {given.turn}: {shortened(source, 60)} has {state.turn} on roll")
    constructed = case_id is not None and given == Given()  # a case's own state, as the case states it
    question = Question(_given(replace(state, turn=given.turn or state.turn), given), source, constructed)
    return question, dict(read_as.options)


def _given(state: State, given: Given) -> State:
    """`state` with what the command line gives on top: the side on roll, the dice, the turn context, a segment."""
    turn = state.turn
    if given.dice is not None:
        if len(given.dice) != 2:
            raise AskError(f"--dice: a roll is two dice, not {len(given.dice)}")
        state = replace(state, dice=given.dice)
    context = state.context
    for name in ("first_turn", "rolls_in_game", "head_moves"):
        value = getattr(given, name)
        if value is not None:
            context = replace(context, **{name: value})
    if given.segment is not None and given.passed is not None:
        raise AskError("--segment and --passed: a segment is the owner's own numbers or passed ones, not both")
    if given.segment is not None:
        state = replace(state, segment=Segment(turn, given.segment))
    elif given.passed is not None:
        state = replace(state, segment=Segment(other(turn), given.passed, passed=True))
    if state.segment is not None and state.segment.player != turn:
        raise AskError(f"segment: it is {state.segment.player}'s to play, but the side on roll is {turn}")
    if given.head_moves is not None and given.head_moves > 2:
        raise AskError(f"--head-moves {given.head_moves}: at most 2 checkers leave the head in a turn")
    return replace(state, context=context)
