"""The SVG board: valid XML, every checker drawn where the state puts it, counts, trays, cube, dice, pips."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from gammonspec.conformance.harness.cases import suite
from gammonspec.conformance.tools.diagram import VISIBLE, heads, pips, svg
from gammonspec.model.state import Cube, Layout, State, start_layout

NS = "{http://www.w3.org/2000/svg}"


def parse(state: State) -> ET.Element:
    return ET.fromstring(svg(state, "a title"))


def checkers(root: ET.Element, side: str) -> list[ET.Element]:
    return [c for c in root.iter(f"{NS}circle") if c.get("class") == {"white": "w", "black": "k"}[side]]


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{NS}text")]


def test_start_of_backgammon_draws_every_checker_and_pips() -> None:
    root = parse(State(start_layout("backgammon"), "white", (6, 5)))
    assert root.find(f"{NS}title").text == "a title"
    desc = root.find(f"{NS}desc").text
    assert "White on roll to play 6-5" in desc and "2 on 24" in desc
    assert len(checkers(root, "white")) == 15 and len(checkers(root, "black")) == 15
    assert "pips: white 167 · black 167" in texts(root)
    assert {"6", "5"} <= set(texts(root)) and "64" in texts(root)  # dice and the centred cube


def test_stack_past_five_carries_its_count_and_narde_heads_are_marked() -> None:
    state = State(start_layout("narde"), "black", (3, 1))
    root = parse(state)
    assert len(checkers(root, "white")) == VISIBLE and "15" in texts(root)
    assert heads("narde") == {"white": 24, "black": 24} and heads("backgammon") == {}
    assert len([p for p in root.iter(f"{NS}path") if p.get("class") == "head"]) == 2
    labels = [t.text for g in root.iter(f"{NS}g") if g.get("class") == "l" for t in g]
    assert labels[:2] == ["13", "14"]  # black on roll: white's 1 and 2 (bottom right) are black's 13 and 14


def test_bar_off_and_cube_owner() -> None:
    white = [0] * 24
    white[0] = 10
    black = [0] * 24
    black[5] = 3
    layout = Layout("backgammon", tuple(white), tuple(black), bar=(1, 2), off=(4, 10))
    root = parse(State(layout, "black", (2, 2), cube=Cube(4, "black")))
    slices = [p.get("d").count("v5") for p in root.iter(f"{NS}path") if p.get("class") in ("tw", "tk")]
    assert sorted(slices) == [4, 10] and {"4", "10"} <= set(texts(root))
    assert len(checkers(root, "black")) == 5  # three on a point, two on the bar
    assert "Cube 4, owned by black." in root.find(f"{NS}desc").text
    assert pips(State(layout, "black"), "black") == 3 * 6 + 2 * 25


@pytest.mark.parametrize("game", ["backgammon", "narde", "crazy-narde"])
def test_every_case_of_the_game_draws(game: str) -> None:
    for case in suite():
        if case.game == game:
            root = parse(case.state)
            drawn = sum(min(n, VISIBLE) for n in (*case.state.layout.white, *case.state.layout.black))
            drawn += sum(min(n, VISIBLE) for n in case.state.layout.bar)
            assert len(checkers(root, "white")) + len(checkers(root, "black")) == drawn, case.id


def test_an_after_board_marks_what_the_play_moved_and_shows_no_dice() -> None:
    """White's opening 3-1 as 8/5 6/5, by hand: two rings on the two checkers now on its 5, a dashed ring where
    each left its 8 and 6; under the board "after the play", no dice; a hit checker's place and the bar marked."""
    start = start_layout("backgammon")
    white = list(start.white)
    white[7], white[5], white[4] = 2, 4, 2
    after = State(start._replace(white=tuple(white)), "white", (3, 1))
    root = ET.fromstring(svg(after, "after 8/5 6/5", cube=False, before=start))
    rings = [(c.get("cx"), c.get("cy")) for c in root.iter(f"{NS}circle") if c.get("class") == "m"]
    left = [(c.get("cx"), c.get("cy")) for c in root.iter(f"{NS}circle") if c.get("class") == "g"]
    assert len(rings) == 2 and len({x for x, _ in rings}) == 1  # both on one point: white's 5
    assert len(left) == 2 and len({x for x, _ in left}) == 2  # one on the 8, one on the 6
    assert "after the play" in texts(root) and not [r for r in root.iter(f"{NS}rect") if r.get("class") == "d"]
    assert root.find(f"{NS}desc").text.startswith("After white's play.")
    plain = ET.fromstring(svg(after, "no before", cube=False))
    assert not [c for c in plain.iter(f"{NS}circle") if c.get("class") in ("m", "g")]
    assert "white on roll" in texts(plain) and len([r for r in plain.iter(f"{NS}rect") if r.get("class") == "d"]) == 2
    # a hit: black's blot on white's 20 (its own 5) hit from white's 24 with a 4
    black = [0] * 24
    black[4] = 1
    before = Layout("backgammon", (0,) * 23 + (1,), tuple(black), off=(14, 14))
    hit = Layout("backgammon", (0,) * 19 + (1,) + (0,) * 4, (0,) * 24, bar=(0, 1), off=(14, 14))
    root = ET.fromstring(svg(State(hit, "white", (4,)), "24/20*", before=before))
    assert len([c for c in root.iter(f"{NS}circle") if c.get("class") == "m"]) == 2  # on 20 and on the bar
    assert len([c for c in root.iter(f"{NS}circle") if c.get("class") == "g"]) == 2  # white's 24, black's blot


def test_a_change_within_a_stacks_count_marks_the_checker_carrying_it() -> None:
    """Narde: a checker off the head (15 to 14) is marked on the checker that carries the count."""
    start = start_layout("narde")
    white = list(start.white)
    white[23], white[17] = 14, 1  # 24/18 with a 6
    root = ET.fromstring(svg(State(start._replace(white=tuple(white)), "white", (6, 5)), "24/18", False, before=start))
    assert len([c for c in root.iter(f"{NS}circle") if c.get("class") == "g"]) == 1
    assert len([c for c in root.iter(f"{NS}circle") if c.get("class") == "m"]) == 1 and "14" in texts(root)
