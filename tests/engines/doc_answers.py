"""An engine process that answers every query but legal-plays with spec/protocol.md's own example answer of that
type (the request's id put in), the reference engine answering legal-plays: the runner must read every answer
the page shows (tests/test_doc_examples.py).  Usage: python doc_answers.py [skip|error]: with `skip` or `error`,
every query is answered with the page's example of that answer."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from gammonspec.conformance.harness.protocol import answer, decode, encode
from gammonspec.reference import ReferenceEngine

PAGE = Path(__file__).resolve().parents[2] / "spec" / "protocol.md"


def examples() -> dict[str, dict]:
    """The page's first example message of each type written whole on one line (no elided `...` in it)."""
    found: dict[str, dict] = {}
    for block in re.findall(r"```json\n(.*?)```", PAGE.read_text(), re.S):
        for line in block.splitlines():
            try:
                message = json.loads(line)
            except ValueError:  # a line of a longer example, or an elided one
                continue
            if isinstance(message, dict) and "type" in message and "..." not in line:
                found.setdefault(message["type"], message)
    return found


def main() -> int:
    engine, answers = ReferenceEngine(), examples()
    only = sys.argv[1] if len(sys.argv) > 1 else None
    for line in sys.stdin:
        message = decode(line, "to_engine")
        kind = message["type"]
        if kind == "bye":
            return 0
        if kind == "hello":
            reply = {"type": "hello", "protocol": "1.1", "name": "doc-answers", "version": "1",
                     "rulesets": list(engine.info().rulesets)}
        elif only:
            reply = {**answers[only], "id": message["id"]}
        elif kind == "legal-plays":
            reply = answer(engine, message)
        else:
            reply = {**answers[kind], "id": message["id"]}
        print(encode(reply), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
