"""`gammonspec ask`'s text: the question with its board drawn, each group of agreeing rulesets with its answer, what
the groups differ in and the switch values that make it, and the one-switch flips that would change each answer."""

from __future__ import annotations

from typing import Any

from gammonspec.conformance.harness.board import draw
from gammonspec.model.games import GAME_DATA
from gammonspec.model.state import State


def text(document: dict[str, Any], state: State) -> str:
    parts = [_question(document, state), draw(state.layout, state.turn)]
    parts += [value for name, value in document["ids"].items() if name != "gnubg"]  # XGID=..., NID1_...
    chained = any(g["answer"] and g["answer"]["next"] for g in document["groups"])
    blocks = [_group(g, chained) for g in document["groups"]]
    blocks += [_difference(d) for d in document["differences"]]
    blocks += [b for b in (_flips(document), _engines(document)) if b]
    return "\n".join(parts) + "\n\n" + "\n\n".join(blocks)


def _question(document: dict[str, Any], state: State) -> str:
    ctx, seg = state.context, state.segment
    rolled = "-".join(map(str, state.dice))
    what = f"{state.turn} to play {rolled}" if state.dice else f"{state.turn} on roll"
    if seg is not None:
        numbers = "-".join(map(str, seg.numbers))
        passed = f"{numbers} passed by {seg.owner}" if seg.passed else f"{numbers}, the chain's next double"
        what = f"{seg.owner} rolled {rolled}; {state.turn} to play {passed}"
    notes = [f"roll {ctx.rolls_in_game + 1} of the game"] + ["its first turn"] * ctx.first_turn
    notes += [f"{ctx.head_moves} checker(s) already off the head this turn"] * bool(ctx.head_moves)
    if state.cube.value > 1 or state.cube.owner:
        notes.append(f"cube {state.cube.value}" + (f", {state.cube.owner}'s" if state.cube.owner else ", centred"))
    if state.match.length:
        m = state.match
        notes.append(f"{m.length}-point match, white {m.score[0]}, black {m.score[1]}" + ", Crawford" * m.crawford)
    source = f" ({document['source']})" if document["source"] else ""
    return f"{GAME_DATA[state.game].title}{source}: {what}; {'; '.join(notes)}"


def _group(group: dict[str, Any], chained: bool) -> str:
    names = ", ".join(group["members"])
    if group["status"] != "answered":
        return f"{names}: {group['status'].replace('-', ' ')}: {group['message']}"
    answer, lines = group["answer"], []
    if answer["result"] is not None:
        lines.append(f"  the game is over: {_result(answer['result'])}")
    if answer["plays"] is not None:
        n = len(answer["plays"])
        head = f"{names}: {n} play{'s' * (n != 1)}"
        lines += [f"  {p['play']}" for p in answer["plays"]]
        if chained:
            lines.append(f"  then: {_next(answer['next'])}")
        return "\n".join([head, *lines])
    if answer["cube"] is not None:
        lines += _cube(answer["cube"])
    if answer["result"] is None and answer["cube"] is None:
        lines.append("  the game goes on (give --dice for the legal plays)")
    return "\n".join([names + ":", *lines])


def _result(result: dict[str, Any]) -> str:
    if result["winner"] is None:
        return f"a {result['kind']}, {result['points']} points"
    return f"{result['winner']} wins ({result['kind']}), {result['points']} point{'s' * (result['points'] != 1)}"


def _next(segment: dict[str, Any] | None) -> str:
    if segment is None:
        return "the turn ends"
    numbers = "-".join(map(str, segment["numbers"]))
    if segment["passed"]:
        return f"{numbers} passed to {'black' if segment['owner'] == 'white' else 'white'}"
    return f"{segment['owner']} plays {numbers} (the chain goes on)"


def _cube(cube: dict[str, Any]) -> list[str]:
    if not cube["may_double"]:
        return ["  may double: no"]
    lines = ["  may double: yes"]
    for response, outcome in cube["double"].items():
        if not outcome["legal"]:
            lines.append(f"  {response}: not allowed")
        elif outcome["result"] is not None:
            lines.append(f"  {response}: {_result(outcome['result'])}")
        else:
            lines.append(f"  {response}: cube {outcome['cube']['value']}, {outcome['cube']['owner']}'s")
    return lines


def _difference(difference: dict[str, Any]) -> str:
    first, second = difference["between"]
    lines = [f"{first} and {second} differ in {', '.join(difference['differs'])}"]
    for only, name in zip(difference["only"], (first, second)):
        if only:
            lines.append(f"  only under {name}: {' | '.join(only)}")
    for cause in difference["causes"]:
        values = f"{cause['values'][0]} under {first}, {cause['values'][1]} under {second}"
        clauses = f" ({', '.join(cause['clauses'])})" if cause["clauses"] else ""
        alone = "; this alone makes the difference" if cause["alone"] else ""
        lines.append(f"  {cause['kind']} {cause['name']}: {values}{clauses}{alone}")
    if not difference["causes"]:
        lines.append("  no one switch value makes it alone: only several together")
    return "\n".join(lines)


def _flips(document: dict[str, Any]) -> str:
    lines = []
    for ruling in document["rulings"]:
        for flip in ruling["flips"]:
            clauses = f" ({', '.join(flip['clauses'])})" if flip["clauses"] else ""
            change = [f"+{p}" for p in flip["gains"]] + [f"-{p}" for p in flip["loses"]]
            change += [_part(part, flip["answer"]) for part in flip["differs"] if part != "plays"]
            value = str(flip["value"]).lower() if isinstance(flip["value"], bool) else flip["value"]
            lines.append(f"  {ruling['name']} with {flip['name']}={value}{clauses}: {', '.join(change)}")
    return (
        "\n".join(["what one switch value would change (the reference engine asked again):", *lines]) if lines else ""
    )


def _part(part: str, answer: dict[str, Any]) -> str:
    """A flip's changed answer to the result, the next segment or the cube, in words."""
    if part == "result":
        return f"result: {_result(answer['result']) if answer['result'] else 'the game goes on'}"
    if part == "next":
        return f"then: {_next(answer['next'])}"
    return "cube: " + "; ".join(line.strip() for line in _cube(answer["cube"])) if answer["cube"] else "cube: not asked"


def _engines(document: dict[str, Any]) -> str:
    lines = []
    for ruling in document["rulings"]:
        if ruling["kind"] != "engine":
            continue
        if ruling["status"] != "answered":
            lines.append(f"  {ruling['name']}: {ruling['status']}: {ruling['message']}")
            continue
        agrees = ", ".join(ruling["agrees_with"]) or "no ruleset asked"
        skipped = f" (not asked: {', '.join(ruling['not_asked'])})" if ruling["not_asked"] else ""
        lines.append(f"  {ruling['name']}: agrees with {agrees}{skipped}")
    return "\n".join(["engines:", *lines]) if lines else ""
