"""A fuzz campaign in shares, for worker processes (`--jobs`) or a Dask cluster (`--dask`).

Each target's `count` states are dealt out to `shares` tasks; each task draws its states from a seed
of its own, drawn from the campaign's seed, the target and the share, so a campaign in N shares is
the same whatever runs them (but not the same states as one unshared campaign of the same seed).
The shares' campaigns are put together as one campaign groups its failures.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import partial
from typing import Any

from gammonspec.conformance.harness import jobs
from gammonspec.conformance.harness.launch import EngineSpec, worker_engine
from gammonspec.conformance.harness.runner import Target


@dataclass(frozen=True)
class Task:
    """One share of a campaign: one target, the seed its states are drawn from and how many."""

    target: Target
    kinds: tuple[str, ...]
    seed: int
    count: int
    max_failures: int


@dataclass(frozen=True)
class Plan:
    """What a campaign asks: the engine (None: the reference engine), the targets, kinds, seed and budgets."""

    engine: EngineSpec | None
    targets: list[Target]
    kinds: tuple[str, ...]
    seed: int
    count: int
    max_failures: int

    def tasks(self, shares: int) -> list[Task]:
        """`count` states of each target dealt out to `shares` tasks, each with a seed of its own."""
        out = [
            Task(
                t,
                self.kinds,
                task_seed(self.seed, t.name, k),
                self.count // shares + (k < self.count % shares),
                self.max_failures,
            )
            for t in self.targets
            for k in range(shares)
        ]
        return [t for t in out if t.count]


def task_seed(seed: int, target: str, share: int) -> int:
    return random.Random(f"{seed}:{target}:{share}").randrange(2**31)


def run_task(spec: EngineSpec | None, task: Task) -> Any:
    """One share, on this worker's engine (started once per worker)."""
    from gammonspec.conformance.tools import fuzz

    return fuzz.fuzz(worker_engine(spec), [task.target], task.kinds, task.seed, task.count, None, task.max_failures)


def _run_tasks(spec: EngineSpec | None, chunk: list[Task]) -> list[Any]:
    return [run_task(spec, task) for task in chunk]


def local_campaign(n_jobs: int, campaign: Plan) -> Any:
    """The campaign in `n_jobs` shares over as many local worker processes."""
    work = campaign.tasks(n_jobs)
    parts = list(jobs.parallel(partial(_run_tasks, campaign.engine), work, n_jobs))
    return combine(parts, campaign.seed, campaign.max_failures)


def cluster_campaign(address: str, workers: int, campaign: Plan) -> Any:
    """The campaign in a share per worker, one task each on the Dask cluster at `address`."""
    from gammonspec.conformance.tools.distributed import on_cluster

    parts = on_cluster(address, workers, partial(run_task, campaign.engine), campaign.tasks(max(workers, 1)))
    return combine(parts, campaign.seed, campaign.max_failures)


def combine(parts: list[Any], seed: int, max_failures: int) -> Any:
    """The shares' campaigns as one: tallies added up per target, failures grouped as one campaign groups them."""
    from gammonspec.conformance.tools.fuzz import Campaign, Tally, merge_alike

    whole = Campaign(parts[0].engine, seed, [], [])
    tallies: dict[str, Tally] = {}
    for part in parts:
        for t in part.tallies:
            into = tallies.setdefault(t.target, Tally(t.target))
            if into not in whole.tallies:
                whole.tallies.append(into)
            into.positions += t.positions
            into.questions += t.questions
            into.mismatches += t.mismatches
            into.skipped += t.skipped
            into.errored += t.errored
            into.seconds = max(into.seconds, t.seconds)  # the shares ran side by side
            into.kinds.update(t.kinds)
            into.errors += t.errors[: 5 - len(into.errors)]
        for failure in part.failures:
            if not any(f.absorbs(failure) for f in whole.failures):  # one failure, as one campaign groups them
                whole.failures.append(failure)
        whole.stopped = whole.stopped or part.stopped
        whole.fatal = whole.fatal or part.fatal
    whole.failures = merge_alike(whole.failures)
    if len(whole.failures) > max_failures:
        whole.failures = whole.failures[:max_failures]
        whole.stopped = f"{max_failures} distinct failures found (--max-failures)"
    return whole
