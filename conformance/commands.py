"""The commands: each reads its parsed arguments once into its tool's options and calls the tool.

This module and cli.py (the parser) are the only ones that read an argparse Namespace; below them
every tool takes a frozen options object (launch.RunOptions, perft_command.PerftOptions, ...)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from gammonspec.conformance.harness import report_files
from gammonspec.conformance.harness.loading import load_engine
from gammonspec.model import profiles
from gammonspec.model.interface import EngineFailure, EngineLoadError
from gammonspec.model.rulesets import rulesets
from gammonspec.model.terminal import clipped, printable, say, shortened
from gammonspec.model.yamlio import DataError, read_text

if TYPE_CHECKING:
    from gammonspec.conformance.harness.cases import Case, Loaded
    from gammonspec.conformance.harness.jobs import Shard
    from gammonspec.conformance.harness.launch import EarlyHandshake, EngineSpec, RunOptions
    from gammonspec.model.profiles import Profile
    from gammonspec.model.rulesets import Ruleset

# Each command imports what it needs when it runs, so `serve` (started once per engine process) and
# `--help` load no more than they use.

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
T = TypeVar("T")
Opts = TypeVar("Opts")


def engine_spec(args: argparse.Namespace) -> EngineSpec:
    """The engine the arguments name, with its time limits in full (cli.limits filled them in)."""
    from gammonspec.conformance.harness.launch import EngineSpec

    return EngineSpec(args.engine, args.engine_cmd, args.timeout, args.startup_timeout)


def shard_of(args: argparse.Namespace) -> Shard | None:
    """The shard --shard I/N names, dealt with --seed."""
    from gammonspec.conformance.harness.jobs import Shard

    return None if args.shard is None else Shard(args.shard.index, args.shard.count, args.seed)


def _options(cls: Callable[..., Opts], args: argparse.Namespace, **given: Any) -> Opts:
    """The options object `cls` from the arguments of the same names (lists as tuples), and `given` on top; the
    options have no defaults of their own: the parser is the one place that sets them."""
    values: dict[str, Any] = {}
    for f in fields(cls):  # type: ignore[arg-type]
        if f.name not in given and hasattr(args, f.name):
            value = getattr(args, f.name)
            values[f.name] = tuple(value) if isinstance(value, list) else value
    return cls(**values, **given)


def run_options(args: argparse.Namespace) -> RunOptions:
    """`gammonspec run`'s options for the engine's side (launch.py)."""
    from gammonspec.conformance.harness.launch import RunOptions

    return _options(RunOptions, args, engine=engine_spec(args), shard=shard_of(args))


def _loaded(args: argparse.Namespace) -> Loaded:
    from gammonspec.conformance.harness.cases import load, shipped

    return load(args.cases) if args.cases else shipped()



def _read_expect_fail(path: Path, cases: tuple[Case, ...]) -> tuple[set[str], list[DataError]]:
    """The listed ids (or ruleset::id), and an error for each line that names no case (the list stays honest)."""
    ids, known, stale = set(), {c.id for c in cases}, []
    for n, line in enumerate(read_text(path).splitlines(), 1):
        entry = line.split("#")[0].strip()
        if not entry:
            continue
        ruleset, _, case_id = entry.rpartition("::")
        if ruleset and ruleset not in rulesets():
            stale.append(DataError(path, n, f"unknown ruleset {ruleset!r} (known: {', '.join(rulesets())})"))
        elif case_id not in known:
            stale.append(DataError(path, n, f"no case {case_id!r} in the cases loaded (a stale entry?)"))
        ids.add(entry)
    return ids, stale



def _inputs(args: argparse.Namespace) -> list[tuple[str, Path, tuple[str, ...]]]:
    """The files and folders a command reads (option, path, the suffixes a folder is searched for)."""
    from gammonspec.conformance.harness.cases import SUFFIXES

    read = [("--cases", p, SUFFIXES) for p in getattr(args, "cases", [])]
    profile = getattr(args, "profile", [])
    read += [("--profile", p, ()) for p in (profile if isinstance(profile, list) else [profile] if profile else [])]
    read += [(option, getattr(args, name), ()) for option, name in (("--expect-fail", "expect_fail"), ("--state", "state")) if getattr(args, name, None)]
    return read


def _claim(args: argparse.Namespace, *options: str, read: list[tuple[str, Path, tuple[str, ...]]] | None = None) -> None:
    """Claim the command's reports (report_files.claim), each apart from what it reads and from the others."""
    written = [(option, getattr(args, option.lstrip("-"))) for option in options]
    for option, path in written:
        report_files.claim(option, path)
    report_files.apart(written, _inputs(args) + (read or []))


def _unmatched(option: str, what: str, patterns: list[str], values: set[str]) -> str | None:
    from fnmatch import fnmatchcase

    for pattern in patterns:
        if not any(fnmatchcase(v, pattern) for v in values):
            return f"{option} {shortened(pattern)!r} matches no {what} of the {len(values)} in the cases loaded"
    return None



def _nothing_planned(args: argparse.Namespace, cases: tuple[Case, ...]) -> str:
    """Why no case runs under any target, when every filter given matched something."""
    if args.game or args.ruleset or args.rule or args.case:
        return "no case matches the filters"
    under = "the profiles and --switch values given" if args.profile or args.switch else "the rulesets"
    return f"no case loaded ({len(cases)}) applies: {under} lack the switch values or options the cases require"



def _loaded_targets(profile_files: list[Path]) -> list[Ruleset | Profile]:
    """The profiles given (each name once), or every ruleset."""
    loaded = [profiles.load(path) for path in profile_files]
    for k, profile in enumerate(loaded):
        first = next((path for path, p in zip(profile_files, loaded[:k]) if p.name == profile.name), None)
        if first is not None:
            raise DataError(
                profile_files[k], None, f"profile {profile.name}: the name of the profile in {first} too (each needs its own)"
            )
    return list(loaded) or list(rulesets().values())


def _switched(targets: list[Ruleset | Profile], switches: list[str]) -> list[Ruleset | Profile]:
    """`--switch` values on top of each target (an option where it has that option)."""
    return profiles.override_all(targets, profiles.parse_overrides(switches)) if switches else targets


def _targets(args: argparse.Namespace) -> dict[str, Ruleset | Profile]:
    """What the cases run under: the profiles given, or every ruleset, narrowed to the games and rulesets named;
    `--switch` values on top of each."""
    targets = [
        t
        for t in _loaded_targets(args.profile)
        if (not args.game or t.game in args.game)
        and (not args.ruleset or {t.name, getattr(t, "base", t.name)} & set(args.ruleset))
    ]
    return {target.name: target for target in _switched(targets, args.switch)}


def _selected_targets(args: argparse.Namespace) -> dict[str, Ruleset | Profile]:
    """The rulesets or profiles of `_target_arguments` (`_targets`); ValueError if none."""
    unknown = set(args.ruleset) - set(rulesets())
    if unknown:
        raise ValueError(f"unknown ruleset {', '.join(sorted(unknown))} (known: {', '.join(rulesets())})")
    targets = _targets(args)
    if not targets:
        raise ValueError("no ruleset or profile matches --game and --ruleset")
    return targets


def _under_targets(args: argparse.Namespace, command: Callable[[dict[str, Ruleset | Profile]], int]) -> int:
    """Run `command` under the selected rulesets and profiles; a selection that names none is a usage error."""
    try:
        targets = _selected_targets(args)
    except ValueError as exc:
        say(exc)
        return EXIT_USAGE
    return command(targets)



def cmd_perft(args: argparse.Namespace) -> int:
    from gammonspec.conformance.tools.perft_command import PerftOptions, command

    _claim(args, "--json")
    spec = engine_spec(args)
    options = _options(PerftOptions, args, engine=spec if spec.named else None, shard=shard_of(args))
    return _under_targets(args, lambda targets: command(options, targets))



def cmd_export(args: argparse.Namespace) -> int:
    from gammonspec.conformance.harness.runner import Filters, plan
    from gammonspec.conformance.tools import export

    _claim(args, "--json")
    loaded = _loaded(args)
    for problem in loaded.errors:
        say(problem)
    try:
        targets = _targets(args)
    except ValueError as exc:
        say(exc)
        return EXIT_USAGE
    unknown = set(args.ruleset) - set(rulesets())
    unmatched = _unmatched("--rule", "rule ID", args.rule, {r for c in loaded.cases for r in c.rule_ids}) or _unmatched(
        "--case", "case id", args.case, {c.id for c in loaded.cases}
    )
    if unknown or unmatched:
        say(unmatched or f"unknown ruleset {', '.join(sorted(unknown))} (known: {', '.join(rulesets())})")
        return EXIT_USAGE
    pairs = plan(
        loaded.cases, targets, Filters(tuple(args.game), tuple(args.ruleset), tuple(args.rule), tuple(args.case))
    )
    if not pairs:
        say(_nothing_planned(args, loaded.cases))
        return EXIT_USAGE
    data = export.document(pairs, _progress_bar(False, len(pairs)))  # drawn on a terminal only
    export.check(data)
    report_files.write(args.json, export.dumps(data))
    print(
        f"{args.json}: {len(pairs)} cases ({len({c.id for c, _ in pairs})} distinct) under {len({t.name for _, t in pairs})} rulesets, {sum(len(c['requests']) for c in data['cases'])} requests"
    )
    return EXIT_USAGE if loaded.errors else EXIT_OK



def cmd_merge(args: argparse.Namespace) -> int:
    import json

    from gammonspec.conformance.tools.merge import merge

    _claim(args, "--json", read=[("a report being merged", p, ()) for p in args.reports])
    merged = merge(args.reports)
    report_files.write(args.json, json.dumps(merged, indent=2) + "\n")
    if merged.get("kind") == "perft":
        print(
            f"{args.json}: "
            + "; ".join(f"{t['target']} depth {t['depth']}: {t['positions']} positions" for t in merged["tables"])
        )
        return EXIT_OK
    s = merged["summary"]
    print(f"{args.json}: {s['passed']} passed, {s['failed']} failed, {s['errored']} errored, {s['skipped']} skipped")
    return EXIT_FAILED if s["failed"] or s["errored"] or s["xpassed"] else EXIT_OK



def cmd_run(args: argparse.Namespace) -> int:
    from gammonspec.conformance.harness.launch import EarlyHandshake, fail, start

    options = run_options(args)

    unknown = set(args.ruleset) - set(rulesets())
    if unknown:
        say(f"unknown ruleset {', '.join(sorted(unknown))} (known: {', '.join(rulesets())})")
        return EXIT_USAGE
    _claim(args, "--json", "--junit")
    try:
        early = EarlyHandshake(start(options.engine))  # an engine process starts while the cases load
    except EngineLoadError as exc:
        return fail(options, str(exc))
    try:
        return _run_cases(args, options, early)
    finally:
        early.close()



def _run_cases(args: argparse.Namespace, options: RunOptions, early: EarlyHandshake) -> int:
    from gammonspec.conformance.harness.launch import fail, run_engine
    from gammonspec.conformance.harness.runner import Filters, plan

    loaded = _loaded(args)
    problems = list(loaded.errors)
    if args.expect_fail:
        expect_fail, stale = _read_expect_fail(args.expect_fail, loaded.cases)
        problems += stale
    else:
        expect_fail = set()
    for problem in problems:
        say(problem)
    if not loaded.cases:  # the reports say so too, with the problems (a CI job reads them, not the terminal)
        return fail(options, "no case loaded: nothing to run", "\n".join(map(str, problems)), said=True)
    unmatched = _unmatched("--rule", "rule ID", args.rule, {r for c in loaded.cases for r in c.rule_ids}) or _unmatched(
        "--case", "case id", args.case, {c.id for c in loaded.cases}
    )
    if unmatched:
        return fail(options, unmatched)
    filters = Filters(tuple(args.game), tuple(args.ruleset), tuple(args.rule), tuple(args.case))
    try:
        targets = _targets(args)
    except ValueError as exc:
        return fail(options, str(exc))
    pairs = plan(loaded.cases, targets, filters)
    if not pairs:
        return fail(options, _nothing_planned(args, loaded.cases))
    status = run_engine(
        options,
        early,
        pairs,
        expect_fail,
        _progress_bar(args.quiet, len(pairs)),
        own_profiles=not (args.profile or args.switch),
    )
    if problems:
        n, ran = len(problems), len({case.id for case, _ in pairs})
        say(
            f"{n} problem{'s' * (n != 1)} in the input (listed first); {ran} case{'s' * (ran != 1)} ran"
            f" ({len(pairs)} case-ruleset pairs, as the summary counts them)"
        )
        return EXIT_USAGE
    return status



def _progress_bar(quiet: bool, total: int) -> Callable[[Iterable[T]], Iterable[T]]:
    """The run's progress bar on stderr (tqdm, imported only when it is shown); none with --quiet."""
    if quiet:
        return lambda it: it
    from tqdm import tqdm

    return lambda it: tqdm(it, total=total, unit="case", file=sys.stderr, disable=None)



def cmd_fuzz(args: argparse.Namespace) -> int:
    from gammonspec.conformance.tools.fuzz_command import FuzzOptions, command

    _claim(args, "--json")
    options = _options(FuzzOptions, args, engine=engine_spec(args))
    existing = next(p for p in (args.out, *args.out.parents) if p.exists())
    if not existing.is_dir() or not os.access(existing, os.W_OK):
        raise DataError(args.out, None, f"--out: {existing} is not a folder that can be written")
    return _under_targets(args, lambda targets: command(options, targets))



def cmd_identify(args: argparse.Namespace) -> int:
    import json

    from gammonspec.conformance.harness.launch import handshake, start
    from gammonspec.conformance.tools import identify, identify_report

    _claim(args, "--json")
    engine = start(engine_spec(args))
    try:
        info = handshake(engine)
        if args.profile or args.ruleset:
            if args.ruleset and args.ruleset not in rulesets():
                say(f"unknown ruleset {args.ruleset} (known: {', '.join(rulesets())})")
                return EXIT_USAGE
            declared = [profiles.load(args.profile) if args.profile else rulesets()[args.ruleset]]
        else:
            declared = [*info.profiles, *(rulesets()[n] for n in info.rulesets if n in rulesets())]
        changes = profiles.parse_overrides(args.switch)
        games = args.game or sorted({t.game for t in declared})
        targets = [identify.asked_as(declared, game) for game in games]
        if not targets or not all(targets):
            say(f"the engine declares no ruleset or profile of {', '.join(games) or 'any game'}")
            return EXIT_USAGE
        cases = _loaded(args).cases
        results = [identify.identify(engine, cases, t) for t in profiles.override_all(targets, changes)]
    except (ValueError, EngineLoadError) as exc:
        say(exc)
        return EXIT_USAGE
    finally:
        if hasattr(engine, "close"):
            engine.close()
    print(printable("\n\n".join(identify_report.text(r, args.verbose) for r in results)))
    if args.json:
        report_files.write(args.json, json.dumps([identify_report.to_json(r) for r in results], indent=2) + "\n")
    return EXIT_FAILED if any(r.unexplained or r.errored for r in results) else EXIT_OK



def cmd_report(args: argparse.Namespace) -> int:
    from gammonspec.conformance.harness.cases import suite
    from gammonspec.conformance.harness.launch import start
    from gammonspec.conformance.tools import engine_report

    try:
        origin = engine_report.source(args.source) if args.source else None
    except ValueError as exc:
        say(f"--source {exc}")
        return EXIT_USAGE
    unbuilt = origin is not None and "not_driven" in origin
    if not (args.engines or args.engine_cmd or unbuilt):
        say("report: name an engine (ENGINE or --engine-cmd COMMAND)")
        return EXIT_USAGE
    if unbuilt and (args.engines or args.engine_cmd):
        say(f"report: --source {args.source} is of an engine not driven: its report is written alone, name no engine")
        return EXIT_USAGE
    if origin is not None and len(args.engines) + len(args.engine_cmd) > 1:
        say(f"report: --source {args.source} describes one engine: name one")
        return EXIT_USAGE
    if args.out.exists() and not args.out.is_dir():
        say(f"--out {args.out}: not a folder")
        return EXIT_USAGE
    engines = [(name, load_engine(name)) for name in args.engines]  # every name checked before any run
    if origin is not None and unbuilt:
        from gammonspec.engines.base import Unbuilt

        pinned = origin.get("commit", "")[:7] or "unknown"
        engines.append((origin["name"], Unbuilt(origin["name"], pinned, origin["not_driven"])))
    from gammonspec.conformance.harness.launch import EngineSpec

    try:
        engines += [(cmd, start(EngineSpec(engine_cmd=cmd, timeout=args.timeout, startup_timeout=args.startup_timeout))) for cmd in args.engine_cmd]
        args.out.mkdir(parents=True, exist_ok=True)
        worst = EXIT_OK
        for name, engine in engines:
            data = engine_report.build(engine, suite(), name)
            if origin is not None:  # driven from a checkout: its origin, not the command line with the checkout's path
                data["engine"].update({"adapter": origin["name"], "source": origin})
            path = engine_report.write(args.out, data)
            s = data["summary"]
            if "not_driven" in data:  # written so the results page says why, yet nothing was checked
                print(clipped(f"{path}: not driven: {data['not_driven']}"))
            else:
                print(f"{path}: {s['passed']} passed, {s['failed']} failed, {s['errored']} errored, {s['skipped']} skipped")
            if s["failed"] or s["errored"] or "not_driven" in data:
                worst = EXIT_FAILED
    except EngineFailure as exc:
        say(exc)
        return EXIT_USAGE
    finally:  # every engine process stopped, with what it started
        for _, engine in engines:
            if hasattr(engine, "close"):
                engine.close()
    return worst



def cmd_serve(args: argparse.Namespace) -> int:
    from gammonspec.conformance.harness.protocol import serve

    return serve(load_engine(args.engine), name=args.engine)



def cmd_coverage(args: argparse.Namespace) -> int:
    from gammonspec.conformance.harness.cases import suite
    from gammonspec.conformance.harness.coverage import report

    text, ok = report(suite())
    print(text)
    return EXIT_OK if ok else EXIT_FAILED



def cmd_check(args: argparse.Namespace) -> int:
    from gammonspec.conformance.harness.cases import load, shipped
    from gammonspec.model.clauses import clauses

    # the loader's checks, as every command that loads cases has them (run --cases refuses the same)
    loaded, specs = load(args.cases, drafts=args.drafts) if args.cases else shipped(), clauses()
    problems = loaded.errors
    for problem in problems:
        say(problem)
    if problems:
        bad = len({p.case for p in problems if p.case})
        files = sum(not p.case for p in problems)
        where = f"in {bad} case{'s' * (bad != 1)}" + (f" (and {files} about a whole file)" if files else "")
        valid = len(loaded.cases)
        say(f"{len(problems)} problem{'s' * (len(problems) != 1)} {where}; {valid} case{'s' * (valid != 1)} valid")
        return EXIT_USAGE
    print(f"{len(loaded.cases)} cases, {len(rulesets())} rulesets, {len(specs)} rule clauses: all valid")
    return EXIT_OK



def cmd_matrix(args: argparse.Namespace) -> int:
    from gammonspec.conformance.tools.matrix import fill

    print(fill(f"<!-- disagreements: {args.game} -->"))
    return EXIT_OK



def cmd_pinning(args: argparse.Namespace) -> int:
    from gammonspec.conformance.harness.cases import suite
    from gammonspec.conformance.tools.pinning import check, ok, table

    results = check(load_engine("reference"), suite(), rulesets())
    print(table(results))
    return EXIT_OK if ok(results) else EXIT_FAILED



def cmd_replay(args: argparse.Namespace) -> int:
    from gammonspec.conformance.tools.replay import ReplayOptions, main
    from gammonspec.conformance.tools.transcripts import SUFFIXES

    _claim(args, "--json", read=[("a transcript replayed", p, SUFFIXES) for p in args.files])
    options = _options(ReplayOptions, args, engine=engine_spec(args))
    return _under_targets(args, lambda targets: main(options, targets))




def cmd_ask(args: argparse.Namespace) -> int:
    from gammonspec.conformance.harness.launch import EngineSpec
    from gammonspec.conformance.tools.ask_command import AskOptions, command, refuse
    from gammonspec.conformance.tools.ask_input import Given

    given = Given(args.turn, args.dice, args.first_turn, args.rolls_in_game, args.head_moves, args.segment, args.passed)
    limits = {"timeout": args.timeout, "startup_timeout": args.startup_timeout}
    engines = [EngineSpec(engine=name, **limits) for name in args.engine]
    engines += [EngineSpec(engine_cmd=cmd, **limits) for cmd in args.engine_cmd]
    try:
        targets = tuple(_switched(_loaded_targets(args.profile), args.switch))
    except ValueError as exc:
        return refuse(exc)
    options = AskOptions(
        position=args.position,
        case=args.case,
        cases=tuple(args.cases),
        given=given,
        targets=targets,
        switched=tuple(text.partition("=")[0] for text in args.switch),
        ruleset=tuple(args.ruleset),
        engines=tuple(engines),
        json=args.json,
        flips=not args.no_flips,
    )
    return command(options)
