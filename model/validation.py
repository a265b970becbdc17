"""Schema checks at the boundary: a compiled validator decides, jsonschema only words a failure.

Everything that comes in from outside (a case file, a ruleset, a protocol message) is checked once,
here; what the suite builds itself is valid by construction and never checked again.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import fastjsonschema

SCHEMA_DIR = Path(__file__).resolve().parent / "schema"


@cache
def schema(name: str) -> dict[str, Any]:
    """One of the suite's schemas (schema/<name>.schema.json), without its `$id`: local refs stay local."""
    data = json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text())
    return {k: v for k, v in data.items() if k != "$id"}


try:  # a validator in Rust, where a wheel of it is installed (pyproject: the platforms that have one)
    import jsonschema_rs
except ImportError:  # pragma: no cover - elsewhere the pure-Python compiled validator serves alone
    jsonschema_rs = None


def _compile(definition: dict[str, Any], json_shaped: bool) -> Callable[[Any], str | None]:
    """A check that gives None for valid data, else what it found.  JSON-shaped data (string keys: protocol
    messages) goes to jsonschema-rs when it is installed, five to ten times faster; anything else (and
    everything without it) to fastjsonschema."""
    if json_shaped and jsonschema_rs is not None:
        valid = jsonschema_rs.validator_for(definition).is_valid
        return lambda data: None if valid(data) else "not valid by the schema"
    # The check that decides is compiled without fastjsonschema's detailed exceptions, which write the schema out in
    # every failure branch (two and a half times the code to generate and compile, and to run through a oneOf);
    # the detailed one, whose message is reported, is compiled on the first failure only.
    check = fastjsonschema.compile(_const_as_enum(definition), detailed_exceptions=False)
    detailed: list[Callable[[Any], Any]] = []

    def problem(data: Any) -> str | None:
        try:
            check(data)
        except (fastjsonschema.JsonSchemaException, TypeError):
            pass
        else:
            return None
        if not detailed:
            detailed.append(fastjsonschema.compile(definition))
        try:
            detailed[0](data)
        except (fastjsonschema.JsonSchemaException, TypeError) as exc:
            return str(exc)
        return None

    return problem


_SCHEMA_MAPS = {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}  # name -> schema
_SCHEMAS = {"additionalProperties", "propertyNames", "items", "prefixItems", "contains", "not", "allOf", "anyOf"}
_SCHEMAS |= {"oneOf", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties"}  # a schema or a list


def _const_as_enum(schema: Any) -> Any:
    """The schema with each `const: x` written `enum: [x]`, which means the same (fastjsonschema checks both with one
    comparison): without detailed exceptions it cannot compile a const."""
    if isinstance(schema, list):
        return [_const_as_enum(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    written: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _SCHEMA_MAPS and isinstance(value, dict):
            written[key] = {name: _const_as_enum(s) for name, s in value.items()}
        elif key != "const":
            written[key] = _const_as_enum(value) if key in _SCHEMAS else value
    if "const" in schema:
        one = {"enum": [schema["const"]]}
        if "enum" in written:  # both: a value must be in each
            written["allOf"] = [*written.get("allOf", []), one]
        else:
            written.update(one)
    return written


class Compiled:
    """A schema compiled once; `failure` is None for valid data, else the most telling violation, worded.

    `strict_integers`: the wording validator takes 6.0 for no integer (YAML case files, where a fraction is
    always a mistake); the compiled check cannot tell, so the loader asks `worded` when data holds a float."""

    def __init__(self, definition: dict[str, Any], strict_integers: bool = False, json_shaped: bool = False):
        self.problem = _compile(definition, json_shaped)
        self._definition, self._strict = definition, strict_integers

    @cached_property
    def words(self) -> Any:
        """The wording validator (jsonschema, imported and built on the first failure only)."""
        import jsonschema

        cls = jsonschema.Draft202012Validator
        if self._strict:
            integer = lambda _checker, value: isinstance(value, int) and not isinstance(value, bool)  # noqa: E731
            cls = jsonschema.validators.extend(cls, type_checker=cls.TYPE_CHECKER.redefine("integer", integer))
        return cls(self._definition)

    def worded(self, data: Any) -> Any:
        """jsonschema's most telling error for `data`, or None."""
        import jsonschema

        return jsonschema.exceptions.best_match(self.words.iter_errors(data))

    def failure(self, data: Any) -> tuple[list[Any], str, Any] | None:
        """(path, message, jsonschema's error if it words one) for invalid data; None when valid."""
        problem = self.problem(data)
        if problem is None:
            return None
        error = self.worded(data)
        if error is not None:
            return list(error.absolute_path), error.message, error
        return [], problem, None  # the wording validator finds nothing: the compiled one decides


@cache
def compiled(name: str) -> Compiled:
    """The validator of one of the suite's schemas, compiled on first use."""
    return Compiled(schema(name))
