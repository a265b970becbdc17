"""What gammonspec prints for the user: one line on stderr, and text from an engine made safe to show."""

from __future__ import annotations

import re
import sys

_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffe\uffff\ud800-\udfff]")


MAX_MESSAGE = 300  # characters: an error names what is wrong, it never prints a whole document


def clipped(text: str) -> str:
    """`text` on one line of at most MAX_MESSAGE characters (runs of white space read as one space)."""
    text = " ".join(text.split())
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


def shortened(value: str, most: int = 80) -> str:
    """A value the user gave, quoted in a message: its start and end when it is longer than `most` characters."""
    return value if len(value) <= most else f"{value[: most // 2]}…{value[-(most // 2 - 1) :]}"


def say(message: object) -> None:
    """One line for the user on stderr, made printable."""
    print(f"gammonspec: {printable(str(message))}", file=sys.stderr)


def printable(text: str) -> str:
    """Text from an engine made safe for a terminal and for XML: ANSI sequences dropped, other control
    characters written as escapes (tabs and newlines kept)."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", _ANSI.sub("", text))
