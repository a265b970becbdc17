"""What `gammonspec fuzz` writes: a draft case per failure, the text report, the JSON report."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml
from gammonspec.conformance.harness.board import draw
from gammonspec.conformance.harness.cases import load, shipped
from gammonspec.conformance.harness.runner import Target
from gammonspec.conformance.harness.steps import next_spec, numbers
from gammonspec.conformance.tools.fuzz import ORACLE, Answers, Campaign, Failure, ask, flips
from gammonspec.conformance.tools.fuzz_queries import CAPABILITY, Question, wire
from gammonspec.model.clauses import clauses
from gammonspec.model.interface import Opening
from gammonspec.model.narde_ids import position_id
from gammonspec.model.notation import spell
from gammonspec.model.rulesets import Rules, game_hitting
from gammonspec.model.state import CHECKERS, SIDES, Cube, Layout, Match, Side, State, StateError, other, start_layout
from gammonspec.model.terminal import clipped


def _spelled(state: State, layout: Layout, hitting: bool | None) -> str | None:
    return spell(state.layout, layout, state.turn, numbers(state), hitting)


def plays_text(state: State, keys: Iterable[str], layouts: dict[str, Layout], hitting: bool | None = None) -> list[str]:
    """The plays in move notation made from the numbers to play (as the position left where none makes it)."""
    shown = []
    for key in keys:
        spelled = _spelled(state, layouts[key], hitting)
        shown.append(spelled if spelled is not None else f"(position {key}: no moves of the numbers make it)")
    return sorted(shown)


def case_plays(
    state: State, keys: Iterable[str], layouts: dict[str, Layout], hitting: bool | None, positions: bool = False
) -> list[Any]:
    """The plays as a case file writes them: notation, or the resulting position where notation cannot write one
    (every one, with `positions`)."""
    written: list[Any] = []
    for key in sorted(keys):
        spelled = None if positions else _spelled(state, layouts[key], hitting)
        written.append(spelled or {"position": {side: _side_spec(layouts[key], side) for side in SIDES}})
    return sorted(written, key=lambda p: (not isinstance(p, str), str(p)))


def _wire(f: Failure, answers: Answers) -> dict[str, Any] | None:
    """An answer on the failure's next segment or result as the protocol writes it (None for plays, shown apart)."""
    value = None if f.aspect == "plays" else answers.values[f.aspect]
    if f.aspect in CAPABILITY:
        return wire(f.aspect, value)
    return None if value is None else value.to_wire()


def missing_extra(f: Failure) -> tuple[list[str], list[str]]:
    if f.aspect != "plays":
        return [], []
    want, got = f.expected.values["plays"], f.got.values["plays"]
    return plays_text(f.state, want - got, f.expected.layouts), plays_text(f.state, got - want, f.got.layouts)


def _side_spec(layout: Layout, side: Side) -> dict[Any, int]:
    spec: dict[Any, int] = {p: n for p, n in enumerate(layout.points(side), 1) if n}
    if layout.on_bar(side):
        spec["bar"] = layout.on_bar(side)
    return spec


def _pins(f: Failure, rules: Rules, target: Target) -> tuple[dict[str, str], dict[str, Any]]:
    """The switches and options whose flip changes the reference engine's answer: what the draft requires."""
    requires: dict[str, str] = {}
    options: dict[str, Any] = {}
    for name, flipped in flips(target).items():
        try:
            changed = ask(ORACLE, f.state, flipped, [f.aspect]).values != {f.aspect: f.expected.values[f.aspect]}
        except (StateError, KeyError, ValueError):
            changed = True
        if changed:
            key = name.split("=")[0]
            if key in rules.switches:
                requires[key] = rules.switches[key]
            else:
                options[key] = rules.options[key]
    return requires, options


def _rule_ids(game: str, f: Failure) -> list[str]:
    """The clauses a draft is about: those the shipped cases pinning the explaining switches cover, or, for a bug,
    the clauses whose IDs name what the disagreeing plays do."""
    cases = [c for c in shipped().cases if c.game == game]
    prefixes = Counter(r.split(".")[0] for c in cases for r in c.rule_ids)
    prefix = prefixes.most_common(1)[0][0] if prefixes else "bg"
    known = clauses()
    broken = list(dict.fromkeys(r.rule for r in f.sound if r.rule in known))  # the rule IDs of matching mutants
    switches = {r.name.split("=")[0] for r in f.sound if not r.rule}
    if switches:
        found = Counter(r for c in cases if switches & set(c.requires) for r in c.rule_ids)
        return list(dict.fromkeys([*broken, *(r for r, _ in found.most_common(2))]))[:3] or [prefix + ".object"]
    if broken:
        return broken[:3]
    words = {
        "bears off": "bearoff",
        "enters": "bar",
        "hits": "hit",
        "leaves the head twice": "head",
        "builds a six-block": "block",
        "stops short": "move",
        "no move": "move.no-play",
        "plays": "move",
    }
    topic = {
        "next": ("doubles", "unplayable", "chain"),
        "result": ("score", "end", "object"),
        "opening": ("opening",),
        "may-double": ("cube",),
        "double": ("cube",),
        "next-game": ("match",),
    }.get(f.aspect)
    fragments = topic or tuple(dict.fromkeys(w for tag in f.features for k, w in words.items() if tag.endswith(k)))
    ids = [c for c in sorted(clauses()) if c.startswith(prefix + ".") and any(f".{w}" in c for w in fragments)]
    return ids[:2] or [prefix + ".object"]


def draft_hitting(game: str, requires: dict[str, str]) -> bool:
    """The hitting switch a draft's plays are read under: as it pins it, or as its game's rulesets have it."""
    return requires["hitting"] == "blots" if "hitting" in requires else game_hitting(game)


def draft_case(
    f: Failure, target: Target, seed: int, engine: str, number: int, positions: bool = False
) -> dict[str, Any]:
    """The failure as a case file (a mapping to write as YAML), marked as a draft; `positions`: every play written
    as the position it leaves."""
    s, rules = f.state, target.rules()
    requires, options = _pins(f, rules, target)
    missing, extra = missing_extra(f)
    case: dict[str, Any] = {
        "id": f"fuzz-{target.name}-{seed}-{number}".lower().replace("+", "-").replace("=", "-"),
        "draft": "fuzz",
        "rules": _rule_ids(s.game, f),
        "title": f"Found by fuzzing: {f.title}"[:200],
    }
    if f.aspect == "result":
        case["query"] = "game-result"
    if isinstance(s, Question):
        case["query"] = "scenario"
    if requires:
        case["requires"] = requires
    if options:
        case["options"] = options
    if isinstance(s, Question):
        return case | question_case(f, rules, seed, engine)
    case["position"] = {side: _side_spec(s.layout, side) for side in SIDES}
    case["turn"] = s.turn
    case["roll"] = list(s.dice)
    case["context"] = s.context.to_wire()
    case |= _cube_and_match(s)
    if s.segment is not None:
        case["segment"] = s.segment.to_wire()
    if f.aspect == "result":
        r = f.expected.values["result"]
        case["expect"] = {"not_over": True} if r is None else {"result": r.to_wire()}
    else:
        plays = case_plays(
            s, f.expected.values["plays"], f.expected.layouts, draft_hitting(s.game, requires), positions
        )
        case["expect"] = {"no_play": True} if f.expected.values["plays"] == {s.layout.key()} else {"plays": plays}
        if f.aspect == "next":
            case["next"] = next_spec(f.expected.values["next"])
    case["derivation"] = (
        f"DRAFT from gammonspec fuzz (seed {seed}, a {f.kind} position, shrunk): the expectation is the reference "
        "engine's answer, not yet derived independently. Confirm it by hand or with an independent enumerator, "
        "say how here, and remove 'draft' before this case may enter the suite."
    )
    case["notes"] = (
        f"{engine} answered: missing {' | '.join(missing) or '-'}; extra {' | '.join(extra) or '-'}"
        if f.aspect == "plays"
        else f"{engine} answered {_wire(f, f.got)}, the reference engine {_wire(f, f.expected)}"
    )
    return case


def _cube_and_match(s: State) -> dict[str, Any]:
    """A state's cube and match as a case writes them, where they are not the default."""
    out: dict[str, Any] = {}
    if s.cube != Cube():
        out["cube"] = s.cube.to_wire()
    if s.match != Match():
        out["match"] = s.match.to_wire()
    return out


def question_steps(f: Failure, rules: Rules) -> list[dict[str, Any]]:
    """The scenario steps that ask a question (Question) and expect the reference engine's answer; a StateError
    where a scenario cannot ask it from its first state (an opening of a later game, a later segment of a turn, a
    game's end that its position does not give)."""
    q = f.state
    assert isinstance(q, Question)
    want = f.expected.values[f.aspect]
    if q.state.segment is not None:
        raise StateError("a question in a later segment of a turn: a scenario starts at a turn's first segment")
    if f.aspect == "opening":
        if q.game_number == 1:
            return [{"opening": dict(zip(SIDES, q.dice)), "expect": _opened(want)}]
        return second_game_steps(q, rules)
    if f.aspect == "may-double":
        return [{"may_double": want}]
    if f.aspect == "double":
        return [{"double": q.response, "expect": wire(f.aspect, want)}]
    assert q.result is not None  # a next-game question
    ending: dict[str, Any] = {"expect": {"result": q.result.to_wire()}}
    if q.result != ORACLE.game_result(q.state, rules):
        dropped = q.result.kind == "dropped" and q.result.winner == q.state.turn
        if not (dropped and ORACLE.may_double(q.state, rules)):
            raise StateError(f"the game's end {q.result.to_wire()} is not one its position gives")
        ending = {"double": "drop", "expect": {"result": q.result.to_wire()}}
    outcome = wire(f.aspect, want)
    return [ending, {"next_game": True, "expect": {k: v for k, v in outcome.items() if v or k == "score"}}]


def _opened(opening: Opening) -> dict[str, Any]:
    return {"starts": opening.starts, "dice": None if opening.dice is None else list(opening.dice)} | {
        "cube": opening.cube.to_wire()
    }


def finished_game(game: str, winner: Side) -> Layout:
    """The first game of a draft that asks the opening of the second: the winner has borne off all fifteen, the loser
    still stands at the start."""
    start, none = start_layout(game), (0,) * 24
    white, black = (none, start.black) if winner == "white" else (start.white, none)
    return Layout(game, white, black, (0, 0), (CHECKERS, 0) if winner == "white" else (0, CHECKERS))


def second_game_steps(q: Question, rules: Rules) -> list[dict[str, Any]]:
    """An opening of game 2 as a scenario: game 1 (finished_game, money play) ends, its result and the match after it
    are checked, then the opening is asked, each step expecting the reference engine's answer."""
    if q.game_number != 2 or q.previous_winner is None or q.state.match != Match() or q.state.cube != Cube():
        raise StateError(
            f"an opening of game {q.game_number} (previous winner {q.previous_winner}, match {q.state.match}, cube "
            f"{q.state.cube}): a draft reaches only game 2 of money play after a win, with the cube in the middle"
        )
    over = State(finished_game(q.game, q.previous_winner), other(q.previous_winner))
    result = ORACLE.game_result(over, rules)
    assert result is not None  # the winner has borne off all fifteen
    after = ORACLE.match_after_game(over, rules, result)
    match = Match(0, after.score, after.crawford)
    opened = ORACLE.opening(rules, dict(zip(SIDES, q.dice)), 2, q.previous_winner, Cube(), match)
    return [
        {"expect": {"result": result.to_wire()}},
        {"next_game": True, "expect": {"score": after.to_wire()["score"]}},
        {"opening": dict(zip(SIDES, q.dice)), "previous_winner": q.previous_winner, "expect": _opened(opened)},
    ]


def question_case(f: Failure, rules: Rules, seed: int, engine: str) -> dict[str, Any]:
    """The rest of a question's draft: the first state and the steps (question_steps)."""
    q = f.state
    assert isinstance(q, Question)
    s = q.state
    layout, turn = s.layout, s.turn
    if f.aspect == "opening" and q.game_number != 1 and q.previous_winner is not None:
        layout, turn = finished_game(s.game, q.previous_winner), other(q.previous_winner)
    case: dict[str, Any] = {"position": {side: _side_spec(layout, side) for side in SIDES}}
    if f.aspect != "opening" or layout != s.layout:
        case |= {"turn": turn, "context": s.context.to_wire()}
    case |= _cube_and_match(s)
    case["steps"] = question_steps(f, rules)
    case["derivation"] = (
        f"DRAFT from gammonspec fuzz (seed {seed}, a {f.kind} question): the expectation is the reference engine's "
        "answer, not yet derived independently. Confirm it by hand, say how here, and remove 'draft' before this "
        "case may enter the suite."
    )
    case["notes"] = f"{engine} answered {_wire(f, f.got)}, the reference engine {_wire(f, f.expected)}"
    return case


def write_draft(folder: Path, f: Failure, target: Target, seed: int, engine: str, number: int) -> Path:
    """Write the failure's draft case file and check that it loads (if its plays in notation do not, they are
    written as positions); its path."""
    folder.mkdir(parents=True, exist_ok=True)
    for positions in (False, True):
        case = draft_case(f, target, seed, engine, number, positions)
        path = folder / f"{case['id']}.yaml"
        data = {"game": f.state.game, "group": "Drafts found by fuzzing", "cases": [case]}
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110, default_flow_style=None)
        path.write_text(text, encoding="utf-8")
        loaded = load([path])
        if not loaded.errors:
            return path
    raise StateError(f"the draft {path} does not load: {loaded.errors[0]}")


def board_text(f: Failure) -> str:
    s = f.state.state if isinstance(f.state, Question) else f.state
    ident = position_id(s)  # the XGID or the Narde position ID
    return "\n".join([draw(s.layout, s.turn), *([ident] if ident else [])])


def _checkers(layout: Layout) -> str:
    return ", ".join(f"{side} {sum(layout.points(side)) + layout.on_bar(side)}" for side in SIDES)


def question_text(q: Question) -> str:
    """What a question asks, in one line."""
    s = q.state
    asked = {
        "opening": f"game {q.game_number}, opening roll white {q.dice[0]}, black {q.dice[1]}"
        + (f", previous winner {q.previous_winner}" if q.game_number > 1 else ""),
        "may-double": f"may {s.turn} double",
        "double": f"{s.turn} doubles, {q.response}",
        "next-game": f"the match after {q.result.to_wire() if q.result else None}",
    }[q.aspect]
    segment = "" if s.segment is None else f", segment {s.segment.to_wire()}"
    return f"{asked}; cube {s.cube.to_wire()}, match {s.match.to_wire()}, context {s.context.to_wire()}{segment}"


def failure_text(n: int, f: Failure) -> str:
    if isinstance(f.state, Question):
        lines = [
            f"failure {n}: {f.target}: {f.title} ({f.states} question{'s' * (f.states > 1)})",
            f"a {f.kind} question: {question_text(f.state)}",
            board_text(f),
            f"reference: {_wire(f, f.expected)}; engine: {_wire(f, f.got)}",
        ]
        lines += [f"reading {r.weight()}" for r in f.readings]
        return "\n".join(lines + ([f"draft case: {f.draft}"] if f.draft else []))
    s = f.state
    segment = "" if s.segment is None else f", segment {s.segment.to_wire()}"
    lines = [
        f"failure {n}: {f.target}: {f.title} ({f.states} state{'s' * (f.states > 1)})",
        f"shrunk from a {f.kind} position ({_checkers(f.original.layout)} checkers on the board) to "
        f"{_checkers(s.layout)}: {s.turn} to play {'-'.join(map(str, s.dice))}{segment}, context {s.context.to_wire()}",
        board_text(f),
    ]
    missing, extra = missing_extra(f)
    if f.aspect == "plays":
        lines += [f"missing: {' | '.join(missing) or '-'}", f"extra: {' | '.join(extra) or '-'}"]
    else:
        lines.append(f"reference: {_wire(f, f.expected)}; engine: {_wire(f, f.got)}")
    lines += [f"reading {r.weight()}" for r in f.readings]
    if f.draft:
        lines.append(f"draft case: {f.draft}")
    return "\n".join(lines)


def text(c: Campaign, rerun: str = "") -> str:
    # mismatch, skipped and errored count the questions too; pos/s the positions alone
    header = f"{'ruleset or profile':<34} {'positions':>9} {'questions':>9} {'mismatch':>8} {'failures':>8} {'skipped':>7} {'errored':>7} {'pos/s':>7}"
    rows = [header]
    for t in c.tallies:
        fails = sum(f.target == t.target for f in c.failures)
        rate = t.positions / t.seconds if t.seconds else 0.0
        rows.append(
            f"{t.target:<34} {t.positions:>9} {t.questions:>9} {t.mismatches:>8} {fails:>8} {t.skipped:>7} {t.errored:>7} {rate:>7.0f}"
        )
    parts = [f"gammonspec fuzz: {c.engine} against the reference engine, seed {c.seed}", "\n".join(rows)]
    parts += [failure_text(i, f) for i, f in enumerate(c.failures, 1)]
    for t in c.tallies:
        parts += [clipped(f"errored ({t.target}): {e}") for e in t.errors]  # each at most 300 characters
    if c.failures and any(f.draft for f in c.failures):
        folder = next(f.draft for f in c.failures if f.draft).parent
        parts.append(f"rerun the drafts: gammonspec run --cases {folder} {rerun}".rstrip())
    total, questions = sum(t.positions for t in c.tallies), sum(t.questions for t in c.tallies)
    parts.append(
        f"{total} positions{f', {questions} questions' if questions else ''}, {len(c.failures)} distinct failures"
        + (f", {sum(t.errored for t in c.tallies)} errored" if any(t.errored for t in c.tallies) else "")
        + (f"; stopped: {c.stopped}" if c.stopped else "")
    )
    return "\n\n".join(parts)


def to_json(c: Campaign) -> dict[str, Any]:
    def failure(f: Failure) -> dict[str, Any]:
        missing, extra = missing_extra(f)
        return {
            "target": f.target,
            "aspect": f.aspect,
            "title": f.title,
            "explained_by": sorted(f.explanation),
            "readings": [r.to_json() for r in f.readings],
            "attributed": sorted({r.rule for r in f.sound if r.rule}),
            "features": list(f.features),
            "states": f.states,
            "kind": f.kind,
            "found": f.original.to_wire(),
            "shrunk": f.state.to_wire(),
            "missing": missing,
            "extra": extra,
            "expected": _wire(f, f.expected),
            "engine": _wire(f, f.got),
            "board": board_text(f),
            "draft": None if f.draft is None else str(f.draft),
        }

    return {
        "engine": c.engine,
        "seed": c.seed,
        "targets": [
            {
                "target": t.target,
                "positions": t.positions,
                "questions": t.questions,
                "mismatches": t.mismatches,
                "skipped": t.skipped,
                "errored": t.errored,
                "seconds": round(t.seconds, 3),
                "kinds": dict(t.kinds),
                "errors": t.errors,
            }
            for t in c.tallies
        ],
        "failures": [failure(f) for f in c.failures],
        "stopped": c.stopped,
        "fatal": c.fatal,
    }
