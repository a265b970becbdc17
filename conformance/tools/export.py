"""`gammonspec export --json FILE`: the resolved suite as protocol messages, for a test runner in any language.

Each case, under each ruleset or profile it runs under, becomes the list of requests the runner
would send, exactly as it sends them (spec/protocol.md: `rules` with every switch value, `state`
with the position and the turn context the harness worked out), each with the answer it expects,
in the protocol's own terms: sets of positions (or their count and digest), the next segment, the
game result, the opening, the cube.  The document is checked against schema/export.schema.json
(its `requests` against schema/protocol.schema.json) and carries the suite's version.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from typing import Any

import jsonschema
from gammonspec.conformance.harness.cases import Case, Step
from gammonspec.conformance.harness.messages import asked_by
from gammonspec.conformance.harness.runner import Target
from gammonspec.model import PROTOCOL_VERSION, __version__
from gammonspec.model.rulesets import Rules
from gammonspec.model.validation import SCHEMA_DIR
from referencing import Registry, Resource

FORMAT_VERSION = "1.0"  # of the export document; the suite's own version is in `suite`


def requests(step: Step, rules: Rules, ids: Iterator[int]) -> list[dict[str, Any]]:
    """The requests one step sends, as the runner sends them (messages.asked_by: a plays step with `next` sends
    two), each with the reply's fields it expects."""
    return [
        {"request": query.request(str(next(ids)), query.asked(step, rules)), "expect": query.expected(step)}
        for query in asked_by(step)
    ]


def exported_case(case: Case, target: Target) -> dict[str, Any]:
    rules = target.rules(case.options)
    ids = itertools.count(1)
    return {
        "key": f"{target.name}::{case.id}",
        "id": case.id,
        "ruleset": target.name,
        "game": case.game,
        "title": case.title,
        "rule_ids": list(case.rule_ids),
        "queries": sorted(case.queries),
        "derivation": case.derivation,
        "source": f"{case.path.parent.name}/{case.path.name}:{case.line}",
        "requests": [r for step in case.steps for r in requests(step, rules, ids)],
    }


def document(
    pairs: list[tuple[Case, Target]], progress: Callable[[Iterable[Any]], Iterable[Any]] = lambda it: it
) -> dict[str, Any]:
    """The export of these cases under these rulesets; `progress` wraps the pairs (a progress bar)."""
    return {
        "format": FORMAT_VERSION,
        "suite": {"name": "gammonspec", "version": __version__, "protocol": PROTOCOL_VERSION},
        "cases": [exported_case(case, target) for case, target in progress(pairs)],
    }


@cache
def validator() -> jsonschema.Draft202012Validator:
    """The export schema, with the protocol schema it refers to."""
    protocol, document = (
        json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text()) for name in ("protocol", "export")
    )
    registry = Registry().with_resource(protocol["$id"], Resource.from_contents(protocol))
    return jsonschema.Draft202012Validator(document, registry=registry)


def check(data: dict[str, Any]) -> None:
    """Raise jsonschema.ValidationError when `data` is not a valid export document."""
    error = jsonschema.exceptions.best_match(validator().iter_errors(data))
    if error is not None:
        raise error


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1) + "\n"
