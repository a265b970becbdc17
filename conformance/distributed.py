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
import threading
from collections.abc import Iterator
from typing import Any

from . import jobs
from .engine import EngineLoadError
from .perft import Count, Node
from .rulesets import Rules


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise EngineLoadError(
            "--dask needs Dask's distributed scheduler: pip install 'gammonspec[distributed]'"
        ) from None
    return distributed


@contextlib.contextmanager
def client(address: str, workers: int) -> Iterator[Any]:
    """A client of the cluster at `address`, or of a LocalCluster of `workers` processes ('local'; 'local-threads':
    worker threads in this process, which starts in a moment: the tests')."""
    distributed = _distributed()
    if address not in ("local", "local-threads"):
        try:
            connected = distributed.Client(address, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError, ValueError) as exc:
            raise EngineLoadError(f"--dask {address}: no Dask scheduler answers there ({exc})") from None
        with connected as c:
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


CONNECT_SECONDS = 10
_ENGINES: dict[str, Any] = {}


def engine(engine_args: dict[str, Any] | None) -> Any:
    """This worker's engine for these arguments, started once."""
    from .perft_command import engine_of

    key = repr((threading.get_ident(), sorted((engine_args or {}).items())))  # a worker thread each, in-process
    if key not in _ENGINES:
        _ENGINES[key] = engine_of(engine_args)
    return _ENGINES[key]


def _perft_task(engine_args: dict[str, Any] | None, rules: Rules, root: Node, depth: int, chunk: list) -> list[Count]:
    from .perft import Perft
    from .perft_command import count_chunk

    return count_chunk(rules, root, depth, chunk, Perft(engine(engine_args), rules))


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


def fuzz_campaign(address: str, workers: int, campaign: Any) -> Any:
    """A fuzz campaign (conformance/fuzz_jobs.py) in a share per worker, one task each on the cluster."""
    from .fuzz_jobs import combine, run_task

    work = campaign.tasks(max(workers, 1))
    with client(address, workers) as c:
        parts = c.gather(c.map(run_task, [campaign.engine_args] * len(work), work, pure=False))
    return combine(parts, campaign.seed, campaign.max_failures)
