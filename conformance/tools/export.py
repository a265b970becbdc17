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
from gammonspec.conformance.harness.messages import QUERIES, STEP_QUERIES
from gammonspec.conformance.harness.runner import Target
from gammonspec.conformance.harness.steps import play_name
from gammonspec.model import PROTOCOL_VERSION, __version__
from gammonspec.model.interface import GameResult, MatchOutcome
from gammonspec.model.rulesets import Rules
from gammonspec.model.validation import SCHEMA_DIR
from referencing import Registry, Resource

FORMAT_VERSION = "1.0"  # of the export document; the suite's own version is in `suite`


def _plays_expect(step: Step) -> dict[str, Any]:
    """What a legal-plays answer must hold, with positions in the wire format."""
    expect, expected = step.expect, step.expected
    out: dict[str, Any] = {}
    if expected.get("plays"):
        out["positions"] = [layout.to_wire() for layout in expected["plays"].values()]
    if expect.get("no_play"):
        out["positions"] = [step.state.layout.to_wire()]
    if expected.get("includes"):
        out["includes"] = [layout.to_wire() for layout in expected["includes"].values()]
    if expect.get("excludes"):
        out["excludes"] = [
            {
                "position": expected["excludes"][play_name(item["play"])].to_wire(),
                "reason": item["reason"],
                "play": play_name(item["play"]),
            }
            for item in expect["excludes"]
        ]
    for name in ("count", "digest", "divide"):
        if name in expect:
            out[name] = expect[name]
    if step.play is not None:
        out["includes"] = [*out.get("includes", []), step.play[1].to_wire()]  # the scripted play must be legal
    return out


def _step_expect(step: Step) -> dict[str, Any]:
    """What the answer to the query of a step that is not a plays step must hold: the reply the query's answer
    makes where the case states all of it, the fields it states where it states some (opening, double)."""
    expect, reply = step.expect, STEP_QUERIES[step.kind].reply
    if step.kind == "result":
        return reply(None if expect.get("not_over") else GameResult.from_wire(expect["result"]))
    if step.kind == "opening":
        return {k: expect[k] for k in ("starts", "dice", "cube") if k in expect}
    if step.kind == "may-double":
        return reply(expect["may_double"])
    if step.kind == "double":
        return {"legal": expect.get("legal", True)} | {k: expect[k] for k in ("cube", "result") if k in expect}
    assert step.kind == "next-game"
    return reply(MatchOutcome.from_wire(expect))


def requests(step: Step, rules: Rules, ids: Iterator[int]) -> list[dict[str, Any]]:
    """The requests one step sends, as the runner sends them (a plays step with `next` sends two), each with
    its expectation."""

    def ask(kind: str, expect: dict[str, Any]) -> dict[str, Any]:
        query = QUERIES[kind]
        return {"request": query.request(str(next(ids)), step.arguments(query, rules)), "expect": expect}

    if step.kind != "plays":
        return [ask(STEP_QUERIES[step.kind].request_type, _step_expect(step))]
    out = [ask("legal-plays", _plays_expect(step))]
    if step.check_next:
        out.append(ask("next-segment", QUERIES["next-segment"].reply(step.next)))
    return out


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
