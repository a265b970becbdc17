"""The `gammonspec` command: run the suite, serve the reference engine, check coverage."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tqdm import tqdm

from . import PROTOCOL_VERSION, __version__, profiles
from .cases import suite
from .engine import Engine, EngineLoadError, load_engine
from .profiles import Profile
from .rules import Ruleset, rulesets
from .yamlio import DataError

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gammonspec", description="The executable rulebook of the backgammon family.")
    parser.add_argument(
        "--version", action="version", version=f"gammonspec {__version__} (protocol {PROTOCOL_VERSION})"
    )
    commands = parser.add_subparsers(dest="command", required=True)

    run = commands.add_parser("run", help="run the suite against an engine (the reference engine by default)")
    _engine_arguments(run)
    run.add_argument("--game", action="append", default=[], help="only this game (repeatable)")
    run.add_argument("--ruleset", action="append", default=[], help="only this ruleset (repeatable)")
    run.add_argument(
        "--profile", action="append", default=[], type=Path, metavar="FILE", help="run under this profile (YAML)"
    )
    run.add_argument(
        "--switch",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a switch value or option on top of each ruleset or profile run (repeatable)",
    )
    run.add_argument("--rule", action="append", default=[], help="only cases pinning a rule ID matching this glob")
    run.add_argument("--case", action="append", default=[], help="only case ids matching this glob")
    run.add_argument("--json", type=Path, metavar="FILE", help="write the JSON report here")
    run.add_argument("--junit", type=Path, metavar="FILE", help="write a JUnit XML report here")
    run.add_argument(
        "--expect-fail", type=Path, metavar="FILE", help="case ids (or ruleset::id) known to fail, one a line"
    )
    run.add_argument("--quiet", "-q", action="store_true", help="no progress bar and no per-rule table")

    ident = commands.add_parser(
        "identify", help="which switch values and options an engine's answers are consistent with"
    )
    _engine_arguments(ident)
    ident.add_argument("--game", action="append", default=[], help="only this game (default: every game it declares)")
    ident.add_argument("--ruleset", help="ask as this ruleset (default: the engine's first of each game)")
    ident.add_argument("--profile", type=Path, metavar="FILE", help="ask as this profile")
    ident.add_argument("--switch", action="append", default=[], metavar="NAME=VALUE", help="on top of the above")
    ident.add_argument("--json", type=Path, metavar="FILE", help="write the findings as JSON here")

    serve = commands.add_parser("serve", help="speak the engine protocol on stdin/stdout")
    serve.add_argument("--engine", default="reference", metavar="MODULE:ATTR", help="the Python engine to serve")

    commands.add_parser("coverage", help="list rule clauses and their cases; fail on gaps")
    commands.add_parser("check", help="load and validate every case, ruleset and spec page")
    matrix = commands.add_parser("matrix", help="print the disagreement table of the rulesets (Markdown)")
    matrix.add_argument("--game", default="all", help="only this game's rulesets (default: all)")
    return parser


def _engine_arguments(command: argparse.ArgumentParser) -> None:
    engine = command.add_mutually_exclusive_group()
    engine.add_argument("--engine", metavar="MODULE:ATTR", help="a Python engine, or the name of an installed one")
    engine.add_argument(
        "--engine-cmd", metavar="COMMAND", help="an engine process speaking the protocol (spec/protocol.md)"
    )
    command.add_argument(
        "--timeout", type=float, default=10.0, help="seconds per request for --engine-cmd (default 10)"
    )


def _open_engine(args: argparse.Namespace) -> Engine:
    from .subprocess_engine import SubprocessEngine

    return (
        SubprocessEngine(args.engine_cmd, args.timeout) if args.engine_cmd else load_engine(args.engine or "reference")
    )


def _read_expect_fail(path: Path) -> set[str]:
    try:
        lines = path.read_text().splitlines()
    except OSError as exc:
        raise DataError(path, None, f"cannot read: {exc.strerror}") from None
    return {line.split("#")[0].strip() for line in lines} - {""}


def _targets(profile_files: list[Path], switches: list[str]) -> dict[str, Ruleset | Profile]:
    """What the cases run under: the profiles given, or every ruleset; `--switch` values on top of each."""
    targets: list[Ruleset | Profile] = [profiles.load(path) for path in profile_files] or list(rulesets().values())
    if switches:
        changes = [profiles.parse_override(text) for text in switches]
        targets = [profiles.override(target, changes) for target in targets]
    return {target.name: target for target in targets}


def cmd_run(args: argparse.Namespace) -> int:
    from . import reports
    from .runner import Filters, plan, run
    from .subprocess_engine import EngineFailure

    expect_fail = _read_expect_fail(args.expect_fail) if args.expect_fail else set()
    filters = Filters(tuple(args.game), tuple(args.ruleset), tuple(args.rule), tuple(args.case))
    unknown = set(args.ruleset) - set(rulesets())
    if unknown:
        print(
            f"gammonspec: unknown ruleset {', '.join(sorted(unknown))} (known: {', '.join(rulesets())})",
            file=sys.stderr,
        )
        return EXIT_USAGE
    try:
        targets = _targets(args.profile, args.switch)
    except ValueError as exc:
        print(f"gammonspec: {exc}", file=sys.stderr)
        return EXIT_USAGE
    pairs = plan(suite(), targets, filters)
    if not pairs:
        print("gammonspec: no case matches the filters", file=sys.stderr)
        return EXIT_USAGE
    engine = _open_engine(args)
    try:
        info = engine.info()
        if not (args.profile or args.switch):  # the engine's own profiles run beside the rulesets
            pairs += plan(suite(), {p.name: p for p in info.profiles}, filters)
        bar = (
            (lambda it: it)
            if args.quiet
            else (lambda it: tqdm(it, total=len(pairs), unit="case", file=sys.stderr, disable=None))
        )
        outcomes = list(run(engine, pairs, expect_fail, progress=bar))
    except EngineFailure as exc:
        print(f"gammonspec: the engine failed its handshake: {exc}", file=sys.stderr)
        if exc.stderr:
            print(exc.stderr, file=sys.stderr)
        return EXIT_USAGE
    finally:
        if hasattr(engine, "close"):
            engine.close()
    restarts = getattr(engine, "restarts", 0)
    report = reports.text(outcomes, info, restarts)
    if args.quiet:
        report = report.rsplit("\n\n", 1)[-1]
    print(report)
    if args.json:
        reports.write_json(args.json, outcomes, info, restarts)
    if args.junit:
        reports.write_junit(args.junit, outcomes, info)
    return EXIT_OK if reports.ok(outcomes) else EXIT_FAILED


def cmd_identify(args: argparse.Namespace) -> int:
    import json

    from . import identify
    from .subprocess_engine import EngineFailure

    engine = _open_engine(args)
    try:
        info = engine.info()
        if args.profile or args.ruleset:
            if args.ruleset and args.ruleset not in rulesets():
                print(f"gammonspec: unknown ruleset {args.ruleset} (known: {', '.join(rulesets())})", file=sys.stderr)
                return EXIT_USAGE
            declared = [profiles.load(args.profile) if args.profile else rulesets()[args.ruleset]]
        else:
            declared = [*info.profiles, *(rulesets()[n] for n in info.rulesets if n in rulesets())]
        changes = [profiles.parse_override(text) for text in args.switch]
        games = args.game or sorted({t.game for t in declared})
        targets = [identify.asked_as(declared, game) for game in games]
        if not targets or not all(targets):
            print(
                f"gammonspec: the engine declares no ruleset or profile of {', '.join(games) or 'any game'}",
                file=sys.stderr,
            )
            return EXIT_USAGE
        results = [identify.identify(engine, suite(), profiles.override(t, changes)) for t in targets]
    except ValueError as exc:
        print(f"gammonspec: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except EngineFailure as exc:
        print(f"gammonspec: the engine failed its handshake: {exc}", file=sys.stderr)
        return EXIT_USAGE
    finally:
        if hasattr(engine, "close"):
            engine.close()
    print("\n\n".join(identify.text(r) for r in results))
    if args.json:
        args.json.write_text(json.dumps([identify.to_json(r) for r in results], indent=2) + "\n")
    return EXIT_FAILED if any(r.unexplained or r.errored for r in results) else EXIT_OK


def cmd_serve(args: argparse.Namespace) -> int:
    from .protocol import serve

    return serve(load_engine(args.engine))


def cmd_coverage(args: argparse.Namespace) -> int:
    from .coverage import report

    text, ok = report(suite())
    print(text)
    return EXIT_OK if ok else EXIT_FAILED


def cmd_check(args: argparse.Namespace) -> int:
    from .coverage import clauses

    cases, specs = suite(), clauses()
    print(f"{len(cases)} cases, {len(rulesets())} rulesets, {len(specs)} rule clauses: all valid")
    return EXIT_OK


def cmd_matrix(args: argparse.Namespace) -> int:
    from .matrix import fill

    print(fill(f"<!-- disagreements: {args.game} -->"))
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    handler = {
        "run": cmd_run,
        "identify": cmd_identify,
        "serve": cmd_serve,
        "coverage": cmd_coverage,
        "check": cmd_check,
        "matrix": cmd_matrix,
    }[args.command]
    try:
        return handler(args)
    except (DataError, EngineLoadError) as exc:
        print(f"gammonspec: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into head or less
        sys.stderr.close()
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
