"""What a wrong answer does, in words an engine's author can act on: the shape fuzz groups a bug by, and the line
identify says of a group of failures no reading or rule mutant explains.

A play's features (`play_features`) are what a rule is about: it bears off, enters, hits, takes a second checker
off the head, builds a six-block, stops short of the longest legal play, or does nothing.  A wrong answer is the
features of the plays it misses and of those it gives that are not legal (`shape`); `leading` picks the one that
says most of it, and `says` puts tags in one line ("bears off where the rules do not allow it (...)").
"""

from __future__ import annotations

from collections.abc import Iterable

from gammonspec.conformance.tools import reachability
from gammonspec.model.rulesets import Rules
from gammonspec.model.state import Layout, Side, head_moves, other, standing_six_block

# feature -> (what the engine does when it gives such plays wrongly, when it misses them), the most specific first
SAYS: dict[str, tuple[str, str]] = {
    "builds a six-block": (
        "builds a six-point block with no opposing checker ahead of it",
        "forbids a six-point block the rules allow (an opposing checker stands ahead of it)",
    ),
    "leaves the head twice": (
        "takes more than one checker off the head where the head rule allows one",
        "takes only one checker off the head where two may leave (the first turn's doubles)",
    ),
    "enters": ("enters from the bar where the point is closed", "does not enter from the bar where a point is open"),
    "hits": ("hits where the rules do not allow it", "does not hit where the rules allow it"),
    "bears off": (
        "bears off where the rules do not allow it (a higher number while a checker stands higher, or not all home)",
        "does not bear off where the rules allow it (the exact number, or a higher one from the highest point)",
    ),
    "no move": ("passes where a play exists", "finds a play where none exists"),
    "stops short": (
        "stops short of playing as much of the roll as can be played",
        "misses plays that use less of the roll where no more can be played (or the higher number alone)",
    ),
    "plays": ("gives plays the rules do not allow", "misses legal plays"),
}


def pips_moved(before: Layout, after: Layout, side: Side) -> int:
    return reachability.pips(before, side) - reachability.pips(after, side)


def play_features(before: Layout, after: Layout, side: Side, rules: Rules, longest: int) -> set[str]:
    """What a play does that a rule is about: bears off, enters, hits, leaves the head twice, builds a six-block,
    stops short of the longest legal play, or does nothing."""
    tags = set()
    if after == before:
        tags.add("no move")
    if after.borne_off(side) > before.borne_off(side):
        tags.add("bears off")
    if after.on_bar(side) < before.on_bar(side):
        tags.add("enters")
    if after.on_bar(other(side)) > before.on_bar(other(side)):
        tags.add("hits")
    if rules.switch.head_rule and head_moves(before, after, side) > 1:
        tags.add("leaves the head twice")
    if standing_six_block(after) and not standing_six_block(before):
        tags.add("builds a six-block")
    if 0 < pips_moved(before, after, side) < longest:
        tags.add("stops short")
    return tags


def shape(before: Layout, side: Side, rules: Rules, expected: Iterable[Layout], got: Iterable[Layout]) -> tuple[str, ...]:
    """What the missing and the extra plays do: 'missing bears off', 'extra stops short', ... ('missing plays' or
    'extra plays' where they do nothing a rule is about)."""
    want, have = {lay.key(): lay for lay in expected}, {lay.key(): lay for lay in got}
    longest = max((pips_moved(before, lay, side) for lay in want.values()), default=0)
    tags: set[str] = set()
    for which, plays in (
        ("missing", [lay for k, lay in want.items() if k not in have]),
        ("extra", [lay for k, lay in have.items() if k not in want]),
    ):
        found = set().union(*(play_features(before, lay, side, rules, longest) for lay in plays))
        tags |= {f"{which} {t}" for t in found} or ({f"{which} plays"} if plays else set())
    return tuple(sorted(tags))


def leading(tags: Iterable[str]) -> tuple[str, ...]:
    """The one tag of a shape that says most of what is wrong: the feature a rule is most specifically about (the
    order of SAYS), the plays given wrongly before those missed; two failures of one misreading that differ in what
    else their plays do share it (identify groups its bugs by it)."""
    tags = set(tags)
    order = [f"{which} {feature}" for feature in SAYS for which in ("extra", "missing")]
    return next(((t,) for t in order if t in tags), tuple(sorted(tags)))


def says(tags: Iterable[str]) -> str:
    """A shape in one line: what the engine does, the plays it gives wrongly first."""
    tags = list(tags)
    extra = [SAYS[t.removeprefix("extra ")][0] for t in tags if t.startswith("extra ")]
    missing = [SAYS[t.removeprefix("missing ")][1] for t in tags if t.startswith("missing ")]
    plain = [t for t in tags if not t.startswith(("extra ", "missing "))]  # an answer that is not plays
    return "; ".join([*extra, *missing, *plain])
