"""Issue 48 in a real browser (headless Chromium): what the runner prints finds its page first, a deep link stays put
while lazy boards load, every page has a title of its own, no Narde board anywhere draws a cube, and every ● of the
matrix names the source's words in its clause."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_site_browser import SCREENS, _open, browser, server  # noqa: F401  (shared fixtures)

KEYS = [  # what a reader pastes -> the section it must find first
    (
        "narde-guide::nd-block-black-home-checker-just-behind",
        "cases-narde-six-block/#nd-block-black-home-checker-just-behind",
    ),
    ("nd.head.first-turn", "narde/#nd.head.first-turn"),
    ("bg-double-black-no-play", "cases-backgammon-doubles/#bg-double-black-no-play"),
    ("cn.head.first-turn", "crazy-narde/#cn.head.first-turn"),
]


def _search(page: object, query: str) -> list[str]:
    """The search's result links for a query typed into the box, as paths without the highlight parameter."""
    page.locator("label.md-search__icon, .md-search__input").first.click()  # type: ignore[attr-defined]
    box = page.locator(".md-search__input")  # type: ignore[attr-defined]
    box.fill(query)
    box.press("End")  # the search reads the box on keyup (see test_site_browser_rules)
    page.locator(".md-search-result__item a").first.wait_for(timeout=60_000)  # type: ignore[attr-defined]
    page.wait_for_timeout(300)  # type: ignore[attr-defined]
    links = page.eval_on_selector_all(  # type: ignore[attr-defined]
        ".md-search-result__item a", "as => as.map(a => a.pathname.replace(/^\\//, '') + a.hash)"
    )
    box.fill("")
    page.keyboard.press("Escape")  # type: ignore[attr-defined]
    return links


def test_what_the_runner_prints_finds_its_page_first(browser: object, server: str) -> None:  # noqa: F811
    page, errors = _open(browser, f"{server}/conventions/")
    for query, target in KEYS:
        links = _search(page, query)
        sections = [link for link in links if "#" in link]
        assert sections and sections[0] == target, (query, links[:4])
    (SCREENS / "keys").mkdir(parents=True, exist_ok=True)
    page.locator("label.md-search__icon, .md-search__input").first.click()
    page.locator(".md-search__input").fill(KEYS[0][0])
    page.locator(".md-search__input").press("End")
    page.locator(".md-search-result__item a").first.wait_for(timeout=60_000)
    page.screenshot(path=str(SCREENS / "keys" / "search-failure-key.png"))
    assert page.locator(".md-search__input").input_value() == KEYS[0][0]  # the box keeps what was typed
    assert "six-block" in " ".join(_search(page, "six-block"))  # an ordinary search is unchanged
    assert errors == []
    page.close()


@pytest.mark.parametrize(
    "path",
    [
        "narde/#nd.block.six",
        "cases-narde-six-block/#nd-block-black-home-checker-just-behind",
        "play-narde/#bearing-off",
    ],
)
def test_a_deep_link_stays_put_while_the_boards_load(browser: object, server: str, path: str) -> None:  # noqa: F811
    """The heading a link opens is where it was once every lazy board above and around it has loaded."""
    page, errors = _open(browser, f"{server}/{path}", width=400)
    page.wait_for_timeout(300)  # the page's own jump to the anchor
    anchor = path.split("#", 1)[1]
    where = "(id) => Math.round(document.getElementById(id).getBoundingClientRect().top)"
    before = page.evaluate(where, anchor)
    loaded = page.evaluate(
        """async () => {
          const imgs = [...document.querySelectorAll('img[src*="boards/"]')];
          imgs.forEach(i => i.loading = 'eager');
          await Promise.all(imgs.map(i => i.decode().catch(() => null)));
          return imgs.filter(i => i.naturalWidth > 0).length;
        }"""
    )
    page.wait_for_timeout(200)
    after = page.evaluate(where, anchor)
    assert loaded > 3 and 0 <= before < 300 and abs(after - before) <= 2, (path, before, after, loaded)
    assert errors == []
    page.close()


def test_every_page_has_a_title_of_its_own(browser: object, server: str, built: Path) -> None:  # noqa: F811
    """Tabs and bookmarks tell every page apart: each page's document title, as the browser reads it, is unique."""
    page, errors = _open(browser, f"{server}/")
    paths = sorted(str(p.parent.relative_to(built)) for p in built.rglob("index.html"))
    titles = page.evaluate(
        """async (paths) => Promise.all(paths.map(async p => {
          const html = await (await fetch('/' + (p === '.' ? '' : p + '/'))).text();
          return [p, new DOMParser().parseFromString(html, 'text/html').title];
        }))""",
        paths,
    )
    seen: dict[str, str] = {}
    for path, title in titles:
        assert title and title not in seen, (title, seen.get(title), path)
        seen[title] = path
    assert len(seen) > 150 and seen["How to play Narde - gammonspec"] == "play-narde"
    assert errors == []
    page.close()


def test_no_narde_board_anywhere_draws_a_cube(browser: object, server: str, built: Path) -> None:  # noqa: F811
    """Narde has no doubling cube under either ruleset: every board of a Narde position that any page shows (the
    board's own title names its game) has no cube drawn, as the browser receives it."""
    page, errors = _open(browser, f"{server}/")
    paths = sorted(str(p.parent.relative_to(built)) for p in built.rglob("index.html"))
    found = page.evaluate(
        """async (paths) => {
          const svgs = new Map(), out = {narde: 0, cube: 0, bad: []};
          for (const p of paths) {
            const html = await (await fetch('/' + (p === '.' ? '' : p + '/'))).text();
            const doc = new DOMParser().parseFromString(html, 'text/html');
            for (const img of doc.querySelectorAll('img[src*="boards/"]')) {
              const name = img.getAttribute('src').split('boards/')[1];
              if (!svgs.has(name)) svgs.set(name, await (await fetch('/boards/' + name)).text());
              const svg = svgs.get(name), narde = /<title id="t">narde /.test(svg), cube = svg.includes('class="cube"');
              out.narde += narde; out.cube += cube;
              if (narde && cube) out.bad.push(p + ': ' + name);
            }
          }
          return out;
        }""",
        paths,
    )
    assert found["bad"] == [], found["bad"][:5]
    assert found["narde"] > 500 and found["cube"] > 50, found  # Narde boards were seen, and cubes elsewhere
    assert errors == []
    page.close()


def test_every_stated_mark_names_the_sources_words_in_its_clause(browser: object, server: str) -> None:  # noqa: F811
    """Each ● of the matrix, as the reader sees it on hover or tap, names a source, the place its clause cites and
    what the words say; the clause it names, on its page, cites that source at that place."""
    page, errors = _open(browser, f"{server}/disagreements/", width=400)
    marks = page.eval_on_selector_all(".matrix .mark.stated", "ms => ms.map(m => [m.dataset.note, m.title])")
    assert len(marks) > 30, len(marks)
    checked = page.evaluate(
        r"""async (notes) => {
          const pages = {}, bad = [];
          for (const note of notes) {
            const m = note.match(/^stated by ([a-z-]+)(?:, (.+?))? \(§ ((bg|nd|cn)\.[a-z0-9.-]+)\): (.{12,})$/);
            if (!m) { bad.push('unreadable: ' + note); continue; }
            const [, source, place, rule, prefix] = m;
            const game = {bg: 'backgammon', nd: 'narde', cn: 'crazy-narde'}[prefix];
            pages[game] = pages[game] || new DOMParser().parseFromString(await (await fetch(`/${game}/`)).text(), 'text/html');
            const heading = pages[game].getElementById(rule);
            let line = heading && heading.nextElementSibling;
            while (line && !line.textContent.includes('Source:')) line = line.nextElementSibling;
            const cited = line ? line.textContent.split('Status:')[0] : '';
            if (!cited.includes(source) || (place && !cited.includes(place))) bad.push(`${note} | clause says: ${cited}`);
          }
          return bad;
        }""",
        [note for note, _ in marks],
    )
    assert checked == [], checked[:3]
    assert all(note == title for note, title in marks)  # the tooltip says the same
    mark = page.locator(".matrix .mark.stated").first
    mark.scroll_into_view_if_needed()
    mark.focus()  # a tap on a phone: the note shows beside the mark
    (SCREENS / "keys").mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / "keys" / "matrix-mark-400px.png"))
    assert errors == []
    page.close()


def test_the_matrix_keeps_its_header_and_switch_column_in_view_on_a_phone(browser: object, server: str) -> None:  # noqa: F811
    """At 400 px the matrix scrolls in its own box: scrolled down and sideways, its header row stays at the box's top
    and its switch column at the box's left; each cell carries its group's letter, not colour alone."""
    page, errors = _open(browser, f"{server}/disagreements/", width=400, scheme="dark")
    box = page.locator(".matrix").first
    box.scroll_into_view_if_needed()
    moved = box.evaluate(
        """m => {
          const head = m.querySelector('thead th:nth-child(3)'), first = m.querySelector('tbody tr:nth-child(4) th');
          const top0 = m.getBoundingClientRect().top, left0 = m.getBoundingClientRect().left;
          m.scrollTop = 300; m.scrollLeft = 200;
          return {scrolled: [m.scrollTop, m.scrollLeft], head: head.getBoundingClientRect().top - top0,
                  first: first.getBoundingClientRect().left - left0,
                  letters: [...m.querySelectorAll('td .grp')].map(g => g.textContent)};
        }"""
    )
    assert moved["scrolled"][0] > 100 and moved["scrolled"][1] > 100, moved["scrolled"]  # it did scroll both ways
    assert abs(moved["head"]) <= 2 and abs(moved["first"]) <= 2, moved
    assert set(moved["letters"]) >= {"A", "B", "C"}, moved["letters"]
    page.screenshot(path=str(SCREENS / "keys" / "matrix-scrolled-400px-dark.png"))
    assert errors == []
    page.close()
