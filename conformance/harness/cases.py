"""Loading and checking case files (cases/<game>/*.yaml, schema/case.schema.json)."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from gammonspec.conformance.harness.messages import asked_by
from gammonspec.conformance.harness.scenario import walk
from gammonspec.conformance.harness.steps import Step, digest, expected_next, plays_step, result_step, spec_layout
from gammonspec.model import narde_ids, position_ids
from gammonspec.model.rulesets import accepted, check_options, check_switches, rulesets
from gammonspec.model.state import (
    Cube,
    Layout,
    Match,
    Segment,
    Side,
    State,
    StateError,
    TurnContext,
    standing_six_block,
    start_layout,
)
from gammonspec.model.validation import Compiled, schema
from gammonspec.model.yamlio import DataError, LineDict, load_document, locate

__all__ = ["Case", "Loaded", "Step", "digest", "load", "load_all", "load_file", "read_file", "shipped", "suite"]

CASES_DIR = Path(__file__).resolve().parents[2] / "cases"


@dataclass(frozen=True)
class Case:
    id: str
    rule_ids: tuple[str, ...]  # the rule IDs the case covers (its YAML key `rules`)
    title: str
    game: str
    query: str  # legal-plays | game-result | scenario
    requires: dict[str, str | list[str]]  # a value, or the values the case holds under
    options: dict[str, Any]
    steps: tuple[Step, ...]
    derivation: str
    path: Path
    line: int

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"

    @property
    def state(self) -> State:
        """The state the case starts from."""
        return self.steps[0].state

    @property
    def expect(self) -> dict[str, Any]:
        return self.steps[0].expect

    @property
    def queries(self) -> set[str]:
        """The engine capabilities the case needs."""
        needed: set[str] = set()
        for step in self.steps:  # a step's own query counts where it checks something (a scripted play, at least)
            first, *then = asked_by(step)
            needed |= {first.capability} if step.expect or step.play is not None else set()
            needed |= {query.capability for query in then}
        return needed


def _layout(
    game: str, raw: LineDict, path: Path, hitting: bool | None, what: str
) -> tuple[Layout, Side | None, tuple[int, ...] | None]:
    """The case's position, validated under `hitting`: from point lists, 'start', an XGID or a GNU Position ID."""
    id_field = next((field for field in ("xgid", "gnubgid") if field in raw), None)
    if id_field and game not in position_ids.GAMES_WITH_IDS:
        raise DataError(
            path,
            locate(raw, id_field),
            f"{what}: {id_field}: position IDs describe positions of "
            f"{' or '.join(position_ids.GAMES_WITH_IDS)}, not of {game}",
        )
    if id_field == "xgid":
        return position_ids.decode_xgid(raw["xgid"], hitting)
    if id_field == "gnubgid":
        if "turn" not in raw:
            raise DataError(path, raw.line, "a gnubgid position needs 'turn' (the ID is from the side on roll's view)")
        return position_ids.decode_gnubg(raw["gnubgid"], raw["turn"], hitting), None, None
    if raw["position"] == "start":
        layout = start_layout(game)
    else:
        layout = spec_layout(game, raw["position"])
    layout.validate(hitting)
    return layout, None, None


MIDGAME_ROLLS = 10  # rolls_in_game assumed for a position other than the start, unless the case says


def _context(raw: LineDict, is_start: bool) -> TurnContext:
    """The case's turn context; by default the start is everyone's first turn and any other position mid-game."""
    default = {"first_turn": is_start, "rolls_in_game": 0 if is_start else MIDGAME_ROLLS}
    return TurnContext(**{**default, **raw.get("context", {})})


def _check_no_forbidden_block(layout: Layout, requires: dict[str, Any], options: dict[str, Any]) -> None:
    """A start holding a six-block is impossible under any ruleset the case runs under that bans building one."""
    banning = [
        rs.name
        for rs in rulesets().values()
        if rs.game == layout.game and rs.switches["six-block"] != "allowed" and rs.admits(requires, options)
    ]
    block = standing_six_block(layout) if banning else ""
    if block:
        raise StateError(f"{block} under {', '.join(banning)} (six-block ban), so the position cannot arise")


T = TypeVar("T")


def _read(raw: LineDict, field: str, reader: Callable[[Any], T], path: Path, what: str) -> T:
    """A case's field read by its type's one reader; what the reader rejects is a DataError at the field."""
    try:
        return reader(raw.get(field))
    except StateError as exc:
        raise DataError(path, locate(raw, field), f"{what}: {exc}") from None


def _cube(data: int | dict[str, Any] | None) -> Cube:
    """A case's cube: its value alone (centred), or value and owner."""
    return Cube.from_wire(data) if isinstance(data, dict) else Cube(data or 1)


def _pinned_hitting(requires: dict[str, str | list[str]]) -> bool | None:
    """The hitting switch a case pins to one value (None: not pinned, the game's rulesets decide)."""
    values = accepted(requires.get("hitting", []))
    return values[0] == "blots" if len(values) == 1 else None


_NID_CARRIES = ("turn", "roll", "context", "segment", "cube", "match")  # what a state written as a nid takes from it


def _nid_state(raw: LineDict, game: str, path: Path, what: str) -> State:
    """The whole state written as a Narde position ID (`nid`); none of the fields it carries may stand beside it."""
    try:
        state = narde_ids.decode_nid(raw["nid"])
    except StateError as exc:
        raise DataError(path, locate(raw, "nid"), f"{what}: nid: {exc}") from None
    if state.game != game:
        raise DataError(path, locate(raw, "nid"), f"{what}: nid: a {state.game} position in a {game} file")
    beside = next((field for field in _NID_CARRIES if field in raw), None)
    if beside:
        raise DataError(path, locate(raw, beside), f"{what}: {beside}: the nid carries it; write it in the ID, not beside")
    return state


def read_state(raw: LineDict, game: str, path: Path, hitting: bool | None, what: str) -> State:
    """The state a case (or a position file, `gammonspec ask`) writes: position, turn, roll, context, segment, cube
    and match, the layout validated under `hitting`, or all of it as a Narde position ID (`nid`); `what` names it
    in messages.  The turn may be missing (None)."""
    if "nid" in raw:
        return _nid_state(raw, game, path, what)
    try:
        layout, id_turn, id_dice = _layout(game, raw, path, hitting, what)
    except DataError:
        raise
    except (StateError, ValueError) as exc:
        raise DataError(path, locate(raw, "position") or raw.line, f"{what}: impossible position: {exc}") from None
    turn = raw.get("turn", id_turn)
    dice = tuple(raw.get("roll", id_dice or ()))
    segment = _read(raw, "segment", Segment.from_wire, path, what)
    cube = _read(raw, "cube", _cube, path, what)
    match = _read(raw, "match", Match.from_wire, path, what)
    if segment is not None and segment.player != turn:
        raise DataError(
            path, locate(raw, "segment"), f"{what}: the segment is {segment.player}'s to play, but turn is {turn}"
        )
    return State(layout, turn, dice, _context(raw, raw.get("position") == "start"), cube, segment, match)


def _case(raw: LineDict, game: str, defaults: dict[str, str], path: Path) -> Case:
    where = raw.line
    requires = {**defaults, **raw.get("requires", {})}
    check_switches(requires, path, raw.get("requires", raw), f"case {raw['id']}")
    check_options(raw.get("options", {}), path, raw.get("options", raw), f"case {raw['id']}")
    hitting = _pinned_hitting(requires)
    state = read_state(raw, game, path, hitting, f"case {raw['id']}")
    try:
        _check_no_forbidden_block(state.layout, requires, raw.get("options", {}))
    except StateError as exc:
        at = locate(raw, "nid" if "nid" in raw else "position") or where
        raise DataError(path, at, f"case {raw['id']}: impossible position: {exc}") from None
    query = raw.get("query", "legal-plays")
    turn, dice, segment = state.turn, state.dice, state.segment
    if turn is None and query != "scenario":
        raise DataError(path, where, f"case {raw['id']}: no side on roll: give 'turn'")
    if query == "scenario":
        if "steps" not in raw or "expect" in raw:
            raise DataError(
                path, where, f"case {raw['id']}: a scenario has 'steps' (each with its own expect), no top-level expect"
            )
        steps = walk(raw, state, path, hitting)
    elif "expect" not in raw:
        raise DataError(path, where, f"case {raw['id']}: no 'expect'")
    elif query == "legal-plays":
        if not dice:
            raise DataError(path, where, f"case {raw['id']}: a legal-plays case needs a 'roll'")
        steps = [plays_step(raw, [], dict(raw["expect"]), state, where, path, hitting)]
        if "next" in raw:
            owner = segment.owner if segment else turn
            steps = [replace(steps[0], check_next=True, next=expected_next(raw["next"], owner))]
    else:
        steps = [result_step(raw, [], dict(raw["expect"]), state, where, path)]
    return Case(
        id=raw["id"],
        rule_ids=tuple(raw["rules"]),
        title=raw["title"],
        game=game,
        query=query,
        requires=requires,
        options=dict(raw.get("options", {})),
        steps=tuple(steps),
        derivation=raw["derivation"],
        path=path,
        line=where,
    )


def _has_float(data: Any) -> bool:
    """Whether a float is anywhere in `data`: the compiled validator takes 6.0 for an integer, a case file must not
    (no field of a case takes a fraction)."""
    if isinstance(data, float):
        return True
    if isinstance(data, dict):
        return any(_has_float(k) or _has_float(v) for k, v in data.items())
    return isinstance(data, list) and any(map(_has_float, data))


class _Validator(Compiled):
    """A case schema's validator that also tells 6.0 from an integer, and locates what it finds in the file."""

    def error(self, data: Any, root: Any, at: list[Any], path: Path, floats: bool = True) -> DataError | None:
        """The most telling schema violation of `data` (found at `at` under `root`), located; None if valid.

        `floats` False: the file holds no float, so none is looked for."""
        failure = self.failure(data)
        if failure is None and floats and _has_float(data):  # the compiled validator takes 6.0 for an integer
            error = self.worded(data)
            failure = None if error is None else (list(error.absolute_path), error.message, error)
        if failure is None:  # a float where the schema does not look (a key): the loader's own checks judge it
            return None
        where, message, error = at + failure[0], failure[1], failure[2]
        return self._located(error, where, message, root, path)

    def errors(self, data: Any, root: Any, at: list[Any], path: Path, floats: bool = True) -> list[DataError]:
        """Every schema violation of `data`, one located error for each field that is wrong (none if valid)."""
        first = self.error(data, root, at, path, floats)
        if first is None:
            return []
        import jsonschema

        found = {}
        for top in self.words.iter_errors(data):
            error = jsonschema.exceptions.best_match([top])
            one = self._located(error, at + list(error.absolute_path), error.message, root, path)
            one.field = tuple(error.absolute_path)  # within `data`
            found.setdefault(str(one), one)
        return list(found.values()) or [first]

    @staticmethod
    def _located(error: Any, where: list[Any], message: str, root: Any, path: Path) -> DataError:
        if error is not None and error.validator == "additionalProperties" and isinstance(error.instance, dict):
            where = where + [key for key in error.instance if key not in error.schema.get("properties", {})][:1]
        if error is not None:
            message = _with_limits(error, message)
        field = "/".join(map(str, where)) or "(top)"
        return DataError(path, locate(root, *where), f"{field}: {message}")


def _with_limits(error: Any, message: str) -> str:
    """A schema message with the limit or the allowed values named, as a case author needs them."""
    if error.validator in ("minLength", "maxLength"):
        most = "at least" if error.validator == "minLength" else "at most"
        return f"{message} ({most} {error.validator_value} characters)"
    if error.validator in ("minItems", "maxItems") and "non-empty" not in message:
        most = "at least" if error.validator == "minItems" else "at most"
        return f"{message} ({most} {error.validator_value})"
    if error.validator == "enum":
        return f"{error.instance!r}: not one of {', '.join(map(str, error.validator_value))}"
    return message


@cache
def _validators() -> tuple[_Validator, _Validator]:
    """The file's own fields (each case left to the second), and one case."""
    whole = schema("case")
    defs = whole["$defs"]
    # Each is a reference into the definitions, not a root that holds them: the compiled check writes out the
    # schema of the level it fails at in each failure branch, and a root's would hold every definition (slow to
    # compile, and to raise while trying the alternatives of a oneOf).
    fields = {k: v for k, v in whole.items() if k not in ("$schema", "$defs")}
    fields["properties"] = {**whole["properties"], "cases": {"type": "array", "minItems": 1}}
    file_level = {"$schema": whole["$schema"], "$defs": {**defs, "case-file": fields}, "$ref": "#/$defs/case-file"}
    one_case = {"$defs": defs, "$ref": "#/$defs/case"}
    return _Validator(file_level, strict_integers=True), _Validator(one_case, strict_integers=True)


def _refuse_draft(raw: LineDict, path: Path) -> None:
    """A draft's expectation is the reference engine's answer: it must be confirmed before it enters a suite."""
    raise DataError(
        path,
        locate(raw, "draft"),
        f"case {raw['id']}: a draft found by fuzzing (draft: {raw['draft']}) is not a case yet: confirm its "
        "expectation by hand or by an independent method, write that in its derivation and remove 'draft'",
    )


def read_file(path: Path, drafts: bool = True) -> tuple[list[Case], list[DataError]]:
    """The cases of one file that load, and one located error for each that does not (or for the file).

    Without `drafts`, a case marked `draft` is an error (the shipped suite, `gammonspec check`)."""
    try:
        data, floats = load_document(path)  # whether a float is anywhere in the file, noted once
    except DataError as exc:
        return [], [exc]
    if not isinstance(data, dict):
        return [], [DataError(path, 1, "a case file is a mapping with 'game' and 'cases'")]
    file_level, one_case = _validators()
    error = file_level.error(data, data, [], path, floats)
    if error is not None:
        return [], [error]
    defaults = dict(data.get("requires", {}))
    try:
        check_switches(defaults, path, data.get("requires", data), "file requires")
    except DataError as exc:
        return [], [exc]
    cases, errors = [], []
    for i, raw in enumerate(data["cases"]):
        problems = one_case.errors(raw, data, ["cases", i], path, floats)
        if isinstance(raw, dict):
            problems += _unknown_rules(raw, path)
        if isinstance(raw, dict) and all(_aside(p.field) for p in problems):
            try:  # the deeper checks too, where the schema's problems are in fields they do not read
                if "draft" in raw and not drafts:
                    _refuse_draft(raw, path)
                case = _case(raw, data["game"], defaults, path)
            except DataError as exc:
                problems.append(exc)
            except Exception:
                if not problems:
                    raise
        if problems:
            for problem in problems:
                problem.case = f"{path}#{i}"  # the case it belongs to, for the totals
            errors += sorted(problems, key=lambda p: p.line or 0)
        else:
            cases.append(case)
    return cases, errors


ASIDE = ("title", "derivation", "rules")  # fields of a case the deeper checks do not read


def _aside(field: tuple[Any, ...]) -> bool:
    """Whether a schema problem at `field` of a case leaves what the deeper checks read intact (a reason code of
    an excluded play is only carried along)."""
    return bool(field) and (field[0] in ASIDE or field[-1] == "reason")


def _unknown_rules(raw: LineDict, path: Path) -> list[DataError]:
    """An error for each rule ID the case names that no spec page defines."""
    from gammonspec.model.clauses import clauses

    rules = raw.get("rules")
    if not isinstance(rules, list):
        return []
    known = clauses()
    where = locate(raw, "rules") or raw.line
    found = [
        DataError(path, where, f"case {raw.get('id')}: unknown rule {rule} (no spec page defines it)")
        for rule in rules
        if isinstance(rule, str) and rule not in known
    ]
    for error in found:
        error.field = ("rules",)
    return found


def load_file(path: Path) -> list[Case]:
    """Every case of one file; the first problem raises DataError naming file and line."""
    cases, errors = read_file(path)
    if errors:
        raise errors[0]
    return cases


SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class Loaded:
    """The cases that loaded, and one located error for each file or case that did not."""

    cases: tuple[Case, ...]
    errors: tuple[DataError, ...]

    def strict(self) -> tuple[Case, ...]:
        if self.errors:
            raise self.errors[0]
        return self.cases


PERFT_DIR = CASES_DIR / "perft"  # the published perft tables (conformance/tools/perft.py), not case files


def _files(target: Path) -> tuple[list[Path], list[DataError]]:
    if target.is_dir():
        found = sorted(
            p
            for p in target.rglob("*")
            if p.suffix in SUFFIXES and p.is_file() and PERFT_DIR.resolve() not in p.resolve().parents
        )
        return found, [] if found else [DataError(target, None, "no case files (*.yaml, *.yml) in this folder")]
    if not target.exists():
        return [], [DataError(target, None, "no such file or folder")]
    if target.suffix not in SUFFIXES:
        return [], [DataError(target, None, "not a case file: case files end in .yaml or .yml")]
    return [target], []


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector paused: loading makes tens of thousands of objects that live on (nodes while a file is
    read, then the cases), so its passes over them as they pile up find next to nothing (the shipped suite leaves
    some 1,700 small objects in cycles, from the compiled schema check, collected once the load is done)."""
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()


def load(targets: Iterable[Path], drafts: bool = True) -> Loaded:
    """Every case under the given files and folders, checked for duplicate ids across files (drafts: read_file)."""
    with _collector_paused():
        return _load(targets, drafts)


def _load(targets: Iterable[Path], drafts: bool) -> Loaded:
    cases: list[Case] = []
    errors: list[DataError] = []
    seen: dict[str, Case] = {}
    for target in targets:
        files, missing = _files(Path(target))
        errors += missing
        for path in files:
            loaded, bad = read_file(path, drafts)
            errors += bad
            for case in loaded:
                if case.id in seen:
                    error = DataError(path, case.line, f"duplicate case id {case.id!r} (first at {seen[case.id].where})")
                    error.case = case.where
                    errors.append(error)
                    continue
                seen[case.id] = case
                cases.append(case)
    return Loaded(tuple(cases), tuple(errors))


def load_all(root: Path = CASES_DIR) -> list[Case]:
    """The whole suite under `root`; the first problem raises DataError."""
    return list(load([root], drafts=False).strict())


@cache
def shipped() -> Loaded:
    """The suite shipped with the package, as loaded (a draft in it is an error)."""
    return load([CASES_DIR], drafts=False)


def suite() -> tuple[Case, ...]:
    """The shipped suite; any problem in it raises DataError."""
    return shipped().strict()
