"""Every one-switch flip of every ruleset, played by the reference while it declares the ruleset: does
`gammonspec identify` name the flipped value, and nothing else? Prints the table flip -> recovered value
and exits 1 on a flip it misses or a reading it invents (tests/test_identify.py runs a few of them;
tests/soak runs this)."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "engines"))

from gammonspec.conformance.harness.cases import suite  # noqa: E402
from gammonspec.conformance.harness.runner import run_one  # noqa: E402
from gammonspec.conformance.tools.identify import Answer, Model, answer, identify  # noqa: E402
from gammonspec.model.profiles import Profile, flips  # noqa: E402
from gammonspec.model.rulesets import Ruleset, rulesets  # noqa: E402
from gammonspec.reference import ReferenceEngine  # noqa: E402
from profile_engines import plays_as  # noqa: E402

# Flips identify cannot recover, each with the reason it cannot be done; empty while every one is recovered.
KNOWN_GAPS: dict[str, str] = {}
MODEL = Model()  # the reference's answers under other values, shared by every flip
FLIPS = [(rs, flip) for rs in rulesets().values() for flip in flips(rs)]


@cache
def as_itself(ruleset: str) -> dict[str, Answer]:
    """The reference's answer to every case of the ruleset's game, asked under the ruleset."""
    found = identify(ReferenceEngine(), suite(), rulesets()[ruleset], MODEL)
    return {o.case.id: answer(o) for o in found.outcomes}


def check(ruleset: Ruleset, flip: Profile) -> tuple[str, str]:
    """(verdict, what identify found): recovered, missed, invisible, invented or unsound."""
    ((switch, value),) = flip.changed_switches.items()
    found = identify(plays_as(flip), suite(), ruleset, MODEL)
    named = found.ties.get(switch, [found.assignment[switch]])
    seen = f"{switch}={' or '.join(named)}; {found.closest()}"
    if all(answer(o) == as_itself(ruleset.name)[o.case.id] for o in found.outcomes):
        # no case answers differently under the flip: identify must not invent a reading
        return ("invisible" if not found.changes and found.closest() == ruleset.name else "invented"), seen
    # a case the flip admits that a plain run of the flip fails: the suite does not pin everything the flip
    # changes (switch-pinning check); plays_as's answers are judged under the rules asked, a plain run's under the flip
    failing = [o.case for o in found.outcomes if o.status != "passed" and flip.admits(o.case.requires, o.case.options)]
    if any(run_one(ReferenceEngine(), case, flip).status != "passed" for case in failing):
        return "unsound", seen
    hit = found.changes.keys() == {switch} and named == [value]  # a tie with a neighbouring value is a miss
    return ("recovered" if hit and not found.unexplained else "missed"), seen


def main() -> int:
    bad = 0
    counts: dict[str, int] = {}
    for ruleset, flip in FLIPS:
        verdict, seen = check(ruleset, flip)
        gap = flip.name in KNOWN_GAPS
        wrong = verdict in ("missed", "invented", "unsound") and not gap or gap and verdict != "missed"
        bad += wrong
        counts[verdict] = counts.get(verdict, 0) + 1
        note = f"  known gap: {KNOWN_GAPS[flip.name]}" if gap else ""
        print(f"{'FAIL ' if wrong else ''}{flip.name:<55} {verdict:<13} {seen}{note}")
    print(", ".join(f"{n} {v}" for v, n in sorted(counts.items())) + f" of {len(FLIPS)} flips; {bad} wrong")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
