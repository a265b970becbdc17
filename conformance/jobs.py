"""Spreading work over local processes (`--jobs N`) and over machines (`--shard i/N --seed S`).

Each worker process starts its own engine once (from the same engine arguments as the command) and
keeps it for every chunk of work it is given; the results come back in the order of the work.  A
shard is a deterministic share of the work: the items, in their given order, dealt out by a
permutation drawn from `--seed`, so N machines running shards 1/N .. N/N with the same seed cover
every item exactly once, and `gammonspec merge` puts their reports together.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")
CHUNKS_PER_JOB = 4  # chunks of work per worker, so that one slow chunk does not hold the others up


@dataclass(frozen=True)
class Shard:
    index: int  # 1-based
    count: int
    seed: int = 0

    def to_json(self) -> dict[str, int]:
        return {"index": self.index, "count": self.count, "seed": self.seed}


def shard_type(text: str) -> Shard:
    """`i/N` with 1 <= i <= N."""
    i, slash, n = text.partition("/")
    if not (slash and i.isdigit() and n.isdigit() and 1 <= int(i) <= int(n)):
        raise argparse.ArgumentTypeError(f"{text!r} is not a shard i/N with 1 <= i <= N (e.g. 2/4)")
    return Shard(int(i), int(n))


def positive(text: str) -> int:
    """An argument that counts something (jobs, plies, states): a whole number of 1 or more."""
    if not (text.isdigit() and int(text) >= 1):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number above 0")
    return int(text)


def add_arguments(command: argparse.ArgumentParser) -> None:
    """--jobs, --shard and --seed, as every command that spreads its work takes them."""
    command.add_argument(
        "--jobs", "-j", type=positive, default=1, metavar="N", help="worker processes, one engine each (default 1)"
    )
    command.add_argument(
        "--shard",
        type=shard_type,
        metavar="I/N",
        help="run only shard I of N (merge the reports with gammonspec merge)",
    )
    command.add_argument(
        "--seed", type=int, default=0, help="the seed that deals the work out to the shards (default 0)"
    )


def add_dask_argument(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="run on the Dask scheduler at ADDRESS, or 'local' for a LocalCluster of --jobs worker processes"
        " ('local-threads': worker threads) (extra: distributed)",
    )


def shard_of(args: argparse.Namespace) -> Shard | None:
    return None if args.shard is None else Shard(args.shard.index, args.shard.count, args.seed)


def select(items: Sequence[T], shard: Shard | None) -> list[T]:
    """The items of `shard`, in their given order: item k belongs to the shard its place in a seeded permutation names."""
    if shard is None:
        return list(items)
    order = list(range(len(items)))
    random.Random(shard.seed).shuffle(order)
    mine = {k for place, k in enumerate(order) if place % shard.count == shard.index - 1}
    return [item for k, item in enumerate(items) if k in mine]


def chunks(items: Sequence[T], jobs: int) -> list[list[T]]:
    """Consecutive chunks, a few per job."""
    n = max(1, min(len(items), jobs * CHUNKS_PER_JOB))
    size = -(-len(items) // n) if items else 1
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


def parallel(
    work: Callable[[list[T]], list[R]],
    items: Sequence[T],
    jobs: int,
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
    done: Callable[[int], None] = lambda n: None,
) -> Iterator[R]:
    """`work` over chunks of `items` in `jobs` fresh processes (each set up once by `initializer`); results in order.

    `done(n)` is told as each chunk of n items comes back (for a progress bar)."""
    if jobs == 1:
        if initializer is not None:
            initializer(*initargs)
        for chunk in chunks(items, 1):
            yield from work(chunk)
            done(len(chunk))
        return
    import multiprocessing  # here: most runs never start a worker process
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("spawn")  # no inherited threads or engine processes
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=initializer, initargs=initargs) as pool:
        futures = [(len(chunk), pool.submit(work, chunk)) for chunk in chunks(items, jobs)]
        for n, future in futures:
            yield from future.result()
            done(n)
