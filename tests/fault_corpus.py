"""The fault corpus: kinds of bad input, misbehaving engines and CLI misuse, each with its exact error.

A `Fault` says how to provoke one kind of fault (the `gammonspec` argv, files written into a fresh
folder first) and what a user must see: the exact first line of the error and the documented exit
status (0 pass, 1 failures, 2 bad input or usage; pytest's own usage error is 4).  `check` runs the
command as a subprocess (no shell, a generous time limit: a hang fails, speed never does) and asserts
that, plus: no Python traceback anywhere in the output, no line of gammonspec's own over MAX_MESSAGE
characters (counted with the folders above as their placeholders, so that the length of a path here
does not count), and a run that executed no case never exits 0.

The entries are data: tests/faults/*.yaml, one file per area, each a list of entries with the
fields of ENTRY_SCHEMA (`class`, `kind`, `argv`, `first_line`, `status`, and optionally `files`,
`program`, `stream`, `stdin`, `env`, `stdout_closed`), checked once at load (a malformed entry is named with its file).  A file's
content is text, or `{base64: ...}` for bytes, or `{copy: NAME}` for an engine program in
tests/engines/, or `{link: TARGET}` for a symbolic link (to nothing, or to itself), or a valid base file with changes: `{base: good|mini|scenario|conventions-example,
replace: [[old, new], ...] (each old occurring once), before: TEXT, after: TEXT, encoding: CODEC,
bom: true}` (good: test_loading.GOOD, mini: conftest.MINI_SUITE, scenario: tests/faults/files/,
conventions-example: the case file of spec/conventions.md).
Placeholders filled at load: `{x*N}` N x's, `{commands}` the CLI's subcommands as argparse lists
them, `{clauses}` the number of rule clauses.  Filled at run time, in argv, file contents and
expected lines: `{tmp}` the folder the files are written to (also the working directory),
`{python}` this interpreter, `{engines}` the folder of the fake engines and `{protocol}` the
runner's protocol version.
"""

from __future__ import annotations

import base64
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import yaml
from gammonspec.model import PROTOCOL_VERSION
from gammonspec.model.terminal import MAX_MESSAGE

CLASSES = ("hang", "traceback", "lost-result", "unclear-message", "protocol-doc", "cli-misuse")
TESTS = Path(__file__).resolve().parent
ENGINES = TESTS / "engines"
FAULTS = TESTS / "faults"  # the entries, one YAML file per area
TIME_LIMIT = 300.0  # seconds: only a hang gets near it
MAX_STDERR = 20_000  # characters: an error is a line, never an expanded document
_PROGRAMS = {
    "gammonspec": [str(Path(sys.executable).with_name("gammonspec"))],
    "pytest": [sys.executable, "-m", "pytest", "-p", "no:cacheprovider"],
}
_RAN = re.compile(r"\b(\d+) (?:passed|xfailed)\b")


@dataclass(frozen=True)
class Fault:
    fault_class: str  # one of CLASSES: what went wrong before the fix
    kind: str  # a short unique name, the test id
    argv: tuple[str, ...]  # arguments after the program name
    first_line: str  # the exact first line of the error (on `stream`)
    status: int  # the documented exit status
    files: dict[str, str | bytes | Link] = field(default_factory=dict)  # relative path -> content, written first
    program: str = "gammonspec"  # or "pytest" (the plugin)
    stream: str = "stderr"  # where the error's first line is: stderr or stdout
    stdin: str = ""  # written to the command's standard input (else it reads nothing)
    env: dict[str, str] = field(default_factory=dict)  # set in its environment
    stdout_closed: bool = False  # started with its standard output closed (`>&-`)

    def __post_init__(self) -> None:
        assert self.fault_class in CLASSES, (self.kind, self.fault_class)
        assert self.stream in ("stderr", "stdout"), self.kind
        assert self.program in _PROGRAMS, self.kind


@dataclass(frozen=True)
class Link:
    """A file written as a symbolic link to `target` (which may not exist, or be the link itself)."""

    target: str


@dataclass(frozen=True)
class Result:
    status: int | None  # None: the time limit ran out
    stdout: str
    stderr: str


def _fill(text: str, tmp: Path) -> str:
    return (
        text.replace("{tmp}", str(tmp))
        .replace("{python}", sys.executable)
        .replace("{engines}", str(ENGINES))
        .replace("{protocol}", PROTOCOL_VERSION)
    )


def _unfill(text: str, tmp: Path) -> str:
    """`text` with this machine's folders as the placeholders again: a line's length as the corpus has it."""
    return text.replace(str(tmp), "{tmp}").replace(sys.executable, "{python}").replace(str(ENGINES), "{engines}")


def provoke(fault: Fault, tmp: Path) -> Result:
    """Write the fault's files into `tmp` and run its command there."""
    for name, content in fault.files.items():
        path = tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, Link):
            path.symlink_to(_fill(content.target, tmp))
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(_fill(content, tmp), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ENGINES), os.environ.get("PYTHONPATH", "")])}
    env.pop("COLUMNS", None)
    env.update(fault.env)
    argv = [*_PROGRAMS[fault.program], *(_fill(a, tmp) for a in fault.argv)]
    streams: dict[str, Any] = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    if fault.stdout_closed:
        streams = {"stdout": None, "stderr": subprocess.PIPE, "preexec_fn": lambda: os.close(1)}
    try:
        done = subprocess.run(
            argv,
            cwd=tmp,
            env=env,
            input=_fill(fault.stdin, tmp).encode("utf-8"),
            timeout=TIME_LIMIT,
            check=False,
            **streams,
        )
    except subprocess.TimeoutExpired as exc:
        return Result(None, (exc.stdout or b"").decode(errors="replace"), (exc.stderr or b"").decode(errors="replace"))
    return Result(done.returncode, (done.stdout or b"").decode(errors="replace"), done.stderr.decode(errors="replace"))


def check(fault: Fault, result: Result, tmp: Path) -> None:
    """Assert what the user sees: the documented status, the exact first line, no traceback, no empty green run."""
    shown = f"{fault.kind}: status {result.status}\n--- stdout\n{result.stdout[-3000:]}\n--- stderr\n{result.stderr[-3000:]}"
    assert result.status is not None, f"hang: no end within {TIME_LIMIT} s\n{shown}"
    for name, text in (("stdout", result.stdout), ("stderr", result.stderr)):
        assert "Traceback" not in text, f"a traceback on {name}\n{shown}"
    assert len(result.stderr) <= MAX_STDERR, f"stderr of {len(result.stderr)} characters\n{shown}"
    if fault.program == "gammonspec" and fault.argv[:1] == ("run",) and result.status == 0 and not fault.stdout_closed:
        assert sum(map(int, _RAN.findall(result.stdout))) > 0, f"a green run that ran no case\n{shown}"
    own = [_unfill(line, tmp) for line in result.stderr.splitlines() if line.startswith("gammonspec: ")]
    long = [line for line in own if len(line) > MAX_MESSAGE]
    assert not long, f"a line over {MAX_MESSAGE} characters (its folders as placeholders): {long[0]}\n{shown}"
    lines = (result.stderr if fault.stream == "stderr" else result.stdout).splitlines()
    first = lines[0] if lines else "(nothing)"
    expected = _fill(fault.first_line, tmp)
    assert first == expected, f"first {fault.stream} line:\n  {first}\nexpected:\n  {expected}\n{shown}"
    assert result.status == fault.status, f"exit status {result.status}, documented {fault.status}\n{shown}"


_TEXT = {"type": "string"}
_CONTENT = {
    "oneOf": [
        _TEXT,
        {"type": "object", "properties": {"base64": _TEXT}, "required": ["base64"], "additionalProperties": False},
        {"type": "object", "properties": {"copy": _TEXT}, "required": ["copy"], "additionalProperties": False},
        {"type": "object", "properties": {"link": _TEXT}, "required": ["link"], "additionalProperties": False},
        {
            "type": "object",
            "properties": {
                "base": {"enum": ["good", "mini", "scenario", "conventions-example"]},
                "replace": {"type": "array", "items": {"type": "array", "items": _TEXT, "minItems": 2, "maxItems": 2}},
                "before": _TEXT,
                "after": _TEXT,
                "encoding": _TEXT,
                "bom": {"const": True},
            },
            "required": ["base"],
            "additionalProperties": False,
        },
    ]
}
ENTRY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "class": {"enum": list(CLASSES)},
        "kind": {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$"},
        "argv": {"type": "array", "items": _TEXT},
        "first_line": _TEXT,
        "status": {"enum": [0, 1, 2, 4]},
        "files": {"type": "object", "additionalProperties": _CONTENT},
        "program": {"enum": list(_PROGRAMS)},
        "stream": {"enum": ["stderr", "stdout"]},
        "stdin": _TEXT,
        "env": {"type": "object", "additionalProperties": _TEXT},
        "stdout_closed": {"const": True},
    },
    "required": ["class", "kind", "argv", "first_line", "status"],
    "additionalProperties": False,
}
_VALIDATOR = jsonschema.Draft202012Validator(ENTRY_SCHEMA)


class CorpusError(Exception):
    """A malformed corpus file or entry: the message names the file and the entry."""


class _Loader(yaml.SafeLoader):
    """Safe YAML that refuses a key given twice (a silently lost field)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        keys = [self.construct_object(k, deep=deep) for k, _ in node.value]
        twice = sorted({str(k) for k in keys if keys.count(k) > 1})
        if twice:
            raise yaml.constructor.ConstructorError(None, None, f"key {twice[0]!r} given twice", node.start_mark)
        return super().construct_mapping(node, deep=deep)


@cache
def _commands() -> str:
    from gammonspec.conformance.cli import _parser

    return ", ".join(map(repr, next(a.choices for a in _parser()._actions if a.dest == "command")))


@cache
def _clauses() -> str:
    from gammonspec.conformance.harness.coverage import clauses

    return str(len(clauses()))


def _expand(text: str) -> str:
    """The placeholders filled at load: {x*N}, {commands}, {clauses}."""
    text = re.sub(r"\{x\*(\d+)\}", lambda m: "x" * int(m.group(1)), text)
    if "{commands}" in text:
        text = text.replace("{commands}", _commands())
    if "{clauses}" in text:
        text = text.replace("{clauses}", _clauses())
    return text


def _base(name: str) -> str:
    if name == "good":
        from test_loading import GOOD  # the valid one-case file (test_loading.py says its line numbers)

        return GOOD
    if name == "mini":
        from conftest import MINI_SUITE

        return MINI_SUITE
    if name == "conventions-example":
        text = (TESTS.parent / "spec" / "conventions.md").read_text(encoding="utf-8")
        return text.split("```yaml\n", 1)[1].split("```", 1)[0]
    return (FAULTS / "files" / f"{name}.yaml").read_text(encoding="utf-8")


def _content(spec: str | dict[str, Any]) -> str | bytes | Link:
    if isinstance(spec, str):
        return _expand(spec)
    if "link" in spec:
        return Link(spec["link"])
    if "base64" in spec:
        return base64.b64decode(spec["base64"], validate=True)
    if "copy" in spec:
        return (ENGINES / spec["copy"]).read_text(encoding="utf-8")
    text = _base(spec["base"])
    for old, new in spec.get("replace", []):
        old, new = _expand(old), _expand(new)
        if text.count(old) != 1:
            raise ValueError(f"replace: {old[:60]!r} occurs {text.count(old)} times in base {spec['base']}, not once")
        text = text.replace(old, new)
    text = _expand(spec.get("before", "")) + text + _expand(spec.get("after", ""))
    if "encoding" not in spec and "bom" not in spec:
        return text
    data = text.encode(spec.get("encoding", "utf-8"))
    return b"\xef\xbb\xbf" + data if spec.get("bom") else data


def _fault(entry: dict[str, Any]) -> Fault:
    return Fault(
        entry["class"],
        entry["kind"],
        tuple(_expand(a) for a in entry["argv"]),
        _expand(entry["first_line"]),
        entry["status"],
        {name: _content(spec) for name, spec in entry.get("files", {}).items()},
        entry.get("program", "gammonspec"),
        entry.get("stream", "stderr"),
        _expand(entry.get("stdin", "")),
        dict(entry.get("env", {})),
        entry.get("stdout_closed", False),
    )


def load(path: Path) -> list[Fault]:
    """One corpus file's entries, each validated against ENTRY_SCHEMA and built."""
    try:
        entries = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)  # a SafeLoader
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise CorpusError(f"{path.name}: cannot read: {exc}") from None
    if not isinstance(entries, list) or not entries:
        raise CorpusError(f"{path.name}: a corpus file is a non-empty list of entries")
    faults = []
    for number, entry in enumerate(entries, 1):
        kind = entry.get("kind") if isinstance(entry, dict) else None
        where = f"{path.name}: entry {number} ({kind or 'no kind'})"
        error = jsonschema.exceptions.best_match(_VALIDATOR.iter_errors(entry))
        if error is not None:
            field_path = "/".join(map(str, error.absolute_path)) or "the entry"
            raise CorpusError(f"{where}: {field_path}: {error.message}")
        try:
            faults.append(_fault(entry))
        except (OSError, ValueError, UnicodeError, IndexError) as exc:
            raise CorpusError(f"{where}: {exc}") from None
    return faults


def corpus(folder: Path = FAULTS) -> list[Fault]:
    """Every entry of every area (the folder's *.yaml), checked for unique kinds."""
    faults: list[Fault] = []
    seen: dict[str, str] = {}
    for path in sorted(folder.glob("*.yaml")):
        for fault in load(path):
            if fault.kind in seen:
                raise CorpusError(f"{path.name}: kind {fault.kind} already in {seen[fault.kind]}")
            seen[fault.kind] = path.name
            faults.append(fault)
    if not faults:
        raise CorpusError(f"{folder}: no corpus files (*.yaml)")
    return faults
