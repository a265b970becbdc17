"""How many of the named rule mutants (conformance/tools/mutants.py) `gammonspec fuzz` finds.

Each mutant's reference engine (tests/engines/mutant_engine.py, in process) is fuzzed under each ruleset in turn,
then under each ruleset with options with those at their other values, `--count` states per target (seed 0),
until a failure is found.  Prints
the target and aspect each mutant was found on, or that it was missed, and the total.  A measurement, not a
test: exit status 0 whatever it finds.

    python tests/fuzz_kills.py [--count N] [--mutant GLOB]

Measured (seed 0, these targets): before fuzz asked questions (commit 423c979) it found 67 of 99 at --count 300 and
68 at 1000, none of the 31 mutants of the cube, the opening and the match that the questions now ask about; with
them (fuzz_queries.py) it finds 97 at --count 300 (not win-mid-turn-ignored, beaver-at-any-score) and all 99 at
--count 1000, fuzz's default (about 4 minutes; this script's own default is 300).
"""

from __future__ import annotations

import argparse
import fnmatch
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "engines"))

from gammonspec.conformance.harness.runner import Target  # noqa: E402
from gammonspec.conformance.tools import fuzz
from gammonspec.conformance.tools.mutants import all_mutants  # noqa: E402
from gammonspec.model import profiles  # noqa: E402
from gammonspec.model.rulesets import rulesets  # noqa: E402
from mutant_engine import MutantEngine  # noqa: E402


def targets() -> list[Target]:
    """Every ruleset, then each ruleset that has options with every option at its other value (where the option
    mutants can show)."""
    found: list[Target] = list(rulesets().values())
    for ruleset in rulesets().values():
        changed = [(name, next(v for v in o["allowed"] if v != o["default"])) for name, o in ruleset.options.items()]
        if changed:
            found.append(profiles.override(ruleset, changed))
    return found


def found_on(name: str, count: int) -> str:
    """Where fuzz first finds the mutant (target and aspect), or ''."""
    engine = MutantEngine(name)
    for target in targets():
        campaign = fuzz.fuzz(engine, [target], count=count, max_failures=1)
        if campaign.failures:
            return f"{target.name}: {campaign.failures[0].aspect}"
    return ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Count the rule mutants fuzz finds.")
    parser.add_argument("--count", type=int, default=300, help="states per target (default 300)")
    parser.add_argument("--mutant", action="append", default=[], help="only mutants whose name matches this glob")
    args = parser.parse_args(argv)
    chosen = [m for m in all_mutants() if not args.mutant or any(fnmatch.fnmatchcase(m.name, g) for g in args.mutant)]
    missed = []
    for m in chosen:
        where = found_on(m.name, args.count)
        print(f"{m.name:<60} {where or 'MISSED'}", flush=True)
        if not where:
            missed.append(m.name)
    print(f"fuzz found {len(chosen) - len(missed)} of {len(chosen)} mutants at --count {args.count} per target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
