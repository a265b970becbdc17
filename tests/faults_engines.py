"""Fault corpus entries for engines: processes, in-process engines, time limits, answers, reports, the plugin."""

from __future__ import annotations

from fault_corpus import Fault

FAULTS: list[Fault] = []
