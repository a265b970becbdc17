"""`gammonspec fuzz` from the command line: the engine, what it runs under, the campaign, drafts, reports, exit status.

Exit status as every command: 0 no disagreement, 1 failures or engine errors, 2 bad input or usage
(including an engine that cannot start, and nothing to fuzz: no selected ruleset the engine declares).
"""

from __future__ import annotations

import argparse
import json
import sys

from tqdm import tqdm

from . import fuzz, fuzz_report, generators
from .engine import EngineFailure, EngineLoadError
from .launch import rerun_engine, say, start
from .reports import write_atomically
from .runner import Target

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def selected(args: argparse.Namespace, targets: dict[str, Target], declares: object) -> list[Target]:
    """The targets of the run's filters (--game, --ruleset) that the engine declares (or whose switches it reads)."""
    chosen = [
        t
        for t in targets.values()
        if (not args.game or t.game in args.game)
        and (not args.ruleset or t.name in args.ruleset or getattr(t, "base", None) in args.ruleset)
    ]
    return [t for t in chosen if declares(t)]  # type: ignore[operator]


def command(args: argparse.Namespace, targets: dict[str, Target]) -> int:
    try:
        engine = start(args)
    except EngineLoadError as exc:
        say(str(exc))
        return EXIT_USAGE
    try:
        try:
            info = engine.info()
        except EngineLoadError as exc:
            say(str(exc))
            return EXIT_USAGE
        except EngineFailure as exc:
            say(f"the engine failed its handshake: {exc}")
            return EXIT_USAGE
        if not (args.profile or args.switch):
            targets = {**targets, **{p.name: p for p in info.profiles}}
        chosen = selected(args, targets, info.declares)
        if not chosen:
            say(f"nothing to fuzz: engine {info.name} declares none of the rulesets or profiles selected")
            return EXIT_USAGE
        names = ", ".join(t.name for t in chosen)
        chosen = [t for t in chosen if generators.kinds_for(t.rules(), args.kinds)]
        if not chosen:
            say(f"nothing to fuzz: no kind of state selected applies to {names} (see gammonspec fuzz --help)")
            return EXIT_USAGE
        if "legal-plays" not in info.capabilities and "game-result" not in info.capabilities:
            say(f"nothing to fuzz: engine {info.name} answers neither legal-plays nor game-result")
            return EXIT_USAGE
        bar = tqdm(
            total=args.count * len(chosen), unit="position", file=sys.stderr, disable=True if args.quiet else None
        )
        try:
            campaign = fuzz.fuzz(
                engine, chosen, args.kinds, args.seed, args.count, args.time, args.max_failures, bar.update
            )
        finally:
            bar.close()
    finally:
        if hasattr(engine, "close"):
            engine.close()
    by_name = {t.name: t for t in chosen}
    for number, failure in enumerate(campaign.failures, 1):
        failure.draft = fuzz_report.write_draft(
            args.out, failure, by_name[failure.target], args.seed, campaign.engine, number
        )
    print(fuzz_report.text(campaign, rerun_engine(args)))
    if args.json:
        write_atomically(args.json, json.dumps(fuzz_report.to_json(campaign), indent=2) + "\n")
    if campaign.fatal:
        say(f"the campaign stopped: the engine cannot be asked anything more: {campaign.fatal}")
        return EXIT_USAGE
    failed = campaign.failures or any(t.errored for t in campaign.tallies)
    return EXIT_FAILED if failed else EXIT_OK
