"""Every YAML and JSON example in the documents parses; a case-file example loads as a valid case."""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

import pytest
from gammonspec.conformance import cli
from gammonspec.conformance.harness.cases import read_file
from gammonspec.model.yamlio import load_yaml

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "spec").glob("*.md")) + [ROOT / "README.md"]
_BLOCK = re.compile(r"^```(yaml|json)\n(.*?)^```", re.S | re.M)
# An example may elide what does not matter with "...": as a whole array, object or list item.
_ELISIONS = (
    (re.compile(r"\[\.\.\.\]"), "[]"),
    (re.compile(r"\{\.\.\.\}"), "{}"),
    (re.compile(r",\s*\.\.\.(?=\s*[\]}])"), ""),
)


def _examples() -> list[tuple[str, str, str]]:
    found = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for match in _BLOCK.finditer(text):
            line = text[: match.start()].count("\n") + 1
            found.append((f"{doc.name}:{line}", match[1], match[2]))
    return found


EXAMPLES = _examples()


def test_the_documents_have_examples():
    kinds = {kind for _, kind, _ in EXAMPLES}
    assert kinds == {"yaml", "json"} and len(EXAMPLES) >= 10, EXAMPLES


@pytest.mark.parametrize("where, kind, text", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_example_parses(where, kind, text, tmp_path):
    if kind == "json":
        for pattern, replacement in _ELISIONS:
            text = pattern.sub(replacement, text)
        decoder, at, values = json.JSONDecoder(), 0, []
        while text[at:].strip():
            value, end = decoder.raw_decode(text, at + len(text[at:]) - len(text[at:].lstrip()))
            values.append(value)
            at = end
        assert values and all(isinstance(v, dict) for v in values), where
        return
    path = tmp_path / "example.yaml"
    path.write_text(text, encoding="utf-8")
    data = load_yaml(path)
    assert isinstance(data, dict), where
    if "cases" in data:  # a case file: it must load as one, without a single error
        cases, errors = read_file(path)
        assert cases and not errors, [str(e) for e in errors]


# Through a real engine process: tests/engines/doc_answers.py answers each query with the page's own example
# answer of its type, so every answer spec/protocol.md shows must be read and judged, never an error.
def _doc_engine_run(tmp_path: Path, *mode: str) -> dict:
    report = tmp_path / "r.json"
    command = shlex.join([sys.executable, str(ROOT / "tests" / "engines" / "doc_answers.py"), *mode])
    cli.main(["run", "-q", "--engine-cmd", command, "--json", str(report), "--case", "*cube*", "--case", "*result*"])
    return json.loads(report.read_text())


def test_every_answer_example_of_the_protocol_page_is_read(tmp_path):
    data = _doc_engine_run(tmp_path)
    assert data["summary"]["total"] > 50 and data["summary"]["errored"] == 0, data["summary"]


@pytest.mark.parametrize("kind, status", [("skip", "skipped"), ("error", "errored")])
def test_the_skip_and_error_examples_are_read_as_such(tmp_path, kind, status):
    data = _doc_engine_run(tmp_path, kind)
    assert data["summary"]["total"] == data["summary"][status] > 0, data["summary"]
    if kind == "error":
        assert "position has 16 white checkers" in data["results"][0]["message"]


def test_the_state_example_of_the_protocol_page_is_a_state_the_serve_process_answers(tmp_path):
    from gammonspec.conformance.harness.protocol import decode
    from gammonspec.conformance.harness.subprocess_engine import SubprocessEngine
    from gammonspec.model.rulesets import rulesets

    (text,) = [t for where, kind, t in EXAMPLES if where.startswith("protocol.md") and '"turn": "white"' in t]
    state = json.loads(text)
    request = {"type": "legal-plays", "id": "1", "rules": rulesets()["backgammon"].rules().to_wire(), "state": state}
    decode(json.dumps(request), "to_engine")  # the page's state, as a request carries it, follows the schema
    engine = SubprocessEngine(shlex.join([sys.executable, "-m", "gammonspec.conformance.cli", "serve"]))
    try:
        from gammonspec.model.state import State

        plays = engine.legal_plays(State.from_wire(state), rulesets()["backgammon"].rules())
    finally:
        engine.close()
    # the round trip carries the page's state whole: the process answers as the engine in process does
    from gammonspec.reference import ReferenceEngine

    here = ReferenceEngine().legal_plays(State.from_wire(state), rulesets()["backgammon"].rules())
    assert len(plays) > 1 and set(plays) == set(here)
