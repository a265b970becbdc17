"""The ask core (conformance/tools/ask.py): every target's answer, grouped, differences attributed.

Every expectation here is derived by hand from the rules (each test says how), never read off the reference
engine: the core only asks it."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from gammonspec.conformance.tools.ask import AskError, Question, answer, question_from_wire, targets_for
from gammonspec.model.position_ids import decode_xgid
from gammonspec.model.rulesets import rulesets
from gammonspec.model.state import Layout, Segment, State, TurnContext, start_layout
from gammonspec.model.validation import compiled


def asked(state: State, targets=None, **kw) -> dict:
    document = answer(Question(state), targets or targets_for(state.game), **kw)
    assert compiled("ask").failure(document) is None
    return document


def plays(document: dict, name: str) -> set[str]:
    ruling = next(r for r in document["rulings"] if r["name"] == name)
    return {p["play"] for p in document["groups"][ruling["group"]]["answer"]["plays"]}


def group_answer(document: dict, name: str) -> dict:
    ruling = next(r for r in document["rulings"] if r["name"] == name)
    return document["groups"][ruling["group"]]["answer"]


def narde(white: dict[int, int], black: dict[int, int], game: str = "narde") -> Layout:
    def side(points: dict[int, int]) -> tuple[int, ...]:
        return tuple(points.get(p, 0) for p in range(1, 25))

    off = (15 - sum(white.values()), 15 - sum(black.values()))
    return Layout(game, side(white), side(black), (0, 0), off)


def test_narde_first_roll_65_guide_and_variant_differ_by_head_exception():
    """By hand (cases/narde/head-rule.yaml): on the game's first roll 6-5 narde-guide lets one checker leave the
    head (its exception is for a first 3-3, 4-4 or 6-6 only): 24/13 via 18 or 19, both empty. narde-variant lets
    two leave on the game's first roll whatever the numbers: also 24/18 24/19. The two rulesets also differ in
    the opening, the next game's opener and the scoring, none of which changes this roll's plays."""
    state = State(start_layout("narde"), "white", (6, 5), TurnContext(first_turn=True, rolls_in_game=0))
    document = asked(state)
    assert [r["name"] for r in document["rulings"]] == ["narde-guide", "narde-variant"]
    assert plays(document, "narde-guide") == {"24/18/13"}
    assert plays(document, "narde-variant") == {"24/18/13", "24/18 24/19"}
    (difference,) = document["differences"]
    assert difference["between"] == ["narde-guide", "narde-variant"]
    assert difference["differs"] == ["plays"] and difference["only"] == [[], ["24/18 24/19"]]
    assert [(c["name"], c["values"], c["alone"]) for c in difference["causes"]] == [
        ("head-exception", ["first-turn-3-4-6", "game-first-roll"], True)
    ]
    assert difference["causes"][0]["clauses"] == ["nd.head.first-turn"]


# White 13 off, one checker on its 3-point and one on its 2-point; black all fifteen on its 1-point (white's 24).
BEAR_OFF_XGID = "XGID=--AA--------------------o-:0:0:1:65:0:0:0:0:10"


def test_backgammon_bear_off_flip_names_exact_only():
    """By hand: 6-5 with checkers on 3 and 2 only. bg.bearoff.higher: the 6 bears off from the highest point (3),
    the 5 then from the 2 (or 5 first from the 3, then 6 from the 2): one play, 3/off 2/off. Under
    bear-off=exact-only neither number bears a checker off and nothing moves inside home: no move. No other
    switch touches a race with all checkers home and no head, no contact, no double, every number played."""
    layout, turn, dice = decode_xgid(BEAR_OFF_XGID)
    document = asked(State(layout, turn, dice, TurnContext(rolls_in_game=14)))
    assert plays(document, "backgammon") == {"3/off 2/off"}
    (flip,) = document["rulings"][0]["flips"]
    assert (flip["name"], flip["value"], flip["gains"], flip["loses"]) == (
        "bear-off",
        "exact-only",
        ["(no move)"],
        ["3/off 2/off"],
    )
    assert flip["clauses"] == ["bg.bearoff.higher"]
    assert document["ids"]["xgid"] == BEAR_OFF_XGID


def test_backgammon_cube_questions_and_the_beavers_option():
    """By hand, bg.cube.offer / take / drop: white on roll before rolling, cube centred at 1, money play: it may
    double; taken, the cube is 2 and black's; dropped, white wins the cube's value, 1. A beaver is illegal unless
    the option beavers is on (bg.option.beavers): then black keeps the cube at 4."""
    layout, turn, _ = decode_xgid(BEAR_OFF_XGID)
    document = asked(State(layout, turn, (), TurnContext(rolls_in_game=14)))
    cube = group_answer(document, "backgammon")["cube"]
    assert cube["may_double"] is True
    assert cube["double"]["take"] == {"legal": True, "cube": {"value": 2, "owner": "black"}, "result": None}
    assert cube["double"]["drop"]["result"] == {"winner": "white", "kind": "dropped", "points": 1}
    assert cube["double"]["beaver"]["legal"] is False
    beavers = next(f for f in document["rulings"][0]["flips"] if f["name"] == "beavers")
    assert beavers["answer"]["cube"]["double"]["beaver"] == {
        "legal": True,
        "cube": {"value": 4, "owner": "black"},
        "result": None,
    }
    assert beavers["clauses"] == ["bg.option.beavers"]


def test_crazy_narde_chain_remainder_passes_or_is_lost():
    """By hand. Black's 20 and 2 are white's 8 and 14. In the 4s of a chain started by 2-2, white's 20 goes
    20/16/12, then 12/8 is closed; its 1-point checkers cannot move (not all home, so no bearing off): two 4s of
    four, one play 20/16/12. crazy-narde (unplayable=opponent-plays): black plays the two 4s left, passed
    (cn.unplayable.opponent-plays). gul-bara (unplayable=lost): they are lost, and a chain whose double is not
    played in full ends (cn.unplayable.lost-ends-chain): nothing follows."""
    layout = narde({20: 1, 1: 14}, {20: 1, 2: 14}, "crazy-narde")
    segment = Segment("white", (4, 4, 4, 4))
    document = asked(State(layout, "white", (2, 2), TurnContext(rolls_in_game=10), segment=segment))
    assert plays(document, "crazy-narde") == plays(document, "gul-bara") == {"20/16/12"}
    assert group_answer(document, "crazy-narde")["next"] == {"owner": "white", "numbers": [4, 4], "passed": True}
    assert group_answer(document, "gul-bara")["next"] is None
    (difference,) = document["differences"]
    assert difference["differs"] == ["next"]
    causes = {c["name"]: c for c in difference["causes"]}
    assert set(causes) == {"unplayable"} and causes["unplayable"]["alone"]
    assert causes["unplayable"]["clauses"] == ["cn.unplayable.opponent-plays", "cn.unplayable.lost-ends-chain"]


def test_a_finished_game_is_asked_its_result():
    """By hand, nd.score.mars / nd.score.coke: white has borne off all fifteen, black none, all still on its head
    (its first quarter): under narde-guide a coke, worth the option coke-value (3 by default); narde-variant has
    no coke: a mars, 2."""
    layout = narde({}, {24: 15})
    document = asked(State(layout, "black", (), TurnContext(rolls_in_game=20)))
    assert group_answer(document, "narde-guide")["result"] == {"winner": "white", "kind": "coke", "points": 3}
    assert group_answer(document, "narde-variant")["result"] == {"winner": "white", "kind": "mars", "points": 2}
    assert group_answer(document, "narde-guide")["plays"] is None


def test_a_double_on_the_opening_roll_cannot_occur_under_play_lead_dice():
    """By hand. narde-guide: the game's first roll is the opening roll, one die each, never a double
    (opening=play-lead-dice). narde-variant: the winner rolls again (winner-rolls), so 6-6 can come, and two
    checkers may leave the head on the game's first roll; black's head is white's 12, closed, so each stops on
    18: 24/18(2), the other two 6s lost."""
    state = State(start_layout("narde"), "white", (6, 6), TurnContext(first_turn=True, rolls_in_game=0))
    document = asked(state)
    guide = next(r for r in document["rulings"] if r["name"] == "narde-guide")
    assert guide["status"] == "cannot-occur" and guide["message"].startswith("roll 6-6:")
    assert plays(document, "narde-variant") == {"24/18(2)"}
    with pytest.raises(AskError, match="^roll 6-6: .*never a double"):
        answer(Question(state), [rulesets()["narde-guide"]])


@pytest.mark.parametrize(
    "wire, message",
    [
        ({"segment": {"owner": "white", "numbers": [4, 4, 4, 4]}}, "^segment 4-4-4-4: a later segment"),
        (
            {"segment": {"owner": "black", "numbers": [6], "passed": True}},
            "segment 6: passed numbers are some of the roll",
        ),
        ({"context": {"rolls_in_game": 0, "first_turn": False}}, "^context: the game's first roll"),
        ({"game": "narde", "cube": {"value": 2, "owner": None}}, "^cube: these rules have no doubling cube"),
    ],
)
def test_questions_that_cannot_be_asked(wire, message):
    """A chain segment after a roll that is no double; numbers passed to white that black's 5-3 never had; the
    game's first roll that is not its roller's first turn; a cube turned in Narde, which has none."""
    data = State(narde({20: 1, 1: 14}, {20: 1, 2: 14}, "crazy-narde"), "white", (5, 3)).to_wire()
    data["context"] = {"first_turn": False, "rolls_in_game": 40, "head_moves": 0}
    data.update(wire)
    with pytest.raises(AskError, match=message):
        answer(question_from_wire(data), targets_for(data["game"]))


def test_the_document_is_deterministic():
    wire = State(start_layout("crazy-narde"), "white", (3, 1)).to_wire()
    del wire["context"]
    state = question_from_wire(wire)
    assert answer(state, targets_for("crazy-narde")) == answer(state, targets_for("crazy-narde"))
    assert state.state.context == TurnContext(first_turn=True, rolls_in_game=0)  # the start's default


def test_the_core_imports_only_the_model_the_reference_and_the_standard_library():
    """It runs under Pyodide, where orjson, jsonschema-rs, jsonschema and tqdm do not exist: importing and using
    it with them blocked works, and loads no other module of the project than the model, the reference engine
    ask_rulings.py and reachability.py (on the model only)."""
    code = textwrap.dedent(
        """
        import sys
        for name in ("orjson", "jsonschema_rs", "jsonschema", "tqdm"):
            sys.modules[name] = None
        from gammonspec.conformance.tools.ask import Question, answer, targets_for
        from gammonspec.model.state import State, TurnContext, start_layout
        from gammonspec.model.validation import compiled
        document = answer(Question(State(start_layout("narde"), "white", (6, 5), TurnContext(True, 0))),
                          targets_for("narde"))
        assert compiled("ask").failure(document) is None
        allowed = ("gammonspec.model", "gammonspec.reference")
        extra = {"gammonspec", "gammonspec.conformance", "gammonspec.conformance.tools",
                 "gammonspec.conformance.tools.ask", "gammonspec.conformance.tools.ask_rulings",
                 "gammonspec.conformance.tools.reachability"}
        print(sorted(m for m in sys.modules if m.startswith("gammonspec") and not m.startswith(allowed)
                     and m not in extra))
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def _defaults(target) -> dict:
    return {name: spec["default"] for name, spec in target.options.items()}


def test_every_shipped_case_is_answered_as_its_derivation_says():
    """The case suite's expectations are derived by hand or cross-checked independently: asked as `--case` asks
    it (the case's own, maybe constructed, state), ask answers every legal-plays and game-result case under every
    ruleset that admits it at its default options as the case expects: its positions, its next segment, its
    result.  Cases with a state no ruleset can be asked in would be refused; none is."""
    from gammonspec.conformance.harness.cases import suite

    checked = 0
    for case in suite():
        if case.state.turn is None or case.query == "scenario":
            continue
        document = answer(Question(case.state, constructed=True), targets_for(case.game), flips=False)
        step = case.steps[0]
        for target in targets_for(case.game):
            if not target.admits(case.requires, case.options) or any(
                _defaults(target).get(k) != v for k, v in case.options.items()
            ):
                continue
            ruling = next(r for r in document["rulings"] if r["name"] == target.name)
            assert ruling["status"] == "answered", (case.id, ruling["message"])
            got = document["groups"][ruling["group"]]["answer"]
            if step.kind == "plays" and "plays" in step.expected and step.expected["plays"]:
                positions = {Layout.from_wire(case.game, p["position"]) for p in got["plays"]}
                assert positions == set(step.expected["plays"].values()), (case.id, target.name)
                if step.check_next:
                    wanted = None if step.next is None else step.next.unordered().to_wire()
                    assert got["next"] == wanted, (case.id, target.name)
                checked += 1
            elif step.kind == "result":
                wanted = step.expect.get("result") if "result" in step.expect else None
                assert got["result"] == (wanted and {"winner": None, **wanted}), (case.id, target.name)
                checked += 1
    assert checked > 400, checked


def test_the_schema_shares_the_protocols_definitions():
    """ask.schema.json writes states, positions, segments, cubes, matches and results as the protocol does: its
    copies of those definitions are the protocol schema's own, and it is a valid JSON Schema."""
    import jsonschema
    from gammonspec.model.validation import schema

    ask, protocol = schema("ask"), schema("protocol")
    for name in ("side", "points", "perSide", "count", "position", "state", "segment", "cube", "match", "result"):
        assert ask["$defs"][name] == protocol["$defs"][name], name
    jsonschema.Draft202012Validator.check_schema(ask)


@pytest.mark.parametrize("ruleset", ["backgammon", "narde-guide", "crazy-narde", "gul-bara"])
def test_generated_states_of_every_kind_give_a_valid_deterministic_document(ruleset):
    """The fuzzer's states of every kind (bar, bear-off, chains, passed numbers, finished games...) are asked
    under every ruleset of their game: each document follows the schema, the ruleset the state was made for
    answers (generators check reachability as ask does), and asking again gives the same document."""
    import random

    from gammonspec.conformance.tools.generators import kinds_for, states

    rules = rulesets()[ruleset].rules()
    kinds = kinds_for(rules)
    made = states(random.Random(11), rules, kinds)
    for _ in range(2 * len(kinds)):
        kind, state = next(made)
        document = asked(state, flips=False)
        own = next(r for r in document["rulings"] if r["name"] == ruleset)
        assert own["status"] == "answered", (kind, own["message"])
        assert answer(Question(state), targets_for(state.game), flips=False) == document, kind
