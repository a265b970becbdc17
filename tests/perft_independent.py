"""Perft counted without the reference engine or the harness's perft walk: the oracle of cases/perft/.

A plain recursion over whole turns (spec/perft.md) whose move generators share no code with the
reference engine: GNU Backgammon's (gnubg-nn, the `crosscheck` extra) for backgammon, the
independent enumerator of tests/independent_crazy.py (Narde and Crazy
Narde: whole turns, chains and passed numbers included) for the other games.  No memoisation across
the tree: each branch is walked as it comes (with a cache of the turn results only).

`python tests/perft_independent.py [RULESET ...] [--depth D]` prints the table of each ruleset's
start; tests/test_perft.py checks depth 1 of the published tables with it, tests/soak the rest.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).parent))

import independent_crazy  # noqa: E402
from gammonspec.model.rulesets import Rules, rulesets  # noqa: E402
from gammonspec.model.state import Layout, Side, TurnContext, other, start_layout  # noqa: E402

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
Turn = Callable[[Layout, Side, tuple[int, int], TurnContext, Rules], set[Layout]]


def from_key(game: str, key: str) -> Layout:
    """A layout from its canonical key (conventions: canonical key)."""
    parts = dict(part.split(":") for part in key.split("|"))
    nums = {k: tuple(int(n) for n in v.split(",")) for k, v in parts.items()}
    return Layout(game, nums["w"], nums["b"], nums["bar"], nums["off"])


def gnubg_turn(layout: Layout, side: Side, dice: tuple[int, int], context: TurnContext, rules: Rules) -> set[Layout]:
    import gnubg_nn
    from crosscheck_gnubg import gnubg_plays

    return gnubg_plays(gnubg_nn, layout, side, dice)


def narde_turn(layout: Layout, side: Side, dice: tuple[int, int], context: TurnContext, rules: Rules) -> set[Layout]:
    return {from_key(layout.game, k) for k in independent_crazy.legal_results(layout, side, dice, context, rules)}


def crazy_turn(layout: Layout, side: Side, dice: tuple[int, int], context: TurnContext, rules: Rules) -> set[Layout]:
    return {from_key(layout.game, k) for k in independent_crazy.chain_results(layout, side, dice, context, rules)}


TURNS: dict[str, Turn] = {"backgammon": gnubg_turn, "narde": narde_turn, "crazy-narde": crazy_turn}
ORACLES = {
    "backgammon": "GNU Backgammon's move generator (gnubg-nn)",
    "narde": "the independent Narde-family enumerator (tests/independent_crazy.py)",
    "crazy-narde": "the independent Crazy Narde enumerator, whole turns (tests/independent_crazy.py)",
}
HEADER = (
    "# Perft of the ruleset's start: distinct positions after D whole turns, summed over the rolls\n"
    "# (weighted: over the 36 outcomes of two dice); each first roll's counts include its own weight.\n"
    "# Written by tests/perft_independent.py --write, never from the reference engine (spec/perft.md).\n"
)


def weight(dice: tuple[int, int]) -> int:
    return 1 if dice[0] == dice[1] else 2


class Tree:
    """One ruleset's tree from its start, walked plainly, with the turn results cached (one per process)."""

    def __init__(self, ruleset: str) -> None:
        rs = rulesets()[ruleset]
        self.game, self.rules, self.turn = rs.game, rs.rules(), TURNS[rs.game]
        self.opening_lead = self.rules["opening"] == "play-lead-dice"
        self.results = cache(self._results)
        self.last_ply = cache(self._last_ply)

    def _results(self, layout: Layout, side: Side, dice: tuple[int, int], first: bool, rolls: int) -> frozenset:
        return frozenset(self.turn(layout, side, dice, TurnContext(first, rolls, 0), self.rules))

    def _last_ply(self, layout: Layout, side: Side, dice: tuple[int, int], first: bool, rolls: int) -> int:
        """The count of the last turn only: its results are not kept (backgammon's depth 3 has ~40 million)."""
        return len(self.turn(layout, side, dice, TurnContext(first, rolls, 0), self.rules))

    def walk(
        self, layout: Layout, side: Side, played: frozenset, rolls: int, depth: int, only: tuple | None = None
    ) -> tuple[int, int]:
        """(positions, weighted) of `depth` plies from here; with `only`, of this first roll's subtree alone."""
        if depth == 0:
            return 1, 1
        if 15 in layout.off:
            return 0, 0
        opening = rolls == 0 and not played and self.opening_lead
        n = w = 0
        for dice in ROLLS if only is None else [only]:
            if opening and dice[0] == dice[1]:
                continue  # the opening roll is never a double
            if depth == 1:
                k = self.last_ply(layout, side, dice, side not in played, rolls)
                n, w = n + k, w + weight(dice) * k
                continue
            for after in self.results(layout, side, dice, side not in played, rolls):
                dn, dw = self.walk(after, other(side), played | {side}, rolls + 1, depth - 1)
                n, w = n + dn, w + weight(dice) * dw
        return n, w

    def branch(self, depth: int, first: tuple[int, int], second: tuple[int, int] | None = None) -> tuple[int, int]:
        """The counts below white's first roll `first` (weighted by it), or below its `second` roll of black's only."""
        if second is None:
            return self.walk(start_layout(self.game), "white", frozenset(), 0, depth, only=first)
        n = w = 0
        for after in self.results(start_layout(self.game), "white", first, True, 0):
            dn, dw = self.walk(after, "black", frozenset({"white"}), 1, depth - 1, only=second)
            n, w = n + dn, w + weight(first) * dw
        return n, w


TREES: dict[str, Tree] = {}


def branch(task: tuple[str, int, tuple[int, int], tuple[int, int] | None]) -> tuple[int, int]:
    """One share of the work, in whichever process runs it: (ruleset, depth, first roll, second roll or None)."""
    ruleset, depth, first, second = task
    if ruleset not in TREES:
        TREES[ruleset] = Tree(ruleset)
    return TREES[ruleset].branch(depth, first, second)


def perft(ruleset: str, depth: int, jobs: int = 1) -> tuple[int, int, dict[str, tuple[int, int]]]:
    """(positions, 36-weighted, per first roll) after `depth` whole turns from the ruleset's start.

    A first roll's weighted count includes the roll's own weight, so that they add up to the total.  With
    jobs > 1 and depth >= 3, the (first roll, second roll) subtrees are shared out to `jobs` processes."""
    lead = rulesets()[ruleset].rules()["opening"] == "play-lead-dice"
    firsts = [dice for dice in ROLLS if not (lead and dice[0] == dice[1])]
    split = jobs > 1 and depth >= 3
    tasks = [(ruleset, depth, f, s if split else None) for f in firsts for s in (ROLLS if split else [None])]
    if split:
        counts = []
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for (_, _, f, second), count in zip(tasks, pool.imap(branch, tasks)):
                counts.append(count)
                print(
                    f"  {ruleset} depth {depth}, {f[0]}-{f[1]} then {second[0]}-{second[1]}: {count}",
                    file=sys.stderr,
                    flush=True,
                )
    else:
        counts = [branch(task) for task in tasks]
    by_roll: dict[str, tuple[int, int]] = {}
    for (_, _, f, _), (n, w) in zip(tasks, counts):
        old_n, old_w = by_roll.get(f"{f[0]}-{f[1]}", (0, 0))
        by_roll[f"{f[0]}-{f[1]}"] = (old_n + n, old_w + w)
    return sum(n for n, _ in by_roll.values()), sum(w for _, w in by_roll.values()), by_roll


def table(ruleset: str, depth: int, jobs: int = 1) -> dict:
    """The perft table of a ruleset's start to `depth`, as cases/perft/<ruleset>.yaml holds it."""
    rows = []
    for d in range(1, depth + 1):
        n, w, by_roll = perft(ruleset, d, jobs)
        rows.append({"depth": d, "positions": n, "weighted": w, "rolls": {r: list(c) for r, c in by_roll.items()}})
        print(f"{ruleset} depth {d}: {n} positions, {w} weighted", file=sys.stderr, flush=True)
    oracle = ORACLES[rulesets()[ruleset].game]
    return {
        "ruleset": ruleset,
        "position": "start",
        "derivation": f"tests/perft_independent.py, with {oracle}",
        "depths": rows,
    }


def check(names: list[str], jobs: int = 1) -> int:
    """Every depth of each published table against this oracle and against the reference engine; 1 on a difference."""
    from gammonspec.conformance.tools.perft import Node, Perft, published
    from gammonspec.reference import ReferenceEngine

    wrong = 0
    for name in names:
        table = published()[name]
        rules = rulesets()[name].rules()
        reference = Perft(ReferenceEngine(), rules)
        start = Node.start(rulesets()[name].game)
        for depth, row in sorted(table.depths.items()):
            n, w, by_roll = perft(name, depth, jobs)
            ref = {
                f"{r[0]}-{r[1]}": reference.roll_count(start, r, depth).times(1 if r[0] == r[1] else 2) for r in ROLLS
            }
            ref_rows = {k: [c.positions, c.weighted] for k, c in ref.items() if k in by_roll}
            ok = {k: list(v) for k, v in by_roll.items()} == row["rolls"] == ref_rows and (n, w) == (
                row["positions"],
                row["weighted"],
            )
            wrong += not ok
            print(f"{name} depth {depth}: {'agrees' if ok else 'DIFFERS'} ({n} positions, {w} weighted)", flush=True)
    return 1 if wrong else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", default=list(rulesets()))
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--write", type=Path, metavar="DIR", help="write cases/perft/<ruleset>.yaml files here")
    parser.add_argument(
        "--check", action="store_true", help="check every depth of the published tables, oracle and reference engine"
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes for depth 3 and more (default 1)")
    args = parser.parse_args()
    if args.check:
        sys.exit(check(args.rulesets, args.jobs))
    for name in args.rulesets:
        data = table(name, args.depth, args.jobs)
        if args.write:
            (args.write / f"{name}.yaml").write_text(
                HEADER + yaml.safe_dump(data, sort_keys=False, width=200, default_flow_style=None)
            )


if __name__ == "__main__":
    main()
