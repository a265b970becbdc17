"""The reference engine playing a profile whatever the request says: an engine with another reading of the rules."""

from __future__ import annotations

from functools import wraps
from typing import Any

from gammonspec.conformance.messages import METHODS
from gammonspec.conformance.profiles import Profile
from gammonspec.conformance.rulesets import Rules
from gammonspec.reference import ReferenceEngine


class PlaysAs(ReferenceEngine):
    """Answers every query by `profile`'s switch values (the request's options kept)."""

    def __init__(self, profile: Profile) -> None:
        super().__init__()
        self.profile = profile

    def __getattribute__(self, name: str) -> Any:
        query = super().__getattribute__(name)
        if name not in METHODS:
            return query
        profile = super().__getattribute__("profile")

        @wraps(query)
        def as_profile(*args: Any) -> Any:
            return query(*(profile.rules(a.options) if isinstance(a, Rules) else a for a in args))

        return as_profile
