"""`gammonspec export`: the document is schema-valid, and its cases, replayed by a runner that knows nothing
of gammonspec but the protocol (a few lines here, as an engine author would write them in any language),
pass against the reference engine served as a process and fail against a wrong answer."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import jsonschema
import pytest
from gammonspec.conformance import cli
from gammonspec.conformance.tools import export
from gammonspec.model import __version__

# One case for every kind of request and expectation the suite has.
IDS = [
    "bg-bar-enter-either-number-white",  # legal-plays: the exact set
    "bg-bar-enter-black-one-number-closed",  # excludes
    "bg-cube-double-take-then-redouble-drop",  # may-double, cube-action (take, drop), includes
    "bg-cube-take-then-gammon-at-two",  # game-result
    "bg-cube-dead-one-point-match",  # match-after-game
    "bg-match-crawford-after-gammon-to-four",  # opening with the cube
    "bg-double-fives-start-turn-ends",  # next-segment
    "cn-large-spread-11-first-segment",  # count, digest, divide
    "cn-chain-scenario-first-33-two-head-checkers-to-66",  # a chain of segments
]


def key(position: dict) -> str:
    """The canonical key of spec/conventions.md."""
    w, b = ",".join(map(str, position["white"])), ",".join(map(str, position["black"]))
    bar, off = position["bar"], position["off"]
    return f"w:{w}|b:{b}|bar:{bar['white']},{bar['black']}|off:{off['white']},{off['black']}"


def problems(kind: str, answer: dict, expect: dict) -> list[str]:
    """What in an answer breaks the expectation: the whole judge an engine author needs."""
    wrong = []
    if kind == "legal-plays":
        got = {key(p) for p in answer["positions"]}
        if "positions" in expect and got != {key(p) for p in expect["positions"]}:
            wrong.append("positions")
        if not {key(p) for p in expect.get("includes", [])} <= got:
            wrong.append("includes")
        if {key(e["position"]) for e in expect.get("excludes", [])} & got:
            wrong.append("excludes")
        if "count" in expect and len(got) != expect["count"]:
            wrong.append("count")
        if "digest" in expect and hashlib.sha256("\n".join(sorted(got)).encode()).hexdigest()[:16] != expect["digest"]:
            wrong.append("digest")
        return wrong
    if kind == "next-segment":

        def norm(s):
            return s if s is None else {**s, "numbers": sorted(s["numbers"])}

        return [] if norm(answer["next"]) == norm(expect["next"]) else ["next"]
    if kind == "opening":
        got = {
            "starts": answer["starts"],
            "dice": answer["dice"] and sorted(answer["dice"]),
            "cube": answer.get("cube"),
        }
        want = {**expect, "dice": expect.get("dice") and sorted(expect["dice"])}
        if "cube" in want:
            want["cube"] = {"owner": None, **want["cube"]}
        return [k for k in expect if got[k] != want[k]]
    return [k for k in expect if answer.get(k) != expect[k]]


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> dict:
    path = tmp_path_factory.mktemp("export") / "suite.json"
    assert cli.main(["export", "--json", str(path), *(arg for i in IDS for arg in ("--case", i))]) == 0
    return json.loads(path.read_text())


def test_the_document_is_schema_valid_and_versioned(exported):
    export.check(exported)
    assert exported["suite"]["version"] == __version__ and exported["format"] == export.FORMAT_VERSION
    assert {c["id"] for c in exported["cases"]} == set(IDS)
    broken = json.loads(json.dumps(exported))
    broken["cases"][0]["requests"][0]["request"]["type"] = "legal-moves"
    with pytest.raises(jsonschema.ValidationError):
        export.check(broken)


def replay(exported: dict, tamper=lambda kind, answer: answer) -> dict[str, list[str]]:
    """Every exported request sent to `gammonspec serve`; the problems per case key."""
    serve = [sys.executable, "-m", "gammonspec.conformance.cli", "serve"]
    proc = subprocess.Popen(serve, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(message: dict) -> dict:
        proc.stdin.write(json.dumps(message) + "\n")
        proc.stdin.flush()
        return json.loads(proc.stdout.readline())

    try:
        assert ask({"type": "hello", "protocol": "1.1", "suite": __version__})["type"] == "hello"
        found = {}
        for case in exported["cases"]:
            found[case["key"]] = [
                f"{r['request']['type']}: {p}"
                for r in case["requests"]
                for p in problems(r["request"]["type"], tamper(r["request"]["type"], ask(r["request"])), r["expect"])
            ]
        ask_bye = json.dumps({"type": "bye"}) + "\n"
        proc.stdin.write(ask_bye)
        proc.stdin.close()
    finally:
        proc.wait(timeout=60)
    return found


def test_exported_cases_pass_against_the_reference_engine_over_the_protocol(exported):
    found = replay(exported)
    assert len(found) >= len(IDS) and not any(found.values()), {k: v for k, v in found.items() if v}


def test_a_wrong_answer_fails_the_exported_cases(exported):
    def drop_a_play(kind: str, answer: dict) -> dict:
        if kind == "legal-plays" and len(answer["positions"]) > 1:
            return {**answer, "positions": answer["positions"][1:]}
        return answer

    found = replay(exported, drop_a_play)
    assert any("legal-plays: positions" in p for ps in found.values() for p in ps)
    assert any("legal-plays: count" in p for ps in found.values() for p in ps)
