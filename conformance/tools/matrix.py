"""The disagreement matrix: for each rule switch, the value each ruleset takes (generated, never typed)."""

from __future__ import annotations

import re

from gammonspec.model.rulesets import Ruleset, decided, registry, rulesets
from gammonspec.model.state import GAMES

MARKER = re.compile(r"<!-- disagreements: (?P<game>[a-z-]+) -->")


def table(chosen: list[Ruleset]) -> str:
    """A Markdown table, one row per switch on which the rulesets differ, grouped by topic."""
    switches = registry()["switches"]
    head = "| topic | switch | " + " | ".join(f"`{rs.name}`" for rs in chosen) + " |"
    rows = [head, "|---|---|" + "---|" * len(chosen)]
    same = []
    for name, spec in switches.items():
        values = [rs.switches[name] for rs in chosen]
        if len(set(values)) == 1:
            same.append(f"`{name}` = `{values[0]}`")
            continue
        cells = [f"`{v}`" + (" *" if decided(name, v, rs.source) else "") for v, rs in zip(values, chosen)]
        rows.append(f"| {spec['topic']} | `{name}` | " + " | ".join(cells) + " |")
    options = [
        ", ".join(f"`{k}` ({'/'.join(str(a).lower() for a in v['allowed'])})" for k, v in rs.options.items()) or "—"
        for rs in chosen
    ]
    if any(o != "—" for o in options):
        rows.append("| options | | " + " | ".join(options) + " |")
    text = "\n".join(rows)
    if same:
        text += "\n\nThe same in all of them: " + ", ".join(same) + "."
    if any(" *" in row for row in rows):
        text += (
            "\n\n\\* decided: the ruleset's text is silent on the point, or does not settle the reading, and this spec"
            " chose the value (`decided` in `spec/switches.yaml`, the reason in the clause); unmarked values are stated"
            " by the text in so many words."
        )
    return text + "\n\nWhat each value means: the switch registry, `spec/switches.yaml`."


def fill(markdown: str) -> str:
    """Replace each `<!-- disagreements: GAME -->` (or `all`) marker with its table."""

    def render(match: re.Match[str]) -> str:
        game = match["game"]
        chosen = sorted(
            (rs for rs in rulesets().values() if game in ("all", rs.game)),
            key=lambda rs: (GAMES.index(rs.game), rs.name),
        )
        return table(chosen)

    return MARKER.sub(render, markdown)
