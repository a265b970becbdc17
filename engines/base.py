"""What the shipped adapters share: loading the third-party module, and the queries they do not offer."""

from __future__ import annotations

import importlib
from typing import Any, NoReturn

from gammonspec.conformance.engine import EngineLoadError, Skip


def third_party(module: str, extra: str) -> Any:
    """The module an adapter drives; a one-line error naming the extra when it is not installed."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise EngineLoadError(f"the {extra} adapter needs {exc.name}: pip install 'gammonspec[{extra}]'") from None


class LegalPlaysOnly:
    """An engine that answers legal-plays only: the other queries are not declared, so never asked."""

    def _not_offered(self, *args: object) -> NoReturn:
        raise Skip("this adapter answers legal-plays only")

    next_segment = game_result = opening = may_double = cube_action = match_after_game = _not_offered
