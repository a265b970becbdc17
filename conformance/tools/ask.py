"""The ask core: one position and roll, every reading's answer (`gammonspec ask`, and the site's playground).

It and ask_rulings.py import only gammonspec.model, gammonspec.reference, conformance/tools/reachability.py (on
the model only) and the standard library (PyYAML and fastjsonschema through the model), so the same code runs in
the browser under Pyodide.  Python API:

    from gammonspec.conformance.tools.ask import AskError, Question, answer, question_from_wire, targets_for
    question = Question(state)                      # a model.state.State: layout, turn, dice, context, cube, ...
    question = question_from_wire(wire)             # or a protocol state dict; no "context": default_context
    question = Question(case.state, f"case {case.id}", constructed=True)   # a case's own state, as `ask --case`
    document = answer(question, targets_for(question.state.game))   # every ruleset of the game, or any
    #   Ruleset / Profile list (model.rulesets, model.profiles); engines=[Engine, ...] adds their answers beside
    #   the rulesets; flips=False leaves out each ruling's one-switch changes (causes are still found).  A dict as
    #   model/schema/ask.schema.json describes it, deterministic (no timings); AskError (a ValueError, one line
    #   naming the field at fault) when no target can ask the question (a roll the turn context never deals...).
    document["rulings"][i]   # name, kind (ruleset/profile/engine), status (answered/cannot-occur/error), message,
                             # group (an index into groups), flips (the one-switch changes that change its answer)
    document["groups"][g]["answer"]["plays"]   # [{"play": "24/13", "position": {...protocol position...}}]
    document["differences"][k]["causes"]       # [{"name": "head-exception", "values": [...], "clauses": [...]}]

What is asked follows from the state: with dice, the legal plays of the segment and what follows it; without,
the cube questions (may the side on roll double; the double taken, dropped, beavered) when a target has a cube;
always the game's result (a finished position is asked nothing else).  The targets that give the same answer
form a group; two groups' difference is attributed to the switch values (or options) in which their first
members differ whose one flip changes an answer (the reference engine asked again with that value changed, as
`identify` models a reading), with the clauses of the game that state those values.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from gammonspec.conformance.tools import reachability
from gammonspec.conformance.tools.ask_rulings import QUERIES, Ruling, answer_json, asked, impossible, rule, spelled
from gammonspec.model import position_ids
from gammonspec.model.clauses import option_clauses, switch_clauses
from gammonspec.model.interface import Engine, EngineFailure, Skip, describe_exception
from gammonspec.model.narde_ids import GAMES_WITH_NIDS, encode_nid
from gammonspec.model.profiles import Profile, override
from gammonspec.model.rulesets import Rules, Ruleset, registry, rulesets
from gammonspec.model.state import Layout, State, StateError, TurnContext, start_layout
from gammonspec.reference import ReferenceEngine

FORMAT = 1  # the version of the document's shape (model/schema/ask.schema.json)
MIDGAME_ROLLS = 10  # rolls_in_game of a position other than the start when none is given (as cases assume)
Target = Ruleset | Profile


class AskError(ValueError):
    """A question that cannot be asked: one line naming the field at fault."""


@dataclass(frozen=True)
class Question:
    """A state to ask about; `source` says where it came from (an ID, a file, a case), for the reader.

    `constructed`: a shipped case's own state, asked as the case states it; a case may set up a turn no game
    reaches (a start with a double to play, a first turn with passed numbers) to pin a rule, so only the state
    model's checks apply to it, not what a turn context needs (ask_rulings.impossible)."""

    state: State
    source: str = ""
    constructed: bool = False


def targets_for(game: str) -> list[Target]:
    """Every ruleset of `game`, by name."""
    return [rs for rs in rulesets().values() if rs.game == game]


def default_context(layout: Layout) -> TurnContext:
    """The turn context a position is asked in when none is given (spec/conventions.md, turn context): the start
    is everyone's first turn, any other position mid-game, with at least the rolls its pips moved need."""
    if layout == start_layout(layout.game):
        return TurnContext(first_turn=True, rolls_in_game=0)
    least = max(reachability.least_rolls(layout, rs.rules()) for rs in targets_for(layout.game))
    return TurnContext(first_turn=False, rolls_in_game=max(MIDGAME_ROLLS, least))


def question_from_wire(data: dict[str, Any], source: str = "", constructed: bool = False) -> Question:
    """A question from a protocol state (spec/protocol.md); a state without `context` gets default_context.
    Raises AskError for a malformed or impossible state."""
    try:
        state = State.from_wire(data, hitting=True)  # the layout's counts; the bar is judged per ruleset
    except (StateError, TypeError, AttributeError, ValueError) as exc:
        raise AskError(f"state: {exc}") from None
    if "context" not in data:
        state = replace(state, context=default_context(state.layout))
    return Question(state, source, constructed)


@dataclass
class _Entry:
    """One line of the answer: a target as the reference engine reads it, or an engine asked under a target."""

    target: Target
    engine: str | None = None  # the engine's name and version; None: the reference engine
    ruling: Ruling | None = None
    problem: str = ""  # why the state cannot occur (or the engine's error)
    status: str = "answered"  # answered | cannot-occur | error
    capabilities: tuple[str, ...] = ()
    constructed: bool = False  # the question's (Question.constructed)
    parts: tuple[str, ...] = ()  # what the question asks (ask_rulings.asked)
    flips: list[dict[str, Any]] = field(default_factory=list)  # the flips that change the ruling, as JSON
    flipped: dict[tuple[str, str, str], Ruling | None] = field(default_factory=dict)  # (kind, name, value) -> ruling

    @property
    def name(self) -> str:
        return self.target.name if self.engine is None else f"{self.engine} as {self.target.name}"

    def key(self) -> str:
        """Entries with equal keys agree: the same ruling, or the same reason it cannot be given."""
        return self.ruling.canonical() if self.ruling is not None else f"{self.status}: {self.problem}"


def _kind(target: Target) -> str:
    return "profile" if isinstance(target, Profile) else "ruleset"


def _base(target: Target) -> Ruleset:
    return rulesets()[target.base] if isinstance(target, Profile) else target


def _reference(state: State, rules: Rules, entry: _Entry) -> Ruling | str:
    """The reference engine's ruling on the entry's question under `rules`, or why the state cannot occur there."""
    problem = impossible(state, rules, entry.constructed)
    return problem or rule(ReferenceEngine(), state, rules, QUERIES, entry.parts)


def _flip_keys(target: Target) -> list[tuple[str, str, Any]]:
    """(kind, name, value): every other value of each switch, and of each option the target offers a choice in."""
    keys = [
        ("switch", name, value)
        for name, spec in registry()["switches"].items()
        for value in spec["values"]
        if value != target.switches[name]
    ]
    for name, spec in target.options.items():
        keys += [("option", name, value) for value in spec["allowed"] if value != spec["default"]]
    return keys


def _clauses(kind: str, name: str, values: Iterable[Any], game: str) -> list[str]:
    if kind != "switch":
        return option_clauses(name, game)
    return list(dict.fromkeys(c for v in values for c in switch_clauses(name, v, game)))


def _delta(
    state: State, mine: Ruling, theirs: Ruling, hitting: tuple[bool, bool]
) -> tuple[list[str], list[str], list[str]]:
    """How `theirs` differs from `mine`: the parts that differ, the plays only mine allows, those only theirs does."""
    parts = [p for p in ("result", "plays", "next", "cube") if getattr(mine, p) != getattr(theirs, p)]
    lost = (mine.plays or frozenset()) - (theirs.plays or frozenset())
    gained = (theirs.plays or frozenset()) - (mine.plays or frozenset())
    return (
        parts,
        [p["play"] for p in spelled(state, lost, hitting[0])],
        [p["play"] for p in spelled(state, gained, hitting[1])],
    )


def _flipped(entry: _Entry, kind: str, name: str, value: Any, state: State) -> Ruling | None:
    """The reference engine's ruling under the entry's target with one switch (or option) value changed; None when
    the state cannot be asked under that reading.  Kept on the entry."""
    key = (kind, name, json.dumps(value))
    if key not in entry.flipped:
        flipped = override(entry.target, [(name, value)]).rules()
        try:
            ruling = _reference(state, flipped, entry)
        except (StateError, ValueError, KeyError, IndexError):
            ruling = "a reading the state cannot be asked under"
        entry.flipped[key] = None if isinstance(ruling, str) else ruling
    return entry.flipped[key]


def _flips(entry: _Entry, state: State) -> list[dict[str, Any]]:
    """The one-switch (or option) flips of the target under which the reference engine answers otherwise."""
    found = []
    assert entry.ruling is not None
    for kind, name, value in _flip_keys(entry.target):
        other_ruling = _flipped(entry, kind, name, value, state)
        if other_ruling is None or other_ruling == entry.ruling:
            continue
        was = entry.target.switches[name] if kind == "switch" else entry.target.options[name]["default"]
        was_hitting = entry.target.switches["hitting"] == "blots"
        hitting = (was_hitting, value == "blots" if name == "hitting" else was_hitting)
        parts, loses, gains = _delta(state, entry.ruling, other_ruling, hitting)
        found.append(
            {
                "kind": kind,
                "name": name,
                "value": value,
                "was": was,
                "clauses": _clauses(kind, name, (was, value), state.game),
                "differs": parts,
                "gains": gains,
                "loses": loses,
                "answer": answer_json(state, other_ruling, hitting[1], plays=False),
            }
        )
    return found


def _engine_entries(
    state: State, targets: Sequence[Target], engines: Sequence[Engine], parts: tuple[str, ...]
) -> list[_Entry]:
    """Each engine asked under each target it declares (or, reading switches, can play)."""
    entries = []
    for engine in engines:
        info = engine.info()
        label = f"{info.name} {info.version}".strip()
        for target in targets:
            if not info.declares(target):
                continue
            entry = _Entry(target, engine=label, capabilities=tuple(info.capabilities), parts=parts)
            try:
                entry.ruling = rule(engine, state, target.rules(), info.capabilities, parts)
            except Skip as exc:
                entry.status, entry.problem = "error", f"skipped: {exc}".splitlines()[0]
            except EngineFailure as exc:
                entry.status, entry.problem = "error", str(exc).splitlines()[0]
            except Exception as exc:  # noqa: BLE001 - an engine's own code failing: that is its answer here
                entry.status, entry.problem = "error", describe_exception(exc)
            entries.append(entry)
    return entries


def answer(
    question: Question, targets: Sequence[Target], engines: Sequence[Engine] = (), flips: bool = True
) -> dict[str, Any]:
    """The document of model/schema/ask.schema.json: every target's answer, grouped, differences attributed."""
    state = question.state
    if not targets:
        raise AskError("no ruleset or profile to ask under")
    wrong = [t.name for t in targets if t.game != state.game]
    if wrong:
        raise AskError(f"game: the position is {state.game}, but {', '.join(wrong)} is not a {state.game} ruleset")
    parts = asked(state, cube=any(t.switches["cube"] == "doubling" for t in targets))
    entries = []
    for target in targets:
        entry = _Entry(target, capabilities=QUERIES, constructed=question.constructed, parts=parts)
        ruling = _reference(state, target.rules(), entry)
        if isinstance(ruling, str):
            entry.status, entry.problem = "cannot-occur", ruling
        else:
            entry.ruling = ruling
            entry.flips = _flips(entry, state) if flips else []
        entries.append(entry)
    if all(e.status == "cannot-occur" for e in entries):
        reasons = list(dict.fromkeys(e.problem for e in entries))
        raise AskError(reasons[0] if len(reasons) == 1 else "; ".join(f"{e.name}: {e.problem}" for e in entries))
    askable = [e.target for e in entries if e.status == "answered"]  # engines are not asked what cannot occur
    entries += _engine_entries(state, askable, engines, parts)
    groups: dict[str, list[_Entry]] = {}
    for entry in entries:
        groups.setdefault(entry.key(), []).append(entry)
    members = list(groups.values())
    return {
        "format": FORMAT,
        "game": state.game,
        "source": question.source,
        "state": state.to_wire(),
        "ids": _ids(state),
        "asked": list(parts),
        "rulings": [_ruling_json(e, state, members) for e in entries],
        "groups": [_group_json(g, state) for g in members],
        "differences": _differences(members, state),
    }


def _ids(state: State) -> dict[str, str]:
    """The state's position IDs where its game has them: the XGID and GNU Position ID, or the Narde position ID."""
    if state.game in GAMES_WITH_NIDS:
        try:
            return {"nid": encode_nid(state)}
        except StateError:
            return {}  # a state no ID carries (a segment's numbers beyond what one records)
    if state.game not in position_ids.GAMES_WITH_IDS:
        return {}
    dice = state.dice if len(state.dice) == 2 and state.segment is None else None
    return {
        "xgid": position_ids.encode_xgid(state.layout, state.turn, dice, state.cube, state.match),
        "gnubg": position_ids.encode_gnubg(state.layout, state.turn),
    }


def _ruling_json(entry: _Entry, state: State, groups: list[list[_Entry]]) -> dict[str, Any]:
    base = _base(entry.target)
    changed = {k: v for k, v in entry.target.switches.items() if base.switches[k] != v}
    answered = entry.ruling is not None and entry.engine is not None
    return {
        "name": entry.name,
        "kind": "engine" if entry.engine else _kind(entry.target),
        "target": entry.target.name,
        "engine": entry.engine,
        "ruleset": base.name,
        "changes": changed,
        "options": entry.target.rules().options,
        "group": next(i for i, g in enumerate(groups) if entry in g),
        "status": entry.status,
        "message": entry.problem,
        "not_asked": [c for c in QUERIES if c not in entry.capabilities],
        "agrees_with": _agrees(entry, groups) if answered else [],
        "flips": entry.flips,
    }


def _agrees(engine_entry: _Entry, groups: list[list[_Entry]]) -> list[str]:
    """The rulesets and profiles whose answer an engine's matches in every part the engine was asked."""
    mine = engine_entry.ruling
    assert mine is not None
    ask = {"game-result": "result", "legal-plays": "plays", "next-segment": "next", "cube": "cube"}
    parts = [ask[c] for c in engine_entry.capabilities if c in ask]
    return [
        e.name
        for g in groups
        for e in g
        if e.engine is None and e.ruling is not None and all(getattr(e.ruling, p) == getattr(mine, p) for p in parts)
    ]


def _group_json(group: list[_Entry], state: State) -> dict[str, Any]:
    first = group[0]
    hitting = first.target.rules().switch.hitting
    return {
        "members": [e.name for e in group],
        "status": first.status,
        "message": first.problem,
        "answer": None if first.ruling is None else answer_json(state, first.ruling, hitting),
    }


def _differences(groups: list[list[_Entry]], state: State) -> list[dict[str, Any]]:
    """For each two groups of the reference's rulings: what differs, and the switch values that make it."""
    ruled = [
        (i, next(e for e in g if e.engine is None))
        for i, g in enumerate(groups)
        if g[0].status == "answered" and any(e.engine is None for e in g)
    ]
    found = []
    for n, (i, a) in enumerate(ruled):
        for j, b in ruled[n + 1 :]:
            assert a.ruling is not None and b.ruling is not None
            hitting = (a.target.rules().switch.hitting, b.target.rules().switch.hitting)
            parts, only_a, only_b = _delta(state, a.ruling, b.ruling, hitting)
            found.append(
                {
                    "groups": [i, j],
                    "between": [a.name, b.name],
                    "differs": parts,
                    "only": [only_a, only_b],
                    "causes": _causes(a, b, state),
                }
            )
    return found


def _causes(a: _Entry, b: _Entry, state: State) -> list[dict[str, Any]]:
    """The switch values (and options) in which `a` and `b` differ whose one flip, either way, changes the answer;
    `alone` when that flip gives the other's very answer."""
    keys = [("switch", k, (a.target.switches[k], b.target.switches[k])) for k in registry()["switches"]]
    options = sorted(set(a.target.options) & set(b.target.options))  # an option only one offers goes with a switch
    keys += [("option", k, (a.target.options[k]["default"], b.target.options[k]["default"])) for k in options]
    causes = []
    for kind, name, (va, vb) in keys:
        if va == vb:
            continue
        there, back = _flipped(a, kind, name, vb, state), _flipped(b, kind, name, va, state)
        if (there is not None and there != a.ruling) or (back is not None and back != b.ruling):
            alone = there == b.ruling or back == a.ruling
            causes.append(
                {
                    "kind": kind,
                    "name": name,
                    "values": [va, vb],
                    "clauses": _clauses(kind, name, (va, vb), state.game),
                    "alone": alone,
                }
            )
    return causes
