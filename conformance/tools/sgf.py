"""GNU Backgammon's SGF match files (`save match`), read into the transcript model (transcripts.py).

SGF (FF[4]) is a collection of game trees `(;root;node;node...)`, a node a list of properties
`ID[value][value]`, `\\` escaping `]` and `\\` in values. GNU Backgammon writes one tree per game,
game GM[6]: the root holds MI[length:N][game:i][ws:a][bs:b] (length 0: money play), PW and PB (the
white and black players), RU (rules joined by ':': Crawford, CrawfordGame, Jacoby, NoCube or a
variant) and RE[W+2] (the winner and points; a final R: by resignation); each move node holds W[...]
or B[...]: `double`, `take`, `drop`, or the two dice then a from-to letter pair per checker moved
('a'-'x' the points, counted from white's 1-point, 'y' the bar, 'z' off). A `PL[..]DI[..]` node
(dice rolled before a resignation) records no action. Variations, edited positions and automatic
doubles are refused, each with its line.

The tokenizer is our own (about forty lines): the SGF libraries on the index (sgfmill and the like)
are written for Go and keep no line numbers, and every error here names its line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from gammonspec.conformance.tools.transcripts import (
    Action,
    Ending,
    Game,
    Kind,
    Transcript,
    TranscriptError,
    beavers,
    standard_play,
)
from gammonspec.model.state import Side

_IDENT = re.compile(r"[A-Z]+")
_SIDES: dict[str, Side] = {"W": "white", "B": "black"}
_CUBE_WORDS: dict[str, Kind] = {"double": "double", "take": "take", "drop": "drop", "beaver": "beaver"}
_REFUSED = {
    "AE": "an edited position",
    "AW": "an edited position",
    "AB": "an edited position",
    "CV": "a cube value set by hand",
    "CP": "a cube position set by hand",
}


@dataclass(frozen=True)
class _Property:
    name: str
    values: tuple[str, ...]
    line: int


Node = dict[str, _Property]


def _tokens(path: Path, text: str) -> list[list[Node]]:
    """The collection: per game tree its main line of nodes (refusing variations)."""
    trees: list[list[Node]] = []
    i, line, depth, opened = 0, 1, 0, 0
    node: Node | None = None

    def fail(message: str) -> TranscriptError:
        return TranscriptError(path, line, message)

    while i < len(text):
        ch = text[i]
        if ch == "\n":
            line += 1
        if ch.isspace():
            i += 1
        elif ch == "(":
            if depth:
                raise fail("a variation (a nested game tree): only a game's main line is replayed")
            depth, node, opened = 1, None, line
            trees.append([])
            i += 1
        elif ch == ")":
            if not depth:
                raise fail("')' without its '('")
            depth, node = 0, None
            i += 1
        elif ch == ";":
            if not depth:
                raise fail("a node outside a game tree")
            node = {}
            trees[-1].append(node)
            i += 1
        elif m := _IDENT.match(text, i):
            if node is None:
                raise fail(f"property {m[0]} outside a node")
            start_line, values, i = line, [], m.end()
            while True:
                while i < len(text) and text[i].isspace():
                    line += text[i] == "\n"
                    i += 1
                if i >= len(text) or text[i] != "[":
                    break
                value, i, line = _value(path, text, i + 1, line)
                values.append(value)
            if not values:
                raise TranscriptError(path, start_line, f"property {m[0]} without a value")
            node[m[0]] = _Property(m[0], tuple(values), start_line)
        else:
            raise fail(f"unexpected character {ch!r}")
    if depth:
        raise TranscriptError(path, opened, "the game tree opened here is not closed (a ')' is missing)")
    return trees


def _value(path: Path, text: str, i: int, line: int) -> tuple[str, int, int]:
    """A property value from just after its '[': the text, the index after its ']', the line there."""
    out, start = [], line
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            line += text[i + 1] == "\n"
            out.append(text[i + 1])
            i += 2
            continue
        if ch == "]":
            return "".join(out), i + 1, line
        line += ch == "\n"
        out.append(ch)
        i += 1
    raise TranscriptError(path, start, "a property value without its closing ']'")


def read_sgf(path: Path, text: str) -> Transcript:
    trees = _tokens(path, text)
    if not trees or not all(trees):
        raise TranscriptError(path, None, "no game in the SGF file")
    games, players, lengths, options, crawford_rule = [], None, set(), {}, None
    for number, nodes in enumerate(trees, 1):
        root = nodes[0]
        if _one(path, root, "GM", "1") != "6":
            raise TranscriptError(path, root["GM"].line if "GM" in root else None, "not a backgammon game (GM[6])")
        info = _match_info(path, root)
        lengths.add(info["length"])
        names = (_one(path, root, "PW", ""), _one(path, root, "PB", ""))
        if players is not None and names != players:
            raise TranscriptError(
                path, root.get("PW", root["GM"]).line, f"game {number}: players {names}, not {players}"
            )
        players = names
        rules = set(_one(path, root, "RU", "").split(":")) - {""}
        unknown = rules - {"Crawford", "CrawfordGame", "Jacoby"}
        if unknown:
            raise TranscriptError(
                path,
                root["RU"].line,
                f"rules {':'.join(sorted(unknown))}: only standard backgammon with the cube is replayed",
            )
        if "CV" in root:
            raise TranscriptError(path, root["CV"].line, "automatic doubles (CV in the root) are not replayed")
        options["jacoby"] = "Jacoby" in rules
        crawford_rule = "Crawford" in rules if info["length"] > 1 else crawford_rule
        actions = [a for i, node in enumerate(nodes[1:], 1) if (a := _action(path, node, i))]
        games.append(
            Game(
                number,
                root["GM"].line,
                (info["ws"], info["bs"]),
                "CrawfordGame" in rules if info["length"] > 1 else None,
                tuple(beavers(actions)),
                _ending(path, root),
            )
        )
    if len(lengths) > 1:
        raise TranscriptError(path, None, f"games of different match lengths: {sorted(lengths)}")
    return Transcript(path, "sgf", lengths.pop(), players or ("", ""), tuple(games), options, crawford_rule)


def _one(path: Path, node: Node, name: str, default: str) -> str:
    prop = node.get(name)
    if prop is None:
        return default
    if len(prop.values) != 1:
        raise TranscriptError(path, prop.line, f"{name} has {len(prop.values)} values, expected one")
    return prop.values[0].strip()


def _match_info(path: Path, root: Node) -> dict[str, int]:
    prop = root.get("MI")
    found = {"length": 0, "ws": 0, "bs": 0}
    for value in prop.values if prop else ():
        key, _, number = value.partition(":")
        if key in ("length", "ws", "bs"):
            if not number.strip().isdigit():
                raise TranscriptError(path, prop.line, f"MI[{value}]: {key} is not a whole number")  # type: ignore[union-attr]
            found[key] = int(number)
    return found


def _ending(path: Path, root: Node) -> Ending | None:
    prop = root.get("RE")
    if prop is None:
        return None
    m = re.fullmatch(r"([WB])\+(\d+)(R?)", _one(path, root, "RE", ""))
    if not m:
        raise TranscriptError(
            path, prop.line, f"RE[{prop.values[0]}]: expected W+N or B+N, an R after it for a resignation"
        )
    return Ending(_SIDES[m[1]], int(m[2]), prop.line, resigned=bool(m[3]))


def _action(path: Path, node: Node, number: int) -> Action | None:
    for name, what in _REFUSED.items():
        if name in node:
            raise TranscriptError(
                path, node[name].line, f"{what} ({name}): only games played from the start are replayed"
            )
    moves = [node[s] for s in _SIDES if s in node]
    if not moves:
        return None  # comments, or dice rolled before a resignation (PL, DI)
    if len(moves) > 1:
        raise TranscriptError(path, moves[0].line, "a node with moves of both sides")
    prop = moves[0]
    side, value = _SIDES[prop.name], _one(path, node, prop.name, "")
    if value in _CUBE_WORDS:
        return Action(_CUBE_WORDS[value], side, prop.line, number)
    m = re.fullmatch(r"([1-6])([1-6])((?:[a-y][a-x]|[a-x]z)*)", value)
    if not m:
        raise TranscriptError(
            path, prop.line, f"{prop.name}[{value}]: expected two dice and letter pairs, or double, take, drop"
        )
    pairs = [m[3][k : k + 2] for k in range(0, len(m[3]), 2)]
    tokens = [f"{_point(a, side)}/{_point(b, side)}" for a, b in pairs]
    return Action("play", side, prop.line, number, (int(m[1]), int(m[2])), standard_play(path, prop.line, tokens))


def _point(letter: str, side: Side) -> str:
    """A letter in the mover's numbering: 'a'-'x' count from white's 1-point, 'y' is the bar, 'z' off."""
    if letter == "y":
        return "bar"
    if letter == "z":
        return "off"
    index = ord(letter) - ord("a")
    return str(index + 1 if side == "white" else 24 - index)
