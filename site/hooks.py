"""MkDocs hooks: boards drawn as SVG files; each clause's cases under it; per-game case indexes; disagreement tables.

Clause headings get their rule ID as anchor, rule IDs in the text become links to their clause."""

from __future__ import annotations

import hashlib
import html
import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import replace
from functools import cache
from importlib.metadata import version
from pathlib import Path
from typing import Any

import legend
import yaml
from gammonspec.conformance.harness.cases import Case, Step, suite
from gammonspec.conformance.harness.coverage import cases_by_rule
from gammonspec.conformance.harness.messages import STEP_QUERIES, asked_by
from gammonspec.conformance.tools import engine_report
from gammonspec.conformance.tools.contested import contests, game_rulesets, why_none
from gammonspec.conformance.tools.diagram import svg
from gammonspec.conformance.tools.links import link_line, link_rule_ids
from gammonspec.conformance.tools.matrix import MARKER
from gammonspec.model import position_ids
from gammonspec.model.clauses import HEADING, clauses
from gammonspec.model.games import GAME_DATA
from gammonspec.model.rulesets import accepted, registry, rulesets
from gammonspec.model.state import GAMES, Layout, State, start_layout
from mkdocs.structure.files import File, Files

GAME_TITLES = {name: game.title for name, game in GAME_DATA.items()}
OPEN_EXAMPLES = 3  # examples shown open on a clause's examples page; the rest are collapsed
INLINE_EXAMPLES = 1  # examples drawn under a clause on its rules page; all of them on the clause's examples page
AFTER_BOARDS = 2  # "after" boards drawn for a case's listed plays; the rest are listed
CSS = """
.after { display: flex; flex-wrap: wrap; gap: .5rem; }
.after figure { margin: 0; max-width: 100%; }
.md-typeset table:not([class]) td code { white-space: nowrap; word-break: keep-all; }  /* names never break */
.md-typeset table:not([class]) td:first-child, .md-typeset table:not([class]) th:first-child {
  position: sticky; left: 0; background: var(--md-default-bg-color); }
.md-typeset img[src*="boards/"] { max-width: 100%; height: auto; }
.rulesets { display: grid; grid-template-columns: repeat(auto-fit, minmax(13rem, 1fr)); gap: 1rem; }
.rulesets > div { border-left: .2rem solid var(--md-accent-fg-color); padding-left: .8rem; min-width: 0; }
"""
OPEN_LINKED = """
// A permalink whose target lives on another page now (an example past the first of its clause, a case in its
// case file's page) is forwarded there; an example's permalink (#<rule>--N) opens its collapsed block.
function forward(id) {
  const n = id.match(/^(.+)--[0-9]+$/);
  const all = n && document.getElementById(n[1] + "--all");  // the clause's link to all its examples
  const to = all || [...document.querySelectorAll(".moved a")].find(a => a.hash === "#" + id);
  if (to) location.replace(to.href.split("#")[0] + "#" + encodeURIComponent(id));
}
function openLinked() {
  const id = location.hash && decodeURIComponent(location.hash.slice(1));
  const target = id && document.getElementById(id);
  if (id && !target) return forward(id);
  const details = target && target.closest("details");
  if (!details) return;
  details.open = true;
  const header = document.querySelector(".md-header");  // fixed: the example's title goes just below it
  window.scrollTo(0, details.getBoundingClientRect().top + window.scrollY - (header ? header.offsetHeight + 8 : 0));
}
window.addEventListener("hashchange", openLinked);
window.addEventListener("load", () => setTimeout(openLinked, 50));  // after the browser's own jump to the anchor
"""
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
    return f'![{_text(title)}]({name}){{ loading=lazy width="{width}" }}'


def _text(text: str) -> str:
    """Text safe in Markdown: emphasis and link characters escaped."""
    return re.sub(r"([*_\[\]`<>|])", r"\\\1", text)


def _value(value: Any) -> str:
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
            f"<figcaption>after the play {_text(play) or '(no move)'}</figcaption></figure>"
            for play, layout in list(plays.items())[:AFTER_BOARDS]
        ]
        out += ['<div class="after" markdown>', *after, "</div>", ""]
        rest = list(plays)[AFTER_BOARDS:]
        if rest:
            out += ["and " + ", ".join(f"`{p}`" for p in rest), ""]
    for item in step.expect.get("excludes", []):
        out.append(f"- ✗ not legal: `{item['play']}` ({_text(item['reason'])})")
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
    """For a backgammon case, its XGID and GNU Position ID, in a block with a copy button."""
    state = case.state
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


def _requires(case: Case) -> str:
    return ", ".join(f"[`{k}={'|'.join(accepted(v))}`](switches.md#{k})" for k, v in case.requires.items())


def _options(case: Case) -> str:
    return ", ".join(f"`{k}={_value(v)}`" for k, v in case.options.items())


def case_body(case: Case) -> list[str]:
    """A case's board, what it requires, what it expects and how that was derived."""
    state = case.state
    lines = [f"Rules: {_rule_links(case.rule_ids)}  "]
    if case.requires:
        lines.append(f"Requires: {_requires(case)}  ")
    if case.options:
        lines.append(f"Options: {_options(case)}  ")
    if case.query != "scenario" and state.dice:
        lines.append(f"{state.turn.capitalize()} to play {'-'.join(map(str, state.dice))}.")
    return [*lines, "", board(state, case.title, cube=has_cube(case)), "", *_ids(case), *_outcome(case), ""]


def _outcome(case: Case) -> list[str]:
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


def _index(game: str, cases: list[Case]) -> str:
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
        lines += [f"## {_text(group_of(str(members[0].path)))} {{#{stem}}}", ""]
        lines += [f"[The {len(members)} cases of `{stem}.yaml`, drawn]({file_page(game, stem)})", ""]
        lines += ['<div class="moved" markdown>', ""]
        lines += [f"- [`{case.id}`]({case_link(case)}): {_text(case.title)}" for case in members]
        lines += ["", "</div>", ""]
    return "\n".join(lines)


def _file_cases(game: str, members: list[Case]) -> str:
    """The page of one case file: a board, the rules and the derivation of each case, titled by its ID."""
    by_rule = cases_by_rule(suite())
    lines = [
        f"# {GAME_TITLES[game]} cases: {_text(group_of(str(members[0].path)))}",
        "",
        f"The {len(members)} cases of `cases/{game}/{members[0].path.name}` "
        f"([all {GAME_TITLES[game]} cases]({case_page(game)})). Each board is drawn in one fixed orientation, "
        "numbered from the side on roll; the rule links lead to the clause each case pins.",
        "",
    ]
    for case in members:
        where = ", ".join(
            f"[example]({example_link(r, by_rule[r].index(case) + 1)})" for r in case.rule_ids[:1] if r in clauses()
        )
        lines += [
            f"## {_text(case.title)} · `{case.id}` {{#{case.id}}}",  # the ID in the title: found first
            "",
            board(case.state, case.title, 190, has_cube(case)),
            "",
            f"`{case.id}` · rules: {_rule_links(case.rule_ids)} · drawn in full under its clause: {where}  ",
            f"*Derivation:* {link_rule_ids(_text(case.derivation))}",
            "",
        ]
    return "\n".join(lines)


SITE = Path(__file__).resolve().parent
RESULTS = SITE / "results"
ROOT = Path(__file__).resolve().parent.parent


def play_page(game: str) -> str:
    """A game's "how to play" page (site/play/<game>.md) with its starting position drawn."""
    text = (SITE / "play" / f"{game}.md").read_text(encoding="utf-8")
    cube = all(rs.switches.get("cube") != "none" for rs in rulesets().values() if rs.game == game)
    start = board(State(start_layout(game), "white"), f"The {GAME_TITLES[game]} starting position", cube=cube)
    return text.replace("<!-- start board -->", start)


def changelog_page() -> str:
    """CHANGELOG.md as a page, with the version this site was built from."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    title, rest = text.split("\n", 1)
    return f"{title}\n\nThis site shows suite version **{version('gammonspec')}**.\n{rest}"


def reports() -> list[dict[str, Any]]:
    """The engines' JSON reports in site/results/; the reference engine's is made now when none is there."""
    found = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(RESULTS.glob("*.json"))]
    if not any(r.get("engine", {}).get("adapter") == "reference" for r in found):
        with tempfile.TemporaryDirectory() as out:
            code = "import sys; from gammonspec.conformance.cli import main; sys.exit(main())"
            run = [sys.executable, "-c", code, "report", "--out", out, "reference"]
            subprocess.run(run, check=True, capture_output=True, text=True)
            found += [json.loads(p.read_text(encoding="utf-8")) for p in sorted(Path(out).glob("*.json"))]
    return found


BADGE_COLOURS = {"brightgreen": "#44cc11", "orange": "#fe7d37", "red": "#e05d44", "lightgrey": "#9f9f9f"}


def _badge_parts(report: dict[str, Any]) -> tuple[str, str]:
    """The badge's message (passed of the checked cases) and its colour name."""
    if report.get("not_driven"):
        return "not driven", "lightgrey"
    s = report["summary"]
    checked = s["total"] - s["skipped"]
    colour = "brightgreen" if s["passed"] == checked else "orange" if s["passed"] >= checked * 0.9 else "red"
    return f"{s['passed']}/{checked} passed", colour


def badge(report: dict[str, Any]) -> str:
    """A shields.io endpoint badge: passed of the checked cases."""
    message, colour = _badge_parts(report)
    return json.dumps({"schemaVersion": 1, "label": "gammonspec", "message": message, "color": colour})


def badge_svg(report: dict[str, Any]) -> str:
    """The same badge as an image of its own (no service needed to show it): label and message side by side."""
    message, colour = _badge_parts(report)
    left, right = 78, 7 * len(message) + 12  # Verdana 11 px is about 7 px a character
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + right}" height="20" role="img" '
        f'aria-label="gammonspec: {message}"><title>gammonspec: {message}</title>'
        f'<rect width="{left}" height="20" fill="#555"/>'
        f'<rect x="{left}" width="{right}" height="20" fill="{BADGE_COLOURS[colour]}"/>'
        '<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11" text-anchor="middle">'
        f'<text x="{left / 2}" y="14">gammonspec</text><text x="{left + right / 2}" y="14">{message}</text></g></svg>'
    )


def _anchor(engine: str) -> str:
    """The anchor of an engine's failing cases on the results page."""
    return "failures-" + re.sub(r"[^a-z0-9]+", "-", engine.lower()).strip("-")


def _result_cell(c: Counter[str], skips: list[str], engine: str = "") -> str:
    """One engine under one ruleset: its counts (the failures linked to the engine's list of them), or "not
    declared" when it does not implement the ruleset."""
    if not c:
        return "—"
    if not c["passed"] + c["failed"] + c["errored"]:
        return "not declared" if all("does not implement ruleset" in m for m in skips) else f"{c['skipped']} skipped"
    bad = c["failed"] + c["errored"]
    crosses = f"[{bad} ✗](#{_anchor(engine)})" if bad and engine else f"{bad} ✗"
    return f"{c['passed']} ✓ · {crosses}<br>{c['skipped']} skipped"


def _identified(report: dict[str, Any]) -> str:
    """The profile `identify` finds closest, per game, and the ruleset it was asked as when that differs."""
    out = []
    for found in report.get("identified") or []:
        if isinstance(found, dict) and found.get("closest_profile"):
            closest, asked = found["closest_profile"], found.get("asked_as")
            parts = "<br>+&nbsp;".join(f"`{part}`" for part in closest.split(" + "))  # one change a line: narrow
            out.append(parts + (f" (asked as `{asked}`)" if asked and asked != closest else ""))
    return "<br>".join(out) or "—"


def _history(found: list[dict[str, Any]]) -> list[str]:
    """Each engine's results under every suite version (and engine version) it was reported under."""
    lines = ["", "## History", "", "Each engine's cases passed of those checked, per suite version it was reported under."]
    lines += ["", "| engine | suite | engine version | date | passed of checked |", "|---|---|---|---|---|"]
    for r in found:
        for e in engine_report.history(r):
            checked = e["passed"] + e["failed"] + e["errored"]
            passed = "not driven" if e.get("not_driven") else f"{e['passed']} / {checked}"
            lines.append(
                f"| {r['engine']['name']} | {e['suite']} | {e['engine_version']} | {e['date']} | {passed} |"
            )
    return lines


def results_page(found: list[dict[str, Any]]) -> str:
    """Engines by ruleset with pass, fail and skip counts; failing cases by rule, each with its board."""
    by_id = {case.id: case for case in suite()}
    names = sorted(rulesets())
    lines = [
        "# Engine results",
        "",
        "Each engine's JSON report (`gammonspec report`), dated; the suite version each ran is in its history below.",
        "",
    ]
    engines = [r["engine"]["name"] for r in found]
    lines += ['<div class="results" markdown>', "", "| engine | identified | badge | version | date |"]
    lines += ["|---|---|---|---|---|"]
    failing: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    failed_by: dict[str, set[str]] = {}  # ruleset::case -> the engines failing it
    counts: dict[str, dict[str, Counter[str]]] = {n: {} for n in names}
    skips: dict[tuple[str, str], list[str]] = {}
    for r in found:
        engine = r["engine"]["name"]
        for res in r["results"]:
            counts.setdefault(res["ruleset"], {}).setdefault(engine, Counter())[res["status"]] += 1
            if res["status"] == "skipped":
                skips.setdefault((res["ruleset"], engine), []).append(res.get("message", ""))
            if res["status"] in ("failed", "errored"):
                failing.setdefault(res["rules"][0], []).append((engine, res))  # under its first rule: listed once
                failed_by.setdefault(f"{res['ruleset']}::{res['id']}", set()).add(engine)
        lines.append(
            f"| {engine} | {_identified(r)} | [![gammonspec: {_badge_parts(r)[0]}](badges/{engine}.svg)]"
            f"(badges/{engine}.json) | {r['engine'].get('version', '')} | {r.get('date', '')} |"
        )
    lines += ["", "Cases passed (✓), failed (✗) and skipped under each ruleset (*not declared*: the engine does not"]
    lines += ["implement that ruleset):", ""]
    lines += ["| engine | " + " | ".join(ruleset_link(n) for n in names) + " |", "|---|" + "---|" * len(names)]
    for engine in engines:  # an engine a row: the five rulesets fit across, however many engines there are
        cells = [_result_cell(counts[name].get(engine, Counter()), skips.get((name, engine), []), engine) for name in names]
        lines.append(f"| {engine} | " + " | ".join(cells) + " |")
    lines += ["", "</div>"]
    lines += _history(found)
    unique: dict[str, list[str]] = {}
    for key, who in sorted(failed_by.items()):
        if len(who) == 1:
            unique.setdefault(next(iter(who)), []).append(key)
    lines += ["", "## Failures unique to one engine", ""]
    lines += ["Cases only one engine fails: its own bugs or readings, not the suite's.", ""]
    for engine, keys in sorted(unique.items()):
        lines.append(
            f"- **{engine}** ({len(keys)}): "
            + ", ".join(f"`{k}`" for k in keys[:12])
            + (" …" if len(keys) > 12 else "")
        )
    if not unique:
        lines.append("None.")
    lines += ["", "## Failures by engine", "", "Each engine's failing cases, by ruleset (a ✗ count above links here).", ""]
    by_engine: dict[str, list[dict[str, Any]]] = {}
    for items in failing.values():
        for engine, res in items:
            by_engine.setdefault(engine, []).append(res)
    for engine in engines:
        if engine in by_engine:
            lines += [f"### {engine} {{#{_anchor(engine)}}}", ""]
            for res in sorted(by_engine[engine], key=lambda res: (res["ruleset"], res["id"])):
                case = by_id.get(res["id"])
                where = case_link(case) if case else case_page(res["game"])
                lines.append(f"- `{res['ruleset']}`: [{_text(res.get('title', res['id']))}]({where}) ({rule_link(res['rules'][0])})")
            lines.append("")
    if not by_engine:
        lines.append("None.")
    lines += ["", "## Failures by rule", "", "Each failing case under the first rule it names.", ""]
    if not failing:
        lines.append("No engine fails a case.")
    for rule, items in sorted(failing.items()):
        lines += [f"### {rule_link(rule)}", ""]
        for engine, res in items:
            case = by_id.get(res["id"])
            where = case_link(case) if case else case_page(res["game"])
            lines.append(
                f"- {engine}, `{res['ruleset']}`: [{_text(res.get('title', res['id']))}]({where}) {_text(res['message'][:200])}"
            )
            if case:
                lines += ["", f"    {board(case.state, case.title, 190)}", ""]
    return "\n".join(lines) + "\n"


def on_files(files: Files, config: Any) -> Files:
    """The generated pages: per game a case index and a page per case file, per clause its examples, and the rest."""
    by_game: dict[str, list[Case]] = {}
    for case in suite():
        by_game.setdefault(case.game, []).append(case)
    for game, cases in by_game.items():
        files.append(File.generated(config, case_page(game), content=_index(game, cases)))
        for stem, members in by_file(cases).items():
            files.append(File.generated(config, file_page(game, stem), content=_file_cases(game, members)))
    for rule, cases in cases_by_rule(suite()).items():
        if len(cases) > INLINE_EXAMPLES and rule in clauses():
            files.append(File.generated(config, examples_page(rule), content=examples_page_text(rule, cases)))
    for game in GAMES:
        files.append(File.generated(config, f"play-{game}.md", content=play_page(game)))
    files.append(File.generated(config, "switches.md", content=switches_page()))
    files.append(File.generated(config, "rulesets.md", content=rulesets_page()))
    files.append(File.generated(config, "changelog.md", content=changelog_page()))
    files.append(File.generated(config, "same-position.md", content=same_position_page()))
    files.append(File.generated(config, "extra.css", content=CSS))
    files.append(File.generated(config, "tables.css", content=(SITE / "tables.css").read_text(encoding="utf-8")))
    files.append(File.generated(config, "open-linked.js", content=OPEN_LINKED))
    found = reports()
    files.append(File.generated(config, "results.md", content=results_page(found)))
    for r in found:
        files.append(File.generated(config, f"badges/{r['engine']['name']}.json", content=badge(r)))
        files.append(File.generated(config, f"badges/{r['engine']['name']}.svg", content=badge_svg(r)))
    for case in suite():  # draw now what the clause pages will show, so every board is a file of the site
        case_body(case)
    home()
    files.append(File.generated(config, legend.PAGE, content=legend.page()))
    for name, content in {**BOARDS, **legend.boards()}.items():
        files.append(File.generated(config, name, content=content))
    return files


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
            allowed = ", ".join(f"`{_value(a)}`" for a in spec["allowed"])
            lines.append(f"- option `{name}`: default `{_value(spec['default'])}`, allowed {allowed}")
        lines.append("")
    return "\n".join(lines)


def _answer(case: Case) -> list[str]:
    """What one ruleset makes of the contested position: the case's expectation, drawn, and its derivation."""
    lines = [
        f"[`{case.id}`]({case_link(case)}): {_text(case.title)}",
        "",
        f"Requires: {_requires(case)}",
        "",
    ]
    if case.options:
        lines += [f"Options: {_options(case)}", ""]
    return [*lines, *_outcome(case), f"*Derivation:* {link_rule_ids(_text(case.derivation))}", ""]


def same_position_page() -> str:
    """For each switch, a position the suite pins under different values, and each ruleset's answer side by side."""
    found = contests(suite())
    gaps = [name for name, contest in found.items() if contest is None]
    lines = [
        *NOT_SEARCHED,
        "# Same position, every ruleset",
        "",
        "For each rule switch, one position of the suite that cases pin under different values of it, and what "
        "each ruleset of that game makes of the position, side by side. The answers are the cases' expectations, "
        "each derived by hand or by an independent method as its derivation says, never an engine's output.",
        "",
    ]
    if gaps:
        lines += ["No position of the suite is contested for " + ", ".join(f"[`{g}`](#{g})" for g in gaps) + ".", ""]
    for name, contest in found.items():
        spec = registry()["switches"][name]
        lines += [f"## `{name}` {{#{name}}}", "", f"{spec['summary']} [Definition](switches.md#{name}).", ""]
        if contest is None:
            lines += [f"No contested position: {why_none(name)}.", ""]
            continue
        first = contest.cases[0]
        lines += [board(first.state, f"the contested position of {name}", cube=has_cube(first)), ""]
        if first.state.dice and first.query != "scenario":
            lines += [f"{first.state.turn.capitalize()} to play {'-'.join(map(str, first.state.dice))}.", ""]
        if contest.also:
            also = ", ".join(f"[`{a}`](switches.md#{a})" for a in contest.also)
            lines += [f"The cases shown also pin {also} differently: the answers differ by those too.", ""]
        lines.append('<div class="rulesets" markdown>')
        for rs in game_rulesets(first.game):
            value, case = rs.switches[name], contest.shown[rs.name]
            lines += ["", "<div markdown>", "", f"**{ruleset_link(rs.name)}**: `{name} = {value}`", ""]
            lines += _answer(case) if case else [f"No case pins this position under `{rs.name}`.", ""]
            lines += ["</div>"]
        lines += ["", "</div>", ""]
    return "\n".join(lines)


def _examples(rule: str, cases: list[Case], shown: int) -> list[str]:
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


def _more(rule: str, cases: list[Case]) -> list[str]:
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
            f"# Examples of {rule}: {_text(clause.title)}",
            "",
            f"The {len(cases)} cases that pin [{GAME_TITLES[clause.path.stem]} § `{rule}`]({clause.path.name}#{rule}), "
            "the most direct first. Each example's permalink is `#" + rule + "--N`.",
            "",
            *_examples(rule, cases, len(cases)),
        ]
    )


TINTS = 5  # colours a row can tell apart, one per value (site/tables.css, light and dark)


@cache
def pinning() -> dict[tuple[str, str, str], list[Case]]:
    """The cases that pin each switch value, per game: (switch, value, game) -> cases."""
    found: dict[tuple[str, str, str], list[Case]] = {}
    for case in suite():
        for name, required in case.requires.items():
            for value in accepted(required):
                found.setdefault((name, value, case.game), []).append(case)
    return found


def clause_of(switch: str, value: str, game: str) -> str | None:
    """The clause of the game that states or decides the switch value (switches.yaml `clauses`), if any."""
    listed = registry()["switches"][switch].get("clauses", {}).get(value, [])
    return next((rule for rule in listed if rule in clauses() and clauses()[rule].path.stem == game), None)


def _plain(switch: str, value: str, rs: Any) -> str:
    """The value in the few words the matrix shows, its stakes spelled out (an `{option}` is the ruleset's default)."""
    words = registry()["switches"][switch].get("plain", {}).get(value, value)
    return re.sub(r"\{([a-z-]+)\}", lambda m: _value(rs.options[m[1]]["default"]), words)


def _cell(name: str, value: str, rs: Any, tint: int, up: str) -> str:
    """One matrix cell: the value in words linked to its clause, stated (●) or decided (○), and its cases."""
    spec = registry()["switches"][name]
    mark = ""
    if rs.source in spec.get("sources", {}).get(value, []):
        mark = '&nbsp;<span class="mark" title="stated by the source">●</span>'
    if rs.source in (spec.get("decided") or {}).get(value, []):
        mark = '&nbsp;<span class="mark" title="decided by us: the source is silent">○</span>'
    rule = clause_of(name, value, rs.game)
    where = f"{up}{clauses()[rule].path.stem}/#{rule}" if rule else f"{up}switches/#{name}"
    about = f"{name} = {value}" + (f", § {rule}" if rule else ", no clause of its own") + f": {spec['values'][value]}"
    pins = pinning().get((name, value, rs.game), [])
    count = f"{len(pins)} case{'s' * (len(pins) != 1)}"
    cases = f'<a href="{up}switches/#{name}--{value}--{rs.game}">{count}</a>' if pins else "no case"
    return (
        f'<td class="v{tint % TINTS}" title="{html.escape(about)}"><a href="{where}">{_plain(name, value, rs)}</a>'
        f'{mark}<span class="pin">{cases}</span></td>'
    )


def _options_row(chosen: list[Any], up: str) -> str:
    """The options each ruleset offers within itself, with their allowed values."""
    cells = []
    for rs in chosen:
        items = [f"{k} ({' / '.join(_value(a) for a in v['allowed'])})" for k, v in rs.options.items()]
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
        + "</tbody></table></div>\n\n● stated by the ruleset's source · ○ decided by us where the source is silent · "
        "a colour is one value within its row; each value links to the clause that states it for that game "
        "(its switch value in the cell's tooltip), and under it to the cases that pin it there." + agreed
    )


def home() -> list[str]:
    """What the home page adds: a board, the rulesets, the matrix, how to check an engine, the suite version."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    checking = readme.split("## Checking your engine", 1)[1].split("```", 2)[1]
    start = State(start_layout("backgammon"), "white", (3, 1))
    sets = [
        f"| {ruleset_link(rs.name)} | {GAME_TITLES[rs.game]} | `{rs.source}` | {rs.summary} |"
        for rs in rulesets().values()
    ]
    return [
        "",
        board(start, "The backgammon starting position, white to play 3-1"),
        "",
        f"Suite version **{version('gammonspec')}**: {len(suite())} cases over {len(clauses())} clauses "
        "([changelog](changelog.md)).",
        "",
        "## The five rulesets",
        "",
        "| ruleset | game | source | what it is |",
        "|---|---|---|---|",
        *sets,
        "",
        "## Where they disagree",
        "",
        matrix("all", up=""),
        "## Checking an engine",
        "",
        f"```{checking}```",
        "",
    ]


BOARD_PAGES = {"index.md", "backgammon.md", "narde.md", "crazy-narde.md", "same-position.md", "results.md"}
BOARD_PAGES |= {f"play-{game}.md" for game in GAMES}
CASE_INDEXES = {case_page(game) for game in GAMES}  # lists of cases, no board drawn


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """Fill the disagreement tables; anchor each clause by its rule ID; put its cases under it; link rule IDs;
    the board key atop every page that draws boards."""
    split_off = page.file.src_uri.startswith(("cases-", "examples-")) and page.file.src_uri not in CASE_INDEXES
    if page.file.src_uri in BOARD_PAGES or split_off:
        markdown = re.sub(r"^(# .*)$", lambda m: f"{m[1]}\n\n{legend.KEY}\n", markdown, count=1, flags=re.M)
    if page.file.src_uri.startswith(("cases-", "examples-", "switches", "results", "rulesets", "same-position")):
        return markdown
    by_rule = cases_by_rule(suite())
    if page.file.src_uri == "disagreements.md":
        page.meta["hide"] = ["toc"]  # the matrix gets the width of the table of contents
    markdown = MARKER.sub(lambda m: matrix(m["game"]), markdown)
    if page.file.src_uri == "index.md":
        markdown += "\n".join(home())
    out: list[str] = []
    current: str | None = None
    fenced = False
    seen: set[str] = set()  # the conventions terms linked on this page

    def flush() -> None:
        if current and by_rule.get(current):
            cases = by_rule[current]
            out.extend(["", f"**Examples ({len(cases)}):**", "", *_examples(current, cases, INLINE_EXAMPLES)])
            out.extend(_more(current, cases))

    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if fenced:
            out.append(line)
            continue
        heading = HEADING.match(line)
        if line.startswith("#"):
            flush()
            current = heading["id"] if heading else None
        if heading:
            line = f"### {heading['id']} — {heading['title']} {{#{heading['id']}}}"
        elif line.startswith("**Source:**"):
            line += "  "  # Source and Status each on a line of its own
        out.append(link_line(line, current, page.file.src_uri, seen))
    flush()
    return "\n".join(out) + "\n"


SPLITTERS = {"ja": "tinyseg.js", "th": "wordcut.js"}  # the search's word splitters, by language


def on_post_build(config: Any) -> None:
    """Drop what the theme ships that this site never loads: source maps, and the search's stemmers and
    word splitters for languages other than the site's (the search worker loads only those)."""
    assets = Path(config["site_dir"]) / "assets"
    langs = set(config["plugins"]["material/search"].config["lang"] or ["en"])
    keep = {f"lunr.{lang}.min.js" for lang in langs} | {SPLITTERS.get(lang) for lang in langs}
    keep |= {"lunr.stemmer.support.min.js", "lunr.multi.min.js"}
    for path in [*assets.rglob("*.map"), *(assets / "javascripts" / "lunr").rglob("*.js")]:
        if path.name not in keep:
            path.unlink()
