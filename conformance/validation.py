"""Schema checks at the boundary: a compiled validator decides, jsonschema only words a failure.

Everything that comes in from outside (a case file, a ruleset, a protocol message) is checked once,
here; what the suite builds itself is valid by construction and never checked again.
"""

from __future__ import annotations

import json
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import fastjsonschema
import jsonschema

SCHEMA_DIR = Path(__file__).resolve().parent / "schema"


@cache
def schema(name: str) -> dict[str, Any]:
    """One of the suite's schemas (schema/<name>.schema.json), without its `$id`: local refs stay local."""
    data = json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text())
    return {k: v for k, v in data.items() if k != "$id"}


class Compiled:
    """A schema compiled once; `failure` is None for valid data, else the most telling violation, worded."""

    def __init__(
        self, definition: dict[str, Any], wording: type[jsonschema.Validator] = jsonschema.Draft202012Validator
    ):
        self.check = fastjsonschema.compile(definition)
        self._definition, self._wording = definition, wording

    @cached_property
    def words(self) -> jsonschema.Validator:
        """The wording validator, built on the first failure only."""
        return self._wording(self._definition)

    def failure(self, data: Any) -> tuple[list[Any], str, jsonschema.ValidationError | None] | None:
        """(path, message, jsonschema's error if it words one) for invalid data; None when valid."""
        try:
            self.check(data)
            return None
        except (fastjsonschema.JsonSchemaException, TypeError) as exc:
            failed: Exception = exc
        error = jsonschema.exceptions.best_match(self.words.iter_errors(data))
        if error is not None:
            return list(error.absolute_path), error.message, error
        path = getattr(failed, "path", ["data"])[1:]  # fastjsonschema's path starts at "data"
        return list(path), str(failed), None


@cache
def compiled(name: str) -> Compiled:
    """The validator of one of the suite's schemas, compiled on first use."""
    return Compiled(schema(name))
