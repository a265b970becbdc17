"""YAML loading that remembers line numbers, so every error can name file and line."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml


class DataError(ValueError):
    """Bad input data: says which file, which line and what is wrong."""

    def __init__(self, path: Path | str, line: int | None, message: str) -> None:
        self.path, self.line, self.message = Path(path), line, message
        super().__init__(f"{path}:{line or '?'}: {message}")


class LineDict(dict):
    """A mapping that knows the line of each key (1-based) and its own line."""

    line: int = 0
    key_lines: dict[Any, int]


class LineList(list):
    line: int = 0
    item_lines: list[int]


# libyaml's parser when PyYAML has it (about ten times faster); node marks carry lines either way.
class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    pass


# YAML 1.2 booleans: only true/false.  Under YAML 1.1 rules a key `off:` (as in `{13: 5, off: 10}`)
# would be read as the boolean False, and yes/no/on/off values as booleans.
_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


def _mapping(loader: _Loader, node: yaml.MappingNode) -> LineDict:
    result = LineDict()
    result.line, result.key_lines = node.start_mark.line + 1, {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in result:
            raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}", key_node.start_mark)
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[key] = key_node.start_mark.line + 1
    return result


def _sequence(loader: _Loader, node: yaml.SequenceNode) -> LineList:
    result = LineList(loader.construct_object(child, deep=True) for child in node.value)
    result.line, result.item_lines = node.start_mark.line + 1, [c.start_mark.line + 1 for c in node.value]
    return result


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _sequence)


def load_yaml(path: Path) -> Any:
    """Parse a YAML file; malformed YAML raises DataError with the line."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(path, None, f"cannot read: {exc.strerror}") from None
    try:
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - _Loader is a SafeLoader
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise DataError(
            path, mark.line + 1 if mark else None, f"malformed YAML: {exc.problem or exc.context}"
        ) from None
    except yaml.YAMLError as exc:
        raise DataError(path, None, f"malformed YAML: {exc}") from None


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
