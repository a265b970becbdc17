"""`gammonspec report`: one JSON file per engine, for the site's results page (site/results/*.json).

Each file is the `run --json` report of the whole suite (every ruleset and the engine's own profiles),
with the engine's name and version, what `identify` finds for each game it declares, its deviations
(the failing cases), the date and the suite version.  An engine that cannot be driven (an adapter with a
`not_driven` reason) gets a report with that reason under `not_driven` and no results.

Each file also keeps the engine's `history`: one entry of counts per suite version and engine version it was
reported under, carried over from the file it replaces, so the results page shows how an engine fared as the
suite grew (a rerun under the same two versions replaces that entry).

A third-party engine driven from a checkout (engines/thirdparty/) is reported with its origin under
`engine.source` (`source`, read from its source.json): repository, link, pinned commit and licence, and the
reason it is not driven when it cannot be built here.
"""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path
from typing import Any

from gammonspec.conformance.harness import report_files, reports
from gammonspec.conformance.harness.cases import Case
from gammonspec.conformance.harness.runner import Filters, plan, run
from gammonspec.conformance.tools import identify, identify_report
from gammonspec.model.interface import Engine, EngineInfo
from gammonspec.model.rulesets import rulesets
from packaging.version import Version


def build(engine: Engine, cases: tuple[Case, ...], adapter: str) -> dict[str, Any]:
    info = engine.info()
    reason = getattr(engine, "not_driven", "")
    if reason:
        return _not_driven(engine, info, adapter, reason)
    targets = {**rulesets(), **{p.name: p for p in info.profiles}}
    outcomes = list(run(engine, plan(cases, targets, Filters())))
    declared = [*info.profiles, *(rulesets()[n] for n in info.rulesets if n in rulesets())]
    games = sorted({t.game for t in declared})
    found = [identify.identify(engine, cases, identify.asked_as(declared, game)) for game in games]
    data = reports.to_json(outcomes, info, getattr(engine, "restarts", 0))
    data["engine"].update({"adapter": adapter, "capabilities": list(info.capabilities)})
    data["date"] = datetime.date.today().isoformat()
    data["identified"] = [identify_report.to_json(f) for f in found]
    data["deviations"] = [
        {"id": o.case.id, "ruleset": o.ruleset, "rules": list(o.case.rule_ids), "message": o.message}
        for o in outcomes
        if o.status in ("failed", "errored")
    ]
    return data


SOURCE_FIELDS = ("name", "repository", "url", "commit", "licence", "recipe")


def source(path: Path) -> dict[str, str]:
    """An engine's origin from its source.json: the fields above, all text, the commit 40 hex digits, and
    `not_driven` (why it cannot be had or built here; then the commit may be missing) when present.  ValueError names the file and what is wrong."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: cannot be read as JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: not a JSON object")
    unbuilt = "not_driven" in data  # one that cannot be had or built here may have no commit to pin
    for field in (*SOURCE_FIELDS, *(["not_driven"] if unbuilt else [])):
        if field == "commit" and unbuilt and field not in data:
            continue
        if not isinstance(data.get(field), str) or not data[field].strip():
            raise ValueError(f"{path}: field {field!r}: missing or not a non-empty string")
    if "commit" in data and not re.fullmatch(r"[0-9a-f]{40}", data["commit"]):
        raise ValueError(f"{path}: field 'commit': not a commit's 40 hex digits: {data['commit']!r}")
    return {k: v for k, v in data.items() if k in (*SOURCE_FIELDS, "not_driven")}


def _not_driven(engine: Engine, info: EngineInfo, adapter: str, reason: str) -> dict[str, Any]:
    """The report of an engine no case could be asked of: who it is, why, and nothing run."""
    data = reports.to_json([], info, 0)
    data["engine"].update({"adapter": adapter, "capabilities": []})
    data.update({"date": datetime.date.today().isoformat(), "identified": [], "deviations": [], "not_driven": reason})
    return data


def write(folder: Path, data: dict[str, Any]) -> Path:
    """Write the report as `<engine>.json` in folder, its history carried over from the file it replaces."""
    path = folder / (re.sub(r"[^a-z0-9.-]+", "-", data["engine"]["name"].lower()) + ".json")
    data["history"] = [_entry(data)]
    if path.is_file():
        try:
            data["history"] = _merged(history(json.loads(path.read_text(encoding="utf-8"))), _entry(data))
        except (ValueError, KeyError, TypeError, AttributeError):  # not a report of ours (InvalidVersion is a ValueError)
            pass  # nothing to carry over
    report_files.write(path, json.dumps(data, indent=2) + "\n")
    return path


def history(data: dict[str, Any]) -> list[dict[str, Any]]:
    """A report's history, oldest first; a report written before histories were kept has its own counts only."""
    return list(data["history"]) if "history" in data else [_entry(data)]


def _entry(data: dict[str, Any]) -> dict[str, Any]:
    s = data["summary"]
    counts = {k: s[k] for k in ("passed", "failed", "errored", "skipped")}
    return {"suite": data["suite"]["version"], "engine_version": data["engine"].get("version", ""),
            "date": data.get("date", ""), "not_driven": bool(data.get("not_driven")), **counts}


def _merged(earlier: list[dict[str, Any]], entry: dict[str, Any]) -> list[dict[str, Any]]:
    """earlier with entry added, or in place of the entry of the same suite and engine versions."""
    key = (entry["suite"], entry["engine_version"])
    kept = [e for e in earlier if (e["suite"], e["engine_version"]) != key]
    return sorted([*kept, entry], key=lambda e: (Version(e["suite"]), e["date"]))
