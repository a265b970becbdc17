"""The `gammonspec` command line: the parser of every command, and `main`, which hands the parsed arguments to
commands.py (one function per command) and turns every way a command can end into one line and an exit status."""

from __future__ import annotations

import argparse
import math
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from gammonspec.conformance.harness import report_files
from gammonspec.conformance.harness.jobs import Shard
from gammonspec.model import PROTOCOL_VERSION, __version__
from gammonspec.model.interface import STARTUP_TIMEOUT, TIMEOUT, EngineLoadError, describe_exception
from gammonspec.model.state import GAMES
from gammonspec.model.terminal import ReaderGone, clipped, say, shortened
from gammonspec.model.yamlio import DataError

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


def _shard(text: str) -> Shard:
    """`i/N` with 1 <= i <= N."""
    i, slash, n = text.partition("/")
    if not (slash and i.isdigit() and n.isdigit() and 1 <= int(i) <= int(n)):
        raise argparse.ArgumentTypeError(f"{text!r} is not a shard i/N with 1 <= i <= N (e.g. 2/4)")
    return Shard(int(i), int(n))


def positive(text: str) -> int:
    """An argument that counts something (jobs, plies, states): a whole number of 1 or more."""
    if not (text.isdigit() and int(text) >= 1):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number above 0")
    return int(text)


def _spread_arguments(command: argparse.ArgumentParser) -> None:
    """--jobs, --shard and --seed, as every command that spreads its work takes them."""
    command.add_argument(
        "--jobs", "-j", type=positive, default=1, metavar="N", help="worker processes, one engine each (default 1)"
    )
    command.add_argument(
        "--shard",
        type=_shard,
        metavar="I/N",
        help="run only shard I of N (merge the reports with gammonspec merge)",
    )
    command.add_argument(
        "--seed", type=int, default=0, help="the seed that deals the work out to the shards (default 0)"
    )


def _dask_argument(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="run on the Dask scheduler at ADDRESS, or 'local' for a LocalCluster of --jobs worker processes"
        " ('local-threads': worker threads) (extra: distributed)",
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
    _spread_arguments(run)

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
        type=positive,
        default=1000,
        help="states per ruleset or profile, and half as many questions (default 1000)",
    )
    fuzz.add_argument("--time", type=seconds, metavar="SECONDS", help="stop after this many seconds in all")
    fuzz.add_argument("--max-failures", type=positive, default=10, help="stop at this many distinct failures")
    fuzz.add_argument(
        "--out", type=Path, default=Path("fuzz-drafts"), metavar="DIR", help="the folder for draft cases (fuzz-drafts)"
    )
    fuzz.add_argument("--json", type=Path, metavar="FILE", help="write the findings as JSON here")
    fuzz.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    fuzz.add_argument(
        "--jobs",
        "-j",
        type=positive,
        default=1,
        metavar="N",
        help="worker processes, one engine each (default 1)",
    )
    _dask_argument(fuzz)

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
    where.add_argument("--nid", help="from this Narde or Crazy Narde position (Narde position ID), instead of the start")
    where.add_argument(
        "--state", type=Path, metavar="FILE", help="from this protocol state (JSON), instead of the start"
    )
    perft.add_argument("--divide", action="store_true", help="the counts by first roll and by first play")
    perft.add_argument("--json", type=Path, metavar="FILE", help="write the counts (by first roll and play) here")
    _spread_arguments(perft)
    _dask_argument(perft)

    export = commands.add_parser("export", help="write the resolved suite as protocol requests and expected answers")
    _target_arguments(export)
    export.add_argument("--rule", action="append", default=[], type=_glob, help="only cases pinning a matching rule")
    export.add_argument("--case", action="append", default=[], type=_glob, help="only case ids matching this glob")
    _cases_option(export)
    export.add_argument("--json", type=Path, required=True, metavar="FILE", help="write the document here")

    merge = commands.add_parser("merge", help="combine the JSON reports of the shards of a run or a perft")
    merge.add_argument("reports", nargs="+", type=Path, metavar="REPORT", help="the shards' JSON reports")
    merge.add_argument("--json", type=Path, required=True, metavar="FILE", help="write the merged report here")

    _ask_arguments(commands.add_parser("ask", help="one position and roll: every ruleset's answer, side by side"))

    replay = commands.add_parser("replay", help="check recorded matches (.mat, GNU Backgammon SGF) against an engine")
    replay.add_argument(
        "files", nargs="+", type=Path, metavar="FILE", help="match transcripts (.mat, .txt or .sgf), or folders of them"
    )
    _engine_arguments(replay)
    _target_arguments(replay)
    replay.add_argument("--json", type=Path, metavar="FILE", help="write the report as JSON here")
    replay.add_argument("--quiet", "-q", action="store_true", help="errors and totals only (no notes)")
    return parser


def _ask_arguments(ask: argparse.ArgumentParser) -> None:
    ask.add_argument(
        "position",
        nargs="?",
        metavar="POSITION",
        help="a Narde position ID (NID1_...), an XGID, a GNU Position ID:Match ID (or the Position ID with --turn),"
        " or a file: a case-format position (.yaml, .json) or a position export of eXtreme Gammon or BGBlitz",
    )
    ask.add_argument("--case", metavar="ID", help="a case's position, asked anew under every ruleset of its game")
    _cases_option(ask)
    ask.add_argument("--turn", choices=("white", "black"), help="the side on roll (needed by a GNU Position ID)")
    ask.add_argument("--dice", "--roll", type=_numbers("--dice", 2), metavar="D-D", help="the roll, e.g. 6-5")
    ask.add_argument(
        "--first-turn", action=argparse.BooleanOptionalAction, default=None, help="the side on roll's first turn"
    )
    ask.add_argument("--rolls-in-game", type=_count, metavar="N", help="rolls already played in this game")
    ask.add_argument(
        "--head-moves", type=_count, metavar="N", help="checkers already taken off the head earlier this turn"
    )
    ask.add_argument(
        "--segment", type=_numbers("--segment", 4), metavar="N-N-N-N", help="the chain's later double played now"
    )
    ask.add_argument(
        "--passed", type=_numbers("--passed", 4), metavar="N[-N]", help="numbers the opponent passed to the side on roll"
    )
    ask.add_argument("--ruleset", action="append", default=[], help="only this ruleset (repeatable)")
    ask.add_argument("--profile", action="append", default=[], type=Path, metavar="FILE", help="ask under this profile (repeatable), not the rulesets")
    ask.add_argument("--switch", action="append", default=[], metavar="NAME=VALUE", help="on top of each ruleset or profile (repeatable)")
    ask.add_argument("--engine", action="append", default=[], metavar="MODULE:ATTR", help="a Python engine to ask too (repeatable)")
    ask.add_argument("--engine-cmd", action="append", default=[], metavar="COMMAND", help="an engine process to ask too (repeatable)")
    _limit_arguments(ask)
    ask.add_argument("--json", metavar="FILE|-", help="write the answer as JSON here ('-': standard output only)")
    ask.add_argument("--no-flips", action="store_true", help="leave out what one switch value would change")


def _numbers(option: str, most: int) -> Callable[[str], tuple[int, ...]]:
    def read(text: str) -> tuple[int, ...]:
        from gammonspec.conformance.tools.ask_input import numbers

        try:
            return numbers(option, text, most)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc).removeprefix(f"{option} ")) from None

    return read


def _count(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of 0 or more")
    return int(text)


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
    from gammonspec.conformance.tools.generators import KINDS

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


def limits(args: argparse.Namespace) -> None:
    """The time limits in full: the handshake's is --startup-timeout, else --timeout, else the default."""
    if hasattr(args, "timeout"):
        if args.startup_timeout is None:
            args.startup_timeout = STARTUP_TIMEOUT if args.timeout is None else args.timeout
        if args.timeout is None:
            args.timeout = TIMEOUT


MAX_PERFT_DEPTH = 4  # backgammon's depth 3 is about 1.9 million requests; each further ply some 400 times that


def _perft_depth(text: str) -> int:
    depth = positive(text)
    if depth > MAX_PERFT_DEPTH:
        raise argparse.ArgumentTypeError(
            f"{depth} plies: at most {MAX_PERFT_DEPTH} (each ply multiplies the requests some 400 times; backgammon's"
            " depth 3 is about 1.9 million)"
        )
    return depth


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    limits(args)
    from gammonspec.conformance import commands  # here: --help and a usage error load no command

    handler = getattr(commands, f"cmd_{args.command}")
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

