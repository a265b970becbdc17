"""The playground page in a real browser (headless Chromium): opened from a URL (and kept open while each further
position's URL is set in it, as back and forward do: Pyodide starts once), it answers what `gammonspec ask`
answers, with no request to another host; bad input gets a message beside its field; it fits 400 px.

The expected answer is what `gammonspec ask ID --json -` prints, the command line run in this process (and, for one
position of each game, as a process of its own): the page must be the very same function run in the browser, not
an answer of its own.  Other hosts cannot be reached: Chromium's
host-resolver rules send every name but 127.0.0.1 nowhere, and every request the page makes is recorded and must
be to the local server.  Skips without Chromium or playwright unless GAMMONSPEC_BROWSER_REQUIRED is set (CI sets it),
and fails there too when the site was built without npm's pyodide."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from gammonspec.conformance.cli import main
from gammonspec.conformance.harness.cases import Case, suite
from gammonspec.conformance.tools import generators
from gammonspec.conformance.tools.ask import AskError, targets_for
from gammonspec.model.rulesets import rulesets
from gammonspec.model.state import State, start_layout

from tests.test_site_browser import CHROMIUM, SCREENS, _need, server  # noqa: F401  (shared fixture)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "site" / "playground"))
import play  # noqa: E402  (the page's Python side: its ID writer names the positions)

WAIT = 300_000  # ms: Pyodide's start on a loaded 2-core machine; a bound against hanging, not a speed check
BLOCK_OTHER_HOSTS = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"


def _expected(pid: str, names: list[str] | None) -> dict:
    """What `gammonspec ask PID --json -` prints for the position (with --ruleset for each name), read as JSON: the
    command line itself, run in this process."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = main(["ask", pid, "--json", "-", *(f"--ruleset={n}" for n in names or [])])
    if status != 0:
        raise AskError(f"gammonspec ask {pid} exits {status}")
    return json.loads(out.getvalue())


def _pick(cases: list[Case], n: int, want) -> list[Case]:  # noqa: ANN001
    """`n` cases (in the suite's order, of distinct case files first) of distinct states for which `want` holds and
    ask answers."""
    out: list[Case] = []
    for distinct_files in (True, False):
        for case in cases:
            files, states = {c.path.stem for c in out}, {c.state for c in out}
            if len(out) == n:
                return out
            if case.query == "scenario" or case.state in states or not want(case.state):
                continue
            if distinct_files and case.path.stem in files:
                continue
            try:
                _expected(play.write_id(case.state), None)
            except AskError:
                continue
            out.append(case)
    return out


def positions() -> list[tuple[str, list[str] | None]]:
    """24 positions over the three games and five rulesets: shipped cases' starting states written as their IDs
    (chains and passed numbers of Crazy Narde, Gul Bara's first rolls, a cube question without dice among them),
    and two asked under one ruleset only."""
    by_game: dict[str, list[Case]] = {}
    for case in suite():
        by_game.setdefault(case.game, []).append(case)
    chosen = [
        *_pick(by_game["backgammon"], 5, lambda s: bool(s.dice)),
        *_pick(by_game["backgammon"], 1, lambda s: not s.dice),
        *_pick(by_game["narde"], 6, lambda s: bool(s.dice)),
        *_pick(by_game["crazy-narde"], 3, lambda s: s.segment is not None and s.segment.passed),
        *_pick(by_game["crazy-narde"], 2, lambda s: s.segment is not None and not s.segment.passed),
        *_pick(by_game["crazy-narde"], 2, lambda s: s.dice and s.context.rolls_in_game < 3),
        *_pick(by_game["crazy-narde"], 2, lambda s: s.dice and s.segment is None),
    ]
    ids = list(dict.fromkeys(play.write_id(c.state) for c in chosen))
    found: list[tuple[str, list[str] | None]] = [(pid, None) for pid in ids]
    found += [(ids[6], ["narde-variant"]), (ids[-3], ["gul-bara"])]
    money = ids[5].split(":")  # the backgammon position without dice, with Jacoby and beavers recorded in the XGID
    found.append((":".join([*money[:7], "3", *money[8:]]), None))
    return found


POSITIONS = positions()


@pytest.fixture(scope="module")
def context(built: Path) -> Iterator[object]:  # noqa: F811
    """A browser context whose pages can reach 127.0.0.1 only, and the list of every URL they request."""
    if CHROMIUM is None:
        _need("chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _need("playwright")
    if not (built / "play" / "pyodide" / "pyodide.asm.wasm").exists():
        _need("npm's pyodide (npm ci --prefix site/playground)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", BLOCK_OTHER_HOSTS])
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        ctx.requested = []  # type: ignore[attr-defined]
        ctx.on("request", lambda r: ctx.requested.append(r.url))  # type: ignore[attr-defined]
        yield ctx
        browser.close()


def _open(context: object, url: str, width: int = 1280, scheme: str = "light") -> tuple[object, list[str]]:
    """The playground opened at `url`, once it has answered (or said why it cannot)."""
    if scheme == "light" and width == 1280:
        page = context.new_page()  # type: ignore[attr-defined]
    else:  # a context of its own: Material keeps the scheme it chose in the context's storage
        other = context.browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)  # type: ignore[attr-defined]
        other.on("request", lambda r: context.requested.append(r.url))  # type: ignore[attr-defined]
        page = other.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url, wait_until="load")
    page.wait_for_function(
        "document.getElementById('answer').dataset.count >= 1 || document.getElementById('play-app').dataset.failed",
        timeout=WAIT,
    )
    assert page.evaluate("document.getElementById('play-app').dataset.failed") is None, page.inner_text("#status")
    return page, errors


@pytest.fixture(scope="module")
def loaded(context: object, server: str) -> Iterator[object]:  # noqa: F811
    """One playground page, opened from a URL and kept: each test sets a position's address in it (the page reads
    its address again on popstate, as on back and forward), so Pyodide starts once, not once per position."""
    page, errors = _open(context, _url(server, POSITIONS[0][0], POSITIONS[0][1]))
    page.errors = errors  # type: ignore[attr-defined]
    yield page
    page.close()


def _visit(page: object, url: str) -> None:
    """The position of `url` shown in the loaded page, once the page has answered it."""
    count = page.evaluate("Number(document.getElementById('answer').dataset.count)")  # type: ignore[attr-defined]
    page.evaluate("u => { history.pushState(null, '', u); dispatchEvent(new PopStateEvent('popstate')); }", url)  # type: ignore[attr-defined]
    page.wait_for_function(  # type: ignore[attr-defined]
        "n => Number(document.getElementById('answer').dataset.count) > n", arg=count, timeout=WAIT
    )


def _url(server: str, pid: str, names: list[str] | None = None) -> str:  # noqa: F811
    return f"{server}/play/?id={quote(pid, safe='=:')}" + (f"&rs={','.join(names)}" if names else "")


def _local_only(context: object, server: str) -> None:  # noqa: F811
    others = [u for u in context.requested if not u.startswith((server, "data:", "blob:"))]  # type: ignore[attr-defined]
    assert context.requested and others == [], others  # type: ignore[attr-defined]


def test_the_positions_cover_the_five_rulesets_chains_and_passed_numbers() -> None:
    """The chosen positions are what the issue asks for: 20 or more, every ruleset, chains and passed numbers."""
    states = [play.read_id(pid) for pid, _ in POSITIONS]
    asked = {rs for pid, names in POSITIONS for rs in (names or [t.name for t in targets_for(play.read_id(pid).game)])}
    assert len({pid for pid, _ in POSITIONS}) >= 20 and asked == set(rulesets()), asked
    assert any(s.segment and s.segment.passed for s in states) and any(
        s.segment and not s.segment.passed for s in states
    )


@pytest.mark.parametrize("pid, names", POSITIONS, ids=[f"{n}-{pid[:24]}" for n, (pid, _) in enumerate(POSITIONS)])
def test_answer_from_a_url_is_what_ask_answers(
    loaded: object, context: object, server: str, pid: str, names: list[str] | None  # noqa: F811
) -> None:
    """The page opened at the first position's URL, then each position's URL set in it: the page answers each."""
    page, errors = loaded, loaded.errors  # type: ignore[attr-defined]
    if (pid, names) != POSITIONS[0]:
        _visit(page, _url(server, pid, names))
    shown = json.loads(page.inner_text("#answer") or page.evaluate("document.getElementById('answer').textContent"))
    assert shown == _expected(pid, names)
    assert page.input_value("#pid") == pid and page.evaluate("location.search").startswith("?id=")
    drawn = [min(len(g["answer"]["plays"] or []), play.AFTER_BOARDS) for g in shown["groups"] if g["answer"]]
    assert page.locator("#results figure svg").count() == sum(drawn)  # each play an after-board, up to 12 a group
    assert errors == []
    _local_only(context, server)


SEED = int(os.environ.get("GAMMONSPEC_PLAYGROUND_SEED") or random.SystemRandom().randrange(10**6))


def _drawn(ruleset: str, n: int) -> list[str]:
    """`n` IDs of random states (fuzz's generators, every kind of the ruleset's rules) that `gammonspec ask` answers:
    positions no test chose, new on every run (SEED, set GAMMONSPEC_PLAYGROUND_SEED to draw them again)."""
    rules, rng, found = rulesets()[ruleset].rules(), random.Random(f"{SEED}-{ruleset}"), []
    for _, state in generators.states(rng, rules, generators.kinds_for(rules)):
        pid = play.write_id(state)
        with contextlib.suppress(AskError):
            if pid not in found and _expected(pid, [ruleset]):
                found.append(pid)
        if len(found) == n:
            return found
    raise AssertionError(f"seed {SEED}: fewer than {n} states of {ruleset} drawn")


@pytest.mark.parametrize("ruleset", sorted(rulesets()))
def test_positions_no_test_chose_answer_as_ask_does(loaded: object, context: object, server: str, ruleset: str) -> None:  # noqa: F811
    """Two random reachable states per ruleset, drawn anew each run: the page answers exactly what ask answers."""
    for pid in _drawn(ruleset, 2):
        _visit(loaded, _url(server, pid, [ruleset]))
        shown = json.loads(loaded.evaluate("document.getElementById('answer').textContent"))  # type: ignore[attr-defined]
        assert shown == _expected(pid, [ruleset]), f"seed {SEED}: {pid}"
        assert loaded.errors == [], f"seed {SEED}: {pid}"  # type: ignore[attr-defined]
    _local_only(context, server)


def test_ask_command_prints_the_page_answer(context: object, server: str) -> None:  # noqa: F811
    """For one position of each game, the command line itself, run as a process, prints what the page shows."""
    for pid in {play.read_id(p).game: p for p, names in POSITIONS if names is None}.values():
        run = subprocess.run(
            [sys.executable, "-m", "gammonspec.conformance.cli", "ask", pid, "--json", "-"],
            capture_output=True,
            text=True,
        )
        assert run.returncode == 0, run.stderr
        page, _ = _open(context, _url(server, pid))
        assert json.loads(page.evaluate("document.getElementById('answer').textContent")) == json.loads(run.stdout)
        page.close()


BAD = [
    ("NID1_N_11o11O", "id", "fields"),  # a truncated Narde ID
    ("NID1_N_11o11O_w65_f1r0h0_zz", "id", ""),  # a field that is no field
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0", "id", "fields"),  # a truncated XGID
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:1x", "id", "not a whole number"),  # a malformed field
    ("NID1_N_11o11O_w65_f1r0h3", "context", "head"),  # three checkers already off the head before the first play
    ("XGID=-C----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10", "id", "more than 15"),  # 18 white checkers
    ("NID1_N_11oBBBBBB5C_w65_f0r20h0", "board", "six-block"),  # a six-block no Narde ruleset lets stand
]


@pytest.mark.parametrize("pid, field, words", BAD)
def test_bad_input_gets_a_message_beside_its_field(
    loaded: object,
    server: str,  # noqa: F811
    pid: str,
    field: str,
    words: str,
) -> None:
    page = loaded
    _visit(page, _url(server, pid))
    message = page.inner_text(f"#msg-{field}")  # type: ignore[attr-defined]
    assert message and words in message.lower(), (pid, field, message, page.inner_text("#status"))  # type: ignore[attr-defined]
    assert page.evaluate("document.getElementById('answer').textContent") == ""  # type: ignore[attr-defined]
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_roll_the_context_never_deals_is_refused_beside_the_dice(context: object, server: str) -> None:  # noqa: F811
    """The backgammon start with 3-3 to play: its first roll is the opening roll, never a double."""
    pid = play.write_id(State(start_layout("backgammon"), "white", (3, 3)))
    page, errors = _open(context, _url(server, pid))
    assert "double" in page.inner_text("#msg-dice"), page.inner_text("#msg-dice")
    assert errors == []
    page.close()


def test_the_board_is_set_up_by_keyboard_and_by_clicks(context: object, server: str) -> None:  # noqa: F811
    """Narde's start: Enter on the head, arrows to another point, Enter carries one checker there (the ID in the URL
    changes and the answer follows); a click onto a point the other side holds is refused beside the board."""
    page, errors = _open(context, _url(server, "NID1_N_11o11O_w65_f1r0h0"))
    head = page.locator('.hit[data-at="24"]')
    head.focus()
    page.keyboard.press("Enter")
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('answer').dataset.count >= 2", timeout=WAIT)
    moved = play.read_id(page.input_value("#pid"))
    assert moved.layout.white[23] == 14 and moved.layout.white[20] == 1, moved.layout  # the top row: 24, 23, 22, 21
    assert f"id={page.input_value('#pid')}" in page.evaluate("decodeURIComponent(location.search)")
    page.locator('.hit[data-at="21"]').click()
    page.locator('.hit[data-at="12"]').click()  # black's head
    assert "black" in page.inner_text("#msg-board")
    assert errors == []
    page.close()


@pytest.mark.parametrize("width, scheme", [(400, "light"), (400, "dark"), (1280, "light"), (1280, "dark")])
def test_fits_400px_and_reads_in_both_schemes(context: object, server: str, width: int, scheme: str) -> None:  # noqa: F811
    """The Narde start, 6-5, where the two Narde rulesets differ: no sideways scroll, the board and every after-board
    inside the window, the differing play marked; a screenshot for a person to look at."""
    page, errors = _open(context, _url(server, "NID1_N_11o11O_w65_f1r0h0"), width, scheme)
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    rights = page.evaluate(
        "[...document.querySelectorAll('#board svg, #results svg')].map(s => s.getBoundingClientRect().right)"
    )
    assert overflow <= 0 and rights and max(rights) <= width, (overflow, rights)
    assert page.locator("#results figure.differs").count() == 1
    assert "head-exception" in page.inner_text("#results .why")
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"playground-{width}px-{scheme}.png"), full_page=True)
    assert errors == []
    page.close()


def _playground_page() -> object:
    pytest.importorskip("mkdocs", reason="the site extra is not installed")
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "site"))
    import playground_page

    return playground_page


def test_the_zip_holds_the_engine_and_pure_python_only() -> None:
    """The zip the page unpacks: the model, the reference engine, the ask core and what it imports, the spec's data,
    PyYAML's and fastjsonschema's Python files and licences; nothing of the harness (it needs what Pyodide lacks) and
    no compiled extension."""
    import zipfile

    names = set(zipfile.ZipFile(io.BytesIO(_playground_page().bundle())).namelist())
    for needed in (
        "play.py",
        "gammonspec/conformance/tools/ask.py",
        "gammonspec/conformance/tools/diagram.py",
        "gammonspec/model/narde_ids.py",
        "gammonspec/reference/movegen.py",
        "gammonspec/spec/rulesets/gul-bara.yaml",
        "gammonspec/model/schema/ask.schema.json",
        "yaml/__init__.py",
        "fastjsonschema/__init__.py",
        "licenses/PyYAML/LICENSE",
        "licenses/fastjsonschema/LICENSE",
    ):
        assert needed in names, needed
    assert not any(n.startswith("gammonspec/conformance/harness") or n.endswith((".so", ".pyd")) for n in names)


def test_without_npms_pyodide_the_page_says_so(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A site built without `npm ci --prefix site/playground` still has the page, saying the engine is missing, and
    no runtime files; with it, the five runtime files are copied."""
    module = _playground_page()
    monkeypatch.setattr(module, "NPM", tmp_path / "nothing")
    assert 'id="missing"' in module.page() and module.runtime() == {}
    monkeypatch.undo()
    if module.pyodide_version() is not None:
        assert 'id="missing"' not in module.page()
        assert len(module.runtime()) == len(module.RUNTIME) and all(p.is_file() for p in module.runtime().values())
