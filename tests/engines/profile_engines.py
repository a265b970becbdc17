"""The reference engine playing a profile whatever the request says: an engine with another reading of the rules."""

from __future__ import annotations

from gammonspec.conformance.identify import PlayingAs
from gammonspec.conformance.profiles import Profile
from gammonspec.reference import ReferenceEngine


def PlaysAs(profile: Profile) -> PlayingAs:  # noqa: N802 - named as the engine it makes
    """Answers every query by `profile`'s switch values (the request's options kept)."""
    return PlayingAs(ReferenceEngine(), profile)
