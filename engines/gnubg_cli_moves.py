"""Run inside GNU Backgammon's own Python (`gnubg -t -q -p gnubg_cli_moves.py`), by engines/gnubg_cli.py.

Reads one JSON request a line from the file descriptor in GAMMONSPEC_GNUBG_IN, a board as gnubg's Python
module takes it (`[opponent, mover]`, 25 counts each, index 24 the bar) and the dice, and answers one JSON line
on GAMMONSPEC_GNUBG_OUT: every legal play as gnubg lists it (`hint` at 0-ply lists every distinct resulting
position), each as the (from, to) steps of `parsemove` (1-based from the mover's view, 25 the bar, 0 off), or
{"error": ...}.  It ends when the request pipe closes.  gnubg's own output goes wherever its stdout does.
"""

from __future__ import annotations

import json
import os

import gnubg  # the module exists only inside GNU Backgammon's embedded Python

SETUP = (
    "set player 0 human",
    "set player 1 human",
    "set automatic move off",  # a forced play would otherwise be made, not listed
    "set automatic bearoff off",
    "set evaluation chequerplay evaluation plies 0",  # 0-ply: every legal play is evaluated and listed
    "new game",
)


def plays(board: list[list[int]], dice: list[int]) -> list[list[list[int]]]:
    gnubg.command("set turn 1")
    gnubg.command(f"set board {gnubg.positionid(tuple(map(tuple, board)))}")
    gnubg.command(f"set dice {dice[0]} {dice[1]}")
    found = gnubg.hint(100000).get("hint", [])
    return [[list(step) for step in gnubg.parsemove(play["move"])] for play in found]


def serve() -> None:
    for command in SETUP:
        gnubg.command(command)
    with open(int(os.environ["GAMMONSPEC_GNUBG_OUT"]), "w") as out:
        for line in open(int(os.environ["GAMMONSPEC_GNUBG_IN"])):
            request = json.loads(line)
            try:
                answer = {"plays": plays(request["board"], request["dice"])}
            except Exception as exc:  # noqa: BLE001 - reported to the adapter, which raises it
                answer = {"error": f"{type(exc).__name__}: {exc}"}
            out.write(json.dumps(answer) + "\n")
            out.flush()


if __name__ == "__main__":
    serve()
