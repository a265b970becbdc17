"""Loading case files: good files load; bad input gives ONE DataError naming file, line and the problem."""

from __future__ import annotations

from pathlib import Path

import pytest
from gammonspec.conformance.harness.cases import load_all, load_file, read_file
from gammonspec.model.notation import apply
from gammonspec.model.state import start_layout
from gammonspec.model.yamlio import DataError, load_yaml

# line numbers:  1 game, 2 cases, 3 id, 4 rules, 5 title, 6 position, 7 turn, 8 roll, 9 expect,
# 10 plays, 11 first play, 12 second play, 13 derivation
GOOD = """\
game: backgammon
cases:
  - id: one
    rules: [bg.move.closed-point]
    title: a title
    position: start
    turn: white
    roll: [6, 5]
    expect:
      plays:
        - "24/13"
        - "24/18 13/8"
    derivation: by hand, from the rules
"""


def variant(*replacements: tuple[str, str]) -> str:
    text = GOOD
    for old, new in replacements:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def error_of(path: Path) -> DataError:
    with pytest.raises(DataError) as info:
        load_file(path)
    return info.value


def assert_error(err: DataError, path: Path, line: int, *fragments: str) -> None:
    text = str(err)
    assert err.path == path and err.line == line, text
    assert text.startswith(f"{path}:{line}: "), text
    assert path.name in text
    for fragment in fragments:
        assert fragment in text, (fragment, text)


# --- good input ----------------------------------------------------------------------------------


def test_good_file_loads(write):
    path = write("good.yaml", GOOD)
    [case] = load_file(path)
    assert case.id == "one" and case.game == "backgammon" and case.rule_ids == ("bg.move.closed-point",)
    assert case.path == path and case.line == 3 and case.where == f"{path}:3"
    assert case.state.turn == "white" and case.state.dice == (6, 5)
    assert case.state.layout == start_layout("backgammon")
    plays = case.steps[0].expected["plays"]
    assert set(plays) == {"24/13", "24/18 13/8"}
    assert plays["24/13"] == apply(start_layout("backgammon"), "white", "24/13")


def test_explicit_bar_and_off(write):
    # `off` must be read as the word off, not as YAML 1.1's boolean false
    path = write(
        "off.yaml",
        variant(
            ("position: start", "position: {white: {6: 4, bar: 1, off: 10}, black: {24: 15}}"),
            ('- "24/13"', '- "bar/19"'),
            ('- "24/18 13/8"', '- "bar/20"'),
        ),
    )
    [case] = load_file(path)
    lay = case.state.layout
    assert lay.points("white")[6 - 1] == 4 and lay.points("white")[24 - 1] == 0
    assert lay.on_bar("white") == 1 and lay.borne_off("white") == 10
    assert lay.borne_off("black") == 0 and lay.points("black")[24 - 1] == 15


def test_off_defaults_to_the_rest(write):
    path = write(
        "rest.yaml",
        variant(
            ("position: start", "position: {white: {6: 4, 5: 1}, black: {12: 15}}"),
            ('- "24/13"', '- "6/off 5/off"'),
            ('- "24/18 13/8"', '- "6/1 5/off"'),
        ),
    )
    [case] = load_file(path)
    assert case.state.layout.off == (10, 0)


def test_load_all_reads_subfolders_in_order(tmp_path, write):
    write("b/two.yaml", variant(("id: one", "id: two")))
    write("a/one.yaml", GOOD)
    write("a/notes.txt", "not a case file")
    assert [c.id for c in load_all(tmp_path)] == ["one", "two"]


# --- malformed YAML ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "old, new, line, fragment",
    [
        ("    turn: white\n", "    turn: white: black\n", 7, "mapping values are not allowed"),
        ("    turn: white\n", "\tturn: white\n", 7, "malformed YAML"),
        ("    turn: white\n", "    turn: white\n    turn: black\n", 8, "duplicate key 'turn'"),
        ('        - "24/13"\n', '        - "24/13\n', 12, "malformed YAML"),
    ],
)
def test_malformed_yaml(write, old, new, line, fragment):
    path = write("bad.yaml", variant((old, new)))
    assert_error(error_of(path), path, line, "malformed YAML", fragment)


def test_not_a_mapping(write):
    path = write("list.yaml", "- game\n- cases\n")
    assert_error(error_of(path), path, 1, "a case file is a mapping")


def test_empty_file(write):
    path = write("empty.yaml", "")
    assert_error(error_of(path), path, 1, "a case file is a mapping")


def test_unreadable_file(tmp_path):
    path = tmp_path / "missing.yaml"
    with pytest.raises(DataError, match="cannot read") as info:
        load_yaml(path)
    assert str(info.value) == f"{path}: cannot read: No such file or directory"  # no line to name


# --- schema violations ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "replacements, line, fragments",
    [
        ((("    turn: white\n", "    turn: white\n    colour: red\n"),), 8, ("colour", "not allowed")),
        ((("game: backgammon\n", "game: backgammon\nauthor: me\n"),), 2, ("author", "not allowed")),
        ((("roll: [6, 5]", "roll: [7, 5]"),), 8, ("roll", "7 is greater than the maximum of 6")),
        ((("roll: [6, 5]", "roll: [0, 5]"),), 8, ("roll", "less than the minimum of 1")),
        ((("roll: [6, 5]", "roll: [6]"),), 8, ("roll", "too short")),
        ((("roll: [6, 5]", "roll: [6, 5, 4]"),), 8, ("roll",)),
        ((("roll: [6, 5]", "roll: six-five"),), 8, ("roll",)),
        ((("turn: white", "turn: red"),), 7, ("turn", "'red'")),
        ((("game: backgammon", "game: chess"),), 1, ("game", "'chess'")),
        ((("id: one", "id: Case One"),), 3, ("id", "'Case One'")),
        ((("rules: [bg.move.closed-point]", "rules: [Closed Points]"),), 4, ("rules",)),
        ((("    derivation: by hand, from the rules\n", ""),), 3, ("derivation",)),
        ((("position: start", "position: {white: {13: 16}, black: {24: 15}}"),), 6, ("16",)),
        ((("position: start", "position: {white: {13: -1}, black: {24: 15}}"),), 6, ("-1",)),
    ],
)
def test_schema_violation(write, replacements, line, fragments):
    path = write("schema.yaml", variant(*replacements))
    assert_error(error_of(path), path, line, *fragments)


def test_empty_case_list(write):
    path = write("none.yaml", "game: backgammon\ncases: []\n")
    assert_error(error_of(path), path, 2, "cases")


# --- impossible positions ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "position, fragments",
    [
        (
            "{white: {13: 15}, black: {12: 15}}",
            ("impossible position", "white's point 13 (black's 12) holds checkers of both sides"),
        ),
        ("{white: {13: 14}, black: {24: 15}, }", None),  # fine: one checker is off
        ("{white: {13: 10, 8: 10}, black: {24: 15}}", ("impossible position", "negative checker count", "board 20")),
        ("{white: {13: 10, off: 10}, black: {24: 15}}", ("impossible position", "white has 20 checkers")),
        ("{white: {13: 15, bar: 1}, black: {24: 15}}", ("impossible position", "negative checker count")),
        ("{white: {25: 1, 13: 14}, black: {24: 15}}", ("impossible position", "25")),
        ("{white: {0: 1, 13: 14}, black: {24: 15}}", ("impossible position", "no point 0")),
    ],
)
def test_impossible_backgammon_position(write, position, fragments):
    path = write(
        "pos.yaml",
        variant(
            ("position: start", f"position: {position}"),
            ('expect:\n      plays:\n        - "24/13"\n        - "24/18 13/8"', "expect: {count: 1}"),
        ),
    )
    if fragments is None:
        load_file(path)
        return
    assert_error(error_of(path), path, 6, *fragments)


def test_impossible_narde_positions(write):
    base = variant(
        ("game: backgammon", "game: narde"),
        ('expect:\n      plays:\n        - "24/13"\n        - "24/18 13/8"', "expect: {count: 1}"),
    )
    bar = write("bar.yaml", base.replace("position: start", "position: {white: {24: 14, bar: 1}, black: {24: 15}}"))
    assert_error(error_of(bar), bar, 6, "impossible position", "white has checkers on the bar", "narde")
    # narde geometry: white's 13 is black's 1
    same = write(
        "same.yaml", base.replace("position: start", "position: {white: {24: 14, 13: 1}, black: {24: 14, 1: 1}}")
    )
    assert_error(error_of(same), same, 6, "impossible position", "white's point 13 (black's 1)")
    # ... and white's 13 / black's 13 is fine in narde (black's 13 is white's 1)
    fine = write(
        "fine.yaml", base.replace("position: start", "position: {white: {24: 14, 13: 1}, black: {24: 14, 13: 1}}")
    )
    assert load_file(fine)[0].state.layout.points("white")[13 - 1] == 1


# --- duplicate ids -------------------------------------------------------------------------------


def test_duplicate_id_across_files(tmp_path, write):
    first = write("a/first.yaml", GOOD)
    second = write(
        "b/second.yaml",
        GOOD.replace(
            "cases:\n",
            "cases:\n  - id: other\n    rules: [bg.move.closed-point]\n    title: t\n"
            "    position: start\n    turn: black\n    roll: [1, 2]\n"
            "    expect: {count: 1}\n    derivation: by hand from rule x\n",
            1,
        ),
    )
    with pytest.raises(DataError) as info:
        load_all(tmp_path)
    assert_error(info.value, second, 11, "duplicate case id 'one'", f"first at {first}:3")


def test_duplicate_id_in_one_file(tmp_path, write):
    text = GOOD + GOOD.split("cases:\n", 1)[1]
    path = write("twice.yaml", text)
    with pytest.raises(DataError) as info:
        load_all(tmp_path)
    assert_error(info.value, path, 14, "duplicate case id 'one'", f"first at {path}:3")


# --- switches, options, rules --------------------------------------------------------------------


def test_unknown_switch_in_case_requires(write):
    path = write(
        "sw.yaml",
        variant(
            ("    turn: white\n", "    turn: white\n    requires:\n      hitting: blots\n      flavour: vanilla\n")
        ),
    )
    assert_error(error_of(path), path, 10, "unknown switch 'flavour'", "case one")


def test_unknown_switch_in_file_requires(write):
    path = write("sw.yaml", variant(("game: backgammon\n", "game: backgammon\nrequires:\n  flavour: vanilla\n")))
    assert_error(error_of(path), path, 3, "unknown switch 'flavour'")


def test_unknown_switch_value(write):
    path = write("sw.yaml", variant(("    turn: white\n", "    turn: white\n    requires: {hitting: sometimes}\n")))
    assert_error(error_of(path), path, 8, "switch hitting has no value 'sometimes'", "blots")


def test_file_requires_are_merged_into_cases(write):
    path = write(
        "sw.yaml",
        variant(
            ("game: backgammon\n", "game: backgammon\nrequires: {hitting: blots}\n"),
            ("    turn: white\n", "    turn: white\n    requires: {cube: doubling}\n"),
        ),
    )
    assert load_file(path)[0].requires == {"hitting": "blots", "cube": "doubling"}


@pytest.mark.parametrize(
    "options, fragment",
    [("{jacobi: true}", "unknown option 'jacobi'"), ("{jacoby: 3}", "option jacoby must be boolean")],
)
def test_bad_options(write, options, fragment):
    path = write("opt.yaml", variant(("    turn: white\n", f"    turn: white\n    options: {options}\n")))
    assert_error(error_of(path), path, 8, fragment)


def test_an_unknown_rule_keeps_the_case_from_loading(write):
    # refused where every command loads cases (`check`, `run --cases`, `export`), not only by the coverage check
    path = write(
        "rule.yaml", variant(("rules: [bg.move.closed-point]", "rules: [bg.move.closed-point, zz.no-such-rule]"))
    )
    cases, errors = read_file(path)
    assert not cases and [str(e) for e in errors] == [
        f"{path}:4: case one: unknown rule zz.no-such-rule (no spec page defines it)"
    ]


# --- plays ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "play, fragment",
    [
        ("23/18 13/8", "no checker on point 23"),
        ("24/19 13/7", "point 19 is held by black"),
        ("24/18* 13/8", "no black blot"),
        ("24-18 13/8", "cannot read move '24-18'"),
        ("18/24", "moves backwards"),
        ("bar/20", "no checker on the bar"),
    ],
)
def test_play_that_cannot_be_made(write, play, fragment):
    path = write("play.yaml", variant(('- "24/18 13/8"', f'- "{play}"')))
    assert_error(error_of(path), path, 12, f"play '{play}'", fragment, "case one")


def test_play_in_flow_list(write):
    path = write(
        "flow.yaml", variant(('plays:\n        - "24/13"\n        - "24/18 13/8"', 'plays: ["24/13", "23/17"]'))
    )
    assert_error(error_of(path), path, 10, "play '23/17'", "no checker on point 23")


def test_includes_and_excludes_are_checked_too(write):
    inc = write(
        "inc.yaml",
        variant(
            ('plays:\n        - "24/13"\n        - "24/18 13/8"', 'includes:\n        - "24/13"\n        - "22/16"')
        ),
    )
    assert_error(error_of(inc), inc, 12, "play '22/16'", "no checker on point 22")
    exc = write(
        "exc.yaml",
        variant(
            (
                'plays:\n        - "24/13"\n        - "24/18 13/8"',
                'excludes:\n        - {play: "24/13", reason: point-closed}\n        - {play: "13/1", reason: point-closed}',
            )
        ),
    )
    assert_error(error_of(exc), exc, 12, "play '13/1'", "point 1 is held by black")


def test_excluded_play_the_dice_cannot_make(write):
    """Excluding a play the roll cannot make tests nothing: it is an error at load, on the play's own line."""
    path = write(
        "exc.yaml",
        variant(
            (
                'plays:\n        - "24/13"\n        - "24/18 13/8"',
                'excludes:\n        - {play: "24/18", reason: both-dice-required}\n'
                '        - {play: "24/18 24/20", reason: both-dice-required}',
            )
        ),
    )
    assert_error(
        error_of(path), path, 12, "case one: excluded play '24/18 24/20'", "24/20 moves 4 pips, which no numbers of 6-5"
    )


def test_two_plays_reaching_the_same_position(write):
    path = write("twin.yaml", variant(('- "24/18 13/8"', '- "24/18/13"')))
    assert_error(error_of(path), path, 12, "'24/18/13' and '24/13' reach the same position")


def test_two_spellings_of_one_play(write):
    path = write("twin.yaml", variant(('- "24/13"', '- "13/8 24/18"')))
    assert_error(error_of(path), path, 12, "reach the same position")


def test_plays_and_no_play_together(write):
    path = write("both.yaml", variant(("    expect:\n", "    expect:\n      no_play: true\n")))
    assert_error(error_of(path), path, 9, "give either plays or no_play")


def test_legal_plays_case_needs_a_roll(write):
    path = write("noroll.yaml", variant(("    roll: [6, 5]\n", "")))
    assert_error(error_of(path), path, 3, "needs a 'roll'")


def test_result_expectation_in_a_plays_case(write):
    path = write("mixed.yaml", variant(('plays:\n        - "24/13"\n        - "24/18 13/8"', "not_over: true")))
    assert_error(error_of(path), path, 9, "not_over is not an expectation of legal plays")


# --- scenarios -----------------------------------------------------------------------------------

SCENARIO = """\
game: crazy-narde
cases:
  - id: chain
    rules: [cn.doubles.chain]
    title: a chain
    query: scenario
    position: start
    turn: white
    context: {first_turn: false, rolls_in_game: 5}
    steps:
      - roll: [5, 5]
        play: "24/4"
        next: {numbers: [6, 6, 6, 6]}
      - numbers: [6, 6, 6, 6]
        play: "24/18"
        next: null
    derivation: by hand, from the rules
"""


def scenario(*replacements: tuple[str, str]) -> str:
    text = SCENARIO
    for old, new in replacements:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def test_scenario_loads_with_its_segments(write):
    (case,) = load_file(write("s.yaml", SCENARIO))
    first, second = case.steps
    assert first.check_next and first.next is not None and first.next.numbers == (6, 6, 6, 6)
    assert second.state.segment == first.next and second.state.context.head_moves == 1
    assert case.queries == {"legal-plays", "next-segment"}


def before_the_sixes(step: str) -> str:
    """The scenario with `step` (YAML lines) inserted between the chain's 5-5 and its 6-6."""
    return scenario(("      - numbers: [6, 6, 6, 6]\n", step + "      - numbers: [6, 6, 6, 6]\n"))


def test_may_double_mid_turn_is_asked_of_the_segment_player(write):
    """Between a chain's doubles the question carries the segment due; any other step there is refused."""
    (case,) = load_file(write("s.yaml", before_the_sixes("      - may_double: false\n")))
    asked = case.steps[1]
    assert asked.kind == "may-double" and asked.expect == {"may_double": False}
    assert asked.state.turn == "white" and asked.state.segment == case.steps[0].next
    path = write("r.yaml", before_the_sixes('      - roll: [2, 1]\n        play: "24/21"\n'))
    assert_error(error_of(path), path, 14, "case chain: step 2: the turn goes on: white plays [6, 6, 6, 6]")


def test_scenario_that_stops_mid_turn_is_rejected(write):
    path = write(
        "s.yaml",
        scenario(
            (
                '        play: "24/18"\n        next: null\n',
                '        play: "24/18"\n        next: {numbers: [3], passed: true}\n',
            )
        ),
    )
    assert_error(error_of(path), path, 3, "stops in the middle of a turn")


def test_scenario_segment_not_due_is_rejected(write):
    path = write("s.yaml", scenario(("      - numbers: [6, 6, 6, 6]\n", "      - numbers: [4, 4, 4, 4]\n")))
    assert_error(
        error_of(path),
        path,
        14,
        "case chain: step 2: the segment due is [6, 6, 6, 6] (white to play), not [4, 4, 4, 4]",
    )


def test_scenario_wrong_side_is_rejected(write):
    path = write(
        "s.yaml", scenario(("      - numbers: [6, 6, 6, 6]\n", "      - numbers: [6, 6, 6, 6]\n        turn: black\n"))
    )
    assert_error(error_of(path), path, 15, "case chain: step 2: it is white's turn, not black's")


def test_next_game_needs_a_result_first(write):
    path = write("s.yaml", scenario(("        next: null\n", "        next: null\n      - next_game: true\n")))
    assert_error(error_of(path), path, 17, "case chain: step 3: next_game needs the game's result first")
