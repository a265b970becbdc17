"""`gammonspec merge`: the JSON reports of the shards of one run (or one perft) as the report of the whole.

A shard's report says which shard it is and lists the whole campaign's plan (the keys of the suite
run's results, or each perft table's number of first-ply units); the merged report has every
item of the plan exactly once, in the plan's order, with the summary recounted: the report an
unsharded run writes.  Reports of different campaigns, overlapping shards or a missing shard are
refused with one line naming the file.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from gammonspec.conformance.harness.reports import STATUSES
from gammonspec.conformance.harness.runner import skip_kind
from gammonspec.model.validation import compiled
from gammonspec.model.yamlio import DataError, read_text


def _read(path: Path) -> dict[str, Any]:
    """A report, checked against schema/report.schema.json; DataError naming the file when it is not one."""
    text = read_text(path)  # its own located errors (cannot read, not UTF-8)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(path, exc.lineno, f"not JSON: {exc.msg}") from None
    except RecursionError:
        raise DataError(path, None, "not a gammonspec JSON report: nested too deep") from None
    except ValueError:  # the one other failure of json.loads
        raise DataError(path, None, "not a gammonspec JSON report: an integer of over 4,300 digits") from None
    if not isinstance(data, dict) or "suite" not in data:
        raise DataError(path, None, "not a gammonspec JSON report")
    failure = compiled("report").failure(data)
    if failure is not None:
        where = "/".join(map(str, failure[0])) or "(top)"
        raise DataError(path, None, f"not a gammonspec JSON report as written: {where}: {failure[1]}")
    if data.get("error"):
        raise DataError(path, None, f"the run of this report did not start: {data['error']}")
    return data


def _same(reports: list[tuple[Path, dict[str, Any]]], *fields: str) -> None:
    first_path, first = reports[0]
    for path, data in reports[1:]:
        for name in fields:
            if data.get(name) != first.get(name):
                raise DataError(path, None, f"{name} differs from {first_path}'s: not a shard of the same campaign")


def _whole(path: Path, seen: Counter[Any], plan: list[Any], what: str) -> None:
    twice = [k for k, n in seen.items() if n > 1]
    if twice:
        raise DataError(path, None, f"{what} {twice[0]} is in more than one report (overlapping shards)")
    missing = [k for k in plan if not seen[k]]
    if missing:
        raise DataError(
            path, None, f"{len(missing)} {what}s of the plan are in no report (a shard missing?), e.g. {missing[0]}"
        )


def merge_runs(reports: list[tuple[Path, dict[str, Any]]]) -> dict[str, Any]:
    _same(reports, "suite", "plan")
    _same([(p, {"engine": {k: v for k, v in d["engine"].items() if k != "restarts"}}) for p, d in reports], "engine")
    plan = reports[0][1].get("plan") or [f"{r['ruleset']}::{r['id']}" for _, d in reports for r in d["results"]]
    results = {f"{r['ruleset']}::{r['id']}": r for _, d in reports for r in d["results"]}
    _whole(
        reports[-1][0], Counter(f"{r['ruleset']}::{r['id']}" for _, d in reports for r in d["results"]), plan, "case"
    )
    ordered = [results[key] for key in plan]
    statuses = Counter(r["status"] for r in ordered)
    first = reports[0][1]
    engine = {**first["engine"], "restarts": sum(d["engine"].get("restarts", 0) for _, d in reports)}
    return {
        "suite": first["suite"],
        "engine": engine,
        "summary": {"total": len(ordered), **{s: statuses.get(s, 0) for s in STATUSES}},
        "skips": dict(Counter(skip_kind(r["message"]) for r in ordered if r["status"] == "skipped")),
        "results": ordered,
    }


def merge_perft(reports: list[tuple[Path, dict[str, Any]]]) -> dict[str, Any]:
    _same(reports, "suite", "engine", "kind")
    tables: dict[tuple[str, int, str], dict[str, Any]] = {}
    for _, data in reports:
        for table in data["tables"]:
            key = (table["target"], table["depth"], json.dumps(table["state"], sort_keys=True))
            merged = tables.setdefault(key, {**table, "units": []})
            merged["units"] = merged["units"] + table["units"]
    out = []
    for (target, _, _), table in tables.items():
        seen = Counter(u["index"] for u in table["units"])
        _whole(reports[-1][0], seen, list(range(table["of"])), f"{target} unit")
        units = sorted(table["units"], key=lambda u: u["index"])
        out.append(
            {
                **table,
                "positions": sum(u["positions"] for u in units),
                "weighted": sum(u["weighted"] for u in units),
                "units": units,
            }
        )
    return {**reports[0][1], "shard": None, "tables": out}


def merge(paths: list[Path]) -> dict[str, Any]:
    """The merged report of the shards' reports at `paths` (DataError naming a file when they do not fit)."""
    reports = [(path, _read(path)) for path in paths]
    kinds = {data.get("kind", "run") for _, data in reports}
    if len(kinds) > 1:
        raise DataError(paths[-1], None, "mixes suite runs and perft reports")
    merged = merge_perft(reports) if kinds == {"perft"} else merge_runs(reports)
    return merged
