"""The playground page (play.md): the reference engine asked in the reader's browser, through Pyodide served from the
site itself.

At build time this copies npm's `pyodide` runtime (installed by `npm ci --prefix site/playground`, pinned in
site/playground/package-lock.json) under play/pyodide/, and packs one zip that the page unpacks into Pyodide's
file system: gammonspec's model, reference engine and spec data, the ask core and the board drawing with the
modules they import, site/playground/play.py (the page's Python side), and the pure-Python packages of PyYAML and
fastjsonschema taken from their installed distributions (PyYAML's wheel carries its sdist's lib/yaml unchanged
beside the optional libyaml binding, which is left out).  Nothing is fetched from another host at run time.
Without the npm package the site still builds, and the page says the engine was not installed."""

from __future__ import annotations

import ast
import io
import json
import logging
import zipfile
from dataclasses import replace
from html import escape
from importlib.metadata import distribution
from pathlib import Path
from typing import Any

from gammonspec.conformance.tools.ask import default_context
from gammonspec.model.games import GAME_DATA
from gammonspec.model.rulesets import rulesets
from gammonspec.model.state import GAMES, State, StateError
from mkdocs.structure.files import File
from playground.play import write_id

SITE = Path(__file__).resolve().parent
ROOT = SITE.parent
HERE = SITE / "playground"
NPM = HERE / "node_modules" / "pyodide"
RUNTIME = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
PAGE = "play.md"
ENTRY = ("conformance/tools/ask.py", "conformance/tools/diagram.py")  # the play.py's imports above the model
THIRD_PARTY = {"PyYAML": "yaml", "fastjsonschema": "fastjsonschema"}  # distribution -> its pure-Python package
START = "NID1_N_11o11O_w65_f1r0h0"  # the page's position when its URL names none: Narde's first roll, 6-5
log = logging.getLogger("mkdocs.plugins.playground_page")


def pyodide_version() -> str | None:
    """The version of the installed npm package, None when it is not installed."""
    found = NPM / "package.json"
    return json.loads(found.read_text(encoding="utf-8"))["version"] if found.exists() else None


def _imported(path: Path) -> set[Path]:
    """The conformance modules a module imports (`from gammonspec.conformance... import ...`), as files."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("gammonspec.conformance"):
            base = ROOT / Path(*node.module.split(".")[1:])
            found |= {p for p in [base.with_suffix(".py"), *(base / f"{a.name}.py" for a in node.names)] if p.is_file()}
    return found


def conformance_modules() -> list[Path]:
    """ENTRY and every conformance module they import, directly or not, with the packages' __init__ files."""
    todo, seen = [ROOT / e for e in ENTRY], set()
    while todo:
        path = todo.pop()
        if path not in seen:
            seen.add(path)
            todo += _imported(path)
    return sorted(seen | {ROOT / "conformance" / "__init__.py", ROOT / "conformance" / "tools" / "__init__.py"})


def _ours() -> dict[str, Path]:
    """Our files in the zip, by their name there (as installed: under gammonspec/)."""
    files = {f"gammonspec/{p.relative_to(ROOT)}": p for p in conformance_modules()}
    for package, pattern in (("model", "**/*.py"), ("model", "schema/*.json"), ("reference", "**/*.py")):
        files |= {f"gammonspec/{p.relative_to(ROOT)}": p for p in (ROOT / package).glob(pattern)}
    for pattern in ("*.md", "*.yaml", "rulesets/*.yaml"):
        files |= {f"gammonspec/{p.relative_to(ROOT)}": p for p in (ROOT / "spec").glob(pattern)}
    files["play.py"] = HERE / "play.py"
    return files


def third_party() -> dict[str, dict[str, Any]]:
    """Each bundled distribution's version, licence and files (its package's .py files and its licence files)."""
    found = {}
    for name, package in THIRD_PARTY.items():
        dist = distribution(name)
        files = [f for f in dist.files or [] if f.parts[0] == package and f.suffix == ".py"]
        licences = [f for f in dist.files or [] if "licenses" in f.parts or f.name.upper().startswith("LICENSE")]
        licence = dist.metadata.get("License-Expression") or dist.metadata.get("License") or ""
        found[name] = {"version": dist.version, "licence": licence, "files": files, "licences": licences, "dist": dist}
    return found


def bundle() -> bytes:
    """The zip the page unpacks: deterministic (sorted names, fixed times), so an unchanged build is the same file."""
    entries = {name: path.read_bytes() for name, path in _ours().items()}
    for name, info in third_party().items():
        for f in info["files"]:
            entries[str(f)] = f.read_binary()
        for f in info["licences"]:
            entries[f"licenses/{name}/{f.name}"] = f.read_binary()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, entries[name])
    return out.getvalue()


def runtime() -> dict[str, Path]:
    """The Pyodide runtime's files, by their place in the built site ({} when npm's package is not installed)."""
    if pyodide_version() is None:
        log.info("playground: npm's pyodide is not installed (npm ci --prefix site/playground): the page says so")
        return {}
    return {f"play/pyodide/{name}": NPM / name for name in RUNTIME}


def files(config: Any) -> list[File]:
    """The page, its script, style and zip, and the Pyodide runtime when installed."""
    out = [File.generated(config, PAGE, content=page())]
    for name in ("play.js", "play.css"):
        out.append(File.generated(config, f"play/{name}", abs_src_path=str(HERE / name)))
    out.append(File.generated(config, "play/gammonspec.zip", content=bundle()))
    out += [File.generated(config, uri, abs_src_path=str(path)) for uri, path in runtime().items()]
    return out


def try_it(state: State) -> str:
    """A Markdown link (from a page at the site's top) that opens the playground at `state`; '' when no ID carries it.

    A case mid-game is loaded with the harness's 10 rolls made, fewer than many a Narde position needs (the ask core
    refuses such a context): the link gives it at least the rolls `gammonspec ask` would (ask.default_context), which
    changes no answer (only a game's first three rolls are ruled apart)."""
    if not state.context.first_turn:
        least = default_context(state.layout, state.turn).rolls_in_game
        state = replace(state, context=replace(state.context, rolls_in_game=max(state.context.rolls_in_game, least)))
    try:
        return f"[Try it]({PAGE}?id={write_id(state)})"
    except StateError:
        return ""


def _options(values: list[tuple[str, str]], selected: str = "") -> str:
    return "".join(
        f'<option value="{escape(v)}"{" selected" if v == selected else ""}>{escape(t)}</option>' for v, t in values
    )


def _rulesets() -> str:
    boxes = [
        f'<label data-game="{rs.game}"><input type="checkbox" name="ruleset" value="{rs.name}" checked> '
        f"<code>{rs.name}</code></label>"
        for rs in rulesets().values()
    ]
    return "".join(boxes)


def _sources() -> str:
    """The versions and licences of what the page runs."""
    rows = [f"| Pyodide (npm `pyodide`) | {pyodide_version() or 'not installed'} | MPL-2.0 |"]
    rows += [
        f"| {name} (pure Python) | {info['version']} | {info['licence']} |" for name, info in third_party().items()
    ]
    return "\n".join(["| runs in your browser | version | licence |", "|---|---|---|", *rows])


def page() -> str:
    """The page: its fields (the rulesets listed from the spec at build time), the board, the answer."""
    dice = [("", "–"), *((str(n), str(n)) for n in range(1, 7))]
    games = _options([(g, GAME_DATA[g].title) for g in GAMES])
    missing = pyodide_version() is None
    notice = (
        '<p class="play-missing" id="missing">This build of the site was made without the playground\'s engine '
        "(npm's <code>pyodide</code> package was not installed: <code>npm ci --prefix site/playground</code>).</p>"
        if missing
        else ""
    )
    html = (HERE / "page.html").read_text(encoding="utf-8")
    html = html.replace("{{games}}", games).replace("{{dice}}", _options(dice)).replace("{{rulesets}}", _rulesets())
    html = html.replace("{{start}}", START).replace("{{notice}}", notice)
    return "\n".join(
        [
            "# Playground",
            "",
            "Set up any position of Backgammon, Narde or Crazy Narde, roll the dice, and see what every ruleset allows, "
            "side by side: the plays each ruleset finds legal, grouped where rulesets agree, and where they differ, "
            "the rule switch and the clause that make the difference. The answer comes from the reference engine "
            "itself, the one that passes every case, running in your browser (Python in WebAssembly, served from this "
            "site: nothing is sent anywhere). The whole setup is in the page's address: copy it to share a position.",
            "",
            html,
            "",
            "## What runs here",
            "",
            "The page loads Python and the rulebook's code when it is opened (about 14 MB, 6.5 MB compressed; kept by "
            "your browser's cache afterwards). The answer below the boards, as JSON, is the document "
            "`gammonspec ask ID --json -` prints for the same position.",
            "",
            _sources(),
            "",
        ]
    )
