"""Standard move notation, from the mover's point of view (spec/conventions.md).

`24/18 13/10`, `24/18/13` (one checker), `13/7(2)`, `bar/22*`, `6/off`, and the
empty play `""` (no checker moves).  The harness, not the engine, turns a play
into the layout it produces, so an engine is judged on positions only.
"""

from __future__ import annotations

import functools
import re

from gammonspec.model.rulesets import game_hitting
from gammonspec.model.state import SIDES, Layout, Side, mirror, other

BAR, OFF = 25, 0
_STEP = re.compile(r"(bar|off|\d{1,2})(\*?)")
_MOVE = re.compile(r"^(?P<path>(?:bar|\d{1,2})(?:/(?:off|\d{1,2})\*?)+)(?:\((?P<times>[1-9])\))?$")


class NotationError(ValueError):
    """A play that is not well formed, or not even possible on the board it is played on."""


CheckerPath = tuple[tuple[int, bool], ...]  # one checker's points (point, hit) with bar=25, off=0


def parse(play: str) -> list[list[tuple[int, bool]]]:
    """Split a play into checker paths: each a list of (point, hit) with bar=25, off=0."""
    return [list(path) for path in _paths(play)]


@functools.lru_cache(maxsize=4096)
def _paths(play: str) -> tuple[CheckerPath, ...]:
    """A play's checker paths, read once per spelling (the suite spells many plays many times)."""
    paths: list[CheckerPath] = []
    for token in play.split():
        m = _MOVE.match(token.lower())
        if not m:
            raise NotationError(f"cannot read move {token!r} (expected e.g. 24/18, bar/22*, 6/off, 13/7(2))")
        steps = []
        for i, part in enumerate(m["path"].split("/")):
            s = _STEP.fullmatch(part)
            assert s, part  # guaranteed by _MOVE
            name, hit = s.group(1), bool(s.group(2))
            point = BAR if name == "bar" else OFF if name == "off" else int(name)
            if name not in ("bar", "off") and not 1 <= point <= 24:
                raise NotationError(f"point {point} in {token!r} is not a point 1-24")
            if i and point >= steps[-1][0]:
                raise NotationError(f"{token!r} moves backwards: checkers move from higher to lower points")
            steps.append((point, hit))
        paths.extend([tuple(steps)] * int(m["times"] or 1))
    return tuple(paths)


def _fits(hop: tuple[int, int], used: tuple[int, ...]) -> bool:
    """Whether one hop of a checker (from, to) is made by exactly these numbers (bearing off may overshoot)."""
    start, end = hop
    if end != OFF:
        return sum(used) == start - end
    return sum(used) - max(used) < start <= sum(used)


def check_numbers(play: str, numbers: tuple[int, ...]) -> None:
    """Raise NotationError unless the play's hops can be made with distinct numbers out of `numbers`."""
    numbers = tuple(numbers)
    hops = tuple((a[0], b[0]) for path in _paths(play) for a, b in zip(path, path[1:]))
    if _placeable(hops, numbers):
        return
    rolled = "-".join(map(str, numbers))
    for start, end in hops:
        if not any(_fits((start, end), used) for used in _sub_multisets(numbers)):
            name = lambda p: "bar" if p == BAR else "off" if p == OFF else str(p)  # noqa: E731
            pips = f"{start} or less" if end == OFF else str(start - end)
            raise NotationError(f"{name(start)}/{name(end)} moves {pips} pips, which no numbers of {rolled} make")
    moves = ", ".join(f"{a - b}" if b != OFF else f"{a}/off" for a, b in hops)
    raise NotationError(f"its moves ({moves}) need more numbers than {rolled} gives")


@functools.lru_cache(maxsize=4096)
def _placeable(hops: tuple[tuple[int, int], ...], left: tuple[int, ...]) -> bool:
    """Whether the hops, first to last, can each be made by distinct numbers out of `left` (a pure question,
    answered once: many cases ask it of the same play and numbers)."""
    if not hops:
        return True
    for used in _sub_multisets(left):
        if _fits(hops[0], used):
            rest = list(left)
            for n in used:
                rest.remove(n)
            if _placeable(hops[1:], tuple(rest)):
                return True
    return False


@functools.lru_cache(maxsize=256)
def _sub_multisets(numbers: tuple[int, ...]) -> frozenset[tuple[int, ...]]:
    """The ways to pick some of the numbers (each a tuple in their order); a turn has few distinct `numbers`."""
    return frozenset(
        tuple(numbers[i] for i in range(len(numbers)) if mask >> i & 1) for mask in range(1, 1 << len(numbers))
    )


def apply(layout: Layout, side: Side, play: str, hitting: bool | None = None) -> Layout:
    """The layout after `side` makes `play` under the switch `hitting` (None: as the game's rulesets have it);
    raises NotationError when the play cannot be made.  `layout` is valid (validated where it was read), so the
    result is too: checkers are only moved, never onto a held point, and hit only where hitting is on."""
    if hitting is None:
        hitting = game_hitting(layout.game)
    me = list(layout.points(side))
    them = list(layout.points(other(side)))
    bar = dict(zip(SIDES, layout.bar))
    off = dict(zip(SIDES, layout.off))
    for path in _paths(play):
        start = path[0][0]
        if start == BAR:
            if not bar[side]:
                raise NotationError(f"{side} has no checker on the bar")
            bar[side] -= 1
        else:
            if not me[start - 1]:
                raise NotationError(f"{side} has no checker on point {start}")
            me[start - 1] -= 1
        for point, hit in path[1:]:
            if point == OFF:
                off[side] += 1
                continue
            theirs = mirror(layout.game, point) - 1
            if them[theirs] > (1 if hitting else 0):
                raise NotationError(f"point {point} is held by {other(side)} ({them[theirs]} checkers)")
            if them[theirs]:
                them[theirs] = 0
                bar[other(side)] += 1
            elif hit:
                raise NotationError(f"{point}* marks a hit, but there is no {other(side)} blot on point {point}")
        if path[-1][0] != OFF:
            me[path[-1][0] - 1] += 1
    points = {side: tuple(me), other(side): tuple(them)}
    return Layout(
        layout.game, points["white"], points["black"], (bar["white"], bar["black"]), (off["white"], off["black"])
    )


def describe(before: Layout, after: Layout, side: Side) -> str:
    """A play in notation that turns `before` into `after` (for reports; one of the equivalent spellings)."""
    mine_b, mine_a = before.points(side), after.points(side)
    sources = [BAR] * (before.on_bar(side) - after.on_bar(side))
    dests = [OFF] * (after.borne_off(side) - before.borne_off(side))
    for p in range(24, 0, -1):
        d = mine_a[p - 1] - mine_b[p - 1]
        (dests if d > 0 else sources).extend([p] * abs(d))
    sources.sort(reverse=True)
    dests.sort(reverse=True)
    if len(sources) != len(dests) or any(s <= d for s, d in zip(sources, dests)):
        return f"<not a play from this position: {after.key()}>"
    them_b, them_a = before.points(other(side)), after.points(other(side))
    hits = [p for p in range(24, 0, -1) if them_b[mirror(before.game, p) - 1] > them_a[mirror(before.game, p) - 1]]
    paths = [[s, d] for s, d in zip(sources, dests)]
    starred: set[tuple[int, int]] = set()  # (path index, point): only the checker that hits gets the star
    for h in hits:
        i = next((i for i, pa in enumerate(paths) if pa[-1] == h), None)
        if i is None:
            i = next((i for i, pa in enumerate(paths) if pa[0] > h > pa[-1]), None)
        if i is None:
            return f"<not a play from this position: {after.key()}>"
        if paths[i][-1] != h:
            paths[i].insert(-1, h)
        starred.add((i, h))

    def name(i: int, x: int) -> str:
        return "bar" if x == BAR else "off" if x == OFF else f"{x}*" if (i, x) in starred else str(x)

    grouped: dict[str, int] = {}
    for i, pa in enumerate(paths):
        n = "/".join(name(i, x) for x in pa)
        grouped[n] = grouped.get(n, 0) + 1
    return " ".join(n if c == 1 else f"{n}({c})" for n, c in grouped.items()) or "(no move)"


def origins(before: Layout, after: Layout, side: Side) -> str:
    """The points `side`'s checkers left between two layouts, highest first: `bar 24 13(2)`."""
    parts = (
        [] if after.on_bar(side) >= before.on_bar(side) else [_times("bar", before.on_bar(side) - after.on_bar(side))]
    )
    mine_b, mine_a = before.points(side), after.points(side)
    for p in range(24, 0, -1):
        if mine_a[p - 1] < mine_b[p - 1]:
            parts.append(_times(str(p), mine_b[p - 1] - mine_a[p - 1]))
    return " ".join(parts)


def _times(name: str, n: int) -> str:
    return name if n == 1 else f"{name}({n})"


Hops = tuple[tuple[int, int, bool], ...]  # single moves (from, to, hits)


def spell(
    before: Layout, after: Layout, side: Side, numbers: tuple[int, ...], hitting: bool | None = None
) -> str | None:
    """A play in notation that `apply` turns `before` into `after` with and `check_numbers` accepts for `numbers`,
    found by making the moves one number at a time (describe only pairs sources with destinations, which the dice
    may not make); None when no moves of these numbers reach `after` (an engine's wrong play)."""
    if after == before:
        return "(no move)"
    seen: set[tuple[Layout, tuple[int, ...]]] = set()

    def search(now: Layout, left: tuple[int, ...], hops: Hops) -> Hops | None:
        if now == after:
            return hops
        if not left or (now, left) in seen:
            return None
        seen.add((now, left))
        sources = [BAR] if now.on_bar(side) > after.on_bar(side) else []
        if not sources:
            sources = [p for p in range(24, 0, -1) if now.points(side)[p - 1] > after.points(side)[p - 1]]
        for n in dict.fromkeys(left):
            rest = list(left)
            rest.remove(n)
            for start in sources:
                end = max(start - n, OFF)
                try:
                    moved = apply(now, side, f"{_name(start)}/{_name(end)}", hitting)
                except NotationError:
                    continue
                hit = moved.on_bar(other(side)) > now.on_bar(other(side))
                found = search(moved, tuple(rest), (*hops, (start, end, hit)))
                if found is not None:
                    return found
        return None

    hops = search(before, tuple(numbers), ())
    if hops is None:
        return None
    merged = _written(hops, merge=True)
    for play in (merged, _written(hops, merge=False)):
        try:
            if apply(before, side, play, hitting) == after:
                check_numbers(play, tuple(numbers))
                return play
        except NotationError:
            continue
    return None


def _name(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def _written(hops: Hops, merge: bool) -> str:
    """Single moves as notation: a checker's moves joined into one path (merge), like paths counted."""
    paths: list[list[tuple[int, bool]]] = []
    for start, end, hit in hops:
        into = next((pa for pa in paths if merge and pa[-1][0] == start and start not in (BAR, OFF)), None)
        if into is None:
            paths.append([(start, False), (end, hit)])
        else:
            into.append((end, hit))
    grouped: dict[str, int] = {}
    for pa in paths:
        text = "/".join(_name(p) + "*" * hit for p, hit in pa)
        grouped[text] = grouped.get(text, 0) + 1
    return " ".join(t if c == 1 else f"{t}({c})" for t, c in grouped.items())
