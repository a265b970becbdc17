"""The built site's disagreement matrix and results pages in a real browser (headless Chromium): every text of the
matrix readable in both colour schemes, all five rulesets in view at 1280 px, the results pages at 1280 and 400 px.

Skips as tests/test_site_browser.py does (GAMMONSPEC_BROWSER_REQUIRED makes a missing browser a failure)."""

from __future__ import annotations

import pytest

from tests.test_site_browser import SCREENS, _contrast, _open, browser, server  # noqa: F401  (fixtures)

TEXTS = r"""(selector) => {
  const rgb = s => s.match(/[\d.]+/g).map(Number);
  const back = el => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length < 4 || c[3] > 0) return c;
    }
    return [255, 255, 255];
  };
  const out = [];
  for (const root of document.querySelectorAll(selector)) {
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (!n.textContent.trim()) continue;
      const el = n.parentElement;
      out.push({text: n.textContent.trim(), fg: rgb(getComputedStyle(el).color), bg: back(el)});
    }
  }
  return out;
}"""


SCROLL = """() => {
  const m = document.querySelector('.matrix'), heads = m.querySelectorAll('thead th');
  const scroll = Math.max(...[m, ...m.querySelectorAll('*')].map(e => e.scrollWidth - e.clientWidth));
  return {scroll, right: m.getBoundingClientRect().right, last: heads[heads.length - 1].getBoundingClientRect().right,
          columns: heads.length};
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", ["", "disagreements/", "narde/"])
def test_every_matrix_text_reads_at_4_5_to_1(browser: object, server: str, path: str, scheme: str) -> None:  # noqa: F811
    """Each text of the matrix (values, marks, clause and case links, headers) against the colour behind it."""
    page, errors = _open(browser, f"{server}/{path}", scheme=scheme)
    texts = page.evaluate(TEXTS, ".matrix")
    assert len(texts) > 20, texts
    assert any(t["text"] == "●" for t in texts) and any(t["text"] == "○" for t in texts)
    low = [(t["text"], round(_contrast(t["fg"], t["bg"]), 2)) for t in texts if _contrast(t["fg"], t["bg"]) < 4.5]
    worst = min(_contrast(t["fg"], t["bg"]) for t in texts)
    print(f"matrix contrast, {path or 'home'} {scheme}: lowest {worst:.2f}:1 over {len(texts)} texts")
    assert low == [], low
    page.locator(".matrix").first.screenshot(path=str(SCREENS / f"matrix-{path.strip('/') or 'home'}-{scheme}.png"))
    assert errors == []
    page.close()


def test_home_matrix_shows_all_five_rulesets_at_1280px(browser: object, server: str) -> None:  # noqa: F811
    page, _ = _open(browser, f"{server}/")
    box = page.evaluate(SCROLL)
    assert box["columns"] == 6, box  # the switch column and the five rulesets
    assert box["scroll"] <= 0 and box["last"] <= box["right"] + 1, box
    assert not page.locator(".matrix-cue").first.is_visible()
    page.close()


def test_matrix_at_400px_says_it_scrolls(browser: object, server: str) -> None:  # noqa: F811
    page, _ = _open(browser, f"{server}/disagreements/", width=400)
    assert page.evaluate(SCROLL)["scroll"] > 0
    assert page.locator(".matrix-cue").first.is_visible()
    page.close()


FILTERED = """() => [...document.querySelectorAll('span.rf')].map(s => ({
  game: s.dataset.game, ruleset: s.dataset.ruleset, rules: s.dataset.rules.split(' '),
  shown: !s.closest('li').hidden}))"""


def test_results_filter_by_game_ruleset_and_clause(browser: object, server: str) -> None:  # noqa: F811
    page, errors = _open(browser, f"{server}/results/")
    everything = page.evaluate(FILTERED)
    assert everything and all(m["shown"] for m in everything)
    form = page.locator("form.results-filter")
    assert form.locator("output").inner_text() == f"{len(everything)} of {len(everything)} failures shown"
    form.locator('select[data-key="game"]').select_option("narde")
    narde = [m for m in page.evaluate(FILTERED) if m["shown"]]
    assert narde and all(m["game"] == "narde" for m in narde)
    assert len(narde) == sum(m["game"] == "narde" for m in everything) < len(everything)
    form.locator('input[data-key="rules"]').fill("nd.head")
    head = [m for m in page.evaluate(FILTERED) if m["shown"]]
    assert head and all(any(r.startswith("nd.head") for r in m["rules"]) for m in head) and len(head) < len(narde)
    form.locator('select[data-key="game"]').select_option("")
    form.locator('input[data-key="rules"]').fill("")
    form.locator('select[data-key="ruleset"]').select_option("gul-bara")
    gul = [m for m in page.evaluate(FILTERED) if m["shown"]]
    assert gul and all(m["ruleset"] == "gul-bara" for m in gul)
    assert errors == []
    page.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [1280, 400])
def test_results_badges_keep_their_size_and_the_page_is_drawn(browser: object, server: str, width: int, scheme: str) -> None:  # noqa: F811
    page, errors = _open(browser, f"{server}/results/", width=width, scheme=scheme)
    badges = page.evaluate(
        "() => [...document.querySelectorAll('img.badge')].map(i => ({w: i.getBoundingClientRect().width,"
        " h: i.getBoundingClientRect().height, want: +i.getAttribute('width')}))"
    )
    assert badges and all(b["h"] >= 19.5 and b["w"] >= b["want"] - 0.5 for b in badges), badges
    for anchor in ("where-each-engine-comes-from", "interop-how-the-engines-read-each-rule", "history"):
        page.locator(f"#{anchor}").scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENS / f"results-{anchor.split('-')[0]}-{width}-{scheme}.png"))
    assert errors == []
    page.close()
