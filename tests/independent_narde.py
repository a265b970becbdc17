"""A deliberately simple, brute-force enumerator of legal Narde plays: a test oracle.

It shares no code with the reference engine.  It follows the rules literally and is written to be
read, not to be fast:

1. expand the roll into numbers (a double is four equal numbers);
2. for every ordering of the numbers and every choice of checker for each number, move one checker
   forward by that number when a single-step rule allows it, and keep every prefix of every sequence
   (with its end position, the numbers used, its head departures, and whether every position on the
   way was free of a forbidden six-block);
3. drop the whole turns a turn rule forbids (head rule, six-block);
4. apply the full-move rule (most dice; with one die of two different, the higher when possible).

The legal results are the distinct end positions of the turns that remain, as `Layout.key()` texts;
when nothing can be played the result is the unchanged position.

The only memoisation: a walk is not repeated from a state (position, numbers used, head departures,
block flag, numbers still to play) already walked.  Everything the turn rules look at is in that
state, so the result cannot change.
"""

from __future__ import annotations

from itertools import permutations

from gammonspec.conformance.rules import Rules
from gammonspec.conformance.state import Layout, TurnContext, mirror

HEAD = 24


def numbers_of(dice: tuple[int, int]) -> list[int]:
    a, b = dice
    return [a] * 4 if a == b else [a, b]


def all_home(mine: tuple[int, ...]) -> bool:
    """Every checker still on the board stands on points 1-6."""
    return sum(mine[6:]) == 0


def step(game: str, mine: tuple[int, ...], off: int, theirs: tuple[int, ...], p: int, n: int):
    """Move one of my checkers from my point p by n: the new (mine, off), or None if not allowed."""
    if mine[p - 1] == 0:
        return None
    to = p - n
    new = list(mine)
    new[p - 1] -= 1
    if to >= 1:
        if theirs[mirror(game, to) - 1] > 0:  # one opposing checker closes a point
            return None
        new[to - 1] += 1
        return tuple(new), off
    if not all_home(mine):  # bearing off only with all fifteen home
        return None
    if to < 0 and any(mine[q - 1] for q in range(p + 1, 7)):  # a higher number: only from the highest point
        return None
    return tuple(new), off + 1


def forbidden_block(game: str, mine: tuple[int, ...], theirs: tuple[int, ...]) -> bool:
    """Six consecutive points held (in the opponent's numbering) with no opposing checker ahead."""
    held = {mirror(game, p) for p in range(1, 25) if mine[p - 1]}
    for low in range(1, 20):
        if all(q in held for q in range(low, low + 6)) and not any(theirs[q - 1] for q in range(1, low)):
            return True
    return False


def head_limit(dice: tuple[int, int], context: TurnContext, rules: Rules) -> int:
    if rules.switches["head-rule"] == "none":
        return 99
    exception = rules.switches["head-exception"]
    two = (exception == "first-turn-3-4-6" and context.first_turn and dice[0] == dice[1] and dice[0] in (3, 4, 6)) or (
        exception == "game-first-roll" and context.rolls_in_game == 0
    )
    return (2 if two else 1) - context.head_moves


def all_turns(game: str, mine: tuple[int, ...], off: int, theirs: tuple[int, ...], numbers: list[int]) -> set:
    """Every (end mine, end off, numbers used, head departures, every position block-free) reachable."""
    turns: set = set()
    walked: set = set()

    def walk(mine, off, used, heads, clean, rest):
        turns.add((mine, off, used, heads, clean))
        if not rest or (mine, off, used, heads, clean, rest) in walked:
            return
        walked.add((mine, off, used, heads, clean, rest))
        for p in range(1, 25):
            moved = step(game, mine, off, theirs, p, rest[0])
            if moved:
                new_mine, new_off = moved
                new_clean = clean and not forbidden_block(game, new_mine, theirs)
                walk(new_mine, new_off, used + (rest[0],), heads + (p == HEAD), new_clean, rest[1:])

    for order in set(permutations(numbers)):
        walk(mine, off, (), 0, True, order)
    return turns


def legal_results(layout: Layout, side: str, dice: tuple[int, int], context: TurnContext, rules: Rules) -> set[str]:
    game = layout.game
    assert rules.switches["hitting"] == "none" and rules.switches["doubles"] == "four-moves"
    assert rules.switches["bear-off"] == "higher-from-highest" and rules.switches["home-frozen"] == "free"
    me = 0 if side == "white" else 1
    mine, theirs = layout.points(side), layout.points("black" if side == "white" else "white")
    off = layout.off[me]

    limit = head_limit(dice, context, rules)
    block_rule = rules.switches["six-block"]

    def allowed(turn) -> bool:
        end, _, used, heads, clean = turn
        if heads > limit:
            return False
        if block_rule == "banned-after-turn" and forbidden_block(game, end, theirs):
            return False
        if block_rule == "banned-within-turn" and not clean:
            return False
        return True

    ok = [t for t in all_turns(game, mine, off, theirs, numbers_of(dice)) if allowed(t)]
    if not ok:
        return {layout.key()}
    most = max(len(t[2]) for t in ok)
    kept = [t for t in ok if len(t[2]) == most]
    if most == 1 and dice[0] != dice[1]:
        higher = [t for t in kept if t[2][0] == max(dice)]
        kept = higher or kept

    def result(end, end_off) -> str:
        offs = (end_off, layout.off[1]) if me == 0 else (layout.off[0], end_off)
        white, black = (end, theirs) if me == 0 else (theirs, end)
        return Layout(game, white, black, layout.bar, offs).key()

    return {result(t[0], t[1]) for t in kept}
