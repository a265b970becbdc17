"""`--engine-cmd`: the engine's command line, split into words as a shell quotes them but run without a shell.

Shell syntax would be passed to the engine as arguments (`./e | tee log` gives it `|`, `tee` and `log`) or
fail as a program name (`FOO=1 ./e`), so it is refused, saying how to write the command (spec/protocol.md,
"Starting the engine").  Quoted, the same characters are plain text and pass.
"""

from __future__ import annotations

import re
import shlex

from gammonspec.model.interface import EngineLoadError
from gammonspec.model.terminal import shortened

_OPERATORS = set("|&;<>()`$")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


def _words(command: str) -> list[tuple[str, str]]:
    """Each word's raw text, with the characters in it that no quote or backslash protects."""
    words: list[tuple[str, str]] = []
    raw, bare, quote, i = "", "", "", 0
    while i < len(command):
        c = command[i]
        if quote:
            quote = "" if c == quote else quote
            raw += c
        elif c in "'\"":
            quote, raw = c, raw + c
        elif c == "\\":
            raw, i = raw + command[i : i + 2], i + 1
        elif c.isspace():
            if raw:
                words.append((raw, bare))
            raw, bare = "", ""
        else:
            raw, bare = raw + c, bare + c
        i += 1
    if raw:
        words.append((raw, bare))
    return words


def _shell_syntax(command: str) -> str:
    """What in `command` is shell syntax, and how to write it instead ('' when there is none)."""
    for n, (raw, bare) in enumerate(_words(command)):
        if n == 0 and _ASSIGNMENT.match(raw):
            return f"{shortened(raw, 40)!r} sets a variable, which only a shell does: write env {shortened(raw, 40)} ..."
        if raw.startswith("~"):
            return f"{shortened(raw, 40)!r} starts with ~, which only a shell expands: write the path in full"
        operator = next((c for c in bare if c in _OPERATORS), None)
        if operator:
            return (
                f"{operator!r} is shell syntax (a pipe, redirection, variable or list): run it through a shell,"
                " --engine-cmd \"sh -c '...'\", or quote the character"
            )
    return ""


def command_words(command: str) -> list[str]:
    """The engine command as words (shell quoting, no shell); EngineLoadError when empty, malformed or holding
    shell syntax."""
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise EngineLoadError(f"--engine-cmd {shortened(command)!r}: {exc} (quote as a shell would)") from None
    if not words:
        raise EngineLoadError("--engine-cmd is empty: give the command that starts your engine")
    syntax = _shell_syntax(command)
    if syntax:
        raise EngineLoadError(f"--engine-cmd {shortened(command, 60)!r} runs without a shell: {syntax}")
    return words
