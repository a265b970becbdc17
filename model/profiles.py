"""Engine profiles: a named switch assignment, a base ruleset with overrides or a full assignment.

A profile is validated once, against `spec/switches.yaml`, when it is read (from a YAML file,
the engine's hello, or `--switch NAME=VALUE`); after that it is a frozen value the runner trusts.
It plays the part of a ruleset: a case applies to it exactly when its `requires` hold for the
profile's switch values (spec/protocol.md, "Profiles").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from gammonspec.model.rulesets import Rules, Ruleset, admits, check_options, check_switches, registry, rulesets
from gammonspec.model.terminal import shortened
from gammonspec.model.yamlio import DataError, load_yaml, locate

PROFILE_FIELDS = {"name", "base", "game", "switches", "options", "summary"}


@dataclass(frozen=True)
class Profile:
    """A named, complete switch assignment with the options it plays; `base` is the ruleset it starts from
    (for a full assignment: the ruleset of its game with the fewest different switches)."""

    name: str
    base: str
    game: str
    switches: Mapping[str, str]
    options: Mapping[str, Mapping[str, Any]]  # name -> {default, allowed}, as in a ruleset

    def admits(self, requires: dict[str, str | list[str]], options: dict[str, Any]) -> bool:
        """Whether a case needing these switch values and options applies to this profile."""
        return admits(self.switches, self.options, requires, options)

    def rules(self, options: dict[str, Any] | None = None) -> Rules:
        chosen = {name: spec["default"] for name, spec in self.options.items()}
        chosen.update(options or {})
        return Rules(self.base, self.game, dict(self.switches), chosen, profile=self.name)

    @property
    def changed_switches(self) -> dict[str, str]:
        """The switch values in which this profile differs from its base ruleset."""
        base = rulesets()[self.base]
        return {k: v for k, v in self.switches.items() if base.switches[k] != v}

    @property
    def fixed_options(self) -> dict[str, Any]:
        """The options this profile fixes to one value where its base ruleset offers a choice (or none)."""
        base = rulesets()[self.base]
        return {k: spec["default"] for k, spec in self.options.items() if base.options.get(k) != dict(spec)}

    def to_wire(self) -> dict[str, Any]:
        """The profile as an engine declares it in hello: its base and what it changes."""
        return {"name": self.name, "base": self.base, "switches": self.changed_switches, "options": self.fixed_options}


def closest_ruleset(game: str, switches: Mapping[str, str]) -> Ruleset:
    """The ruleset of `game` that differs from `switches` in the fewest switches (first by name on a tie)."""
    return min(
        (rs for rs in rulesets().values() if rs.game == game),
        key=lambda rs: (sum(rs.switches[k] != v for k, v in switches.items()), rs.name),
    )


def make(name: str, base: Ruleset, switches: Mapping[str, str], options: Mapping[str, Any]) -> Profile:
    """A profile from already validated parts: the base's values with these switches and fixed options.

    A switch value the base does not have comes with the options of the rulesets that have it, at their
    defaults, where the base lacks them (scoring=oin-mars-coke needs a coke-value)."""
    assignment = {**base.switches, **switches}
    chosen = {
        k: dict(v)
        for owner in rulesets().values()
        for name, value in assignment.items()
        if value != base.switches[name] and owner.switches[name] == value
        for k, v in owner.options.items()
    }
    chosen.update({k: dict(v) for k, v in base.options.items()})
    chosen.update({k: {"default": v, "allowed": [v]} for k, v in options.items()})
    return Profile(
        name,
        base.name,
        base.game,
        MappingProxyType(assignment),
        MappingProxyType({k: MappingProxyType(v) for k, v in chosen.items()}),
    )


def from_data(data: Any, path: Path | str, where: Any = None) -> Profile:
    """A profile from its YAML or hello form; raise DataError naming `path` and the line of what is wrong."""
    if not isinstance(data, dict):
        raise DataError(
            path, locate(where, None) if where else None, "a profile is a mapping with name, base and switches"
        )
    unknown = set(data) - PROFILE_FIELDS
    if unknown:
        raise DataError(
            path,
            locate(data, sorted(unknown)[0]),
            f"profile: unknown field {sorted(unknown)[0]!r} (fields: {', '.join(sorted(PROFILE_FIELDS))})",
        )
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise DataError(path, locate(data, "name"), "profile: needs a name")
    if name in rulesets():
        raise DataError(
            path,
            locate(data, "name"),
            f"profile {name}: the name of a ruleset; a profile has a name of its own (reports would mix the two)",
        )
    switches, options = data.get("switches", {}), data.get("options", {})
    if not isinstance(switches, dict) or not isinstance(options, dict):
        raise DataError(path, locate(data, "switches"), f"profile {name}: switches and options are mappings")
    check_switches(switches, path, switches, f"profile {name}")
    check_options(options, path, options, f"profile {name}")
    if "base" in data:
        base = rulesets().get(data["base"])
        if base is None:
            raise DataError(
                path,
                locate(data, "base"),
                f"profile {name}: unknown base ruleset {data['base']!r} (known: {', '.join(rulesets())})",
            )
    else:
        game = data.get("game")
        games = sorted({rs.game for rs in rulesets().values()})
        if game not in games:
            raise DataError(
                path,
                locate(data, "game"),
                f"profile {name}: give a base ruleset, or a game ({', '.join(games)}) and every switch",
            )
        missing = set(registry()["switches"]) - set(switches)
        if missing:
            raise DataError(
                path,
                locate(data, "switches"),
                f"profile {name}: a full assignment sets every switch; missing {', '.join(sorted(missing))}",
            )
        base = closest_ruleset(game, switches)
    if "game" in data and data["game"] != base.game:
        raise DataError(
            path, locate(data, "game"), f"profile {name}: base {base.name} is a {base.game} ruleset, not {data['game']}"
        )
    return make(name, base, switches, options)


def clashing_name(profiles: Iterable[Profile], declared: Iterable[str] = ()) -> str | None:
    """Why these profiles, declared beside the rulesets `declared`, cannot each have their own results: a name
    given twice, or also a ruleset's; None when every name is its own."""
    rulesets_named = set(declared)
    seen = set(rulesets_named)
    for profile in profiles:
        if profile.name in seen:
            what = "a ruleset's" if profile.name in rulesets_named else "another profile's"
            return f"profile {profile.name}: the name is also {what} (each needs a name of its own)"
        seen.add(profile.name)
    return None


def load(path: Path) -> Profile:
    """A profile from a YAML file (`gammonspec run --profile FILE.yaml`)."""
    return from_data(load_yaml(path), path)


def parse_override(given: str) -> tuple[str, Any]:
    """`NAME=VALUE` for a switch or an option (`--switch`); raise ValueError with a clear message."""
    name, sep, value = given.partition("=")
    text = shortened(given, 40)  # as the messages quote it: a line stays within its length
    if not sep or not name or not value:
        raise ValueError(f"--switch {text!r}: give NAME=VALUE, e.g. six-block=banned-within-turn")
    known = registry()
    if name in known["switches"]:
        if value not in known["switches"][name]["values"]:
            raise ValueError(
                f"--switch {text!r}: switch {name} has no value {shortened(value, 40)!r} (values: {', '.join(known['switches'][name]['values'])})"
            )
        return name, value
    if name in known["options"]:
        kind = known["options"][name]["type"]
        if kind == "boolean" and value in ("true", "false"):
            return name, value == "true"
        if kind == "integer" and value.lstrip("-").isdigit():
            least = known["options"][name].get("minimum")
            if least is not None and int(value) < least:
                raise ValueError(f"--switch {text!r}: option {name} is at least {least}")
            return name, int(value)
        raise ValueError(f"--switch {text!r}: option {name} is {kind}")
    raise ValueError(
        f"--switch {shortened(given, 24)!r}: unknown name (switches: {', '.join(known['switches'])}; options: {', '.join(known['options'])})"
    )


def parse_overrides(texts: Iterable[str]) -> list[tuple[str, Any]]:
    """Every `--switch` (parse_override); a name given two values is a ValueError."""
    changes: dict[str, Any] = {}
    for text in texts:
        name, value = parse_override(text)
        if changes.get(name, value) != value:
            raise ValueError(f"--switch {shortened(text, 40)!r}: {name} is given another value too ({str(changes[name]).lower()})")
        changes[name] = value
    return list(changes.items())


def override(target: Ruleset | Profile, changes: Iterable[tuple[str, Any]]) -> Ruleset | Profile:
    """`target` with these switch values and fixed options on top (`--switch`); unchanged when nothing differs."""
    names = registry()["switches"]
    wanted = dict(changes)
    differs = [
        f"{k}={str(v).lower()}"
        for k, v in wanted.items()
        if (
            target.switches[k] != v if k in names else dict(target.options.get(k, {})) != {"default": v, "allowed": [v]}
        )
    ]
    if not differs:
        return target
    base = rulesets()[target.base if isinstance(target, Profile) else target.name]
    switches = {**target.switches, **{k: v for k, v in wanted.items() if k in names}}
    options = {k: spec["default"] for k, spec in target.options.items() if len(spec["allowed"]) == 1}
    options.update({k: v for k, v in wanted.items() if k not in names})
    return make(f"{target.name}+{'+'.join(differs)}", base, switches, options)


def override_all(targets: list[Ruleset | Profile], changes: list[tuple[str, Any]]) -> list[Ruleset | Profile]:
    """Each target with the changes on top (`override`), an option only where the target, with the switch values
    changed, has that option; ValueError for an option none of them has (`--switch coke-value=2` under backgammon)."""
    switches = [(k, v) for k, v in changes if k in registry()["switches"]]
    offered = [set(override(target, switches).options) for target in targets]
    for name, value in changes:
        if name not in registry()["switches"] and targets and not any(name in o for o in offered):
            lacking = sorted({t.name for t in targets})
            having = [rs.name for rs in rulesets().values() if name in rs.options]
            raise ValueError(
                f"--switch {name}={str(value).lower()}: {', '.join(lacking[:4])}{' ...' * (len(lacking) > 4)}"
                f" {'has' if len(lacking) == 1 else 'have'} no option {name} ({', '.join(having) or 'no ruleset'} has it)"
            )
    return [
        override(target, [(k, v) for k, v in changes if k in registry()["switches"] or k in offer])
        for target, offer in zip(targets, offered)
    ]


def flips(ruleset: Ruleset) -> list[Profile]:
    """Every profile that differs from `ruleset` in exactly one switch value."""
    result = []
    for name, spec in registry()["switches"].items():
        for value in spec["values"]:
            if value != ruleset.switches[name]:
                flipped = override(ruleset, [(name, value)])
                assert isinstance(flipped, Profile)
                result.append(flipped)
    return result
