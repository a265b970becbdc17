"""The reference engine playing a profile whatever the request says: an engine with another reading of the rules."""

from __future__ import annotations

from gammonspec.conformance.harness.runner import PlayingAs
from gammonspec.model.profiles import Profile
from gammonspec.reference import ReferenceEngine


def plays_as(profile: Profile) -> PlayingAs:
    """Answers every query by `profile`'s switch values (the request's options kept)."""
    return PlayingAs(ReferenceEngine(), profile)
