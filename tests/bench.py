"""Benchmarks of the reference engine (a script, not a test): `python tests/bench.py [-n N] [--profile] [--serve]`.

Every figure is measured side by side in one run, and the bars of issues 12 and 31 are ratios of them, printed
at the end with PASS or FAIL ("Ratios (issue 31 bars)"):

0. The suite through `gammonspec serve` beside the same run in process (--serve: this section alone).
1. The whole suite run in-process against the reference engine (loading the cases timed apart),
   per game, with the slowest case and its peak memory.
2. Backgammon legal plays through a JSON-lines driver of each engine (tests/bench_engine.py: the
   reference, the gnubg-nn and bgsage adapters, each when installed: the optional extra `crosscheck`)
   on the same N random positions and rolls, and the reference engine as of commit BASELINE; once with
   the drivers taking each request in turn (cold caches), once taking blocks of requests (warm caches); on
   Linux the drivers share one processor and the timer has another, so that all run alike.
3. The same positions in process: the reference's `legal_plays` beside gnubg-nn's `moves` and
   bgsage's `possible_moves`, each on its own native board format converted before the clock starts.
4. Narde plays per second on random Narde positions (both rulesets), now and at BASELINE; and on narde-guide
   beside nard-backgammon through JSON-lines drivers (speed only: its answers differ, as it has no head rule).
5. Crazy Narde's worst chains: each segment's distinct results, and the whole turns from 6-6 and 5-5
   (distinct end positions and time, best of --repeat; apart, the time to read every end as a layout),
   now and at BASELINE.

The BASELINE engine runs from its commit's files (`git archive`) in a child process (tests/bench_engine.py);
so do today's, for the same conditions: in sections 4 and 5, ROUNDS children per tree, alternated, each
timing itself in CPU seconds (which other processes on a loaded machine do not take).  Each timing gets a
warm-up pass first and the best of --repeat timed passes counts.  --profile prints the reference engine's cProfile hot spots on the same positions.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.util
import io
import json
import os
import pstats
import resource
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Sequence
from math import inf
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

import bench_engine  # noqa: E402
import crosscheck_gnubg as cc  # noqa: E402
from gammonspec.conformance.harness.cases import suite  # noqa: E402
from gammonspec.conformance.harness.runner import Filters, plan, run, run_one  # noqa: E402
from gammonspec.model.rulesets import rulesets  # noqa: E402
from gammonspec.model.state import Layout, Segment, State, TurnContext  # noqa: E402
from gammonspec.reference import ReferenceEngine  # noqa: E402
from gammonspec.reference.movegen import legal_plays, search  # noqa: E402

BASELINE = "5c05f79"  # main before the one-search and packed-core work (issue 12): its figures are "today's"


GNUBG = "reference positions/s / gnubg-nn's (= gnubg-nn time / reference time; over 1: the reference is faster)"
LONG = "issue 31 names long-nardy-engine: on neither PyPI nor npm; nard-backgammon is the one installable here"
NARDE = f"Narde in process, CPU: time at {BASELINE} / time now"
BARS = {  # the ratios issue 31 item 6 keeps: what is divided, the lowest and highest it may be, where that comes from
    "bg-cold": (f"backgammon, JSON-lines drivers, cold caches: {GNUBG}", 0.9, inf, "issue 12 closed at 0.91-0.97x"),
    "bg-warm": (f"backgammon, JSON-lines drivers, warm caches: {GNUBG}", 0.9, inf, "issue 12 closed at 0.91-0.97x"),
    "serve": ('suite, whole commands: `run --engine-cmd "gammonspec serve"` / `run`, wall time', 0, 1.5, "issue 12"),
    "nard": ("Narde (narde-guide), JSON-lines drivers: nard-backgammon time / reference time", 3, inf, LONG),
    "narde-guide-base": (f"{NARDE} (narde-guide)", 3, inf, "issue 12"),
    "narde-variant-base": (f"{NARDE} (narde-variant)", 3, inf, "issue 12"),
}
MEASURED: dict[str, float] = {}  # a key of BARS: the ratio measured in this run


def print_bars() -> None:
    print("\nRatios (issue 31 bars): each as measured in this run, its bar, PASS or FAIL")
    for key, (what, low, high, why) in BARS.items():
        limit = f"at most {high:.2f}x" if high < inf else f"at least {low:.2f}x"
        if key not in MEASURED:  # --serve alone, --no-serve, --no-baseline, or the third party not installed
            figure = f"not measured in this invocation (bar: {limit})"
        else:
            figure = f"{MEASURED[key]:6.2f}x  {'PASS' if low <= MEASURED[key] <= high else 'FAIL'}  (bar: {limit})"
        print(f"   {what}\n      {figure}; {why}")


def bench_suite() -> None:
    t0 = time.perf_counter()
    cases = suite()
    t1 = time.perf_counter()
    pairs = plan(cases, rulesets(), Filters())
    t2 = time.perf_counter()
    outcomes = list(run(ReferenceEngine(), pairs))
    t3 = time.perf_counter()
    statuses = Counter(o.status for o in outcomes)
    print("1. Suite against the reference engine, in-process")
    print(
        f"   load {len(cases)} cases: {t1 - t0:.3f} s; plan: {t2 - t1:.3f} s; run {len(pairs)} case x ruleset pairs: {t3 - t2:.3f} s"
    )
    print(f"   total {t3 - t0:.3f} s; " + ", ".join(f"{n} {s}" for s, n in sorted(statuses.items())))
    engine, per_game, slowest = ReferenceEngine(), Counter(), []
    for case, ruleset in pairs:
        start = time.perf_counter()
        run_one(engine, case, ruleset)
        spent = time.perf_counter() - start
        per_game[case.game] += spent
        slowest.append((spent, ruleset.name, case))
    print("   run time per game: " + ", ".join(f"{game} {secs:.3f} s" for game, secs in per_game.items()))
    spent, name, case = max(slowest, key=lambda x: x[0])
    tracemalloc.start()
    run_one(engine, case, rulesets()[name])
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"   slowest case: {name}::{case.id} {spent * 1000:.1f} ms, peak memory {peak / 1e3:.0f} kB")


def bench_serve(repeat: int) -> None:
    """The suite through `gammonspec serve` beside the same run in process, start-up excluded, alternating passes."""
    from gammonspec.conformance.harness.python_engine import PythonEngine
    from gammonspec.conformance.harness.subprocess_engine import SubprocessEngine

    pairs = plan(suite(), rulesets(), Filters())
    process = SubprocessEngine(f"{sys.executable} -m gammonspec.conformance.cli serve")
    engines = {"in process (gammonspec run)": PythonEngine("reference"), "gammonspec serve process": process}
    best = dict.fromkeys(engines, float("inf"))
    try:
        for engine in engines.values():
            engine.info()  # start-up and handshake, not timed
        for _ in range(repeat):
            for name, engine in engines.items():
                startup, began = getattr(engine, "startup_seconds", 0.0), time.perf_counter()
                statuses = Counter(o.status for o in run(engine, pairs))
                spent = time.perf_counter() - began - (getattr(engine, "startup_seconds", 0.0) - startup)
                assert statuses == {"passed": len(pairs)}, statuses
                best[name] = min(best[name], spent)
    finally:
        process.close()
    print(f"0. The suite's {len(pairs)} case x ruleset pairs, in process and through the protocol; best of {repeat}")
    print("   the run alone (loading and start-up excluded):")
    base = best["in process (gammonspec run)"]
    for name, secs in best.items():
        print(f"     {name:30s} {secs:7.3f} s   {secs / base:5.2f}x the in-process run")
    commands = {
        "gammonspec run": [sys.executable, "-m", "gammonspec.conformance.cli", "run", "-q"],
        'gammonspec run --engine-cmd "gammonspec serve"': [
            *(sys.executable, "-m", "gammonspec.conformance.cli", "run", "-q"),
            *("--engine-cmd", f"{sys.executable} -m gammonspec.conformance.cli serve"),
        ],
    }
    whole = dict.fromkeys(commands, float("inf"))
    cpu = dict.fromkeys(commands, float("inf"))
    for _ in range(repeat):
        for name, command in commands.items():
            used, began = _children_cpu(), time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            whole[name] = min(whole[name], time.perf_counter() - began)
            cpu[name] = min(cpu[name], _children_cpu() - used)
    MEASURED["serve"] = whole['gammonspec run --engine-cmd "gammonspec serve"'] / whole["gammonspec run"]
    print("   the whole command, as a user runs it (wall time; CPU time of every process it started):")
    for name in commands:
        print(
            f"     {name:46s} {whole[name]:7.3f} s  {whole[name] / whole['gammonspec run']:5.2f}x;"
            f"  CPU {cpu[name]:7.3f} s  {cpu[name] / cpu['gammonspec run']:5.2f}x"
        )


def _children_cpu() -> float:
    """User and system time of the finished child processes and all they waited for."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(call: Callable[[Any], Any], inputs: Sequence[Any], repeat: int) -> float:
    """Best wall time of `repeat` passes over all inputs, after one warm-up pass."""
    for x in inputs[: max(len(inputs) // 10, 1)]:
        call(x)
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for x in inputs:
            call(x)
        best = min(best, time.perf_counter() - t0)
    return best


def baseline_tree(rev: str) -> Path | None:
    """The package folders of commit `rev` of this repository, unpacked into a temporary folder (None if git fails)."""
    listed = subprocess.run(["git", "-C", str(REPO), "ls-tree", "--name-only", rev], capture_output=True, text=True)
    folders = [name for name in bench_engine.PACKAGES if name in listed.stdout.split()]  # its layout's folders
    root = Path(tempfile.mkdtemp(prefix=f"gammonspec-{rev}-"))
    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev, *folders], capture_output=True, check=False)
    if archive.returncode:
        print(f"   no baseline: git archive {rev}: {archive.stderr.decode().strip()}")
        return None
    tarfile.open(fileobj=io.BytesIO(archive.stdout)).extractall(root, filter="data")
    return root


def child(root: Path | None, *args: str) -> list[str]:
    """The command line of a benchmark child process (tests/bench_engine.py), on the tree at `root` when given."""
    return [sys.executable, str(HERE / "bench_engine.py"), *(["--root", str(root)] if root else []), *args]


def in_child(root: Path | None, lines: list[str], *args: str) -> dict[str, Any]:
    """Run a timing mode of tests/bench_engine.py on `lines` and return its answer."""
    done = subprocess.run(child(root, *args), input="\n".join(lines) + "\n", capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"bench_engine.py {' '.join(args)} failed:\n{done.stderr}")
    return json.loads(done.stdout)


ROUNDS = 3  # children of today's and the baseline's tree, alternated: a load that comes and goes falls on both


def side_by_side(base: Path | None, lines: list[str], *args: str) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """A timing mode run in ROUNDS alternating children of today's tree and (when given) the baseline's: per tree,
    the answer with the best times (the children time themselves in CPU seconds, which other processes do not
    take)."""
    trees = (None, base) if base else (None,)
    runs: dict[Path | None, list[dict[str, Any]]] = {root: [] for root in trees}
    for _ in range(ROUNDS):
        for root in trees:
            runs[root].append(in_child(root, lines, *args))

    def best(answers: list[dict[str, Any]]) -> dict[str, Any]:
        secs = [a["secs"] for a in answers]
        merged = {**answers[0], "secs": min(secs) if isinstance(secs[0], float) else [min(s) for s in zip(*secs)]}
        if "read" in answers[0]:
            merged["read"] = [min(r) for r in zip(*(a["read"] for a in answers))]
        return merged

    return best(runs[None]), best(runs[base]) if base else None


def state_lines(ruleset: str, states: Sequence[State]) -> list[str]:
    return [json.dumps({"ruleset": ruleset, "state": state.to_wire()}) for state in states]


def driven(commands: list[list[str]], requests: list[str], repeat: int, block: int) -> list[tuple[float, int]]:
    """For each JSON-lines driver, the time it takes for the requests (one answer awaited per request; start-up
    excluded), each block's best of `repeat` passes summed, and the number of positions answered in a pass.
    The drivers take the requests `block` at a time in turn, the first of them changing from block to block, so
    that the machine's load falls alike on all: with `block` 1 each runs with the caches the others left (cold),
    with a larger block as a run against one engine has them (warm).  A block's best time drops what a passing
    load (another process, the host of a virtual machine) adds to it.  Where the system lets a process choose
    its processors (Linux) and there are two or more, the drivers all run on one and this timer on another."""
    pinned = pin_processors()
    try:
        return _driven(commands, requests, repeat, block, pinned and pinned[1])
    finally:
        if pinned:
            os.sched_setaffinity(0, pinned[0])


def _driven(
    commands: list[list[str]], requests: list[str], repeat: int, block: int, pin: Callable[[], None] | None
) -> list[tuple[float, int]]:
    procs = [
        subprocess.Popen(c, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1, preexec_fn=pin)
        for c in commands
    ]
    pipes = [(p.stdin, p.stdout) for p in procs]
    for ask, answer in pipes:
        ask.write(requests[0])
        answer.readline()  # the engine is loaded and warm
    blocks = [requests[i : i + block] for i in range(0, len(requests), block)]
    best = [[float("inf")] * len(blocks) for _ in procs]  # driver -> block -> its best time
    for _ in range(repeat):
        positions = [0] * len(procs)
        for k, lines in enumerate(blocks):
            for i in (*range(k % len(pipes), len(pipes)), *range(k % len(pipes))):  # each driver first in turn
                ask, answer = pipes[i]
                replies = []
                start = time.perf_counter()
                for line in lines:
                    ask.write(line)
                    replies.append(answer.readline())
                best[i][k] = min(best[i][k], time.perf_counter() - start)
                positions[i] += sum(len(json.loads(reply)) for reply in replies)
    for proc in procs:
        proc.communicate("\n")
    return list(zip(map(sum, best), positions))


def pin_processors() -> tuple[set[int], Callable[[], None]] | None:
    """Pin this process to one processor and return the set it had and a `preexec_fn` that pins a child to another
    (None where processors cannot be chosen or there is only one).  Left to the scheduler, where each driver runs
    (beside the timer, or on a processor of its own) moved the drivers' ratios by about 5% from run to run;
    pinned, every driver runs under the same conditions."""
    if not can_pin():
        return None
    allowed = os.sched_getaffinity(0)
    timer, drivers = sorted(allowed)[:2]
    os.sched_setaffinity(0, {timer})
    return allowed, lambda: os.sched_setaffinity(0, {drivers})


def can_pin() -> bool:
    return hasattr(os, "sched_setaffinity") and len(os.sched_getaffinity(0)) >= 2


DRIVER_BLOCK = 250  # requests a driver answers in a row in the warm-cache measurement


def bench_drivers(n: int, seed: int, repeat: int, base: Path | None) -> None:
    """Backgammon legal plays through a JSON-lines driver of each engine (tests/bench_engine.py), same positions."""
    samples = cc.samples(seed, n, cc.bg_rules())
    requests = [line + "\n" for line in state_lines("backgammon", [State(s.layout, s.side, s.dice) for s in samples])]
    print(f"\n2. Backgammon legal plays through a JSON-lines driver of each engine: {n} random positions + rolls")
    where = "; the drivers on one processor, the timer on another" if can_pin() else ""
    print(
        f"   (seed {seed}), wire positions in and out, start-up excluded; each block's best of {repeat} passes{where}"
    )
    engines = [("reference", child(None, "drive", "reference"))]
    if base:
        engines.append((f"reference at {BASELINE}", child(base, "drive", "reference")))
    engines += [(name, child(None, "drive", name)) for name in ("gnubg-nn", "bgsage") if installed(name)]
    warm = f"{DRIVER_BLOCK} requests to each driver in turn (warm caches, as in a run against one engine)"
    for block, how, bar in (
        (1, "each request to each driver in turn (cold caches)", "bg-cold"),
        (DRIVER_BLOCK, warm, "bg-warm"),
    ):
        print(f"   {how}:")
        secs = driver_rows(engines, requests, repeat, block)
        if "gnubg-nn" in secs:
            MEASURED[bar] = secs["gnubg-nn"] / secs["reference"]


def driver_rows(engines: list[tuple[str, list[str]]], requests: list[str], repeat: int, block: int) -> dict[str, float]:
    """Time the drivers (`driven`), print a row each (its rate as a ratio of the first, the reference's), and
    return each one's time."""
    timings = driven([command for _, command in engines], requests, repeat, block)
    n, (ref, ref_positions) = len(requests), timings[0]
    for (name, _), (secs, positions) in zip(engines, timings):
        agree = (
            ""
            if positions == ref_positions
            else f"  ({positions:,} positions answered, the reference {ref_positions:,})"
        )
        ratio = "" if name == "reference" else f"   reference = {secs / ref:5.2f}x its rate"
        print(f"     {name:24s} {n / secs:8,.0f} positions/s  ({secs * 1e6 / n:7.1f} us each){ratio}{agree}")
    return {name: secs for (name, _), (secs, _) in zip(engines, timings)}


def installed(module: str) -> bool:
    return importlib.util.find_spec(module.replace("-", "_")) is not None


def bench_movegen(n: int, seed: int, repeat: int, profile: bool) -> None:
    rules = cc.bg_rules()
    samples = cc.samples(seed, n, rules)
    kinds = Counter(s.kind for s in samples)
    doubles = sum(s.dice[0] == s.dice[1] for s in samples)
    print(
        f"\n3. Backgammon move generation in process: {n} random positions + rolls (seed {seed}; "
        + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
        + f"; doubles {doubles / n:.0%}, over-weighted on purpose); best of {repeat}"
    )
    ctx = TurnContext()
    ref_inputs = [(s.layout, s.side, s.dice) for s in samples]
    ref = timed(lambda x: legal_plays(x[0], x[1], x[2], ctx, rules), ref_inputs, repeat)
    rows = [("reference engine (legal_plays)", ref)]
    if installed("gnubg_nn"):
        import gnubg_nn

        gn_inputs = [(cc.to_gnubg(s.layout, s.side), s.dice) for s in samples]
        rows.append(("gnubg-nn (moves)", timed(lambda x: gnubg_nn.moves(x[0], x[1][0], x[1][1]), gn_inputs, repeat)))
    if installed("bgsage"):
        import bgsage

        bs_inputs = [(cc.to_bgsage(s.layout, s.side), s.dice) for s in samples]
        rows.append(
            (
                "bgsage (possible_moves)",
                timed(lambda x: bgsage.possible_moves(x[0], x[1][0], x[1][1]), bs_inputs, repeat),
            )
        )
    for name, secs in rows:
        ratio = "" if name.startswith("reference") else f"   reference = {secs / ref:6.3f}x its rate"
        print(f"   {name:32s} {n / secs:10,.0f} positions/s  ({secs * 1e6 / n:7.1f} us each){ratio}")
    if profile:
        prof = cProfile.Profile()
        prof.enable()
        for layout, side, dice in ref_inputs:
            legal_plays(layout, side, dice, ctx, rules)
        prof.disable()
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(15)
        print("\n   cProfile of the reference engine on the same positions (sorted by own time)")
        print(out.getvalue())


def bench_narde(n: int, seed: int, repeat: int, base: Path | None) -> None:
    import test_narde_independent as nd

    states = [State(layout, side, dice, context) for layout, side, dice, context in nd.samples(seed, n)]
    print(f"\n4. Narde legal plays in process: {n} random positions + rolls (seed {seed}); CPU time, best of")
    print(f"   {repeat} passes in each of {ROUNDS} children per tree, today's and the baseline's alternated")
    for name in ("narde-guide", "narde-variant"):
        lines = state_lines(name, states)
        now, then = side_by_side(base, lines, "plays", str(repeat))
        figure = f"   reference, {name:14s} {n / now['secs']:8,.0f} positions/s  ({now['secs'] * 1e6 / n:7.1f} us each)"
        if then:
            figure += f"; at {BASELINE} {n / then['secs']:8,.0f}/s: {then['secs'] / now['secs']:5.2f}x"
            if then["results"] != now["results"]:
                figure += f" (results differ: {then['results']} then, {now['results']} now)"
            MEASURED[f"{name}-base"] = then["secs"] / now["secs"]
        print(figure)
    if not installed("nard-backgammon"):
        print("   nard-backgammon not installed (the extra `crosscheck`): no third-party Narde engine to compare")
        return
    print(f"   narde-guide through JSON-lines drivers as in section 2, {DRIVER_BLOCK} requests to each in turn;")
    print("   nard-backgammon has no head rule, so its answers differ: speed only")
    engines = [(name, child(None, "drive", name)) for name in ("reference", "nard-backgammon")]
    secs = driver_rows(engines, [line + "\n" for line in state_lines("narde-guide", states)], repeat, DRIVER_BLOCK)
    MEASURED["nard"] = secs["nard-backgammon"] / secs["reference"]


SPREAD = {24: 1, 22: 2, 20: 2, 18: 2, 16: 2, 14: 2, 11: 2, 9: 2}  # white spread wide, no six in a row
BLACK_HEAD = {24: 15}


def crazy_layout(white: dict[int, int], black: dict[int, int]) -> Layout:
    w, b = [0] * 24, [0] * 24
    for p, n in white.items():
        w[p - 1] = n
    for p, n in black.items():
        b[p - 1] = n
    layout = Layout("crazy-narde", tuple(w), tuple(b))
    layout.validate()
    return layout


def bench_chains(base: Path | None, repeat: int) -> None:
    """Worst chains: each segment's result set, and the whole turns from 6-6 and 5-5 (today's and the baseline's)."""
    rules = rulesets()["crazy-narde"].rules()
    layout = crazy_layout(SPREAD, BLACK_HEAD)
    print("\n5. Crazy Narde chains from a spread-out position (white on 24, 22(2), 20(2) ... 9(2); mid-game)")
    print("   each segment alone (what a legal-plays request asks):")
    for d in range(1, 7):
        state = State(layout, "white", (d, d), TurnContext(False, 10, 0), segment=Segment("white", (d,) * 4))
        tracemalloc.start()
        start = time.perf_counter()
        results = search(state, rules).results
        spent = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(f"     {d}-{d} x4: {len(results):6,} distinct results, {spent * 1000:7.1f} ms, peak {peak / 1e6:5.1f} MB")
    print("   whole turns, every segment to the end of the chain (4-4 and lower end in 2.2 million to about")
    print("   60 million distinct positions: not an interactive query, not run):")
    lines = state_lines("crazy-narde", [State(layout, "white", (d, d), TurnContext(False, 10, 0)) for d in (6, 5)])
    now, then = side_by_side(base, lines, "turns", str(repeat))
    for i, d in enumerate((6, 5)):
        figure = f"     chain from {d}-{d}: {now['finals'][i]:9,} distinct end positions in {now['secs'][i]:7.3f} s"
        figure += f" (+{now['read'][i]:.3f} s to read them all as layouts)"
        if then:
            figure += f"; at {BASELINE} {then['finals'][i]:,} in {then['secs'][i]:.3f} s: "
            figure += f"{then['secs'][i] / now['secs'][i]:5.1f}x"
            figure += f" ({(then['secs'][i] + then['read'][i]) / (now['secs'][i] + now['read'][i]):.1f}x read included)"
        print(figure)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=3000, help="random backgammon positions (default 3000)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3, help="timed passes; the best counts (default 3)")
    parser.add_argument("--profile", action="store_true", help="also print the reference engine's cProfile hot spots")
    parser.add_argument("--no-suite", action="store_true", help="skip the suite run")
    parser.add_argument("--no-baseline", action="store_true", help=f"do not measure the engine of commit {BASELINE}")
    parser.add_argument("--serve", action="store_true", help="only section 0: the suite through `gammonspec serve`")
    parser.add_argument("--no-serve", action="store_true", help="skip the suite through `gammonspec serve`")
    args = parser.parse_args()
    if args.serve:
        bench_serve(args.repeat)
        print_bars()
        return
    base = None if args.no_baseline else baseline_tree(BASELINE)
    if not args.no_serve:
        bench_serve(args.repeat)
        print()
    if not args.no_suite:
        bench_suite()
    bench_drivers(args.n, args.seed, args.repeat, base)
    bench_movegen(args.n, args.seed, args.repeat, args.profile)
    bench_narde(min(args.n, 2000), args.seed, args.repeat, base)
    bench_chains(base, args.repeat)
    if base:
        shutil.rmtree(base, ignore_errors=True)
    print_bars()


if __name__ == "__main__":
    main()
