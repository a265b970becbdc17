"""The pages about the rulesets: every switch, every ruleset, the same position under each, and the
disagreement matrix."""

from __future__ import annotations

import html
import re
from functools import cache
from typing import Any

from case_pages import (
    GAME_TITLES,
    NOT_SEARCHED,
    board,
    case_link,
    escaped,
    has_cube,
    options_text,
    outcome,
    requires_links,
    yaml_value,
)
from gammonspec.conformance.harness.cases import Case, suite
from gammonspec.conformance.tools.contested import contests, coupled, game_rulesets, why_none
from gammonspec.conformance.tools.links import link_rule_ids
from gammonspec.model.clauses import clauses, switch_clauses
from gammonspec.model.rulesets import accepted, registry, rulesets
from gammonspec.model.state import GAMES
from playground_page import try_it


def switches_page() -> str:
    """Every rule switch, anchored by its name: what it means, its values, and who states or decides each."""
    data = registry()["switches"]
    lines = [
        "# Rule switches",
        "",
        "Every point where the source rulebooks differ is a switch (`spec/switches.yaml`); a ruleset gives each switch one value.",
        "",
    ]
    for name, spec in data.items():
        lines += [f"## `{name}` {{#{name}}}", "", f"{spec['summary']} (topic: {spec['topic']})", ""]
        lines += [f"One position under every ruleset: [same position, every ruleset](same-position.md#{name}).", ""]
        for value, meaning in spec["values"].items():
            stated = ", ".join(f"`{s}`" for s in spec.get("sources", {}).get(value, []))
            decided = ", ".join(f"`{s}`" for s in (spec.get("decided") or {}).get(value, []))
            who = "; ".join(
                part for part in (stated and f"stated by {stated}", decided and f"decided by us for {decided}") if part
            )
            lines.append(f"- `{value}`: {meaning}" + (f" ({who})" if who else ""))
            for game in GAMES:
                pins = pinning().get((name, value, game), [])
                if pins:
                    links = ", ".join(f"[`{c.id}`]({case_link(c)})" for c in pins)
                    lines += ["", f'    <a id="{name}--{value}--{game}"></a>{GAME_TITLES[game]}, {len(pins)}: {links}']
            lines.append("")
        lines.append("")
    return "\n".join(lines)


def ruleset_link(name: str) -> str:
    return f"[`{name}`](rulesets.md#{name})"


def rulesets_page() -> str:
    """Every ruleset, anchored by its name: its game, source, switch values and options."""
    lines = [
        "# Rulesets",
        "",
        "A ruleset gives every rule switch one value and lists the options it offers (`spec/rulesets/`).",
        "",
    ]
    for rs in sorted(rulesets().values(), key=lambda rs: (GAMES.index(rs.game), rs.name)):
        lines += [
            f"## `{rs.name}` {{#{rs.name}}}",
            "",
            f"{GAME_TITLES[rs.game]}, from the source `{rs.source}`: {rs.summary}",
            "",
        ]
        lines += [f"- [`{k}`](switches.md#{k}): `{v}`" for k, v in rs.switches.items()]
        for name, spec in rs.options.items():
            allowed = ", ".join(f"`{yaml_value(a)}`" for a in spec["allowed"])
            lines.append(f"- option `{name}`: default `{yaml_value(spec['default'])}`, allowed {allowed}")
        lines.append("")
    return "\n".join(lines)


def answer(case: Case) -> list[str]:
    """What one ruleset makes of the contested position: the case's expectation, drawn, and its derivation."""
    lines = [
        f"[`{case.id}`]({case_link(case)}): {escaped(case.title)}",
        "",
        f"Requires: {requires_links(case)}",
        "",
    ]
    if case.options:
        lines += [f"Options: {options_text(case)}", ""]
    return [*lines, *outcome(case), f"*Derivation:* {link_rule_ids(escaped(case.derivation))}", ""]


def same_position_page() -> str:
    """For each switch, and each game whose rulesets differ on it, a position the suite pins under different
    values, and each ruleset's answer side by side (the matrix's cells link here, `#<switch>--<game>`)."""
    by_game = {game: contests([case for case in suite() if case.game == game]) for game in GAMES}
    lines = [
        *NOT_SEARCHED,
        "# Same position, every ruleset",
        "",
        "For each rule switch, and each game whose rulesets differ on it, one position of the suite that cases pin "
        "under different values of it, and what each ruleset of that game makes of the position, side by side. The "
        "answers are the cases' expectations, each derived by hand or by an independent method as its derivation "
        "says, never an engine's output. A position is chosen that differs on the switch alone where the suite has "
        "one; where the rulesets differ on more, the section says on which.",
        "",
    ]
    for name in registry()["switches"]:
        spec = registry()["switches"][name]
        games = [game for game in GAMES if differs_in_game(name, game)]
        lines += [f"## `{name}` {{#{name}}}", "", f"{spec['summary']} [Definition](switches.md#{name}).", ""]
        if not games:
            lines += [f"No contested position: {why_none(name)}.", ""]
        for game in games:
            lines += [f"### {GAME_TITLES[game]}: `{name}` {{#{name}--{game}}}", ""]
            lines += _contest(name, game, by_game[game])
    return "\n".join(lines)


def _contest(name: str, game: str, found: dict[str, Any]) -> list[str]:
    """One game's contested position for a switch, each ruleset's answer beside the others; where no position
    differs on the switch alone, one where it is at work beside another switch the rulesets differ on."""
    contest = found[name]
    lines: list[str] = []
    if contest is None:
        contest = coupled([case for case in suite() if case.game == game], name)
        if contest is None:
            return [f"No contested position: {why_none(name)}.", ""]
        also = ", ".join(f"[`{a}`](switches.md#{a})" for a in contest.also)
        lines += [
            f"No position of the suite differs on `{name}` alone between the {GAME_TITLES[game]} rulesets: where "
            f"this switch changes an answer, {also} changes it too. In the position below it is at work in the "
            f"case of the rulesets whose case requires it, and the answers differ by {also} as well.",
            "",
        ]
    first = contest.cases[0]
    lines += [board(first.state, f"the contested position of {name}", cube=has_cube(first)), ""]
    lines += [try_it(first.state), ""]
    if first.state.dice and first.query != "scenario":
        lines += [f"{first.state.turn.capitalize()} to play {'-'.join(map(str, first.state.dice))}.", ""]
    if not lines[0].startswith("No position"):
        if contest.also:
            also = ", ".join(f"[`{a}`](switches.md#{a})" for a in contest.also)
            lines += [f"The cases shown also pin {also} differently: the answers differ by those too.", ""]
        else:
            lines += [f"The cases shown differ on `{name}` alone.", ""]
    lines.append('<div class="rulesets" markdown>')
    for rs in game_rulesets(game):
        value, case = rs.switches[name], contest.shown[rs.name]
        lines += ["", "<div markdown>", "", f"**{ruleset_link(rs.name)}**: `{name} = {value}`", ""]
        lines += answer(case) if case else [f"No case pins this position under `{rs.name}`.", ""]
        lines += ["</div>"]
    return [*lines, "", "</div>", ""]


@cache
def pinning() -> dict[tuple[str, str, str], list[Case]]:
    """The cases that pin each switch value, per game: (switch, value, game) -> cases."""
    found: dict[tuple[str, str, str], list[Case]] = {}
    for case in suite():
        for name, required in case.requires.items():
            for value in accepted(required):
                found.setdefault((name, value, case.game), []).append(case)
    return found


def clause_of(switch: str, value: str, game: str, source: str = "") -> str | None:
    """The clause of the game that states or decides the switch value (switches.yaml `clauses`), if any: one that
    cites `source` first."""
    own = switch_clauses(switch, value, game)
    return next((rule for rule in own if source in dict(clauses()[rule].cites)), own[0] if own else None)


def source_note(switch: str, value: str, source: str, rule: str | None) -> str:
    """What the matrix's mark says of a source: stated (where the clause cites it, and what its words say) or
    decided by us (and what the text does say, if anything); "" when the source is neither."""
    spec = registry()["switches"][switch]
    words = spec.get("words", {}).get(value, {}).get(source, "")
    if source in spec.get("sources", {}).get(value, []):
        place = dict(clauses()[rule].cites).get(source) if rule else None
        where = f"{source}, {place}" if place else source
        return f"stated by {where} (§ {rule}): {words}" if rule else f"stated by {source}: {words}"
    if source in (spec.get("decided") or {}).get(value, []):
        said = f"{words}" if words else "the text is silent"
        return f"decided by us for {source}: {said}" + (f"; § {rule} gives the reason" if rule else "")
    return ""


def _plain(switch: str, value: str, rs: Any) -> str:
    """The value in the few words the matrix shows, its stakes spelled out (an `{option}` is the ruleset's default)."""
    words = registry()["switches"][switch].get("plain", {}).get(value, value)
    return re.sub(r"\{([a-z-]+)\}", lambda m: yaml_value(rs.options[m[1]]["default"]), words)


TINTS = 5  # colours a row can tell apart, one per value (site/tables.css, light and dark)


GROUPS = "ABCDE"  # the letter of each value within its row, so that groups are told apart without colour


def differs_in_game(switch: str, game: str) -> bool:
    """Whether the rulesets of one game take different values of the switch (the same-position page draws it)."""
    return len({rs.switches[switch] for rs in rulesets().values() if rs.game == game}) > 1


def _cell(name: str, value: str, rs: Any, group: int, up: str) -> str:
    """One matrix cell: its group's letter, the value in words linked to its clause, stated (●) or decided (○) with
    what the source says, its cases, and the drawn position that compares the game's rulesets on this switch."""
    spec = registry()["switches"][name]
    rule = clause_of(name, value, rs.game, rs.source)
    note = source_note(name, value, rs.source, rule)
    mark = ""
    if note:
        kind, symbol = ("stated", "●") if note.startswith("stated") else ("decided", "○")
        mark = (
            f'&nbsp;<span class="mark {kind}" tabindex="0" role="note" title="{html.escape(note)}" '
            f'data-note="{html.escape(note)}" aria-label="{html.escape(note)}">{symbol}</span>'
        )
    where = f"{up}{clauses()[rule].path.stem}/#{rule}" if rule else f"{up}switches/#{name}"
    about = f"{name} = {value}" + (f", § {rule}" if rule else ", no clause of its own") + f": {spec['values'][value]}"
    pins = pinning().get((name, value, rs.game), [])
    count = f"{len(pins)} case{'s' * (len(pins) != 1)}"
    cases = f'<a href="{up}switches/#{name}--{value}--{rs.game}">{count}</a>' if pins else "no case"
    if differs_in_game(name, rs.game):
        cases += f' · <a class="drawn" href="{up}same-position/#{name}--{rs.game}">drawn side by side</a>'
    letter = GROUPS[group % len(GROUPS)]
    return (
        f'<td class="v{group % TINTS}" title="{html.escape(about)}"><span class="grp" aria-hidden="true">{letter}</span>'
        f'<a href="{where}">{_plain(name, value, rs)}</a>{mark}<span class="pin">{cases}</span></td>'
    )


def _options_row(chosen: list[Any], up: str) -> str:
    """The options each ruleset offers within itself, with their allowed values."""
    cells = []
    for rs in chosen:
        items = [f"{k} ({' / '.join(yaml_value(a) for a in v['allowed'])})" for k, v in rs.options.items()]
        cells.append(f'<td><a href="{up}rulesets/#{rs.name}">{"<br>".join(items) or "none"}</a></td>')
    return f"<tr><th>options</th>{''.join(cells)}</tr>" if any(rs.options for rs in chosen) else ""


def matrix(game: str, up: str = "../") -> str:
    """The disagreement matrix as HTML: one row per switch the rulesets differ on, each value in words with its
    stakes, a value's colour shared across its row, each cell linked to the clause that states the value for
    that game and to the cases that pin it, marked as stated by the ruleset's source (●) or decided by us where
    the source is silent (○); the switches they agree on listed under it."""
    chosen = sorted(
        (rs for rs in rulesets().values() if game in ("all", rs.game)), key=lambda rs: (GAMES.index(rs.game), rs.name)
    )
    head = "".join(f'<th><a href="{up}rulesets/#{rs.name}"><code>{rs.name}</code></a></th>' for rs in chosen)
    rows, same = [], []
    for name, spec in registry()["switches"].items():
        values = [rs.switches[name] for rs in chosen]
        if len(set(values)) == 1:
            same.append(f'<a href="{up}switches/#{name}"><code>{name}</code></a>: {_plain(name, values[0], chosen[0])}')
            continue
        order = list(dict.fromkeys(values))
        cells = "".join(_cell(name, v, rs, order.index(v), up) for rs, v in zip(chosen, values))
        rows.append(
            f'<tr><th title="topic: {spec["topic"]}"><a href="{up}switches/#{name}"><code>{name}</code></a></th>{cells}</tr>'
        )
    agreed = f"\n\nThe same in all of them: {'; '.join(same)}.\n" if same else "\n"
    return (
        f'<p class="matrix-cue">Scroll the table sideways for all {len(chosen)} rulesets.</p>'
        '<div class="matrix"><table><thead><tr><th>switch</th>'
        + head
        + "</tr></thead><tbody>"
        + "".join(rows)
        + _options_row(chosen, up)
        + "</tbody></table></div>\n\n● stated by the ruleset's source in so many words · ○ decided by us where the "
        "source is silent or does not settle the reading (the clause's interpretation argues it); point at or tap a "
        "mark for the source's place and what its words say · a letter (A, B, …) and a colour mark one value within "
        "its row; each value links to the clause that states it for that game (its switch value in the cell's "
        "tooltip), under it to the cases that pin it there and, where the game's rulesets differ, to a drawn "
        "position that compares them." + agreed
    )
