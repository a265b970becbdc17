"""Loading an in-process engine: `module:attribute` or an installed entry point, and its info() answer checked."""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterable

from gammonspec.model.interface import CAPABILITIES, Engine, EngineInfo, EngineLoadError, describe_exception
from gammonspec.model.profiles import clashing_name

ENTRY_POINT_GROUP = "gammonspec.engines"


def _import(spec: str, module_name: str) -> object:
    """The module, with the current folder on sys.path first, as `python -m` has it."""
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            raise EngineLoadError(
                f"cannot load engine {spec!r}: no module named {exc.name!r} "
                "(looked in the current folder and the installed packages)"
            ) from None
        raise EngineLoadError(
            f"cannot load engine {spec!r}: importing {module_name} raised {describe_exception(exc)}"
        ) from None
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - the engine's own code: reported, never a traceback
        raise EngineLoadError(
            f"cannot load engine {spec!r}: importing {module_name} raised {describe_exception(exc)}"
        ) from None


def load_engine(spec: str) -> Engine:
    """An engine from `module:attribute` or the name of a `gammonspec.engines` entry point.

    The attribute may be an Engine instance, or a class or factory called with no arguments.  The engine needs
    `info`; the methods of the capabilities it declares are checked by `messages.check_methods` once `info` answered."""
    if ":" in spec:
        module_name, _, attr = spec.partition(":")
        module = _import(spec, module_name)
        try:
            target = getattr(module, attr)
        except AttributeError:
            raise EngineLoadError(
                f"cannot load engine {spec!r}: module {module_name!r} has no attribute {attr!r}"
            ) from None
    else:
        from importlib.metadata import entry_points  # here: a run through --engine-cmd never needs it

        found = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == spec]
        if not found:
            names = sorted(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP))
            raise EngineLoadError(f"no engine {spec!r}: give module:attr, or one of the installed engines {names}")
        try:
            target = found[0].load()
        except (Exception, SystemExit) as exc:  # noqa: BLE001
            raise EngineLoadError(f"cannot load engine {spec!r}: {describe_exception(exc)}") from None
    if isinstance(target, type) or callable(target) and not callable(getattr(target, "info", None)):
        try:
            engine = target()
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - the engine's own constructor
            name = getattr(target, "__name__", spec)
            raise EngineLoadError(f"cannot load engine {spec!r}: {name}() raised {describe_exception(exc)}") from None
    else:
        engine = target
    if not callable(getattr(engine, "info", None)):
        raise EngineLoadError(
            f"{spec!r} is not an engine: it has no info() method (see gammonspec.model.interface.Engine)"
        )
    return engine  # type: ignore[return-value]


def check_info(spec: str, info: object) -> EngineInfo:
    """The engine's info() answer, or EngineLoadError saying what is wrong with it."""
    if not isinstance(info, EngineInfo):
        raise EngineLoadError(
            f"engine {spec!r}: info() returned {type(info).__name__}, expected a "
            "gammonspec.model.interface.EngineInfo"
        )
    problems = [
        f"{name} is {type(getattr(info, name)).__name__}, expected a str"
        for name in ("name", "version")
        if not isinstance(getattr(info, name), str)
    ]
    for name in ("rulesets", "capabilities"):
        value = getattr(info, name)
        if isinstance(value, str) or not isinstance(value, Iterable) or not all(isinstance(v, str) for v in value):
            problems.append(f"{name} is {value!r}, expected a tuple of names")
    if not problems and (clash := clashing_name(info.profiles, info.rulesets)):
        problems.append(clash)
    unknown = [c for c in info.capabilities if c not in CAPABILITIES] if not problems else []
    if unknown:
        problems.append(f"unknown capabilities {', '.join(unknown)} (known: {', '.join(CAPABILITIES)})")
    if problems:
        raise EngineLoadError(f"engine {spec!r}: info() answered a bad EngineInfo: {'; '.join(problems)}")
    return info
