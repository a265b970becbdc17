"""Scenario cases: a scripted game (openings, turns and their segments, doubles, results, the match).

The harness, not the engine, keeps the game state between steps: positions follow from the
scripted plays, and whose turn it is, first turns, rolls played, head moves, the cube and the
match follow from the script and its expectations.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from gammonspec.conformance.harness.steps import Step, expected_next, play_name, plays_step, resolve, result_step
from gammonspec.model.interface import GameResult
from gammonspec.model.state import (
    CHECKERS,
    Cube,
    Layout,
    Match,
    Segment,
    Side,
    State,
    TurnContext,
    head_moves,
    other,
    start_layout,
)
from gammonspec.model.yamlio import DataError, LineDict, locate


@dataclass
class _Walk:
    """The game as a scenario script leaves it, step by step; the harness's own bookkeeping, never the engine's."""

    raw: LineDict
    path: Path
    layout: Layout
    turn: Side | None
    cube: Cube
    match: Match
    played: set[str]  # sides that have had a turn this game
    rolls: int  # rolls played this game
    hitting: bool | None  # the switch the case pins (None: as the game's rulesets have it)
    pending: Segment | None = None  # the segment the next step must play
    roll: tuple[int, ...] = ()
    head: int = 0  # checkers the owner took off the head this turn
    result: GameResult | None = None  # how the current game ended, as the script says
    game_number: int = 1

    index: int = 0  # the step being walked (0-based)

    def fail(self, line: int | None, message: str) -> DataError:
        return DataError(self.path, line, f"case {self.raw['id']}: step {self.index + 1}: {message}")

    def state(self, player: Side, context: TurnContext | None = None) -> State:
        context = context or TurnContext(player not in self.played, self.rolls)
        return State(self.layout, player, self.roll, context, self.cube, self.pending, self.match)

    def opening(self, step: LineDict, at: list[Any], expect: dict[str, Any], line: int) -> Step:
        if set(expect) - {"starts", "dice", "cube"}:
            raise self.fail(locate(self.raw, *at, "expect"), "an opening step expects starts, dice and cube")
        if step.get("game_number", self.game_number) != self.game_number:
            raise self.fail(
                locate(self.raw, *at, "game_number"),
                f"this is game {self.game_number} of the scenario (next_game starts the next one)",
            )
        opening = {
            "dice": dict(step["opening"]),
            "game_number": self.game_number,
            "previous_winner": step.get("previous_winner"),
        }
        checked = Step("opening", self.state(self.turn or "white"), expect, line, opening=opening)
        self.turn = expect.get("starts", self.turn)
        if "cube" in expect:
            self.cube = Cube.from_wire(expect["cube"])
        return checked

    def play(self, step: LineDict, at: list[Any], expect: dict[str, Any], line: int) -> Step:
        if "roll" in step:
            self.roll, self.head = tuple(step["roll"]), 0
        pending = self.pending
        owner = pending.owner if pending else self.turn
        passed = bool(pending and pending.passed)
        player = pending.player if pending else self.turn
        context = TurnContext(player not in self.played, self.rolls, 0 if passed else self.head)
        checked = plays_step(self.raw, at, expect, self.state(player, context), line, self.path, self.hitting)
        if "play" in step:
            known = {**checked.expected["includes"], **checked.expected["plays"]}  # the plays expect resolved
            name = play_name(step["play"])
            played_to = known.get(name)
            if played_to is None:
                made = resolve(self.raw, [*at, "play"], [step["play"]], checked.state, self.path, self.hitting)
                played_to = made[name]
            checked = replace(checked, play=(name, played_to))
            self.head += 0 if passed else head_moves(self.layout, played_to, player)
            self.layout = played_to
        elif not expect.get("no_play"):
            raise self.fail(line, "a turn needs the 'play' made (or expect no_play)")
        if "next" in step:
            if step["next"] is not None and self.layout.borne_off(player) == CHECKERS:
                raise self.fail(
                    locate(self.raw, *at, "next"),
                    "the play bears off the last checker: the game is over, nothing comes next",
                )
            checked = replace(checked, check_next=True, next=expected_next(step["next"], owner))
        self.pending = checked.next if checked.check_next else None
        if self.pending is None:
            self.played.add(owner)
            self.rolls += 1
            self.turn, self.roll = other(owner), ()
        return checked

    def double(self, step: LineDict, at: list[Any], expect: dict[str, Any], line: int) -> Step:
        if set(expect) - {"legal", "cube", "result"} or not expect:
            raise self.fail(locate(self.raw, *at, "expect"), "a double step expects legal, cube or result")
        checked = Step("double", self.state(self.turn), expect, line, response=step["double"])
        if "cube" in expect:
            self.cube = Cube.from_wire(expect["cube"])
        if "result" in expect:
            self.result = GameResult.from_wire(expect["result"])
        return checked

    def next_game(self, step: LineDict, at: list[Any], expect: dict[str, Any], line: int) -> Step:
        if self.result is None:
            raise self.fail(line, "next_game needs the game's result first (a result check or a dropped double)")
        checked = Step("next-game", self.state(self.turn or "white"), expect, line, outcome=self.result)
        score = expect.get("score", {})
        self.match = Match(
            self.match.length, (score.get("white", 0), score.get("black", 0)), expect.get("crawford", False)
        )
        if expect.get("winner") is None and self.match.length and max(self.match.score) >= self.match.length:
            raise self.fail(line, "the expected score ends the match: give its winner")
        self.layout, self.turn, self.cube = start_layout(self.layout.game), None, Cube()
        self.played, self.rolls, self.result = set(), 0, None
        self.game_number += 1
        return checked

    def step(self, i: int, step: LineDict) -> Step:
        """One step, checked; an error in it names the step."""
        self.index = i
        try:
            return self._step(i, step)
        except DataError as exc:
            prefix = f"case {self.raw['id']}: "
            if exc.message.startswith(prefix) and not exc.message.startswith(f"{prefix}step "):
                raise DataError(exc.path, exc.line, f"{prefix}step {i + 1}: {exc.message[len(prefix) :]}") from None
            raise

    def _step(self, i: int, step: LineDict) -> Step:
        at, line = ["steps", i], self.raw["steps"].item_lines[i]
        expect = dict(step.get("expect", {}))
        if "opening" in step:
            return self.opening(step, at, expect, line)
        if "next_game" in step:
            return self.next_game(step, at, expect, line)
        if self.turn is None:
            raise self.fail(line, "nobody is on roll yet (start with an opening step or give 'turn')")
        if self.pending is not None and "numbers" not in step and "may_double" not in step:
            raise self.fail(
                line,
                f"the turn goes on: {self.pending.player} plays {list(self.pending.numbers)} (a 'numbers' step)",
            )
        if "numbers" in step and self.pending is None:
            raise self.fail(
                locate(self.raw, *at, "numbers"),
                "no segment is due here: a 'numbers' step follows a step whose 'next' names its numbers",
            )
        if "numbers" in step and sorted(step["numbers"]) != sorted(self.pending.numbers):
            raise self.fail(
                locate(self.raw, *at, "numbers"),
                f"the segment due is {list(self.pending.numbers)} ({self.pending.player} to play), not {step['numbers']}",
            )
        player = self.pending.player if self.pending else self.turn
        if step.get("turn", player) != player:
            raise self.fail(locate(self.raw, *at, "turn"), f"it is {player}'s turn, not {step['turn']}'s")
        if "roll" in step or "numbers" in step:
            return self.play(step, at, expect, line)
        if "double" in step:
            return self.double(step, at, expect, line)
        if "may_double" in step:
            return Step("may-double", self.state(player), {"may_double": step["may_double"]}, line)
        checked = result_step(self.raw, at, expect, self.state(self.turn), line, self.path)
        self.result = GameResult.from_wire(expect["result"]) if "result" in expect else None
        return checked


def walk(raw: LineDict, first: State, path: Path, hitting: bool | None) -> list[Step]:
    """Walk a scripted sequence: the harness keeps the state; each step checks the engine on it.

    A `roll` starts a turn; while a step's `next` names a segment, the turn goes on with a
    `numbers` step for it; otherwise the other side is on roll.  `next_game` moves a match on."""
    played = set() if first.context.first_turn else {"white", "black"}
    walk = _Walk(
        raw, path, first.layout, first.turn, first.cube, first.match, played, first.context.rolls_in_game, hitting
    )
    steps = [walk.step(i, step) for i, step in enumerate(raw["steps"])]
    if walk.pending is not None:
        raise DataError(
            path, raw.line, f"case {raw['id']}: the scenario stops in the middle of a turn ({walk.pending} is due)"
        )
    return steps
