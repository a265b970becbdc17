"""GNU Backgammon's program, Debian's `gnubg` package (`apt-get install gnubg`: /usr/games/gnubg, GPL-3.0+).

Driven as a process: `gnubg -t -q -p engines/gnubg_cli_moves.py` runs that script in gnubg's own embedded Python,
which sets each position by its position ID (`set board`), the dice (`set dice`), and lists every legal play
with `hint` at 0-ply (every play is evaluated, one per distinct resulting position), each turned into its
steps by gnubg's `parsemove`.  Requests and answers go over two pipes, so gnubg's own output never mixes in.
This adapter applies the steps to the position and answers `legal-plays` for the `backgammon` ruleset, nothing
else.  Installing the program is not a Python extra: `apt-get install gnubg` (or GAMMONSPEC_GNUBG naming it).

What it does differently: nothing the suite or `fuzz` finds.  The program lists whole plays, so the
first-bear-off truncation of the PyPI wheel's `findbestmoves` tuples (engines/gnubg_pypi.py) is not there.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import IO

from gammonspec.model.interface import EngineLoadError
from gammonspec.model.state import Layout, Side

from .base import MoveGenerator
from .boards import from_gnubg, gnubg_after, to_gnubg

SCRIPT = Path(__file__).with_name("gnubg_cli_moves.py")


def program() -> str:
    """The gnubg program: GAMMONSPEC_GNUBG, else `gnubg` on PATH, else Debian's /usr/games/gnubg."""
    named = os.environ.get("GAMMONSPEC_GNUBG") or shutil.which("gnubg") or "/usr/games/gnubg"
    if not os.access(named, os.X_OK):
        raise EngineLoadError(
            f"the gnubg-cli adapter needs GNU Backgammon's program ({named} not found): apt-get install gnubg"
        )
    return named


class GnubgCli(MoveGenerator):
    """Backgammon legal plays from GNU Backgammon's program, one process per adapter."""

    name = "gnubg-cli"

    def __init__(self) -> None:
        self.program = program()
        ask_read, self._ask = os.pipe()
        self._read_fd, answer_write = os.pipe()
        env = {**os.environ, "GAMMONSPEC_GNUBG_IN": str(ask_read), "GAMMONSPEC_GNUBG_OUT": str(answer_write)}
        self.process = subprocess.Popen(
            [self.program, "-t", "-q", "-p", str(SCRIPT)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(ask_read, answer_write),
            env=env,
        )
        os.close(ask_read)
        os.close(answer_write)
        self.requests: IO[str] = os.fdopen(self._ask, "w")
        self.answers: IO[str] = os.fdopen(self._read_fd)

    def version(self) -> str:
        first = subprocess.run([self.program, "--version"], capture_output=True, text=True, check=False).stdout
        return first.split()[2] if first.startswith("GNU Backgammon ") else "unknown"

    def plays(self, layout: Layout, side: Side, d1: int, d2: int) -> list[Layout]:
        board = to_gnubg(layout, side)
        self.requests.write(json.dumps({"board": board, "dice": [d1, d2]}) + "\n")
        self.requests.flush()
        line = self.answers.readline()
        if not line:
            raise RuntimeError(f"gnubg ({self.program}) ended (exit status {self.process.poll()})")
        answer = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"gnubg: {answer['error']}")
        return sorted({from_gnubg(gnubg_after(board, map(tuple, steps)), side) for steps in answer["plays"]})
