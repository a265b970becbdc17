"""Fault corpus entries for case files, the loader and the CLI's arguments (see fault_corpus.py)."""

from __future__ import annotations

from fault_corpus import Fault

KNOWN_RULESETS = "backgammon, crazy-narde, gul-bara, narde-guide, narde-variant"

FAULTS: list[Fault] = [
    Fault(
        "cli-misuse",
        "ruleset-unknown",
        ("run", "--ruleset", "nosuch"),
        f"gammonspec: unknown ruleset nosuch (known: {KNOWN_RULESETS})",
        2,
    ),
    Fault(
        "cli-misuse",
        "expect-fail-missing",
        ("run", "--expect-fail", "{tmp}/nope.txt"),
        "gammonspec: {tmp}/nope.txt:?: cannot read: No such file or directory",
        2,
    ),
]
