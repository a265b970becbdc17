"""The reference engine with one named rule mutant of tests/mutants.py applied, as a protocol process.

A planted bug to bisect: `gammonspec perft --engine-cmd "python tests/engines/mutant_engine.py NAME"`.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gammonspec.conformance.protocol import serve  # noqa: E402
from gammonspec.reference import ReferenceEngine  # noqa: E402
from mutants import all_mutants  # noqa: E402

if __name__ == "__main__":
    mutant = next(m for m in all_mutants() if m.name == sys.argv[1])
    with mutant.applied():
        sys.exit(serve(ReferenceEngine(), name=f"reference with mutant {mutant.name}"))
