"""The results page: each engine's report (site/results/*.json) as a row with its badge, where it comes from,
the interop view and history (results_views.py), and every failing case, filtered by game, ruleset and clause."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from case_pages import board, case_link, case_page, escaped, has_cube, rule_link
from gammonspec.conformance.harness.cases import suite
from gammonspec.model.rulesets import rulesets
from results_views import history, interop, origins
from rule_tables import ruleset_link

RESULTS = Path(__file__).resolve().parent / "results"  # the engines' reports


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


def _badge_image(report: dict[str, Any], engine: str) -> str:
    """The badge at its own size (a table cell would shrink it unreadable), linked to its endpoint JSON."""
    message = _badge_parts(report)[0]
    width = 78 + 7 * len(message) + 12
    return (
        f'[![gammonspec: {message}](badges/{engine}.svg){{ .badge width="{width}" height="20" }}](badges/{engine}.json)'
    )


def _marker(game: str, ruleset: str, rules: list[str]) -> str:
    """What the filter reads of a listed failure: its game, ruleset and clauses (hidden)."""
    return f'<span class="rf" hidden data-game="{game}" data-ruleset="{ruleset}" data-rules="{" ".join(rules)}"></span>'


BY_RULE_PAGE = "results-by-rule.md"  # the failures drawn, by rule: a page of their own

FILTER = """<form class="results-filter" onsubmit="return false">
<label>game <select data-key="game"><option value="">all</option>{games}</select></label>
<label>ruleset <select data-key="ruleset"><option value="">all</option>{rulesets}</select></label>
<label>clause <input data-key="rules" type="search" placeholder="e.g. nd.head" size="14"></label>
<output aria-live="polite"></output>
</form>
<script>
(() => {{
  const form = document.currentScript.previousElementSibling;
  const apply = () => {{
    const want = {{}};
    for (const el of form.querySelectorAll("[data-key]")) want[el.dataset.key] = el.value.trim();
    let shown = 0, all = 0;
    for (const mark of document.querySelectorAll("span.rf")) {{
      const d = mark.dataset, li = mark.closest("li");
      const ok = (!want.game || d.game === want.game) && (!want.ruleset || d.ruleset === want.ruleset) &&
        (!want.rules || d.rules.split(" ").some(r => r.startsWith(want.rules)));  // a clause the case pins
      li.hidden = !ok; all++; if (ok) shown++;
    }}
    for (const block of document.querySelectorAll(".rf-block")) {{
      block.hidden = !block.querySelector("li:not([hidden]) span.rf");
      const head = block.previousElementSibling;
      if (head && /^H[34]$/.test(head.tagName)) head.hidden = block.hidden;
    }}
    form.querySelector("output").textContent = `${{shown}} of ${{all}} failures shown`;
  }};
  form.addEventListener("input", apply);
  document.addEventListener("DOMContentLoaded", apply);  // the failures below are parsed after this script
}})();
</script>"""

STYLE = """<style>
.md-typeset img.badge { max-width: none; height: 20px; }
.results-filter { display: flex; flex-wrap: wrap; gap: .4rem 1rem; align-items: center; margin: .6rem 0;
  position: sticky; top: 2.4rem; background: var(--md-default-bg-color); padding: .3rem 0; z-index: 2; }
.results-filter select, .results-filter input { font: inherit; color: inherit; background: transparent;
  border: 1px solid var(--md-default-fg-color--lighter); border-radius: .2rem; padding: .1rem .3rem; }
.spark line.axis { stroke: var(--md-default-fg-color--lightest); }
.spark polyline { fill: none; stroke: var(--md-typeset-a-color); stroke-width: 2; }
.spark circle { fill: var(--md-typeset-a-color); } .spark circle.off { fill: none; stroke: var(--md-default-fg-color); }
.md-typeset .interop table:not([class]) { font-size: .6rem; }
.md-typeset .interop table:not([class]) :is(td, th) { padding: .3em .35em; vertical-align: top; }
.md-typeset .interop th:first-child, .md-typeset .interop td:first-child { position: sticky; left: 0;
  background: var(--md-default-bg-color); z-index: 1; }
.iv { display: inline-block; padding: 0 .3em; border-radius: .2em; color: #1a1a1a; }
.iv.v0 { background: #cfe8f7; } .iv.v1 { background: #fbe3b3; } .iv.v2 { background: #cdeee4; }
.iv.v3 { background: #f3d3e6; } .iv.v4 { background: #f7f0b6; } .iv.nt { background: transparent; color: inherit; }
[data-md-color-scheme="slate"] .iv { color: #f2f2f2; }
[data-md-color-scheme="slate"] .iv.v0 { background: #173a52; } [data-md-color-scheme="slate"] .iv.v1 { background: #553a0c; }
[data-md-color-scheme="slate"] .iv.v2 { background: #12463a; } [data-md-color-scheme="slate"] .iv.v3 { background: #4e2342; }
[data-md-color-scheme="slate"] .iv.v4 { background: #45400f; }
</style>"""


def results_page(found: list[dict[str, Any]]) -> str:
    """Engines by ruleset with pass, fail and skip counts, where each comes from, how each reads the rules, its
    history, and its failing cases (drawn, by rule, on failures_by_rule_page)."""
    by_id = {case.id: case for case in suite()}
    names = sorted(rulesets())
    lines = [
        "# Engine results",
        "",
        "Each engine's JSON report (`gammonspec report`), dated; the suite version each ran is in its history below.",
        "Third-party engines are run at a pinned commit, their results kept as data beside the recipe that makes",
        "them again; how each reads the rules the texts disagree on is in the interop view.",
        "",
        STYLE,
        "",
    ]
    engines = [r["engine"]["name"] for r in found]
    lines += ['<div class="results" markdown>', "", "| engine | identified | badge | version | date |"]
    lines += ["|---|---|---|---|---|"]
    failing: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    failed_by: dict[str, set[str]] = {}  # ruleset::case -> the engines failing it
    results_of: dict[str, dict[str, Any]] = {}  # ruleset::case -> a failing result of it
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
                results_of[f"{res['ruleset']}::{res['id']}"] = res
        source = r["engine"].get("source")
        linked = f"[{engine}]({source['url']})" if source else engine  # a third-party engine: its project
        lines.append(
            f"| {linked} | {_identified(r)} | {_badge_image(r, engine)} | {r['engine'].get('version', '')} |"
            f" {r.get('date', '')} |"
        )
    lines += ["", "Cases passed (✓), failed (✗) and skipped under each ruleset (*not declared*: the engine does not"]
    lines += ["implement that ruleset):", ""]
    lines += ["| engine | " + " | ".join(ruleset_link(n) for n in names) + " |", "|---|" + "---|" * len(names)]
    for engine in engines:  # an engine a row: the five rulesets fit across, however many engines there are
        cells = [
            _result_cell(counts[name].get(engine, Counter()), skips.get((name, engine), []), engine) for name in names
        ]
        lines.append(f"| {engine} | " + " | ".join(cells) + " |")
    lines += ["", "</div>"]
    lines += origins(found) + interop(found) + history(found)
    games = sorted({rs.game for rs in rulesets().values()})
    lines += ["", "## Failing cases", "", "Show only the failures of a game, a ruleset or a clause (an ID or its start):"]
    lines += ["", FILTER.format(games="".join(f"<option>{g}</option>" for g in games),
                                rulesets="".join(f"<option>{n}</option>" for n in names))]
    unique: dict[str, list[dict[str, Any]]] = {}
    for key, who in sorted(failed_by.items()):
        if len(who) == 1:
            unique.setdefault(next(iter(who)), []).append(results_of[key])
    lines += ["", "### Failures unique to one engine", ""]
    lines += ["Cases only one engine fails: its own bugs or readings, not the suite's.", ""]
    for engine, items in sorted(unique.items()):
        lines += [f'<details class="rf-block" markdown><summary>{engine} ({len(items)})</summary>', ""]
        lines += [_failure_item(res, by_id) for res in items]
        lines += ["", "</details>", ""]
    if not unique:
        lines.append("None.")
    lines += [
        "",
        "### Failures by engine",
        "",
        "Each engine's failing cases, by ruleset (a ✗ count above links here).",
        "",
    ]
    by_engine: dict[str, list[dict[str, Any]]] = {}
    for items in failing.values():
        for engine, res in items:
            by_engine.setdefault(engine, []).append(res)
    for engine in engines:
        if engine in by_engine:
            lines += [f"#### {engine} {{#{_anchor(engine)}}}", "", '<div class="rf-block" markdown>', ""]
            for res in sorted(by_engine[engine], key=lambda res: (res["ruleset"], res["id"])):
                case = by_id.get(res["id"])
                where = case_link(case) if case else case_page(res["game"])
                lines.append(
                    f"- {_marker(res['game'], res['ruleset'], res['rules'])}`{res['ruleset']}`: "
                    f"[{escaped(res.get('title', res['id']))}]({where}) ({rule_link(res['rules'][0])})"
                )
            lines += ["", "</div>", ""]
    if not by_engine:
        lines.append("None.")
    lines += ["", f"Each failing case under the first rule it names, with its board: [failures by rule]({BY_RULE_PAGE}).", ""]
    return "\n".join(lines) + "\n"


def _failure_item(res: dict[str, Any], by_id: dict[str, Any]) -> str:
    """A failing case listed with its filter marker, linked to its page: `ruleset::case`."""
    case = by_id.get(res["id"])
    where = case_link(case) if case else case_page(res["game"])
    return f"- {_marker(res['game'], res['ruleset'], res['rules'])}[`{res['ruleset']}::{res['id']}`]({where})"



def failures_by_rule_page(found: list[dict[str, Any]]) -> str:
    """Every engine's failing cases under the first rule each names, with its board (a page of its own: drawn, they
    would take the results page past its weight)."""
    by_id = {case.id: case for case in suite()}
    failing: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for r in found:
        for res in r["results"]:
            if res["status"] in ("failed", "errored"):
                failing.setdefault(res["rules"][0], []).append((r["engine"]["name"], res))  # under its first rule
    games = sorted({rs.game for rs in rulesets().values()})
    lines = [
        "# Engine failures by rule",
        "",
        "The failing cases of the [engine results](results.md), each under the first rule it names, drawn.",
        "",
        STYLE,
        "",
        FILTER.format(games="".join(f"<option>{g}</option>" for g in games),
                      rulesets="".join(f"<option>{n}</option>" for n in sorted(rulesets()))),
        "",
        "## Failures by rule",
        "",
    ]
    if not failing:
        lines.append("No engine fails a case.")
    for rule, items in sorted(failing.items()):
        lines += [f"### {rule_link(rule)}", "", '<div class="rf-block" markdown>', ""]
        for engine, res in items:
            case = by_id.get(res["id"])
            where = case_link(case) if case else case_page(res["game"])
            lines.append(
                f"- {_marker(res['game'], res['ruleset'], res['rules'])}{engine}, `{res['ruleset']}`: "
                f"[{escaped(res.get('title', res['id']))}]({where}) {escaped(res['message'][:200])}"
            )
            if case:  # the cube only where the case's game has one
                lines += ["", f"    {board(case.state, case.title, 190, has_cube(case))}", ""]
        lines += ["", "</div>", ""]
    return "\n".join(lines) + "\n"
