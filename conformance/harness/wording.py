"""A case step in words, for the site (messages.QUERIES names each query's): what the step does, and what its
query's answer must be, one line each. The text is Markdown (code spans, emphasis)."""

from __future__ import annotations

from typing import Any

from gammonspec.conformance.harness.steps import Step
from gammonspec.model.state import other

ANSWERS = {"take": "takes", "drop": "drops", "beaver": "beavers"}


def _yes(value: Any) -> str:
    return "yes" if value else "no"


def _a(word: str) -> str:
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


def _result(result: dict[str, Any]) -> str:
    if result["winner"] is None:
        return "a draw, nobody scores"
    points = result["points"]
    return f"{result['winner']} wins {_a(result['kind'])}, {points} point{'s' * (points != 1)}"


def _cube(cube: dict[str, Any]) -> str:
    return f"cube: {cube['value']}, owner {cube.get('owner') or 'none (centred)'}"


def plays_words(step: Step) -> list[str]:
    """What a legal-plays answer must hold, beyond the plays the site draws: no play, or how many results."""
    expect = step.expect
    return (["no legal play: the position stays as it is"] if expect.get("no_play") else []) + (
        [f"distinct results: {expect['count']}"] if "count" in expect else []
    )


def plays_scene(step: Step) -> str:
    state = step.state
    numbers = list(state.segment.numbers) if state.segment else list(state.dice)
    passed = " (passed)" if state.segment and state.segment.passed else ""
    then = f", then `{step.play[0] or '(no move)'}`" if step.play else ""
    return f"{state.turn} plays {'-'.join(map(str, numbers))}{passed}{then}"


def next_words(step: Step) -> list[str]:
    if step.next is None:
        return ["then the turn ends"]
    who = f"{step.next.player} plays {'-'.join(map(str, step.next.numbers))}"
    return [f"then {who}" + (" (passed)" if step.next.passed else "")]


def result_words(step: Step) -> list[str]:
    expect = step.expect
    return (["the game is not over"] if expect.get("not_over") else []) + (
        [f"the game's result: {_result(expect['result'])}"] if "result" in expect else []
    )


def opening_words(step: Step) -> list[str]:
    expect = step.expect
    lines = [f"starts: {expect['starts'] or 'nobody (a tie: roll again)'}"] if "starts" in expect else []
    if "dice" in expect:
        lines.append("plays the opening numbers" if expect["dice"] else "rolls both dice anew")
    return lines + ([_cube(expect["cube"])] if "cube" in expect else [])


def opening_scene(step: Step) -> str:
    dice = step.opening["dice"] if step.opening else {}
    return f"opening roll: white {dice.get('white')}, black {dice.get('black')}"


def may_double_words(step: Step) -> list[str]:
    """The question with its answer: the step's whole text."""
    answer = f" **{_yes(step.expect['may_double'])}**" if "may_double" in step.expect else ""
    return [f"may {step.state.turn} double?{answer}"]


def double_words(step: Step) -> list[str]:
    expect = step.expect
    lines = [_cube(expect["cube"])] if "cube" in expect else []
    if "legal" in expect:
        lines.append("legal" if expect["legal"] else "not allowed")
    return lines + ([f"result: {_result(expect['result'])}"] if "result" in expect else [])


def double_scene(step: Step) -> str:
    turn = step.state.turn
    return f"{turn} doubles, {other(turn)} {ANSWERS.get(str(step.response), step.response)}"


def match_words(step: Step) -> list[str]:
    expect = step.expect
    if "score" not in expect:
        return []
    score = expect["score"]
    return [
        f"score {score.get('white', 0)}-{score.get('black', 0)}, Crawford game next: {_yes(expect.get('crawford'))}, "
        f"match winner: {expect.get('winner') or 'none yet'}"
    ]


def no_scene(step: Step) -> str:
    """A step whose expectation says what it asks (a game's result, may a side double)."""
    return ""
