"""The site builds strictly, and shows what the spec promises: boards, examples under clauses, anchors by rule ID."""

from __future__ import annotations

import json
import os
import re
from html import unescape
from importlib.metadata import version
from pathlib import Path

from gammonspec.conformance.harness.cases import suite
from gammonspec.conformance.harness.coverage import cases_by_rule
from gammonspec.conformance.tools.contested import contests
from gammonspec.conformance.tools.links import RULE_REF, code_target
from gammonspec.model.clauses import clauses
from gammonspec.model.rulesets import accepted, rulesets

ROOT = Path(__file__).resolve().parent.parent
SOURCES = Path(os.environ.get("GAMMONSPEC_SOURCES", "/work/shared/sources"))  # the source texts, not shipped
# a page opens fast (issue 30); the site grows by the navigation each split-off page repeats
MAX_PAGE, MAX_IMAGES, MAX_SITE = 300_000, 300, 18_000_000
MAX_ENGINE = 14_500_000  # the playground's Python runtime (play/pyodide/), loaded by that page alone, counted apart


def example_pages(built: Path, game: str) -> list[Path]:
    """A game's rules page and the examples pages of its clauses."""
    prefixes = {"backgammon": "bg.", "narde": "nd.", "crazy-narde": "cn."}
    return [built / game / "index.html", *sorted(built.glob(f"examples-{prefixes[game]}*/index.html"))]


def examples_of(built: Path, rule: str) -> str:
    """The page that draws every example of a clause: its examples page, or its rules page when it has one example."""
    page = built / f"examples-{rule}" / "index.html"
    return (page if page.exists() else built / clauses()[rule].path.stem / "index.html").read_text()


def test_clause_anchors_are_rule_ids_and_examples_sit_under_them(built: Path) -> None:
    page = (built / "narde" / "index.html").read_text()
    assert 'id="nd.head.first-turn"' in page
    start = page.index('id="nd.head.first-turn"')
    section = page[start : page.index('id="nd.point.single-holds"')]
    assert "Example 1:" in section and "boards/" in section and 'href="#nd.head.first-turn--1"' in section


def test_every_rule_id_link_resolves(built: Path) -> None:
    """Every link to a `#rule-id` fragment lands on an element with that id on the target page."""
    ids = {}
    checked = 0
    for html in built.rglob("*.html"):
        text = html.read_text()
        for href in re.findall(r'href="([^"]*#(?:bg|nd|cn)\.[^"]+)"', text):
            page, fragment = href.split("#", 1)
            target = (html.parent / page / "index.html") if page else html
            target = target.resolve()
            if target not in ids:
                ids[target] = set(re.findall(r'id="([^"]+)"', target.read_text()))
            assert fragment in ids[target], f"{html.relative_to(built)}: {href} does not resolve"
            checked += 1
    assert checked > 1000


def test_every_rule_id_mentioned_anywhere_resolves(built: Path) -> None:
    """Every rule ID written anywhere in the site's text (prose, cases, derivations, commands) names a clause;
    one followed by `*` (a filter such as `nd.head.*`) is the prefix of one."""
    known, checked = set(clauses()), 0
    for html in built.rglob("*.html"):
        markup = re.sub(r"<(script|style)\b.*?</\1>", " ", html.read_text(), flags=re.S)
        text = unescape(re.sub(r"<[^>]+>", " ", markup))
        for match in RULE_REF.finditer(text):
            rule, checked = match["id"], checked + 1
            if text[match.end() : match.end() + 2] in (".*", "*"):
                assert any(k.startswith(rule + ".") for k in known), (
                    f"{html.relative_to(built)}: {rule}.* matches no rule"
                )
            else:
                assert rule in known, f"{html.relative_to(built)}: {rule} is no rule ID of the spec"
    assert checked > 3000


def test_prose_names_link_to_their_definitions(built: Path) -> None:
    """Ruleset and switch names and the conventions' terms in the spec's prose are links (the strict build's
    anchor validation makes each one resolve)."""
    narde = (built / "narde" / "index.html").read_text()
    for href in ("../rulesets/#narde-guide", "../switches/#six-block", "../conventions/#turn-context"):
        assert f'href="{href}"' in narde, href
    assert 'href="../conventions/#rulesets-and-switches"' in (built / "disagreements" / "index.html").read_text()
    assert code_target("narde-guide", after_ruleset=False) is None  # the source, not the ruleset
    assert code_target("narde-guide", after_ruleset=True) == "rulesets.md#narde-guide"
    assert code_target("crazy-narde", after_ruleset=False) == "rulesets.md#crazy-narde"
    assert code_target("six-block: banned-after-turn", False) == "switches.md#six-block"
    assert code_target("six-block: sideways", False) is None and code_target("none", False) is None
    assert code_target("four-moves", False) == "switches.md#doubles"


def test_every_case_has_a_drawn_board_and_every_clause_its_examples(built: Path) -> None:
    for case in suite():
        page = (built / f"cases-{case.game}-{case.path.stem}" / "index.html").read_text()
        at = page.index(f'id="{case.id}"')
        assert "boards/" in page[at : at + 2000], case.id
        index = (built / f"cases-{case.game}" / "index.html").read_text()  # listed, linked to its page
        assert f'href="../cases-{case.game}-{case.path.stem}/#{case.id}"' in index, case.id
    by_rule = cases_by_rule(suite())
    for rule, clause in clauses().items():
        if by_rule.get(rule):
            rules = (built / clause.path.stem / "index.html").read_text()
            assert f'id="{rule}--1"' in rules, rule  # the first example under the clause itself
            assert f'id="{rule}--{len(by_rule[rule])}"' in examples_of(built, rule), rule
            if len(by_rule[rule]) > 1:  # the others one link away, which forwards their old permalinks
                assert f'href="../examples-{rule}/" id="{rule}--all"' in rules, rule
    boards = list((built / "boards").glob("*.svg"))
    assert boards and all(b.stat().st_size > 1000 for b in boards)
    for html in built.rglob("*.html"):
        for name in set(re.findall(r"boards/([0-9a-f]+\.svg)", html.read_text())):
            assert (built / "boards" / name).exists(), f"{html}: missing board {name}"


def test_sizes_stay_in_bounds(built: Path) -> None:
    engine = built / "play" / "pyodide"
    sizes = [f.stat().st_size for f in built.rglob("*") if f.is_file() and engine not in f.parents]
    assert sum(sizes) < MAX_SITE, f"the site is {sum(sizes) / 1e6:.2f} MB"
    runtime = sum(f.stat().st_size for f in engine.rglob("*") if f.is_file())
    assert runtime < MAX_ENGINE, f"the playground's runtime is {runtime / 1e6:.2f} MB"
    for page in built.rglob("*.html"):
        text = page.read_text()
        assert page.stat().st_size <= MAX_PAGE, f"{page.relative_to(built)} is {page.stat().st_size / 1e3:.0f} KB"
        images = len(re.findall(r"<(?:img|svg)\b", text))
        assert images <= MAX_IMAGES, f"{page.relative_to(built)} has {images} images"


def test_rendering_bugs_stay_fixed(built: Path) -> None:
    text = "".join(p.read_text() for p in built.rglob("cases-*/index.html"))
    assert "=False" not in text and "=True" not in text and "next: False" not in text
    assert "a oin" not in text
    assert "fonts.googleapis" not in (built / "index.html").read_text()
    assert (
        "<urlset" in (built / "sitemap.xml").read_text()
    )  # its addresses need GAMMONSPEC_SITE_URL (test_site_results)
    narde = (built / "narde" / "index.html").read_text()
    assert re.search(r"<strong>Source:</strong>[^\n]*<br", narde)


def test_disagreement_table_and_switches_page(built: Path) -> None:
    page = (built / "disagreements" / "index.html").read_text()
    assert "<!-- disagreements" not in page
    assert "head-exception" in page and "first-turn-3-4-6" in page
    switches = (built / "switches" / "index.html").read_text()
    assert 'id="hitting"' in switches and "stated by" in switches
    # each cell links to its clause and to the list of the cases that pin its value in that game
    assert 'href="../narde/#nd.block.six"' in page
    cells = re.findall(r'href="\.\./switches/#([a-z-]+--[a-z0-9-]+--[a-z-]+)">(\d+) cases?</a>', page)
    assert len(cells) > 20
    for anchor, count in cells:
        switch, value, game = anchor.split("--")
        at = switches.index(f'id="{anchor}"')
        listed = switches[at : switches.index("</p>", at)].count('href="../cases-')
        pinned = [c for c in suite() if c.game == game and value in accepted(c.requires.get(switch, ()))]
        assert listed == int(count) == len(pinned), anchor


def test_changelog_names_the_package_version_and_the_home_page_links_it(built: Path) -> None:
    newest = re.search(r"^## (\S+)", (ROOT / "CHANGELOG.md").read_text(), re.M)
    assert newest and newest[1] == version("gammonspec"), "CHANGELOG.md has no entry for the package's version"
    assert f"suite version <strong>{version('gammonspec')}</strong>" in (built / "changelog" / "index.html").read_text()
    assert 'href="changelog/"' in (built / "index.html").read_text()


def test_results_page_and_badges(built: Path) -> None:
    page = (built / "results" / "index.html").read_text()
    assert "gammonspec-reference" in page and re.search(r"\d+ ✓ · \d+ ✗<br>\d+ skipped", page)
    badge = (built / "badges" / "gammonspec-reference.json").read_text()
    assert '"schemaVersion": 1' in badge and "passed" in badge
    image = (built / "badges" / "gammonspec-reference.svg").read_text()
    assert image.startswith("<svg") and "passed" in image and 'src="../badges/gammonspec-reference.svg"' in page
    # a backgammon-only engine under a Narde ruleset: not declared, never "0 ✓ · 0 ✗"
    assert "not declared" in page and not re.search(r"(?<!\d)0 ✓ · 0 ✗", page)
    assert "Failures unique to one engine" in page
    # each failing case once, on the page of failures by rule: under its first rule only
    bgsage = json.loads((ROOT / "site" / "results" / "bgsage.json").read_text())
    failed = [r for r in bgsage["results"] if r["status"] in ("failed", "errored")]
    by_rule = (built / "results-by-rule" / "index.html").read_text()
    assert 'href="../results-by-rule/"' in page
    listed = re.findall(r"bgsage, <code>([^<]+)</code>: <a href=\"[^\"]*#([^\"]+)\"", by_rule)
    assert len(listed) == len(failed) == len(set(listed))


def test_same_position_page_shows_each_switch_under_every_ruleset(built: Path) -> None:
    """For each switch, each game whose rulesets differ on it has its section (the matrix links there): the position
    drawn, every ruleset's answer beside the others, and whether the cases differ on that switch alone."""
    from gammonspec.conformance.tools.contested import coupled, game_rulesets
    from gammonspec.model.rulesets import registry

    page = (built / "same-position" / "index.html").read_text()
    alone = 0
    for game in ("backgammon", "narde", "crazy-narde"):
        found = contests([case for case in suite() if case.game == game])
        for name in registry()["switches"]:
            if len({rs.switches[name] for rs in game_rulesets(game)}) < 2:
                assert f'id="{name}--{game}"' not in page, (name, game)
                continue
            at = page.index(f'id="{name}--{game}"')
            ends = (page.find("<h3", at + 1), page.find("<h2", at + 1), page.find("</article>", at))
            section = page[at : min(i for i in ends if i != -1)]
            contest = found[name]
            if contest is None:
                contest = coupled([case for case in suite() if case.game == game], name)
                assert contest and "No position of the suite differs on" in section, (name, game)
            elif not contest.also:
                assert f"differ on <code>{name}</code> alone" in section, (name, game)
                alone += 1
            columns = section.split('<div class="rulesets">', 1)[1]
            for rs, case in contest.shown.items():
                assert f'href="../rulesets/#{rs}"' in columns, (name, rs)
                if case:
                    assert f"#{case.id}" in columns and "Derivation:" in columns, (name, rs)
            assert "boards/" in section.split('<div class="rulesets">', 1)[0], name  # the position, drawn
            if all(case and any(s.expected.get("plays") for s in case.steps) for case in contest.shown.values()):
                assert columns.count("boards/") >= 2, name  # each ruleset's plays drawn too
    assert alone >= 12, alone  # the opening, the next game's opener and the rest: one switch apart


def _boards(html: str, built: Path) -> list[str]:
    """The SVG text of each board an HTML fragment draws."""
    return [
        (built / "boards" / name).read_text() for name in re.findall(r'src="(?:\.\./)*boards/([0-9a-f]+\.svg)"', html)
    ]


def test_no_board_of_a_cube_less_ruleset_draws_a_cube(built: Path) -> None:
    """Every board of a case that runs only under rulesets without a cube (Narde, gul-bara) shows none, on the rules
    pages and the case pages; a case that runs only under rulesets with a cube shows one (the check can fail)."""
    cube_of = {}
    for case in suite():
        under = {rs.switches["cube"] for rs in rulesets().values() if rs.admits(case.requires, case.options)}
        if len(under) == 1:
            cube_of[case.id] = under == {"doubling"}
    drawn: list[tuple[str, str]] = []  # (case id, the HTML of its example or case entry)
    for game in ("backgammon", "narde", "crazy-narde"):
        for page in example_pages(built, game):
            for block in re.findall(r'<details class="example".*?</details>', page.read_text(), re.S):
                drawn.append((re.search(r'cases-[a-z-]+/#([^"]+)"', block)[1], block))
        for page in built.glob(f"cases-{game}-*/index.html"):
            found = re.findall(r'(<h2 id="([^"]+)".*?)(?=<h2 |</article>)', page.read_text(), re.S)
            drawn += [(m[1], m[0]) for m in found]
    seen = {True: 0, False: 0}
    for case_id, html in drawn:
        if case_id in cube_of:
            boards = _boards(html, built)
            assert boards and all(('class="cube"' in b) == cube_of[case_id] for b in boards), case_id
            seen[cube_of[case_id]] += len(boards)
    assert seen[True] > 50 and seen[False] > 500, seen


def test_every_case_id_is_in_the_search_index_in_its_cases_title(built: Path) -> None:
    """The case pages are searched and each case's section has its ID in its title, which the search weighs most:
    every word of a pasted ID (the search splits at hyphens) is in that title."""
    index = json.loads((built / "search" / "search_index.json").read_text())
    split = re.compile(index["config"]["separator"])
    docs = {doc["location"]: doc for doc in index["docs"]}
    for case in suite():
        title = unescape(re.sub(r"<[^>]+>", " ", docs[f"cases-{case.game}-{case.path.stem}/#{case.id}"]["title"]))
        assert case.id in title and set(split.split(case.id)) <= set(split.split(title)), (case.id, title)


def test_each_clause_shows_its_most_direct_examples_first(built: Path) -> None:
    """Under each clause, the cases about that clause (it is first in their `rules`) come before those that merely
    cite it, and fewer rules before more: the head rule opens with a head case, the chain with a chain case."""
    by_rule = cases_by_rule(suite())
    by_id = {case.id: case for case in suite()}
    listed = re.compile(r'href="\.\./cases-[a-z-]+/#([^"]+)">case <code>')
    for game in ("backgammon", "narde", "crazy-narde"):
        page = (built / game / "index.html").read_text()
        for rule, clause in clauses().items():
            if clause.path.stem != game or not by_rule.get(rule):
                continue
            at = page.index(f'id="{rule}"')
            under = [by_id[i] for i in listed.findall(page[at : page.find("<h3", at + 1)])]
            assert under == by_rule[rule][:1], rule  # the most direct example under the clause
            shown = [by_id[i] for i in listed.findall(examples_of(built, rule).split("<article", 1)[1])]
            assert shown == by_rule[rule], rule  # the examples page shows the order cases_by_rule gives
            ranks = [(c.game != game, c.rule_ids.index(rule), len(c.rule_ids)) for c in shown]
            assert shown[0].game == game, rule  # a clause's examples open on its own game's board
            assert ranks == sorted(ranks), rule
            if any(c.rule_ids[0] == rule and c.game == game for c in shown):
                assert shown[0].rule_ids[0] == rule, rule
    for rule in ("nd.head.one-per-turn", "cn.head.one-per-turn"):
        first = by_rule[rule][0]
        assert first.rule_ids[0] == rule and "head" in first.path.stem, (rule, first.id)
    first = by_rule["cn.doubles.chain"][0]
    assert first.rule_ids[0] == "cn.doubles.chain" and first.path.stem == "chains", first.id


def test_scenario_steps_read_once_and_keep_one_numbering(built: Path) -> None:
    """A scenario's steps: no doubled labels, a board drawn again only when it changed, and every board numbered
    from the side that starts the scenario, even when the turn passes (issue 30's cube scenarios)."""
    from gammonspec.model.state import mirror

    text = "".join(p.read_text() for g in ("backgammon", "narde", "crazy-narde") for p in example_pages(built, g))
    for doubled in ("double?: may double", "result: result:", "the game's result: result", " 1 points"):
        assert doubled not in text, doubled
    assert "may white double? <strong>yes</strong>" in text and "white doubles, black takes" in text
    by_id = {case.id: case for case in suite()}
    checked = 0
    for block in re.findall(r'<details class="example".*?</details>', text, re.S):
        case = by_id[re.search(r'cases-[a-z-]+/#([^"]+)"', block)[1]]
        if case.query != "scenario":
            continue
        boards = _boards(block, built)  # the case's board, then the steps'
        assert all(a != b for a, b in zip(boards, boards[1:])), case.id  # consecutive boards differ
        view = case.steps[0].state.turn
        first = "1" if view == "white" else str(mirror(case.game, 1))  # the label of white's point 1
        for svg in boards:
            assert re.search(r'<g class="l"><text(?: class="h")? x="[\d.]+" y="\d+">(\d+)<', svg)[1] == first, case.id
        checked += len(boards)
    assert checked > 100, checked


def test_after_boards_are_full_size_captioned_after_the_play_and_mark_the_moves(built: Path) -> None:
    """Each board drawn after a listed play is as wide as the board before it, says "after the play" (no side on
    roll, no dice) and marks what moved: a ring on an arrived checker or an outlined slice borne off (issue 30)."""
    figures = []
    for game in ("backgammon", "narde", "crazy-narde"):
        for page in example_pages(built, game):
            figures += re.findall(r'<div class="after"[^>]*>(.*?)</div>', page.read_text(), re.S)
    boards = 0
    for figure in figures:
        for img, caption in re.findall(
            r"<figure[^>]*>\s*(?:<p>)?(<img[^>]+>).*?<figcaption>(.*?)</figcaption>", figure, re.S
        ):
            assert 'width="380"' in img and caption.startswith("after the play "), (img, caption)
            drawn = (built / "boards" / re.search(r'boards/([0-9a-f]+\.svg)"', img)[1]).read_text()
            assert ">after the play</text>" in drawn and " on roll</text>" not in drawn, img
            assert ('class="m"' in drawn) == (caption != "after the play (no move)"), img
            boards += 1
    assert boards > 300, boards


def test_every_stated_mark_names_the_sources_words_in_its_clause(built: Path) -> None:
    """Issue 48: a ● in the matrix says where the source states the value (the place its clause's Source line gives)
    and what the words say, paraphrased (no run of six words of the source text, where the texts are at hand:
    GAMMONSPEC_SOURCES); a reading the texts argue, not
    state (the head exception on each side's first turn, the six-block judged after the whole play), is ○."""
    from gammonspec.model.rulesets import registry

    sources = {p.stem: " ".join(re.findall(r"[a-z0-9-]+", p.read_text().lower())) for p in SOURCES.glob("*.txt")}
    page = (built / "disagreements" / "index.html").read_text()
    marks = [
        (k, unescape(n)) for k, n in re.findall(r'<span class="mark (stated|decided)"[^>]*data-note="([^"]*)"', page)
    ]
    stated = [note for kind, note in marks if kind == "stated"]
    switches = registry()["switches"]
    want = sum(
        rs.source in spec["sources"].get(rs.switches[name], [])
        for name, spec in switches.items()
        if len({r.switches[name] for r in rulesets().values()}) > 1
        for rs in rulesets().values()
    )
    assert len(stated) == want > 30, (len(stated), want)
    for note in stated:
        m = re.fullmatch(
            r"stated by (?P<src>[a-z-]+)(?:, (?P<place>.+?))? \(§ (?P<rule>[a-z0-9.-]+)\): (?P<words>.+)", note
        )
        assert m, note
        cited = dict(clauses()[m["rule"]].cites)
        assert m["src"] in cited and (m["place"] or "") == cited[m["src"]], (note, cited)
        words = re.findall(r"[a-z0-9-]+", m["words"].lower())
        assert len(words) >= 4, note
        text = sources.get(m["src"], "")
        copied = [" ".join(words[i : i + 6]) for i in range(len(words) - 5) if " ".join(words[i : i + 6]) in text]
        assert not copied, (note, copied)
    decided = [note for kind, note in marks if kind == "decided"]
    for source, rule in (("narde-guide", "nd.head.first-turn"), ("vog-crazy-narde", "cn.head.first-turn")):
        assert any(n.startswith(f"decided by us for {source}: ") and f"§ {rule}" in n for n in decided), source
    assert sum(n.startswith("decided by us for narde-") and "§ nd.block.six" in n for n in decided) == 2


def test_every_board_image_has_its_size_and_every_page_its_own_title(built: Path) -> None:
    """Issue 48: a board without a height moves a linked heading as it loads, so every board image gives width and
    height in the board's proportions; no two pages share a title (tabs and bookmarks tell them apart); a case's
    page draws the plays it expects full size, as the examples do."""
    titles: dict[str, str] = {}
    boards = 0
    for html in built.rglob("index.html"):
        text = html.read_text()
        for img in re.findall(r'<img [^>]*src="[^"]*boards/[^"]+"[^>]*>', text):
            w, h = re.search(r'width="(\d+)"', img), re.search(r'height="(\d+)"', img)
            assert w and h and abs(int(h[1]) / int(w[1]) - 262 / 378) < 0.01, (html.relative_to(built), img)
            boards += 1
        title = re.search(r"<title>([^<]*)</title>", text)[1]
        assert title not in titles, (title, titles.get(title), html.relative_to(built))
        titles[title] = str(html.relative_to(built))
    assert boards > 2000, boards
    assert titles["How to play Narde - gammonspec"] == "play-narde/index.html"
    page = (built / "cases-narde-six-block" / "index.html").read_text()
    at = page.index('id="nd-block-black-home-checker-just-behind"')
    case = page[at : page.find("<h2", at + 1)]
    assert re.search(r'<img [^>]*width="380"', case) and "after the play" in case and "Derivation:" in case
