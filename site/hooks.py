"""MkDocs hooks: under each rule clause, the cases that pin it; a generated page of all cases."""

from __future__ import annotations

import re
from typing import Any

from gammonspec.conformance.board import draw
from gammonspec.conformance.cases import Case, suite
from gammonspec.conformance.coverage import cases_by_rule
from gammonspec.conformance.matrix import fill
from mkdocs.structure.files import File, Files

_HEADING = re.compile(r"^### (?P<id>[a-z]+(?:\.[a-z0-9-]+)+) — ", re.M)


def _case_block(case: Case) -> str:
    state = case.state
    lines = [f"### {case.id}", "", f"**{case.title}**  ", f"Rules: {', '.join(f'`{r}`' for r in case.rules)}  "]
    if case.requires:
        lines.append("Requires: " + ", ".join(f"`{k}={v}`" for k, v in case.requires.items()) + "  ")
    if state.dice:
        lines.append(f"{state.turn.capitalize()} to play {state.dice[0]}-{state.dice[1]}.")
    lines += ["", "```text", draw(state.layout, state.turn), "```", ""]
    expect = case.expect
    if "plays" in expect:
        lines.append("Legal plays: " + ", ".join(f"`{p}`" for p in expect["plays"]))
    if expect.get("no_play"):
        lines.append("No legal play: the position stays as it is.")
    if "includes" in expect:
        lines.append("Must be legal: " + ", ".join(f"`{p}`" for p in expect["includes"]))
    for item in expect.get("excludes", []):
        lines.append(f"Not legal: `{item['play']}` ({item['reason']})  ")
    if "count" in expect:
        lines.append(f"Distinct results: {expect['count']}")
    if "result" in expect:
        r = expect["result"]
        lines.append(f"Result: {r['winner']} wins a {r['kind']}, {r['points']} points.")
    if expect.get("not_over"):
        lines.append("The game is not over.")
    lines += ["", f"*Derivation:* {case.derivation}", ""]
    return "\n".join(lines)


def on_files(files: Files, config: Any) -> Files:
    by_game: dict[str, list[Case]] = {}
    for case in suite():
        by_game.setdefault(case.game, []).append(case)
    parts = ["# Cases", "", "Every case of the suite, grouped by game, with its board drawn from the side on roll.", ""]
    for game, cases in by_game.items():
        parts += [f"## {game.capitalize()}", ""] + [_case_block(c) for c in cases]
    files.append(File.generated(config, "cases.md", content="\n".join(parts)))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """Fill the disagreement tables; append the list of pinning cases to each clause."""
    by_rule = cases_by_rule(suite())
    markdown = fill(markdown)
    out: list[str] = []
    current: str | None = None

    def flush() -> None:
        if current and by_rule.get(current):
            links = ", ".join(f"[{c.id}](cases.md#{c.id})" for c in by_rule[current])
            out.extend([f"**Cases:** {links}", ""])

    for line in markdown.splitlines():
        if line.startswith("#"):
            flush()
            match = _HEADING.match(line)
            current = match["id"] if match else None
        out.append(line)
    flush()
    return "\n".join(out) + "\n"
