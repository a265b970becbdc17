"""Chance-aware perft: how many positions a tree of whole turns reaches, roll by roll (spec/perft.md).

A *ply* is one side's whole turn: a roll and everything played on it, every segment of a Crazy
Narde turn included (the chain of doubles, numbers passed to the opponent), up to the moment the
other side rolls.  From a position, `perft(d)` sums over the 21 distinct rolls the distinct
positions the turn can leave, each counted with the perft of depth d - 1 of the position after
it; `weighted` counts each roll as often as it comes up among the 36 outcomes of two dice (a
non-double twice).  At a game's start under `opening: play-lead-dice` the first ply's roll is the
opening roll, which cannot be a double: only the 15 other rolls are summed (30 of 36).

Everything is asked of an engine through the protocol's queries (`legal-plays`, and `next-segment`
where the rules have turns of several segments), so the same walk counts any engine's tree;
`first_difference` compares two engines and bisects down to the first position and roll at which
their plays differ.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from gammonspec.model.interface import Engine
from gammonspec.model.notation import describe
from gammonspec.model.rulesets import Rules, rulesets
from gammonspec.model.state import (
    CHECKERS,
    SIDES,
    Layout,
    Segment,
    Side,
    State,
    TurnContext,
    head_moves,
    other,
    start_layout,
)
from gammonspec.model.validation import compiled

Roll = tuple[int, int]
ROLLS: tuple[Roll, ...] = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))  # 21, higher die first


def weight(roll: Roll) -> int:
    """How many of the 36 outcomes of two dice give this roll."""
    return 1 if roll[0] == roll[1] else 2


@dataclass(frozen=True)
class Node:
    """A position between two turns: the layout, the side about to roll, who has had a turn, rolls played."""

    layout: Layout
    turn: Side
    played: frozenset[Side] = frozenset(SIDES)
    rolls: int = 10

    @classmethod
    def start(cls, game: str) -> Node:
        return cls(start_layout(game), "white", frozenset(), 0)

    @classmethod
    def of(cls, state: State) -> Node:
        """The node of a protocol state (its dice and segment ignored): the side on roll is about to roll."""
        ctx = state.context
        played = frozenset() if ctx.first_turn and not ctx.rolls_in_game else frozenset(SIDES)
        if ctx.first_turn and ctx.rolls_in_game:
            played = frozenset({other(state.turn)})
        return cls(state.layout, state.turn, played, ctx.rolls_in_game)

    def state(self, roll: Roll, player: Side | None = None, segment: Segment | None = None, head: int = 0) -> State:
        player = player or self.turn
        return State(
            self.layout, player, roll, TurnContext(player not in self.played, self.rolls, head), segment=segment
        )

    def after(self, layout: Layout) -> Node:
        """The node after this side's turn left `layout`: the other side rolls."""
        return Node(layout, other(self.turn), self.played | {self.turn}, self.rolls + 1)


def rolls(node: Node, rules: Rules) -> tuple[Roll, ...]:
    """The rolls a ply from `node` sums over: all 21, or the 15 non-doubles for a game's opening roll.

    bg.opening.roll, nd.opening.lead-dice (switch opening=play-lead-dice): the starter plays the two
    different numbers of the opening roll."""
    opening = not node.played and node.rolls == 0 and rules.switch.opening == "play-lead-dice"
    return tuple(r for r in ROLLS if r[0] != r[1]) if opening else ROLLS


def segmented(rules: Rules) -> bool:
    """Whether a turn can have several segments (a chain of doubles, numbers passed): then next-segment is asked."""
    return rules.switch.doubles != "four-moves" or rules.switch.unplayable != "lost"


def asked_turn_results(engine: Engine, node: Node, roll: Roll, rules: Rules) -> set[Layout]:
    """The distinct layouts the whole turn on `roll` can leave, asked segment by segment."""
    ask_next = segmented(rules)
    frontier: set[tuple[Layout, Segment | None, int]] = {(node.layout, None, 0)}
    finals: set[Layout] = set()
    while frontier:
        following: set[tuple[Layout, Segment | None, int]] = set()
        for layout, segment, head in frontier:
            player = segment.player if segment else node.turn
            passed = bool(segment and segment.passed)
            here = Node(layout, node.turn, node.played, node.rolls)
            state = here.state(roll, player, segment, 0 if passed else head)
            plays = set(engine.legal_plays(state, rules))
            after = engine.next_segment(state, rules) if ask_next else None
            for result in plays:
                if after is None:
                    finals.add(result)
                else:
                    taken = 0 if passed else head_moves(layout, result, player)
                    following.add((result, after, head + taken))
        frontier = following
    return finals


def game_over(engine: Engine, node: Node, rules: Rules) -> bool:
    """Whether the game is over at `node`: a side has borne off all fifteen, or (a draw) the engine says so.

    The game-result query is asked only of an engine that offers it."""
    if CHECKERS in node.layout.off:
        return True
    if "game-result" not in engine.info().capabilities:
        return False
    return engine.game_result(node.state(()), rules) is not None


@dataclass(frozen=True)
class Count:
    positions: int  # leaves of the tree: distinct positions per roll, summed over the 21 rolls
    weighted: int  # the same over the 36 outcomes of the dice

    def __add__(self, other: Count) -> Count:
        return Count(self.positions + other.positions, self.weighted + other.weighted)

    def times(self, w: int) -> Count:
        return Count(self.positions, self.weighted * w)


ZERO, ONE = Count(0, 0), Count(1, 1)


@dataclass
class Perft:
    """Perft of one engine under one set of rules, with every (node, depth) counted once."""

    engine: Engine
    rules: Rules
    memo: dict[tuple[Node, int], Count] = field(default_factory=dict)
    turns: dict[tuple[Node, Roll], set[Layout]] = field(default_factory=dict)
    ended: dict[Node, bool] = field(default_factory=dict)

    def over(self, node: Node) -> bool:
        if node not in self.ended:
            self.ended[node] = game_over(self.engine, node, self.rules)
        return self.ended[node]

    def results(self, node: Node, roll: Roll, keep: bool = True) -> set[Layout]:
        """The turn's results, kept for the next question about them (not the last ply's: memory)."""
        key = (node, roll)
        if key in self.turns:
            return self.turns[key]
        found = asked_turn_results(self.engine, node, roll, self.rules)
        if keep:
            self.turns[key] = found
        return found

    def count(self, node: Node, depth: int) -> Count:
        if depth == 0:
            return ONE
        key = (node, depth)
        if key not in self.memo:
            total = ZERO
            if not self.over(node):
                for roll in rolls(node, self.rules):
                    total += self.roll_count(node, roll, depth).times(weight(roll))
            self.memo[key] = total
        return self.memo[key]

    def roll_count(self, node: Node, roll: Roll, depth: int) -> Count:
        """The perft of `depth` plies whose first roll is `roll` (weighted within the subtree only)."""
        if depth == 1:
            n = len(self.results(node, roll, keep=False))
            return Count(n, n)
        total = ZERO
        for layout in self.results(node, roll):
            total += self.count(node.after(layout), depth - 1)
        return total


def units(node: Node, rules: Rules, engine: Engine, perft: Perft | None = None) -> Iterator[tuple[Roll, Layout]]:
    """The first level of the tree, one (roll, resulting layout) at a time: what divide, jobs and shards split."""
    perft = perft or Perft(engine, rules)
    if perft.over(node):
        return
    for roll in rolls(node, rules):
        for layout in sorted(perft.results(node, roll), key=Layout.key):
            yield roll, layout


def play_text(before: Layout, after: Layout, side: Side) -> str:
    """A whole turn in notation: the mover's checkers, and the other side's where it played passed numbers."""
    own = describe(before, after, side)
    them = other(side)
    if own.startswith("<") or not _moved(before, after, them):
        return own
    return f"{own}; {them}: {describe(before, after, them)}"


def _moved(before: Layout, after: Layout, side: Side) -> bool:
    """Whether `side`'s checkers were played: one arrived on a point or was borne off (being hit only takes
    checkers off their points, and the mover bearing off changes only its own count)."""
    arrived = any(a > b for a, b in zip(after.points(side), before.points(side)))
    return arrived or after.borne_off(side) != before.borne_off(side)


def plays_text(node: Node, layouts: set[Layout]) -> tuple[str, ...]:
    return tuple(sorted(play_text(node.layout, x, node.turn) for x in layouts))


def roll_text(roll: Roll) -> str:
    return f"{roll[0]}-{roll[1]}"


# --- comparing two engines --------------------------------------------------------------------------


@dataclass(frozen=True)
class Difference:
    """Where two engines' trees part: the path of plies from the root, the node and roll, the plays each alone gives."""

    path: tuple[tuple[Roll, str], ...]
    node: Node
    roll: Roll
    missing: tuple[str, ...]  # plays of the reference the engine does not give
    extra: tuple[str, ...]  # plays the engine gives that the reference does not

    def to_json(self) -> dict[str, Any]:
        return {
            "path": [{"roll": list(r), "play": p} for r, p in self.path],
            "state": self.node.state(self.roll).to_wire(),
            "roll": list(self.roll),
            "missing": list(self.missing),
            "extra": list(self.extra),
        }


def first_difference(reference: Perft, other_: Perft, node: Node, depth: int) -> Difference | None:
    """The first (in roll, then play order) node and roll below `node` where the two engines' turns differ."""
    path: list[tuple[Roll, str]] = []
    while depth > 0 and not reference.over(node):
        for roll in rolls(node, reference.rules):
            want, got = reference.results(node, roll), other_.results(node, roll)
            if want != got:
                return Difference(tuple(path), node, roll, plays_text(node, want - got), plays_text(node, got - want))
        below = next(
            (
                (roll, layout)
                for roll in rolls(node, reference.rules)
                for layout in sorted(reference.results(node, roll), key=Layout.key)
                if reference.count(node.after(layout), depth - 1) != other_.count(node.after(layout), depth - 1)
            ),
            None,
        )
        if below is None:
            return None
        roll, layout = below
        path.append((roll, play_text(node.layout, layout, node.turn)))
        node, depth = node.after(layout), depth - 1
    return None


# --- the published tables (cases/perft/<ruleset>.yaml) ----------------------------------------------

TABLES_DIR = Path(__file__).resolve().parents[2] / "cases" / "perft"


@dataclass(frozen=True)
class Published:
    """A published table: per depth, the totals and the counts per first roll."""

    ruleset: str
    derivation: str
    depths: dict[int, dict[str, Any]]

    def differences(self, depth: int, by_roll: dict[Roll, Count]) -> list[str]:
        """Where counts from the start differ from this table at `depth` ([] when it has no such depth)."""
        row = self.depths.get(depth)
        if row is None:
            return []
        got = {roll_text(r): [c.positions, c.weighted] for r, c in by_roll.items()}
        return [
            f"{roll}: published {row['rolls'].get(roll, [0, 0])}, counted {got.get(roll, [0, 0])}"
            for roll in sorted(set(row["rolls"]) | set(got))
            if row["rolls"].get(roll, [0, 0]) != got.get(roll, [0, 0])
        ]


@cache
def published() -> dict[str, Published]:
    """The published perft tables by ruleset, each checked against schema/perft.schema.json once."""
    from gammonspec.model.yamlio import DataError, load_yaml

    tables: dict[str, Published] = {}
    for path in sorted(TABLES_DIR.glob("*.yaml")):
        data = load_yaml(path)
        failure = compiled("perft").failure(data)
        if failure is not None:
            raise DataError(path, None, f"not a perft table: {failure[1]}")
        if data["ruleset"] not in rulesets() or path.stem != data["ruleset"]:
            raise DataError(path, None, f"a perft table of ruleset {data['ruleset']!r} must be {data['ruleset']}.yaml")
        tables[data["ruleset"]] = Published(
            data["ruleset"], data["derivation"], {row["depth"]: row for row in data["depths"]}
        )
    return tables


TABLES_BLOCK = re.compile(r"(<!-- perft-tables: [^>]*-->\n).*?(<!-- /perft-tables -->)", re.S)


def with_tables(markdown: str) -> str:
    """The text with its perft-tables block holding the tables of cases/perft (spec/perft.md keeps them in the file)."""
    return TABLES_BLOCK.sub(lambda m: f"{m[1]}\n{tables_markdown()}\n\n{m[2]}", markdown)


def tables_markdown() -> str:
    """The published tables as Markdown, one row per ruleset and depth (spec/perft.md)."""
    lines = [
        "| ruleset | depth | positions | over 36 rolls | counted with |",
        "|---|--:|--:|--:|---|",
    ]
    for name, table in published().items():
        oracle = table.derivation.split(", with ", 1)[-1]
        for depth, row in sorted(table.depths.items()):
            lines.append(f"| `{name}` | {depth} | {row['positions']:,} | {row['weighted']:,} | {oracle} |")
    return "\n".join(lines)
