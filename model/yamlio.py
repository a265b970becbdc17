"""YAML loading that remembers line numbers, so every error can name file and line."""

from __future__ import annotations

import errno
import functools
import os
import re
from pathlib import Path
from typing import Any

import yaml
from gammonspec.model.terminal import clipped


class DataError(ValueError):
    """Bad input data: says which file, which line (when there is one) and what is wrong, on one line."""

    case: str | None = None  # set by the case loader: which case of its file the problem is in
    field: tuple[Any, ...] = ()  # and, for a case's field, where in the case

    def __init__(self, path: Path | str, line: int | None, message: str) -> None:
        message = clipped(message)
        self.path, self.line, self.message = Path(path), line, message
        super().__init__(f"{path}:{line}: {message}" if line else f"{path}: {message}")


class LineDict(dict):
    """A mapping that knows the line of each key (1-based) and its own line."""

    line: int = 0
    key_lines: dict[Any, int]


class LineList(list):
    line: int = 0
    item_lines: list[int]


class _Resolver(yaml.resolver.Resolver):
    """The implicit tags of plain scalars, with YAML 1.2 booleans: only true/false.  Under YAML 1.1 rules a key
    `off:` (as in `{13: 5, off: 10}`) would be read as the boolean False, and yes/no/on/off values as booleans."""


_Resolver.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.resolver.Resolver.yaml_implicit_resolvers.items()
}
_Resolver.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


# libyaml's parser when PyYAML has it (about ten times faster); node marks carry lines either way.
class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    # A node's tag from its kind, text and style, remembered: the parser asks for every node, and the answer
    # depends on nothing else (no path resolvers), so a repeated key or number is resolved once.
    resolve = staticmethod(functools.lru_cache(maxsize=4096)(_Resolver().resolve))

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.scalars: dict[tuple[str, str], Any] = {}  # each constructed int, bool and null, by (tag, text)
        self.has_float = False  # whether a float was constructed anywhere in the document
        self.anchored = "&" in stream  # whether the document may hold an anchor, and so an alias


_MERGE = "tag:yaml.org,2002:merge"
_STR, _FLOAT = "tag:yaml.org,2002:str", "tag:yaml.org,2002:float"
_CACHED = {f"tag:yaml.org,2002:{name}" for name in ("int", "bool", "null")}  # pure, immutable and often repeated
_scalar = object()  # not constructed yet


class _Refused(yaml.MarkedYAMLError):
    """YAML that is valid but not allowed in a case file (aliases, merge keys)."""


_BAD_VALUE = (ValueError, KeyError, TypeError, AttributeError, OverflowError)  # what PyYAML's constructors raise


_INT = "tag:yaml.org,2002:int"
_DECIMAL = re.compile(r"[-+]?(?:0|[1-9][0-9]*)\Z")  # how a case file writes a number; YAML 1.1 reads more


def _not_decimal(node: yaml.ScalarNode, value: int) -> _Refused:
    """A number YAML 1.1 reads otherwise than it looks (`020:` is 16), refused at its node."""
    text = node.value
    kind = (
        "sexagesimal" if ":" in text
        else "hexadecimal" if "x" in text.lower()
        else "binary" if "b" in text.lower()
        else "octal" if text.lstrip("+-").startswith("0")
        else "digit-separated"
    )
    return _Refused(
        None, None, f"malformed YAML: {text} is {kind} to YAML 1.1, read as {value}: write numbers in plain decimal",
        node.start_mark,
    )


def _unreadable(node: yaml.Node) -> _Refused:
    """A value its tag cannot read (`!!int x`, `!!bool maybe`, `!!map 1`), located at its node."""
    what = repr(node.value) if isinstance(node, yaml.ScalarNode) else f"this {node.id}"
    tag = node.tag.replace("tag:yaml.org,2002:", "!!")
    return _Refused(None, None, f"malformed YAML: cannot read {what} as {tag}", node.start_mark)


def _construct(loader: _Loader, node: yaml.Node) -> Any:
    """A child node's value (one located error when its tag cannot read it)."""
    try:
        return _value(loader, node)
    except _BAD_VALUE:
        raise _unreadable(node) from None


def _value(loader: _Loader, node: yaml.Node) -> Any:
    """A child node's value; an alias (a node met a second time) is refused, so nothing ever expands.

    The plain shapes of a case file are built here directly, with PyYAML's own constructor for each scalar and, in
    a document with an anchor (only those can alias a node), the bookkeeping of its `construct_object`, which
    finds a node met again; any other tag goes to `construct_object` itself."""
    anchored = loader.anchored
    if anchored and (node in loader.constructed_objects or node in loader.recursive_objects):
        raise _Refused(
            None, None, "aliases (*name) and anchors (&name) are not allowed in case files: write the value out", None
        )
    kind, tag = type(node), node.tag
    if kind is yaml.ScalarNode:
        if tag == _STR:
            value = node.value
        elif tag in _CACHED:
            key = (tag, node.value)
            value = loader.scalars.get(key, _scalar)
            if value is _scalar:
                value = loader.yaml_constructors[tag](loader, node)
                if tag == _INT and not _DECIMAL.match(node.value):
                    raise _not_decimal(node, value)
                loader.scalars[key] = value
        else:
            return loader.construct_object(node, deep=True)
        if anchored:
            loader.constructed_objects[node] = value
        return value
    build = _BUILDERS.get((kind, tag))
    if build is None:
        return loader.construct_object(node, deep=True)
    if not anchored:
        return build(loader, node)
    loader.recursive_objects[node] = None
    loader.constructed_objects[node] = value = build(loader, node)
    del loader.recursive_objects[node]
    return value


def _mapping(loader: _Loader, node: yaml.MappingNode) -> LineDict:
    result, key_lines = LineDict(), {}
    result.line, result.key_lines = node.start_mark.line + 1, key_lines
    for key_node, value_node in node.value:
        if key_node.tag == _MERGE:
            raise _Refused(
                None, None, "merge keys (<<) are not allowed in case files: write the fields out", key_node.start_mark
            )
        key = _construct(loader, key_node)
        try:
            hash(key)
        except TypeError:
            raise _Refused(None, None, "a mapping key must be a plain value", key_node.start_mark) from None
        if key in result:
            raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}", key_node.start_mark)
        result[key] = _construct(loader, value_node)
        key_lines[key] = key_node.start_mark.line + 1
    return result


def _sequence(loader: _Loader, node: yaml.SequenceNode) -> LineList:
    result = LineList(_construct(loader, child) for child in node.value)
    result.line, result.item_lines = node.start_mark.line + 1, [c.start_mark.line + 1 for c in node.value]
    return result


def _float(loader: _Loader, node: yaml.ScalarNode) -> float:
    loader.has_float = True
    return loader.construct_yaml_float(node)


_BUILDERS = {(yaml.MappingNode, yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG): _mapping}
_BUILDERS[yaml.SequenceNode, yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG] = _sequence
for (_, _tag), _build in _BUILDERS.items():
    _Loader.add_constructor(_tag, _build)
_Loader.add_constructor(_FLOAT, _float)


def _line_of(data: bytes | str, offset: int) -> int:
    return data[:offset].count(b"\n" if isinstance(data, bytes) else "\n") + 1


def file_bytes(path: Path, error: type[DataError] = DataError) -> bytes:
    """A file's bytes; one that cannot be read, or is no regular file (reading a FIFO would wait for a writer
    for ever), raises `error`."""
    if path.exists() and not (path.is_file() or path.is_dir()):
        raise error(path, None, "not a regular file (a FIFO, device or socket): give a file")
    try:
        return path.read_bytes()
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise error(path, None, "a symbolic link that leads back to itself (a loop): link it to a file") from None
        if path.is_symlink() and exc.errno == errno.ENOENT:
            target = os.readlink(path)
            raise error(path, None, f"a symbolic link to nothing ({target} does not exist): link it to a file") from None
        raise error(path, None, f"cannot read: {exc.strerror or exc}") from None


def read_text(path: Path) -> str:
    """A text file's contents: UTF-8 (a UTF-8 byte-order mark is dropped), without NUL bytes."""
    data = file_bytes(path)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise DataError(path, 1, "the file is UTF-16: save it as UTF-8")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        at = exc.start + (3 if data.startswith(b"\xef\xbb\xbf") else 0)
        column = at - data.rfind(b"\n", 0, at)
        raise DataError(
            path, _line_of(data, at), f"not UTF-8: byte 0x{data[at]:02x} at column {column}: save the file as UTF-8"
        ) from None
    if "\0" in text:
        raise DataError(
            path, _line_of(text, text.index("\0")), "a NUL byte (is the file UTF-16, or binary?): save it as UTF-8 text"
        )
    return text


_HIDDEN_BREAK = re.compile("[\x85\u2028\u2029]")  # line breaks to YAML, not to an editor nor to this file's lines


def load_yaml(path: Path) -> Any:
    """Parse a YAML case file; malformed YAML, aliases and merge keys raise DataError with the line."""
    return load_document(path)[0]


def load_document(path: Path) -> tuple[Any, bool]:
    """A YAML file's data (as load_yaml) and whether a float is anywhere in it, noted while it was built."""
    text = read_text(path)
    breaks = _HIDDEN_BREAK.search(text)
    if breaks:  # YAML counts it as a line break where an editor shows none: every line after it would be misnamed
        at = breaks.start()
        raise DataError(
            path,
            _line_of(text, at),
            f"a U+{ord(text[at]):04X} at column {at - text.rfind(chr(10), 0, at)}: YAML reads it as a line break;"
            f" write it as \\u{ord(text[at]):04x} in a double-quoted string",
        )
    try:
        loader = _Loader(text)
        try:
            return loader.get_single_data(), loader.has_float
        finally:
            loader.dispose()
    except _Refused as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else _alias_line(text)
        raise DataError(path, line, exc.problem) from None
    except _BAD_VALUE:  # the document itself is a value its tag cannot read
        raise DataError(path, 1, "malformed YAML: the document's value does not fit its tag") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise DataError(
            path, mark.line + 1 if mark else None, f"malformed YAML: {exc.problem or exc.context}"
        ) from None
    except yaml.reader.ReaderError as exc:
        raise DataError(path, _line_of(text, exc.position), f"malformed YAML: {exc.reason}") from None
    except yaml.YAMLError as exc:
        raise DataError(path, None, f"malformed YAML: {exc}") from None


def _alias_line(text: str) -> int | None:
    """The line of the first alias (only on the error path: this parses the text again)."""
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.AliasEvent):
            return event.start_mark.line + 1
    return None


def locate(data: Any, *path: Any) -> int | None:
    """The line of the deepest node along `path` that has one."""
    line = getattr(data, "line", None)
    for step in path:
        if isinstance(data, LineDict) and step in data:
            line, data = data.key_lines.get(step, line), data[step]
        elif isinstance(data, LineList) and isinstance(step, int) and step < len(data):
            line, data = data.item_lines[step], data[step]
        else:
            break
    return line
