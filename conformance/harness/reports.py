"""Reports of a run: the terminal summary, JSON and JUnit XML."""

from __future__ import annotations

import json
import shlex
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from gammonspec.conformance.harness import report_files
from gammonspec.conformance.harness.board import draw
from gammonspec.conformance.harness.runner import Outcome, skip_kind
from gammonspec.model import PROTOCOL_VERSION, __version__
from gammonspec.model.interface import EngineInfo
from gammonspec.model.narde_ids import position_id
from gammonspec.model.profiles import Profile
from gammonspec.model.terminal import fitted, printable

STATUSES = ("passed", "failed", "skipped", "errored", "xfailed", "xpassed")


def summary(outcomes: list[Outcome]) -> dict[str, int]:
    counts = Counter(o.status for o in outcomes)
    return {"total": len(outcomes), **{s: counts.get(s, 0) for s in STATUSES}}


def ok(outcomes: list[Outcome]) -> bool:
    """A run passes when nothing failed, errored or unexpectedly passed."""
    return not any(o.status in ("failed", "errored", "xpassed") for o in outcomes)


def rerun(o: Outcome, engine_args: str = "") -> str:
    """A command line that runs this one case again under the same ruleset or profile."""
    target = o.target
    where = f"--ruleset {o.ruleset}"
    if isinstance(target, Profile):
        changes = {**target.changed_switches, **target.fixed_options}
        where = f"--ruleset {target.base}" + "".join(f" --switch {k}={str(v).lower()}" for k, v in changes.items())
    return " ".join(filter(None, ["gammonspec run", engine_args, f"--case {shlex.quote(o.case.id)}", where]))


def describe_failure(o: Outcome, engine_args: str = "") -> str:
    state = o.state
    lines = [
        fitted(f"{o.status.upper()} {o.key}  [{', '.join(o.case.rule_ids)}]  {o.case.title}"),
        f"  at {o.case.where}",
        f"  rerun: {rerun(o, engine_args)}",
    ]
    ident = position_id(state)  # the XGID or the Narde position ID, for other tools
    if ident:
        lines.append(f"  {ident}")
    if state.dice:
        lines.append(f"  {state.turn} to play {'-'.join(map(str, state.dice))}")
    lines += ["    " + line for line in draw(state.layout, state.turn).splitlines()]
    if o.missing:
        lines.append("  missing: " + " | ".join(o.missing))
    if o.extra:
        lines.append("  extra:   " + " | ".join(o.extra))
    if not (o.missing or o.extra) and o.message:
        lines.append("  " + o.message)
    if o.stderr:
        lines.append("  engine stderr:\n" + "\n".join("    " + s for s in o.stderr.splitlines()[-10:]))
    return printable("\n".join(lines))


def text(
    outcomes: list[Outcome],
    info: EngineInfo,
    restarts: int = 0,
    quiet: bool = False,
    verbose: bool = False,
    engine_args: str = "",
) -> str:
    """Failures in full, then a per-rule table (rules with failures, errors or skips under the rulesets the
    engine declares; all rules of every ruleset when verbose), then the totals. Quiet: one line per failing case, then the totals."""
    bad = [o for o in outcomes if o.status in ("failed", "errored", "xpassed")]
    if quiet:
        listed = [fitted(f"{o.status.upper()} {o.key}") for o in bad]
        parts = ["\n".join([*listed, "(run without -q for each one's rules, board and plays)"])] if bad else []
    else:
        parts = [describe_failure(o, engine_args) for o in bad]
    per_rule: dict[str, Counter[str]] = defaultdict(Counter)
    for o in outcomes:  # under the rulesets the engine declares (all when verbose): not 100 rows of skips
        if verbose or isinstance(o.target, Profile) or o.ruleset in info.rulesets:
            for rule in o.case.rule_ids:
                per_rule[rule][o.status] += 1
    if not verbose:
        per_rule = defaultdict(
            Counter, {r: c for r, c in per_rule.items() if c["failed"] + c["xpassed"] + c["errored"] + c["skipped"]}
        )
    if per_rule and not quiet:
        width = max(map(len, per_rule))
        rows = [f"{'rule':<{width}}  pass  fail  err  skip"]
        for rule in sorted(per_rule):
            c = per_rule[rule]
            rows.append(
                f"{rule:<{width}}  {c['passed'] + c['xfailed']:>4}  {c['failed'] + c['xpassed']:>4}  {c['errored']:>3}  {c['skipped']:>4}"
            )
        parts.append("\n".join(rows))
    s = summary(outcomes)
    profiles = sorted({o.target.name for o in outcomes if isinstance(o.target, Profile)})
    under = f" under profile {', '.join(profiles)}" if profiles else ""
    tail = f"{info.name} {info.version} against gammonspec {__version__}{under}: "
    tail += ", ".join(f"{s[k]} {k}" for k in STATUSES if s[k] or k in ("passed", "failed"))
    if s["skipped"]:
        kinds = Counter(skip_kind(o.message) for o in outcomes if o.status == "skipped")
        tail += " (" + ", ".join(f"{n} {kind}" for kind, n in kinds.most_common()) + ")"
    unchecked = sum(1 for o in outcomes if o.unchecked and o.status == "passed")
    if unchecked:
        tail += f"; in {unchecked} passed cases `next` was not checked (the engine does not answer next-segment)"
    if restarts:
        tail += f" (engine restarted {restarts} times)"
    parts.append(printable(tail))
    return "\n\n".join(parts)


def to_json(
    outcomes: list[Outcome],
    info: EngineInfo,
    restarts: int = 0,
    shard: dict[str, Any] | None = None,
    engine_args: str = "",
) -> dict[str, Any]:
    """The JSON report; a shard's (`shard`: which one, and the keys of the whole plan) says so, for merging.  A
    result that did not pass carries the command line that reruns it against the same engine (`engine_args`)."""
    return {
        **(shard or {}),
        "suite": {"name": "gammonspec", "version": __version__, "protocol": PROTOCOL_VERSION},
        "engine": {"name": info.name, "version": info.version, "rulesets": list(info.rulesets), "restarts": restarts},
        "summary": summary(outcomes),
        "skips": dict(Counter(skip_kind(o.message) for o in outcomes if o.status == "skipped")),
        "results": [
            {
                "id": o.case.id,
                "ruleset": o.ruleset,
                "file": str(o.case.path),
                "line": o.case.line,
                "title": o.case.title,
                "time": round(o.seconds, 6),
                "game": o.case.game,
                "rules": list(o.case.rule_ids),
                "status": o.status,
                "message": o.message,
                "missing": o.missing,
                "extra": o.extra,
                **({"stderr": o.stderr} if o.stderr else {}),
                **({"rerun": rerun(o, engine_args)} if o.status in ("failed", "errored", "xpassed") else {}),
            }
            for o in outcomes
        ],
    }


def write_json(
    path: Path,
    outcomes: list[Outcome],
    info: EngineInfo,
    restarts: int = 0,
    shard: dict[str, Any] | None = None,
    engine_args: str = "",
) -> None:
    report_files.write(path, json.dumps(to_json(outcomes, info, restarts, shard, engine_args), indent=2) + "\n")


def write_json_error(path: Path, message: str, stderr: str = "") -> None:
    """The JSON report of a run that could not start: no results, the error that stopped it."""
    data = {
        "suite": {"name": "gammonspec", "version": __version__, "protocol": PROTOCOL_VERSION},
        "error": message,
        **({"stderr": stderr} if stderr else {}),
        "summary": summary([]),
        "results": [],
    }
    report_files.write(path, json.dumps(data, indent=2) + "\n")


def write_junit_error(path: Path, message: str, stderr: str = "") -> None:
    """The JUnit report of a run that could not start: one errored test case saying why."""
    suite = ET.Element("testsuite", name=f"gammonspec {__version__}", tests="1", failures="0", errors="1", skipped="0")
    tc = ET.SubElement(suite, "testcase", classname="gammonspec", name="the run could not start", time="0")
    ET.SubElement(tc, "error", message=printable(message)).text = printable(stderr or message)
    _write_xml(path, suite)


def write_junit(path: Path, outcomes: list[Outcome], info: EngineInfo, engine_args: str = "") -> None:
    """The JUnit report; a failure's text is the terminal's, its rerun line naming the engine (`engine_args`)."""
    s = summary(outcomes)
    suite = ET.Element(
        "testsuite",
        name=printable(f"gammonspec {__version__} / {info.name} {info.version}"),
        tests=str(s["total"]),
        failures=str(s["failed"] + s["xpassed"]),
        errors=str(s["errored"]),
        skipped=str(s["skipped"] + s["xfailed"]),
        time=f"{sum(o.seconds for o in outcomes):.3f}",
    )
    for o in outcomes:
        tc = ET.SubElement(
            suite,
            "testcase",
            classname=f"{o.case.game}.{o.ruleset}",
            name=o.case.id,
            file=str(o.case.path),
            line=str(o.case.line),
            time=f"{o.seconds:.6f}",
        )
        message = printable(o.message)
        if o.status in ("failed", "xpassed"):
            ET.SubElement(tc, "failure", message=message).text = describe_failure(o, engine_args)
        elif o.status == "errored":
            ET.SubElement(tc, "error", message=message).text = describe_failure(o, engine_args)
        elif o.status in ("skipped", "xfailed"):
            ET.SubElement(tc, "skipped", message=message or "expected failure")
    _write_xml(path, suite)


def _write_xml(path: Path, suite: ET.Element) -> None:
    root = ET.Element("testsuites")
    root.append(suite)
    ET.indent(root)
    report_files.write(path, '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n")
