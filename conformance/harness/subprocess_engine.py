"""An engine in another process, any language, over the JSON-lines protocol (spec/protocol.md).

Every failure of the engine process (it crashes, exits, closes its output, hangs past the time limit,
prints something that is not a protocol message, answers another request, writes a line over the size
limit) becomes an `EngineFailure` for that one request, with the tail of the engine's stderr; the
process and everything it started (its process group) is then stopped, and a new one started for the
next request.  Only a hang waits the limit out: an exit is seen by the process's end even while a process
it started holds its output, and an answer with an earlier request's id fails at once.  The time limit
covers reading and checking the answer; starting a process and its handshake have their own limit
(`startup_timeout`) and never count against a request.  A line the engine writes after an answer,
unasked (or a copy of an answer, however late), is recorded in `strays` (the runner names the case it followed).
"""

from __future__ import annotations

import collections
import functools
import hashlib
import os
import select
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import fields
from typing import Any, BinaryIO, TypeVar

from gammonspec.conformance.harness.engine_command import command_words
from gammonspec.conformance.harness.messages import METHODS, QUERIES
from gammonspec.conformance.harness.protocol import (
    MAX_LINE,
    ProtocolError,
    compatible,
    decode,
    encode,
    hello_refusal,
    unknown_fields,
)
from gammonspec.model import PROTOCOL_VERSION, __version__, profiles
from gammonspec.model.interface import (
    CAPABILITIES,
    STARTUP_TIMEOUT,
    TIMEOUT,
    EngineFailure,
    EngineInfo,
    EngineLoadError,
    Skip,
)
from gammonspec.model.terminal import clipped, say, shortened
from gammonspec.model.yamlio import DataError

__all__ = ["EngineFailure", "SubprocessEngine"]

STDERR_LINES = 40
STDERR_LINE_CHARS = 2000  # longer stderr lines are cut when kept
T = TypeVar("T")


class _Oversize:
    """The reader's mark for a line longer than MAX_LINE."""


OVERSIZE = _Oversize()


class _Exited:
    """The reader's mark for an engine process that is gone while its output is still open (held by a
    process it started): nothing more can be asked of it."""


EXITED = _Exited()
EXIT_CHECK = 0.1  # seconds between looks at whether the engine process is still there, while waiting for a line


class _Lines:
    """The engine's output as lines (bytes, blank ones skipped), read in the caller's thread off the pipe.

    `get` gives the next line, None once the output has ended, OVERSIZE for a line longer than MAX_LINE
    (both final: nothing after them is read), EXITED when the process `gone` watches has exited and no
    whole line is left to read, or raises TimeoutError when no whole line comes in time."""

    def __init__(self, stream: BinaryIO, gone: Callable[[], bool]) -> None:
        self._gone = gone
        self._fd = stream.fileno()
        os.set_blocking(self._fd, False)
        self._poll = select.poll()
        self._poll.register(self._fd, select.POLLIN)
        self._buffer = bytearray()
        self._scanned = 0  # the buffer's first bytes that hold no newline
        self._ended = False
        self._final: _Oversize | None = None  # set once an oversize line was seen
        self.received = 0  # bytes read in all: none from a running engine hints at unflushed output

    def get(self, timeout: float) -> bytes | _Oversize | _Exited | None:
        deadline = time.monotonic() + timeout
        while (line := self._line()) is False:
            left = deadline - time.monotonic()
            if not self._poll.poll(max(0.0, min(left, EXIT_CHECK)) * 1000):
                if self._gone():  # what it wrote before it exited is in the pipe by now: read it first
                    if not self._poll.poll(0):
                        return EXITED
                elif left <= EXIT_CHECK:
                    raise TimeoutError
                else:
                    continue
            try:
                chunk = os.read(self._fd, 1 << 16)
            except BlockingIOError:
                continue
            except OSError:  # the pipe is gone: as the end of the output
                chunk = b""
            self._buffer += chunk
            self.received += len(chunk)
            self._ended = not chunk
        return line

    def _line(self) -> bytes | _Oversize | None | bool:
        """The next whole line in the buffer; False when more must be read first."""
        while self._final is None:
            end = self._buffer.find(b"\n", self._scanned)
            if end < 0:
                if len(self._buffer) > MAX_LINE:
                    break
                if not self._ended:
                    self._scanned = len(self._buffer)
                    return False
                if not self._buffer:
                    return None
                end = len(self._buffer) - 1  # the last line, without its newline
            if end > MAX_LINE:
                break
            raw = bytes(self._buffer[: end + 1])
            del self._buffer[: end + 1]
            self._scanned = 0
            if raw.strip():
                return raw
        self._final = OVERSIZE
        return OVERSIZE


EXIT_WAIT = 5.0  # seconds for a process that closed its output while exiting to be gone (where that cannot be told)
PF_EXITING = 0x4  # Linux's flag of a process in exit, in /proc/PID/stat


def _exiting(pid: int) -> bool | None:
    """Whether process `pid` is exiting or has exited, from /proc (Linux); None where that cannot be told.

    A process's open files close while it exits, before it can be waited for: its output ends a moment
    before its exit status is there.  A process whose output ended that is not exiting closed it itself."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()  # after the command name, which may hold anything
    except (OSError, IndexError):
        return None
    return fields[0] in (b"Z", b"X") or bool(int(fields[6]) & PF_EXITING)


def _digest(raw: bytes) -> bytes:
    """An answer line's fingerprint, kept instead of the line (which may be megabytes)."""
    return hashlib.blake2b(raw.strip(), digest_size=16).digest()


class _StderrTail:
    """The last lines of an engine's stderr, read to its end in a thread of its own (an engine must never block on
    a full pipe).  Both that thread and `text` read the pipe, one at a time: `text` first takes up what the engine
    has written so far, so the tail it gives is as of now.  Never UTF-8 strict: reading must not stop."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream  # held: the pipe stays open, whatever becomes of the process object, until read out
        self.fd = stream.fileno()
        os.set_blocking(self.fd, False)
        self.lines: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self.partial = b""  # the start of a line not ended yet
        self.ended = False
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._drain, daemon=True)
        self.thread.start()

    def _drain(self) -> None:
        ready = select.poll()
        ready.register(self.fd, select.POLLIN)
        while self._take():
            ready.poll()

    def _take(self) -> bool:
        """Read what the pipe holds now into the tail; False once the output has ended."""
        with self.lock:
            while not self.ended:
                try:
                    chunk = os.read(self.fd, 64 * 1024)
                except BlockingIOError:
                    return True
                except OSError:  # closed with the process
                    chunk = b""
                if not chunk:
                    self.ended = True
                    if self.partial:
                        self._keep(self.partial)
                    return False
                *complete, self.partial = (self.partial + chunk).split(b"\n")
                for line in complete:
                    self._keep(line)
                if len(self.partial) >= 64 * 1024:  # a line without end is kept in pieces
                    self._keep(self.partial)
                    self.partial = b""
            return False

    def _keep(self, raw: bytes) -> None:
        self.lines.append(raw.decode("utf-8", errors="replace").rstrip("\r")[:STDERR_LINE_CHARS])

    def text(self) -> str:
        self._take()
        return "\n".join(self.lines)


def _shown(value: Any) -> str:
    """A hello field's value in a message: names, not the objects' insides."""
    if isinstance(value, tuple):
        return ", ".join(getattr(v, "name", str(v)) for v in value) or "none"
    return shortened(str(value), 60)


class SubprocessEngine:
    """The Engine protocol on top of a child process."""

    def __init__(self, command: str, timeout: float = TIMEOUT, startup_timeout: float = STARTUP_TIMEOUT) -> None:
        if not hasattr(select, "poll"):  # the pipes are read with poll and the engine stopped by process group
            raise EngineLoadError("--engine-cmd needs a POSIX system (Linux, macOS); on Windows, run it under WSL")
        self.command, self.timeout, self.startup_timeout = command, timeout, startup_timeout
        self.words = command_words(command)
        self.restarts = 0
        self.startup_seconds = 0.0  # spent starting processes and their handshakes (not a request's time)
        self.label = "the handshake"  # what the current requests are for (the runner sets the case)
        self.strays: list[tuple[str, str]] = []  # (label of the answer it followed, the line)
        self.hello_notes: list[str] = []  # fields of the hello this runner does not know (ignored)
        self.unknown_capabilities: list[str] = []  # capability names of the hello it does not know (ignored)
        self._proc: subprocess.Popen[bytes] | None = None
        self._lines: _Lines | None = None
        self._stderr: _StderrTail | None = None
        self._info: EngineInfo | None = None
        self._next_id = 0
        # request id -> (label, digest of its answer line): a late duplicate is told from an answer with a stale id
        self._answered: dict[str, tuple[str, bytes]] = {}
        self._last_label = "the handshake"
        self.slow_start_said = False

    # -- process management -------------------------------------------------
    def _start(self) -> None:
        self._spawn()
        self._handshake()

    def _spawn(self) -> None:
        try:
            self._proc = subprocess.Popen(
                self.words,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,  # its own process group: stopping it stops what it started
            )
        except OSError as exc:
            raise EngineFailure(f"cannot start engine {self.command!r}: {exc.strerror or exc}") from None
        proc = self._proc
        assert proc.stdout is not None
        self._lines = _Lines(proc.stdout, lambda: proc.poll() is not None)
        assert proc.stderr is not None
        self._stderr = _StderrTail(proc.stderr)  # this process's stderr only
        self._answered.clear()
        self._last_label = "the handshake"

    def _handshake(self) -> None:
        hello = self._exchange(
            {"type": "hello", "protocol": PROTOCOL_VERSION, "suite": __version__},
            None,
            self.startup_timeout,
            "the handshake",
        )
        if hello["type"] != "hello":
            self._fail(f"engine answered the handshake with {hello['type']!r}, not hello")
        if not compatible(hello["protocol"]):
            self._fail(f"engine speaks protocol {hello['protocol']}, the runner {PROTOCOL_VERSION}")
        try:
            declared = tuple(profiles.from_data(p, "engine hello") for p in hello.get("profiles", []))
        except DataError as exc:
            self._fail(f"engine declares a bad profile: {exc.message}")
        if clash := profiles.clashing_name(declared, hello["rulesets"]):
            self._fail(f"engine declares a bad profile: {clash}")
        self.hello_notes = unknown_fields(hello)
        self.unknown_capabilities = [c for c in hello.get("capabilities", []) if c not in CAPABILITIES]
        info = EngineInfo(
            clipped(hello["name"]),  # shown in every summary line: one line, of bounded length
            clipped(hello["version"]),
            tuple(hello["rulesets"]),
            tuple(c for c in hello.get("capabilities", CAPABILITIES) if c in CAPABILITIES),
            {k: tuple(v) for k, v in hello.get("options", {}).items()},
            declared,
            hello.get("reads_switches", False),
        )
        if self._info is not None and info != self._info:  # a restart: its answers are credited to the first hello
            changed = next(f.name for f in fields(info) if getattr(info, f.name) != getattr(self._info, f.name))
            self._fail(
                f"engine restarted with another hello than its first: its {changed} changed"
                f" ({_shown(getattr(self._info, changed))} before, {_shown(getattr(info, changed))} now)",
                fatal=True,
            )
        self._info = info

    def _stop(self) -> None:
        if self._proc is not None:
            self.abort()
            try:
                self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            self._proc = None

    def _output_ended(self, stream: str = "output") -> None:
        """The engine closed its output (or its input, `stream`): it exited, or is exiting, or closed it and runs on."""
        assert self._proc is not None
        if self._proc.poll() is None and _exiting(self._proc.pid) is not False:
            try:  # it is exiting (or there is no telling here): wait for its exit status
                self._proc.wait(timeout=EXIT_WAIT)
            except subprocess.TimeoutExpired:
                pass
        if self._proc.returncode is None:
            self._fail(f"engine closed its {stream} without answering (it is still running)")
        self._fail("engine exited without answering")

    def _fail(self, message: str, fatal: bool = False) -> None:
        """Give up on this process: the next request starts a new one (with `fatal`, the run asks nothing more)."""
        if self._proc is not None:
            code = self._proc.poll()
            self._stop()
            if self._stderr is not None:  # read the dead process's stderr to the end before reporting it
                self._stderr.thread.join(timeout=10)  # the whole group is gone, so the pipe ends at once
            self.restarts += 1
            if code is not None:
                message += f" (exit status {code})"
        raise EngineFailure(f"{message} [engine: {self.command}]", self._stderr.text() if self._stderr else "", fatal)

    def _text(self, raw: bytes) -> str:
        if raw.startswith(b"\xef\xbb\xbf"):
            self._fail("engine output starts with a byte-order mark: protocol lines are UTF-8 without one")
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            self._fail(
                f"engine output is not UTF-8 (byte 0x{raw[exc.start]:02x} at column {exc.start + 1}): {raw[:80]!r}"
            )
            raise  # not reached

    def _strays_waiting(self) -> None:
        """Lines already written before a request is sent were not asked for: record them, unread."""
        assert self._lines is not None
        while True:
            try:
                raw = self._lines.get(0.0)
            except TimeoutError:
                return
            if not isinstance(raw, bytes):  # the end of the output or an oversize line: the next read sees it
                return
            self.strays.append((self._last_label, raw.decode("utf-8", errors="replace").rstrip()))

    def _exchange(
        self,
        message: dict[str, Any],
        expect_id: str | None,
        limit: float,
        label: str,
        convert: Callable[[dict[str, Any]], T] = lambda reply: reply,  # type: ignore[assignment,return-value]
    ) -> T:
        """Send one message and read, check and convert its answer, all within `limit` seconds."""
        assert self._proc is not None and self._proc.stdin is not None and self._lines is not None
        if expect_id is not None:  # before the hello, whatever the engine wrote is read as its answer to it
            self._strays_waiting()
        try:
            self._proc.stdin.write((encode(message) + "\n").encode("utf-8"))
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError):
            self._output_ended("input")  # as when its output ends: no race
        deadline = time.monotonic() + limit
        notice = time.monotonic() + self.timeout if expect_id is None and limit > self.timeout else None
        while True:
            try:
                raw = self._lines.get(min(deadline, notice or deadline) - time.monotonic())
            except TimeoutError:
                if notice is not None and time.monotonic() < deadline:
                    notice = None  # a slow start is allowed: say once why the wait is longer than --timeout
                    if not self.slow_start_said:
                        self.slow_start_said = True
                        say(f"no hello within --timeout {self.timeout:g} s; waiting up to {limit:g} s (--startup-timeout)")
                    continue
                silent = not self._lines.received and self._proc.poll() is None
                hint = ": is the engine flushing its output? (it is running and has written nothing)" if silent else ""
                self._fail(f"no answer within {limit:g} s{hint}")
            if raw is None:
                self._output_ended()
            if isinstance(raw, _Exited):
                self._fail("engine exited without answering, leaving its output open in a process it started")
            if isinstance(raw, _Oversize):
                self._fail(f"answer longer than {MAX_LINE:,} bytes (the protocol's limit for one line)")
            try:
                reply = decode(self._text(raw), "from_engine")
            except ProtocolError as exc:
                if expect_id is None and (refusal := hello_refusal(raw)):
                    self._fail(f"engine answered the handshake with {refusal}")
                late = " (or a line written late, after its previous answer)" if self._answered else ""
                self._fail(f"invalid message from engine: {exc}{late}")
            rid = reply.get("id")
            if expect_id is not None and reply["type"] == "hello":  # a second handshake: unasked, however late
                self.strays.append(("the handshake", raw.decode("utf-8", errors="replace").rstrip()))
                continue
            if expect_id is not None and rid in self._answered:
                earlier, digest = self._answered[rid]
                if _digest(raw) == digest:  # the same line again: unasked, however late; this answer is still due
                    self.strays.append((earlier, raw.decode("utf-8", errors="replace").rstrip()))
                    continue
                self._fail(  # another answer with an earlier id: this request's, mislabelled; never wait it out
                    f"engine answered request {expect_id!r} with the id of an earlier one, {rid!r} ({earlier})"
                )
            if expect_id is not None and rid != expect_id:
                self._fail(f"engine answered request {rid!r}, expected {expect_id!r}")
            break
        if expect_id is not None:
            self._answered[expect_id] = (label, _digest(raw))
        self._last_label = label
        if reply["type"] in ("skip", "error"):
            return reply  # type: ignore[return-value]
        value = convert(reply)  # an impossible position raises StateError: the runner names the case
        if time.monotonic() > deadline:
            self._fail(f"answer not read and checked within {limit:g} s")
        return value

    def _ask(self, kind: str, *args: Any) -> Any:
        """Ask query `kind` (messages.QUERIES) with the engine method's arguments; its answer, read."""
        if self._proc is None or self._proc.poll() is not None:
            began = time.perf_counter()
            try:
                self._start()
            finally:
                self.startup_seconds += time.perf_counter() - began
        query = QUERIES[kind]
        named = dict(zip(query.params, args))
        self._next_id += 1
        rid = str(self._next_id)
        request = query.request(rid, args)  # schema-valid by construction (tests), never checked again here

        def checked(reply: dict[str, Any]) -> Any:
            if reply["type"] != query.reply_type:
                self._fail(f"engine answered a {kind} request with {reply['type']!r}")
            return query.answer(reply, named)

        reply: Any = self._exchange(request, rid, self.timeout, self.label, checked)
        if isinstance(reply, dict) and reply.get("type") == "skip":
            raise Skip(clipped(reply["reason"]))
        if isinstance(reply, dict) and reply.get("type") == "error":
            message = clipped(reply["message"])
            raise EngineFailure(f"engine error: {message}", self._stderr.text() if self._stderr else "")
        return reply

    # -- the Engine protocol ---------------------------------------------------
    def spawn(self) -> None:
        """Start the process now, so that it starts up while the caller works; `info()` then asks its hello."""
        if self._proc is None:
            self._spawn()

    def abort(self) -> None:
        """Kill the process at once, from any thread: a request waiting for it fails as for an engine that died."""
        proc = self._proc
        if proc is not None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (OSError, AttributeError):  # already gone (or no process groups here)
                proc.kill()

    def info(self) -> EngineInfo:
        if self._info is None:
            self._handshake() if self._proc is not None else self._start()
        assert self._info is not None
        return self._info

    def __getattr__(self, method: str) -> Callable[..., Any]:
        """The Engine protocol's query methods (messages.METHODS: legal_plays, opening, ...), each asking its query."""
        query = METHODS.get(method)
        if query is None:
            raise AttributeError(method)
        return functools.partial(self._ask, query.request_type)

    def close(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            try:
                assert self._proc.stdin is not None
                self._proc.stdin.write(b'{"type":"bye"}\n')
                self._proc.stdin.flush()
                self._proc.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._stop()
