"""`gammonspec perft`: count an engine's tree of whole turns, compare it with the reference, find where it parts.

Without an engine the reference engine is counted.  With `--engine`/`--engine-cmd` the engine is
counted and compared with the reference engine under the same rules; on a difference the command
bisects down the tree (the first roll, then the first play, whose subtree counts differ) to the
first position and roll at which the two engines' plays differ, prints it and exits 1.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from gammonspec.conformance.harness import jobs, report_files
from gammonspec.conformance.harness.board import draw
from gammonspec.conformance.harness.jobs import Shard
from gammonspec.conformance.harness.launch import EngineSpec, handshake, start, worker_engine
from gammonspec.conformance.harness.protocol import ProtocolError, check_state
from gammonspec.conformance.tools.perft import (
    Count,
    Difference,
    Node,
    Perft,
    Roll,
    first_difference,
    play_text,
    published,
    roll_text,
    units,
    weight,
)
from gammonspec.model import PROTOCOL_VERSION, __version__
from gammonspec.model.interface import Engine, EngineFailure, EngineLoadError
from gammonspec.model.narde_ids import decode_nid, position_id
from gammonspec.model.position_ids import decode_xgid
from gammonspec.model.profiles import Profile
from gammonspec.model.rulesets import Rules, Ruleset
from gammonspec.model.state import State, StateError
from gammonspec.model.terminal import say
from gammonspec.model.yamlio import DataError, read_text

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
Unit = tuple[Roll, Any]  # (roll, the layout its turn leaves)


# the state fields State.from_wire fills in when a file leaves them out
OPTIONAL_STATE = {
    "dice": [],
    "context": {"first_turn": False, "rolls_in_game": 0, "head_moves": 0},
    "cube": {"value": 1, "owner": None},
    "match": {"length": 0, "score": {"white": 0, "black": 0}, "crawford": False},
    "segment": None,
}


@dataclass(frozen=True)
class PerftOptions:
    """What `gammonspec perft` counts: the engine (None: the reference engine alone), from where, how deep, on what."""

    engine: EngineSpec | None
    depth: int
    divide: bool
    xgid: str | None
    nid: str | None
    state: Path | None
    jobs: int
    dask: str | None
    shard: Shard | None
    json: Path | None


def root_of(options: PerftOptions) -> Node | None:
    """The position to count from, or None for each ruleset's start."""
    if options.xgid:
        try:
            layout, turn, _ = decode_xgid(options.xgid)
        except StateError as exc:
            raise DataError(Path("--xgid"), None, str(exc)) from None
        return Node(layout, turn or "white")
    if options.nid:
        try:
            return Node.of(decode_nid(options.nid))
        except StateError as exc:
            raise DataError(Path("--nid"), None, str(exc)) from None
    if options.state:
        text = read_text(options.state)
        try:
            data = json.loads(text)
            check_state({**OPTIONAL_STATE, **data} if isinstance(data, dict) else data)  # perft reads no dice
            return Node.of(State.from_wire(data))
        except json.JSONDecodeError as exc:
            raise DataError(options.state, exc.lineno, f"not JSON: {exc.msg}") from None
        except RecursionError:
            raise DataError(options.state, None, "not a protocol state: nested too deep") from None
        except (ProtocolError, StateError) as exc:
            raise DataError(options.state, None, f"not a protocol state: {exc}") from None
        except ValueError:  # json.loads' one other failure
            raise DataError(options.state, None, "not a protocol state: an integer of over 4,300 digits") from None
    return None


@dataclass(frozen=True)
class Row:
    """One first (roll, play) of the tree and the count below it; `index`: its place among all of them."""

    index: int
    roll: Roll
    play: str
    count: Count


@dataclass
class Table:
    """The counts of one ruleset or profile: the rows of this run (of a shard: its share of the `of` rows)."""

    target: str
    depth: int
    root: Node
    rows: list[Row]
    of: int

    @property
    def total(self) -> Count:
        return sum((row.count for row in self.rows), Count(0, 0))

    def by_roll(self) -> dict[Roll, Count]:
        out: dict[Roll, Count] = {}
        for row in self.rows:
            out[row.roll] = out.get(row.roll, Count(0, 0)) + row.count
        return out

    def to_json(self) -> dict[str, Any]:
        total = self.total
        return {
            "target": self.target,
            "depth": self.depth,
            "state": self.root.state(()).to_wire(),
            "positions": total.positions,
            "weighted": total.weighted,
            "of": self.of,
            "units": [
                {
                    "index": row.index,
                    "roll": roll_text(row.roll),
                    "play": row.play,
                    "positions": row.count.positions,
                    "weighted": row.count.weighted,
                }
                for row in self.rows
            ],
        }


# --- the work of one worker process -------------------------------------------------------------

_PERFTS: dict[tuple[EngineSpec | None, str], Perft] = {}  # a worker's counters, each with its memo of subtrees


def count_chunk(
    spec: EngineSpec | None, rules: Rules, root: Node, depth: int, chunk: list[Unit], perft: Perft | None = None
) -> list[Count]:
    """The perft of depth - 1 below each unit, weighted by the unit's roll (in a worker: with its engine)."""
    if perft is None:
        key = (spec, repr(rules))
        if key not in _PERFTS:
            _PERFTS[key] = Perft(worker_engine(spec), rules)
        perft = _PERFTS[key]
    return [perft.count(root.after(layout), depth - 1).times(weight(roll)) for roll, layout in chunk]


def count_units(
    perft: Perft,
    spec: EngineSpec | None,
    root: Node,
    depth: int,
    work: list[Unit],
    n_jobs: int,
    dask: str | None = None,
    label: str = "perft",
) -> list[Count]:
    """The perft of depth - 1 below each unit (weighted by the unit's roll): with `perft` in this process, or
    over `n_jobs` worker processes (or the Dask cluster at `dask`), each with an engine of its own started
    from `spec` (None: the reference engine)."""
    task = partial(count_chunk, spec, perft.rules, root, depth)
    if dask is not None:
        from gammonspec.conformance.tools.distributed import on_cluster

        return [count for part in on_cluster(dask, n_jobs, task, jobs.chunks(work, max(n_jobs, 1))) for count in part]
    from tqdm import tqdm

    # on a terminal only (never in CI or a pipe): the first plies counted, and tqdm's estimate of the time left
    with tqdm(total=len(work), unit="play", desc=label, file=sys.stderr, disable=None, leave=False) as bar:
        if n_jobs == 1:
            counts = []
            for unit in work:
                counts += count_chunk(spec, perft.rules, root, depth, [unit], perft)
                bar.update(1)
            return counts
        return list(jobs.parallel(task, work, n_jobs, done=bar.update))


# --- the command ----------------------------------------------------------------------------------


def describe_difference(target: str, diff: Difference) -> str:
    node = diff.node
    lines = [f"{target}: the engine's plays differ from the reference's"]
    if diff.path:
        lines.append("after " + ", ".join(f"{roll_text(r)}: {p}" for r, p in diff.path))
    lines.append(f"{node.turn} to play {roll_text(diff.roll)}:")
    lines.append(draw(node.layout, node.turn))
    ident = position_id(node.state(diff.roll))  # the XGID or the Narde position ID
    if ident:
        lines.append(ident)
    lines.append(f"state: {json.dumps(node.state(diff.roll).to_wire(), separators=(',', ':'))}")
    if diff.missing:
        lines.append(f"missing ({len(diff.missing)}): {' | '.join(diff.missing)}")
    if diff.extra:
        lines.append(f"extra ({len(diff.extra)}): {' | '.join(diff.extra)}")
    return "\n".join(lines)


def text(table: Table, divide: bool, against: Table | None = None) -> str:
    t = table.total
    where = "the start" if table.root == Node.start(table.root.layout.game) else "the position given"
    head = f"{table.target}: depth {table.depth} from {where}: {t.positions} positions, {t.weighted} over 36 rolls"
    if against is not None:
        a = against.total
        head += f" (reference: {a.positions}, {a.weighted})"
    if not divide:
        return head
    lines = [head, f"  {'roll / play':<28}{'positions':>12}{'weighted':>12}"]
    rows_by_roll: dict[Roll, list[tuple[str, Count]]] = {}
    for row in table.rows:
        rows_by_roll.setdefault(row.roll, []).append((row.play, row.count))
    for roll, c in table.by_roll().items():
        lines.append(f"  {roll_text(roll):<28}{c.positions:>12}{c.weighted:>12}")
        for play, pc in rows_by_roll[roll]:
            lines.append(f"    {play:<26}{pc.positions:>12}{pc.weighted:>12}")
    return "\n".join(lines)


def run_target(
    options: PerftOptions, target: Ruleset | Profile, engine: Engine, root: Node | None
) -> tuple[int, Table | None]:
    """Count (and compare) one ruleset or profile: the exit status and the engine's table (None: differs at the root)."""
    rules = target.rules()
    root = root or Node.start(target.game)
    compare = options.engine is not None
    mine = Perft(engine, rules)
    reference = Perft(start(None), rules) if compare else mine
    if compare:
        diff = first_difference(reference, mine, root, 1)  # the first ply, from the root itself
        if diff is not None:
            print(describe_difference(target.name, diff))
            return EXIT_FAILED, None
    everything = list(units(root, rules, engine, mine))
    indexed = jobs.select(list(enumerate(everything)), options.shard)
    indexes, work = [i for i, _ in indexed], [u for _, u in indexed]
    plays = [play_text(root.layout, layout, root.turn) for _, layout in work]
    label = f"{target.name}, engine" if compare else target.name
    counts = count_units(mine, options.engine, root, options.depth, work, options.jobs, options.dask, label)

    def table_of(counts: list[Count]) -> Table:
        rows = [Row(i, r, p, c) for i, (r, _), p, c in zip(indexes, work, plays, counts)]
        return Table(target.name, options.depth, root, rows, len(everything))

    table = table_of(counts)
    status, against = EXIT_OK, None
    if compare:
        ref_counts = count_units(reference, None, root, options.depth, work, options.jobs, options.dask, f"{target.name}, reference")
        against = table_of(ref_counts)
        print(text(table, options.divide, against))
        for (roll, layout), play, got, want in zip(work, plays, counts, ref_counts):
            if got != want:
                diff = first_difference(reference, mine, root.after(layout), options.depth - 1)
                if diff is not None:
                    diff = Difference(((roll, play), *diff.path), diff.node, diff.roll, diff.missing, diff.extra)
                    print(describe_difference(target.name, diff))
                return EXIT_FAILED, table
    else:
        print(text(table, options.divide))
    known = published().get(target.name) if isinstance(target, Ruleset) else None
    if known and root == Node.start(target.game) and options.shard is None:
        wrong = known.differences(options.depth, table.by_roll())
        if wrong:
            print(
                f"{target.name}: the counts differ from the published table (cases/perft/{target.name}.yaml): "
                + "; ".join(wrong)
            )
            status = EXIT_FAILED
        elif options.depth in known.depths:
            print(f"{target.name}: the counts agree with the published table (cases/perft/{target.name}.yaml)")
    return status, table


def command(options: PerftOptions, targets: dict[str, Ruleset | Profile]) -> int:
    root = root_of(options)
    if root is not None:
        targets = {k: t for k, t in targets.items() if t.game == root.layout.game}
        if not targets:
            say(f"no ruleset or profile selected is of the position's game, {root.layout.game}")
            return EXIT_USAGE
    if options.json:
        report_files.claim("--json", options.json)
    try:
        engine = start(options.engine)
        info = handshake(engine)
    except EngineLoadError as exc:
        say(str(exc))
        return EXIT_USAGE
    tables: list[Table] = []
    worst = EXIT_OK
    try:
        declared = [t for t in targets.values() if info.declares(t)]
        if not declared:
            say(f"engine {info.name} declares none of the rulesets selected: {', '.join(targets)}")
            return EXIT_USAGE
        for target in declared:
            try:
                status, table = run_target(options, target, engine, root)
                worst = max(worst, status)
                tables += [table] if table else []
            except EngineFailure as exc:
                say(f"{target.name}: engine {info.name}: {exc}")
                worst = EXIT_USAGE
    finally:
        if hasattr(engine, "close"):
            engine.close()
    if options.json:
        report_files.write(options.json, json.dumps(report(options, info.name, info.version, tables), indent=2) + "\n")
    return worst


def report(options: PerftOptions, name: str, version: str, tables: list[Table]) -> dict[str, Any]:
    shard = options.shard
    return {
        "kind": "perft",
        "suite": {"name": "gammonspec", "version": __version__, "protocol": PROTOCOL_VERSION},
        "engine": {"name": name, "version": version},
        "shard": None if shard is None else shard.to_json(),
        "tables": [t.to_json() for t in tables],
    }
