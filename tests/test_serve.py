"""`gammonspec serve`, the protocol's server side: the hello, each query answered, errors and bad states, the
protocol's helpers, and every request the runner sends checked against the schema."""

from __future__ import annotations

import io
import json

import pytest
from gammonspec.conformance.harness.cases import suite
from gammonspec.conformance.harness.protocol import ProtocolError, compatible, decode, serve
from gammonspec.conformance.harness.runner import Filters, plan
from gammonspec.conformance.harness.subprocess_engine import SubprocessEngine
from gammonspec.model import PROTOCOL_VERSION
from gammonspec.model.rulesets import rulesets
from gammonspec.model.state import State, start_layout
from gammonspec.reference import ReferenceEngine

# The request limit for the "hang" fakes. It only has to run out for a fake that never answers;
# every other answer comes in milliseconds, and a new process's handshake has its own generous
# limit (STARTUP_TIMEOUT), so a loaded machine cannot make these tests fail.
TIMEOUT = 3.0


def converse(*messages, engine=None) -> tuple[list[dict], int]:
    stdin = io.StringIO("".join((m if isinstance(m, str) else json.dumps(m)) + "\n" for m in messages))
    stdout = io.StringIO()
    code = serve(engine or ReferenceEngine(), stdin, stdout)
    return [json.loads(line) for line in stdout.getvalue().splitlines()], code


def query(kind: str, rid: str, state: State) -> dict:
    rules = rulesets()["backgammon"].rules()
    return {"type": kind, "id": rid, "rules": rules.to_wire(), "state": state.to_wire()}


def test_serve_answers_hello_and_queries(capsys):
    start = State(start_layout("backgammon"), "white", (6, 5))
    replies, code = converse(
        {"type": "hello", "protocol": PROTOCOL_VERSION, "suite": "0"},
        "this is not json",
        "",
        query("legal-plays", "a", start),
        query("game-result", "b", start),
        {"type": "bye"},
        query("legal-plays", "after-bye", start),
    )
    assert code == 0
    assert [r["type"] for r in replies] == ["hello", "plays", "game-result"]
    hello = replies[0]
    assert hello["protocol"] == PROTOCOL_VERSION and hello["name"] == "gammonspec-reference"
    assert "backgammon" in hello["rulesets"]
    assert replies[1]["id"] == "a" and len(replies[1]["positions"]) == 7  # the opening 6-5
    assert replies[2] == {"type": "game-result", "id": "b", "result": None}
    assert "ignoring bad message" in capsys.readouterr().err
    for reply in replies:
        decode(json.dumps(reply), "from_engine")  # every reply is a valid protocol message


def test_serve_reports_engine_errors_and_bad_states(capsys):
    import fake_engines

    four = State(start_layout("backgammon"), "white", (4, 4))
    bad = query("legal-plays", "bad", four)
    bad["state"]["position"]["white"][0] = 1  # sixteen checkers
    replies, _ = converse(
        query("legal-plays", "x", four), query("legal-plays", "skip", four), bad, engine=fake_engines.Raises()
    )
    assert replies[0]["type"] == "error" and replies[0]["message"].startswith("RuntimeError: kaboom on 4-4 (at ")
    assert "kaboom" in capsys.readouterr().err  # the traceback goes to stderr
    assert replies[2]["type"] == "error" and replies[2]["message"].startswith("bad state:")
    replies, _ = converse(query("legal-plays", "s", four), engine=fake_engines.Skips())
    assert replies == [{"type": "skip", "id": "s", "reason": "4-4 is not implemented"}]


def test_serve_warns_on_an_incompatible_runner(capsys):
    replies, _ = converse({"type": "hello", "protocol": "9.0", "suite": "0"})
    assert replies[0]["type"] == "hello"
    assert "runner speaks protocol 9.0" in capsys.readouterr().err


def test_protocol_helpers():
    assert compatible(PROTOCOL_VERSION) and compatible(PROTOCOL_VERSION.split(".")[0] + ".99")
    assert not compatible("999.0")
    with pytest.raises(ProtocolError, match="not JSON"):
        decode("{nope", "from_engine")
    with pytest.raises(ProtocolError):
        decode(json.dumps({"type": "plays", "id": "1"}), "from_engine")  # no positions


@pytest.mark.parametrize(
    "line",
    [
        '{"n": 123456789012345678901234567890, "m": -9223372036854775809}',  # past 64 bits: ints, not floats
        '{"n": 18446744073709551615, "x": 0.1, "y": 1e400, "z": NaN}',
        '{"s": "\\udfff", "t": "\\u00e9", "a": 1, "a": 2}',
        '{"points": [0, 2, 0, 0, 0, 5], "ok": true, "none": null}',
        "[1,]",
        '{"a": 1} x',
    ],
)
def test_protocol_lines_read_as_json_reads_them(line: str) -> None:
    """The fast reader (orjson, where installed) reads every line as json does and fails where json fails."""
    from gammonspec.conformance.harness.protocol import _loads

    try:
        expected: object = json.loads(line)
    except json.JSONDecodeError:
        with pytest.raises(json.JSONDecodeError):
            _loads(line)
        return
    got = _loads(line)
    assert repr(got) == repr(expected)  # repr: NaN and float-against-int differences show


def test_every_request_the_runner_sends_is_schema_valid() -> None:
    """The runner does not re-check its own requests at run time; this test does, for every query of the suite."""
    from gammonspec.conformance.harness import protocol
    from gammonspec.conformance.harness.runner import run_one
    from gammonspec.model.rulesets import rulesets
    from gammonspec.reference import ReferenceEngine

    sent: list[dict] = []
    reference = ReferenceEngine()

    class Live:  # stands in for a running process
        def poll(self) -> None:
            return None

    class Recorder(SubprocessEngine):
        def _exchange(self, message, expect_id, limit, label, convert=lambda reply: reply):  # type: ignore[override]
            sent.append(message)
            return convert(protocol.answer(reference, message))

    engine = Recorder("unused")
    engine._proc = Live()  # type: ignore[assignment]
    outcomes = [run_one(engine, case, ruleset) for case, ruleset in plan(suite(), rulesets(), Filters())]
    assert all(o.status == "passed" for o in outcomes), [o.message for o in outcomes if o.status != "passed"][:3]
    assert {m["type"] for m in sent} == {
        "legal-plays",
        "game-result",
        "opening",
        "next-segment",
        "may-double",
        "cube-action",
        "match-after-game",
    }
    for message in sent:
        protocol.check("to_engine", message)


# --- reports of engine faults --------------------------------------------------------------------
