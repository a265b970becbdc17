"""Rule switches, options and rulesets (spec/switches.yaml, spec/rulesets/*.yaml)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

from gammonspec.model.validation import compiled
from gammonspec.model.yamlio import DataError, load_yaml, locate

SPEC_DIR = Path(__file__).resolve().parent.parent / "spec"


@dataclass(frozen=True, eq=False)
class Switches:
    """A complete switch assignment as typed fields (spec/switches.yaml), computed once per assignment.

    Two-valued switches whose values read as yes and no are booleans; the others keep their values' names.
    There is one object per distinct assignment (`Switches.of`, unpickling too), so it is compared and hashed
    by identity: an engine may key its own tables on it at no cost."""

    hitting: bool  # hitting=blots: a lone checker can be hit (and there is a bar)
    opening: Literal["play-lead-dice", "winner-rolls"]
    next_game_opener: Literal["opening-roll", "previous-winner"]
    doubles: Literal["four-moves", "chain", "chain-after-three-rolls"]
    unplayable: Literal["lost", "opponent-plays"]
    head_rule: bool  # head-rule=one-per-turn
    head_exception: Literal["none", "first-turn-3-4-6", "game-first-roll"]
    six_block: Literal["allowed", "banned-after-turn", "banned-within-turn"]
    bear_off: Literal["higher-from-highest", "exact-only"]
    home_frozen: bool  # home-frozen=frozen
    scoring: Literal["single-gammon-backgammon", "oin-mars-coke", "oin-mars"]
    draw: bool  # draw=both-blocked
    cube: bool  # cube=doubling
    values: tuple[tuple[str, str], ...] = field(repr=False)  # the assignment, sorted by switch name

    @staticmethod
    def of(values: Mapping[str, str]) -> Switches:
        """The typed form of a complete assignment (one object per distinct assignment)."""
        return _switches(tuple(sorted(values.items())))

    def __reduce__(self) -> tuple[object, tuple[tuple[tuple[str, str], ...]]]:
        return _switches, (self.values,)


_YES = {
    "hitting": "blots",
    "head-rule": "one-per-turn",
    "home-frozen": "frozen",
    "draw": "both-blocked",
    "cube": "doubling",
}


@cache
def _switches(items: tuple[tuple[str, str], ...]) -> Switches:
    values = dict(items)
    return Switches(
        **{name.replace("-", "_"): values[name] == _YES[name] if name in _YES else values[name] for name in values},
        values=items,
    )


@dataclass(frozen=True)
class Rules:
    """The protocol's `rules` object: one request's switch values and chosen options (a `Ruleset` made concrete)."""

    ruleset: str
    game: str
    switches: dict[str, str]
    options: dict[str, Any] = field(default_factory=dict)
    profile: str | None = None  # the engine profile these values come from, if not the ruleset itself
    switch: Switches = field(init=False, repr=False, compare=False)  # the switch values, typed

    def __post_init__(self) -> None:
        object.__setattr__(self, "switch", Switches.of(self.switches))

    def __getitem__(self, switch: str) -> str:
        return self.switches[switch]

    def option(self, name: str) -> Any:
        try:
            return self.options[name]
        except KeyError:  # a request that does not carry an option its switch values need
            raise RulesError(f"rules of {self.ruleset!r}: no value of option {name}, which these rules need") from None

    @property
    def state_hitting(self) -> bool | None:
        """The hitting switch a request's states are read under: on where these rules have hitting=blots, else
        None (as the game's rulesets have it), so a hitting=none flip of a game with a bar still reads its states."""
        return self.switch.hitting or None

    def to_wire(self) -> dict[str, Any]:
        wire = {"ruleset": self.ruleset, "game": self.game, "switches": self.switches, "options": self.options}
        return wire if self.profile is None else {**wire, "profile": self.profile}  # a 1.0 request has no profile

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> Rules:
        """A request's rules; RulesError unless they give a value of every switch (whatever the ruleset's name)."""
        switches, known = dict(data["switches"]), registry()["switches"]
        missing, unknown = sorted(set(known) - set(switches)), sorted(set(switches) - set(known))
        wrong = [f"{k}={v}" for k, v in sorted(switches.items()) if k in known and v not in known[k]["values"]]
        if missing or unknown or wrong:
            what = (
                f"no value of {', '.join(missing)}" if missing
                else f"unknown switches {', '.join(unknown)}" if unknown
                else f"unknown values {', '.join(wrong)}"
            )
            raise RulesError(
                f"rules of {data['ruleset']!r}: {what} (a request carries a value of every switch; see spec/switches.yaml)"
            )
        return cls(data["ruleset"], data["game"], switches, dict(data.get("options", {})), data.get("profile"))


class RulesError(ValueError):
    """A request's rules that name no complete, known switch assignment."""


@dataclass(frozen=True)
class Ruleset:
    """A named ruleset as defined in spec/rulesets/*.yaml, with its allowed options; `rules()` gives a request's `Rules`."""

    name: str
    game: str
    source: str
    summary: str
    switches: dict[str, str]
    options: dict[str, dict[str, Any]]  # name -> {default, allowed}

    def rules(self, options: dict[str, Any] | None = None) -> Rules:
        chosen = {name: spec["default"] for name, spec in self.options.items()}
        chosen.update(options or {})
        return Rules(self.name, self.game, dict(self.switches), chosen)

    def admits(self, requires: dict[str, str | list[str]], options: dict[str, Any]) -> bool:
        """Whether a case that needs these switch values and options applies to this ruleset."""
        return admits(self.switches, self.options, requires, options)


@cache
def registry() -> dict[str, Any]:
    """The switch and option registry; the values named by who states or decided each, its words and its clauses are checked."""
    path = SPEC_DIR / "switches.yaml"
    data = load_yaml(path)
    for name, spec in data["switches"].items():
        seen: dict[str, str] = {}
        for key in ("sources", "decided", "words", "plain", "clauses"):
            for value in spec.get(key, {}):
                if value not in spec["values"]:
                    raise DataError(path, locate(spec, key), f"switch {name}: {key} names no value {value!r}")
        for key in ("sources", "decided"):
            for sources in spec.get(key, {}).values():
                for source in sources:
                    if source in seen:
                        raise DataError(
                            path,
                            locate(spec, key),
                            f"switch {name}: source {source} is in both {seen[source]} and {key}",
                        )
                    seen[source] = key
        words = spec.get("words", {})
        for value in spec["values"]:
            said = set(words.get(value, {}))
            stated = set(spec.get("sources", {}).get(value, []))
            listed = stated | set(spec.get("decided", {}).get(value, []))
            if said - listed or stated - said:
                raise DataError(
                    path,
                    locate(spec, "words"),
                    f"switch {name}: words of {value!r} name {sorted(said)}; every source that states it "
                    f"({sorted(stated)}) needs them, and only a source that states or decided it may have them",
                )
    return data


def decided(switch: str, value: str, source: str) -> bool:
    """Whether `source` is silent on `switch`, or does not settle it, and this spec chose `value` for it (switches.yaml
    `decided`)."""
    return source in registry()["switches"][switch].get("decided", {}).get(value, [])


def accepted(required: str | list[str]) -> tuple[str, ...]:
    """The values a `requires` entry accepts: one value, or a list of them (the case holds under each)."""
    return (required,) if isinstance(required, str) else tuple(required)


def admits(
    switches: dict[str, str],
    option_specs: dict[str, dict[str, Any]],
    requires: dict[str, str | list[str]],
    options: dict[str, Any],
) -> bool:
    """Whether a case needing `requires` and `options` applies to these switch values and allowed options."""
    return all(switches.get(k) in accepted(v) for k, v in requires.items()) and all(
        k in option_specs and v in option_specs[k]["allowed"] for k, v in options.items()
    )


def check_switches(requires: dict[str, Any], path: Path, where: Any, what: str) -> None:
    """Raise DataError unless every switch and value named is in the registry."""
    known = registry()["switches"]
    for name, required in requires.items():
        if name not in known:
            raise DataError(path, locate(where, name), f"{what}: unknown switch {name!r} (known: {', '.join(known)})")
        for value in accepted(required):
            if value not in known[name]["values"]:
                raise DataError(
                    path,
                    locate(where, name),
                    f"{what}: switch {name} has no value {value!r} (values: {', '.join(known[name]['values'])})",
                )


def check_options(options: dict[str, Any], path: Path, where: Any, what: str) -> None:
    known = registry()["options"]
    types = {"boolean": bool, "integer": int}
    for name, value in options.items():
        if name not in known:
            raise DataError(path, locate(where, name), f"{what}: unknown option {name!r} (known: {', '.join(known)})")
        if type(value) is not types[known[name]["type"]]:
            raise DataError(
                path, locate(where, name), f"{what}: option {name} must be {known[name]['type']}, got {value!r}"
            )
        if value < known[name].get("minimum", value):
            raise DataError(
                path, locate(where, name), f"{what}: option {name} is at least {known[name]['minimum']}, got {value}"
            )


def load_ruleset(path: Path) -> Ruleset:
    data = load_yaml(path)
    failure = compiled("ruleset").failure(data)
    if failure is not None:
        raise DataError(path, locate(data, *failure[0]), failure[1])
    check_switches(data["switches"], path, data["switches"], "ruleset")
    missing = set(registry()["switches"]) - set(data["switches"])
    if missing:
        raise DataError(path, locate(data, "switches"), f"ruleset sets no value for {', '.join(sorted(missing))}")
    for name, spec in data.get("options", {}).items():
        check_options({name: spec["default"]}, path, data["options"], "ruleset")
        if spec["default"] not in spec["allowed"]:
            raise DataError(path, locate(data["options"], name), f"option {name}: default is not among allowed")
    if data["name"] != path.stem:
        raise DataError(
            path, locate(data, "name"), f"ruleset name {data['name']!r} must match its file name {path.stem!r}"
        )
    return Ruleset(
        name=data["name"],
        game=data["game"],
        source=data["source"],
        summary=data["summary"],
        switches=dict(data["switches"]),
        options={k: dict(v) for k, v in data.get("options", {}).items()},
    )


@cache
def rulesets() -> dict[str, Ruleset]:
    """Every ruleset the suite defines, by name."""
    return {rs.name: rs for rs in map(load_ruleset, sorted((SPEC_DIR / "rulesets").glob("*.yaml")))}


@cache
def game_hitting(game: str) -> bool:
    """The hitting switch for a layout judged without a ruleset at hand: on when a ruleset of `game` has
    hitting=blots (the rulesets are the data; a case or request that has its rules passes the switch)."""
    return any(rs.switches["hitting"] == "blots" for rs in rulesets().values() if rs.game == game)
