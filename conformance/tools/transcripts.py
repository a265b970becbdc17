"""Backgammon match transcripts, read into one model: games of recorded plays and cube actions.

Two formats (README, "Replaying match transcripts"):

* the text export of GNU Backgammon, Jellyfish, eXtreme Gammon, Backgammon Studio and Backgammon
  Galaxy (`.mat`, `.txt`, read here; each program's own spellings are noted where they are read): optional
  `; [Tag "value"]` header lines, ` N point match` (0: money play), then per game ` Game N`, a score
  line `name : 0    name : 0` and numbered lines with the first player's action in the left column
  and the second player's in the right: ` 1) 31: 8/5 6/5      64: 24/18 13/9`, `Doubles => 2`,
  `Beavers => 4`, `Takes`, `Drops`, and `Wins N point(s) [and the match]` in the winner's column;
* GNU Backgammon's SGF (`sgf.py`).

Sides: the first player (the left column, SGF's PW) is white, the second black. A play is kept in
standard notation from the mover's side (notation.py), the programs' spellings turned into it
(25 for the bar, 0 for off, SGF's letters). A beaver is kept as such whether written `Beavers`
or, as GNU Backgammon records it, as a double answering a double. Reading checks the form only;
whether the recorded game follows the rules is `replay.py`'s business.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from gammonspec.model.notation import NotationError, parse
from gammonspec.model.state import Side, other
from gammonspec.model.terminal import say
from gammonspec.model.yamlio import DataError

Kind = Literal["play", "double", "take", "drop", "beaver"]
FIRST, SECOND = "white", "black"  # the first player listed is white
GALAXY_MONEY = 16  # Backgammon Galaxy exports a money game as a one-game "16 point match"
RIGHT_COLUMN = 20  # in a .mat move line, text starting at this column or later is the second player's


class TranscriptError(DataError):
    """A transcript that cannot be read: file, line and what is wrong."""


@dataclass(frozen=True)
class Action:
    """One recorded action: a play (its dice and play in notation; "" for no move) or a cube action."""

    kind: Kind
    side: Side
    line: int
    move: int  # the move number the transcript gives it (SGF: the node's number in the game)
    dice: tuple[int, int] | None = None
    play: str | None = ""  # None: the program did not record the move (`????`, `Illegal play (...)`)
    value: int | None = None  # the cube value a double or beaver names (`Doubles => 2`), when recorded

    def describe(self) -> str:
        if self.kind == "play":
            play = "(move not recorded)" if self.play is None else self.play or "(no move)"
            return f"{self.side} {self.dice[0]}{self.dice[1]}: {play}"  # type: ignore[index]
        return f"{self.side} {self.kind}s" + (f" to {self.value}" if self.value else "")


@dataclass(frozen=True)
class Ending:
    """The recorded end of a game: who won, how many points, and (SGF only) whether by resignation."""

    winner: Side
    points: int
    line: int
    resigned: bool | None = None  # None: the format does not say (.mat)


@dataclass(frozen=True)
class Game:
    number: int
    line: int
    score: tuple[int, int] | None  # (white, black) recorded at the start; None: not recorded
    crawford: bool | None  # recorded as the Crawford game (SGF); None: the format does not say
    actions: tuple[Action, ...]
    ending: Ending | None  # None: the transcript stops before the game ends
    unread: tuple[int, str] | None = None  # a line that could not be read (its number, why): the game is skipped


@dataclass(frozen=True)
class Transcript:
    path: Path
    format: str  # "mat" or "sgf"
    length: int  # 0: money play
    players: tuple[str, str]  # (white, black)
    games: tuple[Game, ...]
    options: dict[str, bool] = field(default_factory=dict)  # backgammon options the transcript records
    crawford_rule: bool | None = None  # whether it says the match is played under the Crawford rule
    cap: int | None = None  # the most points a money game is recorded with (Backgammon Galaxy's: 16)
    part: int = 0  # its place among the matches of a file that holds several (0: the file's only match)

    @property
    def name(self) -> str:
        """How reports name it: its file, and which match of the file."""
        return f"{self.path} (match {self.part})" if self.part else str(self.path)


SUFFIXES = (".mat", ".txt", ".sgf")  # what a folder given to replay is searched for


BINARY = {  # match files in a binary format, by suffix: named (match_files.py), never read as text
    ".xg": "an eXtreme Gammon match (.xg, binary)",
    ".xgp": "an eXtreme Gammon position (.xgp, binary)",
    ".bgf": "a BGBlitz match (.bgf, binary)",
    ".gvab": "a GammonView match (.gvab, binary)",
}


def files_in(paths: list[Path]) -> list[Path]:
    """The paths given, each folder replaced by the transcripts in it and its subfolders (by suffix, sorted; a
    link to nothing is kept, to be refused when read); binary match files there are counted in a note."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            inside = sorted(p for p in path.rglob("*") if p.suffix.lower() in SUFFIXES and not p.is_dir())
            binary = [p for p in path.rglob("*") if p.suffix.lower() in BINARY and not p.is_dir()]
            if binary:
                kinds = ", ".join(sorted({p.suffix.lower() for p in binary}))
                say(f"note: {path}: {len(binary)} binary match file(s) ({kinds}) not read: export them as text")
            if not inside:
                raise TranscriptError(path, None, f"a folder with no transcript in it ({', '.join(SUFFIXES)})")
            found += inside
        else:
            found.append(path)
    return found


def beavers(actions: list[Action]) -> list[Action]:
    """A double answering the other side's unanswered double is a beaver; the doubler's take that follows
    a beaver only confirms it (GNU Backgammon records one), so it is dropped."""
    out: list[Action] = []
    for action in actions:
        last = out[-1] if out else None
        if last and action.kind == "double" and last.kind == "double" and last.side == other(action.side):
            action = replace(action, kind="beaver")
        elif last and action.kind == "take" and last.kind == "beaver" and last.side == other(action.side):
            continue
        out.append(action)
    return out


def standard_play(path: Path, line: int, tokens: list[str]) -> str:
    """A play in standard notation from the programs' spelling (`25/20*`, `6/0`, `bar/20`, `6/off`). A hit on a
    repeated move (`6/1*(2)`, Backgammon Studio and eXtreme Gammon) is the first checker's: `6/1* 6/1`."""
    moves = []
    for token in tokens:
        parts = token.lower().split("/")
        parts[0] = "bar" if parts[0] == "25" else parts[0]
        parts[-1] = re.sub(r"^0(?=\*?(\(\d\))?$)", "off", parts[-1])
        move = "/".join(parts)
        repeated = re.fullmatch(r"(?P<path>[^(]*\*[^(]*)\((?P<times>[2-9])\)", move)
        if repeated:  # only one checker can hit on each point: the others land on the hitter
            rest, times = repeated["path"].replace("*", ""), int(repeated["times"]) - 1
            move = f"{repeated['path']} {rest}" + (f"({times})" if times > 1 else "")
        moves.append(move)
    play = " ".join(moves)
    try:
        parse(play)
    except NotationError as exc:
        raise TranscriptError(path, line, f"cannot read the play {' '.join(tokens)!r}: {exc}") from None
    return play


# --- the .mat text export ------------------------------------------------------------------------

_TAG = re.compile(r'^;\s*\[(?P<key>[^"\]]+?)\s+"(?P<value>[^"]*)"\]\s*$')
_LENGTH = re.compile(r"^\s*(?P<n>\d+)\s+point\s+match\s*$", re.I)
_GAME = re.compile(r"^\s*Game\s+(?P<n>\d+)\s*$", re.I)
_SCORE = re.compile(r"^\s*(?P<a>.*?)\s*:\s*(?P<sa>\d+)\s+(?P<b>.*?)\s*:\s*(?P<sb>\d+)\s*$")  # a name may be empty
_RATING = re.compile(r"\s*\(\d+(?:[.,]\d+)?\)$")  # a rating after a player's name
_NUMBERED = re.compile(r"^\s*(?P<n>\d+)\)")
_MOVE_TOKEN = r"(?:bar|\d{1,2})(?:/(?:off|\d{1,2})\*?)+(?:\(\d\))?"
_ENTRY = re.compile(
    rf"(?P<roll>[1-6]{{2}}):(?:[ \t]+(?P<unrecorded>\?\?\?\?|Illegal play \([^)]*\))"
    r"|[ \t]+Cannot Move\b"
    rf"|(?P<moves>(?:[ \t]+{_MOVE_TOKEN})*))"
    r"|Doubles\s*=>\s*(?P<double>\d+)"
    r"|Beavers?\s*=>\s*(?P<beaver>\d+)"
    r"|(?P<take>Takes)|(?P<drop>Drops)"
    r"|Wins\s+(?P<wins>\d+)\s+points?(?:\s+and\s+the\s+match)?"
    r"|Losses\s+(?P<losses>\d+)\s+points?"  # Backgammon Galaxy: beside the winner's `Wins`
    r"|(?P<concedes>Concedes)\b"  # Backgammon Studio, eXtreme Gammon: the loser's side of a resignation
    r"|(?P<resigns>(?:00:[ \t]+)?\?\?\?\?)"  # no roll, then a resignation: `00: ????` or a bare `????`
    r"|(?P<again>\d+)\)",  # Backgammon Galaxy: the move number again, mid-line, before `Losses`
    re.I,
)
_ON_OFF = {"on": True, "off": False}
_OPTION_TAGS = {"jacoby": "jacoby", "beaver": "beavers", "beavers": "beavers"}


@dataclass
class _GameDraft:
    number: int
    line: int
    score: tuple[int, int] | None = None
    actions: list[Action] = field(default_factory=list)
    ending: Ending | None = None
    move: int = 0
    named: bool = False  # the names (and score) line is read
    unread: tuple[int, str] | None = None  # the first line that cannot be read, and why
    last_line: int = 0  # the file's last line when this game is the last one
    resigned_at: int = 0  # the line of a turn with no roll (`00: ????`, `????`): a resignation follows
    cut: bool = False  # the file ends in the middle of this game's last line (no line break after it)

    def final_actions(self) -> tuple[Action, ...]:
        """The actions, a beaver as such; a roll without a move just before a resignation is the dice a player
        rolled before resigning (GNU Backgammon's export writes them so), not a play."""
        actions = beavers(self.actions)
        if self.ending is None and self.last_line and actions and actions[-1].line == self.last_line:
            if actions[-1].kind == "play" and (self.cut or not actions[-1].play):
                actions = actions[:-1]  # the file is cut after the dice or within the play: not recorded whole
        if self.ending and actions and actions[-1].kind == "play" and not actions[-1].play:
            last = actions[-1]
            if self.ending.line - last.line in (0, 1) and self.ending.winner != last.side:
                actions = actions[:-1]
        return tuple(actions)


def _entries(path: Path, n: int, text: str, start: int) -> list[tuple[int, re.Match[str]]]:
    """The entries of a move line from column `start` on, each with its column."""
    found, pos = [], start
    while True:
        while pos < len(text) and text[pos] in " \t":
            pos += 1
        if pos >= len(text):
            return found
        m = _ENTRY.match(text, pos)
        if not m:
            rest = text[pos:].split()[0]
            raise TranscriptError(
                path,
                n,
                f"cannot read {rest!r} at column {pos + 1} (expected a roll like '31:'"
                " and its moves, 'Doubles => 2', 'Takes', 'Drops' or 'Wins 1 point')",
            )
        found.append((pos, m))
        pos = m.end()


@dataclass
class _MatchDraft:
    """One match of a .mat file as it is read: its header tags, length, games and players."""

    tags: dict[str, str] = field(default_factory=dict)
    length: int | None = None
    games: list[_GameDraft] = field(default_factory=list)
    players: tuple[str, str] | None = None
    last: int = 0  # its last line that is not blank


def read_mat(path: Path, text: str) -> list[Transcript]:
    """Every match of a .mat text, in order: a file may hold several one after another, each starting with its
    own `N point match` header, or with `Game 1` again (the same length and header tags)."""
    matches: list[_MatchDraft] = []
    match, following = _MatchDraft(), {}  # following: tags read after a game, the next match's
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if not line.strip():
            continue
        if line.lstrip().startswith(";"):
            tag = _TAG.match(line.strip())
            if tag:
                (following if match.games else match.tags)[tag["key"].lower()] = tag["value"]
            continue
        if match.length is None:
            m = _LENGTH.match(line)
            if not m:
                raise TranscriptError(path, n, f"expected the match length ('3 point match'), found {line.strip()!r}")
            match.length = int(m["n"])
            continue
        restart, m = _LENGTH.match(line), _GAME.match(line)
        if match.games and (restart or m and int(m["n"]) == 1):  # the next match begins
            matches.append(match)
            tags = following if restart else {**match.tags, **following}
            match, following = _MatchDraft(tags, int(restart["n"]) if restart else match.length), {}
            if restart:
                continue
        match.last = n
        if m:
            number = int(m["n"])
            if number != len(match.games) + 1:
                raise TranscriptError(path, n, f"game {number} follows game {len(match.games)}")
            match.games.append(_GameDraft(number, n))
            continue
        if not match.games:
            raise TranscriptError(path, n, f"expected 'Game 1', found {line.strip()!r}")
        game = match.games[-1]
        if game.unread:
            continue  # the rest of a game with a line that cannot be read
        try:
            if not game.named and not game.actions:
                match.players = _names(path, n, line, game, match.players)
            else:
                _mat_line(path, n, line, game)
        except TranscriptError as exc:
            game.unread = (n, exc.message)
    if match.games:
        match.games[-1].cut = not text.endswith(("\n", "\r"))
    read = [_transcript(path, m) for m in [*matches, match]]
    return read if len(read) == 1 else [replace(t, part=k) for k, t in enumerate(read, 1)]


def _transcript(path: Path, match: _MatchDraft) -> Transcript:
    """A match read whole, checked for what a replay needs."""
    tags, length, games = match.tags, match.length, match.games
    if games:
        games[-1].last_line = match.last
    if length is None:
        raise TranscriptError(path, None, "no match length ('3 point match'): not a .mat transcript")
    if not games:
        raise TranscriptError(path, None, "no game in the transcript")
    if all(g.unread for g in games):  # nothing to replay: the first line that cannot be read is the error
        raise TranscriptError(path, *games[0].unread)  # type: ignore[misc]
    variation = tags.get("variation", "Backgammon")
    if variation.lower() != "backgammon":
        raise TranscriptError(path, None, f"variation {variation!r}: only standard backgammon is replayed")
    options = {}
    for tag, option in _OPTION_TAGS.items():
        if tags.get(tag, "").lower() in _ON_OFF:
            options[option] = _ON_OFF[tags[tag].lower()]
    crawford = _ON_OFF.get(tags.get("crawford", "").lower())
    cap = None
    if length == GALAXY_MONEY and tags.get("site", "").lower() == "backgammongalaxy" and len(games) == 1:
        length, cap, crawford = 0, GALAXY_MONEY, None  # a money game, played with the Jacoby rule
        options.setdefault("jacoby", True)
    return Transcript(
        path,
        "mat",
        length,
        match.players or ("", ""),
        tuple(Game(g.number, g.line, g.score, None, g.final_actions(), g.ending, g.unread) for g in games),
        options,
        crawford,
        cap,
    )


def _names(path: Path, n: int, line: str, game: _GameDraft, players: tuple[str, str] | None) -> tuple[str, str]:
    """A game's names and score line (`name : 0    name : 0`; a single game's export: names only): the players."""
    m = None if _NUMBERED.match(line) else _SCORE.match(line)
    plain = re.split(r"\s{2,}", line.strip())  # names without scores (a single game's export)
    if not m and (len(plain) != 2 or _NUMBERED.match(line)):
        raise TranscriptError(path, n, f"expected the score line ('name : 0   name : 0'), found {line.strip()!r}")
    names = (m["a"], m["b"]) if m else (plain[0], plain[1])
    names = (_RATING.sub("", names[0]), _RATING.sub("", names[1]))  # `name (1712.3) : 0`: the rating changes
    game.named = True
    game.score = (int(m["sa"]), int(m["sb"])) if m else None
    return players or names  # a name that changes between games (a renamed account) names the same side


def _mat_line(path: Path, n: int, line: str, game: _GameDraft) -> None:
    """One line of a game's body: a numbered line of actions, or a line with only `Wins`."""
    numbered = _NUMBERED.match(line)
    if numbered:
        number = int(numbered["n"])
        if number != game.move + 1:
            raise TranscriptError(path, n, f"move {number} follows move {game.move} in game {game.number}")
        game.move = number
    entries = _entries(path, n, line, numbered.end() if numbered else 0)
    if not entries:
        return
    for column, m in entries:
        if m["losses"] or m["concedes"]:
            continue  # the loser's side of the result, said again by the winner's `Wins`
        if m["resigns"]:  # a turn with no roll: only a resignation may follow it
            game.resigned_at = game.resigned_at or n
            continue
        if m["again"]:
            if not numbered or int(m["again"]) != game.move:
                raise TranscriptError(path, n, f"{m[0]!r} in the middle of a line (move {game.move})")
            continue
        if m["wins"]:
            if game.ending:
                raise TranscriptError(path, n, f"a second result for game {game.number}")
            side = FIRST if column < RIGHT_COLUMN else SECOND
            game.ending = Ending(side, int(m["wins"]), n)
            continue
        if not numbered:
            raise TranscriptError(path, n, f"{m[0]!r} outside a numbered move line")
        if game.ending:
            raise TranscriptError(path, n, f"{m[0]!r} after the result of game {game.number} (line {game.ending.line})")
        if game.resigned_at:
            raise TranscriptError(
                path, n, f"{m[0].strip()!r} after a turn with no roll (line {game.resigned_at}), which only a resignation follows"
            )
        if game.actions:
            side = other(game.actions[-1].side)
        else:
            side = FIRST if column < RIGHT_COLUMN else SECOND
        if (column < RIGHT_COLUMN) != (side == FIRST):
            column_name = "left" if column < RIGHT_COLUMN else "right"
            raise TranscriptError(
                path,
                n,
                f"{m[0].strip()!r} is in the {column_name} column, but it is {side}'s"
                " turn to act (the first player's actions are on the left)",
            )
        game.actions.append(_action(path, n, game.move, side, m))


def _action(path: Path, n: int, move: int, side: Side, m: re.Match[str]) -> Action:
    if m["roll"]:
        dice = (int(m["roll"][0]), int(m["roll"][1]))
        if m["unrecorded"]:
            return Action("play", side, n, move, dice, None)
        return Action("play", side, n, move, dice, standard_play(path, n, (m["moves"] or "").split()))
    if m["double"] or m["beaver"]:
        kind: Kind = "double" if m["double"] else "beaver"
        return Action(kind, side, n, move, value=int(m["double"] or m["beaver"]))
    return Action("take" if m["take"] else "drop", side, n, move)
