"""The rule IDs a fuzz failure cites: the clauses of the engine's own game (model.clauses.game_clauses), matched
whole, never by a part of an ID (`.move` is not `nd.bearoff.move-inside`) and never another game's.

In order: the rules of the rule mutants that give the engine's answer (Mutant.rule_in), the clauses of the
switches whose flip gives it (spec/switches.yaml names them per value; where none is of this game, the rules of
the shipped cases of this game that pin the switch), else, for a failure nothing explains, the clauses about what
its plays do (FEATURES) or about the aspect asked (ASPECTS).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from gammonspec.conformance.harness.cases import shipped
from gammonspec.conformance.tools.fuzz_evidence import Reading
from gammonspec.model.clauses import game_clauses
from gammonspec.model.rulesets import registry

MOST = 3  # rule IDs cited at most

# What a play does (fuzz.play_features) -> the clauses about it, by their name after the game's prefix.
FEATURES: dict[str, tuple[str, ...]] = {
    "bears off": ("bearoff.higher", "bearoff.exact"),
    "enters": ("bar.enter", "bar.enter-first"),
    "hits": ("hit.blot", "point.no-hitting"),
    "leaves the head twice": ("head.one-per-turn", "head.first-turn"),
    "builds a six-block": ("block.six",),
    "stops short": ("move.both-numbers", "move.full-move"),
    "no move": ("move.no-play",),
    "plays": ("move.both-numbers", "move.full-move"),
}
# The aspect asked -> the clauses about it, where no play's feature says more.
ASPECTS: dict[str, tuple[str, ...]] = {
    "next": ("turns.segments", "doubles.chain", "unplayable.opponent-plays", "move.doubles"),
    "result": ("score.single", "score.gammon", "score.oin", "score.mars", "end.win", "draw.both-blocked"),
    "opening": ("opening.roll", "opening.lead-dice", "opening.next-game", "opening.every-game", "opening.tie"),
    "may-double": ("cube.offer", "cube.owner", "cube.as-backgammon", "cube.none"),
    "double": ("cube.take", "cube.drop", "cube.as-backgammon", "cube.none", "option.beavers"),
    "next-game": ("match.length", "match.crawford", "draw.match", "score.cube"),
}


def named(game: str, tails: Iterable[str]) -> list[str]:
    """The clauses of `game` whose names after the prefix are `tails`, in that order."""
    own = game_clauses(game)
    return [c for tail in tails for c in own if c.split(".", 1)[1] == tail]


def switch_clauses(game: str, name: str) -> list[str]:
    """The clauses of `game` that spec/switches.yaml names for a value of the switch `name`; else the rules the
    shipped cases of `game` that pin it (a switch) or set it (an option) are about, the commonest first."""
    own = game_clauses(game)
    spec = registry()["switches"].get(name, {})
    listed = [c for ids in spec.get("clauses", {}).values() for c in ids if c in own]
    if listed:
        return listed
    found = Counter(
        r for c in shipped().cases if c.game == game and name in {*c.requires, *c.options} for r in c.rule_ids
    )
    return [r for r, _ in found.most_common(2) if r in own]


def rule_ids(game: str, aspect: str, readings: Iterable[Reading], features: Iterable[str]) -> list[str]:
    """The rule IDs of `game` a failure cites: its readings' (the sound ones), else those its shape is about."""
    readings = list(readings)
    ids = [r.rule for r in readings if r.mutant and r.rule in game_clauses(game)]
    for r in readings:
        if not r.mutant:
            ids += switch_clauses(game, r.name.split("=")[0])
    if not ids:
        shape = [tag.split(" ", 1)[1] for tag in features if " " in tag]  # "extra stops short" -> "stops short"
        ids = named(game, (t for s in shape for t in FEATURES.get(s, ()))) or named(game, ASPECTS.get(aspect, ()))
    return list(dict.fromkeys(ids))[:MOST] or named(game, ("object",))
