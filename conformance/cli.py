"""The `gammonspec` command: run the suite, serve the reference engine, check coverage."""

from __future__ import annotations

import argparse
import math
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from . import PROTOCOL_VERSION, __version__, jobs, profiles, report_files
from .engine import STARTUP_TIMEOUT, TIMEOUT, EngineLoadError, describe_exception, load_engine
from .rulesets import rulesets
from .state import GAMES
from .terminal import ReaderGone, clipped, say, shortened
from .yamlio import DataError, read_text

if TYPE_CHECKING:
    from .cases import Case, Loaded
    from .launch import EarlyHandshake
    from .profiles import Profile
    from .rulesets import Ruleset

# Each command imports what it needs when it runs, so `serve` (started once per engine process) and
# `--help` load no more than they use.

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
T = TypeVar("T")


class _Parser(argparse.ArgumentParser):
    """Usage errors are one line, like every other error, and exit 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")


MOST_SECONDS = 86_400  # a day: the longest time limit (the clocks that wait overflow far beyond it)


def seconds(text: str) -> float:
    """A time limit from the command line: seconds above 0, at most MOST_SECONDS."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value <= MOST_SECONDS:  # false for nan too
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0 and at most {MOST_SECONDS:,}")
    return value


def _glob(text: str) -> str:
    """A glob pattern as fnmatch reads it; an unclosed '[' would silently match nothing."""
    i = 0
    while i < len(text):
        if text[i] == "[":
            end = text.find("]", i + 2 if text[i + 1 : i + 2] in ("!", "]") else i + 1)
            if end < 0:
                raise argparse.ArgumentTypeError(f"malformed pattern {text!r}: '[' without a closing ']'")
            i = end
        i += 1
    return text


def _cases_option(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--cases",
        action="append",
        type=Path,
        default=[],
        metavar="PATH",
        help="case files or folders to use instead of the shipped suite (repeatable)",
    )


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="gammonspec", description="The executable rulebook of the backgammon family.")
    parser.add_argument(
        "--version", action="version", version=f"gammonspec {__version__} (protocol {PROTOCOL_VERSION})"
    )
    commands = parser.add_subparsers(dest="command", required=True)

    run = commands.add_parser("run", help="run the suite against an engine (the reference engine by default)")
    _engine_arguments(run)
    _target_arguments(run)
    run.add_argument(
        "--rule", action="append", default=[], type=_glob, help="only cases pinning a rule ID matching this glob"
    )
    run.add_argument("--case", action="append", default=[], type=_glob, help="only case ids matching this glob")
    _cases_option(run)
    run.add_argument("--json", type=Path, metavar="FILE", help="write the JSON report here")
    run.add_argument("--junit", type=Path, metavar="FILE", help="write a JUnit XML report here")
    run.add_argument(
        "--expect-fail", type=Path, metavar="FILE", help="case ids (or ruleset::id) known to fail, one a line"
    )
    run.add_argument(
        "--quiet", "-q", action="store_true", help="failing case ids and the totals only (no progress bar, no table)"
    )
    run.add_argument("--verbose", "-v", action="store_true", help="the per-rule table with every rule")
    jobs.add_arguments(run)

    ident = commands.add_parser(
        "identify", help="which switch values and options an engine's answers are consistent with"
    )
    _engine_arguments(ident)
    ident.add_argument("--game", action="append", default=[], help="only this game (default: every game it declares)")
    ident.add_argument("--ruleset", help="ask as this ruleset (default: the engine's first of each game)")
    ident.add_argument("--profile", type=Path, metavar="FILE", help="ask as this profile")
    ident.add_argument("--switch", action="append", default=[], metavar="NAME=VALUE", help="on top of the above")
    ident.add_argument("--json", type=Path, metavar="FILE", help="write the findings as JSON here")
    ident.add_argument("--verbose", "-v", action="store_true", help="every case id (default: as many as fit a line)")
    _cases_option(ident)

    report = commands.add_parser("report", help="run the suite against engines and write one JSON file per engine")
    report.add_argument(
        "--out", type=Path, required=True, metavar="DIR", help="the folder for the JSON files (made if missing)"
    )
    report.add_argument("engines", nargs="*", metavar="ENGINE", help="installed engine names or MODULE:ATTR")
    report.add_argument(
        "--engine-cmd",
        action="append",
        default=[],
        metavar="COMMAND",
        help="an engine process speaking the protocol (spec/protocol.md); may be given more than once",
    )
    _limit_arguments(report)

    serve = commands.add_parser("serve", help="speak the engine protocol on stdin/stdout")
    serve.add_argument("--engine", default="reference", metavar="MODULE:ATTR", help="the Python engine to serve")

    fuzz = commands.add_parser("fuzz", help="compare an engine with the reference engine on random valid states")
    _engine_arguments(fuzz)
    _target_arguments(fuzz)
    fuzz.add_argument(
        "--kinds",
        type=_kinds,
        default=(),
        metavar="K,K",
        help="only these kinds of state, and no questions (default: all)",
    )
    fuzz.add_argument("--seed", type=int, default=0, help="the seed of the random states (default 0)")
    fuzz.add_argument(
        "--count",
        type=jobs.positive,
        default=1000,
        help="states per ruleset or profile, and half as many questions (default 1000)",
    )
    fuzz.add_argument("--time", type=seconds, metavar="SECONDS", help="stop after this many seconds in all")
    fuzz.add_argument("--max-failures", type=jobs.positive, default=10, help="stop at this many distinct failures")
    fuzz.add_argument(
        "--out", type=Path, default=Path("fuzz-drafts"), metavar="DIR", help="the folder for draft cases (fuzz-drafts)"
    )
    fuzz.add_argument("--json", type=Path, metavar="FILE", help="write the findings as JSON here")
    fuzz.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    fuzz.add_argument(
        "--jobs",
        "-j",
        type=jobs.positive,
        default=1,
        metavar="N",
        help="worker processes, one engine each (default 1)",
    )
    jobs.add_dask_argument(fuzz)

    commands.add_parser("coverage", help="list rule clauses and their cases; fail on gaps")
    check = commands.add_parser("check", help="load and validate every case, ruleset and spec page")
    _cases_option(check)
    check.add_argument(
        "--drafts",
        action="store_true",
        help="accept cases marked draft (those gammonspec fuzz writes), checked otherwise as every case",
    )
    matrix = commands.add_parser("matrix", help="print the disagreement table of the rulesets (Markdown)")
    matrix.add_argument(
        "--game", default="all", choices=("all", *GAMES), help="only this game's rulesets (default: all)"
    )
    commands.add_parser("pinning", help="flip each switch and option of each ruleset; fail on cases that do not pin it")

    perft = commands.add_parser("perft", help="count the positions after D whole turns, roll by roll; compare engines")
    _engine_arguments(perft)
    _target_arguments(perft)
    perft.add_argument(
        "--depth", "-d", type=_perft_depth, default=2, metavar="D", help=f"plies (default 2, at most {MAX_PERFT_DEPTH})"
    )
    where = perft.add_mutually_exclusive_group()
    where.add_argument("--xgid", help="from this backgammon position (XGID), instead of the start")
    where.add_argument(
        "--state", type=Path, metavar="FILE", help="from this protocol state (JSON), instead of the start"
    )
    perft.add_argument("--divide", action="store_true", help="the counts by first roll and by first play")
    perft.add_argument("--json", type=Path, metavar="FILE", help="write the counts (by first roll and play) here")
    jobs.add_arguments(perft)
    jobs.add_dask_argument(perft)

    export = commands.add_parser("export", help="write the resolved suite as protocol requests and expected answers")
    _target_arguments(export)
    export.add_argument("--rule", action="append", default=[], type=_glob, help="only cases pinning a matching rule")
    export.add_argument("--case", action="append", default=[], type=_glob, help="only case ids matching this glob")
    _cases_option(export)
    export.add_argument("--json", type=Path, required=True, metavar="FILE", help="write the document here")

    merge = commands.add_parser("merge", help="combine the JSON reports of the shards of a run or a perft")
    merge.add_argument("reports", nargs="+", type=Path, metavar="REPORT", help="the shards' JSON reports")
    merge.add_argument("--json", type=Path, required=True, metavar="FILE", help="write the merged report here")

    replay = commands.add_parser("replay", help="check recorded matches (.mat, GNU Backgammon SGF) against an engine")
    replay.add_argument(
        "files", nargs="+", type=Path, metavar="FILE", help="match transcripts (.mat, .txt or .sgf), or folders of them"
    )
    _engine_arguments(replay)
    _target_arguments(replay)
    replay.add_argument("--json", type=Path, metavar="FILE", help="write the report as JSON here")
    replay.add_argument("--quiet", "-q", action="store_true", help="errors and totals only (no notes)")
    return parser


def _target_arguments(command: argparse.ArgumentParser) -> None:
    """What a command runs under: rulesets, games, profiles, switch values (as `gammonspec run` takes them)."""
    command.add_argument("--game", action="append", default=[], choices=GAMES, help="only this game (repeatable)")
    command.add_argument("--ruleset", action="append", default=[], help="only this ruleset (repeatable)")
    command.add_argument(
        "--profile", action="append", default=[], type=Path, metavar="FILE", help="run under this profile (YAML)"
    )
    command.add_argument(
        "--switch",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a switch value or option on top of each ruleset or profile run (repeatable)",
    )


def _kinds(text: str) -> tuple[str, ...]:
    from .generators import KINDS

    names = tuple(k.strip() for k in text.split(",") if k.strip())
    unknown = [k for k in names if k not in KINDS]
    if unknown or not names:
        # the first unknown name only, cut to 12 characters: the line with every kind stays within 300
        named = shortened(unknown[0], 12) + (f" and {len(unknown) - 1} more" if len(unknown) > 1 else "") if unknown else ""
        raise argparse.ArgumentTypeError(f"unknown kind {named or repr(shortened(text, 12))} (kinds: {' '.join(KINDS)})")
    return names


def _engine_arguments(command: argparse.ArgumentParser) -> None:
    engine = command.add_mutually_exclusive_group()
    engine.add_argument("--engine", metavar="MODULE:ATTR", help="a Python engine, or the name of an installed one")
    engine.add_argument(
        "--engine-cmd", metavar="COMMAND", help="an engine process speaking the protocol (spec/protocol.md)"
    )
    _limit_arguments(command)


def _limit_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("--timeout", type=seconds, help=f"seconds per request (default {TIMEOUT:g})")
    command.add_argument(
        "--startup-timeout",
        type=seconds,
        help="seconds for the engine to start and answer the handshake"
        f" (default: --timeout when given, else {STARTUP_TIMEOUT:g})",
    )


def _limits(args: argparse.Namespace) -> None:
    """The time limits in full: the handshake's is --startup-timeout, else --timeout, else the default."""
    if hasattr(args, "timeout"):
        if args.startup_timeout is None:
            args.startup_timeout = STARTUP_TIMEOUT if args.timeout is None else args.timeout
        if args.timeout is None:
            args.timeout = TIMEOUT


def _loaded(args: argparse.Namespace) -> Loaded:
    from .cases import load, shipped

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


def _apart(args: argparse.Namespace) -> None:
    """A run's reports go to two files, neither of them one it reads (a case file, the known failures)."""
    read = [("--cases", p) for p in args.cases] + ([("--expect-fail", args.expect_fail)] if args.expect_fail else [])
    written = [(o, p) for o, p in (("--json", args.json), ("--junit", args.junit)) if p is not None]
    for k, (option, path) in enumerate(written):
        for other, taken in read + written[:k]:
            if path.resolve() == taken.resolve():
                raise DataError(path, None, f"{option}: the same file as {other}: a run never writes over what it uses")


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


def _targets(profile_files: list[Path], switches: list[str]) -> dict[str, Ruleset | Profile]:
    """What the cases run under: the profiles given, or every ruleset; `--switch` values on top of each."""
    targets: list[Ruleset | Profile] = [profiles.load(path) for path in profile_files] or list(rulesets().values())
    if switches:
        changes = profiles.parse_overrides(switches)
        targets = [profiles.override(target, changes) for target in targets]
    return {target.name: target for target in targets}


def _selected_targets(args: argparse.Namespace) -> dict[str, Ruleset | Profile]:
    """The rulesets or profiles of `_target_arguments`, narrowed to the games and rulesets named; ValueError if none."""
    unknown = set(args.ruleset) - set(rulesets())
    if unknown:
        raise ValueError(f"unknown ruleset {', '.join(sorted(unknown))} (known: {', '.join(rulesets())})")
    targets = {
        name: t
        for name, t in _targets(args.profile, args.switch).items()
        if (not args.game or t.game in args.game)
        and (not args.ruleset or {t.name, getattr(t, "base", t.name)} & set(args.ruleset))
    }
    if not targets:
        raise ValueError("no ruleset or profile matches --game and --ruleset")
    return targets


def _under_targets(args: argparse.Namespace, command: Callable[[argparse.Namespace, dict], int]) -> int:
    """Run `command` under the selected rulesets and profiles; a selection that names none is a usage error."""
    try:
        targets = _selected_targets(args)
    except ValueError as exc:
        say(exc)
        return EXIT_USAGE
    return command(args, targets)


def cmd_perft(args: argparse.Namespace) -> int:
    from . import perft_command

    return _under_targets(args, perft_command.command)


def cmd_export(args: argparse.Namespace) -> int:
    from . import export
    from .runner import Filters, plan

    report_files.claim("--json", args.json)
    loaded = _loaded(args)
    for problem in loaded.errors:
        say(problem)
    try:
        targets = _targets(args.profile, args.switch)
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

    from .merge import merge

    out = report_files.claim("--json", args.json)
    if any(p.resolve() == out for p in args.reports):
        raise DataError(args.json, None, "--json: is one of the reports being merged (it would be overwritten)")
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
    from .launch import EarlyHandshake, fail, start

    unknown = set(args.ruleset) - set(rulesets())
    if unknown:
        say(f"unknown ruleset {', '.join(sorted(unknown))} (known: {', '.join(rulesets())})")
        return EXIT_USAGE
    report_files.claim("--json", args.json)
    report_files.claim("--junit", args.junit)
    _apart(args)
    try:
        early = EarlyHandshake(start(args))  # an engine process starts while the cases load
    except EngineLoadError as exc:
        return fail(args, str(exc))
    try:
        return _run_cases(args, early)
    finally:
        early.close()


def _run_cases(args: argparse.Namespace, early: EarlyHandshake) -> int:
    from .launch import fail, run_engine
    from .runner import Filters, plan

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
        return fail(args, "no case loaded: nothing to run", "\n".join(map(str, problems)), said=True)
    unmatched = _unmatched("--rule", "rule ID", args.rule, {r for c in loaded.cases for r in c.rule_ids}) or _unmatched(
        "--case", "case id", args.case, {c.id for c in loaded.cases}
    )
    if unmatched:
        return fail(args, unmatched)
    filters = Filters(tuple(args.game), tuple(args.ruleset), tuple(args.rule), tuple(args.case))
    try:
        targets = _targets(args.profile, args.switch)
    except ValueError as exc:
        return fail(args, str(exc))
    pairs = plan(loaded.cases, targets, filters)
    if not pairs:
        return fail(args, _nothing_planned(args, loaded.cases))
    status = run_engine(
        args,
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


MAX_PERFT_DEPTH = 4  # backgammon's depth 3 is about 1.9 million requests; each further ply some 400 times that


def _perft_depth(text: str) -> int:
    depth = jobs.positive(text)
    if depth > MAX_PERFT_DEPTH:
        raise argparse.ArgumentTypeError(
            f"{depth} plies: at most {MAX_PERFT_DEPTH} (each ply multiplies the requests some 400 times; backgammon's"
            " depth 3 is about 1.9 million)"
        )
    return depth


def _progress_bar(quiet: bool, total: int) -> Callable[[Iterable[T]], Iterable[T]]:
    """The run's progress bar on stderr (tqdm, imported only when it is shown); none with --quiet."""
    if quiet:
        return lambda it: it
    from tqdm import tqdm

    return lambda it: tqdm(it, total=total, unit="case", file=sys.stderr, disable=None)


def cmd_fuzz(args: argparse.Namespace) -> int:
    from .fuzz_command import command

    report_files.claim("--json", args.json)
    existing = next(p for p in (args.out, *args.out.parents) if p.exists())
    if not existing.is_dir() or not os.access(existing, os.W_OK):
        raise DataError(args.out, None, f"--out: {existing} is not a folder that can be written")
    return _under_targets(args, command)


def cmd_identify(args: argparse.Namespace) -> int:
    import json

    from . import identify, identify_report
    from .launch import handshake, start

    report_files.claim("--json", args.json)
    engine = start(args)
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
        results = [identify.identify(engine, cases, profiles.override(t, changes)) for t in targets]
    except (ValueError, EngineLoadError) as exc:
        say(exc)
        return EXIT_USAGE
    finally:
        if hasattr(engine, "close"):
            engine.close()
    print("\n\n".join(identify_report.text(r, args.verbose) for r in results))
    if args.json:
        report_files.write(args.json, json.dumps([identify_report.to_json(r) for r in results], indent=2) + "\n")
    return EXIT_FAILED if any(r.unexplained or r.errored for r in results) else EXIT_OK


def cmd_report(args: argparse.Namespace) -> int:
    from . import engine_report
    from .cases import suite
    from .subprocess_engine import SubprocessEngine

    if not args.engines and not args.engine_cmd:
        say("report: name an engine (ENGINE or --engine-cmd COMMAND)")
        return EXIT_USAGE
    if args.out.exists() and not args.out.is_dir():
        say(f"--out {args.out}: not a folder")
        return EXIT_USAGE
    engines = [(name, load_engine(name)) for name in args.engines]  # every name checked before any run
    engines += [(cmd, SubprocessEngine(cmd, args.timeout, args.startup_timeout)) for cmd in args.engine_cmd]
    args.out.mkdir(parents=True, exist_ok=True)
    worst = EXIT_OK
    for name, engine in engines:
        data = engine_report.build(engine, suite(), name)
        path = engine_report.write(args.out, data)
        s = data["summary"]
        if "not_driven" in data:  # written so the results page says why, yet nothing was checked
            print(clipped(f"{path}: not driven: {data['not_driven']}"))
        else:
            print(f"{path}: {s['passed']} passed, {s['failed']} failed, {s['errored']} errored, {s['skipped']} skipped")
        if s["failed"] or s["errored"] or "not_driven" in data:
            worst = EXIT_FAILED
    return worst


def cmd_serve(args: argparse.Namespace) -> int:
    from .protocol import serve

    return serve(load_engine(args.engine), name=args.engine)


def cmd_coverage(args: argparse.Namespace) -> int:
    from .cases import suite
    from .coverage import report

    text, ok = report(suite())
    print(text)
    return EXIT_OK if ok else EXIT_FAILED


def cmd_check(args: argparse.Namespace) -> int:
    from .cases import load, shipped
    from .coverage import clauses

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
    from .matrix import fill

    print(fill(f"<!-- disagreements: {args.game} -->"))
    return EXIT_OK


def cmd_pinning(args: argparse.Namespace) -> int:
    from .cases import suite
    from .pinning import check, ok, table

    results = check(load_engine("reference"), suite(), rulesets())
    print(table(results))
    return EXIT_OK if ok(results) else EXIT_FAILED


def cmd_replay(args: argparse.Namespace) -> int:
    from . import replay

    report_files.claim("--json", args.json)
    return _under_targets(args, replay.main)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    _limits(args)
    handler = {
        "run": cmd_run,
        "identify": cmd_identify,
        "fuzz": cmd_fuzz,
        "report": cmd_report,
        "serve": cmd_serve,
        "coverage": cmd_coverage,
        "check": cmd_check,
        "matrix": cmd_matrix,
        "pinning": cmd_pinning,
        "perft": cmd_perft,
        "merge": cmd_merge,
        "export": cmd_export,
        "replay": cmd_replay,
    }[args.command]
    stdout, sys.stdout = sys.stdout, ReaderGone(sys.stdout)
    main_thread = threading.current_thread() is threading.main_thread()
    on_term = signal.signal(signal.SIGTERM, _terminate) if main_thread else None
    on_int = signal.signal(signal.SIGINT, _interrupt) if main_thread and _default_sigint() else None
    try:
        return handler(args)
    except (DataError, EngineLoadError) as exc:
        say(exc)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return _interrupted("interrupted", 130)
    except Terminated:
        return _interrupted("terminated", 143)
    except BrokenPipeError:  # serve's reader has gone
        sys.stderr.close()
        return EXIT_OK
    except Exception as exc:  # noqa: BLE001 - a bug of gammonspec's: one located line, never a traceback
        say(f"internal error, please report it: {describe_exception(exc)}")
        return EXIT_USAGE
    finally:
        sys.stdout = stdout
        report_files.release()
        if on_term is not None:
            signal.signal(signal.SIGTERM, on_term)
        if on_int is not None:
            signal.signal(signal.SIGINT, on_int)


class Terminated(BaseException):
    """SIGTERM arrived (a cancelled CI job): ends the command as Ctrl-C does."""


def _terminate(signum: int, frame: object) -> None:
    raise Terminated


class Interrupted(KeyboardInterrupt):
    """Ctrl-C, caught as any KeyboardInterrupt is.  Raised in its place because CPython marks a bare
    KeyboardInterrupt that passes through code run by exec() of a string (dataclasses and namedtuples make
    their methods so) as unhandled, and then ends the process by the signal (status -2) even after it was
    handled and the command returned 130."""


def _interrupt(signum: int, frame: object) -> None:
    raise Interrupted


def _default_sigint() -> bool:
    """Python's own Ctrl-C handler is in place (not ignored, as in a background job, nor replaced by a host)."""
    return signal.getsignal(signal.SIGINT) is signal.default_int_handler


def _interrupted(how: str, status: int) -> int:
    """One line for a run cut short; an earlier report at a path this run was to write is removed, so that
    it cannot read as this run's (exit 130 for Ctrl-C, 143 for SIGTERM)."""
    unwritten = report_files.pending()
    removed = report_files.abandon()
    gone = f"; removed the earlier report {', '.join(map(str, removed))}, which was not this run's" if removed else ""
    say(clipped(f"{how} before the end: no report of this run{gone}" if unwritten else how))
    return status


if __name__ == "__main__":
    sys.exit(main())
