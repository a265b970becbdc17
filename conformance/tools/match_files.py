"""Reading a match file into transcripts: SGF, GNU Backgammon's match text or the .mat format, told apart by the
file's content."""

from __future__ import annotations

from pathlib import Path

from gammonspec.conformance.tools.gnubg_text import MARK, read_gnubg_text
from gammonspec.conformance.tools.sgf import read_sgf
from gammonspec.conformance.tools.transcripts import BINARY, Transcript, TranscriptError, read_mat
from gammonspec.model.yamlio import file_bytes


def read(path: Path) -> Transcript:
    """The one match in `path` (read_all); a file holding several is a TranscriptError."""
    first, *more = read_all(path)
    if more:
        raise TranscriptError(path, None, f"holds {len(more) + 1} matches: read it with read_all")
    return first


def read_all(path: Path) -> list[Transcript]:
    """The matches in `path`, by its content: SGF when it starts with '(', else the .mat format (which may hold
    several one after another)."""
    raw = file_bytes(path, TranscriptError)
    binary = BINARY.get(path.suffix.lower())
    if binary or b"\0" in raw[:4096] and not raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise TranscriptError(
            path,
            None,
            f"{binary or 'a binary file'}, not a match transcript: replay reads the text exports (.mat, .txt) and"
            " GNU Backgammon's SGF; export the match as text from the program that saved it",
        )
    try:
        text = raw.decode("utf-16" if raw.startswith((b"\xff\xfe", b"\xfe\xff")) else "utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")  # older Jellyfish files
    if not text.strip():
        raise TranscriptError(path, None, "empty: no match in it")
    if text.lstrip().startswith("("):
        return [read_sgf(path, text)]
    if text.lstrip().startswith(MARK):
        return [read_gnubg_text(path, text.lstrip())]
    return read_mat(path, text)
