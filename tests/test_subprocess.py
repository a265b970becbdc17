"""Engines in another process: the JSON-lines protocol, `gammonspec serve`, and every way a process can fail."""

from __future__ import annotations

import json
import os
import select
import shlex
import sys
from pathlib import Path

import pytest
from conftest import ENGINES, MINI_IDS
from gammonspec.conformance.harness.cases import suite
from gammonspec.conformance.harness.runner import Filters, plan, run
from gammonspec.conformance.harness.subprocess_engine import EngineFailure, SubprocessEngine
from gammonspec.model import PROTOCOL_VERSION
from gammonspec.model.rulesets import rulesets
from gammonspec.reference import ReferenceEngine

# The request limit for the "hang" fakes. It only has to run out for a fake that never answers;
# every other answer comes in milliseconds, and a new process's handshake has its own generous
# limit (STARTUP_TIMEOUT), so a loaded machine cannot make these tests fail.
TIMEOUT = 3.0


def python_command(*args: str) -> str:
    return " ".join(shlex.quote(a) for a in (sys.executable, *args))


def serve_command(*args: str) -> str:
    script = Path(sys.executable).with_name("gammonspec")
    if script.exists():
        return " ".join(shlex.quote(a) for a in (str(script), "serve", *args))
    return python_command("-m", "gammonspec.conformance.cli", "serve", *args)


@pytest.fixture
def spawn():
    """spawn(command, timeout) -> a SubprocessEngine that is closed after the test."""
    engines: list[SubprocessEngine] = []

    def _spawn(command: str, timeout: float = 60.0, startup_timeout: float = 60.0) -> SubprocessEngine:
        engine = SubprocessEngine(command, timeout, startup_timeout)
        engines.append(engine)
        return engine

    yield _spawn
    for engine in engines:
        engine.close()


@pytest.fixture
def fake(spawn, fake_cmd):
    """fake(mode, trigger="4-4", timeout=60) -> a SubprocessEngine running tests/engines/fake_process.py."""

    def _fake(
        mode: str, trigger: str = "4-4", timeout: float = 60.0, startup_timeout: float = 60.0
    ) -> SubprocessEngine:
        return spawn(fake_cmd(mode, trigger), timeout, startup_timeout)

    return _fake


def summary(outcomes) -> list[tuple]:
    return [(o.key, o.status, o.message, o.missing, o.extra, o.step) for o in outcomes]


def run_mini(engine, mini):
    result = {o.case.id: o for o in run(engine, plan(mini, {"backgammon": rulesets()["backgammon"]}, Filters()))}
    assert list(result) == MINI_IDS
    return result


# --- the reference engine over the protocol ------------------------------------------------------


def test_serve_gives_the_same_results_as_in_process_for_the_whole_suite(spawn):
    pairs = plan(suite(), rulesets(), Filters())
    assert pairs
    in_process = list(run(ReferenceEngine(), pairs))
    engine = spawn(serve_command())
    over_pipe = list(run(engine, pairs))
    assert summary(over_pipe) == summary(in_process)
    assert engine.restarts == 0
    assert engine.info().name == ReferenceEngine().info().name
    assert engine.info().rulesets == ReferenceEngine().info().rulesets


def test_serve_gives_the_same_failures_as_in_process(spawn, mini, monkeypatch):
    import fake_engines

    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ENGINES), os.environ.get("PYTHONPATH", "")]))
    in_process = run_mini(fake_engines.DropOne(), mini)
    engine = spawn(serve_command("--engine", "fake_engines:DropOne"))
    over_pipe = run_mini(engine, mini)
    assert summary(over_pipe.values()) == summary(in_process.values())
    assert over_pipe["mini-spread-65"].status == "failed" and over_pipe["mini-spread-65"].missing
    assert engine.restarts == 0


def test_fake_engine_behaves_when_not_triggered(fake, mini):
    engine = fake("crash", trigger="never")
    assert all(o.status == "passed" for o in run_mini(engine, mini).values())
    assert engine.restarts == 0 and engine.info().name == "fake-crash"


# --- failures during a run -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "mode, message, stderr",
    [
        ("crash", "engine exited without answering", "crashing on purpose"),
        ("exit", "engine exited without answering", "exiting quietly"),
        ("hang", f"no answer within {TIMEOUT:g} s", "hanging on purpose"),
        ("garbage", "invalid message from engine: not JSON", "printing garbage"),
        ("wrong-id", "engine answered request 'not-", "answering another request"),
    ],
)
def test_process_failure_is_errored_and_the_engine_restarts(fake, mini, mode, message, stderr):
    engine = fake(mode, timeout=TIMEOUT) if mode == "hang" else fake(mode)
    results = run_mini(engine, mini)
    assert {k: o.status for k, o in results.items()} == {
        **dict.fromkeys(MINI_IDS, "passed"),
        "mini-count-44": "errored",
    }
    failed = results["mini-count-44"]
    assert failed.message.startswith(message), failed.message  # what went wrong first, no class name
    assert "fake_process.py" in failed.message  # names the engine command
    assert f"fake-engine[{mode}]: {stderr}" in failed.stderr
    assert engine.restarts == 1


def test_crash_carries_the_traceback_and_exit_status(fake, mini):
    failed = run_mini(fake("crash"), mini)["mini-count-44"]
    assert "RuntimeError: fake engine crashed" in failed.stderr
    assert "(exit status 1)" in failed.message


def test_every_restart_is_counted(fake, mini):
    engine = fake("crash", trigger="6-5")  # three cases roll 6-5
    results = run_mini(engine, mini)
    assert {k for k, o in results.items() if o.status == "errored"} == {"mini-spread-65", "mini-hit-65", "mini-dance"}
    assert {k for k, o in results.items() if o.status == "passed"} == {"mini-count-44", "mini-gammon", "mini-not-over"}
    assert engine.restarts == 3


def test_error_reply_is_errored_without_a_restart(fake, mini):
    engine = fake("error")
    results = run_mini(engine, mini)
    failed = results["mini-count-44"]
    assert failed.status == "errored" and "engine error: 4-4 is beyond me" in failed.message
    assert "fake-engine[error]: started" in failed.stderr  # the live process's stderr so far
    assert engine.restarts == 0
    assert sum(o.status == "passed" for o in results.values()) == 5


def test_skip_reply_is_skipped(fake, mini):
    engine = fake("skip")
    results = run_mini(engine, mini)
    assert results["mini-count-44"].status == "skipped"
    assert results["mini-count-44"].message == "engine skipped: no doubles today"
    assert engine.restarts == 0


def test_impossible_position_in_an_answer_is_a_failure_listed_as_extra(fake, mini):
    engine = fake("bad-position")
    failed = run_mini(engine, mini)["mini-count-44"]
    assert failed.status == "failed" and any("impossible position: white has 16 checkers" in e for e in failed.extra)
    assert engine.restarts == 0  # a wrong answer, not a broken engine


# --- handshake failures --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "mode, message",
    [
        ("proto2", f"engine speaks protocol 2.0, the runner {PROTOCOL_VERSION}"),
        ("exit-at-start", "(exit status 4)"),
        ("garbage-hello", "invalid message from engine: not JSON"),
        ("hang-at-hello", f"no answer within {TIMEOUT:g} s"),
    ],
)
def test_handshake_failure(fake, mode, message):
    engine = fake(mode, startup_timeout=TIMEOUT) if mode == "hang-at-hello" else fake(mode)
    with pytest.raises(EngineFailure) as info:
        engine.info()
    assert message in str(info.value)
    assert f"fake-engine[{mode}]: started" in info.value.stderr
    assert engine._proc is None  # the process is gone


def test_exit_at_start_reports_the_exit(fake):
    engine = fake("exit-at-start")
    with pytest.raises(EngineFailure) as info:
        engine.info()
    assert "exiting before the handshake" in info.value.stderr
    assert "engine exited without answering" in str(info.value)


def test_handshake_failure_stops_the_run(fake, mini):
    engine = fake("proto2")
    with pytest.raises(EngineFailure, match="protocol 2.0"):
        list(run(engine, plan(mini, rulesets(), Filters())))


def test_command_that_cannot_start(spawn, tmp_path):
    engine = spawn(shlex.quote(str(tmp_path / "no-such-engine")))
    with pytest.raises(EngineFailure, match="cannot start engine"):
        engine.info()


def test_close_says_bye(spawn):
    engine = spawn(serve_command())
    engine.info()
    proc = engine._proc
    engine.close()
    assert proc.returncode == 0 and engine._proc is None
    engine.close()  # twice is fine


# --- the server side -----------------------------------------------------------------------------


def bad_process(mode: str) -> str:
    return python_command(str(ENGINES / "bad_process.py"), mode)


def test_failed_handshake_still_writes_both_reports(tmp_path, capsys):
    from gammonspec.conformance import cli

    json_path, junit_path = tmp_path / "r.json", tmp_path / "r.xml"
    argv = [
        "run",
        "-q",
        "--json",
        str(json_path),
        "--junit",
        str(junit_path),
        "--engine-cmd",
        bad_process("hello-proto2"),
    ]
    assert cli.main(argv) == 2
    assert "engine speaks protocol 2.0" in capsys.readouterr().err
    data = json.loads(json_path.read_text())
    assert data["results"] == [] and "engine speaks protocol 2.0" in data["error"]
    import xml.etree.ElementTree as ET

    error = ET.parse(junit_path).getroot().find("testsuite/testcase/error")
    assert error is not None and "protocol 2.0" in error.get("message")


def test_control_characters_from_the_engine_keep_junit_well_formed(tmp_path):
    import xml.etree.ElementTree as ET

    from gammonspec.conformance import cli

    junit_path, json_path = tmp_path / "r.xml", tmp_path / "r.json"
    argv = ["run", "-q", "--case", "bg-bar-enter-*", "--junit", str(junit_path), "--json", str(json_path)]
    assert cli.main([*argv, "--engine-cmd", bad_process("ansi-error")]) == 1
    root = ET.parse(junit_path).getroot()  # raises on malformed XML
    errors = [e.get("message") for e in root.iter("error")]
    assert errors == ["engine error: red alert\\x07"]
    cases = list(root.iter("testcase"))
    assert cases and all(float(tc.get("time")) >= 0 for tc in cases)
    result = json.loads(json_path.read_text())["results"][0]
    assert result["file"].endswith(".yaml") and result["line"] > 0 and result["title"] and result["time"] >= 0


def test_restart_time_is_not_the_next_requests_time(fake, mini):
    engine = fake("crash")
    results = run_mini(engine, mini)
    assert engine.restarts == 1 and engine.startup_seconds > 0
    after = results["mini-dance"]  # the first request after the restart
    assert after.status == "passed" and after.seconds >= 0


def test_stray_duplicate_answer_errors_the_case_it_followed(spawn):
    pairs = plan(suite(), rulesets(), Filters(cases=("bg-bar-enter-*",)))
    outcomes = list(run(spawn(bad_process("stray-duplicate")), pairs))
    assert [o.status for o in outcomes] == ["errored"] + ["passed"] * (len(pairs) - 1)
    assert outcomes[0].message.startswith(f"unexpected line after the answer to case {outcomes[0].key}: ")


def test_a_line_before_the_hello_is_the_answer_to_it_however_early_it_came(spawn, tmp_path):
    """A log line written before the hello is read as the engine's answer to it (garbage), never set aside as a
    stray: the handshake fails the same whether the runner sent its hello before or after the line came."""
    script = tmp_path / "chatty.py"
    script.write_text(
        "import json, sys\n"
        "print('engine ready', flush=True)\n"
        "for line in sys.stdin:\n"
        f"    print(json.dumps({{'type': 'hello', 'protocol': '{PROTOCOL_VERSION}', 'name': 'chatty',"
        " 'version': '1', 'rulesets': ['backgammon']}), flush=True)\n"
    )
    engine = spawn(f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}")
    engine.spawn()
    assert engine._proc is not None and engine._proc.stdout is not None
    assert select.select([engine._proc.stdout], [], [], 60)[0]  # the log line waits in the pipe, unread
    with pytest.raises(EngineFailure, match=r"invalid message from engine: not JSON .*'engine ready"):
        engine.info()


def test_a_process_group_is_stopped_whole(spawn, tmp_path):
    engine = spawn(bad_process("hang-with-child"), timeout=TIMEOUT)
    pairs = plan(suite(), rulesets(), Filters(cases=("bg-bar-enter-either-number-white",)))
    (outcome,) = run(engine, pairs)
    assert outcome.status == "errored" and "no answer within" in outcome.message
    assert engine.restarts == 1


FORKING = """import subprocess, sys
from pathlib import Path
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])  # in the engine's process group
Path(sys.argv[1], f"{child.pid}.pid").touch()
from gammonspec.conformance.harness.protocol import serve
from gammonspec.reference import ReferenceEngine
sys.exit(serve(ReferenceEngine()))
"""


def _running(pid: int) -> bool:
    """Whether process `pid` runs (a zombie, killed and waiting for a parent to reap it, does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "-q", "--case", "bg-bar-*"],
        ["run", "-q", "-j", "2", "--case", "bg-bar-*"],
        ["report", "--out", "{tmp}/reports"],
    ],
    ids=["run", "run-jobs", "report"],
)
def test_what_an_engine_started_is_stopped_at_a_normal_end(tmp_path, argv):
    """An engine's children are in its process group, stopped whole when the command ends, not only after a fault."""
    import subprocess

    script, pids = tmp_path / "forking.py", tmp_path / "pids"
    script.write_text(FORKING)
    pids.mkdir()
    command = [str(Path(sys.executable).with_name("gammonspec")), *(a.replace("{tmp}", str(tmp_path)) for a in argv)]
    done = subprocess.run(
        [*command, "--engine-cmd", python_command(str(script), str(pids))], capture_output=True, text=True, timeout=600
    )
    assert done.returncode in (0, 1), done.stderr
    started = [int(p.stem) for p in pids.iterdir()]
    assert started, "the engine started no child"
    assert not [pid for pid in started if _running(pid)], f"left running after the command ended: {started}"


def test_engine_cmd_without_poll_is_one_line(monkeypatch, capsys):
    """Where select has no poll (Windows), --engine-cmd is refused in one line, not an internal error."""
    from gammonspec.conformance import cli

    monkeypatch.delattr(select, "poll")
    assert cli.main(["run", "-q", "--case", MINI_IDS[0], "--engine-cmd", "gammonspec serve"]) == 2
    out, err = capsys.readouterr()
    assert err == "gammonspec: --engine-cmd needs a POSIX system (Linux, macOS); on Windows, run it under WSL\n"
    assert out == ""


UNFLUSHED = """import json, sys
sys.stdout = open(1, "w", buffering=1 << 16)  # as a pipe is buffered in most languages; never flushed
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": "1.1", "name": "u", "version": "0", "rulesets": ["backgammon"]}))
"""


def test_an_engine_that_never_flushes_gets_the_hint(tmp_path, capsys):
    script = tmp_path / "unflushed.py"
    script.write_text(UNFLUSHED)
    engine = SubprocessEngine(f"{shlex.quote(sys.executable)} {script}", timeout=1, startup_timeout=TIMEOUT)
    with pytest.raises(EngineFailure) as info:
        engine.info()
    assert "is the engine flushing its output? (it is running and has written nothing)" in str(info.value)
    # the wait past --timeout is said once, on stderr
    assert f"waiting up to {TIMEOUT:g} s (--startup-timeout)" in capsys.readouterr().err


# --- faults that must not cost the time limit ------------------------------------------------------
# Each runs with a limit of 600 s per request: a fault that waited the limit out would hang the test
# visibly, never pass slowly, so none of these depends on the machine's speed.
SLOW_FAULTS = {
    "stale-id": "engine answered request '2' with the id of an earlier one, '1' (case backgammon::",
    "closes-output": "engine closed its output without answering (it is still running)",
    "exit-leaving-child": "engine exited without answering, leaving its output open in a process"
    " it started (exit status 4)",
}


@pytest.mark.parametrize("mode", SLOW_FAULTS)
def test_a_fault_is_reported_at_once_not_after_the_time_limit(spawn, mode):
    pairs = plan(suite(), rulesets(), Filters(cases=("bg-bar-enter-*",)))
    engine = spawn(bad_process(mode), timeout=600)
    outcomes = list(run(engine, pairs))
    errored = [o for o in outcomes if o.status == "errored"]
    assert not any("no answer within" in o.message for o in outcomes)
    if mode == "stale-id":  # each new process answers its first request right, then the next with that one's id
        assert [o.status for o in outcomes] == ["passed", "errored"] * (len(pairs) // 2) + ["passed"] * (len(pairs) % 2)
        assert errored[0].message.startswith(SLOW_FAULTS[mode]), errored[0].message
    else:  # every new process fails its first request
        assert len(errored) == len(pairs)
        assert all(o.message.startswith(SLOW_FAULTS[mode]) for o in errored), errored[0].message
    assert engine.restarts == len(errored)


def test_a_late_duplicate_still_errors_the_case_it_followed_and_the_next_one_runs(spawn):
    """A line equal to an earlier answer is a second answer to that request, however late it came: it is
    blamed on that request's case, and the answer now due is still read (no restart)."""
    pairs = plan(suite(), rulesets(), Filters(cases=("bg-bar-enter-*",)))
    engine = spawn(bad_process("stray-duplicate"), timeout=600)
    outcomes = list(run(engine, pairs))
    assert [o.status for o in outcomes] == ["errored"] + ["passed"] * (len(pairs) - 1)
    assert engine.restarts == 0


def test_the_handshake_has_the_timeout_when_no_startup_timeout_is_given(capsys):
    from gammonspec.conformance import cli

    command = bad_process("hello-hang")
    assert cli.main(["run", "-q", "--case", "bg-bar-enter-*", "--timeout", "1", "--engine-cmd", command]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gammonspec: the engine failed its handshake: no answer within 1 s: ")
    assert "waiting up to" not in err  # no longer limit to wait out


@pytest.mark.parametrize(
    "given, limits",
    [
        ([], (10.0, 60.0)),
        (["--timeout", "2"], (2.0, 2.0)),
        (["--startup-timeout", "30"], (10.0, 30.0)),
        (["--timeout", "2", "--startup-timeout", "30"], (2.0, 30.0)),
    ],
)
def test_time_limits_of_the_command_line(given, limits):
    from gammonspec.conformance import cli

    for command in ("run", "identify", "fuzz", "perft", "replay", "report"):
        extra = {"report": ["--out", "x"], "replay": ["x.mat"]}.get(command, [])
        args = cli._parser().parse_args([command, *extra, *given])
        cli.limits(args)
        assert (args.timeout, args.startup_timeout) == limits, command


def test_a_restarted_engine_with_another_hello_stops_the_run(spawn, tmp_path, monkeypatch):
    """After a crash the new process is asked its hello again; one that declares another engine is not credited."""
    monkeypatch.chdir(tmp_path)  # where the fake leaves its mark of the first crash
    engine = spawn(bad_process("renamed-after-crash"))
    pairs = plan(suite(), rulesets(), Filters(cases=("bg-bar-enter-*",)))
    outcomes = list(run(engine, pairs))
    assert [o.status for o in outcomes] == ["errored", "errored"]  # the crash, then the other hello: no more
    assert "engine exited without answering" in outcomes[0].message
    assert "engine restarted with another hello than its first: its name changed (bad before, other now)" in (
        outcomes[1].message
    )
    assert outcomes[1].fatal and engine.info().name == "bad"


@pytest.mark.parametrize(
    ("command", "fragment"),
    [
        ("FOO=1 ./e", "'FOO=1' sets a variable, which only a shell does: write env FOO=1"),
        ("~/e", "'~/e' starts with ~, which only a shell expands"),
        ("./e | tee log", "'|' is shell syntax"),
        ("./e; ./f", "';' is shell syntax"),
        ("python e.py $HOME", "'$' is shell syntax"),
    ],
)
def test_engine_cmd_shell_syntax_is_refused_with_how_to_write_it(command, fragment):
    from gammonspec.conformance.harness.engine_command import command_words
    from gammonspec.model.interface import EngineLoadError

    with pytest.raises(EngineLoadError, match="runs without a shell") as raised:
        command_words(command)
    assert fragment in str(raised.value)


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ("./e --sep '|'", ["./e", "--sep", "|"]),
        ('./e "a > b" x=1', ["./e", "a > b", "x=1"]),
        (r"./e \$HOME", ["./e", "$HOME"]),
        ("env FOO=1 ./e", ["env", "FOO=1", "./e"]),
        ("sh -c './e | tee log'", ["sh", "-c", "./e | tee log"]),
    ],
)
def test_quoted_shell_characters_are_plain_arguments(command, words):
    from gammonspec.conformance.harness.engine_command import command_words

    assert command_words(command) == words
