"""The pages of cases: a case drawn (its board, what it asks and expects, the plays after it), the case
indexes and case-file pages of each game, and a clause's examples page."""

from __future__ import annotations

import hashlib
import re
from dataclasses import replace
from functools import cache
from typing import Any

import yaml
from gammonspec.conformance.harness.cases import Case, Step, suite
from gammonspec.conformance.harness.coverage import cases_by_rule
from gammonspec.conformance.harness.messages import STEP_QUERIES, asked_by
from gammonspec.conformance.tools.diagram import svg
from gammonspec.conformance.tools.links import link_rule_ids
from gammonspec.model import narde_ids, position_ids
from gammonspec.model.clauses import clauses
from gammonspec.model.games import GAME_DATA
from gammonspec.model.rulesets import accepted, rulesets
from gammonspec.model.state import Layout, State
from playground_page import try_it

GAME_TITLES = {name: game.title for name, game in GAME_DATA.items()}


OPEN_EXAMPLES = 3  # examples shown open on a clause's examples page; the rest are collapsed


INLINE_EXAMPLES = 1  # examples drawn under a clause on its rules page; all of them on the clause's examples page


AFTER_BOARDS = 2  # "after" boards drawn for a case's listed plays; the rest are listed


NOT_SEARCHED = ["---", "search:", "  exclude: true", "---", ""]  # pages whose text the clause pages already hold


BOARDS: dict[str, str] = {}  # file name -> SVG, filled while the pages are written


def case_page(game: str) -> str:
    """A game's case index: its case files, each a page of cases (`case_link`)."""
    return f"cases-{game}.md"


def file_page(game: str, stem: str) -> str:
    """The page of one case file's cases."""
    return f"cases-{game}-{stem}.md"


def case_link(case: Case) -> str:
    """Where a case is drawn in full with its derivation: its case file's page, at its ID."""
    return f"{file_page(case.game, case.path.stem)}#{case.id}"


def examples_page(rule: str) -> str:
    """The page of all a clause's examples."""
    return f"examples-{rule}.md"


def example_link(rule: str, n: int) -> str:
    """Example n of a clause: on its rules page if drawn there, else on the clause's examples page."""
    return f"{clauses()[rule].path.name}#{rule}--{n}" if n <= INLINE_EXAMPLES else f"{examples_page(rule)}#{rule}--{n}"


def has_cube(case: Case) -> bool:
    """Whether the case's boards show a doubling cube: only if every ruleset it runs under has one."""
    under = [rs for rs in rulesets().values() if rs.game == case.game and rs.admits(case.requires, case.options)]
    return all(rs.switches.get("cube") != "none" for rs in under)


def board(
    state: State, title: str, width: int = 380, cube: bool = True, view: str | None = None, before: Layout | None = None
) -> str:
    """A Markdown image of the state's board, its SVG stored once under boards/ by content; numbered from
    `view`'s side (default: the side on roll); with `before`, an after-board marking what the play moved."""
    content = svg(
        state, cube=cube, view=view, before=before
    )  # the title goes in the alt text: equal positions share one file
    name = f"boards/{hashlib.sha256(content.encode()).hexdigest()[:16]}.svg"
    BOARDS[name] = content
    return f'![{escaped(title)}]({name}){{ loading=lazy {size(content, width)} }}'


def size(content: str, width: int) -> str:
    """An image's width and height attributes at `width`, in the SVG's own proportions: the page keeps the board's
    room before it loads, so a link to a heading below it lands and stays there."""
    box = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', content)
    assert box, "a board's SVG has a viewBox"
    return f'width="{width}" height="{round(width * float(box[2]) / float(box[1]))}"'


def escaped(text: str) -> str:
    """Text safe in Markdown: emphasis and link characters escaped."""
    return re.sub(r"([*_\[\]`<>|])", r"\\\1", text)


def yaml_value(value: Any) -> str:
    """A YAML value as the case file writes it (true/false, not Python's True/False)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _plays(step: Step, cube: bool, view: str | None = None) -> list[str]:
    """The listed plays: the first few drawn as "after" boards, the rest listed; forbidden plays with their reason."""
    out: list[str] = []
    for name, label in (("plays", "Legal plays"), ("includes", "Must be legal (among others)")):
        plays = step.expected.get(name, {})
        if not plays or step.expect.get("no_play"):
            continue
        out += [f"{label} ({len(plays)}):", ""]
        after = [
            f"<figure markdown>{board(replace(step.state, layout=layout), 'after ' + (play or 'no move'), 380, cube, view, step.state.layout)}"
            f"<figcaption>after the play {escaped(play) or '(no move)'}</figcaption></figure>"
            for play, layout in list(plays.items())[:AFTER_BOARDS]
        ]
        out += ['<div class="after" markdown>', *after, "</div>", ""]
        rest = list(plays)[AFTER_BOARDS:]
        if rest:
            out += ["and " + ", ".join(f"`{p}`" for p in rest), ""]
    for item in step.expect.get("excludes", []):
        out.append(f"- ✗ not legal: `{item['play']}` ({escaped(item['reason'])})")
    return out + [""]


def _words(step: Step) -> list[str]:
    """What the step's queries must answer, in words (messages.QUERIES: each query's `words`)."""
    return [line for query in asked_by(step) for line in query.words(step)]


def _step(step: Step, n: int, cube: bool, view: str, same_as: int | None) -> list[str]:
    """One scenario step: what happens, its board (numbered from `view`'s side; not drawn again when it is
    the board of step `same_as`, 0: the case's own), what is expected."""
    what, details = STEP_QUERIES[step.kind].scene(step), _words(step)
    heading = ": ".join(part for part in (what, "; ".join(details)) if part)
    if same_as is None:
        drawn = board(step.state, f"step {n}: {(what or heading).replace('**', '')}", 240, cube, view)
    else:
        drawn = f"*The board of step {same_as}.*" if same_as else "*The board above.*"
    return [f"**Step {n}.** {heading}", "", drawn, "", *_plays(step, cube, view)]


def _ids(case: Case) -> list[str]:
    """The case's position IDs in a block with a copy button: the XGID and GNU Position ID (backgammon), the Narde
    position ID (Narde, Crazy Narde)."""
    state = case.state
    if GAME_DATA[state.game].nid:
        return ["```text", narde_ids.encode_nid(state), "```", ""]
    if not GAME_DATA[state.game].position_ids:
        return []
    dice = state.dice if len(state.dice) == 2 else None
    return [
        "```text",
        position_ids.encode_xgid(state.layout, state.turn, dice),
        f"GNU Position ID: {position_ids.encode_gnubg(state.layout, state.turn)}",
        "```",
        "",
    ]


def _rule_links(rules: tuple[str, ...] | list[str]) -> str:
    return ", ".join(rule_link(r) for r in rules)


def rule_link(rule: str) -> str:
    clause = clauses().get(rule)
    return f"[`{rule}`]({clause.path.name}#{rule})" if clause else f"`{rule}`"


def requires_links(case: Case) -> str:
    return ", ".join(f"[`{k}={'|'.join(accepted(v))}`](switches.md#{k})" for k, v in case.requires.items())


def options_text(case: Case) -> str:
    return ", ".join(f"`{k}={yaml_value(v)}`" for k, v in case.options.items())


def case_body(case: Case) -> list[str]:
    """A case's board, what it requires, what it expects and how that was derived."""
    state = case.state
    lines = [f"Rules: {_rule_links(case.rule_ids)}  "]
    if case.requires:
        lines.append(f"Requires: {requires_links(case)}  ")
    if case.options:
        lines.append(f"Options: {options_text(case)}  ")
    if case.query != "scenario" and state.dice:
        lines.append(f"{state.turn.capitalize()} to play {'-'.join(map(str, state.dice))}.")
    drawn = board(state, case.title, cube=has_cube(case))
    return [*lines, "", drawn, "", *_ids(case), try_it(state), "", *outcome(case), ""]


def outcome(case: Case) -> list[str]:
    """What the case expects: each scenario step with its board, or the expectation and the plays drawn."""
    cube = has_cube(case)
    if case.query == "scenario":
        return _scenario(case, cube)
    return [*(f"- {line}" for line in _words(case.steps[0])), "", *_plays(case.steps[0], cube)]


def _scenario(case: Case, cube: bool) -> list[str]:
    """A scenario's steps, every board numbered from the side that starts it; a board equal to the one before
    (the case's own board included) is named, not drawn again."""
    view = case.steps[0].state.turn
    lines = [f"Each step's board is numbered from {view}'s side.", ""]
    last, last_n = svg(case.state, cube=cube, view=view), 0  # the case's board, drawn above the steps
    for n, step in enumerate(case.steps, 1):
        content = svg(step.state, cube=cube, view=view)
        same = content == last
        lines += _step(step, n, cube, view, last_n if same else None)
        if not same:
            last, last_n = content, n
    return lines


@cache
def group_of(path: str) -> str:
    return yaml.safe_load(open(path, encoding="utf-8"))["group"]


def by_file(cases: list[Case]) -> dict[str, list[Case]]:
    """A game's cases by case file (its stem), in the suite's order."""
    files: dict[str, list[Case]] = {}
    for case in cases:
        files.setdefault(case.path.stem, []).append(case)
    return files


def index_page(game: str, cases: list[Case]) -> str:
    """A game's case index: each case file's group, a link to its page and its cases by ID and title (no boards:
    the pages of the case files draw them); an old link to a case here is forwarded to its page."""
    lines = [
        *NOT_SEARCHED,  # the search finds a case in its case file's page, where its ID is a title
        f"# {GAME_TITLES[game]} cases",
        "",
        f"Every {GAME_TITLES[game]} case, grouped as the case files group them; each group is a page that draws "
        "every case's board with its rules and derivation.",
        "",
    ]
    for stem, members in by_file(cases).items():
        lines += [f"## {escaped(group_of(str(members[0].path)))} {{#{stem}}}", ""]
        lines += [f"[The {len(members)} cases of `{stem}.yaml`, drawn]({file_page(game, stem)})", ""]
        lines += ['<div class="moved" markdown>', ""]
        lines += [f"- [`{case.id}`]({case_link(case)}): {escaped(case.title)}" for case in members]
        lines += ["", "</div>", ""]
    return "\n".join(lines)


def file_page_text(game: str, members: list[Case]) -> str:
    """The page of one case file: each case titled by its ID, drawn in full as under its clause (its board, its
    rules, what it expects with the boards after its plays), and its derivation."""
    by_rule = cases_by_rule(suite())
    lines = [
        f"# {GAME_TITLES[game]} cases: {escaped(group_of(str(members[0].path)))}",
        "",
        f"The {len(members)} cases of `cases/{game}/{members[0].path.name}` "
        f"([all {GAME_TITLES[game]} cases]({case_page(game)})). Each board is drawn in one fixed orientation, "
        "numbered from the side on roll, with the plays each case expects drawn after it; the rule links lead to the "
        "clause each case pins.",
        "",
    ]
    for case in members:
        where = ", ".join(
            f"[example]({example_link(r, by_rule[r].index(case) + 1)})" for r in case.rule_ids[:1] if r in clauses()
        )
        lines += [
            f"## {escaped(case.title)} · `{case.id}` {{#{case.id}}}",  # the ID in the title: found first
            "",
            f"`{case.id}` · drawn under its clause too: {where}",
            "",
            *case_body(case),
            f"*Derivation:* {link_rule_ids(escaped(case.derivation))}",
            "",
        ]
    return "\n".join(lines)


def examples(rule: str, cases: list[Case], shown: int) -> list[str]:
    """A clause's first `shown` cases, numbered, the first few open, each with its board and a permalink."""
    out = []
    for n, case in enumerate(cases[:shown], 1):
        marker = "???+" if n <= OPEN_EXAMPLES else "???"
        title = f"Example {n}: {case.title}".replace('"', "'")
        out += [f'{marker} example "{title}"', ""]
        body = [f'<a id="{rule}--{n}"></a>[permalink](#{rule}--{n}) · [case `{case.id}`]({case_link(case)})', ""]
        body += case_body(case)
        out += [f"    {line}" if line else "" for line in body]
        out.append("")
    return out


def more_examples(rule: str, cases: list[Case]) -> list[str]:
    """Under a clause on its rules page: the link to all its examples, when the page draws only the first."""
    if len(cases) <= INLINE_EXAMPLES:
        return []
    return [f"[All {len(cases)} examples of `{rule}`]({examples_page(rule)}){{ #{rule}--all }}", ""]


def examples_page_text(rule: str, cases: list[Case]) -> str:
    """A clause's examples page: its title, a link back to the clause, and every example of it."""
    clause = clauses()[rule]
    return "\n".join(
        [
            *NOT_SEARCHED,  # the case pages hold each case with its derivation: the search finds them there
            f"# Examples of {rule}: {escaped(clause.title)}",
            "",
            f"The {len(cases)} cases that pin [{GAME_TITLES[clause.path.stem]} § `{rule}`]({clause.path.name}#{rule}), "
            "the most direct first. Each example's permalink is `#" + rule + "--N`.",
            "",
            *examples(rule, cases, len(cases)),
        ]
    )
