"""GNU Backgammon's "export match text": one game a file, each action with its board and analysis.

The file starts `The score (after N games) is: A a, B b (match to L points)` (no parenthesis for money
play; `, Crawford game` when it is one). Each turn is a `Move number M:  NAME to play 31` header, a board
diagram and the analysis, and one line saying what was done: `* NAME moves 8/5 6/5`, `* NAME cannot move`,
`* NAME doubles`, `* NAME accepts` or `* NAME rejects`; the game ends with `NAME wins N points`. Only those
lines are read (the diagrams and analysis are the program's comments on them). The first name of the score
line is the first player, white (as the .mat's left column); a multi-game match is exported as one file a
game (`NAME.txt`, `NAME_002.txt`, ...), each read as a record that starts at its recorded score.
"""

from __future__ import annotations

import re
from pathlib import Path

from gammonspec.conformance.tools.transcripts import (
    FIRST,
    SECOND,
    Action,
    Ending,
    Game,
    Transcript,
    TranscriptError,
    beavers,
    standard_play,
)
from gammonspec.model.state import Side

MARK = "The score (after "  # how the export starts
_SCORE = re.compile(
    r"^The score \(after (?P<games>\d+) games?\) is: (?P<a>.*) (?P<sa>\d+), (?P<b>.*) (?P<sb>\d+)"
    r"(?: \(match to (?P<length>\d+) points?\)(?P<rest>.*))?$"
)
_TURN = re.compile(r"^Move number (?P<move>\d+):\s+(?P<name>.+?) (?:to play (?P<roll>[1-6]{2})|.*)$")
_DONE = re.compile(r"^\* (?P<name>.+?) (?P<verb>moves|cannot move|doubles|accepts|rejects|resigns)\b ?(?P<rest>.*)$")
_WINS = re.compile(r"^(?P<name>.+?) wins (?P<points>\d+) points?$")
_KINDS = {"doubles": "double", "accepts": "take", "rejects": "drop"}


def read_gnubg_text(path: Path, text: str) -> Transcript:
    lines = text.splitlines()
    score = _SCORE.match(lines[0].strip())
    if not score:
        raise TranscriptError(path, 1, f"expected GNU Backgammon's score line ('{MARK}0 games) is: ...'), found {lines[0][:60]!r}")
    players = (score["a"], score["b"])
    sides: dict[str, Side] = {score["a"]: FIRST, score["b"]: SECOND}
    length = int(score["length"] or 0)
    actions: list[Action] = []
    ending: Ending | None = None
    move, roll, resigning = 0, None, False
    for n, raw in enumerate(lines[1:], 2):
        line = raw.rstrip()
        if (turn := _TURN.match(line)) is not None:
            move, roll = int(turn["move"]), turn["roll"]
            continue
        done, wins = _DONE.match(line), _WINS.match(line)
        who = (done or wins)["name"] if done or wins else None
        if who is None:
            continue  # a diagram, the analysis, the statistics
        if who not in sides:
            raise TranscriptError(path, n, f"{who!r} is neither player ({players[0]!r}, {players[1]!r})")
        if wins:
            ending = Ending(sides[who], int(wins["points"]), n)
            break
        verb = done["verb"]  # type: ignore[index]
        if verb == "resigns":
            resigning = True  # what follows answers the resignation, not a double
        elif verb in ("moves", "cannot move") and not resigning:
            if roll is None:
                raise TranscriptError(path, n, f"{line.strip()!r} without a roll (no 'Move number ... to play' before it)")
            play = standard_play(path, n, done["rest"].split()) if verb == "moves" else ""  # type: ignore[index]
            actions.append(Action("play", sides[who], n, move, (int(roll[0]), int(roll[1])), play))
            roll = None
        elif not resigning:
            actions.append(Action(_KINDS[verb], sides[who], n, move))  # type: ignore[arg-type]
    number = int(score["games"]) + 1
    crawford = "crawford game" in (score["rest"] or "").lower() if length else None
    game = Game(number, 1, (int(score["sa"]), int(score["sb"])), crawford, tuple(beavers(actions)), ending)
    return Transcript(path, "gnubg-text", length, players, (game,))
