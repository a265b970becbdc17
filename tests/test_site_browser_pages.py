"""Every built page in a real browser (headless Chromium): no page over 300 KB of HTML or 300 images, and each
rules page's load time printed as a benchmark (a figure to read, not a timed assertion)."""

from __future__ import annotations

from pathlib import Path

from tests.test_site import MAX_IMAGES, MAX_PAGE, built  # noqa: F401  (the built site, shared fixture)
from tests.test_site_browser import browser, server  # noqa: F401  (shared fixtures)

RULES = ["backgammon/", "narde/", "crazy-narde/"]
COUNT = "() => document.querySelectorAll('img').length + document.querySelectorAll('svg').length"
TIMES = """() => { const n = performance.getEntriesByType('navigation')[0];
  return [n.domContentLoadedEventEnd, n.loadEventEnd, document.getElementsByTagName('*').length]; }"""


def test_every_page_is_at_most_300_kb_and_300_images(browser: object, server: str, built: Path) -> None:  # noqa: F811
    paths = sorted(str(p.parent.relative_to(built)) for p in built.rglob("index.html"))
    assert len(paths) > 100, len(paths)  # the split-off pages are there
    page = browser.new_page(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    over = []
    for path in paths:
        url = f"{server}/{'' if path == '.' else path + '/'}"
        response = page.goto(url, wait_until="domcontentloaded")
        size, images = len(response.body()), page.evaluate(COUNT)
        if size > MAX_PAGE or images > MAX_IMAGES:
            over.append(f"{path}: {size / 1000:.0f} KB, {images} images")
    page.close()
    assert not over, over


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
