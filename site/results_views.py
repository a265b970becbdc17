"""The results page's views across engines: where each engine comes from (project, pinned commit, licence, or
why it is not driven), the interop view (which engines play which value of each switch, beside what each
ruleset says) and the history of every engine drawn over the suite's versions."""

from __future__ import annotations

import html
from typing import Any

from gammonspec.conformance.tools import engine_report
from gammonspec.model.rulesets import registry, rulesets
from packaging.version import Version
from rule_tables import ruleset_link

GAMES = ("narde", "crazy-narde", "backgammon")  # Narde first: the disagreements live there


def origins(found: list[dict[str, Any]]) -> list[str]:
    """Each engine's origin: its project linked, the commit its results are of, its licence; then the reason of
    each engine not driven."""
    lines = ["", "## Where each engine comes from", ""]
    lines += [
        "Third-party engines from repositories run at a pinned commit, through a driver and a recipe kept in",
        "`engines/thirdparty/` (`python engines/thirdparty/recipe.py NAME CHECKOUT` makes the report again; nothing",
        "of their code is kept here); the others through the shipped adapters of `gammonspec report`.",
        "",
        "| engine | project | commit | licence |",
        "|---|---|---|---|",
    ]
    for r in found:
        source = r["engine"].get("source")
        if source:
            commit = source.get("commit", "")
            base = f"https://github.com/{source['repository']}"
            pinned = f"[`{commit[:7]}`]({base}/commit/{commit})" if commit else "none pinned"
            project, licence = f"[{source['repository']}]({source['url']})", html.escape(source["licence"])
        else:
            project, pinned, licence = f"adapter `{r['engine'].get('adapter', r['engine']['name'])}`", "—", "—"
        lines.append(f"| {r['engine']['name']} | {project} | {pinned} | {licence} |")
    lines += ["", "Not driven, and why:", ""]
    lines += [f"- **{r['engine']['name']}**: {html.escape(r['not_driven'])}" for r in found if r.get("not_driven")]
    return lines


def _reading(found: dict[str, Any], switch: str) -> str | None:
    """The value an engine is found to play, None when its answers do not tell the values apart."""
    counts = found.get("switches", {}).get(switch)
    if not counts or switch in found.get("ties", {}):
        return None
    best = max(c["consistent"] / c["total"] for c in counts.values() if c["total"])
    if sum(1 for c in counts.values() if c["total"] and c["consistent"] / c["total"] == best) > 1:
        return None  # every value fits as well: nothing measured tells them apart
    return found.get("plays", {}).get(switch)


def interop(found: list[dict[str, Any]]) -> list[str]:
    """Per game, a switch a row: the value each ruleset says, then the value each engine is found to play."""
    spec = registry()["switches"]
    lines = ["", "## Interop: how the engines read each rule", ""]
    lines += [
        "Per game, for every rule switch the texts or the engines disagree on: the value each ruleset says, then",
        "the value each engine's answers are found to play (`identify`, asked as the ruleset the engine",
        "declares; the reading that fits most of the cases pinning the switch).  Equal values share a tint and a",
        "mark; *?* is not told apart: the engine's answers fit more than one value equally, or no case it answers",
        "pins the switch.  Hover a value for its words.",
    ]
    for game in GAMES:
        readings = [
            (r, f)
            for r in found
            if r["engine"].get("adapter") != "reference"
            for f in r.get("identified") or []
            if f.get("game") == game
        ]
        if not readings:
            continue
        names = [n for n, rs in sorted(rulesets().items()) if rs.game == game]
        heads = [ruleset_link(n) for n in names] + [_engine_head(r) for r, _ in readings]
        lines += ["", f"### {game.replace('-', ' ').title()}", "", '<div class="interop" markdown>', ""]
        lines += ["| switch | " + " | ".join(heads) + " |", "|---|" + "---|" * len(heads)]
        for switch, about in spec.items():
            said = [rulesets()[n].switches.get(switch) for n in names]
            played = [_reading(f, switch) for _, f in readings]
            if len(set(said)) < 2 and all(v is None or v == said[0] for v in played):
                continue  # the rulesets agree and every engine measured plays the same
            values = list(about["values"])
            cells = [_value(v, values, about["plain"]) for v in [*said, *played]]
            lines.append(f"| [`{switch}`](switches.md#{switch}) | " + " | ".join(cells) + " |")
        lines += ["", "</div>"]
    return lines


MARKS = "●■▲◆★"  # a mark per value: groups told apart without colour


def _value(value: str | None, values: list[str], plain: dict[str, str]) -> str:
    """A value as a tinted, marked pill titled with its words; `?` when nothing tells it."""
    if value is None:
        return '<span class="iv nt" title="not told apart">?</span>'
    i = values.index(value)
    return f'<span class="iv v{i}" title="{html.escape(plain[value])}">{MARKS[i]} {value}</span>'


def _engine_head(report: dict[str, Any]) -> str:
    """An engine's column head: its name, linked to its project when it has one."""
    name, source = report["engine"]["name"], report["engine"].get("source")
    return f"[{name}]({source['url']})" if source else name


def history(found: list[dict[str, Any]]) -> list[str]:
    """Each engine's share of checked cases passed drawn over the suite versions it was reported under, then
    every entry as a row."""
    versions = sorted({e["suite"] for r in found for e in engine_report.history(r)}, key=Version)
    lines = ["", "## History", ""]
    lines += [f"Each engine's cases passed of those checked, drawn over the suite versions ({', '.join(versions)},"]
    lines += ["oldest left; a dot a run, its numbers on hover), and listed run by run below.", ""]
    lines += ["| engine | passed, over suite versions | latest |", "|---|---|---|"]
    for r in found:
        runs = engine_report.history(r)
        last = runs[-1]
        checked = last["passed"] + last["failed"] + last["errored"]
        latest = "not driven" if last.get("not_driven") else f"{last['passed']} / {checked}"
        lines.append(f"| {r['engine']['name']} | {_sparkline(r['engine']['name'], runs, versions)} | {latest} |")
    lines += ["", '<details markdown><summary>Every run</summary>', ""]
    lines += ["| engine | suite | engine version | date | passed of checked |", "|---|---|---|---|---|"]
    for r in found:
        for e in engine_report.history(r):
            checked = e["passed"] + e["failed"] + e["errored"]
            passed = "not driven" if e.get("not_driven") else f"{e['passed']} / {checked}"
            lines.append(f"| {r['engine']['name']} | {e['suite']} | {e['engine_version']} | {e['date']} | {passed} |")
    lines += ["", "</details>"]
    return lines


def _sparkline(name: str, runs: list[dict[str, Any]], versions: list[str]) -> str:
    """One engine's runs as a line over every suite version (x) of its share passed (y, 0 to 100 %), a dot a run
    titled with its numbers; a run not driven is a hollow dot at the bottom."""
    width, height, pad = 180, 28, 4
    step = (width - 2 * pad) / max(len(versions) - 1, 1)

    def x(suite: str) -> float:
        return pad + versions.index(suite) * step if len(versions) > 1 else width / 2

    out = [
        f'<svg class="spark" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{html.escape(name)}: passed per suite version">',
        f'<line class="axis" x1="{pad}" x2="{width - pad}" y1="{height - pad}" y2="{height - pad}"/>',
        f'<line class="axis" x1="{pad}" x2="{width - pad}" y1="{pad}" y2="{pad}"/>',
    ]
    xy, dots = [], []
    for e in runs:
        checked = e["passed"] + e["failed"] + e["errored"]
        share = 0.0 if e.get("not_driven") or not checked else e["passed"] / checked
        px, py = x(e["suite"]), pad + (1 - share) * (height - 2 * pad)
        label = "not driven" if e.get("not_driven") else f"{e['passed']} of {checked} passed"
        title = f"{name} {e['engine_version']}, suite {e['suite']} ({e['date']}): {label}"
        hollow = ' class="off"' if e.get("not_driven") else ""
        xy.append(f"{px:.1f},{py:.1f}")
        dots.append(f'<circle{hollow} cx="{px:.1f}" cy="{py:.1f}" r="3.5"><title>{html.escape(title)}</title></circle>')
    if len(xy) > 1:
        out.append(f'<polyline points="{" ".join(xy)}"/>')
    return "".join(out + dots) + "</svg>"
