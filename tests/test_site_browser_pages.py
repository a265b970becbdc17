"""Every built page in a real browser (headless Chromium): no page over 300 KB of HTML or 300 images, and each
rules page's load time printed as a benchmark (a figure to read, not a timed assertion)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_site import MAX_IMAGES, MAX_PAGE
from tests.test_site_browser import browser, server  # noqa: F401  (shared fixtures)

RULES = ["backgammon/", "narde/", "crazy-narde/"]
COUNT = "() => document.querySelectorAll('img').length + document.querySelectorAll('svg').length"
TIMES = """() => { const n = performance.getEntriesByType('navigation')[0];
  return [n.domContentLoadedEventEnd, n.loadEventEnd, document.getElementsByTagName('*').length]; }"""


def _static(html: bytes) -> int:
    """The images of a page as its HTML has them: <img> and <svg> elements (no script of the site adds any)."""
    return len(re.findall(rb"<img\b", html)) + len(re.findall(rb"<svg\b", html))


def test_every_page_is_at_most_300_kb_and_300_images(browser: object, server: str, built: Path) -> None:  # noqa: F811
    """Every page measured from its file; the browser, loading the largest pages and the rules pages, counts the
    same images (so the count from the files is the count a reader's browser has)."""
    pages = {str(p.parent.relative_to(built)): p.read_bytes() for p in built.rglob("index.html")}
    assert len(pages) > 100, len(pages)  # the split-off pages are there
    over = [f"{path}: {len(html) / 1000:.0f} KB, {_static(html)} images" for path, html in sorted(pages.items())
            if len(html) > MAX_PAGE or _static(html) > MAX_IMAGES]
    assert not over, over
    largest = sorted(pages, key=lambda p: len(pages[p]), reverse=True)[:4]
    most_images = sorted(pages, key=lambda p: _static(pages[p]), reverse=True)[:4]
    page = browser.new_page(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    for path in sorted({*largest, *most_images, *(r.rstrip("/") for r in RULES)}):
        response = page.goto(f"{server}/{'' if path == '.' else path + '/'}", wait_until="domcontentloaded")
        assert (len(response.body()), page.evaluate(COUNT)) == (len(pages[path]), _static(pages[path])), path
    page.close()


def test_rules_pages_load_times(browser: object, server: str, record_property: object) -> None:  # noqa: F811
    """Each rules page loaded from the local server, cold: its HTML size, images and load time as benchmark lines
    (tests/conftest.py prints them after the run); the bar is under 1 s."""
    for path in RULES:
        context = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
        page = context.new_page()
        response = page.goto(f"{server}/{path}", wait_until="load")
        ready, loaded, nodes = page.evaluate(TIMES)
        images, size = page.evaluate(COUNT), len(response.body())
        assert size and images and nodes, path  # the page was loaded and measured
        line = (
            f"benchmark {path}: {size / 1000:.0f} KB HTML, {images} images, {nodes} DOM nodes; "
            f"DOMContentLoaded {ready / 1000:.2f} s, load {loaded / 1000:.2f} s ({'under' if loaded < 1000 else 'OVER'} 1 s)"
        )
        record_property("benchmark", line)  # type: ignore[operator]
        print(line)
        context.close()
