"""Perft and fuzz on a Dask cluster (`pip install gammonspec[distributed]`; `--dask ADDRESS`, or `--dask local`).

The work is split as on local processes (perft: chunks of first-ply rows; fuzz: one task per share
of a target's states) and handed to `dask.distributed` as plain function calls.  Each Dask worker
process starts the engine once, from the command's engine options, and keeps it for every task it
runs: one engine per worker, as with `--jobs` (harness/launch.py, `worker_engine`).  `--dask local` starts a LocalCluster of `--jobs`
single-threaded worker processes on this machine (what CI tests); any other value is the address
of a running scheduler (`dask scheduler`, `dask worker ADDRESS` on each machine).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from gammonspec.model.interface import EngineLoadError

T = TypeVar("T")
R = TypeVar("R")


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


def on_cluster(address: str, workers: int, task: Callable[[T], R], parts: list[T]) -> list[R]:
    """`task` of each part on the cluster (one plain function call each, engines kept by each worker: launch.
    worker_engine); the results in the parts' order."""
    with client(address, workers) as c:
        return c.gather(c.map(task, parts, pure=False))
