"""The built pages in a real browser (headless Chromium): the size and images tests/test_site.py counts from the
files are what the browser gets, and each rules page's load time printed as a benchmark (a figure to read, not a
timed assertion)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_site_browser import browser, server  # noqa: F401  (shared fixtures)

RULES = ["backgammon/", "narde/", "crazy-narde/"]
COUNT = "() => document.querySelectorAll('img').length + document.querySelectorAll('svg').length"
TIMES = """() => { const n = performance.getEntriesByType('navigation')[0];
  return [n.domContentLoadedEventEnd, n.loadEventEnd, document.getElementsByTagName('*').length]; }"""


def _static(html: bytes) -> int:
    """The images of a page as its HTML has them: <img> and <svg> elements (no script of the site adds any)."""
    return len(re.findall(rb"<img\b", html)) + len(re.findall(rb"<svg\b", html))


def test_the_browser_counts_the_images_the_files_hold(browser: object, server: str, built: Path) -> None:  # noqa: F811
    """tests/test_site.py holds every page to 300 KB and 300 images, counted from its file; the browser, loading the
    largest pages and the rules pages, gets the same size and count (so the files' count is what a reader gets)."""
    pages = {str(p.parent.relative_to(built)): p.read_bytes() for p in built.rglob("index.html")}
    assert len(pages) > 100, len(pages)  # the split-off pages are there
    largest = sorted(pages, key=lambda p: len(pages[p]), reverse=True)[:4]
    most_images = sorted(pages, key=lambda p: _static(pages[p]), reverse=True)[:4]
    page = browser.new_page(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    for path in sorted({*largest, *most_images, *(r.rstrip("/") for r in RULES)}):
        response = page.goto(f"{server}/{'' if path == '.' else path + '/'}", wait_until="domcontentloaded")
        assert (len(response.body()), page.evaluate(COUNT)) == (len(pages[path]), _static(pages[path])), path
    page.close()


def test_rules_pages_load_times(browser: object, server: str, record_property: object) -> None:  # noqa: F811
    """Each rules page loaded from the local server, cold: its HTML size, images and load time as benchmark lines
    (tests/conftest.py prints them after the run), to read against the bar of 1 s; no test depends on speed."""
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
