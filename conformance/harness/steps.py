"""Steps: one query of a case and its expectation, with the plays resolved to positions by the harness."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gammonspec.model.interface import GameResult
from gammonspec.model.notation import NotationError, apply, check_numbers
from gammonspec.model.state import CHECKERS, SIDES, Layout, Segment, Side, State, StateError
from gammonspec.model.yamlio import DataError, LineDict, locate

PLAY_EXPECTATIONS = {"plays", "no_play", "includes", "excludes", "count", "digest", "divide"}
RESULT_EXPECTATIONS = {"result", "not_over"}


def _checkers(spec: dict[Any, int]) -> tuple[tuple[int, ...], int, int | None]:
    points = [0] * 24
    for key, n in spec.items():
        if key not in ("bar", "off"):
            number = key if type(key) is int else int(key) if isinstance(key, str) and key.isdigit() else None
            if number is None or not 1 <= number <= 24:
                raise StateError(f"no point {key!r}: a side's points are 1-24, plus bar and off")
            points[number - 1] = n
    return tuple(points), spec.get("bar", 0), spec.get("off")


def spec_layout(game: str, position: dict[str, dict[Any, int]]) -> Layout:
    """The layout a case file writes as {white: {point: n, bar: n, off: n}, black: ...} (not validated)."""
    sides = {s: _checkers(position[s]) for s in SIDES}
    off = tuple(CHECKERS - sum(sides[s][0]) - sides[s][1] if sides[s][2] is None else sides[s][2] for s in SIDES)
    return Layout(game, sides["white"][0], sides["black"][0], (sides["white"][1], sides["black"][1]), off)


def play_name(play: str | dict[str, Any]) -> str:
    """How a case's play is named: its notation, or for a play given as its resulting position, that position."""
    if isinstance(play, str):
        return play
    sides = (f"{s} {{{', '.join(f'{k}: {n}' for k, n in play['position'][s].items())}}}" for s in SIDES)
    return f"(position {'; '.join(sides)})"


def digest(layouts: Iterable[Layout]) -> str:
    """Digest of a set of positions: sha256 of the sorted canonical keys, one per line; 16 hex digits."""
    text = "\n".join(sorted({layout.key() for layout in layouts}))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Step:
    """One query of a case and its expectation: a single-state case has one, a scenario several.

    kind: "plays" (legal-plays query, then optionally the scripted `play` is made),
    "result" (game-result query), "opening" (who starts, with which numbers), "may-double",
    "double" (a double and its answer) or "next-game" (the match after a game)."""

    kind: str
    state: State
    expect: dict[str, Any]
    line: int
    expected: dict[str, dict[str, Layout]] = field(default_factory=dict)  # plays/includes/excludes -> {play: layout}
    play: tuple[str, Layout] | None = None
    opening: dict[str, Any] | None = None  # {"dice": {...}, "game_number": n, "previous_winner": side | None}
    check_next: bool = False  # also ask what follows this segment, and expect `next`
    next: Segment | None = None
    response: str | None = None  # double steps: take, drop or beaver
    outcome: GameResult | None = None  # next-game steps: how the game ended


def plays_step(
    raw: LineDict, at: list[Any], expect: dict[str, Any], state: State, line: int, path: Path, hitting: bool | None
) -> Step:
    wrong = set(expect) - PLAY_EXPECTATIONS
    if wrong or not expect and not at:
        raise DataError(
            path,
            locate(raw, *at, "expect"),
            f"case {raw['id']}: {', '.join(sorted(wrong))} is not an expectation of legal plays",
        )
    if "plays" in expect and "no_play" in expect:
        raise DataError(path, locate(raw, *at, "expect"), f"case {raw['id']}: give either plays or no_play")
    expected = {
        name: resolve(raw, [*at, "expect", name], expect.get(name, []), state, path, hitting)
        for name in ("plays", "includes")
    }
    expected["excludes"] = resolve(
        raw,
        [*at, "expect", "excludes"],
        [e["play"] for e in expect.get("excludes", [])],
        state,
        path,
        hitting,
        "excluded ",
    )
    if expect.get("no_play"):
        expected["plays"] = {"(no move)": state.layout}
    return Step("plays", state, expect, line, expected)


def result_step(raw: LineDict, at: list[Any], expect: dict[str, Any], state: State, line: int, path: Path) -> Step:
    wrong = set(expect) - RESULT_EXPECTATIONS
    if wrong or not expect:
        raise DataError(
            path, locate(raw, *at, "expect"), f"case {raw['id']}: a game-result check expects result or not_over"
        )
    return Step("result", state, expect, line)


def expected_next(data: dict[str, Any] | None, owner: Side) -> Segment | None:
    """A step's expected next segment (`next: null` ends the turn)."""
    if data is None:
        return None
    return Segment.from_wire({"owner": owner, **data})


def next_spec(segment: Segment | None) -> dict[str, Any] | None:
    """A case's `next` as the file states it (`expected_next` reads it back: the owner is the case's)."""
    return None if segment is None else {"numbers": list(segment.numbers), "passed": segment.passed}


def numbers(state: State) -> tuple[int, ...]:
    """The numbers the side on roll plays now: its segment's, or the roll's (a double four times)."""
    if state.segment is not None:
        return tuple(state.segment.numbers)
    dice = tuple(state.dice)
    return dice * 2 if len(dice) == 2 and dice[0] == dice[1] else dice


def resolve(
    raw: LineDict,
    at: list[Any],
    plays: list[str | dict[str, Any]],
    state: State,
    path: Path,
    hitting: bool | None,
    kind: str = "",
) -> dict[str, Layout]:
    """Each play's resulting layout under the switch `hitting` (None: as the game's rulesets have it); a play
    the board does not allow is a DataError, and so is one whose moves no numbers to play make: a legal play
    must use them, and an excluded one must be a play the numbers could make that a rule forbids (one the dice
    cannot make tests nothing).  A play given as its resulting position (one notation cannot write from these
    numbers, such as an engine's wrong play a draft records) is that position, validated as a case's position."""
    resolved: dict[str, Layout] = {}
    first: dict[Layout, str] = {}  # each position reached, and the first play that reached it
    layout, turn, usable = state.layout, state.turn, numbers(state)
    for i, play in enumerate(plays):
        name = play_name(play)
        try:
            if isinstance(play, str):
                result = apply(layout, turn, play, hitting)
                check_numbers(play, usable)
            else:
                result = spec_layout(layout.game, play["position"])
                result.validate(hitting)
        except (NotationError, StateError) as exc:
            raise DataError(path, locate(raw, *at, i), f"case {raw['id']}: {kind}play {name!r}: {exc}") from None
        twin = first.get(result)
        if twin is not None and at[-1] == "plays":
            raise DataError(
                path,
                locate(raw, *at, i),
                f"case {raw['id']}: {name!r} and {twin!r} reach the same position: list it once",
            )
        resolved[name] = result
        first.setdefault(result, name)
    return resolved
