"""Every YAML and JSON example in the documents parses; a case-file example loads as a valid case."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from gammonspec.conformance.cases import read_file
from gammonspec.conformance.yamlio import load_yaml

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
