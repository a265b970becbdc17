"""What gammonspec prints for the user: one line on stderr, and text from an engine made safe to show."""

from __future__ import annotations

import io
import os
import re
import sys
from typing import Any, TextIO

_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])")
# control characters, and those that reorder or break the text a terminal shows (bidirectional marks and overrides,
# line and paragraph separators)
_CONTROL = re.compile(
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufffe\uffff\ud800-\udfff]"
)


MAX_MESSAGE = 300  # characters: an error names what is wrong, it never prints a whole document
LONG_WORD = 60  # characters: in a line too long, a longer word (a case ID, a value, a path) keeps its start and end


def clipped(text: str) -> str:
    """`text` on one line of at most MAX_MESSAGE characters (runs of white space read as one space).

    A line too long first has its long words cut in the middle, so that what follows them (what is wrong)
    stays; only then is its end cut."""
    text = " ".join(text.split())
    if len(text) > MAX_MESSAGE:
        text = " ".join(shortened(word, LONG_WORD) for word in text.split(" "))
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


def fitted(line: str) -> str:
    """One line as it is when it fits in MAX_MESSAGE characters, else `clipped`."""
    return line if len(line) <= MAX_MESSAGE else clipped(line)


def shortened(value: str, most: int = 80) -> str:
    """A value the user gave, quoted in a message: its start and end when it is longer than `most` characters."""
    return value if len(value) <= most else f"{value[: most // 2]}…{value[-(most // 2 - 1) :]}"


def say(message: object) -> None:
    """One line for the user on stderr, made printable."""
    print(f"gammonspec: {printable(str(message))}", file=sys.stderr)


def printable(text: str) -> str:
    """Text from an engine made safe for a terminal and for XML: ANSI sequences dropped, other control
    characters written as escapes (tabs and newlines kept)."""
    return _CONTROL.sub(_escape, _ANSI.sub("", text))


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


class ReaderGone:
    """stdout that outlives its reader: once a pipe's reader has gone (`run ... | head -1`), further output
    is dropped and the command goes on, so its verdict and its report are those of the whole run."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.gone = False

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                return self._stream.write(text)
            except BrokenPipeError:
                self._lose()
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._lose()

    def _lose(self) -> None:
        self.gone = True
        try:  # what is still buffered, and the interpreter's last flush, go nowhere instead of failing
            os.dup2(os.open(os.devnull, os.O_WRONLY), self._stream.fileno())
        except (OSError, ValueError, io.UnsupportedOperation):
            pass

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
