"""Shared helpers for the harness tests: a small hand-derived suite, fake engines, layout builders."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from gammonspec.conformance.harness.cases import Case, Loaded, load_file
from gammonspec.model.rulesets import rulesets
from gammonspec.model.state import CHECKERS, SIDES, Layout
from hypothesis import settings

# No test depends on wall-clock speed: hypothesis never fails an example for taking long.
settings.register_profile("gammonspec", deadline=None)
settings.load_profile("gammonspec")

def _rule_functions() -> dict[tuple[str, str], object]:
    """Every attribute of the reference engine's modules and classes, as this process has them now."""
    import gammonspec.reference as package
    from gammonspec.reference import ReferenceEngine
    from gammonspec.reference.rules import Movement

    owners = {n: m for n, m in sys.modules.items() if n.startswith("gammonspec.reference")}
    owners |= {"ReferenceEngine": ReferenceEngine, "Movement": Movement, "package": package}
    return {(n, a): v for n, o in owners.items() for a, v in vars(o).items() if not a.startswith("__")}


_PRISTINE = _rule_functions()


@pytest.fixture(autouse=True)
def _no_mutant_left_behind(request):
    """A test that leaves a rule mutant applied (a thread still in it, patches undone out of order) fails itself,
    not the tests that run after it in the same process."""
    yield
    left = sorted(f"{n}.{a}" for (n, a), v in _rule_functions().items() if (n, a) in _PRISTINE and _PRISTINE[n, a] is not v)
    assert not left, f"{request.node.nodeid} left rule functions patched: {', '.join(left)}"


ENGINES = Path(__file__).resolve().parent / "engines"
if str(ENGINES) not in sys.path:
    sys.path.insert(0, str(ENGINES))  # so `fake_engines:DropOne` loads as an engine spec

# A small backgammon suite whose expectations are derived by hand (see each derivation).  The 4-4 roll
# appears only in mini-count-44: the fake engines misbehave on that request and nowhere else.
MINI_SUITE = """\
game: backgammon
group: harness self-test
cases:
  - id: mini-spread-65
    rules: [bg.move.closed-point]
    title: fifteen on the 13-point, 6-5
    position: {white: {13: 15}, black: {24: 15}}
    turn: white
    roll: [6, 5]
    expect:
      plays: ["13/7 13/8", "13/2"]
    derivation: >-
      By hand: only the 13-point moves; white's 1 is black's 24 (closed). Two checkers 13/7 13/8,
      or one checker 13/2 (via 7 or 8, the same position).
  - id: mini-hit-65
    rules: [bg.hit.blot]
    title: a blot on white's 18, black's 19 closed
    position: {white: {24: 1, 13: 14}, black: {7: 1, 6: 14}}
    turn: white
    roll: [6, 5]
    expect:
      plays: ["24/18*/13", "24/18* 13/8", "13/7 13/8", "13/2"]
    derivation: >-
      By hand: white's 18 is black's 7 (a blot), white's 19 is black's 6 (closed), so 24/19 is out.
      6s: 24/18*, 13/7; 5s: 13/8, or 18/13 after the hit, or 7/2. Distinct positions: four.
  - id: mini-count-44
    rules: [bg.move.doubles]
    title: 4-4 from the 13-point, the 1-point closed
    position: {white: {13: 15}, black: {24: 15}}
    turn: white
    roll: [4, 4]
    expect:
      count: 3
      includes: ["13/5(2)"]
      excludes: [{play: "13/9(3)", reason: all-dice-required}]
    derivation: >-
      By hand: four 4s from 13 go to 9 or 5 (1 is closed); a moves of one step and b of two with
      a + 2b = 4: (4,0), (2,1), (0,2): three positions.
  - id: mini-dance
    rules: [bg.bar.enter-first]
    title: on the bar against a closed 19 and 20
    position: {white: {bar: 1, 13: 14}, black: {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 5}}
    turn: white
    roll: [6, 5]
    expect:
      no_play: true
    derivation: >-
      By hand: white enters on 19 (6) or 20 (5), black's 6- and 5-points, both held; nothing else may move.
  - id: mini-gammon
    rules: [bg.score.gammon]
    query: game-result
    title: white off, black none off
    position: {white: {off: 15}, black: {12: 15}}
    turn: black
    expect:
      result: {winner: white, kind: gammon, points: 2}
    derivation: >-
      By hand: white bore off all; black bore off none and has nothing in white's home (black's 19-24).
  - id: mini-not-over
    rules: [bg.object]
    query: game-result
    title: the start is not over
    position: start
    turn: white
    expect:
      not_over: true
    derivation: By hand, nobody has borne off anything.
"""

MINI_IDS = ["mini-spread-65", "mini-hit-65", "mini-count-44", "mini-dance", "mini-gammon", "mini-not-over"]


def dedent(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


@pytest.fixture
def write(tmp_path: Path):
    """write(name, text) -> path of a (dedented) file under tmp_path."""

    def _write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dedent(text), encoding="utf-8")
        return path

    return _write


@pytest.fixture
def mini_path(tmp_path: Path) -> Path:
    path = tmp_path / "mini" / "mini.yaml"
    path.parent.mkdir()
    path.write_text(MINI_SUITE, encoding="utf-8")
    return path


@pytest.fixture
def mini(mini_path: Path) -> list[Case]:
    return load_file(mini_path)


@pytest.fixture
def mini_cli(monkeypatch: pytest.MonkeyPatch, mini: list[Case]) -> list[Case]:
    """The CLI sees the mini suite and the one backgammon ruleset."""
    monkeypatch.setattr("gammonspec.conformance.harness.cases.shipped", lambda: Loaded(tuple(mini), ()))
    monkeypatch.setattr("gammonspec.conformance.commands.rulesets", lambda: {"backgammon": rulesets()["backgammon"]})
    return mini


def layout(game: str, white: dict, black: dict) -> Layout:
    """A layout from {own point: count, 'bar': n, 'off': n} per side; off defaults to the rest."""
    pts, bar, off = {}, {}, {}
    for side, given in zip(SIDES, (white, black)):
        pts[side] = tuple(given.get(p, 0) for p in range(1, 25))
        bar[side] = given.get("bar", 0)
        off[side] = given.get("off", CHECKERS - sum(pts[side]) - bar[side])
    return Layout(game, pts["white"], pts["black"], (bar["white"], bar["black"]), (off["white"], off["black"]))


def request_key(message: dict) -> str:
    """How tests/engines/fake_process.py looks up a recorded answer: the request without its id."""
    return json.dumps({k: v for k, v in message.items() if k != "id"}, sort_keys=True)


@pytest.fixture(scope="session")
def answer_table(tmp_path_factory) -> Path:
    """The reference engine's protocol replies to every request of the mini suite, for fake_process.py.

    Recorded through SubprocessEngine's own request building, with the process replaced by
    protocol.answer, so the keys are exactly what the fake process will be sent."""
    from gammonspec.conformance.harness.protocol import answer
    from gammonspec.conformance.harness.runner import Filters, plan, run
    from gammonspec.conformance.harness.subprocess_engine import SubprocessEngine
    from gammonspec.model import PROTOCOL_VERSION
    from gammonspec.model.rulesets import rulesets
    from gammonspec.reference import ReferenceEngine

    reference = ReferenceEngine()
    answers: dict[str, dict] = {}

    class Recorder(SubprocessEngine):
        def _start(self) -> None:
            self._proc = type("Alive", (), {"poll": staticmethod(lambda: None)})()
            self._info = reference.info()

        def _exchange(self, message, expect_id, limit, label, convert=lambda reply: reply):
            message = json.loads(json.dumps(message))
            reply = answer(reference, message)
            answers[request_key(message)] = {k: v for k, v in reply.items() if k != "id"}
            return convert(reply)

        def close(self) -> None:
            pass

    folder = tmp_path_factory.mktemp("answers")
    (folder / "mini.yaml").write_text(MINI_SUITE, encoding="utf-8")
    outcomes = list(
        run(
            Recorder("recorder"),
            plan(load_file(folder / "mini.yaml"), {"backgammon": rulesets()["backgammon"]}, Filters()),
        )
    )
    assert all(o.status == "passed" for o in outcomes), [(o.case.id, o.message) for o in outcomes]
    path = folder / "answers.json"
    path.write_text(
        json.dumps({"protocol": PROTOCOL_VERSION, "rulesets": list(reference.info().rulesets), "answers": answers})
    )
    return path


@pytest.fixture
def fake_cmd(answer_table):
    """fake_cmd(mode, trigger="4-4") -> the command line of a misbehaving protocol engine."""

    def _cmd(mode: str, trigger: str = "4-4") -> str:
        args = (sys.executable, str(ENGINES / "fake_process.py"), mode, trigger, str(answer_table))
        return " ".join(shlex.quote(a) for a in args)

    return _cmd


def pytest_terminal_summary(terminalreporter) -> None:
    """The fault corpus's size: kinds per class (tests/fault_corpus.py); then the benchmark lines tests recorded."""
    from collections import Counter

    from fault_corpus import CLASSES, corpus

    counts = Counter(f.fault_class for f in corpus())
    line = ", ".join(f"{c} {counts[c]}" for c in CLASSES)
    terminalreporter.write_line(f"fault corpus: {sum(counts.values())} kinds ({line})")
    for reports in terminalreporter.stats.values():  # benchmark figures a test recorded (it asserts none of them)
        for report in reports:
            for key, value in getattr(report, "user_properties", []) if getattr(report, "when", "") == "call" else []:
                if key == "benchmark":
                    terminalreporter.write_line(value)


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built strictly once per test process (the site tests of every module read it)."""
    pytest.importorskip("mkdocs", reason="the site extra is not installed")
    out = tmp_path_factory.mktemp("site")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "-q",
            "-f",
            str(Path(__file__).resolve().parent.parent / "site" / "mkdocs.yml"),
            "-d",
            str(out),
        ],
        capture_output=True,
        text=True,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode == 0, run.stderr
    return out
