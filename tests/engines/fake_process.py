"""A protocol engine that misbehaves on purpose: python fake_process.py MODE TRIGGER ANSWERS.

Standard library only, so it starts fast.  It answers from ANSWERS, a JSON file of the reference
engine's recorded replies (see conftest.answer_table), except on requests whose dice are TRIGGER
(e.g. 4-4), where MODE decides what goes wrong.  Handshake modes (exit-at-start, proto2,
garbage-hello, hang-at-hello) fail before any request.  Every process says on stderr that it started."""

from __future__ import annotations

import json
import sys
import time

MODE, TRIGGER, ANSWERS = sys.argv[1], sys.argv[2], sys.argv[3]


def warn(text: str) -> None:
    print(f"fake-engine[{MODE}]: {text}", file=sys.stderr, flush=True)


def say(message: object) -> None:
    sys.stdout.write((message if isinstance(message, str) else json.dumps(message)) + "\n")
    sys.stdout.flush()


def key(message: dict) -> str:
    return json.dumps({k: v for k, v in message.items() if k != "id"}, sort_keys=True)


def main() -> int:
    warn("started")
    if MODE == "exit-at-start":
        warn("exiting before the handshake")
        return 4
    with open(ANSWERS, encoding="utf-8") as f:
        table = json.load(f)
    answers = table["answers"]
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "bye":
            return 0
        if message["type"] == "hello":
            if MODE == "garbage-hello":
                say("Welcome to FakeGammon 3000!")
                continue
            if MODE == "hang-at-hello":
                warn("thinking about the handshake")
                time.sleep(30)
            say(
                {
                    "type": "hello",
                    "protocol": "2.0" if MODE == "proto2" else table["protocol"],
                    "name": f"fake-{MODE}",
                    "version": "0.0",
                    "rulesets": table["rulesets"],
                }
            )
            continue
        rid = message["id"]
        reply = answers.get(key(message), {"type": "error", "message": "no recorded answer"})
        reply = {**reply, "id": rid}
        dice = "-".join(map(str, message.get("state", {}).get("dice", [])))
        if dice != TRIGGER:
            say(reply)
        elif MODE == "crash":
            warn("crashing on purpose")
            raise RuntimeError("fake engine crashed")
        elif MODE == "exit":
            warn("exiting quietly")
            return 0
        elif MODE == "hang":
            warn("hanging on purpose")
            time.sleep(30)
        elif MODE == "garbage":
            warn("printing garbage")
            say("<<this is not json>>")
        elif MODE == "wrong-id":
            warn("answering another request")
            say({**reply, "id": "not-" + rid})
        elif MODE == "error":
            warn("reporting an error")
            say({"type": "error", "id": rid, "message": "4-4 is beyond me"})
        elif MODE == "skip":
            say({"type": "skip", "id": rid, "reason": "no doubles today"})
        elif MODE == "bad-position":
            warn("answering an impossible position")
            position = message["state"]["position"]
            position["white"][0] += 1  # sixteen checkers
            say({"type": "plays", "id": rid, "positions": [position]})
        else:
            say(reply)
    return 0


if __name__ == "__main__":
    sys.exit(main())
