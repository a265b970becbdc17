"""An engine process whose hello is spec/protocol.md's profile example, word for word; the reference engine
answers its queries.  Usage: python doc_hello.py (run from anywhere)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from gammonspec.conformance.harness.protocol import answer, decode, encode
from gammonspec.reference import ReferenceEngine

PAGE = Path(__file__).resolve().parents[2] / "spec" / "protocol.md"


def doc_hello() -> dict:
    """The JSON block under the page's Profiles heading."""
    block = re.search(r"```json\n(.*?)```", PAGE.read_text().split("## Profiles", 1)[1], re.S)
    return json.loads(block.group(1))


def main() -> int:
    engine = ReferenceEngine()
    for line in sys.stdin:
        message = decode(line, "to_engine")
        if message["type"] == "bye":
            return 0
        reply = doc_hello() if message["type"] == "hello" else answer(engine, message)
        print(encode(reply), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
