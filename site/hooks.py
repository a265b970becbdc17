"""MkDocs hooks: under each rule clause, the cases that pin it; generated pages of cases; disagreement tables."""

from __future__ import annotations

import re
from typing import Any

from gammonspec.conformance.board import draw
from gammonspec.conformance.cases import Case, Step, suite
from gammonspec.conformance.coverage import cases_by_rule
from gammonspec.conformance.matrix import fill
from gammonspec.conformance.rules import accepted
from mkdocs.structure.files import File, Files

_HEADING = re.compile(r"^### (?P<id>[a-z]+(?:\.[a-z0-9-]+)+) — ", re.M)


GAME_TITLES = {"backgammon": "Backgammon", "narde": "Narde", "crazy-narde": "Crazy Narde"}


def case_page(game: str) -> str:
    return f"cases-{game}.md"


def _expectation(expect: dict[str, Any]) -> list[str]:
    """An expectation in words, one line each."""
    lines = []
    if "plays" in expect:
        lines.append("legal plays: " + ", ".join(f"`{p}`" for p in expect["plays"]))
    if expect.get("no_play"):
        lines.append("no legal play: the position stays as it is")
    if "includes" in expect:
        lines.append("must be legal: " + ", ".join(f"`{p}`" for p in expect["includes"]))
    lines += [f"not legal: `{item['play']}` ({item['reason']})" for item in expect.get("excludes", [])]
    if "count" in expect:
        lines.append(f"distinct results: {expect['count']}")
    if "result" in expect:
        r = expect["result"]
        won = (
            "a draw, nobody scores"
            if r["winner"] is None
            else f"{r['winner']} wins a {r['kind']}, {r['points']} points"
        )
        lines.append(f"result: {won}")
    if expect.get("not_over"):
        lines.append("the game is not over")
    if "starts" in expect:
        lines.append(f"starts: {expect['starts'] or 'nobody (a tie: roll again)'}")
    if "dice" in expect:
        lines.append("plays the opening numbers" if expect["dice"] else "rolls both dice anew")
    if "cube" in expect:
        lines.append(f"cube: {expect['cube']['value']}, owner {expect['cube'].get('owner') or 'none (centred)'}")
    if "legal" in expect:
        lines.append("legal" if expect["legal"] else "not allowed")
    if "score" in expect:
        score = expect["score"]
        lines.append(
            f"score {score.get('white', 0)}-{score.get('black', 0)}, Crawford next: {expect.get('crawford', False)}, "
            f"match winner: {expect.get('winner') or 'none yet'}"
        )
    if "may_double" in expect:
        lines.append(f"may double: {expect['may_double']}")
    return lines


def _next(step: Step) -> list[str]:
    if not step.check_next:
        return []
    if step.next is None:
        return ["then the turn ends"]
    who = f"{step.next.player} plays {'-'.join(map(str, step.next.numbers))}"
    return [f"then {who}" + (" (passed)" if step.next.passed else "")]


def _step(step: Step) -> str:
    """One scenario step in words."""
    state = step.state
    if step.kind == "opening":
        dice = step.opening["dice"] if step.opening else {}
        what = f"opening roll: white {dice.get('white')}, black {dice.get('black')}"
    elif step.kind == "plays":
        numbers = list(state.segment.numbers) if state.segment else list(state.dice)
        what = f"{state.turn} plays {'-'.join(map(str, numbers))}" + (
            " (passed)" if state.segment and state.segment.passed else ""
        )
        if step.play:
            what += f", then `{step.play[0] or '(no move)'}`"
    elif step.kind == "double":
        what = f"{state.turn} doubles, the other side answers: {step.response}"
    elif step.kind == "next-game":
        what = "the match after the game"
    elif step.kind == "may-double":
        what = f"may {state.turn} double?"
    else:
        what = "the game's result"
    details = _expectation(step.expect) + _next(step)
    return f"1. {what}" + (": " + "; ".join(details) if details else "")


def _case_block(case: Case) -> str:
    state = case.state
    lines = [f"### {case.id}", "", f"**{case.title}**  ", f"Rules: {', '.join(f'`{r}`' for r in case.rules)}  "]
    if case.requires:
        lines.append(
            "Requires: " + ", ".join(f"`{k}={'|'.join(accepted(v))}`" for k, v in case.requires.items()) + "  "
        )
    if case.options:
        lines.append("Options: " + ", ".join(f"`{k}={v}`" for k, v in case.options.items()) + "  ")
    if case.query != "scenario" and state.dice:
        lines.append(f"{state.turn.capitalize()} to play {'-'.join(map(str, state.dice))}.")
    lines += ["", "```text", draw(state.layout, state.turn), "```", ""]
    if case.query == "scenario":
        lines += [_step(step) for step in case.steps]
    else:
        lines += [f"- {line}" for line in _expectation(case.expect) + _next(case.steps[0])]
    lines += ["", f"*Derivation:* {case.derivation}", ""]
    return "\n".join(lines)


def on_files(files: Files, config: Any) -> Files:
    """One generated page of cases per game."""
    by_game: dict[str, list[Case]] = {}
    for case in suite():
        by_game.setdefault(case.game, []).append(case)
    for game, cases in by_game.items():
        intro = f"Every {GAME_TITLES[game]} case, with its board drawn from the side on roll and how its expectation was derived."
        content = "\n".join([f"# {GAME_TITLES[game]} cases", "", intro, ""] + [_case_block(c) for c in cases])
        files.append(File.generated(config, case_page(game), content=content))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """Fill the disagreement tables; append the list of pinning cases to each clause."""
    by_rule = cases_by_rule(suite())
    markdown = fill(markdown)
    out: list[str] = []
    current: str | None = None

    def flush() -> None:
        if current and by_rule.get(current):
            links = ", ".join(f"[{c.id}]({case_page(c.game)}#{c.id})" for c in by_rule[current])
            out.extend([f"**Cases:** {links}", ""])

    for line in markdown.splitlines():
        if line.startswith("#"):
            flush()
            match = _HEADING.match(line)
            current = match["id"] if match else None
        out.append(line)
    flush()
    return "\n".join(out) + "\n"
