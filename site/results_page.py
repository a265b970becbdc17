"""The results page: each engine's report (site/results/*.json) as a row, its badge, and the history of runs."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from case_pages import board, case_link, case_page, escaped, rule_link
from gammonspec.conformance.harness.cases import suite
from gammonspec.conformance.tools import engine_report
from gammonspec.model.rulesets import rulesets
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


def _history(found: list[dict[str, Any]]) -> list[str]:
    """Each engine's results under every suite version (and engine version) it was reported under."""
    lines = [
        "",
        "## History",
        "",
        "Each engine's cases passed of those checked, per suite version it was reported under.",
    ]
    lines += ["", "| engine | suite | engine version | date | passed of checked |", "|---|---|---|---|---|"]
    for r in found:
        for e in engine_report.history(r):
            checked = e["passed"] + e["failed"] + e["errored"]
            passed = "not driven" if e.get("not_driven") else f"{e['passed']} / {checked}"
            lines.append(f"| {r['engine']['name']} | {e['suite']} | {e['engine_version']} | {e['date']} | {passed} |")
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
        cells = [
            _result_cell(counts[name].get(engine, Counter()), skips.get((name, engine), []), engine) for name in names
        ]
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
    lines += [
        "",
        "## Failures by engine",
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
            lines += [f"### {engine} {{#{_anchor(engine)}}}", ""]
            for res in sorted(by_engine[engine], key=lambda res: (res["ruleset"], res["id"])):
                case = by_id.get(res["id"])
                where = case_link(case) if case else case_page(res["game"])
                lines.append(
                    f"- `{res['ruleset']}`: [{escaped(res.get('title', res['id']))}]({where}) ({rule_link(res['rules'][0])})"
                )
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
                f"- {engine}, `{res['ruleset']}`: [{escaped(res.get('title', res['id']))}]({where}) {escaped(res['message'][:200])}"
            )
            if case:
                lines += ["", f"    {board(case.state, case.title, 190)}", ""]
    return "\n".join(lines) + "\n"
