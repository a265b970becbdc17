"""Contested positions: for a rule switch, one position of the suite that cases pin under different values.

The answers shown for each ruleset are those cases' expectations (derived by hand or by an independent
method, as each case's `derivation` says), never an engine's output."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from gammonspec.conformance.harness.cases import Case
from gammonspec.model.rulesets import Ruleset, accepted, registry, rulesets
from gammonspec.model.state import GAMES


@dataclass(frozen=True)
class Contest:
    switch: str
    cases: tuple[Case, ...]  # every case of the suite that starts from this position with this query
    shown: dict[str, Case | None]  # ruleset name -> the case that holds under it (None: no case does)
    also: tuple[str, ...]  # other switches the shown cases pin differently (their answers differ by those too)


def _position(case: Case) -> str:
    """The state a case starts from and, in a scenario, what its first step does (the opening dice, the
    play made, the answer to a double): scenarios from the starting position compare only on one roll."""
    first = case.steps[0]
    script = [first.kind, first.opening and first.opening["dice"], first.play and first.play[0], first.response]
    return json.dumps([case.state.to_wire(), script], sort_keys=True)


def _pins_apart(a: Case, b: Case, switch: str) -> bool:
    """Whether two cases pin values of `switch` that no ruleset could hold both of."""
    return (
        switch in a.requires
        and switch in b.requires
        and not (set(accepted(a.requires[switch])) & set(accepted(b.requires[switch])))
    )


def _shown(cases: Iterable[Case], ruleset: Ruleset) -> Case | None:
    """The case that holds under the ruleset, one at its default options first, then one pinning fewest switches."""
    held = [case for case in cases if ruleset.admits(case.requires, case.options)]
    return min(held, key=lambda case: (bool(case.options), len(case.requires)), default=None)


def _also(shown: Iterable[Case], switch: str) -> tuple[str, ...]:
    cases = list(shown)
    return tuple(
        name
        for name in registry()["switches"]
        if name != switch and any(_pins_apart(a, b, name) for a in cases for b in cases)
    )


def game_rulesets(game: str) -> list[Ruleset]:
    return sorted((rs for rs in rulesets().values() if rs.game == game), key=lambda rs: rs.name)


def contests(suite: Iterable[Case]) -> dict[str, Contest | None]:
    """For every switch, the best contested position: cases of one query from one state that pin different
    values; single-state cases before scenarios, then fewest other switches told apart, then most rulesets
    answered, then fewest switches pinned by the cases shown. None where the suite has no such position."""
    groups: dict[tuple[str, str], list[Case]] = {}
    for case in suite:
        groups.setdefault((case.query, _position(case)), []).append(case)
    best: dict[str, Contest | None] = {}
    for switch in registry()["switches"]:
        found = []
        for (query, _), cases in groups.items():
            if not any(_pins_apart(a, b, switch) for a in cases for b in cases):
                continue
            shown = {rs.name: _shown(cases, rs) for rs in game_rulesets(cases[0].game)}
            distinct = {case.id: case for case in shown.values() if case}
            if not any(_pins_apart(a, b, switch) for a in distinct.values() for b in distinct.values()):
                continue
            contest = Contest(switch, tuple(cases), shown, _also(distinct.values(), switch))
            pinned = sum(len(case.requires) for case in distinct.values())  # fewer: the answers hang on less
            key = (
                query == "scenario",
                len(contest.also),
                -len(distinct),
                pinned,
                GAMES.index(cases[0].game),
                cases[0].id,
            )
            found.append((key, contest))
        best[switch] = min(found, key=lambda item: item[0])[1] if found else None
    return best


def coupled(suite: Iterable[Case], switch: str) -> Contest | None:
    """For a switch no position shows alone: the best position where one ruleset's case pins it and the rulesets'
    cases pin other switches apart (`also`), so its effect is drawn beside theirs; single states first, then
    fewest other switches, then fewest pinned."""
    groups: dict[tuple[str, str], list[Case]] = {}
    for case in suite:
        groups.setdefault((case.query, _position(case)), []).append(case)
    found = []
    for (query, _), cases in groups.items():
        shown = {rs.name: _shown(cases, rs) for rs in game_rulesets(cases[0].game)}
        distinct = {case.id: case for case in shown.values() if case}
        also = _also(distinct.values(), switch)
        if also and any(switch in case.requires for case in distinct.values()):
            pinned = sum(len(case.requires) for case in distinct.values())
            found.append(
                ((query == "scenario", len(also), pinned, cases[0].id), Contest(switch, tuple(cases), shown, also))
            )
    return min(found, key=lambda item: item[0])[1] if found else None


def why_none(switch: str) -> str:
    """Why no position of the suite is contested for a switch."""
    values = {game: {rs.switches[switch] for rs in game_rulesets(game)} for game in GAMES}
    if all(len(v) <= 1 for v in values.values()):
        return "the rulesets differ on it only across games, so no one position can be played under both values"
    return "no two cases of the suite start from one position and pin different values of it"
