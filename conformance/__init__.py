"""gammonspec's conformance harness: cases, rulesets, adapters, runner, reports."""

__version__ = "0.1.0"  # the suite's version: package, cases and reports
PROTOCOL_VERSION = "1.1"  # the subprocess protocol's version (spec/protocol.md)
