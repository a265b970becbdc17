"""The state model: validation, geometry and the wire format."""

from __future__ import annotations

import random

import pytest
from conftest import layout
from gammonspec.model.state import (
    CHECKERS,
    GAMES,
    HEAD,
    SIDES,
    Cube,
    Layout,
    Match,
    Segment,
    State,
    StateError,
    TurnContext,
    mirror,
    other,
    start_layout,
)


def random_layout(rng: random.Random, game: str) -> Layout:
    """A valid layout: each side's checkers spread over points the other side does not hold."""
    white = [0] * 24
    black = [0] * 24
    bar, off = [0, 0], [0, 0]
    for i, (mine, theirs) in enumerate(((white, black), (black, white))):
        for _ in range(CHECKERS):
            where = rng.random()
            if where < 0.1 and game == "backgammon":  # Narde: off only once all are home
                off[i] += 1
            elif where < 0.15 and game == "backgammon":
                bar[i] += 1
            else:
                free = [p for p in range(1, 25) if not theirs[mirror(game, p) - 1]]
                mine[rng.choice(free) - 1] += 1
    result = Layout(game, tuple(white), tuple(black), tuple(bar), tuple(off))
    result.validate()
    return result


# --- geometry ------------------------------------------------------------------------------------


def test_other():
    assert other("white") == "black" and other("black") == "white"


@pytest.mark.parametrize("point, expected", [(1, 24), (6, 19), (12, 13), (13, 12), (24, 1)])
def test_backgammon_mirror(point, expected):
    assert mirror("backgammon", point) == expected


@pytest.mark.parametrize("game", ["narde", "crazy-narde"])
@pytest.mark.parametrize("point, expected", [(1, 13), (12, 24), (13, 1), (24, 12), (18, 6)])
def test_narde_mirror(game, point, expected):
    assert mirror(game, point) == expected


@pytest.mark.parametrize("game", GAMES)
def test_mirror_is_an_involution_and_a_bijection(game):
    images = [mirror(game, p) for p in range(1, 25)]
    assert sorted(images) == list(range(1, 25))
    assert all(mirror(game, mirror(game, p)) == p for p in range(1, 25))


def test_narde_heads_are_diagonally_opposite():
    # each side's head (its 24) is the other's 12: the two heads are different points
    assert mirror("narde", HEAD) == 12
    assert mirror("backgammon", 24) == 1


# --- start positions -----------------------------------------------------------------------------


def test_backgammon_start():
    start = start_layout("backgammon")
    start.validate()
    for side in SIDES:
        pts = start.points(side)
        assert {p: n for p, n in enumerate(pts, 1) if n} == {24: 2, 13: 5, 8: 3, 6: 5}
        assert start.on_bar(side) == 0 and start.borne_off(side) == 0


@pytest.mark.parametrize("game", ["narde", "crazy-narde"])
def test_narde_start(game):
    start = start_layout(game)
    start.validate()
    for side in SIDES:
        assert start.points(side)[HEAD - 1] == CHECKERS
        assert sum(start.points(side)) == CHECKERS


# --- validation ----------------------------------------------------------------------------------


def test_valid_layout_passes():
    layout("backgammon", {24: 2, 13: 5, "bar": 1, "off": 7}, {6: 15}).validate()


@pytest.mark.parametrize(
    "white, message",
    [
        ({13: 14, "off": 0}, "white has 14 checkers"),
        ({13: 15, 8: 1, "off": 0}, "white has 16 checkers"),
        ({13: 10, "bar": 2, "off": 4}, "white has 16 checkers"),
    ],
)
def test_not_fifteen_checkers(white, message):
    with pytest.raises(StateError, match=message):
        layout("backgammon", white, {6: 15}).validate()


def test_fifteen_checkers_message_gives_the_breakdown():
    with pytest.raises(StateError) as err:
        layout("backgammon", {13: 10, "bar": 2, "off": 4}, {6: 15}).validate()
    assert "board 10" in str(err.value) and "bar 2" in str(err.value) and "off 4" in str(err.value)


@pytest.mark.parametrize(
    "white",
    [
        {13: 16, 8: -1, "off": 0},
        {13: 16, "bar": -1, "off": 0},
        {13: 16, "off": -1},
    ],
)
def test_negative_counts(white):
    with pytest.raises(StateError, match="white has a negative checker count"):
        layout("backgammon", white, {6: 15}).validate()


def test_negative_count_on_black():
    with pytest.raises(StateError, match="black has a negative checker count"):
        layout("backgammon", {6: 15}, {13: 16, 1: -1, "off": 0}).validate()


@pytest.mark.parametrize("point", [1, 7, 12, 13, 19, 24])
def test_backgammon_both_sides_on_one_point(point):
    # white's p is black's 25 - p
    bad = layout("backgammon", {point: 1, "off": 14}, {25 - point: 1, "off": 14})
    with pytest.raises(
        StateError, match=f"white's point {point} \\(black's {25 - point}\\) holds checkers of both sides"
    ):
        bad.validate()


@pytest.mark.parametrize("game", ["narde", "crazy-narde"])
@pytest.mark.parametrize("point", [1, 6, 12, 13, 20, 24])
def test_narde_both_sides_on_one_point(game, point):
    theirs = point - 12 if point > 12 else point + 12
    bad = layout(game, {point: 1, "off": 14}, {theirs: 1, "off": 14})
    with pytest.raises(StateError, match=f"white's point {point} \\(black's {theirs}\\) holds checkers of both sides"):
        bad.validate()


def test_same_number_is_not_the_same_point():
    # backgammon: white 13 and black 13 are different points (black's 13 is white's 12)
    layout("backgammon", {13: 15}, {13: 15}).validate()
    # narde: both heads are numbered 24 and are different points; white 13 / black 13 too
    layout("narde", {24: 14, 13: 1}, {24: 14, 13: 1}).validate()
    # but the backgammon layout that is fine is impossible with narde geometry and vice versa
    with pytest.raises(StateError):
        layout("narde", {24: 15}, {12: 15}).validate()
    layout("backgammon", {24: 15}, {12: 15}).validate()
    with pytest.raises(StateError):
        layout("backgammon", {24: 15}, {1: 15}).validate()
    layout("narde", {24: 15}, {1: 15}).validate()


@pytest.mark.parametrize("game", ["narde", "crazy-narde"])
def test_bar_checkers_in_narde(game):
    with pytest.raises(StateError, match=f"white has checkers on the bar, but {game} has no hitting"):
        layout(game, {24: 14, "bar": 1}, {24: 15}).validate()
    with pytest.raises(StateError, match="black has checkers on the bar"):
        layout(game, {24: 15}, {24: 13, "bar": 2}).validate()


def test_bar_checkers_allowed_in_backgammon():
    layout("backgammon", {24: 14, "bar": 1}, {24: 13, "bar": 2}).validate()


def test_unknown_game_and_wrong_point_count():
    with pytest.raises(StateError, match="unknown game 'chess'"):
        Layout("chess", start_layout("narde").white, start_layout("narde").black).validate()
    start = start_layout("backgammon")
    with pytest.raises(StateError, match="white has 23 points, expected 24"):
        Layout("backgammon", start.white[:23], start.black).validate()


# --- keys and the wire ---------------------------------------------------------------------------


def test_key_is_canonical():
    a = layout("backgammon", {13: 15}, {24: 15})
    b = layout("backgammon", {13: 15}, {24: 15})
    c = layout("backgammon", {13: 14, 12: 1}, {24: 15})
    d = layout("backgammon", {13: 14, "bar": 1}, {24: 15})
    assert a.key() == b.key()
    assert len({a.key(), c.key(), d.key()}) == 3


@pytest.mark.parametrize("game", GAMES)
def test_layout_wire_round_trip(game):
    rng = random.Random(game)
    for _ in range(200):
        lay = random_layout(rng, game)
        wire = lay.to_wire()
        assert set(wire) == {"white", "black", "bar", "off"}
        assert len(wire["white"]) == 24 and set(wire["bar"]) == {"white", "black"}
        back = Layout.from_wire(game, wire)
        assert back == lay and back.key() == lay.key()


def test_layout_wire_format():
    lay = layout("backgammon", {6: 14, "bar": 1}, {1: 2, "off": 13})
    wire = lay.to_wire()
    assert wire["white"][5] == 14 and wire["black"][0] == 2
    assert wire["bar"] == {"white": 1, "black": 0}
    assert wire["off"] == {"white": 0, "black": 13}


def test_layout_from_wire_defaults_bar_and_off_to_zero():
    start = start_layout("backgammon")
    assert Layout.from_wire("backgammon", {"white": list(start.white), "black": list(start.black)}) == start


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda w: w.pop("white"), "malformed position"),
        (lambda w: w.__setitem__("black", None), "malformed position"),
        (lambda w: w.__setitem__("bar", None), "malformed position"),
        (lambda w: w["white"].__setitem__(0, "x"), "malformed position"),
        (lambda w: w["white"].__setitem__(0, 1), "white has 16 checkers"),
        (lambda w: w["bar"].__setitem__("black", 1), "black has 16 checkers"),
        (lambda w: w["black"].__setitem__(0, 2) or w["black"].__setitem__(23, 0), "holds checkers of both sides"),
        (lambda w: w["white"].pop(), "white has 23 points"),
    ],
)
def test_layout_from_wire_rejects(change, message):
    wire = start_layout("backgammon").to_wire()
    change(wire)
    with pytest.raises(StateError, match=message):
        Layout.from_wire("backgammon", wire)


def test_layout_from_wire_rejects_unknown_game():
    with pytest.raises(StateError, match="unknown game"):
        Layout.from_wire("chess", start_layout("narde").to_wire())


@pytest.mark.parametrize("game", GAMES)
def test_state_wire_round_trip(game):
    rng = random.Random(1 + GAMES.index(game))
    for _ in range(100):
        owner = rng.choice(SIDES)
        value, score = rng.choice((1, 2, 4, 64)), (rng.randint(0, 6), rng.randint(0, 6))
        cube = Cube(value, None if value == 1 else rng.choice((None, "white", "black")))  # a cube at 1 has no owner
        state = State(
            random_layout(rng, game),
            rng.choice(SIDES),
            (rng.randint(1, 6), rng.randint(1, 6)),
            TurnContext(rng.random() < 0.5, rng.randint(0, 9), rng.randint(0, 2)),
            cube,
            rng.choice((None, Segment(owner, (rng.randint(1, 6),) * rng.randint(1, 4), rng.random() < 0.5))),
            rng.choice((Match(), Match(7, score, score.count(6) == 1 and rng.random() < 0.5))),
        )
        wire = state.to_wire()
        assert wire["game"] == game and wire["turn"] == state.turn and wire["dice"] == list(state.dice)
        assert State.from_wire(wire) == state


def test_state_wire_is_json_shaped():
    import json

    state = State(
        start_layout("narde"),
        "black",
        (3, 3),
        TurnContext(True, 0, 1),
        Cube(2, "white"),
        Segment("white", (4, 4), True),
        Match(5, (1, 4), True),
    )
    assert State.from_wire(json.loads(json.dumps(state.to_wire()))) == state


def test_turn_context_defaults():
    assert TurnContext.from_wire(None) == TurnContext()
    assert TurnContext.from_wire({"head_moves": 1}) == TurnContext(head_moves=1)


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda w: w.pop("game"), "missing"),
        (lambda w: w.pop("turn"), "missing"),
        (lambda w: w.__setitem__("turn", "red"), "turn must be white or black"),
        (lambda w: w.__setitem__("dice", [7, 1]), "dice must be 1-6"),
        (lambda w: w.__setitem__("dice", [0, 1]), "dice must be 1-6"),
        (lambda w: w.__setitem__("game", "chess"), "unknown game"),
        (lambda w: w["position"]["white"].__setitem__(23, 3), "white has 16 checkers"),
        (lambda w: w.__setitem__("cube", {"value": 3, "owner": None}), "impossible cube"),
        (lambda w: w.__setitem__("cube", {"value": 2, "owner": "red"}), "impossible cube"),
        (lambda w: w.__setitem__("cube", 2), "malformed cube"),
        (lambda w: w.__setitem__("match", {"length": 5, "score": {"white": 5, "black": 0}}), "impossible match"),
        (lambda w: w.__setitem__("cube", {"value": 1, "owner": "white"}), "a cube at 1 was never turned"),
        (lambda w: w.__setitem__("match", {"length": 0, "crawford": True}), "money play .length 0. has none"),
        (
            lambda w: w.__setitem__("match", {"length": 5, "score": {"white": 3, "black": 2}, "crawford": True}),
            "exactly one side is one point from winning",
        ),
        (
            lambda w: w.__setitem__("match", {"length": 5, "score": {"white": 4, "black": 4}, "crawford": True}),
            "exactly one side is one point from winning",
        ),
        (
            lambda w: w["position"].__setitem__("off", {"white": 15, "black": 15})
            or w["position"].__setitem__("white", [0] * 24)
            or w["position"].__setitem__("black", [0] * 24),
            "both sides have borne off all 15",
        ),
        (lambda w: w.__setitem__("segment", {"owner": "white", "numbers": []}), "malformed segment"),
        (lambda w: w.__setitem__("segment", {"owner": "white", "numbers": [7]}), "malformed segment"),
    ],
)
def test_state_from_wire_rejects(change, message):
    wire = State(start_layout("backgammon"), "white", (6, 5)).to_wire()
    change(wire)
    with pytest.raises(StateError, match=message):
        State.from_wire(wire)


def test_state_from_wire_defaults():
    wire = State(start_layout("backgammon"), "white", (6, 5)).to_wire()
    for key in ("context", "cube", "match", "segment"):
        wire.pop(key)
    state = State.from_wire(wire)
    assert state.cube == Cube(1, None) and state.match == Match() and state.segment is None
    assert state.context == TurnContext()


def test_segment_player():
    assert Segment("white", (3,)).player == "white"
    assert Segment("white", (3,), passed=True).player == "black"


def test_narde_side_with_checkers_off_must_be_all_home() -> None:
    """Without hitting nothing leaves the home board, so borne-off checkers mean all the rest are home."""
    white = [0] * 24
    white[6] = 1  # one on its 7-point
    white[2] = 2
    black = [0] * 24
    black[23] = 15
    layout = Layout("narde", tuple(white), tuple(black), off=(12, 0))
    with pytest.raises(StateError, match="borne off checkers but still has some outside its home board"):
        layout.validate()
    layout.validate(reachable=False)  # counts alone are fine: the harness judges illegal plays' results this way
    Layout("backgammon", tuple(white), tuple(reversed(black)), off=(12, 0)).validate()  # a hit checker may be out


def _narde_case(game: str, white: str, black: str, requires: str = "{}") -> str:
    return f"""\
        game: {game}
        cases:
          - id: block-start
            rules: [nd.block.six]
            title: a start holding a row of six
            query: game-result
            requires: {requires}
            position:
              white: {white}
              black: {black}
            turn: white
            expect:
              not_over: true
            derivation: By hand, from the rules of the game and the position.
        """


def test_a_narde_start_holding_a_forbidden_six_block_is_refused(write):
    from gammonspec.conformance.harness.cases import load_file
    from gammonspec.model.yamlio import DataError

    wall = "{19: 1, 18: 2, 17: 1, 16: 1, 15: 1, 14: 1, 1: 8}"
    path = write("block.yaml", _narde_case("narde", wall, "{24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 19: 1}"))
    with pytest.raises(DataError) as err:
        load_file(path)
    message = str(err.value)
    assert "block.yaml:" in message and "case block-start: impossible position" in message
    assert "white holds its points 19-14 (black's 7-2) with no black checker ahead" in message
    assert "under narde-guide, narde-variant (six-block ban), so the position cannot arise" in message


def test_a_six_block_start_loads_where_it_can_arise(write):
    from gammonspec.conformance.harness.cases import load_file

    wall = "{19: 1, 18: 2, 17: 1, 16: 1, 15: 1, 14: 1, 1: 8}"
    # A black checker ahead of it (black's 1 = white's 13): the row was built legally and stays so.
    ahead = "{24: 9, 23: 1, 22: 1, 21: 1, 20: 1, 19: 1, 1: 1}"
    assert load_file(write("ahead.yaml", _narde_case("narde", wall, ahead)))
    # Gul Bara allows the block; a case pinned to it may start from one.
    alone = "{24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 19: 1}"
    assert load_file(write("gb.yaml", _narde_case("crazy-narde", wall, alone, "{six-block: allowed}")))
    # The opponent has borne off all fifteen: the game is over, nothing is trapped.
    assert load_file(write("over.yaml", _narde_case("narde", wall, "{off: 15}")))
