"""The switch-pinning check: every case pins every switch (and option) its expectation depends on.

For every ruleset, every single switch flipped to each of its other values and every other option
value is a synthetic one-flip assignment (requests carry the full switch values, so the engine
plays it like any ruleset).  The suite runs under each against the reference engine; a case that
changes verdict under a flip of a switch or option it does not pin is unpinned.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from gammonspec.conformance.harness.cases import Case
from gammonspec.conformance.harness.runner import PlayingAs, run_one
from gammonspec.model.interface import Engine
from gammonspec.model.rulesets import Ruleset, registry


@dataclass(frozen=True)
class Flip:
    """One assignment: a ruleset with one switch (or an option's default) set to another value."""

    base: Ruleset
    kind: str  # "switch" | "option"
    name: str
    before: object
    after: object
    lent: dict[str, dict[str, object]] = field(default_factory=dict, compare=False)  # options the new value needs

    @property
    def ruleset(self) -> Ruleset:
        if self.kind == "switch":
            return replace(
                self.base,
                switches={**self.base.switches, self.name: str(self.after)},
                options={**self.lent, **self.base.options},
            )
        options = {**self.base.options, self.name: {**self.base.options[self.name], "default": self.after}}
        return replace(self.base, options=options)

    def pins(self, case: Case) -> bool:
        """Whether the case names a value of the flipped switch or option (then the flip does not apply to it)."""
        return self.name in (case.requires if self.kind == "switch" else case.options)

    @property
    def label(self) -> str:
        return f"{self.base.name}: {self.name} {_show(self.before)}→{_show(self.after)}"


def _show(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@dataclass
class FlipResult:
    flip: Flip
    run: int = 0
    changed: list[tuple[Case, str]] = field(default_factory=list)  # (case, its verdict under the flip)
    failed: list[tuple[Case, str]] = field(default_factory=list)  # cases the base does not run that fail here

    @property
    def unpinned(self) -> list[tuple[Case, str]]:
        """The changed cases that do not pin the flipped switch or option."""
        return [(case, verdict) for case, verdict in self.changed if not self.flip.pins(case)]


def flips(rulesets: Iterable[Ruleset]) -> list[Flip]:
    """Every one-flip assignment of every ruleset.

    A switch value some ruleset takes comes with that ruleset's options (scoring=oin-mars-coke needs a
    coke-value), at their defaults; the flipped ruleset's own options win."""
    rulesets = list(rulesets)
    switches = registry()["switches"]
    out = []
    for rs in rulesets:
        for name, value in rs.switches.items():
            for other in switches[name]["values"]:
                if other != value:
                    lent = {
                        k: v for owner in rulesets if owner.switches[name] == other for k, v in owner.options.items()
                    }
                    out.append(Flip(rs, "switch", name, value, other, lent))
        for name, spec in rs.options.items():
            out += [Flip(rs, "option", name, spec["default"], v) for v in spec["allowed"] if v != spec["default"]]
    return out


Judged = tuple[tuple[Any, ...], str]  # a verdict as it compares (the answer as a set: runner.Outcome.got), in words


def check(engine: Engine, cases: list[Case], rulesets: dict[str, Ruleset]) -> list[FlipResult]:
    """Run every one-flip assignment; each case of the ruleset is compared with its verdict unflipped, both asked
    under the flip and asked under the ruleset by an engine playing the flip (an answer under hitting=blots may
    hold a bar, which the ruleset's hitting=none makes an impossible position).

    Cases that pin the flipped switch run too (a change there is expected and shows the pin matters)."""
    base: dict[tuple[str, str], Judged] = {}
    members: dict[str, list[Case]] = {}
    for rs in rulesets.values():
        members[rs.name] = [c for c in cases if c.game == rs.game and rs.admits(c.requires, c.options)]
        for case in members[rs.name]:
            base[rs.name, case.id] = _verdict(engine, case, rs)
    # The cases the base ruleset does not run (another ruleset's, or those of an assignment no ruleset has,
    # e.g. exact-only bear-off with a free home) run, and must pass, under every one-flip assignment that
    # has their switch values: the reference passes the whole suite under each flip.
    results = []
    for flip in flips(rulesets.values()):
        result = FlipResult(flip)
        results.append(result)
        flipped = flip.ruleset
        for case in members[flip.base.name]:
            result.run += 1
            was = base[flip.base.name, case.id]
            verdict = _verdict(engine, case, flipped)
            if verdict[0] == was[0]:  # and an engine reading the flip, asked as the base (what identify models)?
                verdict = _verdict(PlayingAs(engine, flipped), case, flip.base)
                verdict = (verdict[0], f"{verdict[1]} (playing the flip, asked as {flip.base.name})")
            if verdict[0] != was[0]:
                result.changed.append((case, verdict[1]))
        ran = {case.id for case in members[flip.base.name]}
        for case in cases:
            if case.id not in ran and case.game == flipped.game and flipped.admits(case.requires, case.options):
                result.run += 1
                verdict = _verdict(engine, case, flipped)
                if verdict[1] != "passed":
                    result.failed.append((case, verdict[1]))
    return results


def _verdict(engine: Engine, case: Case, ruleset: Ruleset) -> Judged:
    outcome = run_one(engine, case, ruleset)
    said = outcome.status if outcome.status == "passed" else f"{outcome.status}: {outcome.message}"
    compared = (outcome.status, outcome.step, outcome.got if outcome.status == "failed" else outcome.message)
    return compared, said


def table(results: list[FlipResult]) -> str:
    """The one-flip table and, after it, every unpinned case with its switch and values."""
    rows = [
        "| ruleset | switch/option | from → to | cases run | verdict changed | unpinned |",
        "|---|---|---|---|---|---|",
    ]
    for res in results:
        f = res.flip
        rows.append(
            f"| {f.base.name} | {f.name} | {_show(f.before)} → {_show(f.after)} | {res.run}"
            f" | {len(res.changed)} | {len(res.unpinned)} |"
        )
    lines = ["\n".join(rows), "", f"{len(results)} one-flip assignments run, {sum(r.run for r in results)} case runs"]
    unpinned = [(r, c, v) for r in results for c, v in r.unpinned]
    if unpinned:
        lines.append(
            f"{len(unpinned)} unpinned: the verdict changes under a flip of a switch the case does not require"
        )
        lines += [
            f"  {c.id} ({c.where}): {r.flip.kind} {r.flip.name} {_show(r.flip.before)}→{_show(r.flip.after)}"
            f" in {r.flip.base.name}: {v}"
            for r, c, v in unpinned
        ]
    else:
        lines.append("every case pins every switch and option its verdict depends on")
    failed = [(r, c, v) for r in results for c, v in r.failed]
    if failed:
        lines.append(f"{len(failed)} failures of cases under a one-flip assignment that has their values:")
    lines += [f"  {c.id} ({c.where}) fails under {r.flip.label}: {v}" for r, c, v in failed]
    return "\n".join(lines)


def ok(results: list[FlipResult]) -> bool:
    return not any(r.unpinned or r.failed for r in results)
