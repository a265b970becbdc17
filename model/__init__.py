"""The state model of the backgammon family, under everything else: games, positions, rule switches, notation, the engine interface.

It imports nothing of the project; the reference engine, the adapters, the harness and the tools all build on it."""

__version__ = "0.1.0"  # the suite's version: package, cases and reports
PROTOCOL_VERSION = "1.1"  # the subprocess protocol's version (spec/protocol.md)
