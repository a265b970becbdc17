"""Seeded random states of every game: valid by the state model and reachable as far as it can tell.

The property tests (tests/test_*_independent.py, tests/crosscheck_gnubg.py) and `gammonspec fuzz` draw
their positions here.  Two families of layouts:

* with hitting (switch hitting=blots): the backgammon placements, built in the mover's numbering
  (contact, the mover on the bar against a closing board, bear-off against contact or a race, the last
  few checkers still outside);
* without hitting: one *style* per side (many on the head, mid-game, stragglers, a frozen home, all
  home, a nearly built six-block, a wide board, a few stacks, a walled-in home board for near-draws).

A fuzz *kind* (`KINDS`) turns a layout into a whole state (the side on roll, the roll, the turn
context, a segment) and says which rules it is for, by their switch values.  Every state a kind makes
is checked by `problem` before it is used: the state model's validation, the six-block a ban makes
impossible, and what reachability needs of the turn context (a first turn only from the start, enough
rolls for the pips moved, head moves within the allowance).  The layouts with hitting are drawn in
hitting_layouts.py, those without in styled_layouts.py, and `problem` lives in reachability.py.
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from gammonspec.conformance.tools.hitting_layouts import (
    position_almost_home,
    position_bar,
    position_bearoff,
    position_contact,
    position_one_out,
    position_prime,
    position_race,
)
from gammonspec.conformance.tools.reachability import problem, rolls_for
from gammonspec.conformance.tools.styled_layouts import STYLES, block_edge_layout, styled_layout
from gammonspec.model.rulesets import Rules
from gammonspec.model.state import (
    CHECKERS,
    HEAD,
    SIDES,
    Layout,
    Segment,
    Side,
    State,
    StateError,
    TurnContext,
    other,
    start_layout,
)

Dice = tuple[int, int]


def random_dice(rng: random.Random, doubles: float = 0.25) -> Dice:
    """A roll, doubles more often than 1 in 6 (`doubles`): they are where four-step plays live."""
    if rng.random() < doubles:
        d = rng.randint(1, 6)
        return d, d
    return rng.randint(1, 6), rng.randint(1, 6)


# ---- kinds of states ----------------------------------------------------------------------------

Maker = Callable[[random.Random, Rules], State | None]


@dataclass(frozen=True)
class Kind:
    """A kind of state: how to make one, for which rules (switch -> the values it needs) and what it is."""

    name: str
    make: Maker
    needs: dict[str, tuple[str, ...]]
    summary: str

    def applies(self, rules: Rules) -> bool:
        return all(rules[switch] in values for switch, values in self.needs.items())


HITTING = {"hitting": ("blots",)}
NO_HITTING = {"hitting": ("none",)}


def _mid_game(rng: random.Random, layout: Layout | None, rules: Rules, side: Side) -> State | None:
    if layout is None:
        return None
    return State(layout, side, random_dice(rng), TurnContext(False, rolls_for(rng, layout, rules, side), 0))


def _block_edge(rng: random.Random, rules: Rules) -> State | None:
    side = rng.choice(SIDES)
    layout = next((lay for _ in range(10) if (lay := block_edge_layout(rng, rules.game, side))), None)
    return _mid_game(rng, layout, rules, side)


def _placed(maker: Callable[[random.Random, Side, str], Layout]) -> Maker:
    def make(rng: random.Random, rules: Rules) -> State | None:
        side = rng.choice(SIDES)
        try:
            return _mid_game(rng, maker(rng, side, rules.game), rules, side)
        except StateError:  # checkers of both sides placed on one point: draw again
            return None

    return make


def _styled(style: str) -> Maker:
    """A layout without hitting with one side (at random) in `style`, the other in any style."""

    def make(rng: random.Random, rules: Rules) -> State | None:
        pair = [style, rng.choice(STYLES)]
        rng.shuffle(pair)
        side = rng.choice(SIDES)
        return _mid_game(rng, styled_layout(rng, rules.game, *pair), rules, side)

    return make


def _opening_dice(rng: random.Random, rules: Rules, rolls: int) -> Dice:
    """The first roll of a game: two different numbers when the winner plays the lead dice."""
    if rolls == 0 and rules.switch.opening == "play-lead-dice":
        a, b = rng.sample(range(1, 7), 2)
        return a, b
    return random_dice(rng, 0.4)


def _turn(
    engine_plays: Callable[[State], tuple[list[Layout], Segment | None]], rng: random.Random, state: State
) -> Layout:
    """Play one whole turn from `state` by random legal plays, segment after segment."""
    while True:
        plays, following = engine_plays(state)
        layout = rng.choice(plays)
        if following is None:
            return layout
        turn = following.player
        ctx = state.context
        if following.passed:
            ctx = TurnContext(False, ctx.rolls_in_game, 0)
        state = State(layout, turn, state.dice, ctx, segment=following)


def reference_turns(rules: Rules) -> Callable[[State], tuple[list[Layout], Segment | None]]:
    """The reference engine's plays and next segment, for positions made by playing (not for expectations)."""
    from gammonspec.reference import ReferenceEngine  # the generators need the rules only for playouts

    engine = ReferenceEngine()
    return lambda state: (engine.legal_plays(state, rules), engine.next_segment(state, rules))


def first_turn(rng: random.Random, rules: Rules) -> State | None:
    """The start of a game: the side on roll's first turn, the opponent at the start or after its first roll."""
    layout, side, rolls = start_layout(rules.game), rng.choice(SIDES), 0
    if rng.random() < 0.5:  # the opponent started: it played its first roll
        opener = State(layout, other(side), _opening_dice(rng, rules, 0), TurnContext(True, 0, 0))
        layout, rolls = _turn(reference_turns(rules), rng, opener), 1
    return State(layout, side, _opening_dice(rng, rules, rolls), TurnContext(True, rolls, 0))


def playout(rng: random.Random, rules: Rules) -> Iterator[State]:
    """States of one game of random plays from the start (the plays chosen among the reference engine's)."""
    from gammonspec.reference.scoring import game_over

    turns = reference_turns(rules)
    layout, side = start_layout(rules.game), rng.choice(SIDES)
    fresh = set(SIDES)
    for rolls in range(400):
        if game_over(layout, rules):
            return
        state = State(layout, side, _opening_dice(rng, rules, rolls), TurnContext(side in fresh, rolls, 0))
        yield state
        fresh.discard(side)
        layout, side = _turn(turns, rng, state), other(side)


_GAMES: weakref.WeakKeyDictionary[random.Random, tuple[Rules, Iterator[State]]] = weakref.WeakKeyDictionary()


def _playout_state(rng: random.Random, rules: Rules) -> State | None:
    """The next state of the game being played out with this generator (a new game when it ends)."""
    game = _GAMES.get(rng)
    if game is None or game[0] is not rules:
        _GAMES[rng] = game = (rules, playout(rng, rules))
    state = next(game[1], None)
    if state is None:
        del _GAMES[rng]
    return state


def _chain(rng: random.Random, rules: Rules) -> State | None:
    """A later double of a chain: the roll d-d, the segment e-e-e-e above it, head moves already used."""
    state = _styled(rng.choice(("head", "mid", "wide", "frozen", "home")))(rng, rules)
    if state is None:
        return None
    d = rng.randint(1, 5)
    e = rng.randint(d + 1, 6)
    rolls = state.context.rolls_in_game
    if rules.switch.doubles == "chain-after-three-rolls":
        rolls = max(rolls, 3)
    context = TurnContext(False, rolls, rng.randint(0, 1))
    return State(state.layout, state.turn, (d, d), context, segment=Segment(state.turn, (e,) * 4))


def passed_numbers(rng: random.Random) -> tuple[Dice, tuple[int, ...]]:
    """The owner's roll and the numbers of it passed on: one to four of a double's number (or of a later double of
    its chain), one number of two different ones, or both."""
    shape = rng.choice(["double", "double", "single", "both"])
    if shape == "double":
        d = rng.randint(1, 6)
        e = rng.randint(d, 6)  # from the roll d-d itself or from a later double of its chain
        return (d, d), (e,) * rng.randint(1, 4)
    a, b = rng.sample(range(1, 7), 2)
    return (a, b), ((a,) if shape == "single" else (a, b))


def _passed(rng: random.Random, rules: Rules) -> State | None:
    """Numbers the owner could not play, passed to the other side (asked with no head moves charged)."""
    state = _styled(rng.choice(STYLES))(rng, rules)
    if state is None:
        return None
    owner = other(state.turn)
    dice, numbers = passed_numbers(rng)
    ctx = TurnContext(False, state.context.rolls_in_game, 0)
    return State(state.layout, state.turn, dice, ctx, segment=Segment(owner, numbers, passed=True))


def _passed_at_start(rng: random.Random, rules: Rules) -> State | None:
    """Numbers of a 3-3, 4-4 or 6-6 passed on a first turn, the receiver still at the start: where the owner's
    first-turn head exception must not go with them (cn.unplayable.head-rule)."""
    turn = rng.choice(SIDES)
    owner, d = other(turn), rng.choice((3, 4, 6))
    start = start_layout(rules.game)
    mine = list(start.points(owner))
    for _ in range(rng.randint(1, 2)):  # what the owner played of its double: checkers off its head
        mine[HEAD - 1] -= 1
        mine[HEAD - 1 - d * rng.randint(1, 2)] += 1
    points = {owner: tuple(mine), turn: start.points(turn)}
    layout = Layout(rules.game, points["white"], points["black"], (0, 0), (0, 0))
    segment = Segment(owner, (d,) * rng.randint(2, 3), passed=True)
    return State(layout, turn, (d, d), TurnContext(True, 1, 0), segment=segment)


def _ended(rng: random.Random, rules: Rules) -> State | None:
    """A finished game: the winner has borne off all fifteen, the loser anywhere (for the game's result)."""
    state = (_placed(position_contact) if rules.switch.hitting else _styled(rng.choice(STYLES)))(rng, rules)
    if state is None:
        return None
    lay, winner = state.layout, rng.choice(SIDES)
    empty = (0,) * 24
    white, black = (empty, lay.black) if winner == "white" else (lay.white, empty)
    bar = (0, lay.bar[1]) if winner == "white" else (lay.bar[0], 0)
    off = (CHECKERS, lay.off[1]) if winner == "white" else (lay.off[0], CHECKERS)
    layout = Layout(lay.game, white, black, bar, off)
    return State(
        layout, other(winner), random_dice(rng), TurnContext(False, rolls_for(rng, layout, rules, other(winner)), 0)
    )


KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        Kind("contact", _placed(position_contact), HITTING, "both sides anywhere, blots, some on the bar or off"),
        Kind("bar", _placed(position_bar), HITTING, "the mover on the bar against a partly closed board"),
        Kind("bear-off", _placed(position_bearoff), HITTING, "all home, bearing off against contact or a race"),
        Kind("stragglers", _placed(position_almost_home), HITTING, "one to three checkers still outside home"),
        Kind("one-out", _placed(position_one_out), HITTING, "all home but one, most often on the 7-point"),
        Kind("race", _placed(position_race), HITTING, "no contact left"),
        Kind("prime", _placed(position_prime), HITTING, "back checkers behind a prime of four to six points"),
        Kind("first-turn", first_turn, {}, "a side's first turn: from the start, after the opponent's first roll"),
        Kind("playout", _playout_state, {}, "a position of a game of random legal plays"),
        Kind("head", _styled("head"), NO_HITTING, "many checkers on the head"),
        Kind("mid", _styled("mid"), NO_HITTING, "mid-game"),
        Kind("home", _styled("home"), NO_HITTING, "all home, bearing off"),
        Kind("late", _styled("late"), NO_HITTING, "all but one to three home"),
        Kind("block", _styled("block"), NO_HITTING, "five of six points in a row held, spares behind the gap"),
        Kind(
            "block-edge",
            _block_edge,
            {**NO_HITTING, "six-block": ("banned-after-turn", "banned-within-turn")},
            "five of six in a row, an opposing checker just ahead of the row or just behind it",
        ),
        Kind(
            "head-last",
            _styled("head-last"),
            {**NO_HITTING, "head-rule": ("one-per-turn",)},
            "one or two left on the head",
        ),
        Kind("home-one-out", _styled("one-out"), NO_HITTING, "all home but one, most often on the 7-point"),
        Kind("wide", _styled("wide"), NO_HITTING, "a checker or two on many points"),
        Kind("few", _styled("few"), NO_HITTING, "stacks on one to three points"),
        Kind("frozen", _styled("frozen"), NO_HITTING, "many home, the rest just outside"),
        Kind("near-draw", _styled("walled"), {**NO_HITTING, "draw": ("both-blocked",)}, "a home board walled in"),
        Kind("chain", _chain, {"doubles": ("chain", "chain-after-three-rolls")}, "a later double of a chain"),
        Kind("passed", _passed, {"unplayable": ("opponent-plays",)}, "numbers passed to the opponent"),
        Kind(
            "passed-start",
            _passed_at_start,
            {"unplayable": ("opponent-plays",), "head-rule": ("one-per-turn",)},
            "a first turn's double passed on, the receiver at the start",
        ),
        Kind("ended", _ended, {}, "a finished game, for its result"),
    )
}


def kinds_for(rules: Rules, names: tuple[str, ...] = ()) -> list[Kind]:
    """The kinds that apply to `rules` (of `names`, or all)."""
    return [k for k in KINDS.values() if (not names or k.name in names) and k.applies(rules)]


def states(rng: random.Random, rules: Rules, kinds: list[Kind]) -> Iterator[tuple[str, State]]:
    """Endless (kind, state) pairs, the kinds in turn; every state passes `problem` under `rules`."""
    made = True
    while made:  # ends only when a whole round of kinds made nothing
        made = False
        for kind in kinds:
            for _ in range(50):  # a kind that keeps failing to place its checkers is passed over this round
                state = kind.make(rng, rules)
                if state is not None and not problem(state, rules):
                    made = True
                    yield kind.name, state
                    break
