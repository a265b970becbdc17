"""Named rule mutants of the reference engine: each breaks one rule function.

The mutation check (tests/mutation.py) requires each to fail cases; they also name the rule an
engine's wrong answer breaks.

Each mutant breaks one rule the way an engine author might get it wrong: it replaces one rule
function of `gammonspec.reference` (or wraps it) for the length of a `with mutant.applied():`
block, and names the rule ID it breaks.  The shipped engine has no mutation code paths; the
patches go where the engine looks its rule functions up (`r.name` in movegen, module globals
elsewhere).  Mutants that no position can tell apart from the rule are left out (a checker
on the bar bearing off: nothing else moves while one is on the bar; a play going on after the
last checker is off; a six-block ban waived for borne-off opponents: a trap needs an opposing
checker on the board behind it; a draw found only after the play: the draw needs the mover's home
board full, home checkers are frozen while one stands in the first quarter, and the walled-in
opponent's home checkers stand ahead of any row, so whatever the mover could still play after the
draw it could have played before it, to the same end).  The patches are the process's: one mutant at a time
is applied (`LOCK`), so threads that apply mutants (a cluster of worker threads) always undo them in the order
they made them and never leave one behind.  A second family reads one switch value as another at the engine's boundary, so
every switch value of every ruleset is needed by some cases.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from itertools import permutations
from typing import Any

import yaml
from gammonspec.conformance.harness.messages import METHODS
from gammonspec.model.interface import CubeOutcome, GameResult, Opening
from gammonspec.model.rulesets import SPEC_DIR, Rules
from gammonspec.model.state import Cube, Segment
from gammonspec.reference import ReferenceEngine, cube, movegen, packed, scoring
from gammonspec.reference import rules as r
from gammonspec.reference.packed import BAR

opening = importlib.import_module("gammonspec.reference.opening")  # the package re-exports a function of that name

Patch = tuple[Any, str, Callable[[Any], Any]]  # (module or class, attribute, original -> replacement)
LOCK = threading.RLock()  # held for the length of each `applied()`: one thread's patches at a time


@dataclass(frozen=True)
class Mutant:
    name: str
    rule: str  # the rule ID (or switch value) it breaks
    target: str  # the function it replaces, as module.function
    patches: tuple[Patch, ...]

    @contextlib.contextmanager
    def applied(self) -> Iterator[None]:
        with LOCK, contextlib.ExitStack() as stack:
            for owner, attr, make in self.patches:
                original = getattr(owner, attr)
                replacement = make(original)
                for where in _holders(owner, attr, original):
                    stack.enter_context(_swap(where, attr, replacement))
            yield


def _holders(owner: Any, attr: str, original: Any) -> list[Any]:
    """`owner` and every reference module that imported the same function under the same name."""
    if isinstance(owner, type):
        return [owner]
    modules = [m for name, m in sys.modules.items() if name.startswith("gammonspec.reference") and m is not owner]
    return [owner, *(m for m in modules if getattr(m, attr, None) is original)]


@contextlib.contextmanager
def _swap(owner: Any, attr: str, value: Any) -> Iterator[None]:
    original = owner.__dict__[attr] if isinstance(owner, type) else getattr(owner, attr)
    setattr(owner, attr, value)
    try:
        yield
    finally:
        setattr(owner, attr, original)


def const(value: Any) -> Callable[[Any], Any]:
    """A replacement that ignores its arguments and returns `value`."""
    return lambda _original: lambda *args, **kwargs: value


def mutant(name: str, rule: str, owner: Any, attr: str, make: Callable[[Any], Any], *more: Patch) -> Mutant:
    module = owner.__name__.rsplit(".", 1)[-1]
    return Mutant(name, rule, f"{module}.{attr}", ((owner, attr, make), *more))


# ---- replacements that need more than one line -------------------------------------------------


def _bear_off_any_higher(original: Any) -> Any:
    def bear_off_allowed(me, source, die, home, m):  # a higher number bears off from any point
        return home and die >= source and (die == source or m.higher_bears_off)

    return bear_off_allowed


def _standard_bear_off(original: Any) -> Any:
    def bear_off_allowed(me, source, die, home, m):  # bear-off=exact-only read as higher-from-highest
        return original(me, source, die, home, replace(m, higher_bears_off=m.higher_bears_off or m.exact_only))

    return bear_off_allowed


def _no_higher_bear_off(original: Any) -> Any:
    def bear_off_allowed(me, source, die, home, m):  # only the exact number, whatever the switch
        return original(me, source, die, home, replace(m, higher_bears_off=False))

    return bear_off_allowed


def _head_any_double(original: Any) -> Any:
    def head_allowance(dice, context, rules, passed=False):  # the first-turn exception for any double
        if rules["head-exception"] == "first-turn-3-4-6" and not passed and context.first_turn:
            if len(dice) == 2 and dice[0] == dice[1]:
                return 2
        return original(dice, context, rules, passed)

    return head_allowance


def _head_any_turn(original: Any) -> Any:
    def head_allowance(dice, context, rules, passed=False):  # 3-3, 4-4, 6-6 lift two on any turn
        return original(dice, replace(context, first_turn=True, rolls_in_game=0), rules, passed)

    return head_allowance


def _head_no_exception(original: Any) -> Any:
    def head_allowance(dice, context, rules, passed=False):
        return min(original(dice, context, rules, passed), 1) if rules["head-rule"] != "none" else 15

    return head_allowance


def _head_passed_exception(original: Any) -> Any:
    def head_allowance(dice, context, rules, passed=False):  # passed numbers get the owner's exception
        return original(dice, context, rules, False)

    return head_allowance


def _block_own_numbering(original: Any) -> Any:
    def six_block_trap(mine, theirs, g):  # contiguity and "ahead" read along the mover's own numbering
        highest = (theirs & packed.EVERY_POINT).bit_length() - 1  # their checker highest in my numbering
        return r.six_in_a_row(mine & packed.EVERY_POINT & ~((2 << max(highest, 0)) - 1))

    return six_block_trap


def _block_edge_ahead(original: Any) -> Any:
    def six_block_trap(mine, theirs, g):  # a checker just behind the row counts as ahead of it
        held, ahead = g.theirs(mine), g.theirs(theirs)
        return r.six_in_a_row(held & (((ahead & -ahead) >> 1) - 1 if ahead else (1 << 25) - 1))

    return six_block_trap


def _block_after_only(original: Any) -> Any:
    def of(rules: Rules) -> r.Movement:  # banned-within-turn checked only on the position the play leaves
        return replace(original(rules), block_within=False)

    return of


def _stuck_order(original: Any) -> Any:
    def legal_positions(me, them, numbers, head_start, rules, g):
        """Each order of the numbers played as far as it goes: the first order that gets stuck is a play,
        instead of only the plays that use the most numbers."""
        moves = movegen.SingleMoves(*movegen.movement(rules), g, me, them, len(numbers))
        ends: dict[r.Position, tuple[int, ...]] = {}

        def go(me, mine, them, rest, head, used):
            moved = False
            if rest:  # step() leaves out the moves the six-block ban forbids, and any once the game has ended
                for new_me, new_mine, new_them, new_head, _ in moves.step([(me, mine, them, head, 0)], rest[0], False):
                    moved = True
                    go(new_me, new_mine, new_them, rest[1:], new_head, (*used, rest[0]))
            if not moved and not (moves.m.block_after and moves.trapped(mine, them)):
                if len(used) >= len(ends.get((me, them), ())):
                    ends[(me, them)] = used

        for order in set(permutations(numbers)):
            go(me, packed.occupied(me), them, order, max(head_start, 0), ())
        if not ends:
            return [(me, them)], ()
        return list(ends), max(ends.values(), key=len)

    return legal_positions


def _either_die(original: Any) -> Any:
    def keep_maximal(used, numbers):  # when only one number can be played, either will do
        if len(numbers) == 2 and numbers[0] != numbers[1]:
            fewest = min(len(left) for lefts in used.values() for left in lefts)
            if fewest == 1:
                best = [pos for pos, lefts in used.items() if any(len(left) == 1 for left in lefts)]
                return best, (max(numbers),)
        return original(used, numbers)

    return keep_maximal


def _chain_from_start(original: Any) -> Any:
    def chain_active(context, rules):  # chain-after-three-rolls read as a chain from the first roll
        return rules["doubles"] in ("chain", "chain-after-three-rolls")

    return chain_active


def _chain_after_two(original: Any) -> Any:
    def chain_active(context, rules):  # the first three rolls counted from the opening roll's next roll
        return original(replace(context, rolls_in_game=context.rolls_in_game + 1), rules)

    return chain_active


def _passed_not_returned(original: Any) -> Any:
    def next_segment(state, rules, results, used):  # after passed numbers the turn ends: the chain does not return
        following = original(state, rules, results, used)
        if state.segment and state.segment.passed:
            return None
        return following

    return next_segment


def _passed_twice(original: Any) -> Any:
    def next_segment(
        state, rules, results, used
    ):  # passed numbers the opponent cannot use go back (cn.unplayable.once)
        following = original(state, rules, results, used)
        if state.segment and state.segment.passed and following is None:
            left = list(state.segment.numbers)
            for n in used:
                left.remove(n)
            if left and not all(scoring.game_over(lay, rules) for lay in results):
                return replace(state.segment, owner=state.segment.player, numbers=tuple(left), passed=True)
        return following

    return next_segment


def _chain_on_partial(original: Any) -> Any:
    def next_segment(state, rules, results, used):  # a double not played in full still goes on to the next double
        following = original(state, rules, results, used)
        numbers = movegen.segment_numbers(state, rules)
        chained = r.next_in_chain((numbers[0],) * 4, state.context, rules) if len(numbers) == 4 else None
        if following is None and chained and not (state.segment and state.segment.passed):
            if not all(scoring.game_over(lay, rules) for lay in results):
                owner = state.segment.owner if state.segment else state.turn
                return replace(state.segment, numbers=chained) if state.segment else Segment(owner, chained)
        return following

    return next_segment


def _head_moves_forgotten(original: Any) -> Any:
    def play_view(state, me, them, rules, g):  # head moves of earlier segments of the turn are not counted
        return original(replace(state, context=replace(state.context, head_moves=0)), me, them, rules, g)

    return play_view


def _bar_not_backgammon(original: Any) -> Any:
    def backgammoned(layout, loser):
        return any(layout.points(loser)[18:24])

    return backgammoned


def _coke_any_game(original: Any) -> Any:
    def win_kind(layout, loser, rules):  # oin-mars scores a coke as well
        if rules["scoring"] == "oin-mars":
            rules = Rules(rules.ruleset, rules.game, {**rules.switches, "scoring": "oin-mars-coke"}, {"coke-value": 3})
        return original(layout, loser, rules)

    return win_kind


def _coke_value_ignored(original: Any) -> Any:
    def win_kind(layout, loser, rules):
        if "coke-value" in rules.options:
            rules = replace(rules, options={**rules.options, "coke-value": 3})
        return original(layout, loser, rules)

    return win_kind


def _no_backgammon(original: Any) -> Any:
    def win_kind(layout, loser, rules):
        kind, points = original(layout, loser, rules)
        return ("gammon", 2) if kind == "backgammon" else (kind, points)

    return win_kind


def _one_walled(original: Any) -> Any:
    def mutual_block(layout):  # a draw when either side's home board is full and the other is in its start
        sides = ("white", "black")
        return (
            any(all(layout.points(s)[:6]) and any(layout.points(o)[18:24]) for s, o in zip(sides, reversed(sides)))
            and scoring.winner(layout) is None
        )

    return mutual_block


def _drop_doubled(original: Any) -> Any:
    def cube_action(state, rules, response):  # a drop pays the doubled stake
        outcome = original(state, rules, response)
        if outcome.result is not None:
            res = outcome.result
            return CubeOutcome(True, result=GameResult(res.winner, res.kind, res.points * 2))
        return outcome

    return cube_action


def _beaver_as_take(original: Any) -> Any:
    def cube_action(state, rules, response):  # a beaver only doubles, like a take
        return original(state, rules, "take" if response == "beaver" else response)

    return cube_action


def _take_centres(original: Any) -> Any:
    def cube_action(state, rules, response):  # a take leaves the cube in the middle
        outcome = original(state, rules, response)
        if outcome.cube is not None:
            return CubeOutcome(True, cube=Cube(outcome.cube.value))
        return outcome

    return cube_action


def _beaver_dead_cube(original: Any) -> Any:
    def may_beaver(state, rules):  # a beaver allowed whatever the score and the ceiling
        return bool(rules.options.get("beavers"))

    return may_beaver


def _crawford_every_time(original: Any) -> Any:
    def next_game_is_crawford(match, score):  # every game after reaching match point is a Crawford game
        return match.length > 0 and not match.crawford and max(score) == match.length - 1

    return next_game_is_crawford


def _draw_scores(original: Any) -> Any:
    def match_after_game(state, rules, result):  # a draw gives each side a point
        if result.winner is None:
            match = state.match
            score = (match.score[0] + 1, match.score[1] + 1)
            return cube.MatchOutcome(score, False, None)
        return original(state, rules, result)

    return match_after_game


def _dead_cube_off_by_one(original: Any) -> Any:
    def stake_wins_match(match, side, stake):  # dead only when the stake would pass the length
        return match.length > 0 and match.points(side) + stake > match.length

    return stake_wins_match


def _auto_double_in_crawford(original: Any) -> Any:
    def automatic_double(cube_, match, rules):
        return bool(rules.options.get("automatic-doubles")) and cube_.value == 1

    return automatic_double


def _auto_double_again(original: Any) -> Any:
    def automatic_double(cube_, match, rules):  # every tie doubles again
        return bool(rules.options.get("automatic-doubles")) and not match.crawford

    return automatic_double


def _lead_dice_rolled_anew(original: Any) -> Any:
    def opening_(rules, dice, game_number, previous_winner, cube_, match):  # the starter always rolls anew
        o = original(rules, dice, game_number, previous_winner, cube_, match)
        return Opening(o.starts, None, o.cube)

    return opening_


def _lead_dice_always(original: Any) -> Any:
    def opening_(rules, dice, game_number, previous_winner, cube_, match):  # the starter always plays the lead dice
        o = original(rules, dice, game_number, previous_winner, cube_, match)
        if o.starts and o.dice is None and dice["white"] != dice["black"]:
            return Opening(o.starts, (max(dice.values()), min(dice.values())), o.cube)
        return o

    return opening_


def _lower_die_starts(original: Any) -> Any:
    def opening_(rules, dice, game_number, previous_winner, cube_, match):  # the lower die starts
        flipped = {"white": dice["black"], "black": dice["white"]}
        return original(rules, flipped, game_number, previous_winner, cube_, match)

    return opening_


# ---- the function mutants ------------------------------------------------------------------------

RULE_MUTANTS: tuple[Mutant, ...] = (
    mutant("double-two-moves", "bg.move.doubles", r, "numbers_to_play", lambda o: lambda dice: tuple(dice)),
    mutant("blot-never-holds", "nd.point.no-hitting", r, "point_closed", lambda o: lambda n, m: n >= 2),
    mutant("blot-closes-point", "bg.move.closed-point", r, "point_closed", lambda o: lambda n, m: n >= 1),
    mutant("no-hitting", "bg.hit.blot", r, "hits_blot", const(False)),
    mutant("bar-ignored", "bg.bar.enter-first", r, "must_enter_first", const(False)),
    mutant("entry-off-by-one", "bg.bar.enter", r, "entry_point", lambda o: lambda die: BAR - die - 1),
    mutant(
        "bear-off-seven-point-home",
        "bg.bearoff.all-home",
        r,
        "all_home",
        lambda o: lambda mine: not mine & packed.OUTSIDE & ~(1 << 7),
    ),
    mutant("higher-bears-off-any-point", "bg.bearoff.higher", r, "bear_off_allowed", _bear_off_any_higher),
    mutant("standard-bear-off-under-exact-only", "cn.bearoff.exact-only", r, "bear_off_allowed", _standard_bear_off),
    mutant("no-higher-bear-off", "bg.bearoff.higher", r, "bear_off_allowed", _no_higher_bear_off),
    mutant(
        "home-not-frozen",
        "cn.home.frozen",
        r,
        "home_checker_frozen",
        lambda o: lambda s, t, home, m: o(s, t, home, replace(m, home_frozen=False)),
    ),
    mutant(
        "exact-only-home-moves-inside",
        "cn.bearoff.exact-only",
        r,
        "home_checker_frozen",
        lambda o: lambda s, t, home, m: o(s, t, home, replace(m, exact_only=False)),
    ),
    mutant("no-head-limit", "nd.head.one-per-turn", r, "head_allowance", const(15)),
    mutant("head-exception-any-double", "nd.head.first-turn", r, "head_allowance", _head_any_double),
    mutant("head-exception-any-turn", "nd.head.first-turn", r, "head_allowance", _head_any_turn),
    mutant("no-head-exception", "nd.head.first-turn", r, "head_allowance", _head_no_exception),
    mutant("passed-numbers-head-exception", "cn.unplayable.head-rule", r, "head_allowance", _head_passed_exception),
    mutant("head-moves-not-counted", "nd.head.one-per-turn", r, "leaves_head", const(False)),
    mutant("head-is-the-23-point", "nd.head.one-per-turn", r, "leaves_head", lambda o: lambda s, m: o(s + 1, m)),
    mutant("no-six-block-ban", "nd.block.six", r, "six_block_trap", const(False)),
    mutant("six-block-own-numbering", "nd.block.six", r, "six_block_trap", _block_own_numbering),
    mutant("six-block-edge-counts-ahead", "nd.block.six", r, "six_block_trap", _block_edge_ahead),
    mutant("six-block-checked-at-end-only", "cn.block.six", r.Movement, "of", _block_after_only),
    mutant("either-die-when-one-playable", "bg.move.higher-die", r, "keep_maximal", _either_die),
    mutant("stuck-order-is-a-play", "nd.move.full-move", movegen, "legal_positions", _stuck_order),
    mutant("chain-from-first-roll", "cn.doubles.first-three-rolls", r, "chain_active", _chain_from_start),
    mutant("chain-after-two-rolls", "cn.doubles.first-three-rolls", r, "chain_active", _chain_after_two),
    mutant("chain-stops-after-one-double", "cn.doubles.chain", r, "next_in_chain", const(None)),
    mutant("passed-numbers-lost", "cn.unplayable.opponent-plays", r, "remainder_passes", const(False)),
    mutant("unplayable-passes-under-lost", "cn.unplayable.opponent-plays", r, "remainder_passes", const(True)),
    mutant("chain-not-returned", "cn.chain.returns", movegen, "next_segment", _passed_not_returned),
    mutant("passed-back-again", "cn.unplayable.once", movegen, "next_segment", _passed_twice),
    mutant(
        "chain-goes-on-after-partial-double",
        "cn.unplayable.lost-ends-chain",
        movegen,
        "next_segment",
        _chain_on_partial,
    ),
    mutant("win-mid-turn-ignored", "cn.end.win", movegen, "game_over", const(False)),
    mutant("earlier-head-moves-forgotten", "nd.head.one-per-turn", movegen, "play_view", _head_moves_forgotten),
    mutant(
        "fourteen-off-wins",
        "bg.object",
        scoring,
        "winner",
        lambda o: lambda lay: next((s for s in ("white", "black") if lay.borne_off(s) >= 14), None),
    ),
    mutant("bar-not-backgammon", "bg.score.backgammon", scoring, "backgammoned", _bar_not_backgammon),
    mutant("coke-scored-as-mars", "nd.score.coke", scoring, "coke", const(False)),
    mutant(
        "coke-one-checker-home",
        "nd.score.coke",
        scoring,
        "coke",
        lambda o: lambda lay, loser, rules: any(lay.points(loser)[18:24]),
    ),
    mutant("coke-under-oin-mars", "nd.score.mars", scoring, "win_kind", _coke_any_game),
    mutant("coke-value-ignored", "nd.score.coke-value", scoring, "win_kind", _coke_value_ignored),
    mutant("no-backgammon", "bg.score.backgammon", scoring, "win_kind", _no_backgammon),
    mutant("draw-one-side-walled", "cn.draw.both-blocked", scoring, "mutual_block", _one_walled),
    mutant("draw-never", "cn.draw.both-blocked", scoring, "mutual_block", const(False)),
    mutant("cube-in-a-game-without-cube", "cn.cube.none", cube, "game_has_cube", const(True)),
    mutant("non-owner-may-double", "bg.cube.owner", cube, "cube_available", const(True)),
    mutant("no-64-ceiling", "bg.cube.faces", cube, "below_ceiling", const(True)),
    mutant("no-crawford-ban", "bg.cube.crawford-game", cube, "crawford_game", const(False)),
    mutant("no-dead-cube-ban", "bg.cube.dead", cube, "stake_wins_match", const(False)),
    mutant("dead-cube-off-by-one", "bg.cube.dead", cube, "stake_wins_match", _dead_cube_off_by_one),
    mutant("double-on-lead-turn", "bg.cube.offer", cube, "dice_already_thrown", const(False)),
    mutant("double-mid-turn", "cn.cube.as-backgammon", cube, "turn_under_way", const(False)),
    mutant("beaver-at-any-score", "bg.option.beavers", cube, "may_beaver", _beaver_dead_cube),
    mutant("beavers-refused", "bg.option.beavers", cube, "may_beaver", const(False)),
    mutant("drop-pays-doubled-stake", "bg.cube.drop", cube, "cube_action", _drop_doubled),
    mutant("beaver-doubles-only", "bg.option.beavers", cube, "cube_action", _beaver_as_take),
    mutant("take-leaves-cube-centred", "bg.cube.take", cube, "cube_action", _take_centres),
    mutant("jacoby-ignored", "bg.option.jacoby", cube, "jacoby", const(False)),
    mutant(
        "jacoby-after-a-double",
        "bg.option.jacoby",
        cube,
        "jacoby",
        lambda o: lambda state, rules: bool(rules.options.get("jacoby")) and state.match.length == 0,
    ),
    mutant("no-crawford-game", "bg.match.crawford", cube, "next_game_is_crawford", const(False)),
    mutant("crawford-every-time", "bg.match.crawford", cube, "next_game_is_crawford", _crawford_every_time),
    mutant("draw-scores-a-point", "cn.draw.match", cube, "match_after_game", _draw_scores),
    mutant("previous-winner-ignored", "nd.opening.next-game", opening, "previous_winner_starts", const(False)),
    mutant(
        "previous-winner-always-starts",
        "bg.opening.every-game",
        opening,
        "previous_winner_starts",
        lambda o: lambda n, prev, rules: n > 1 and prev is not None,
    ),
    mutant("automatic-doubles-ignored", "bg.option.automatic-doubles", opening, "automatic_double", const(False)),
    mutant(
        "automatic-double-every-tie", "bg.option.automatic-doubles", opening, "automatic_double", _auto_double_again
    ),
    mutant(
        "automatic-double-in-crawford",
        "bg.option.automatic-doubles",
        opening,
        "automatic_double",
        _auto_double_in_crawford,
    ),
    mutant("lead-dice-rolled-anew", "nd.opening.lead-dice", opening, "opening", _lead_dice_rolled_anew),
    mutant("winner-plays-lead-dice", "nd.opening.lead-dice", opening, "opening", _lead_dice_always),
    mutant("lower-die-starts", "bg.opening.roll", opening, "opening", _lower_die_starts),
)


# ---- one switch value read as another, at the engine's boundary ------------------------------------

# Left out as equivalent under every ruleset: head-exception=none comes only with head-rule=none.
MISREAD: dict[tuple[str, str], str] = {
    ("hitting", "blots"): "none",
    ("hitting", "none"): "blots",
    ("opening", "play-lead-dice"): "winner-rolls",
    ("opening", "winner-rolls"): "play-lead-dice",
    ("next-game-opener", "opening-roll"): "previous-winner",
    ("next-game-opener", "previous-winner"): "opening-roll",
    ("doubles", "four-moves"): "chain",
    ("doubles", "chain"): "four-moves",
    ("doubles", "chain-after-three-rolls"): "chain",
    ("unplayable", "lost"): "opponent-plays",
    ("unplayable", "opponent-plays"): "lost",
    ("head-rule", "none"): "one-per-turn",
    ("head-rule", "one-per-turn"): "none",
    ("head-exception", "first-turn-3-4-6"): "game-first-roll",
    ("head-exception", "game-first-roll"): "first-turn-3-4-6",
    ("six-block", "allowed"): "banned-after-turn",
    ("six-block", "banned-after-turn"): "banned-within-turn",
    ("six-block", "banned-within-turn"): "banned-after-turn",
    ("bear-off", "higher-from-highest"): "exact-only",
    ("bear-off", "exact-only"): "higher-from-highest",
    ("home-frozen", "free"): "frozen",
    ("home-frozen", "frozen"): "free",
    ("scoring", "single-gammon-backgammon"): "oin-mars",
    ("scoring", "oin-mars-coke"): "oin-mars",
    ("scoring", "oin-mars"): "oin-mars-coke",
    ("draw", "none"): "both-blocked",
    ("draw", "both-blocked"): "none",
    ("cube", "doubling"): "none",
    ("cube", "none"): "doubling",
}


def _misread(switch: str, value: str, instead: str) -> Callable[[Any], Any]:
    def make(method: Any) -> Any:
        def wrapped(self, *args):
            args = tuple(_rules_misread(a, switch, value, instead) for a in args)
            return method(self, *args)

        return wrapped

    return make


def _rules_misread(arg: Any, switch: str, value: str, instead: str) -> Any:
    if not isinstance(arg, Rules) or arg.switches.get(switch) != value:
        return arg
    options = dict(arg.options)
    if instead == "oin-mars-coke":
        options.setdefault("coke-value", 3)
    return replace(arg, switches={**arg.switches, switch: instead}, options=options)


def switch_mutants() -> tuple[Mutant, ...]:
    used = {
        (s, v)
        for path in (SPEC_DIR / "rulesets").glob("*.yaml")
        for s, v in yaml.safe_load(path.read_text())["switches"].items()
    }
    return tuple(
        Mutant(
            f"reads-{switch}={value}-as-{instead}",
            f"switch {switch}={value}",
            "ReferenceEngine (rules at the boundary)",
            tuple((ReferenceEngine, name, _misread(switch, value, instead)) for name in METHODS),
        )
        for (switch, value), instead in MISREAD.items()
        if (switch, value) in used
    )


def all_mutants() -> tuple[Mutant, ...]:
    return RULE_MUTANTS + switch_mutants()


def explaining(answer: object, ask: Callable[[], object], mutants: Iterable[Mutant] | None = None) -> list[Mutant]:
    """The mutants under which `ask()`, a question to the reference engine answered in the form `answer` has,
    gives `answer`: the broken rules that an engine answering so plays as if it had.  A mutant under which the
    question raises explains nothing."""
    found = []
    for m in all_mutants() if mutants is None else mutants:
        with m.applied():
            try:
                given = ask()
            except Exception:  # a broken rule may break the engine's own invariants
                continue
        if given == answer:
            found.append(m)
    return found
