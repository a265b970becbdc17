"""The `gammonspec` command: run the suite, serve the reference engine, check coverage."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tqdm import tqdm

from . import PROTOCOL_VERSION, __version__
from .cases import suite
from .engine import EngineLoadError, describe_exception, load_engine
from .rules import rulesets
from .yamlio import DataError

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gammonspec", description="The executable rulebook of the backgammon family.")
    parser.add_argument(
        "--version", action="version", version=f"gammonspec {__version__} (protocol {PROTOCOL_VERSION})"
    )
    commands = parser.add_subparsers(dest="command", required=True)

    run = commands.add_parser("run", help="run the suite against an engine (the reference engine by default)")
    engine = run.add_mutually_exclusive_group()
    engine.add_argument("--engine", metavar="MODULE:ATTR", help="a Python engine, or the name of an installed one")
    engine.add_argument(
        "--engine-cmd", metavar="COMMAND", help="an engine process speaking the protocol (spec/protocol.md)"
    )
    run.add_argument("--timeout", type=float, default=10.0, help="seconds per request (default 10)")
    run.add_argument(
        "--startup-timeout",
        type=float,
        default=60.0,
        help="seconds for the engine to start and answer the handshake (default 60)",
    )
    run.add_argument("--game", action="append", default=[], help="only this game (repeatable)")
    run.add_argument("--ruleset", action="append", default=[], help="only this ruleset (repeatable)")
    run.add_argument("--rule", action="append", default=[], help="only cases pinning a rule ID matching this glob")
    run.add_argument("--case", action="append", default=[], help="only case ids matching this glob")
    run.add_argument("--json", type=Path, metavar="FILE", help="write the JSON report here")
    run.add_argument("--junit", type=Path, metavar="FILE", help="write a JUnit XML report here")
    run.add_argument(
        "--expect-fail", type=Path, metavar="FILE", help="case ids (or ruleset::id) known to fail, one a line"
    )
    run.add_argument("--quiet", "-q", action="store_true", help="no progress bar and no per-rule table")

    serve = commands.add_parser("serve", help="speak the engine protocol on stdin/stdout")
    serve.add_argument("--engine", default="reference", metavar="MODULE:ATTR", help="the Python engine to serve")

    commands.add_parser("coverage", help="list rule clauses and their cases; fail on gaps")
    commands.add_parser("check", help="load and validate every case, ruleset and spec page")
    matrix = commands.add_parser("matrix", help="print the disagreement table of the rulesets (Markdown)")
    matrix.add_argument("--game", default="all", help="only this game's rulesets (default: all)")
    return parser


def _read_expect_fail(path: Path) -> set[str]:
    try:
        lines = path.read_text().splitlines()
    except OSError as exc:
        raise DataError(path, None, f"cannot read: {exc.strerror}") from None
    return {line.split("#")[0].strip() for line in lines} - {""}


def cmd_run(args: argparse.Namespace) -> int:
    from .launch import run_engine
    from .runner import Filters, plan

    expect_fail = _read_expect_fail(args.expect_fail) if args.expect_fail else set()
    filters = Filters(tuple(args.game), tuple(args.ruleset), tuple(args.rule), tuple(args.case))
    unknown = set(args.ruleset) - set(rulesets())
    if unknown:
        print(
            f"gammonspec: unknown ruleset {', '.join(sorted(unknown))} (known: {', '.join(rulesets())})",
            file=sys.stderr,
        )
        return EXIT_USAGE
    pairs = plan(suite(), rulesets(), filters)
    if not pairs:
        print("gammonspec: no case matches the filters", file=sys.stderr)
        return EXIT_USAGE
    bar = (
        (lambda it: it)
        if args.quiet
        else (lambda it: tqdm(it, total=len(pairs), unit="case", file=sys.stderr, disable=None))
    )
    return run_engine(args, pairs, expect_fail, bar)


def cmd_serve(args: argparse.Namespace) -> int:
    from .protocol import serve

    return serve(load_engine(args.engine), name=args.engine)


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
    handler = {"run": cmd_run, "serve": cmd_serve, "coverage": cmd_coverage, "check": cmd_check, "matrix": cmd_matrix}[
        args.command
    ]
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
    except Exception as exc:  # noqa: BLE001 - a bug of gammonspec's: one located line, never a traceback
        print(f"gammonspec: internal error, please report it: {describe_exception(exc)}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
