"""A deliberately simple, brute-force enumerator of legal plays in the Narde family: a test oracle.

It shares no code with the reference engine.  It follows the rules of spec/narde.md and
spec/crazy-narde.md literally, reading the switch values of the request, and is written to be read,
not to be fast.  A Narde turn is one segment (`legal_results`); a Crazy Narde turn may have several.

One segment (cn.turns.segments) is played like one Narde roll:

1. for every ordering of the segment's numbers and every choice of checker for each number, move one
   checker forward by that number when the single-move rules allow it (`step`: closed points, the
   frozen home board, the bear-off rules), and keep every prefix of every sequence with its end
   position, the numbers used, its head departures, and whether every position on the way was free
   of a forbidden six-block;
2. drop the whole plays a turn rule forbids: the head limit (`head_allowance`) and the six-block ban
   (`banned-within-turn`: every position on the way; `banned-after-turn`: the end position);
3. apply the full-move rule within the segment: as many numbers as possible; with two different
   numbers of which only one can be used, the higher when it can be.

What follows a segment (`next_segment`) is read from the numbers the kept plays leave unused, which
are the same for every kept play, and from the switches `doubles` and `unplayable`.  `chain_results`
plays a whole turn, segment after segment.

A position in which the game is over (one side has borne off all fifteen; under draw = both-blocked,
both sides walled in) ends a play at once: the walk does not go on from it (cn.end.win,
cn.draw.both-blocked), and nothing follows the segment.  For a win this changes no set of plays (no
checker is left to play on); a play that a draw ends counts the numbers it used, like any other, for
the full-move rule, as the spec decides (cn.draw.both-blocked).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations

from gammonspec.model.rulesets import Rules
from gammonspec.model.state import Layout, Segment, TurnContext, mirror, other

HEAD = 24
CHECKERS = 15
UNLIMITED = 99


class Undetermined(Exception):
    """What follows the segment depends on the play chosen (some plays end the game, others do not)."""


def numbers_of(dice: tuple[int, int]) -> list[int]:
    """The numbers of a roll: a double is four equal numbers."""
    a, b = dice
    return [a] * 4 if a == b else [a, b]


def all_home(mine: tuple[int, ...]) -> bool:
    """No checker of mine stands on points 7-24 (borne-off checkers count as home)."""
    return sum(mine[6:]) == 0


def step(game: str, mine: tuple[int, ...], off: int, theirs: tuple[int, ...], p: int, n: int, rules: Rules):
    """Move one of my checkers from my point p by n: the new (mine, off), or None if not allowed."""
    if mine[p - 1] == 0:
        return None
    home = all_home(mine)  # judged before this single move
    if rules["home-frozen"] == "frozen" and p <= 6 and not home:
        return None  # a home checker stays put until all fifteen are home (cn.home.frozen)
    to = p - n
    exact_only = rules["bear-off"] == "exact-only"
    if exact_only and home and to != 0:
        return None  # all home: only an exact bear-off, no move inside home (cn.bearoff.exact-only)
    new = list(mine)
    new[p - 1] -= 1
    if to >= 1:
        if theirs[mirror(game, to) - 1] > 0:  # one opposing checker closes a point
            return None
        new[to - 1] += 1
        return tuple(new), off
    if not home:  # bearing off only with all fifteen home
        return None
    if to < 0:
        if exact_only:
            return None
        if any(mine[q - 1] for q in range(p + 1, 7)):  # a higher number: only from the highest point
            return None
    return tuple(new), off + 1


@lru_cache(maxsize=1 << 18)  # the same position is met again and again
def forbidden_block(game: str, mine: tuple[int, ...], theirs: tuple[int, ...]) -> bool:
    """Six consecutive points held (in the opponent's numbering) with no opposing checker ahead."""
    if 24 - mine.count(0) < 6:
        return False  # fewer than six points held
    held = {mirror(game, p) for p in range(1, 25) if mine[p - 1]}
    front = next((q for q in range(1, 25) if theirs[q - 1]), 25)  # the opponent's checker nearest its home
    run = 0
    for q in range(1, 25):  # q: the opponent's point, run: held points up to q
        run = run + 1 if q in held else 0
        if run >= 6 and q - 5 <= front:  # the block q-5..q, no opposing checker on the points below q-5
            return True
    return False


def walled_in(mine: tuple[int, ...]) -> bool:
    """A checker on each of my points 1-6 and one on my points 19-24 (cn.draw.both-blocked)."""
    return all(mine[q - 1] for q in range(1, 7)) and any(mine[q - 1] for q in range(19, 25))


def game_over(mine: tuple[int, ...], off: int, theirs: tuple[int, ...], their_off: int, rules: Rules) -> bool:
    if off == CHECKERS or their_off == CHECKERS:
        return True
    return rules["draw"] == "both-blocked" and walled_in(theirs) and walled_in(mine)


def head_allowance(dice: tuple[int, int], context: TurnContext, rules: Rules, passed: bool) -> int:
    """How many checkers may still leave the head in this segment."""
    if rules["head-rule"] == "none":
        return UNLIMITED
    if passed:  # cn.unplayable.head-rule: one, no exception, the owner's count not charged
        return 1
    exception = rules["head-exception"]
    double = dice[0] == dice[1]
    two = (exception == "first-turn-3-4-6" and context.first_turn and double and dice[0] in (3, 4, 6)) or (
        exception == "game-first-roll" and context.rolls_in_game == 0
    )
    return (2 if two else 1) - context.head_moves


def all_plays(
    game: str,
    mine,
    off,
    theirs,
    their_off,
    numbers: list[int],
    rules: Rules,
    stop_at_end: bool = True,
    head_limit: int | None = None,
) -> set:
    """Every (end mine, end off, numbers used, head departures, every position block-free) reachable.

    With stop_at_end (the rule), no move is made from a position in which the game is over.  With a
    head_limit, a sequence the turn rules drop is not walked on, as every sequence that extends it is
    dropped too: more than head_limit head departures, or (banned-within-turn) a forbidden block on
    the way.  Block-freedom is only judged under banned-within-turn (elsewhere it is left True)."""
    plays: set = set()
    walked: set = set()
    judge_blocks = rules["six-block"] == "banned-within-turn"
    prune = head_limit is not None

    def walk(mine, off, used, heads, clean, rest):
        if prune and (heads > head_limit or not clean):
            return
        play = (mine, off, used, heads, clean)
        if not rest:
            plays.add(play)
            return
        if (play, rest) in walked:
            return
        walked.add((play, rest))
        plays.add(play)
        if stop_at_end and game_over(mine, off, theirs, their_off, rules):
            return
        for p in range(1, 25):
            if not mine[p - 1]:
                continue  # no checker of mine there (step would say so too)
            moved = step(game, mine, off, theirs, p, rest[0], rules)
            if moved:
                new_mine, new_off = moved
                new_clean = clean and not (judge_blocks and forbidden_block(game, new_mine, theirs))
                walk(new_mine, new_off, used + (rest[0],), heads + (p == HEAD), new_clean, rest[1:])

    for order in set(permutations(numbers)):
        walk(mine, off, (), 0, True, order)
    return plays


SEGMENTS: dict = {}  # kept_plays' answers: a segment's search depends only on the key it is filed under
SEGMENTS_KEPT = 400_000  # forgotten all at once beyond this many (a bound on memory, not on correctness)


def kept_plays(layout: Layout, side: str, numbers, dice, context: TurnContext, rules: Rules, passed: bool) -> tuple:
    """The plays of the segment that the turn rules and the full-move rule keep: (mine, off, used, heads).

    The roll, the turn context and `passed` enter only through the head allowance, so the answer is
    remembered by (position, side, numbers, head allowance, switches): perft meets the same segment
    in many turns."""
    limit = head_allowance(tuple(dice), context, rules, passed)
    key = (layout, side, tuple(numbers), limit, tuple(sorted(rules.switches.items())))
    if key not in SEGMENTS:
        if len(SEGMENTS) >= SEGMENTS_KEPT:
            SEGMENTS.clear()
        SEGMENTS[key] = segment_plays(layout, side, numbers, limit, rules)
    return SEGMENTS[key]


def segment_plays(layout: Layout, side: str, numbers, limit: int, rules: Rules) -> tuple:
    """kept_plays, searched: the plays kept under at most `limit` head departures."""
    game = layout.game
    me = 0 if side == "white" else 1
    mine, theirs = layout.points(side), layout.points(other(side))
    off, their_off = layout.off[me], layout.off[1 - me]
    block_rule = rules["six-block"]

    def allowed(play) -> bool:
        end, _, _, heads, clean = play
        if heads > limit:
            return False
        if block_rule == "banned-within-turn" and not clean:
            return False
        if block_rule == "banned-after-turn" and forbidden_block(game, end, theirs):
            return False
        return True

    walked = all_plays(game, mine, off, theirs, their_off, list(numbers), rules, head_limit=limit)
    ok = [t for t in walked if allowed(t)]
    if not ok:  # the context has used more head moves than the turn allows: nothing is played
        return ((mine, off, (), 0),)
    most = max(len(t[2]) for t in ok)
    kept = [t for t in ok if len(t[2]) == most]
    if most == 1 and len(numbers) == 2 and numbers[0] != numbers[1]:
        higher = [t for t in kept if t[2][0] == max(numbers)]
        kept = higher or kept
    return tuple((t[0], t[1], t[2], t[3]) for t in kept)


def draw_in_segment(layout: Layout, side: str, numbers, rules: Rules) -> bool:
    """Whether some sequence of single moves of the segment reaches a drawn position (both sides walled in)."""
    mine, theirs = layout.points(side), layout.points(other(side))
    if rules["draw"] != "both-blocked" or not walled_in(theirs) or not any(mine[q - 1] for q in range(19, 25)):
        return False  # the opponent does not move in the segment; the mover never leaves its 19-24 here
    me = 0 if side == "white" else 1
    plays = all_plays(
        layout.game, mine, layout.off[me], theirs, layout.off[1 - me], list(numbers), rules, stop_at_end=False
    )
    return any(walled_in(play[0]) for play in plays)


def result_layout(layout: Layout, side: str, end, end_off) -> Layout:
    me = 0 if side == "white" else 1
    theirs = layout.points(other(side))
    white, black = (end, theirs) if me == 0 else (theirs, end)
    offs = (end_off, layout.off[1]) if me == 0 else (layout.off[0], end_off)
    return Layout(layout.game, white, black, layout.bar, offs)


def segment_results(
    layout: Layout, side: str, numbers, dice, context: TurnContext, rules: Rules, passed: bool
) -> set[str]:
    """The Layout.key() texts of every position a legal play of the segment leaves."""
    return {
        result_layout(layout, side, t[0], t[1]).key()
        for t in kept_plays(layout, side, numbers, dice, context, rules, passed)
    }


def legal_results(layout: Layout, side: str, dice: tuple[int, int], context: TurnContext, rules: Rules) -> set[str]:
    """The Layout.key() texts of every position a legal play of a fresh roll leaves (a whole Narde turn,
    or a Crazy Narde turn's first segment)."""
    return segment_results(layout, side, numbers_of(dice), dice, context, rules, passed=False)


def unplayed(numbers, kept: list) -> tuple[int, ...]:
    """The numbers the kept plays leave unused (the same for every kept play)."""
    left = set()
    for play in kept:
        rest = list(numbers)
        for n in play[2]:
            rest.remove(n)
        left.add(tuple(rest))
    assert len(left) == 1, f"kept plays leave different numbers unused: {left}"
    return left.pop()


def chain_active(dice, context: TurnContext, rules: Rules) -> bool:
    """Whether the turn's roll starts a chain of doubles (cn.doubles.chain, cn.doubles.first-three-rolls)."""
    if dice[0] != dice[1]:
        return False
    if rules["doubles"] == "chain":
        return True
    if rules["doubles"] == "chain-after-three-rolls":
        return context.rolls_in_game >= 3
    return False


def following(numbers, kept: list, dice, context: TurnContext, rules: Rules, owner: str, passed: bool):
    """What follows a segment whose kept plays are `kept`, while the game goes on."""
    left = unplayed(list(numbers), kept)
    value = numbers[0]  # the double of the chain that this segment belongs to (when there is a chain)
    if not passed and left:
        if rules["unplayable"] == "opponent-plays":
            return (owner, left, True)  # cn.unplayable.opponent-plays
        return None  # lost; in a chain the rest of the turn is lost too (cn.unplayable.lost-ends-chain)
    if chain_active(dice, context, rules) and value < 6:
        return (owner, (value + 1,) * 4, False)  # cn.doubles.chain, cn.chain.returns
    return None  # no chain, or 6-6 played: the turn ends


def ends_game(layout: Layout, side: str, play, rules: Rules) -> bool:
    """Whether the kept play (mine, off, ...) of `side` from `layout` leaves a finished game."""
    me = 0 if side == "white" else 1
    return game_over(play[0], play[1], layout.points(other(side)), layout.off[1 - me], rules)


def next_segment(
    layout: Layout, side: str, numbers, dice, context: TurnContext, rules: Rules, owner: str, passed: bool
):
    """What follows the segment: (owner, numbers, passed), or None when the turn ends.

    When every legal play ends the game, nothing follows (cn.end.win, cn.draw.both-blocked); when only
    some do and the turn would go on, the answer depends on the play: Undetermined."""
    kept = kept_plays(layout, side, numbers, dice, context, rules, passed)
    ends = {ends_game(layout, side, play, rules) for play in kept}
    if ends == {True}:
        return None
    follow = following(numbers, kept, dice, context, rules, owner, passed)
    if follow is not None and True in ends:
        raise Undetermined("some legal plays of the segment end the game and others go on")
    return follow


def chain_results(layout: Layout, owner: str, dice, context: TurnContext, rules: Rules) -> set[str]:
    """The positions a whole turn (every segment, the chain and handed-over numbers) can leave."""
    finals: set[str] = set()
    seen: set = set()
    todo = [(layout, context.head_moves, (owner, tuple(numbers_of(dice)), False))]
    while todo:
        item = todo.pop()
        if item in seen:
            continue
        seen.add(item)
        here, heads_so_far, (seg_owner, numbers, passed) = item
        side = other(seg_owner) if passed else seg_owner
        ctx = TurnContext(context.first_turn, context.rolls_in_game, heads_so_far)
        kept = kept_plays(here, side, numbers, dice, ctx, rules, passed)
        follow = following(numbers, kept, dice, ctx, rules, seg_owner, passed)
        for play in kept:
            after = result_layout(here, side, play[0], play[1])
            if follow is None or ends_game(here, side, play, rules):
                finals.add(after.key())
            else:
                todo.append((after, heads_so_far if passed else heads_so_far + play[3], follow))
    return finals


def as_segment(value) -> Segment | None:
    """The tuple form of next_segment as a conformance Segment (for comparisons)."""
    if value is None:
        return None
    owner, numbers, passed = value
    return Segment(owner, tuple(numbers), passed)
