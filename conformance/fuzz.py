"""`gammonspec fuzz`: an engine against the reference engine on random valid states (conformance/generators.py).

For each ruleset or profile, seeded states of every kind that applies are asked of both engines: the
legal plays, the next segment and the game's result, where the engine answers those queries.  A
disagreement is shrunk (fewer checkers, fewer points, a simpler roll, a plainer turn context) while it
persists, explained by the one-switch (or option) flips of the reference engine that give the engine's
answer, and grouped with the others it shares that explanation with (or, for a bug no flip explains,
the shape of the plays it gets wrong), so that a reading difference is one failure, not thousands.
Each failure is written as a *draft* case (`draft: fuzz`): its expectation is the reference engine's
answer, which must be confirmed by hand before the case may enter a suite.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml
from gammonspec.reference import ReferenceEngine

from . import generators
from .board import draw
from .cases import load, shipped
from .coverage import clauses
from .engine import Engine, EngineFailure, Skip, describe_exception
from .notation import describe
from .position_ids import encode_xgid
from .rules import Rules, registry
from .runner import Target
from .state import HEAD, SIDES, Layout, Segment, Side, State, StateError, other, standing_six_block

ASPECTS = ("plays", "next", "result")
CAPABILITY = {"plays": "legal-plays", "next": "next-segment", "result": "game-result"}
SHRINK_BUDGET = 600  # questions to both engines while shrinking one disagreement
POSITION_IDS: dict[str, tuple[str, Callable[[State], str]]] = {  # per game: the position ID players paste
    "backgammon": ("XGID", lambda s: encode_xgid(s.layout, s.turn, s.dice or None)),
}

# ---- asking -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answers:
    """What an engine says of a state, per aspect, in a form that compares (absent: not asked)."""

    values: dict[str, Any]
    layouts: dict[str, Layout] = field(default_factory=dict)  # the plays' layouts by key


def _next_of(segment: Segment | None) -> tuple[Any, ...] | None:
    return None if segment is None else (segment.owner, bool(segment.passed), tuple(sorted(segment.numbers)))


def ask(engine: Engine, state: State, rules: Rules, aspects: Iterable[str]) -> Answers:
    """The engine's answers on `aspects`; its exceptions propagate (Skip, EngineFailure, its own)."""
    values: dict[str, Any] = {}
    layouts: dict[str, Layout] = {}
    for aspect in aspects:
        if aspect == "plays":
            for layout in engine.legal_plays(state, rules):
                if not isinstance(layout, Layout) or layout.game != state.game:
                    raise StateError(f"engine answered {layout!r}, not a {state.game} layout")
                layouts[layout.key()] = layout
            values["plays"] = frozenset(layouts)
        elif aspect == "next":
            values["next"] = _next_of(engine.next_segment(state, rules))
        else:
            result = engine.game_result(state, rules)
            values["result"] = None if result is None else (result.winner, result.kind, result.points)
    return Answers(values, layouts)


def differs(expected: Answers, got: Answers) -> str | None:
    """The first aspect the answers differ on (the next segment only once the plays agree)."""
    return next((a for a in ASPECTS if a in got.values and got.values[a] != expected.values[a]), None)


# ---- shrinking ----------------------------------------------------------------------------------


def _with_counts(state: State, side: Side, points: list[int], bar: int, off: int) -> State:
    lay = state.layout
    i = SIDES.index(side)
    pts = [lay.white, lay.black]
    pts[i] = tuple(points)
    bars, offs = list(lay.bar), list(lay.off)
    bars[i], offs[i] = bar, off
    return state.with_layout(Layout(lay.game, pts[0], pts[1], (bars[0], bars[1]), (offs[0], offs[1])))


def _layout_steps(state: State) -> Iterator[State]:
    """Smaller layouts: a whole point borne off, two neighbouring points merged, one checker borne off (bar ones too)."""
    lay = state.layout
    for side in SIDES:
        pts, bar, off = list(lay.points(side)), lay.on_bar(side), lay.borne_off(side)
        held = [p for p in range(24) if pts[p]]
        if bar:
            yield _with_counts(state, side, pts, 0, off + bar)
        for p in held:
            yield _with_counts(state, side, [0 if q == p else n for q, n in enumerate(pts)], bar, off + pts[p])
        for p, q in (*zip(held, held[1:]), *zip(held[1:], held)):  # onto the next held point, either way
            merged = list(pts)
            merged[q], merged[p] = merged[q] + merged[p], 0
            yield _with_counts(state, side, merged, bar, off)
        for p in held:
            if pts[p] > 1:
                yield _with_counts(state, side, [n - (q == p) for q, n in enumerate(pts)], bar, off + 1)


def _roll_steps(state: State) -> Iterator[State]:
    """Simpler rolls: two different numbers for a double, lower numbers; simpler segments."""
    seg = state.segment
    if seg is not None and seg.passed and len(seg.numbers) > 1:
        for i in range(len(seg.numbers)):
            yield replace(state, segment=replace(seg, numbers=seg.numbers[:i] + seg.numbers[i + 1 :]))
    if seg is not None and not seg.passed and seg.numbers[0] - 1 > state.dice[0]:
        yield replace(state, segment=replace(seg, numbers=(seg.numbers[0] - 1,) * len(seg.numbers)))
    a, b = state.dice
    if seg is None:
        if a == b:
            yield from (replace(state, dice=(a, c)) for c in range(1, a))
        yield from (replace(state, dice=(c, b)) for c in range(1, a) if c != b or a == b)
        yield from (replace(state, dice=(a, c)) for c in range(1, b) if c != a)
    elif not seg.passed and a > 1:
        yield replace(state, dice=(a - 1, a - 1))


def _context_steps(state: State) -> Iterator[State]:
    ctx = state.context
    if ctx.head_moves:
        yield replace(state, context=replace(ctx, head_moves=0))
    if ctx.first_turn:
        yield replace(state, context=replace(ctx, first_turn=False, rolls_in_game=max(ctx.rolls_in_game, 2)))
    for rolls in (0, 1, 2, 3):
        if rolls < ctx.rolls_in_game:
            yield replace(state, context=replace(ctx, rolls_in_game=rolls))


def _fit_rolls(state: State, rules: Rules) -> State:
    """A smaller layout moved more pips: enough rolls for it (a first turn stays one, and is then refused)."""
    least = generators.least_rolls(state.layout, rules)
    if state.context.first_turn or state.context.rolls_in_game >= least:
        return state
    return replace(state, context=replace(state.context, rolls_in_game=least))


def simpler(state: State, rules: Rules) -> Iterator[State]:
    """Candidate simplifications of `state`, the biggest first; each is valid and reachable under `rules`."""
    for candidate in (
        *(_fit_rolls(s, rules) for s in _layout_steps(state)),
        *_roll_steps(state),
        *_context_steps(state),
    ):
        if not generators.problem(candidate, rules):
            yield candidate


def shrink(state: State, rules: Rules, still: Callable[[State], bool], budget: int = SHRINK_BUDGET) -> State:
    """A locally minimal state for which `still` holds: greedy delta debugging over `simpler` candidates."""
    asked = 0
    progress = True
    while progress and asked < budget:
        progress = False
        for candidate in simpler(state, rules):
            asked += 1
            if still(candidate):
                state, progress = candidate, True
                break
            if asked >= budget:
                break
    return state


# ---- explaining and grouping --------------------------------------------------------------------


def flips(rules: Rules, target: Target) -> dict[str, Rules]:
    """Every one-switch change of `rules`, and every other allowed value of each option: 'name=value' -> rules."""
    result = {}
    for name, spec in registry()["switches"].items():
        for value in spec["values"]:
            if value != rules.switches[name]:
                result[f"{name}={value}"] = replace(rules, switches={**rules.switches, name: value})
    for name, spec in target.options.items():
        for value in spec["allowed"]:
            if value != rules.options.get(name):
                result[f"{name}={str(value).lower()}"] = replace(rules, options={**rules.options, name: value})
    return result


def explained_by(state: State, rules: Rules, target: Target, aspect: str, got: Answers) -> frozenset[str]:
    """The flips under which the reference engine gives the engine's answer on `aspect`."""
    oracle = ReferenceEngine()
    found = set()
    for name, flipped in flips(rules, target).items():
        try:
            if ask(oracle, state, flipped, [aspect]).values[aspect] == got.values[aspect]:
                found.add(name)
        except (StateError, KeyError, ValueError):
            continue  # a combination of values the reference engine cannot play
    return frozenset(found)


def _pips_moved(before: Layout, after: Layout, side: Side) -> int:
    return generators.pips(before, side) - generators.pips(after, side)


def play_features(before: Layout, after: Layout, side: Side, rules: Rules, longest: int) -> set[str]:
    """What a play does that a rule is about: bears off, enters, hits, leaves the head twice, builds a six-block,
    stops short of the longest legal play, or does nothing."""
    tags = set()
    if after == before:
        tags.add("no move")
    if after.borne_off(side) > before.borne_off(side):
        tags.add("bears off")
    if after.on_bar(side) < before.on_bar(side):
        tags.add("enters")
    if after.on_bar(other(side)) > before.on_bar(other(side)):
        tags.add("hits")
    if rules["head-rule"] != "none" and before.points(side)[HEAD - 1] - after.points(side)[HEAD - 1] > 1:
        tags.add("leaves the head twice")
    if standing_six_block(after) and not standing_six_block(before):
        tags.add("builds a six-block")
    if 0 < _pips_moved(before, after, side) < longest:
        tags.add("stops short")
    return tags


def features(state: State, rules: Rules, aspect: str, expected: Answers, got: Answers) -> tuple[str, ...]:
    """The shape of a disagreement no flip explains: what the missing and the extra plays do (or the next segment
    and results each gives)."""
    if aspect != "plays":
        shape = {"next": lambda v: "ends" if v is None else ("passed" if v[1] else f"{len(v[2])} numbers")}.get(
            aspect, lambda v: "not over" if v is None else v[1]
        )
        return (f"expected {shape(expected.values[aspect])}", f"engine {shape(got.values[aspect])}")
    before, side = state.layout, state.turn
    layouts = {**got.layouts, **expected.layouts}
    longest = max((_pips_moved(before, lay, side) for lay in expected.layouts.values()), default=0)
    tags: set[str] = set()
    for which, keys in (
        ("missing", expected.values["plays"] - got.values["plays"]),
        ("extra", got.values["plays"] - expected.values["plays"]),
    ):
        found = set().union(*(play_features(before, layouts[k], side, rules, longest) for k in keys)) if keys else set()
        tags |= {f"{which} {t}" for t in found} or ({f"{which} plays"} if keys else set())
    return tuple(sorted(tags))


@dataclass
class Failure:
    """One distinct disagreement: the first state that showed it, shrunk, and how many states showed it."""

    target: str
    aspect: str
    explanation: frozenset[str]  # flips that give the engine's answer (narrowed as states join)
    features: tuple[str, ...]  # the shape, when no flip explains it
    kind: str
    original: State
    state: State  # shrunk
    expected: Answers
    got: Answers
    states: int = 1
    draft: Path | None = None

    def joins(self, other_: Failure) -> bool:
        if (self.target, self.aspect) != (other_.target, other_.aspect):
            return False
        if self.explanation or other_.explanation:
            return bool(self.explanation & other_.explanation)
        return self.features == other_.features

    @property
    def title(self) -> str:
        what = {"plays": "legal plays", "next": "next segment", "result": "game result"}[self.aspect]
        if self.explanation:
            return f"{what}: the engine plays as if {' or '.join(sorted(self.explanation))}"
        return f"{what}: no one-switch reading explains it (a bug): {', '.join(self.features)}"


# ---- the campaign ---------------------------------------------------------------------------------


@dataclass
class Tally:
    target: str
    positions: int = 0
    mismatches: int = 0
    skipped: int = 0
    errored: int = 0
    seconds: float = 0.0
    kinds: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)


@dataclass
class Campaign:
    engine: str
    seed: int
    tallies: list[Tally]
    failures: list[Failure]
    stopped: str = ""  # why it ended before its count, if it did
    fatal: str = ""


def _aspects(capabilities: Iterable[str], over: bool) -> tuple[str, ...]:
    wanted = ("result",) if over else ASPECTS
    return tuple(a for a in wanted if CAPABILITY[a] in capabilities)


def check_state(
    engine: Engine, state: State, rules: Rules, capabilities: tuple[str, ...]
) -> tuple[str | None, Answers, Answers]:
    """(the aspect they differ on or None, the reference's answers, the engine's)."""
    oracle = ReferenceEngine()
    over = oracle.game_result(state, rules) is not None
    aspects = _aspects(capabilities, over)
    expected = ask(oracle, state, rules, aspects)
    got = ask(engine, state, rules, aspects)
    return differs(expected, got), expected, got


def fuzz(
    engine: Engine,
    targets: list[Target],
    kinds: tuple[str, ...] = (),
    seed: int = 0,
    count: int = 1000,
    seconds: float | None = None,
    max_failures: int = 10,
    progress: Callable[[int], None] = lambda n: None,
) -> Campaign:
    """Ask `count` states of each target (the kinds that apply to it) of `engine` and of the reference engine."""
    info = engine.info()
    capabilities = tuple(info.capabilities)
    began = time.perf_counter()
    campaign = Campaign(f"{info.name} {info.version}", seed, [], [])
    for index, target in enumerate(targets):
        rules = target.rules()
        tally = Tally(target.name)
        campaign.tallies.append(tally)
        rng = random.Random(f"{seed}:{index}:{target.name}")
        started = time.perf_counter()
        for kind, state in generators.states(rng, rules, generators.kinds_for(rules, kinds)):
            if tally.positions >= count or campaign.stopped:
                break
            if seconds is not None and time.perf_counter() - began > seconds:
                campaign.stopped = f"the time budget of {seconds:g} s ran out"
                break
            tally.positions += 1
            tally.kinds[kind] += 1
            progress(1)
            try:
                aspect, expected, got = check_state(engine, state, rules, capabilities)
            except Skip:
                tally.skipped += 1
                continue
            except (EngineFailure, StateError, Exception) as exc:  # noqa: BLE001 - the engine's fault, counted
                tally.errored += 1
                fatal = isinstance(exc, EngineFailure) and exc.fatal
                if len(tally.errors) < 5:
                    tally.errors.append(
                        f"{kind} state {state.layout.key()} {list(state.dice)}: {describe_exception(exc)}"
                    )
                if fatal:
                    campaign.fatal = str(exc)
                    break
                continue
            if aspect is None:
                continue
            tally.mismatches += 1
            failure = _failure(engine, state, rules, target, kind, aspect, capabilities)
            same = next((f for f in campaign.failures if f.joins(failure)), None)
            if same is not None:
                same.states += 1
                if same.explanation and failure.explanation:
                    same.explanation &= failure.explanation
                continue
            campaign.failures.append(failure)
            if len(campaign.failures) >= max_failures:
                campaign.stopped = f"{max_failures} distinct failures found (--max-failures)"
        tally.seconds = time.perf_counter() - started
        if campaign.stopped or campaign.fatal:
            break
    return campaign


def _failure(
    engine: Engine, state: State, rules: Rules, target: Target, kind: str, aspect: str, capabilities: tuple[str, ...]
) -> Failure:
    """The disagreement on `state`, shrunk while it persists on the same aspect, explained and shaped."""

    def still(candidate: State) -> bool:
        try:
            return check_state(engine, candidate, rules, capabilities)[0] == aspect
        except Exception:  # noqa: BLE001 - a candidate the engine cannot answer is not the same failure
            return False

    small = shrink(state, rules, still)
    _, expected, got = check_state(engine, small, rules, capabilities)
    explanation = explained_by(small, rules, target, aspect, got)
    shape = () if explanation else features(small, rules, aspect, expected, got)
    return Failure(target.name, aspect, explanation, shape, kind, state, small, expected, got)


# ---- drafts and reports --------------------------------------------------------------------------


def plays_text(state: State, keys: Iterable[str], layouts: dict[str, Layout]) -> list[str]:
    """The plays in move notation (the position itself where no notation reaches it)."""
    shown = []
    for key in sorted(keys):
        try:
            shown.append(describe(state.layout, layouts[key], state.turn))
        except Exception:  # noqa: BLE001 - an impossible position may have no notation
            shown.append(f"position {key}")
    return sorted(shown)


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
    oracle = ReferenceEngine()
    requires: dict[str, str] = {}
    options: dict[str, Any] = {}
    for name, flipped in flips(rules, target).items():
        try:
            changed = ask(oracle, f.state, flipped, [f.aspect]).values != {f.aspect: f.expected.values[f.aspect]}
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
    prefixes = Counter(r.split(".")[0] for c in cases for r in c.rules)
    prefix = prefixes.most_common(1)[0][0] if prefixes else "bg"
    switches = {name.split("=")[0] for name in f.explanation}
    if switches:
        found = Counter(r for c in cases if switches & set(c.requires) for r in c.rules)
        return [r for r, _ in found.most_common(2)] or [prefix + ".object"]
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
    topic = {"next": ("doubles", "unplayable", "chain"), "result": ("score", "end", "object")}.get(f.aspect)
    fragments = topic or tuple(dict.fromkeys(w for tag in f.features for k, w in words.items() if tag.endswith(k)))
    ids = [c for c in sorted(clauses()) if c.startswith(prefix + ".") and any(f".{w}" in c for w in fragments)]
    return ids[:2] or [prefix + ".object"]


def draft_case(f: Failure, target: Target, seed: int, engine: str, number: int) -> dict[str, Any]:
    """The failure as a case file (a mapping to write as YAML), marked as a draft."""
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
    if requires:
        case["requires"] = requires
    if options:
        case["options"] = options
    case["position"] = {side: _side_spec(s.layout, side) for side in SIDES}
    case["turn"] = s.turn
    case["roll"] = list(s.dice)
    case["context"] = s.context.to_wire()
    if s.segment is not None:
        case["segment"] = s.segment.to_wire()
    if f.aspect == "result":
        r = f.expected.values["result"]
        case["expect"] = {"not_over": True} if r is None else {"result": dict(zip(("winner", "kind", "points"), r))}
    else:
        plays = plays_text(s, f.expected.values["plays"], f.expected.layouts)
        case["expect"] = {"no_play": True} if f.expected.values["plays"] == {s.layout.key()} else {"plays": plays}
        if f.aspect == "next":
            n = f.expected.values["next"]
            case["next"] = None if n is None else {"numbers": list(n[2]), "passed": n[1]}
    case["derivation"] = (
        f"DRAFT from gammonspec fuzz (seed {seed}, a {f.kind} position, shrunk): the expectation is the reference "
        "engine's answer, not yet derived independently. Confirm it by hand or with an independent enumerator, "
        "say how here, and remove 'draft' before this case may enter the suite."
    )
    got = f.got.values[f.aspect]
    case["notes"] = (
        f"{engine} answered: missing {' | '.join(missing) or '-'}; extra {' | '.join(extra) or '-'}"
        if f.aspect == "plays"
        else f"{engine} answered {got!r}, the reference engine {f.expected.values[f.aspect]!r}"
    )
    return case


def write_draft(folder: Path, f: Failure, target: Target, seed: int, engine: str, number: int) -> Path:
    """Write the failure's draft case file and check that it loads; its path."""
    case = draft_case(f, target, seed, engine, number)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{case['id']}.yaml"
    data = {"game": f.state.game, "group": "Drafts found by fuzzing", "cases": [case]}
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110), encoding="utf-8")
    loaded = load([path])
    if loaded.errors:
        raise StateError(f"the draft {path} does not load: {loaded.errors[0]}")
    return path


def board_text(f: Failure) -> str:
    s = f.state
    lines = [draw(s.layout, s.turn)]
    if s.game in POSITION_IDS:
        name, encode = POSITION_IDS[s.game]
        lines.append(f"{name}: {encode(s)}")
    return "\n".join(lines)


def _checkers(layout: Layout) -> str:
    return ", ".join(f"{side} {sum(layout.points(side)) + layout.on_bar(side)}" for side in SIDES)


def failure_text(n: int, f: Failure) -> str:
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
        lines.append(f"reference: {f.expected.values[f.aspect]!r}; engine: {f.got.values[f.aspect]!r}")
    if f.draft:
        lines.append(f"draft case: {f.draft}")
    return "\n".join(lines)


def text(c: Campaign, rerun: str = "") -> str:
    header = f"{'ruleset or profile':<34} {'positions':>9} {'mismatch':>8} {'failures':>8} {'skipped':>7} {'errored':>7} {'pos/s':>7}"
    rows = [header]
    for t in c.tallies:
        fails = sum(f.target == t.target for f in c.failures)
        rate = t.positions / t.seconds if t.seconds else 0.0
        rows.append(
            f"{t.target:<34} {t.positions:>9} {t.mismatches:>8} {fails:>8} {t.skipped:>7} {t.errored:>7} {rate:>7.0f}"
        )
    parts = [f"gammonspec fuzz: {c.engine} against the reference engine, seed {c.seed}", "\n".join(rows)]
    parts += [failure_text(i, f) for i, f in enumerate(c.failures, 1)]
    for t in c.tallies:
        parts += [f"errored ({t.target}): {e}" for e in t.errors]
    if c.failures and any(f.draft for f in c.failures):
        folder = next(f.draft for f in c.failures if f.draft).parent
        parts.append(f"rerun the drafts: gammonspec run --cases {folder} {rerun}".rstrip())
    total = sum(t.positions for t in c.tallies)
    parts.append(
        f"{total} positions, {len(c.failures)} distinct failures"
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
            "features": list(f.features),
            "states": f.states,
            "kind": f.kind,
            "found": f.original.to_wire(),
            "shrunk": f.state.to_wire(),
            "missing": missing,
            "extra": extra,
            "expected": None if f.aspect == "plays" else f.expected.values[f.aspect],
            "engine": None if f.aspect == "plays" else f.got.values[f.aspect],
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
