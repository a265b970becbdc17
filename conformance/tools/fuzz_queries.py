"""The questions `gammonspec fuzz` asks that are not about a position's plays: who opens a game (query opening),
whether the side on roll may double (may-double), a double and its answer (cube-action), and the match after a
game (match-after-game).

Each kind draws what its rules turn on: the cube's value and owner, a match's length, score and Crawford game,
whether the dice are already thrown (the first turn under opening=play-lead-dice) or a turn is under way (a later
segment), the answer take, drop or beaver, the opening dice (ties one time in three), the game's number and the
previous winner, and a game's end (a finished position's result, a dropped double, a draw).  A question is asked
of the engine and of the reference engine alike, and explained and weighed as a position's answers are (fuzz.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from gammonspec.conformance.harness.judges import comparable
from gammonspec.conformance.harness.messages import STEP_QUERIES
from gammonspec.model.interface import CubeOutcome, Engine, GameResult, MatchOutcome, Opening
from gammonspec.model.rulesets import Rules
from gammonspec.model.state import CUBE_VALUES, SIDES, Cube, Match, Side, State, TurnContext, start_layout

ASPECTS = ("opening", "may-double", "double", "next-game")  # case step kinds (messages.STEP_QUERIES)
CAPABILITY = {aspect: STEP_QUERIES[aspect].capability for aspect in ASPECTS}
KINDS = {**CAPABILITY, "cube-result": "game-result"}  # the kinds of question and the capability each asks
RESPONSES = ("take", "drop", "beaver")


@dataclass(frozen=True)
class Question:
    """One such query: its aspect, the state it is about (the cube, the match, the side on roll; the start for an
    opening) and what else the query takes."""

    aspect: str  # "opening", "may-double", "double" or "next-game"
    state: State
    dice: tuple[int, int] = (0, 0)  # an opening's dice: (white's, black's)
    game_number: int = 1
    previous_winner: Side | None = None
    response: str = ""  # a double's answer
    result: GameResult | None = None  # how the game ended, for next-game

    @property
    def game(self) -> str:
        return self.state.game

    def to_wire(self) -> dict[str, Any]:
        """The query's arguments as the protocol carries them."""
        out: dict[str, Any] = {"query": self.aspect, "state": self.state.to_wire()}
        if self.aspect == "opening":
            out |= {"dice": dict(zip(SIDES, self.dice)), "game_number": self.game_number}
            out["previous_winner"] = self.previous_winner
        if self.response:
            out["response"] = self.response
        if self.result is not None:
            out["result"] = self.result.to_wire()
        return out


Asked = State | Question  # a position's state, or a question about the cube, the opening or the match


def answer(engine: Engine, q: Question, rules: Rules) -> Any:
    """The engine's answer to the question, in a form that compares (its exceptions propagate)."""
    s = q.state
    if q.aspect == "opening":
        dice = dict(zip(SIDES, q.dice))
        return comparable(engine.opening(rules, dice, q.game_number, q.previous_winner, s.cube, s.match))
    if q.aspect == "may-double":
        return bool(engine.may_double(s, rules))
    if q.aspect == "double":
        return engine.cube_action(s, rules, q.response)
    assert q.result is not None  # a next-game question is always made with its result
    return engine.match_after_game(s, rules, q.result)


# ---- drawing the questions ------------------------------------------------------------------------


def random_match(rng: random.Random) -> Match:
    """Money play two times in five; else a match of 1 to 11 points, often the Crawford game (a side one away)."""
    if rng.random() < 0.4:
        return Match()
    length = rng.choice((1, 3, 5, 7, 9, 11))
    near = length - 1
    if length > 1 and rng.random() < 0.3:  # the Crawford game itself
        leader, trailer = near, rng.randint(0, near - 1)
        return Match(length, (leader, trailer) if rng.random() < 0.5 else (trailer, leader), True)
    score = tuple(rng.choice((0, near, rng.randint(0, near))) for _ in SIDES)
    crawford = max(score) == near and min(score) < near and rng.random() < 0.5
    return Match(length, (score[0], score[1]), crawford)


def random_cube(rng: random.Random) -> Cube:
    """Centred at 1 half the time; else a higher face, owned by either side (or centred after automatic doubles)."""
    if rng.random() < 0.5:
        return Cube()
    value = rng.choice(CUBE_VALUES[1:])
    return Cube(value, rng.choice((*SIDES, None)))


def _before_roll(rng: random.Random, state: State, rules: Rules) -> State:
    """`state` as the moment to double: the cube, the match, the game's first roll one time in five (the dice
    already thrown under play-lead-dice), a later segment of a turn kept one time in two."""
    rolls = 0 if rng.random() < 0.2 else max(1, state.context.rolls_in_game)
    context = TurnContext(rolls <= 1 and rng.random() < 0.5, rolls, 0)
    segment = state.segment if state.segment is not None and rng.random() < 0.5 else None
    return replace(state, dice=(), context=context, cube=random_cube(rng), match=random_match(rng), segment=segment)


def _taker_near(rng: random.Random, state: State) -> State:
    """Half the time in a match, the taker's score set where the doubled stake would win it the match (a beaver is
    pointless there) and the doubler's where it may still double."""
    match, value = state.match, state.cube.value
    if not match.length or rng.random() < 0.5:
        return state
    taker = min(match.length - 1, max(0, match.length - 2 * value))
    doubler = rng.randint(0, max(0, match.length - value - 1))
    score = (doubler, taker) if state.turn == "white" else (taker, doubler)
    return replace(state, match=Match(match.length, score, False))


def _ending(rng: random.Random, over: State, reference: Engine, rules: Rules) -> GameResult | None:
    """How a game ends: the finished position's result, a dropped double, or (where the rules have draws) a draw."""
    pick = rng.random()
    if pick < 0.2:
        return GameResult(rng.choice(SIDES), "dropped", over.cube.value)
    if pick < 0.3 and rules.switch.draw:
        return GameResult(None, "draw", 0)
    return reference.game_result(over, rules)


def _near_the_end(rng: random.Random, over: State, result: GameResult) -> State:
    """Two times in five in a match, the score before the game set so that its winner reaches one point short of the
    match (the Crawford game next) or the match itself."""
    match = over.match
    if not match.length or result.winner is None or rng.random() >= 0.4:
        return over
    short = rng.choice((1, 0))  # one point short, or the match
    mine = max(0, match.length - short - result.points)
    theirs = rng.randint(0, max(0, match.length - 2))
    score = (mine, theirs) if result.winner == "white" else (theirs, mine)
    return replace(over, match=Match(match.length, score, False))


def questions(
    rng: random.Random,
    rules: Rules,
    positions: Iterator[State],
    segments: Iterator[State] | None,
    ended: Iterator[State],
    reference: Engine,
) -> Iterator[tuple[str, Asked]]:
    """Endless (kind, question) pairs, the kinds in turn: `positions` give the states of games in play, `segments`
    (where the rules have them) later segments of a turn, `ended` finished games, whose result `reference` gives.
    Kind "cube-result" is a finished game's state with a cube and a match, for its result (a game-result query)."""
    while True:
        dice = (d := rng.randint(1, 6), d) if rng.random() < 1 / 3 else (rng.randint(1, 6), rng.randint(1, 6))
        number = rng.choice((1, 1, 2, 3))
        start = State(start_layout(rules.game), "white", match=random_match(rng))
        winner = None if number == 1 else rng.choice((*SIDES, None))
        cube = Cube() if rng.random() < 0.7 else Cube(rng.choice((2, 4)))  # automatic doubles raised it already
        yield "opening", Question("opening", replace(start, cube=cube), dice, number, winner)
        for aspect in ("may-double", "double"):
            source = segments if segments is not None and rng.random() < 0.25 else positions
            state = _before_roll(rng, next(source), rules)
            response = rng.choice(RESPONSES) if aspect == "double" else ""
            yield (
                aspect,
                Question(aspect, _taker_near(rng, state) if response == "beaver" else state, response=response),
            )
        over = replace(next(ended), cube=random_cube(rng), match=random_match(rng))
        yield "cube-result", over
        result = _ending(rng, over, reference, rules)
        if result is not None:
            yield "next-game", Question("next-game", _near_the_end(rng, over, result), result=result)


def shape(value: Any) -> str:
    """An answer in a few words, for a failure no flip explains (fuzz.features)."""
    if isinstance(value, bool):
        return "may double" if value else "may not double"
    if isinstance(value, Opening):
        starts = "a tie" if value.starts is None else f"{value.starts} starts"
        return f"{starts}{' with the lead dice' * (value.dice is not None)}, cube {value.cube.value}"
    if isinstance(value, CubeOutcome):
        if not value.legal:
            return "illegal"
        return f"cube {value.cube.value}" if value.cube is not None else "a dropped game"
    if isinstance(value, MatchOutcome):
        return "the match won" if value.winner else "Crawford next" if value.crawford else "the match goes on"
    return str(value)


def wire(aspect: str, value: Any) -> dict[str, Any]:
    """An answer as the protocol's reply writes it (messages.QUERIES)."""
    return STEP_QUERIES[aspect].reply(value)


def simpler(q: Question) -> Iterator[Question]:
    """Plainer questions than `q`, one change each: the first game, money play, a centred cube, a plain turn."""
    s = q.state
    if q.aspect == "opening" and q.game_number != 1:
        yield replace(q, game_number=1, previous_winner=None)
    if q.aspect == "opening" and q.game_number > 2:
        yield replace(q, game_number=2)
    if s.match != Match():
        yield replace(q, state=replace(s, match=Match()))
    if q.aspect != "next-game" and s.cube != Cube():  # a game's end is scored with its cube
        yield replace(q, state=replace(s, cube=Cube()))
    if s.segment is not None:
        yield replace(q, state=replace(s, segment=None))


def shrink(q: Question, still: Callable[[Question], bool]) -> Question:
    """A question for which `still` holds that no change of `simpler` makes plainer while it holds."""
    for candidate in simpler(q):
        if still(candidate):
            return shrink(candidate, still)
    return q
