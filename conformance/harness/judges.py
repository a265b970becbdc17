"""Judging an engine's answer to one query of a case step against the step's expectation (messages.QUERIES
names each query's judge): a verdict, and for a wrong answer what differs, in words."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from gammonspec.conformance.harness.steps import Step, digest, play_name
from gammonspec.model.interface import CubeOutcome, GameResult, MatchOutcome, Opening
from gammonspec.model.notation import describe, origins
from gammonspec.model.rulesets import Rules
from gammonspec.model.state import Cube, Layout, Segment, Side, StateError
from gammonspec.model.terminal import shortened


@dataclass
class Verdict:
    passed: bool
    message: str = ""
    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    got: Any = None  # a wrong answer as it compares: the query and comparable(answer); None when passed


def comparable(answer: Any) -> Any:
    """An answer in a form two answers compare equal in exactly when they say the same: a set of positions as the
    set of their canonical keys (the protocol's positions are a set, in any order), a segment's numbers and the
    opening's dice in any order; any other answer as it is."""
    if isinstance(answer, Segment):
        return answer.unordered()
    if isinstance(answer, Opening) and answer.dice is not None:
        return replace(answer, dice=tuple(sorted(answer.dice)))
    if isinstance(answer, list | tuple | set | frozenset):
        return frozenset(a.key() if isinstance(a, Layout) else a for a in answer)
    return answer


def settled(answer: Any) -> Any:
    """An answer that an iterator gives, read once into a list (it is judged, then compared)."""
    return list(answer) if isinstance(answer, Iterator) else answer


def judge_legal_plays(step: Step, answer: Iterable[Layout], rules: Rules) -> Verdict:
    """The legal-plays query's judge: the engine's set of positions against the step's plays, counts and digest."""
    return judge_plays(step, answer, rules.state_hitting)[0]


def judge_plays(step: Step, answer: Iterable[Layout], hitting: bool | None = None) -> tuple[Verdict, dict[str, Layout]]:
    """Compare an engine's set of resulting layouts with the step's expectation.

    A layout is judged possible as the game's rulesets have it (state.Layout.validate), or with a bar where
    `hitting` is True (a flip to hitting=blots): a position that cannot arise is a wrong answer."""
    before, game, turn = step.state.layout, step.state.game, step.state.turn
    actual: dict[str, Layout] = {}
    rejected: list[str] = []
    for layout in answer:
        if not isinstance(layout, Layout) or layout.game != game:
            raise StateError(f"engine answered {shortened(repr(layout), 60)}, not a {game} layout")
        try:
            layout.validate(hitting)
        except StateError as exc:  # a position no legal play can leave: a wrong play, listed as extra
            rejected.append(f"{_shown(before, layout, turn)} (impossible position: {exc})")
            continue
        actual[layout.key()] = layout
    expect, expected = step.expect, step.expected
    missing: list[str] = []
    extra: dict[str, str] = {}
    problems: list[str] = []
    if expected.get("plays"):
        wanted = {lay.key(): play for play, lay in expected["plays"].items()}
        missing = [play for key, play in wanted.items() if key not in actual]
        extra = {key: describe(before, lay, turn) for key, lay in actual.items() if key not in wanted}
    missing += [play for play, lay in expected.get("includes", {}).items() if lay.key() not in actual]
    forbidden: set[str] = set()
    for item in expect.get("excludes", []):
        key = expected["excludes"][play_name(item["play"])].key()
        if key in actual:  # shown once, with the reason it is forbidden
            extra[key] = f"{play_name(item['play'])} (forbidden: {item['reason']})"
            forbidden.add(key)
    if "count" in expect and len(actual) != expect["count"]:
        problems.append(f"expected {expect['count']} distinct positions, engine gave {len(actual)}")
    if "digest" in expect and digest(actual.values()) != expect["digest"]:
        problems.append(f"digest {digest(actual.values())} differs from expected {expect['digest']}")
    if problems and "divide" in expect:
        problems.append(divide_report(expect["divide"], divide(before, actual.values(), step.state.turn)))
    if step.play and step.play[1].key() not in actual:
        problems.append(f"the scenario's play {step.play[0]} is not among the engine's legal plays")
    extras = [*extra.values(), *rejected]
    # every extra play says why it is wrong: forbidden (its reason), impossible, or outside the case's set
    outside = f" (not one of the case's {len(expected.get('plays', {}))} legal plays)"
    shown = [text if key in forbidden else f"{text}{outside}" for key, text in extra.items()]
    lines = (
        problems
        + ([f"missing: {' | '.join(missing)}"] if missing else [])
        + ([f"extra: {' | '.join([*shown, *rejected])}"] if extras else [])
    )
    return Verdict(not lines, "; ".join(lines), missing, extras), actual


def _shown(before: Layout, after: Layout, side: Side) -> str:
    """A play in move notation where the position allows it, else the position itself."""
    try:
        return describe(before, after, side)
    except Exception:  # noqa: BLE001 - an impossible position may have no notation
        return f"position {after.to_wire()}"


def _show_result(result: GameResult) -> str:
    if result.winner is None:
        return f"a {result.kind}, nobody scores"
    return f"{result.winner} wins {result.kind}, {result.points} points"


def divide(before: Layout, layouts: Iterable[Layout], side: Side) -> dict[str, int]:
    """Results counted by the highest point the mover's checkers left (conventions: divide), as perft tools
    count per first move."""
    counts: dict[str, int] = {}
    for after in layouts:
        key = origins(before, after, side).split(" ")[0].split("(")[0]
        counts[key] = counts.get(key, 0) + 1
    return counts


def divide_report(expected: dict[str, int], actual: dict[str, int]) -> str:
    rows = [
        f"{key or '(none)'}: expected {expected.get(key, 0)}, engine {actual.get(key, 0)}"
        for key in sorted(set(expected) | set(actual), key=lambda k: (-len(k), k))
        if expected.get(key, 0) != actual.get(key, 0)
    ]
    return "divide by the highest point left, where they differ: " + "; ".join(rows)


def judge_result(step: Step, answer: GameResult | None) -> Verdict:
    expect = step.expect
    if expect.get("not_over"):
        want, ok = "game not over", answer is None
    else:
        wanted = GameResult.from_wire(expect["result"])
        want, ok = _show_result(wanted), answer == wanted
    got = "game not over" if answer is None else _show_result(answer)
    return Verdict(ok, "" if ok else f"expected {want}; engine says {got}")


def judge_opening(step: Step, answer: Opening) -> Verdict:
    def norm(dice: Iterable[int] | None) -> list[int] | None:
        return None if dice is None else sorted(dice, reverse=True)

    want = {"starts": step.expect["starts"]} if "starts" in step.expect else {}
    if "dice" in step.expect:
        want["dice"] = norm(step.expect["dice"])
    if "cube" in step.expect:
        want["cube"] = Cube.from_wire(step.expect["cube"])
    got = {"starts": answer.starts, "dice": norm(answer.dice), "cube": answer.cube}
    wrong = {k: v for k, v in want.items() if got[k] != v}
    return Verdict(not wrong, "" if not wrong else f"opening: expected {want}, engine says {got}")


def judge_next(step: Step, answer: Segment | None) -> Verdict:
    def show(segment: Segment | None) -> str:
        if segment is None:
            return "the turn ends"
        return f"{segment.player} plays {list(segment.numbers)}" + (" (passed)" if segment.passed else "")

    def same(a: Segment | None, b: Segment | None) -> bool:
        return a is b if a is None or b is None else a.unordered() == b.unordered()

    ok = same(answer, step.next)
    return Verdict(ok, "" if ok else f"next: expected {show(step.next)}; engine says {show(answer)}")


def judge_double(step: Step, answer: CubeOutcome) -> Verdict:
    expect = step.expect
    problems = []
    if answer.legal != expect.get("legal", True):
        problems.append(
            f"expected the double ({step.response}) to be {'legal' if expect.get('legal', True) else 'illegal'}"
        )
    if answer.legal and "cube" in expect:
        want = Cube.from_wire(expect["cube"])
        if answer.cube != want:
            problems.append(f"expected cube {want.value} owned by {want.owner or 'nobody'}, engine says {answer.cube}")
    if answer.legal and "result" in expect:
        wanted, got = GameResult.from_wire(expect["result"]), answer.result
        if got != wanted:
            shown = "no result" if got is None else _show_result(got)
            problems.append(f"expected {_show_result(wanted)}, engine says {shown}")
    return Verdict(not problems, "; ".join(problems))


def judge_match(step: Step, answer: MatchOutcome) -> Verdict:
    want, got = MatchOutcome.from_wire(step.expect).to_wire(), answer.to_wire()
    wrong = {k for k in want if want[k] != got[k]}
    return Verdict(not wrong, "" if not wrong else f"match after the game: expected {want}, engine says {got}")

def judge_may_double(step: Step, allowed: bool) -> Verdict:
    ok = allowed == step.expect["may_double"]
    return Verdict(ok, "" if ok else f"expected may_double {step.expect['may_double']}, engine says {allowed}")
