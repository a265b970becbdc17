"""The built site in a real browser (headless Chromium): no console errors, boards drawn, anchors, the matrix at 400 px.

Skips when Chromium or playwright is absent, unless GAMMONSPEC_BROWSER_REQUIRED is set (CI sets it)."""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.test_site import built  # noqa: F401  (the built site, shared fixture)

SCREENS = Path(os.environ.get("GAMMONSPEC_SCREENS", "/work/screens"))
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _need(what: str) -> None:
    if os.environ.get("GAMMONSPEC_BROWSER_REQUIRED"):
        pytest.fail(f"{what} is required here (GAMMONSPEC_BROWSER_REQUIRED is set)")
    pytest.skip(f"{what} is not installed: the browser test needs Debian's chromium and the playwright package")


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if CHROMIUM is None:
        _need("chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _need("playwright")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # no request log in the test output
        pass


class _QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request: object, client_address: object) -> None:
        pass  # the browser closing a connection early (a lazy image it no longer needs) is not a failure


@pytest.fixture(scope="module")
def server(built: Path) -> Iterator[str]:  # noqa: F811
    handler = functools.partial(_QuietHandler, directory=str(built))
    httpd = _QuietServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def _open(browser: object, url: str, width: int = 1280) -> tuple[object, list[str]]:
    page = browser.new_page(viewport={"width": width, "height": 900})  # type: ignore[attr-defined]
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url, wait_until="load")
    return page, errors


PAGES = ["", "backgammon/", "narde/", "crazy-narde/", "disagreements/", "switches/", "cases-narde/", "results/"]


@pytest.mark.parametrize("path", PAGES)
def test_page_loads_without_console_errors(browser: object, server: str, path: str) -> None:
    page, errors = _open(browser, f"{server}/{path}")
    assert page.title(), path
    assert errors == [], f"{path}: {errors}"
    page.close()


def test_case_boards_are_drawn_and_rule_anchors_resolve(browser: object, server: str) -> None:
    page, errors = _open(browser, f"{server}/narde/#nd.head.first-turn")
    assert page.evaluate("document.getElementById('nd.head.first-turn') !== null")
    assert page.evaluate("window.scrollY") > 0  # the anchor scrolled the page to its clause
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / "clause-nd.head.first-turn.png"))
    sizes = page.evaluate(
        """async () => {
          const imgs = [...document.querySelectorAll('img[src*="boards/"]')].slice(0, 40);
          imgs.forEach(i => i.loading = 'eager');
          await Promise.all(imgs.map(i => i.decode().catch(() => null)));
          return imgs.map(i => i.naturalWidth);
        }"""
    )
    assert sizes and all(w > 0 for w in sizes), sizes
    assert errors == []
    page.close()


def test_matrix_has_no_overflow_at_400px(browser: object, server: str) -> None:
    page, _ = _open(browser, f"{server}/disagreements/", width=400)
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px at 400 px"
    page.screenshot(path=str(SCREENS / "matrix-400px.png"), full_page=False)
    page.close()
    home, _ = _open(browser, f"{server}/")
    home.screenshot(path=str(SCREENS / "home.png"))
    home.close()
    results, _ = _open(browser, f"{server}/results/")
    results.screenshot(path=str(SCREENS / "results.png"))
    results.close()
