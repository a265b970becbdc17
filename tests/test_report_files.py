"""Report files: through symlinks, never into a FIFO, with the umask's mode, and never stale after Ctrl-C or SIGTERM."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from gammonspec.conformance import cli

CASE = ["--case", "bg-higher-die*", "--ruleset", "backgammon"]
SILENT = f"{sys.executable} -c 'import time; time.sleep(600)'"  # an engine that never answers its hello


def gammonspec(*args: str, module: bool = False, **kw) -> subprocess.Popen:
    """The `gammonspec` command as a user runs it: the installed script, or `python -m` with `module`."""
    command = [sys.executable, "-m", "gammonspec.conformance.cli"] if module else [str(Path(sys.executable).parent / "gammonspec")]
    return subprocess.Popen(
        [*command, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kw,
    )


def test_a_symlinked_report_is_written_to_its_target(tmp_path, capsys):
    (tmp_path / "target.json").write_text("old")
    (tmp_path / "link.json").symlink_to("target.json")
    assert cli.main(["run", "-q", *CASE, "--json", str(tmp_path / "link.json")]) == 0
    assert (tmp_path / "link.json").is_symlink()
    assert json.loads((tmp_path / "target.json").read_text())["summary"]["passed"] == 4


def test_a_fifo_report_is_refused_before_the_run(tmp_path, capsys):
    os.mkfifo(tmp_path / "fifo")
    assert cli.main(["run", *CASE, "--junit", str(tmp_path / "fifo")]) == 2
    err = capsys.readouterr().err.strip()
    assert (
        err
        == f"gammonspec: {tmp_path / 'fifo'}: --junit: is not a regular file (a FIFO, device or socket cannot hold a report)"
    )


@pytest.mark.parametrize("command", [["run", "-q", *CASE], ["perft", "--ruleset", "backgammon", "--depth", "1"]])
def test_reports_get_the_umasks_mode(tmp_path, capsys, command):
    old = os.umask(0o027)
    try:
        assert cli.main([*command, "--json", str(tmp_path / "r.json")]) == 0
    finally:
        os.umask(old)
    assert (tmp_path / "r.json").stat().st_mode & 0o777 == 0o640


def test_report_takes_an_engine_command_and_makes_its_folder(tmp_path, capsys):
    out = tmp_path / "new" / "folder"
    assert cli.main(["report", "--out", str(out), "--engine-cmd", "gammonspec serve"]) == 0
    (written,) = out.iterdir()
    assert json.loads(written.read_text())["summary"]["failed"] == 0


def test_report_without_an_engine_is_one_line(tmp_path, capsys):
    assert cli.main(["report", "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err == "gammonspec: report: name an engine (ENGINE or --engine-cmd COMMAND)\n"


def test_a_closed_stdout_keeps_the_verdict_and_the_report(tmp_path):
    """`run ... | head -1`: the reader goes after one line; the run's exit status and report stay its own."""
    mutant = Path(__file__).parent / "engines" / "mutant_engine.py"
    p = gammonspec("run", "--engine-cmd", f"{sys.executable} {mutant} bar-ignored", "--json", str(tmp_path / "r.json"))
    p.stdout.close()  # before the run prints anything
    assert p.wait() == 1, p.stderr.read()
    assert p.stderr.read() == ""
    assert json.loads((tmp_path / "r.json").read_text())["summary"]["failed"] > 0


@pytest.mark.parametrize(
    ("sig", "status", "how"),
    [(signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted"), (signal.SIGHUP, 129, "hung up")],
)
@pytest.mark.parametrize("module", [False, True], ids=["script", "python-m"])
def test_an_interrupted_run_leaves_no_earlier_report(tmp_path, sig, status, how, module):
    """Under `python -m` a bare KeyboardInterrupt once ended about one run in five by the signal (status -2)
    after it was handled: the status must be 130 however the command is started (cli.Interrupted)."""
    old = tmp_path / "r.json"
    old.write_text('{"summary": {"failed": 0}}')  # an earlier green run's
    p = gammonspec(
        "run",
        "--engine-cmd",
        SILENT,
        "--json",
        str(old),
        module=module,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    while not _engine_started(p.pid):
        time.sleep(0.05)
    p.send_signal(sig)
    assert p.wait() == status
    assert p.stderr.read() == (
        f"gammonspec: {how} before the end: no report of this run; removed the earlier report {old}, "
        "which was not this run's\n"
    )
    assert not old.exists()


def _engine_started(pid: int) -> bool:
    """The silent engine runs as a child of `pid` (so the run is waiting for its hello)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return any(b"time.sleep(600)" in Path(f"/proc/{c}/cmdline").read_bytes() for c in children)
