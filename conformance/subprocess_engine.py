"""An engine in another process, any language, over the JSON-lines protocol (spec/protocol.md).

Every failure of the engine process (it crashes, exits, hangs past the timeout, prints
something that is not a protocol message, answers another request) becomes an
`EngineFailure` for that one request, with the tail of the engine's stderr; the process is
then restarted for the next request.
"""

from __future__ import annotations

import collections
import queue
import shlex
import subprocess
import threading
from typing import Any

from . import PROTOCOL_VERSION, __version__, profiles
from .engine import CAPABILITIES, CubeOutcome, EngineInfo, GameResult, MatchOutcome, Opening, Skip
from .protocol import ProtocolError, compatible, decode, encode, layouts, result_from_wire, result_to_wire
from .rules import Rules
from .state import Cube, Layout, Match, Segment, Side, State
from .yamlio import DataError

STDERR_LINES = 40
STARTUP_TIMEOUT = 60.0  # seconds for a new process to answer the handshake (separate from the request limit)


class EngineFailure(RuntimeError):
    def __init__(self, message: str, stderr: str = "") -> None:
        super().__init__(message)
        self.stderr = stderr


class SubprocessEngine:
    """The Engine protocol on top of a child process."""

    def __init__(self, command: str, timeout: float = 10.0, startup_timeout: float = STARTUP_TIMEOUT) -> None:
        self.command, self.timeout, self.startup_timeout = command, timeout, startup_timeout
        self.restarts = 0
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self._drainer: threading.Thread | None = None
        self._info: EngineInfo | None = None
        self._next_id = 0

    # -- process management -------------------------------------------------
    def _start(self) -> None:
        try:
            self._proc = subprocess.Popen(
                shlex.split(self.command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                bufsize=1,
            )
        except OSError as exc:
            raise EngineFailure(f"cannot start engine {self.command!r}: {exc.strerror or exc}") from None
        self._lines = queue.Queue()
        self._stderr = collections.deque(maxlen=STDERR_LINES)  # this process's stderr only
        proc = self._proc
        threading.Thread(target=self._pump, args=(proc.stdout, self._lines), daemon=True).start()
        self._drainer = threading.Thread(target=self._drain, args=(proc.stderr, self._stderr), daemon=True)
        self._drainer.start()
        hello = self._exchange(
            {"type": "hello", "protocol": PROTOCOL_VERSION, "suite": __version__}, None, self.startup_timeout
        )
        if hello["type"] != "hello":
            self._fail(f"engine answered the handshake with {hello['type']!r}, not hello")
        if not compatible(hello["protocol"]):
            self._fail(f"engine speaks protocol {hello['protocol']}, the runner {PROTOCOL_VERSION}")
        try:
            declared = tuple(profiles.from_data(p, "engine hello") for p in hello.get("profiles", []))
        except DataError as exc:
            self._fail(f"engine declares a bad profile: {exc.message}")
        self._info = EngineInfo(
            hello["name"],
            hello["version"],
            tuple(hello["rulesets"]),
            tuple(hello.get("capabilities", CAPABILITIES)),
            {k: tuple(v) for k, v in hello.get("options", {}).items()},
            declared,
            hello.get("reads_switches", False),
        )

    @staticmethod
    def _pump(stream: Any, lines: queue.Queue[str | None]) -> None:
        for line in stream:
            lines.put(line)
        lines.put(None)

    @staticmethod
    def _drain(stream: Any, sink: collections.deque[str]) -> None:
        for line in stream:
            sink.append(line.rstrip("\n"))

    def _stop(self) -> None:
        if self._proc is not None:
            try:
                self._proc.kill()
                self._proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                pass
            self._proc = None

    def _fail(self, message: str, exited: bool = False) -> None:
        """Give up on this process: the next request starts a new one."""
        if self._proc is not None:
            try:  # a process that closed its output is exiting: wait for its exit status
                self._proc.wait(timeout=5) if exited else self._proc.poll()
            except subprocess.TimeoutExpired:
                pass
            code = self._proc.returncode
            self._stop()
            if self._drainer is not None:  # read the dead process's stderr to the end before reporting it
                self._drainer.join(timeout=10)  # returns at the pipe's end, at once unless a grandchild holds it
            self.restarts += 1
            if code is not None:
                message += f" (exit status {code})"
        raise EngineFailure(f"{message} [engine: {self.command}]", "\n".join(self._stderr))

    def _exchange(self, message: dict[str, Any], expect_id: str | None, limit: float) -> dict[str, Any]:
        assert self._proc is not None and self._proc.stdin is not None
        try:
            self._proc.stdin.write(encode(message) + "\n")
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError):
            self._fail("engine closed its input (did it exit?)", exited=True)
        try:
            line = self._lines.get(timeout=limit)
        except queue.Empty:
            self._fail(f"no answer within {limit:g} s")
        if line is None:
            self._fail("engine exited without answering", exited=True)
        try:
            reply = decode(line, "from_engine")
        except ProtocolError as exc:
            self._fail(f"garbage from engine: {exc}")
        if expect_id is not None and reply.get("id") != expect_id:
            self._fail(f"engine answered request {reply.get('id')!r}, expected {expect_id!r}")
        return reply

    def _ask(self, kind: str, rules: Rules, **fields: Any) -> dict[str, Any]:
        if self._proc is None or self._proc.poll() is not None:
            self._start()
        self._next_id += 1
        rid = str(self._next_id)
        request = {"type": kind, "id": rid, "rules": rules.to_wire(), **fields}  # schema-valid by construction (tests)
        reply = self._exchange(request, rid, self.timeout)
        if reply["type"] == "skip":
            raise Skip(reply["reason"])
        if reply["type"] == "error":
            raise EngineFailure(f"engine error: {reply['message']}", "\n".join(self._stderr))
        wanted = "plays" if kind == "legal-plays" else kind
        if reply["type"] != wanted:
            self._fail(f"engine answered a {kind} request with {reply['type']!r}")
        return reply

    # -- the Engine protocol ---------------------------------------------------
    def info(self) -> EngineInfo:
        if self._info is None:
            self._start()
        assert self._info is not None
        return self._info

    def legal_plays(self, state: State, rules: Rules) -> list[Layout]:
        return layouts(state.game, self._ask("legal-plays", rules, state=state.to_wire())["positions"])

    def next_segment(self, state: State, rules: Rules) -> Segment | None:
        return Segment.from_wire(self._ask("next-segment", rules, state=state.to_wire())["next"])

    def game_result(self, state: State, rules: Rules) -> GameResult | None:
        result = self._ask("game-result", rules, state=state.to_wire())["result"]
        return None if result is None else GameResult(result["winner"], result["kind"], result["points"])

    def opening(
        self,
        rules: Rules,
        dice: dict[str, int],
        game_number: int,
        previous_winner: Side | None,
        cube: Cube,
        match: Match,
    ) -> Opening:
        reply = self._ask(
            "opening",
            rules,
            dice=dice,
            game_number=game_number,
            previous_winner=previous_winner,
            cube=cube.to_wire(),
            match=match.to_wire(),
        )
        dice_played = None if reply["dice"] is None else tuple(reply["dice"])
        return Opening(reply["starts"], dice_played, Cube.from_wire(reply.get("cube", cube.to_wire())))

    def may_double(self, state: State, rules: Rules) -> bool:
        return self._ask("may-double", rules, state=state.to_wire())["allowed"]

    def cube_action(self, state: State, rules: Rules, response: str) -> CubeOutcome:
        reply = self._ask("cube-action", rules, state=state.to_wire(), response=response)
        cube = Cube.from_wire(reply["cube"]) if "cube" in reply else None
        result = result_from_wire(reply["result"]) if reply.get("result") else None
        return CubeOutcome(reply["legal"], cube, result)

    def match_after_game(self, state: State, rules: Rules, result: GameResult) -> MatchOutcome:
        reply = self._ask("match-after-game", rules, state=state.to_wire(), result=result_to_wire(result))
        return MatchOutcome((reply["score"]["white"], reply["score"]["black"]), reply["crawford"], reply["winner"])

    def close(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            try:
                assert self._proc.stdin is not None
                self._proc.stdin.write(encode({"type": "bye"}) + "\n")
                self._proc.stdin.flush()
                self._proc.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._stop()
