"""How the work scales over local worker processes: throughput for 1, 2 and N jobs (N: the machine's cores).

Printed, never asserted (no test depends on speed).  Each run asks the reference engine served as a
process (`gammonspec serve`), so the figures include the protocol's cost, as for any engine:

* fuzz: states per second, the reference engine against itself (narde-guide and backgammon);
* perft: leaf positions per second, backgammon's start to depth 2;
* the suite: cases per second (`gammonspec run`).

`python tests/bench_scale.py [--jobs N] [--count STATES]`.  On a machine shared with other work the
ratios mean little: read `os.getloadavg()` in the header first.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import tempfile
import time
from pathlib import Path

from gammonspec.conformance import cli

SERVE = "gammonspec serve"


def timed(argv: list[str]) -> tuple[float, dict]:
    """Seconds for one command, and its JSON report."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        began = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            status = cli.main([*argv, "--json", str(report)])
        seconds = time.perf_counter() - began
        if status not in (0, 1):
            raise SystemExit(f"bench: {' '.join(argv)} exited {status}")
        return seconds, json.loads(report.read_text())


def fuzz(jobs: int, count: int) -> float:
    with tempfile.TemporaryDirectory() as drafts:
        argv = ["fuzz", "--engine-cmd", SERVE, "--ruleset", "narde-guide", "--ruleset", "backgammon", "-q"]
        seconds, report = timed([*argv, "--count", str(count), "--jobs", str(jobs), "--out", drafts])
    return sum(t["positions"] for t in report["targets"]) / seconds


def perft(jobs: int) -> float:
    seconds, report = timed(["perft", "--engine-cmd", SERVE, "--ruleset", "backgammon", "-d", "2", "--jobs", str(jobs)])
    return report["tables"][0]["positions"] / seconds


def suite(jobs: int) -> float:
    seconds, report = timed(["run", "-q", "--engine-cmd", SERVE, "--jobs", str(jobs)])
    return report["summary"]["total"] / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="N (default: the cores)")
    parser.add_argument("--count", type=int, default=400, help="fuzz states per ruleset (default 400)")
    args = parser.parse_args()
    counts = sorted({1, 2, args.jobs})
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; jobs {', '.join(map(str, counts))}")
    for name, unit, measure in (
        ("fuzz", "states/s", lambda j: fuzz(j, args.count)),
        ("perft backgammon d2", "leaves/s", perft),
        ("suite run", "cases/s", suite),
    ):
        rates = {j: measure(j) for j in counts}
        shown = ", ".join(f"{j} jobs {r:,.0f} {unit} (x{r / rates[1]:.2f})" for j, r in rates.items())
        print(f"{name}: {shown}", flush=True)


if __name__ == "__main__":
    main()
