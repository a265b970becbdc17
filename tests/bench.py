"""Benchmarks of the reference engine (a script, not a test): `python tests/bench.py [-n N] [--profile] [--serve]`.

0. (--serve, alone) The suite through `gammonspec serve` beside the same run in process, in one run.

1. The whole suite run in-process against the reference engine (loading the cases timed apart),
   per game, with the slowest case and its peak memory.
2. The reference engine's backgammon move generator in positions per second on N random positions
   and rolls, beside gnubg-nn's `moves` and bgsage's `possible_moves` on the very same inputs in the
   same run (each library when installed: the optional extra `crosscheck`).
3. Narde plays per second on random Narde positions (both rulesets).
4. Crazy Narde's worst chains: for chains of doubles from spread-out positions, the distinct
   results of each segment and of the whole turn, with time and peak memory.

Every generator is timed on its own native board format, converted before the clock starts, so
the figures are the cost of listing every distinct resulting position, nothing else; each gets a
warm-up pass first and the best of --repeat timed passes counts.  --profile prints the reference
engine's cProfile hot spots on the same positions.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import crosscheck_gnubg as cc  # noqa: E402
from gammonspec.conformance.cases import suite  # noqa: E402
from gammonspec.conformance.rules import rulesets  # noqa: E402
from gammonspec.conformance.runner import Filters, plan, run, run_one  # noqa: E402
from gammonspec.conformance.state import Layout, Segment, State, TurnContext  # noqa: E402
from gammonspec.reference import ReferenceEngine  # noqa: E402
from gammonspec.reference.movegen import legal_plays, play_segment  # noqa: E402
from gammonspec.reference.turn import turn_results  # noqa: E402


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
    from gammonspec.conformance.python_engine import PythonEngine
    from gammonspec.conformance.subprocess_engine import SubprocessEngine

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
    base = best["in process (gammonspec run)"]
    for name, secs in best.items():
        print(f"   {name:30s} {secs:7.3f} s   {secs / base:5.2f}x the in-process run")


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


def bench_movegen(n: int, seed: int, repeat: int, profile: bool) -> None:
    rules = cc.bg_rules()
    samples = cc.samples(seed, n, rules)
    kinds = Counter(s.kind for s in samples)
    doubles = sum(s.dice[0] == s.dice[1] for s in samples)
    print(
        f"\n2. Backgammon move generation: {n} random positions + rolls (seed {seed}; "
        + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
        + f"; doubles {doubles / n:.0%}, over-weighted on purpose); best of {repeat}"
    )
    ctx = TurnContext()
    ref_inputs = [(s.layout, s.side, s.dice) for s in samples]
    ref = timed(lambda x: legal_plays(x[0], x[1], x[2], ctx, rules), ref_inputs, repeat)
    rows = [("reference engine (legal_plays)", ref)]
    try:
        import gnubg_nn
    except ImportError:
        print("   gnubg-nn not installed (pip install gnubg-nn): no comparison")
    else:
        gn_inputs = [(cc.to_gnubg(s.layout, s.side), s.dice) for s in samples]
        rows.append(("gnubg-nn (moves)", timed(lambda x: gnubg_nn.moves(x[0], x[1][0], x[1][1]), gn_inputs, repeat)))
    try:
        import bgsage
    except ImportError:
        print("   bgsage not installed (pip install bgsage): no comparison")
    else:
        bs_inputs = [(cc.to_bgsage(s.layout, s.side), s.dice) for s in samples]
        rows.append(
            (
                "bgsage (possible_moves)",
                timed(lambda x: bgsage.possible_moves(x[0], x[1][0], x[1][1]), bs_inputs, repeat),
            )
        )
    for name, secs in rows:
        ratio = "" if name.startswith("reference") else f"   {ref / secs:6.1f}x the reference's rate"
        print(f"   {name:32s} {n / secs:10,.0f} positions/s  ({secs * 1e6 / n:7.1f} us each){ratio}")
    if profile:
        prof = cProfile.Profile()
        prof.enable()
        for layout, side, dice in ref_inputs:
            legal_plays(layout, side, dice, ctx, rules)
        prof.disable()
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(15)
        print("\n3. cProfile of the reference engine on the same positions (sorted by own time)")
        print(out.getvalue())


def bench_narde(n: int, seed: int, repeat: int) -> None:
    import test_narde_independent as nd

    inputs = list(nd.samples(seed, n))
    print(f"\n3. Narde move generation: {n} random positions + rolls (seed {seed}); best of {repeat}")
    for name in ("narde-guide", "narde-variant"):
        rules = rulesets()[name].rules()
        secs = timed(lambda x, rules=rules: legal_plays(x[0], x[1], x[2], x[3], rules), inputs, repeat)
        print(f"   reference engine, {name:14s} {n / secs:10,.0f} positions/s  ({secs * 1e6 / n:7.1f} us each)")


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


def bench_chains(whole_turn_limit: float) -> None:
    """Worst chains: each segment's result set, and whole turns where they fit in the time limit."""
    rules = rulesets()["crazy-narde"].rules()
    layout = crazy_layout(SPREAD, BLACK_HEAD)
    print("\n4. Crazy Narde chains from a spread-out position (white on 24, 22(2), 20(2) ... 9(2); mid-game)")
    print("   each segment alone (what a legal-plays request asks):")
    for d in range(1, 7):
        state = State(layout, "white", (d, d), TurnContext(False, 10, 0), segment=Segment("white", (d,) * 4))
        tracemalloc.start()
        start = time.perf_counter()
        results = play_segment(state, rules)[0]
        spent = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(f"     {d}-{d} x4: {len(results):6,} distinct results, {spent * 1000:7.1f} ms, peak {peak / 1e6:5.1f} MB")
    print(f"   whole turns, every segment to the end of the chain (skipped past {whole_turn_limit:g} s):")
    for d in (6, 5, 4, 3, 2, 1):
        state = State(layout, "white", (d, d), TurnContext(False, 10, 0))
        tracemalloc.start()
        start = time.perf_counter()
        finals, widest = turn_results(state, rules)
        spent = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(
            f"     chain from {d}-{d}: {len(finals):9,} distinct end positions, widest frontier {widest:,},"
            f" {spent:6.2f} s (under tracemalloc), peak {peak / 1e6:6.1f} MB"
        )
        if spent > whole_turn_limit / 50:  # the next, longer chain costs far more: stop here
            print(f"     chains from {d - 1}-{d - 1} down: not run (each costs more than the limit)" if d > 1 else "")
            break


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "-n", type=int, default=5000, help="random positions for the move-generation benchmark (default 5000)"
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3, help="timed passes; the best counts (default 3)")
    parser.add_argument("--profile", action="store_true", help="also print the reference engine's cProfile hot spots")
    parser.add_argument("--no-suite", action="store_true", help="skip the suite run")
    parser.add_argument(
        "--serve", action="store_true", help="only the suite through `gammonspec serve` beside the in-process run"
    )
    parser.add_argument(
        "--chain-limit", type=float, default=120, help="seconds a whole-turn chain may take (default 120)"
    )
    args = parser.parse_args()
    if args.serve:
        bench_serve(args.repeat)
        return
    if not args.no_suite:
        bench_suite()
    bench_movegen(args.n, args.seed, args.repeat, args.profile)
    bench_narde(min(args.n, 2000), args.seed, args.repeat)
    bench_chains(args.chain_limit)


if __name__ == "__main__":
    main()
