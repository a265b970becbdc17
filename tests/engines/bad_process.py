"""A protocol engine that misbehaves on purpose, for the fault corpus: python bad_process.py MODE.

It answers as the reference engine does (through `gammonspec serve`'s own `answer`), except where
MODE says otherwise: `hello-*` modes break the handshake, the others the first request (or, for
`stray-*`, write an extra line after the first answer; `stale-id` answers each request after the
first with the id of the one before; `renamed-after-crash` crashes once, leaving a file `crashed-once` in the
current folder, and its next process declares another name and rulesets; `late-stray` writes a log line of
its first answer only when the second request comes, before answering it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from gammonspec.conformance.harness.protocol import answer
from gammonspec.reference import ReferenceEngine

MODE = sys.argv[1]
HELLO = {"type": "hello", "protocol": "1.0", "name": "bad", "version": "0", "rulesets": ["backgammon"]}


def say(line: str | bytes) -> None:
    out = sys.stdout.buffer
    out.write(line if isinstance(line, bytes) else line.encode())
    out.write(b"\n")
    out.flush()


def hello() -> dict:
    changes = {
        "hello-proto2": {"protocol": "2.0"},
        "hello-no-rulesets": {"rulesets": []},
        "hello-unknown-rulesets": {"rulesets": ["bg-classic", "tavla"]},
        "hello-some-unknown-rulesets": {"rulesets": ["backgammon", "tavla"]},
        "hello-extra-field": {"author": "me", "homepage": "https://example.org"},
        "hello-unknown-capability": {"capabilities": ["legal-plays", "teleport"]},
        "hello-misspelt-capability": {"capabilities": ["legal_plays"]},
        "hello-game-result-only": {"capabilities": ["game-result"]},
        "hello-bad-name": {"name": 7},
        "hello-name-of-two-lines-and-a-megabyte": {"name": "bad\nengine " + "n" * 1_000_000},
        "hello-100000-unknown-rulesets": {"rulesets": ["backgammon", *(f"house-{i}" for i in range(100_000))]},
        "hello-100000-unknown-fields": {f"x-{i}": i for i in range(100_000)},
        "hello-profile-named-as-ruleset": {
            "rulesets": ["backgammon", "house"],
            "profiles": [{"name": "house", "base": "backgammon", "switches": {}}],
        },
        "hello-profile-named-backgammon": {"profiles": [{"name": "backgammon", "base": "backgammon", "switches": {}}]},
    }
    if MODE == "renamed-after-crash" and os.path.exists("crashed-once"):  # the restarted process is another engine
        changes[MODE] = {"name": "other", "rulesets": ["backgammon", "narde-guide"]}
    message = {**HELLO, **changes.get(MODE, {})}
    if MODE == "hello-no-name":
        del message["name"]
    return message


def handshake() -> None:
    if MODE == "hello-exit":
        print("bad-process: giving up before the handshake", file=sys.stderr)
        sys.exit(5)
    if MODE == "hello-hang":
        time.sleep(600)
    if MODE == "hello-stderr-flood":
        sys.stderr.write("x" * 99 + "\n" * 1 + ("y" * 1000 + "\n") * 10_000)  # 10 MB, far over a pipe's buffer
        sys.stderr.flush()
    special = {
        "hello-garbage": b"Welcome to BadGammon!",
        "hello-not-utf8": b'{"type": "hello", "name": "caf\xe9"}',
        "hello-bom": b"\xef\xbb\xbf" + json.dumps(HELLO).encode(),
        "hello-plays": b'{"type": "plays", "id": "1", "positions": []}',
        "hello-error": b'{"type": "error", "message": "no licence key found in ~/.badgammon"}',
        "hello-skip": b'{"type": "skip", "reason": "this build plays no backgammon"}',
    }
    say(special.get(MODE) or json.dumps(hello()))
    if MODE == "hello-twice":
        say(json.dumps(hello()))


def misbehave(message: dict, reply: dict) -> bool:
    """Do MODE's fault instead of answering; False when MODE answers normally."""
    rid = message["id"]
    if MODE == "closes-output":  # and goes on running, as if it still had something to say
        print("bad-process: closing stdout", file=sys.stderr, flush=True)
        os.close(1)
        time.sleep(600)
    if MODE == "exit-leaving-child":  # the child holds stdout open after the engine is gone
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        sys.exit(4)
    if MODE == "crash" or MODE == "renamed-after-crash" and not os.path.exists("crashed-once"):
        open("crashed-once", "w").close()
        raise RuntimeError("bad engine crashed")
    if MODE == "exit-3":
        sys.exit(3)
    if MODE == "hang":
        time.sleep(600)
    if MODE == "hang-with-child":
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])  # holds the pipes
        time.sleep(600)
    lines = {
        "garbage": b"thinking... done!",
        "not-utf8": b'{"type": "error", "id": "' + rid.encode() + b'", "message": "\xff\xfe"}',
        "bom": b"\xef\xbb\xbf" + json.dumps(reply).encode(),
        "wrong-id": json.dumps({**reply, "id": "x" + rid}).encode(),
        "wrong-type": json.dumps({"type": "game-result", "id": rid, "result": None}).encode(),
        "upper-type": json.dumps({**reply, "type": reply["type"].upper()}).encode(),
        "positions-object": json.dumps({**reply, "positions": dict(enumerate(reply.get("positions", [])))}).encode(),
        "ansi-error": json.dumps({"type": "error", "id": rid, "message": "\x1b[31mred alert\x1b[0m\x07"}).encode(),
        "skip-all": json.dumps({"type": "skip", "id": rid, "reason": "not today"}).encode(),
        "error-huge": json.dumps({"type": "error", "id": rid, "message": "E" * 3_000_000}).encode(),
        "no-id": json.dumps({k: v for k, v in reply.items() if k != "id"}).encode(),
        "extra-field": json.dumps({**reply, "debug": {"nodes": 12}}).encode(),
        "deep": b'{"type": "plays", "id": "'
        + rid.encode()
        + b'", "positions": '
        + b"[" * 100_000
        + b"]" * 100_000
        + b"}",
        "long-number": b'{"type": "plays", "id": "' + rid.encode() + b'", "positions": ' + b"9" * 100_000 + b"}",
    }
    if MODE in lines:
        say(lines[MODE])
        return True
    if reply["type"] != "plays":
        return False
    position = message["state"]["position"]
    if MODE == "huge":  # 100,000 positions, about 15 MB on one line
        say(json.dumps({"type": "plays", "id": rid, "positions": [position] * 100_000}))
    elif MODE == "many":  # 10,001 positions, under the line limit
        say(json.dumps({"type": "plays", "id": rid, "positions": [position] * 10_001}))
    elif MODE == "sixteen":
        position["white"][0] += 1
        say(json.dumps({"type": "plays", "id": rid, "positions": [position]}))
    elif MODE == "short-points":
        position["white"] = position["white"][:23]
        say(json.dumps({"type": "plays", "id": rid, "positions": [position]}))
    else:
        return False
    return True


def main() -> int:
    engine = ReferenceEngine()
    if MODE == "stderr-not-utf8":
        os.write(2, b"bad-process: \xff\xfe not UTF-8 \x1b[1m\n")
    sys.stdin.readline()  # the runner's hello
    handshake()
    done = False
    previous = None  # the id of the request before this one, for stale-id
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "bye":
            return 0
        reply = answer(engine, message)
        if MODE == "blank-lines":
            say(b"")
            say(b"   ")
        if MODE == "stderr-not-utf8":
            os.write(2, b"\xc3\x28 \xff" * 100 + b"\n")
        if not done and misbehave(message, reply):
            done = MODE not in ("skip-all", "extra-field")
            continue
        if MODE == "stale-id" and previous is not None:  # every answer after the first carries the previous id
            reply, previous = {**reply, "id": previous}, message["id"]
            say(json.dumps(reply))
            continue
        if MODE == "late-stray" and previous is not None and not done:  # the first answer's log line, written late
            done = True
            say("DEBUG: answered " + previous)
        previous = message["id"]
        if MODE.startswith("stray-") and not done:  # the answer and the extra line in one write
            done = True
            extra = json.dumps(reply) if MODE == "stray-duplicate" else "DEBUG: answered " + message["id"]
            say(json.dumps(reply) + "\n" + extra)
            continue
        say(json.dumps(reply))
    return 0


if __name__ == "__main__":
    sys.exit(main())
