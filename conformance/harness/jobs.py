"""Spreading work over local processes (`--jobs N`) and over machines (`--shard i/N --seed S`).

Each worker process starts its engine once (`launch.worker_engine`, from the command's EngineSpec) and
keeps it for every chunk of work it is given; the results come back in the order of the work.  A
shard is a deterministic share of the work: the items, in their given order, dealt out by a
permutation drawn from `--seed`, so N machines running shards 1/N .. N/N with the same seed cover
every item exactly once, and `gammonspec merge` puts their reports together.
"""

from __future__ import annotations

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
