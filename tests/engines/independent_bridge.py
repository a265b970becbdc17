"""A protocol engine in front of the independent Narde-family enumerator, with planted rule changes: a control.

    python tests/engines/independent_bridge.py [SWITCH=VALUE ...] [--seed N]

It speaks the JSON-lines protocol of spec/protocol.md itself (no gammonspec harness on the wire) and answers
`legal-plays` for Narde and Crazy Narde with tests/independent_crazy.py, which shares no code with the
reference engine, playing each request's switch values with the SWITCH=VALUE changes planted over them (e.g.
`head-rule=none six-block=allowed`); its `next-segment` is the enumerator's too.  It lists its positions in
an order shuffled by `--seed`: the protocol's positions are a set, so a tool that credits an answer must
compare it as one.  It declares the rulesets it is asked as; what it plays is the request's rules changed.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import independent_crazy  # noqa: E402
from gammonspec.model.rulesets import Rules  # noqa: E402
from gammonspec.model.state import Layout, State  # noqa: E402

RULESETS = ["narde-guide", "narde-variant", "crazy-narde", "gul-bara"]


def planted(rules: dict, changes: dict[str, str]) -> Rules:
    read = Rules.from_wire(rules)
    return Rules(read.ruleset, read.game, {**read.switches, **changes}, read.options, read.profile)


def segment_of(state: State) -> tuple[tuple[int, ...], str, bool]:
    """The numbers to play now, the turn's owner and whether they are passed."""
    if state.segment is None:
        return tuple(independent_crazy.numbers_of(state.dice)), state.turn, False
    return state.segment.numbers, state.segment.owner, state.segment.passed


def reply(request: dict, changes: dict[str, str], rng: random.Random) -> dict:
    kind, rid = request["type"], request["id"]
    rules = planted(request["rules"], changes)
    state = State.from_wire(request["state"], rules.switch.hitting or None)
    numbers, owner, passed = segment_of(state)
    args = (state.layout, state.turn, numbers, state.dice, state.context, rules)
    if kind == "legal-plays":
        keys = sorted(independent_crazy.segment_results(*args, passed))
        rng.shuffle(keys)
        return {"type": "plays", "id": rid, "positions": [Layout.from_key(state.game, k).to_wire() for k in keys]}
    if kind == "next-segment":
        follow = independent_crazy.as_segment(independent_crazy.next_segment(*args, owner, passed))
        return {"type": "next-segment", "id": rid, "next": None if follow is None else follow.to_wire()}
    return {"type": "skip", "id": rid, "reason": f"{kind} is not answered"}


def main(argv: list[str]) -> int:
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 0
    words = [a for i, a in enumerate(argv) if a != "--seed" and (i == 0 or argv[i - 1] != "--seed")]
    changes = dict(word.split("=", 1) for word in words)
    rng = random.Random(seed)
    for line in sys.stdin:
        request = json.loads(line)
        if request["type"] == "bye":
            return 0
        if request["type"] == "hello":
            planted_ = " ".join(f"{k}={v}" for k, v in changes.items()) or "nothing"
            answer = {
                "type": "hello",
                "protocol": "1.1",
                "name": "independent-bridge",
                "version": f"planted {planted_}, seed {seed}",
                "rulesets": RULESETS,
                "capabilities": ["legal-plays", "next-segment"],
            }
        else:
            try:
                answer = reply(request, changes, rng)
            except Exception as exc:  # noqa: BLE001 - said on the wire, as the protocol's error answer
                answer = {"type": "error", "id": request.get("id", ""), "message": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
