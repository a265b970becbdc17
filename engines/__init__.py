"""Adapters for third-party engines people use, loaded by name (`gammonspec run --engine gnubg-nn`).

Each adapter declares exactly the rulesets and queries its engine answers, and records in its docstring
what the suite finds it gets wrong, with the case IDs.
"""
