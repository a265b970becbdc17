"""The site's way in for players: a legend of the boards one click from every board, and a "how to play" page
first in each game's navigation, its start drawn and each rule linked to its clause."""

from __future__ import annotations

import re
from pathlib import Path

from gammonspec.model.clauses import clauses
from gammonspec.model.state import GAMES

from tests.test_site import ROOT

START_PIPS = {"backgammon": 2 * 24 + 5 * 13 + 3 * 8 + 5 * 6, "narde": 15 * 24, "crazy-narde": 15 * 24}  # by hand
BOARD = re.compile(r'src="(?:\.\./)*boards/[0-9a-f]+\.svg"')


def test_every_page_that_draws_boards_links_the_legend(built: Path) -> None:  # noqa: F811
    legend = (built / "legend" / "index.html").read_text()
    assert legend.count('src="../boards/legend-') == 3
    for item in ("Arrows", "A number on a checker", "The cube", "The head", "underlined", "green ring", "dashed ring"):
        assert item in legend, item
    drawing = [p for p in built.rglob("index.html") if BOARD.search(p.read_text())]
    assert len(drawing) >= 10
    for page in drawing:
        text = page.read_text()
        key = text.find('class="legend-key"')
        assert key != -1, f"{page.relative_to(built)}: no board key"
        assert re.search(r'href="(?:\.\./)*legend/"', text[key : key + 1500]), page.relative_to(built)
        assert key < BOARD.search(text).start(), f"{page.relative_to(built)}: the key comes after a board"


def test_each_game_opens_with_how_to_play(built: Path) -> None:  # noqa: F811
    home = (built / "index.html").read_text()
    nav = home[home.index('class="md-nav md-nav--primary"') :]
    for game in GAMES:
        order = [nav.index(f'href="{target}/"') for target in (f"play-{game}", game, f"cases-{game}")]
        assert order == sorted(order) and order[2] - order[0] < 1500, game  # how to play, rulebook, cases
        page = (built / f"play-{game}" / "index.html").read_text()
        drawn = re.findall(r'src="\.\./(boards/[0-9a-f]+\.svg)"', page)
        pips = START_PIPS[game]
        assert drawn and f"pips: white {pips} · black {pips}" in (built / drawn[0]).read_text(), game  # the start
        linked = set(re.findall(rf'href="\.\./{game}/#((?:bg|nd|cn)\.[a-z0-9.-]+)"', page))
        named = set(re.findall(rf'href="\.\./{game}/#((?:bg|nd|cn)\.[a-z0-9.-]+)">\1</a>', page))
        quiet = set(re.findall(rf'<a class="rule-ref" href="\.\./{game}/#((?:bg|nd|cn)\.[a-z0-9.-]+)"', page))
        assert quiet == named, (game, named - quiet)  # every rule ID's link kept, set quieter
        assert len(linked) >= 15 and linked <= set(clauses()), (game, len(linked))
        for topic in ("start", "move", "object", "turn", "bear"):
            assert topic in page.lower(), (game, topic)


def test_how_to_play_pages_are_paraphrase_not_the_clauses_copied() -> None:
    """No run of eight words of a play page is in the spec's clause text (the clauses paraphrase the sources)."""
    spec = " ".join(re.findall(r"[a-z0-9-]+", " ".join(p.read_text().lower() for p in (ROOT / "spec").glob("*.md"))))
    for game in GAMES:
        words = re.findall(
            r"[a-z0-9-]+", re.sub(r"\([^)]*\)", " ", (ROOT / "site" / "play" / f"{game}.md").read_text().lower())
        )
        runs = [" ".join(words[i : i + 8]) for i in range(len(words) - 7)]
        copied = [run for run in runs if run in spec]
        assert not copied, (game, copied[:3])


def test_how_to_play_narde_draws_each_rule_a_newcomer_gets_wrong(built: Path) -> None:  # noqa: F811
    """Issue 48: the head rule and its first-turn exception, a lone checker holding a point, the six-block with and
    without a checker ahead, bear-off, oin, mars and coke each get a case drawn (its board and its answer), and the
    page names the ruleset to follow when the reader has no reason to choose."""
    page = (built / "play-narde" / "index.html").read_text()
    for case_id in (
        "nd-head-later-turn-66-one-checker",
        "nd-head-guide-second-player-33-two",
        "nd-move-lone-checkers-close-points",
        "nd-block-home-last-step-forbidden",
        "nd-block-home-last-step-checker-ahead",
        "nd-bearoff-higher-guide-illustration",
        "nd-result-oin-loser-one-off",
        "nd-result-mars-loser-spread",
        "nd-result-coke-guide-black-wins",
    ):
        at = page.index(f"#{case_id}")
        block = page[page.rindex('<div class="lesson">', 0, at) : page.index("</div>", at)]
        assert BOARD.search(block), case_id
    assert len(BOARD.findall(page)) >= 15  # the start, each case's board and the boards after its plays
    assert "With no reason to choose, play ruleset" in page and 'href="../rulesets/#narde-guide"' in page


def test_home_page_opens_the_games_on_how_to_play(built: Path) -> None:  # noqa: F811
    """The home page's first link to each game is its "how to play" page, not its rulebook."""
    home = (built / "index.html").read_text()
    article = home[home.index("<article") :]
    for game, title in (("backgammon", "Backgammon"), ("narde", "Narde"), ("crazy-narde", "Crazy Narde")):
        first = re.search(rf'href="((?:play-)?{game}/)"', article)
        assert first and first[1] == f"play-{game}/", (game, first and first[1])
        assert f'href="play-{game}/">{title}</a>' in article, game
