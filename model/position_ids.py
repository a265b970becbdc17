"""Backgammon position identifiers: GNU Backgammon Position IDs and eXtreme Gammon XGIDs.

GNU Position ID (GNU Backgammon manual, "A technical description of the Position ID"):
an 80-bit key, for each of two sides its points 1-24 then its bar, each from that
side's own view, written as a run of 1-bits (one per checker) closed by a 0-bit, the
rest padded with 0s.  Bit i of the key is bit i % 8 of byte i // 8; the 10 bytes are
written in Base64 without the trailing "==", 14 characters.  The manual says the side
on roll comes first, but GNU Backgammon itself (positionid.c PositionKey, which writes
anBoard[0] first, while eval.c ApplySubMove moves anBoard[1]) and every ID it prints put
the side NOT on roll first and the side on roll second; this module follows the program.

XGID (eXtreme Gammon's format, as GNU Backgammon's importer, set.c SetXGID and positionid.c
PositionFromXG, reads it): `XGID=` (optional), then colon-separated fields: 26 position
characters (the lowercase player's bar, points 1-24, the uppercase player's bar; 'A'-'O' /
'a'-'o' count 1-15 checkers, '-' none), cube exponent, cube owner (1, 0, -1), turn (1, -1;
0 is read here as no side on turn), dice ("00" not rolled, "D"/"B"/"R" a double, beaver or
raccoon pending, else two digits 1-6), the two scores, Crawford/Jacoby rules, match length
and, optionally, the maximum cube exponent.

Colour convention: XGID's uppercase player ("bottom", turn 1, whose home board is XGID
points 1-6) is white, so XGID point p is white's point p; the lowercase player ("top",
turn -1) is black.
"""

from __future__ import annotations

import base64

from gammonspec.model.games import GAME_DATA
from gammonspec.model.state import CHECKERS, CUBE_VALUES, SIDES, Cube, Layout, Match, Side, StateError, mirror, other

GNUBG_ID_LENGTH = 14
_KEY_BITS = 80
_SLOTS = 25  # points 1-24, then the bar
_BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

XGID_PREFIX = "XGID="
_XGID_TURN: dict[str, Side] = {"1": "white", "-1": "black"}
_XGID_PENDING_CUBE = ("D", "B", "R")  # double, beaver, raccoon: no dice on the board
GAMES_WITH_IDS = tuple(name for name, game in GAME_DATA.items() if game.position_ids)
_GAME = GAMES_WITH_IDS[0]  # the game whose positions the two formats describe


def _slots(layout: Layout, side: Side) -> list[int]:
    return [*layout.points(side), layout.on_bar(side)]


def _layout(slots: dict[Side, list[int]], source: str, hitting: bool | None) -> Layout:
    """The layout of per-side [points 1-24, bar] counts; the rest of each side is off.  Validated under
    `hitting` (None: as the game's rulesets have it)."""
    off = []
    for side in SIDES:
        on_board = sum(slots[side])
        if on_board > CHECKERS:
            raise StateError(f"{source}: {side} has {on_board} checkers on the board and bar, more than {CHECKERS}")
        off.append(CHECKERS - on_board)
    layout = Layout(
        _GAME,
        tuple(slots["white"][:24]),
        tuple(slots["black"][:24]),
        bar=(slots["white"][24], slots["black"][24]),
        off=(off[0], off[1]),
    )
    layout.validate(hitting)
    return layout


def _check_described(layout: Layout) -> None:
    if layout.game not in GAMES_WITH_IDS:
        raise StateError(f"position IDs describe {' and '.join(GAMES_WITH_IDS)} positions, not {layout.game}")
    layout.validate()


def _check_side(turn: object) -> None:
    if turn not in SIDES:
        raise StateError(f"turn must be white or black, not {turn!r}")


def decode_gnubg(pid: str, turn: Side, hitting: bool | None = None) -> Layout:
    """The layout a GNU Backgammon Position ID describes when `turn` is on roll (validated under `hitting`)."""
    _check_side(turn)
    if not isinstance(pid, str) or len(pid) != GNUBG_ID_LENGTH:
        raise StateError(f"GNU Position ID {pid!r} must be {GNUBG_ID_LENGTH} characters long")
    bad = sorted(set(pid) - set(_BASE64))
    if bad:
        raise StateError(f"GNU Position ID {pid!r} has characters outside Base64: {''.join(bad)!r}")
    if _BASE64.index(pid[-1]) & 0xF:  # the last character carries 2 key bits, then 4 padding bits
        raise StateError(f"GNU Position ID {pid!r} has non-zero padding bits in its last character")
    key = int.from_bytes(base64.b64decode(pid + "=="), "little")

    bit = 0
    slots: dict[Side, list[int]] = {}
    for side in (other(turn), turn):  # the side not on roll first (see the module docstring)
        counts = []
        for _ in range(_SLOTS):
            n = 0
            while bit < _KEY_BITS and key >> bit & 1:
                n += 1
                bit += 1
            if bit >= _KEY_BITS:
                raise StateError(f"GNU Position ID {pid!r} ends before both sides' 25 points are read")
            bit += 1  # the closing 0
            counts.append(n)
        slots[side] = counts
    if key >> bit:
        raise StateError(f"GNU Position ID {pid!r} has checkers beyond both sides' 25 points")
    return _layout(slots, f"GNU Position ID {pid!r}", hitting)


GNUBG_MATCH_ID_LENGTH = 12
_PLAYERS: tuple[Side, Side] = ("black", "white")  # GNU Backgammon's player 0 and 1 (as BGBlitz's exports pair them)


def decode_gnubg_match(mid: str) -> tuple[Side, tuple[int, ...], Cube, Match]:
    """The side on roll, the dice (() when not rolled), the cube and the match of a GNU Backgammon Match ID.

    GNU Backgammon manual, "A technical description of the Match ID": 9 bytes in Base64 (12 characters), read as
    one little-endian key: cube exponent (bits 0-3), cube owner (4-5: player 0, 1, or 3 centred), player on roll
    (6), Crawford game (7), game state (8-10: 1 a game in play), turn (11), double offered (12), resignation
    (13-14), the dice (15-17, 18-20), match length (21-35), player 0's and player 1's scores (36-50, 51-65).
    Player 1 is white (the XGID's uppercase player), player 0 black."""
    if not isinstance(mid, str) or len(mid) != GNUBG_MATCH_ID_LENGTH or set(mid) - set(_BASE64):
        raise StateError(f"GNU Match ID {mid!r} must be {GNUBG_MATCH_ID_LENGTH} characters of Base64")
    key = int.from_bytes(base64.b64decode(mid), "little")

    def field(low: int, width: int) -> int:
        return key >> low & (1 << width) - 1

    if field(8, 3) != 1:
        raise StateError(f"GNU Match ID {mid!r} records no game in play (game state {field(8, 3)})")
    exponent, owner, dice = field(0, 4), field(4, 2), (field(15, 3), field(18, 3))
    if 1 << exponent not in CUBE_VALUES or owner == 2:
        raise StateError(f"GNU Match ID {mid!r}: impossible cube (2 to the {exponent}, owner code {owner})")
    if dice != (0, 0) and not all(1 <= d <= 6 for d in dice):
        raise StateError(f"GNU Match ID {mid!r}: dice {dice[0]} and {dice[1]} are not two numbers 1-6")
    length, score = field(21, 15), (field(51, 15), field(36, 15))  # white (player 1) first
    if length and max(score) >= length:
        raise StateError(f"GNU Match ID {mid!r}: a score of {max(score)} in a {length}-point match is over")
    cube = Cube(1 << exponent, None if owner == 3 else _PLAYERS[owner])
    match = Match(length, score, bool(field(7, 1))) if length else Match()
    return _PLAYERS[field(6, 1)], () if dice == (0, 0) else dice, cube, match


def encode_gnubg(layout: Layout, turn: Side) -> str:
    """The GNU Backgammon Position ID of `layout` with `turn` on roll."""
    _check_side(turn)
    _check_described(layout)
    key, bit = 0, 0
    for side in (other(turn), turn):
        for n in _slots(layout, side):
            key |= ((1 << n) - 1) << bit
            bit += n + 1
    return base64.b64encode(key.to_bytes(_KEY_BITS // 8, "little")).decode("ascii")[:GNUBG_ID_LENGTH]


def _check_xgid_int(value: str, name: str, xgid: str, allowed: range) -> None:
    try:
        n = int(value)
    except ValueError:
        raise StateError(f"XGID {xgid!r}: {name} {value!r} is not a whole number") from None
    if n not in allowed:
        raise StateError(f"XGID {xgid!r}: {name} {n} is out of range ({allowed.start}..{allowed.stop - 1})")


def decode_xgid(xgid: str, hitting: bool | None = None) -> tuple[Layout, Side | None, tuple[int, ...] | None]:
    """The layout, side on roll (None for turn 0) and dice (None unless rolled) of an XGID."""
    if not isinstance(xgid, str):
        raise StateError(f"XGID must be a string, not {type(xgid).__name__}")
    text = xgid.strip()
    text = text[len(XGID_PREFIX) :] if text.upper().startswith(XGID_PREFIX) else text
    fields = text.split(":")
    if len(fields) not in (9, 10):
        raise StateError(f"XGID {xgid!r} has {len(fields)} fields, expected 9 or 10 separated by ':'")
    position, cube, owner, turn_field, dice_field, score_w, score_b, rules, length = fields[:9]

    if len(position) != 26:
        raise StateError(f"XGID {xgid!r}: the position has {len(position)} characters, expected 26")
    slots: dict[Side, list[int]] = {"white": [0] * _SLOTS, "black": [0] * _SLOTS}
    for i, ch in enumerate(position):
        if ch == "-":
            continue
        if "A" <= ch <= "O" and i > 0:
            slots["white"][24 if i == 25 else i - 1] = ord(ch) - ord("A") + 1
        elif "a" <= ch <= "o" and i < 25:
            slots["black"][24 if i == 0 else mirror(_GAME, i) - 1] = ord(ch) - ord("a") + 1
        else:
            where = "black's bar" if i == 0 else "white's bar" if i == 25 else f"point {i}"
            raise StateError(
                f"XGID {xgid!r}: bad character {ch!r} at {where}"
                " (expected '-', 'A'-'O' for white or 'a'-'o' for black; a bar holds only its own side)"
            )
    layout = _layout(slots, f"XGID {xgid!r}", hitting)

    _check_xgid_int(cube, "cube exponent", xgid, range(0, 16))
    _check_xgid_int(owner, "cube owner", xgid, range(-1, 2))
    for name, value in (("white's score", score_w), ("black's score", score_b), ("match length", length)):
        _check_xgid_int(value, name, xgid, range(0, 1 << 15))
    _check_xgid_int(rules, "Crawford/Jacoby field", xgid, range(0, 4))
    if len(fields) == 10:
        _check_xgid_int(fields[9], "maximum cube exponent", xgid, range(0, 16))

    if turn_field not in ("1", "-1", "0"):
        raise StateError(f"XGID {xgid!r}: turn {turn_field!r} must be 1 (white), -1 (black) or 0")
    turn = _XGID_TURN.get(turn_field)

    dice: tuple[int, ...] | None = None
    if dice_field not in ("00", *_XGID_PENDING_CUBE):
        if len(dice_field) != 2 or not all(c in "123456" for c in dice_field):
            raise StateError(f"XGID {xgid!r}: dice {dice_field!r} must be two digits 1-6, '00', 'D', 'B' or 'R'")
        if turn is None:
            raise StateError(f"XGID {xgid!r}: dice {dice_field!r} are rolled but no side is on turn")
        dice = (int(dice_field[0]), int(dice_field[1]))
    return layout, turn, dice


def decode_xgid_stakes(xgid: str) -> tuple[Cube, Match]:
    """The cube and the match of an XGID that decode_xgid reads: the cube's value and owner; for a match (length
    above 0) the length, the score (white's first) and the Crawford game (1 in the rules field)."""
    _, exponent, owner, score_w, score_b, rules, length = _stake_fields(xgid)
    value = 1 << int(exponent)
    if value not in CUBE_VALUES:
        raise StateError(f"XGID {xgid!r}: a cube of {value}, beyond {CUBE_VALUES[-1]}")
    cube = Cube(value, {"0": None, "1": "white", "-1": "black"}[owner])
    if not int(length):
        return cube, Match()
    match = Match(int(length), (int(score_w), int(score_b)), crawford=int(rules) == 1)
    if max(match.score) >= match.length:
        raise StateError(f"XGID {xgid!r}: a score of {max(match.score)} in a {match.length}-point match is over")
    return cube, match


_MONEY_OPTIONS = (("jacoby", 1), ("beavers", 2))  # the rules field in money play: its bits


def decode_xgid_options(xgid: str) -> dict[str, bool]:
    """The options an XGID of a money game records in its rules field: Jacoby (bit 1) and beavers (bit 2), by the
    names of those options ({} for a match, where the field is the Crawford game)."""
    *_, rules, length = _stake_fields(xgid)
    return {} if int(length) else {name: bool(int(rules) & bit) for name, bit in _MONEY_OPTIONS}


def _stake_fields(xgid: str) -> list[str]:
    """The fields after the position of an XGID that decode_xgid accepts (it checks them): position, cube
    exponent, cube owner, both scores, the rules field and the match length."""
    decode_xgid(xgid)
    text = xgid.strip()
    text = text[len(XGID_PREFIX) :] if text.upper().startswith(XGID_PREFIX) else text
    position, exponent, owner, _, _, score_w, score_b, rules, length = text.split(":")[:9]
    return [position, exponent, owner, score_w, score_b, rules, length]


def encode_xgid(
    layout: Layout,
    turn: Side,
    dice: tuple[int, ...] | None = None,
    cube: Cube | None = None,
    match: Match | None = None,
) -> str:
    """The XGID of `layout` with `turn` on roll: by default a money game with a centred 1-cube at 0-0, max cube 2^10.

    With `cube` and `match`: the cube's exponent and owner, the score (white's first), 1 in the rules field for
    the Crawford game, and the match length."""
    _check_side(turn)
    _check_described(layout)
    if dice is not None and (len(dice) != 2 or any(d not in range(1, 7) for d in dice)):
        raise StateError(f"dice must be two numbers 1-6, got {list(dice)}")

    def count(n: int, first: str) -> str:
        return chr(ord(first) + n - 1) if n else "-"

    chars = [count(layout.on_bar("black"), "a")]
    for p in range(1, 25):
        white, black = layout.white[p - 1], layout.black[mirror(layout.game, p) - 1]
        chars.append(count(white, "A") if white else count(black, "a"))
    chars.append(count(layout.on_bar("white"), "A"))
    turn_field = "1" if turn == "white" else "-1"
    dice_field = f"{dice[0]}{dice[1]}" if dice else "00"
    cube, match = cube or Cube(), match or Match()
    owner = {None: "0", "white": "1", "black": "-1"}[cube.owner]
    crawford = int(bool(match.length and match.crawford))
    return (
        f"{XGID_PREFIX}{''.join(chars)}:{cube.value.bit_length() - 1}:{owner}:{turn_field}:{dice_field}"
        f":{match.score[0]}:{match.score[1]}:{crawford}:{match.length}:10"
    )
