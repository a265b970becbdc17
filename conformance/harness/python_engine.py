"""A Python engine run in process, behind the same boundary as a process engine.

Every call (loading, `info`, each query) runs on one worker thread of the engine's own, with a time
limit, and its answer is checked for type (`messages.check_answer`).  A Python engine cannot be stopped
from outside: one that runs past its limit is left stuck on its thread and the run stops
(`EngineFailure.fatal`), with a pointer to `gammonspec serve`, which runs it as a process that can
be stopped and restarted.  `sys.exit()` or a KeyboardInterrupt raised in an engine is an error of that request,
never the run's exit.
"""

from __future__ import annotations

import queue
import shlex
import threading
from collections.abc import Callable
from typing import Any

from gammonspec.conformance.harness.loading import check_info, load_engine
from gammonspec.conformance.harness.messages import METHODS, check_answer, check_methods
from gammonspec.model.interface import (
    STARTUP_TIMEOUT,
    TIMEOUT,
    Engine,
    EngineFailure,
    EngineInfo,
    EngineLoadError,
    describe_exception,
)


class PythonEngine:
    """The Engine protocol for a Python engine `spec` (module:attr or an entry point name), timed and checked."""

    def __init__(self, spec: str, timeout: float = TIMEOUT, startup_timeout: float = STARTUP_TIMEOUT) -> None:
        self.spec, self.timeout = spec, timeout
        self._calls: queue.Queue[tuple[Callable[[], Any], queue.Queue[tuple[bool, Any]]]] = queue.Queue()
        self._stuck: str | None = None
        threading.Thread(target=self._work, name=f"engine {spec}", daemon=True).start()
        self._engine: Engine = self._call("loading", startup_timeout, lambda: load_engine(spec), load=True)
        info = self._call("info()", startup_timeout, self._engine.info, load=True)
        self._info = check_info(spec, info)
        check_methods(spec, self._engine, self._info)

    def _work(self) -> None:
        while True:
            call, answer = self._calls.get()
            try:
                answer.put((True, call()))
            except BaseException as exc:  # noqa: BLE001 - SystemExit included: it must not end the run
                answer.put((False, exc))

    def _call(self, what: str, limit: float, call: Callable[[], Any], load: bool = False) -> Any:
        if self._stuck is not None:
            raise EngineFailure(f"not asked: the engine is still stuck in {self._stuck}", fatal=True)
        answer: queue.Queue[tuple[bool, Any]] = queue.Queue(maxsize=1)
        self._calls.put((call, answer))
        try:
            ok, value = answer.get(timeout=limit)
        except queue.Empty:
            self._stuck = what
            timed = f"--engine-cmd {shlex.quote(f'gammonspec serve --engine {self.spec}')}"
            message = (
                f"{what} gave no answer within {limit:g} s: the run stops (an engine in process cannot be stopped;"
                f" {timed} runs it as a process, timed and restarted)"
            )
            if load:  # no case names the engine yet
                raise EngineLoadError(f"engine {self.spec!r}: {message}") from None
            raise EngineFailure(message, fatal=True) from None
        if ok:
            return value
        if load and isinstance(value, EngineLoadError):
            raise value
        if load:
            raise EngineLoadError(f"engine {self.spec!r}: {what} raised {describe_exception(value)}") from None
        if not isinstance(value, Exception):  # SystemExit, or a KeyboardInterrupt the engine raised itself (on
            # its own thread, never the user's Ctrl-C, which reaches the main thread): an error of this request
            raise EngineFailure(f"{what}: {describe_exception(value)}") from None
        raise value

    def _query(self, method: str, *args: Any) -> Any:
        bound = getattr(self._engine, method)
        return self._call(method, self.timeout, lambda: check_answer(method, bound(*args)))

    def info(self) -> EngineInfo:
        return self._info

    def __getattr__(self, method: str) -> Callable[..., Any]:
        if method not in METHODS:
            raise AttributeError(method)
        return lambda *args: self._query(method, *args)
