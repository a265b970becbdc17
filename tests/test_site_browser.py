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


def _open(browser: object, url: str, width: int = 1280, scheme: str = "light") -> tuple[object, list[str]]:
    page = browser.new_page(viewport={"width": width, "height": 900}, color_scheme=scheme)  # type: ignore[attr-defined]
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url, wait_until="load")
    return page, errors


PAGES = ["", "backgammon/", "narde/", "crazy-narde/", "disagreements/", "switches/", "cases-narde/", "results/"]
PAGES += ["rulesets/", "changelog/", "legend/", "play-backgammon/", "play-narde/", "play-crazy-narde/"]
PAGES += ["cases-narde-six-block/", "examples-nd.block.six/"]  # a case file's page, a clause's examples  # same-position/ is opened by its own test below


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


@pytest.mark.parametrize("path", ["legend/", "play-narde/"])
def test_legend_and_how_to_play_fit_400px(browser: object, server: str, path: str) -> None:
    """At 400 px the legend's and a play page's boards are drawn, scaled into the column, with no sideways scroll."""
    page, errors = _open(browser, f"{server}/{path}", width=400)
    widths = page.evaluate(
        """async () => {
          const imgs = [...document.querySelectorAll('article img[src*="boards/"]')];
          imgs.forEach(i => i.loading = 'eager');
          await Promise.all(imgs.map(i => i.decode().catch(() => null)));
          return imgs.map(i => [i.naturalWidth, Math.round(i.getBoundingClientRect().right)]);
        }"""
    )
    assert widths and all(natural > 0 and 0 < right <= 400 for natural, right in widths), widths
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0 and errors == [], (overflow, errors)
    page.close()


@pytest.mark.parametrize("width", [1280, 400])
def test_results_identified_column_is_in_view(browser: object, server: str, width: int) -> None:
    page, _ = _open(browser, f"{server}/results/", width=width)
    right = page.evaluate(
        """() => Math.max(...[...document.querySelectorAll('.results table')[0].rows]
              .map(r => r.cells[1].getBoundingClientRect().right))"""
    )
    assert 0 < right <= width, f"the identified column ends at {right} px of {width}"
    page.screenshot(path=str(SCREENS / f"results-{width}px.png"))
    page.close()


def test_results_grid_shows_every_ruleset_at_1280px(browser: object, server: str) -> None:
    """An engine a row and a ruleset a column: all five rulesets in view however many engines are reported."""
    page, _ = _open(browser, f"{server}/results/", width=1280)
    grid = page.locator(".results table").nth(1)
    heads = grid.locator("thead th").all_inner_texts()
    assert heads[0] == "engine" and len(heads) == 6, heads
    width, visible = grid.evaluate("t => [t.scrollWidth, t.closest('.md-typeset__scrollwrap, .md-typeset__table').clientWidth]")
    assert width <= visible, f"the grid is {width} px wide in {visible} px"
    grid.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENS / "results-grid-1280px.png"))
    page.close()


def test_same_position_page_draws_each_ruleset_side_by_side(browser: object, server: str) -> None:
    page, errors = _open(browser, f"{server}/same-position/#head-exception")
    tops = page.evaluate(
        """() => [...document.querySelectorAll('.rulesets')].map(
              g => [...g.children].map(c => Math.round(c.getBoundingClientRect().top)))"""
    )
    assert tops and all(len(set(row)) == 1 and len(row) >= 2 for row in tops), tops  # columns share one top
    page.screenshot(path=str(SCREENS / "same-position.png"))
    assert errors == []
    page.close()


def _luminance(rgb: list[float]) -> float:
    """WCAG relative luminance of an sRGB colour (0-255 channels)."""
    c = [v / 255 / 12.92 if v / 255 <= 0.04045 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in rgb[:3]]
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]


def _contrast(a: list[float], b: list[float]) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_boards_read_in_the_dark_scheme(browser: object, server: str) -> None:
    """In Material's dark scheme the board keeps its own felt: the felt stands out from the dark page, and the
    checkers from the felt (pixels read from the home page's starting position as the browser drew it)."""
    from gammonspec.conformance.tools import diagram as d

    page, errors = _open(browser, f"{server}/", scheme="dark")
    assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"
    spots = {  # the starting position, white on roll: black's 6 is white's 19 (top), white's 6 at the bottom
        "felt": (d.x_of(2), d.TOP + d.HALF + d.GAP / 2),
        "black": (d.x_of(d.column(19)), d.TOP + d.R + 1),
        "white": (d.x_of(d.column(6)), d.TOP + d.BOARD_H - d.R - 1),
        "frame": (d.WIDTH / 2, d.HEIGHT - 4),
    }
    colours = page.evaluate(
        r"""async (spots) => {
          const img = document.querySelector('img[src*="boards/"]');
          img.loading = 'eager'; await img.decode();
          const c = document.createElement('canvas'); c.width = img.naturalWidth; c.height = img.naturalHeight;
          const g = c.getContext('2d'); g.drawImage(img, 0, 0);
          const out = {};
          for (const [k, [x, y]] of Object.entries(spots)) out[k] = [...g.getImageData(x, y, 1, 1).data];
          const bg = getComputedStyle(document.body).backgroundColor.match(/\d+/g).map(Number);
          return {...out, page: bg};
        }""",
        spots,
    )
    assert _luminance(colours["page"]) < 0.05, colours  # the dark scheme is on
    assert _contrast(colours["felt"], colours["page"]) >= 4.5, colours
    assert _contrast(colours["black"], colours["felt"]) >= 4.5, colours
    assert _contrast(colours["frame"], colours["page"]) >= 1.5, colours  # the frame's edge still shows
    assert _contrast(colours["white"], colours["black"]) >= 4.5, colours
    page.screenshot(path=str(SCREENS / "home-dark.png"))
    assert errors == []
    page.close()
