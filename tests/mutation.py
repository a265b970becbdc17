"""The mutation check: every named rule mutant of the reference engine (conformance/tools/mutants.py) must fail
at least MIN_KILLS cases of the suite.

Loads the suite once, runs it in process against the unmutated engine (it must pass everything),
then against each mutant, and prints the kill matrix: mutant, the rule it breaks, how many cases
fail and a few of their ids.  Exit status 0 when every mutant is killed by MIN_KILLS cases or
more, 1 otherwise, 2 when the suite does not pass the unmutated engine.

    python tests/mutation.py [--mutant GLOB] [--verbose]
"""

from __future__ import annotations

import argparse
import fnmatch
import statistics
import sys
from collections.abc import Iterable
from dataclasses import dataclass

from gammonspec.conformance.harness import runner
from gammonspec.conformance.harness.cases import Case, suite
from gammonspec.conformance.tools.mutants import Mutant, all_mutants
from gammonspec.model.rulesets import Ruleset, rulesets
from gammonspec.reference import ReferenceEngine

MIN_KILLS = 2
Pairs = list[tuple[Case, Ruleset]]


@dataclass(frozen=True)
class Kill:
    mutant: Mutant
    cases: tuple[str, ...]  # ids of the cases that fail under the mutant (under any ruleset)


def failing_cases(pairs: Pairs) -> tuple[str, ...]:
    """Ids of the cases that do not pass against the reference engine as it is patched now."""
    bad = {o.case.id for o in runner.run(ReferenceEngine(), pairs) if o.status not in ("passed", "skipped")}
    return tuple(sorted(bad))


def kills(mutants: Iterable[Mutant], pairs: Pairs) -> list[Kill]:
    result = []
    for m in mutants:
        with m.applied():
            result.append(Kill(m, failing_cases(pairs)))
    return result


def matrix(results: list[Kill], shown: int = 3) -> str:
    width = max(len(k.mutant.name) for k in results)
    rule_width = max(len(k.mutant.rule) for k in results)
    lines = [f"{'mutant':<{width}}  {'breaks':<{rule_width}}  kills  cases"]
    for k in results:
        ids = ", ".join(k.cases[:shown]) + (f", ... (+{len(k.cases) - shown})" if len(k.cases) > shown else "")
        flag = "  <- under-killed" if len(k.cases) < MIN_KILLS else ""
        lines.append(f"{k.mutant.name:<{width}}  {k.mutant.rule:<{rule_width}}  {len(k.cases):>5}  {ids}{flag}")
    return "\n".join(lines)


def summary(results: list[Kill]) -> str:
    counts = [len(k.cases) for k in results]
    weak = [k.mutant.name for k in results if len(k.cases) < MIN_KILLS]
    text = (
        f"{len(results)} mutants; kills per mutant min {min(counts)}, median {statistics.median(counts):g}, "
        f"max {max(counts)}; {len(weak)} killed by fewer than {MIN_KILLS} cases"
    )
    return text + (f": {', '.join(weak)}" if weak else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Run the suite against each named rule mutant of the reference engine."
    )
    parser.add_argument("--mutant", action="append", default=[], help="only mutants whose name matches this glob")
    parser.add_argument("--verbose", action="store_true", help="list every failing case id")
    args = parser.parse_args(argv)
    pairs = runner.plan(suite(), rulesets(), runner.Filters())
    broken = failing_cases(pairs)
    if broken:
        print(f"mutation check: the suite does not pass the unmutated reference engine: {', '.join(broken)}")
        return 2
    chosen = [m for m in all_mutants() if not args.mutant or any(fnmatch.fnmatchcase(m.name, g) for g in args.mutant)]
    if not chosen:
        print(f"mutation check: no mutant matches {', '.join(args.mutant)}")
        return 2
    results = kills(chosen, pairs)
    print(matrix(results, shown=10**6 if args.verbose else 3))
    print(summary(results))
    return 1 if any(len(k.cases) < MIN_KILLS for k in results) else 0


if __name__ == "__main__":
    sys.exit(main())
