"""`gammonspec fuzz` from the command line: the engine, what it runs under, the campaign, drafts, reports, exit status.

Exit status as every command: 0 no disagreement, 1 failures or engine errors, 2 bad input or usage
(including an engine that cannot start, and nothing to fuzz: no selected ruleset the engine declares).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

from gammonspec.conformance.harness import report_files
from gammonspec.conformance.harness.launch import EngineSpec, handshake, start
from gammonspec.conformance.harness.runner import Target
from gammonspec.conformance.tools import fuzz, fuzz_report, generators
from gammonspec.model.interface import EngineLoadError
from gammonspec.model.state import StateError
from gammonspec.model.terminal import say
from tqdm import tqdm

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


@dataclass(frozen=True)
class FuzzOptions:
    """What `gammonspec fuzz` asks: the engine, the selection it ran under, the campaign, where drafts and reports go."""

    engine: EngineSpec
    game: tuple[str, ...]
    ruleset: tuple[str, ...]
    profile: tuple[Path, ...]
    switch: tuple[str, ...]
    kinds: tuple[str, ...]
    seed: int
    count: int
    time: float | None
    max_failures: int
    out: Path
    quiet: bool
    jobs: int
    dask: str | None
    json: Path | None


def matches(options: FuzzOptions, target: Target) -> bool:
    """Whether a profile the engine declares is of the games and rulesets named (--game, --ruleset)."""
    return (not options.game or target.game in options.game) and (
        not options.ruleset or bool({target.name, getattr(target, "base", target.name)} & set(options.ruleset))
    )


def _draft(options: FuzzOptions, failure: fuzz.Failure, target: Target, engine: str, number: int) -> Path | None:
    """Write the failure's draft; a draft that cannot be written is one line, and the campaign goes on."""
    try:
        return fuzz_report.write_draft(options.out, failure, target, options.seed, engine, number)
    except (StateError, OSError, ValueError) as exc:
        say(f"draft {number} ({failure.target}) not written: {exc}")
        return None


def command(options: FuzzOptions, targets: dict[str, Target]) -> int:
    """Fuzz the engine of `options` under `targets` (the rulesets or profiles selected), report, the exit status."""
    try:
        engine = start(options.engine)
    except EngineLoadError as exc:
        say(str(exc))
        return EXIT_USAGE
    try:
        try:
            info = handshake(engine)
        except EngineLoadError as exc:
            say(str(exc))
            return EXIT_USAGE
        if not (options.profile or options.switch):  # as run: the engine's own profiles too
            targets = {**targets, **{p.name: p for p in info.profiles if matches(options, p)}}
        chosen = [t for t in targets.values() if info.declares(t)]
        if not chosen:
            say(f"nothing to fuzz: engine {info.name} declares none of the rulesets or profiles selected")
            return EXIT_USAGE
        names = ", ".join(t.name for t in chosen)
        chosen = [t for t in chosen if generators.kinds_for(t.rules(), options.kinds)]
        if not chosen:
            say(f"nothing to fuzz: no kind of state selected applies to {names} (see gammonspec fuzz --help)")
            return EXIT_USAGE
        if "legal-plays" not in info.capabilities and "game-result" not in info.capabilities:
            say(f"nothing to fuzz: engine {info.name} answers neither legal-plays nor game-result")
            return EXIT_USAGE
        by_name = {t.name: t for t in chosen}
        engine_name = f"{info.name} {info.version}"
        written: set[Path] = set()

        def keep(failure: fuzz.Failure, number: int) -> None:  # on disk as found: a crash or Ctrl-C keeps it
            path = _draft(options, failure, by_name[failure.target], engine_name, number)
            if path is not None:
                written.add(path)

        bar = tqdm(
            total=options.count * len(chosen), unit="position", file=sys.stderr, disable=True if options.quiet else None
        )
        try:
            if options.dask or options.jobs > 1:
                from gammonspec.conformance.tools.fuzz_jobs import Plan, cluster_campaign, local_campaign

                spec = options.engine if options.engine.named else None  # workers count with the reference engine itself
                asked = Plan(spec, chosen, options.kinds, options.seed, options.count, options.max_failures)
                campaign = cluster_campaign(options.dask, options.jobs, asked) if options.dask else local_campaign(options.jobs, asked)
            else:
                campaign = fuzz.fuzz(
                    engine, chosen, options.kinds, options.seed, options.count, options.time, options.max_failures, bar.update, keep
                )
        finally:
            bar.close()
    finally:
        if hasattr(engine, "close"):
            engine.close()
    for number, failure in enumerate(campaign.failures, 1):  # again, with the readings weighed and merged
        failure.draft = _draft(options, failure, by_name[failure.target], campaign.engine, number)
    for stale in written - {f.draft for f in campaign.failures}:  # a failure merged into another since
        stale.unlink(missing_ok=True)
    print(fuzz_report.text(campaign, options.engine.rerun()))
    if options.json:
        report_files.write(options.json, json.dumps(fuzz_report.to_json(campaign), indent=2) + "\n")
    if campaign.fatal:
        say(f"the campaign stopped: the engine cannot be asked anything more: {campaign.fatal}")
        return EXIT_USAGE
    failed = campaign.failures or any(t.errored for t in campaign.tallies)
    return EXIT_FAILED if failed else EXIT_OK
