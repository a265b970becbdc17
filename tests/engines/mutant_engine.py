"""One named rule mutant (tests/engines/mutant_engines.py) served as a protocol process: a planted bug to bisect.

`gammonspec perft --engine-cmd "python tests/engines/mutant_engine.py NAME"`.
"""

from __future__ import annotations

import sys

from gammonspec.conformance.protocol import serve
from mutant_engines import MutantEngine  # this file's folder is on the path when run as a script

if __name__ == "__main__":
    engine = MutantEngine(sys.argv[1])
    sys.exit(serve(engine, name=engine.info().name))
