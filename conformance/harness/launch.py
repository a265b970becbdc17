"""`gammonspec run` from the engine's side: start it, check that it can run something, run, report, exit status.

Every way this can go wrong ends in one line on stderr naming the engine (and the case) and a
documented exit status: 0 every case that ran passed, 1 failures, 2 bad input or usage, including an
engine that cannot start or fails its handshake, a run in which no case can run, and an engine that
had to be given up mid-run.  The reports asked for are written in every one of these cases.
"""

from __future__ import annotations

import shlex
import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from gammonspec.conformance.harness import jobs, reports
from gammonspec.conformance.harness.cases import Case
from gammonspec.conformance.harness.jobs import Shard
from gammonspec.conformance.harness.python_engine import PythonEngine
from gammonspec.conformance.harness.runner import Filters, Outcome, plan, run, skip_reason
from gammonspec.conformance.harness.subprocess_engine import SubprocessEngine
from gammonspec.model.interface import (
    CAPABILITIES,
    STARTUP_TIMEOUT,
    TIMEOUT,
    Engine,
    EngineFailure,
    EngineInfo,
    EngineLoadError,
)
from gammonspec.model.rulesets import Ruleset, rulesets
from gammonspec.model.terminal import printable, say, shortened

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
ERRORS_SHOWN = 20  # errored cases listed on stderr, one line each
Pairs = list[tuple[Case, Ruleset]]


@dataclass(frozen=True)
class EngineSpec:
    """The engine a command names and its time limits: a Python engine (`module:attr` or an installed
    engine's name) or a command speaking the protocol; with neither, the reference engine."""

    engine: str | None = None
    engine_cmd: str | None = None
    timeout: float = TIMEOUT
    startup_timeout: float = STARTUP_TIMEOUT

    @property
    def named(self) -> bool:
        """Whether an engine was named (else the reference engine runs)."""
        return self.engine is not None or self.engine_cmd is not None

    def rerun(self) -> str:
        """The engine arguments of a command line that reruns a case against the same engine."""
        if self.engine_cmd is not None:
            return f"--engine-cmd {shlex.quote(self.engine_cmd)}"
        return f"--engine {shlex.quote(self.engine)}" if self.engine else ""


def start(spec: EngineSpec | None) -> Engine:
    """The engine of `spec`, not yet started: the one place an engine is made from a command's options.

    None is the reference engine in this process, unwrapped (as perft and fuzz count with it); a spec
    naming no engine is the reference engine behind the Python adapter, as `gammonspec run` checks it."""
    if spec is None:
        from gammonspec.reference import ReferenceEngine

        return ReferenceEngine()
    if spec.engine_cmd is not None:
        return SubprocessEngine(spec.engine_cmd, spec.timeout, spec.startup_timeout)
    return PythonEngine(spec.engine or "reference", spec.timeout, spec.startup_timeout)


_WORKER_ENGINES: dict[tuple[int, EngineSpec | None], Engine] = {}


def worker_engine(spec: EngineSpec | None) -> Engine:
    """This worker's engine for `spec`, started on first use and kept: the one cache of every worker process of
    `--jobs` and of a Dask cluster (keyed by thread too: in-process Dask workers are threads)."""
    key = (threading.get_ident(), spec)
    if key not in _WORKER_ENGINES:
        if not _WORKER_ENGINES:  # stopped when the worker ends: a pool's process skips atexit, not its finalizers
            import atexit
            from multiprocessing import util

            util.Finalize(None, close_worker_engines, exitpriority=10)
            atexit.register(close_worker_engines)
        _WORKER_ENGINES[key] = start(spec)
    return _WORKER_ENGINES[key]


def close_worker_engines() -> None:
    """Stop this process's worker engines, each with everything it started (its process group)."""
    while _WORKER_ENGINES:
        _, engine = _WORKER_ENGINES.popitem()
        if hasattr(engine, "close"):
            engine.close()


@dataclass(frozen=True)
class RunOptions:
    """What `gammonspec run` asks of the engine's side: the engine, the reports and how the cases are spread."""

    engine: EngineSpec
    cases: tuple[Path, ...]
    json: Path | None
    junit: Path | None
    quiet: bool
    verbose: bool
    jobs: int
    shard: Shard | None


class EarlyHandshake:
    """An engine process started, and its hello asked in the background, while the cases load: its start-up
    overlaps the loading.  `info()` waits for the answer (or raises what the handshake raised); an engine in
    this process is asked only then (importing it beside the loading would gain nothing)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._info: EngineInfo | None = None
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        if isinstance(engine, SubprocessEngine):
            try:
                engine.spawn()  # here, so that close() always finds the process to stop
            except EngineFailure as exc:
                self._error = exc
                return
            self._thread = threading.Thread(target=self._ask, name="handshake", daemon=True)
            self._thread.start()

    def _ask(self) -> None:
        try:
            self._info = self.engine.info()
        except BaseException as exc:  # noqa: BLE001 - raised again by info(), in the runner's thread
            self._error = exc

    def info(self) -> EngineInfo:
        if self._thread is not None:
            self._thread.join()
        if self._error is not None:
            raise self._error
        return self._info or self.engine.info()

    def close(self) -> None:
        """Stop the engine, its handshake first if that is still waiting (a run that ends before it starts)."""
        if self._thread is not None:
            if self._thread.is_alive():
                assert isinstance(self.engine, SubprocessEngine)
                self.engine.abort()
            self._thread.join()
        if hasattr(self.engine, "close"):
            self.engine.close()


def handshake(engine: Engine) -> EngineInfo:
    """The engine's answer to hello; failing the handshake is an EngineLoadError (exit 2) worded as for run."""
    try:
        return engine.info()
    except EngineFailure as exc:
        raise EngineLoadError(f"the engine failed its handshake: {exc}") from None


def why_nothing_runs(info: EngineInfo, pairs: Pairs) -> str | None:
    """Why no selected case can be asked of this engine, or None when some can."""
    if any(skip_reason(case, ruleset, info) is None for case, ruleset in pairs):
        return None
    known = list(rulesets())
    declared = list(info.rulesets)
    unknown = [name for name in declared if name not in known]
    selected = sorted({ruleset.name for _, ruleset in pairs})
    if not declared:
        why = "it declares no rulesets"
    elif len(unknown) == len(declared):
        why = f"it declares no ruleset this suite knows: {', '.join(unknown)} (known: {', '.join(known)})"
    elif not set(declared) & set(selected):
        why = f"it declares {', '.join(declared)}, and the cases selected run under {', '.join(selected)}"
    else:
        why = f"every case selected needs a query or option it does not offer (it answers: {', '.join(info.capabilities) or 'no query this runner knows'})"
    return f"no case can run against engine {info.name}: {why}"


def _write_error(options: RunOptions, message: str, stderr: str = "") -> None:
    for path, write in ((options.json, reports.write_json_error), (options.junit, reports.write_junit_error)):
        if path is not None:
            write(path, message, stderr)


def fail(options: RunOptions, message: str, stderr: str = "", said: bool = False) -> int:
    """Say why the run cannot go on, with the engine's `stderr` (unless `said`: shown already), write the
    reports asked for with both, and give the exit status."""
    say(message)
    if stderr and not said:
        print(printable(stderr), file=sys.stderr)
    _write_error(options, message, stderr)
    return EXIT_USAGE


def run_engine(
    options: RunOptions,
    early: EarlyHandshake,
    pairs: Pairs,
    expect_fail: set[str],
    progress: Callable[[Iterable[tuple[Case, Ruleset]]], Iterable[tuple[Case, Ruleset]]],
    own_profiles: bool = True,
) -> int:
    """Run `pairs` against the engine of `options` (started by `early`), print and write the reports; the exit
    status.  With `own_profiles`, the cases also run under the profiles the engine declares."""
    engine = early.engine
    try:
        try:
            info = early.info()
        except EngineLoadError as exc:
            return fail(options, str(exc))
        except EngineFailure as exc:
            return fail(options, f"the engine failed its handshake: {exc}", exc.stderr)
        if own_profiles and info.profiles:
            cases = list({case.id: case for case, _ in pairs}.values())  # cases are not hashable
            pairs = pairs + plan(cases, {p.name: p for p in info.profiles}, Filters())
        nothing = why_nothing_runs(info, pairs)
        if nothing:
            if unknown := getattr(engine, "unknown_capabilities", []):  # a misspelt name is the likely cause
                nothing += f"; it declares capabilities this runner does not know: {_some(unknown)} "
                nothing += f"(known: {', '.join(CAPABILITIES)})"
            return fail(options, nothing)
        _notes(engine, info)
        shard = options.shard
        plan_keys = [f"{target.name}::{case.id}" for case, target in pairs]
        selected, pairs = len(pairs), jobs.select(pairs, shard)
        if shard is not None and not pairs:
            return fail(
                options,
                f"shard {shard.index}/{shard.count} is empty: the {selected} (case, ruleset)"
                f" {'pair selected fills' if selected == 1 else 'pairs selected fill'} fewer than {shard.count} shards",
            )
        if options.jobs > 1:
            if hasattr(engine, "close"):
                engine.close()  # each worker starts its own
            outcomes, restarts = run_parallel(options, pairs, expect_fail, progress)
        else:
            outcomes = list(run(engine, pairs, expect_fail, progress=progress))
            restarts = getattr(engine, "restarts", 0)
    finally:
        if hasattr(engine, "close"):
            engine.close()
    rerun_args = rerun_arguments(options)
    print(printable(reports.text(outcomes, info, restarts, options.quiet, options.verbose, rerun_args)))
    if options.json:
        sharded = None if shard is None else {"shard": shard.to_json(), "plan": plan_keys}
        reports.write_json(options.json, outcomes, info, restarts, sharded, rerun_args)
    if options.junit:
        reports.write_junit(options.junit, outcomes, info, rerun_args)
    errored = [o for o in outcomes if o.status == "errored"]
    for o in errored[:ERRORS_SHOWN]:
        say(f"case {o.key}: engine {info.name}: {o.message}")
    if len(errored) > ERRORS_SHOWN:
        say(f"... and {len(errored) - ERRORS_SHOWN} more errored cases (all in the report above)")
    fatal = next((o for o in outcomes if o.fatal), None)
    if fatal is not None:
        say(f"the run stopped after case {fatal.key}: the engine cannot be asked anything more")
        return EXIT_USAGE
    if all(o.status == "skipped" for o in outcomes):
        say(f"no case ran: engine {info.name} skipped all {len(outcomes)} cases selected")
        return EXIT_USAGE
    return EXIT_OK if reports.ok(outcomes) else EXIT_FAILED


def _run_chunk(spec: EngineSpec, expect_fail: set[str], chunk: Pairs) -> list[tuple[list[Outcome], int]]:
    """A worker's chunk of cases run on its engine: [(the outcomes, the engine's restarts meanwhile)]."""
    engine = worker_engine(spec)
    before = getattr(engine, "restarts", 0)
    return [(list(run(engine, chunk, expect_fail)), getattr(engine, "restarts", 0) - before)]


def run_parallel(
    options: RunOptions,
    pairs: Pairs,
    expect_fail: set[str],
    progress: Callable[[Iterable[tuple[Case, Ruleset]]], Iterable[tuple[Case, Ruleset]]],
) -> tuple[list[Outcome], int]:
    """The cases over `options.jobs` worker processes, one engine each; the outcomes in plan order, and the restarts."""
    ticks = iter(progress(pairs))
    outcomes: list[Outcome] = []
    restarts = 0
    for chunk_outcomes, chunk_restarts in jobs.parallel(
        partial(_run_chunk, options.engine, expect_fail),
        pairs,
        options.jobs,
        done=lambda n: [next(ticks, None) for _ in range(n)],
    ):
        outcomes += chunk_outcomes
        restarts += chunk_restarts
    next(ticks, None)  # the progress bar closes
    return outcomes, restarts


def rerun_arguments(options: RunOptions) -> str:
    """The engine and case-file arguments of a command line that reruns a case of this run."""
    return " ".join([options.engine.rerun(), *(f"--cases {shlex.quote(str(path))}" for path in options.cases)]).strip()


def _notes(engine: Engine, info: EngineInfo) -> None:
    """What the engine declared that this runner ignores, said once before the run."""
    unknown = [name for name in info.rulesets if name not in rulesets()]
    if unknown:
        say(f"note: engine {info.name} declares rulesets this suite does not know, ignored: {_some(unknown)}")
    fields = getattr(engine, "hello_notes", [])
    if fields:
        say(f"note: engine {info.name}'s hello has fields this runner does not know, ignored: {_some(fields)}")
    if capabilities := getattr(engine, "unknown_capabilities", []):
        say(f"note: engine {info.name} declares capabilities this runner does not know, ignored: {_some(capabilities)}")


def _some(names: list[str], most: int = 8) -> str:
    """The first `most` names, and how many more (an engine may declare thousands)."""
    shown = ", ".join(shortened(name, 40) for name in names[:most])
    return shown + (f" and {len(names) - most:,} more" if len(names) > most else "")
