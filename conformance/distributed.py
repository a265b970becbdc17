"""Perft and fuzz on a Dask cluster (`pip install gammonspec[distributed]`; `--dask ADDRESS`, or `--dask local`).

The work is split as on local processes (perft: chunks of first-ply rows; fuzz: one task per share
of a target's states) and handed to `dask.distributed` as plain function calls.  Each Dask worker
process starts the engine once, from the command's engine arguments, and keeps it for every task it
runs: one engine per worker, as with `--jobs`.  `--dask local` starts a LocalCluster of `--jobs`
single-threaded worker processes on this machine (what CI tests); any other value is the address
of a running scheduler (`dask scheduler`, `dask worker ADDRESS` on each machine).
"""

from __future__ import annotations

import contextlib
import logging
import random
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from . import jobs
from .perft import Count, Node
from .rules import Rules
from .runner import Target


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise SystemExit(
            "gammonspec: --dask needs Dask's distributed scheduler: pip install 'gammonspec[distributed]'"
        ) from None
    return distributed


@contextlib.contextmanager
def client(address: str, workers: int) -> Iterator[Any]:
    """A client of the cluster at `address`, or of a LocalCluster of `workers` processes ('local'; 'local-threads':
    worker threads in this process, which starts in a moment: the tests')."""
    distributed = _distributed()
    if address not in ("local", "local-threads"):
        with distributed.Client(address) as c:
            yield c
        return
    with (
        distributed.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=address == "local",
            dashboard_address=None,
            silence_logs=logging.CRITICAL,
        ) as cluster,
        distributed.Client(cluster) as c,
    ):
        yield c


_ENGINES: dict[str, Any] = {}


def _engine(engine_args: dict[str, Any] | None) -> Any:
    """This worker's engine for these arguments, started once."""
    from .perft_command import engine_of

    key = repr((threading.get_ident(), sorted((engine_args or {}).items())))  # a worker thread each, in-process
    if key not in _ENGINES:
        _ENGINES[key] = engine_of(engine_args)
    return _ENGINES[key]


def _perft_task(engine_args: dict[str, Any] | None, rules: Rules, root: Node, depth: int, chunk: list) -> list[Count]:
    from .perft import Perft
    from .perft_command import count_chunk

    return count_chunk(rules, root, depth, chunk, Perft(_engine(engine_args), rules))


def perft_units(
    address: str, workers: int, engine_args: dict[str, Any] | None, rules: Rules, root: Node, depth: int, work: list
) -> list[Count]:
    """The perft below each first-ply row, counted on the cluster; in the rows' order."""
    with client(address, workers) as c:
        parts = jobs.chunks(work, max(workers, 1))
        futures = c.map(
            _perft_task,
            [engine_args] * len(parts),
            [rules] * len(parts),
            [root] * len(parts),
            [depth] * len(parts),
            parts,
            pure=False,
        )
        return [count for part in c.gather(futures) for count in part]


# --- fuzz ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FuzzTask:
    target: Target
    kinds: tuple[str, ...]
    seed: int
    count: int
    max_failures: int


def task_seed(seed: int, target: str, share: int) -> int:
    """The seed of one share of a target's states: drawn from the campaign's seed, the target and the share."""
    return random.Random(f"{seed}:{target}:{share}").randrange(2**31)


def _fuzz_task(engine_args: dict[str, Any] | None, task: FuzzTask) -> Any:
    from . import fuzz

    return fuzz.fuzz(_engine(engine_args), [task.target], task.kinds, task.seed, task.count, None, task.max_failures)


def fuzz_campaign(
    address: str,
    workers: int,
    engine_args: dict[str, Any] | None,
    targets: list[Target],
    kinds: tuple[str, ...],
    seed: int,
    count: int,
    max_failures: int,
) -> Any:
    """A fuzz campaign of `count` states per target, in shares of one task per worker, as one Campaign.

    Each share draws its states from its own seed (`task_seed`); the failures of all shares are grouped
    as one campaign groups them."""
    shares = max(workers, 1)
    tasks = [
        FuzzTask(t, kinds, task_seed(seed, t.name, k), count // shares + (k < count % shares), max_failures)
        for t in targets
        for k in range(shares)
    ]
    tasks = [t for t in tasks if t.count]
    with client(address, workers) as c:
        parts = c.gather(c.map(_fuzz_task, [engine_args] * len(tasks), tasks, pure=False))
    return combine(parts, seed, max_failures)


def combine(parts: list[Any], seed: int, max_failures: int) -> Any:
    """The shares' campaigns as one: tallies added up per target, failures grouped as one campaign groups them."""
    from .fuzz import Campaign, Tally

    whole = Campaign(parts[0].engine, seed, [], [])
    tallies: dict[str, Tally] = {}
    for part in parts:
        for t in part.tallies:
            into = tallies.setdefault(t.target, Tally(t.target))
            if into not in whole.tallies:
                whole.tallies.append(into)
            into.positions += t.positions
            into.mismatches += t.mismatches
            into.skipped += t.skipped
            into.errored += t.errored
            into.seconds = max(into.seconds, t.seconds)  # the shares ran side by side
            into.kinds.update(t.kinds)
            into.errors += t.errors[: 5 - len(into.errors)]
        for failure in part.failures:
            same = next((f for f in whole.failures if f.joins(failure)), None)
            if same is None:
                whole.failures.append(failure)
                continue
            same.states += failure.states
            if same.explanation and failure.explanation:
                same.explanation &= failure.explanation
        whole.stopped = whole.stopped or part.stopped
        whole.fatal = whole.fatal or part.fatal
    if len(whole.failures) > max_failures:
        whole.failures = whole.failures[:max_failures]
        whole.stopped = f"{max_failures} distinct failures found (--max-failures)"
    return whole
