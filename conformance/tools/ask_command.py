"""`gammonspec ask`: one position and roll, every ruleset's answer beside the engines given (Babelmark for rules).

Exit status: 0 answered; 1 an engine given answered otherwise than the ruleset it was asked as, or failed to
answer; 2 bad input (one line, `gammonspec ask: ...`)."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from gammonspec.conformance.harness import report_files
from gammonspec.conformance.harness.launch import EngineSpec, handshake, start
from gammonspec.conformance.tools import ask_text
from gammonspec.conformance.tools.ask import AskError, Target, answer
from gammonspec.conformance.tools.ask_input import Given, read_with_options
from gammonspec.model.interface import Engine, EngineLoadError
from gammonspec.model.profiles import override
from gammonspec.model.rulesets import rulesets
from gammonspec.model.terminal import clipped, printable
from gammonspec.model.validation import compiled
from gammonspec.model.yamlio import DataError

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


@dataclass(frozen=True)
class AskOptions:
    """What `gammonspec ask` is asked: the position, the turn given on top, the rules and engines, the output."""

    position: str | None
    case: str | None
    cases: tuple[Path, ...]
    given: Given
    targets: tuple[Target, ...]  # every ruleset, or the profiles given, with --switch values on top
    switched: tuple[str, ...]  # the switches and options --switch names (a position's own options yield to them)
    ruleset: tuple[str, ...]  # only these (and profiles based on them)
    engines: tuple[EngineSpec, ...]
    json: str | None  # a file, or '-' for standard output
    flips: bool


def _selected(options: AskOptions, game: str, recorded: dict[str, bool]) -> list[Target]:
    """The targets of the position's game, with the options the position records (an XGID's money-play Jacoby and
    beavers) on top where they change what a target plays."""
    unknown = sorted(set(options.ruleset) - set(rulesets()))
    if unknown:
        raise AskError(f"--ruleset {unknown[0]}: no such ruleset (known: {', '.join(rulesets())})")
    chosen = [
        t
        for t in options.targets
        if t.game == game and (not options.ruleset or {t.name, getattr(t, "base", t.name)} & set(options.ruleset))
    ]
    if not chosen:
        raise AskError(f"the position is {game}, and no ruleset or profile of {game} is selected")
    return [override(t, [(k, v) for k, v in recorded.items() if _changes(t, k, v, options.switched)]) for t in chosen]


def _changes(target: Target, option: str, value: bool, switched: tuple[str, ...]) -> bool:
    """Whether a recorded option value changes what `target` plays: it offers the option, plays another value by
    default, and --switch does not name it."""
    return option in target.options and target.options[option]["default"] != value and option not in switched


def _started(specs: Sequence[EngineSpec], targets: Sequence[Target]) -> list[Engine]:
    """The engines, started and past their handshake; each must declare one of the rulesets or profiles asked."""
    engines: list[Engine] = []
    try:
        for spec in specs:
            engines.append(start(spec))
            info = handshake(engines[-1])
            if not any(info.declares(t) for t in targets):
                names = ", ".join(t.name for t in targets)
                raise AskError(f"engine {info.name} declares none of the rulesets or profiles asked ({names})")
    except BaseException:
        _close(engines)
        raise
    return engines


def _close(engines: Sequence[Engine]) -> None:
    for engine in engines:
        if hasattr(engine, "close"):
            engine.close()


def refuse(message: object) -> int:
    print(f"gammonspec ask: {printable(clipped(str(message)))}", file=sys.stderr)
    return EXIT_USAGE


def command(options: AskOptions) -> int:
    try:
        if options.json not in (None, "-"):
            out = report_files.claim("--json", Path(options.json))
            if options.position is not None and Path(options.position).resolve() == out:
                raise DataError(options.json, None, "--json: the position file itself: ask never writes over it")
        question, recorded = read_with_options(options.position, options.case, options.cases, options.given)
        targets = _selected(options, question.state.game, recorded)
        engines = _started(options.engines, targets)
        try:
            document = answer(question, targets, engines, flips=options.flips)
        finally:
            _close(engines)
    except (AskError, DataError, EngineLoadError, ValueError) as exc:
        return refuse(exc)
    failure = compiled("ask").failure(document)
    if failure is not None:  # the core builds it to its schema: a failure is a bug of ours
        raise RuntimeError(f"the answer does not follow ask.schema.json: {failure[1]}")
    written = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    if options.json == "-":
        sys.stdout.write(written)
    else:
        print(ask_text.text(document, question.state))
        if options.json is not None:
            report_files.write(Path(options.json), written)
    engines_asked = [r for r in document["rulings"] if r["kind"] == "engine"]
    wrong = [r for r in engines_asked if r["status"] != "answered" or r["target"] not in r["agrees_with"]]
    return EXIT_FAILED if wrong else EXIT_OK
