"""Fault corpus entries for case files, the loader and the CLI's arguments (see fault_corpus.py)."""

from __future__ import annotations

from pathlib import Path

from conftest import MINI_SUITE
from fault_corpus import Fault
from gammonspec.conformance.cli import _parser
from gammonspec.model.clauses import clauses
from test_loading import GOOD  # the valid one-case file (test_loading.py says its line numbers)

KNOWN_RULESETS = "backgammon, crazy-narde, gul-bara, narde-guide, narde-variant"
# the subcommands as argparse lists them when a command is unknown
COMMANDS = next(a.choices for a in _parser()._actions if a.dest == "command")
ONE_VALID = f"1 cases, 5 rulesets, {len(clauses())} rule clauses: all valid"

# line numbers: 3 id, 8 steps, 9 opening, 10 its expect, 11 roll, 12 expect, 13 play, 14 roll, 15 expect, 16 play
SCENARIO = """\
game: backgammon
cases:
  - id: scene
    rules: [bg.opening.roll, bg.opening.turns]
    title: a title
    query: scenario
    position: start
    steps:
      - opening: {white: 5, black: 3}
        expect: {starts: white, dice: [5, 3]}
      - roll: [5, 3]
        expect: {includes: ["8/3 6/3"]}
        play: "8/3 6/3"
      - roll: [2, 1]
        expect: {includes: ["13/11 6/5"]}
        play: "13/11 6/5"
    derivation: by hand, from the rules
"""


def variant(base: str, *replacements: tuple[str, str]) -> str:
    for old, new in replacements:
        assert base.count(old) == 1, old
        base = base.replace(old, new)
    return base


def _check(
    fault_class: str, kind: str, content: str | bytes, line: int | None, message: str, name: str = "c.yaml"
) -> Fault:
    """`gammonspec check --cases` on one bad file: its first error names the file and line."""
    where = f"{{tmp}}/{name}:{line}" if line else f"{{tmp}}/{name}"
    return Fault(
        fault_class,
        kind,
        ("check", "--cases", f"{{tmp}}/{name}"),
        f"gammonspec: {where}: {message}",
        2,
        {name: content},
    )


def _usage(kind: str, argv: tuple[str, ...], message: str, files: dict[str, str | bytes] | None = None) -> Fault:
    return Fault("cli-misuse", kind, argv, message, 2, files or {})


def _bomb(levels: int) -> str:
    rows = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    rows += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, levels)]
    return "\n".join(rows) + "\n" + GOOD


def _g(*replacements: tuple[str, str]) -> str:
    return variant(GOOD, *replacements)


def _s(*replacements: tuple[str, str]) -> str:
    return variant(SCENARIO, *replacements)


def _conventions_example() -> str:
    """The case-file example of spec/conventions.md, as a user would copy it."""
    text = (Path(__file__).resolve().parent.parent / "spec" / "conventions.md").read_text(encoding="utf-8")
    return text.split("```yaml\n", 1)[1].split("```", 1)[0]


RUN_MINI = ("run", "-q", "--cases", "{tmp}/mini.yaml")
MINI = {"mini.yaml": MINI_SUITE}
BROKEN = _g(("roll: [6, 5]", "roll: [6, 9]"))
BROKEN_LINE = "gammonspec: {tmp}/bad/c.yaml:8: cases/0/roll/1: 9 is greater than the maximum of 6"
MINI_PASSES = "gammonspec-reference 0.1.0 against gammonspec 0.1.0: 6 passed, 0 failed"
ALIAS = "aliases (*name) and anchors (&name) are not allowed in case files: write the value out"
MERGE = "merge keys (<<) are not allowed in case files: write the fields out"
NOT_NUMBER = "gammonspec run: argument --timeout: {!r} is not a number of seconds above 0 and at most 86,400 (see gammonspec run --help)"
GAMES = "'backgammon', 'narde', 'crazy-narde'"

FAULTS: list[Fault] = [
    # --- hangs and unbounded cost --------------------------------------------------------------
    _check("hang", "yaml-bomb-billion-laughs", _bomb(9), 2, ALIAS),
    _check("hang", "yaml-bomb-deep", _bomb(30), 2, ALIAS),
    _check("hang", "yaml-alias-once", _g(("    turn: white\n", "    turn: &t white\n    title2: *t\n")), 8, ALIAS),
    _check("hang", "yaml-alias-recursive", "a: &a [*a]\n" + GOOD, 1, ALIAS),
    Fault(
        "hang",
        "yaml-bomb-in-a-run",
        ("run", "--cases", "{tmp}/c.yaml"),
        f"gammonspec: {{tmp}}/c.yaml:2: {ALIAS}",
        2,
        {"c.yaml": _bomb(9)},
    ),
    _check(
        "hang",
        "huge-value-in-message",
        _g(("roll: [6, 5]", "roll: " + "x" * 100_000)),
        8,
        "cases/0/roll: '" + "x" * 29 + "…" + "x" * 28 + "' is not of type 'array'",
    ),
    _usage("timeout-nan", ("run", "--timeout", "nan"), NOT_NUMBER.format("nan")),
    # --- tracebacks ----------------------------------------------------------------------------
    _check(
        "traceback",
        "latin-1-file",
        _g(("a title", "caf\xe9")).encode("latin-1"),
        5,
        "not UTF-8: byte 0xe9 at column 15: save the file as UTF-8",
    ),
    _check("traceback", "utf-16-file", GOOD.encode("utf-16"), 1, "the file is UTF-16: save it as UTF-8"),
    _check(
        "traceback",
        "utf-16-be-no-bom",
        GOOD.encode("utf-16-be"),
        1,
        "a NUL byte (is the file UTF-16, or binary?): save it as UTF-8 text",
    ),
    _check(
        "traceback",
        "nul-byte-at-line-8",
        _g(("roll: [6, 5]", "roll: [6, 5]\0")),
        8,
        "a NUL byte (is the file UTF-16, or binary?): save it as UTF-8 text",
    ),
    _check(
        "traceback",
        "binary-case-file",
        bytes(range(256)),
        2,
        "not UTF-8: byte 0x80 at column 118: save the file as UTF-8",
    ),
    _check(
        "traceback",
        "latin-1-after-a-bom",
        b"\xef\xbb\xbf" + _g(("a title", "caf\xe9")).encode("latin-1"),
        5,
        "not UTF-8: byte 0xe9 at column 15: save the file as UTF-8",
    ),
    _check("traceback", "mapping-as-a-key", "? [1, 2]\n: x\n" + GOOD, 1, "a mapping key must be a plain value"),
    _check(
        "traceback",
        "yaml-int-tag-on-a-word",
        _g(("    turn: white\n", "    turn: !!int white\n")),
        7,
        "malformed YAML: cannot read 'white' as !!int",
    ),
    _check(
        "traceback",
        "yaml-bool-tag-on-a-word",
        _g(("    turn: white\n", "    turn: !!bool maybe\n")),
        7,
        "malformed YAML: cannot read 'maybe' as !!bool",
    ),
    _check(
        "traceback",
        "yaml-map-tag-on-a-scalar",
        _g(("    turn: white\n", "    turn: !!map 1\n")),
        7,
        "malformed YAML: cannot read '1' as !!map",
    ),
    _check(
        "traceback",
        "yaml-bad-date",
        _g(("    turn: white\n", "    turn: !!timestamp 2020-13-45\n")),
        7,
        "malformed YAML: cannot read '2020-13-45' as !!timestamp",
    ),
    _check(
        "traceback",
        "yaml-document-tag-unreadable",
        "!!int x\n",
        1,
        "malformed YAML: the document's value does not fit its tag",
    ),
    _check(
        "traceback",
        "control-character",
        _g(("a title", "a \x07 title")),
        5,
        "malformed YAML: control characters are not allowed",
    ),
    _usage(
        "expect-fail-binary",
        (*RUN_MINI, "--expect-fail", "{tmp}/known.png"),
        "gammonspec: {tmp}/known.png:1: not UTF-8: byte 0x89 at column 1: save the file as UTF-8",
        {**MINI, "known.png": b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"},
    ),
    _usage(
        "expect-fail-folder",
        (*RUN_MINI, "--expect-fail", "{tmp}"),
        "gammonspec: {tmp}: cannot read: Is a directory",
        MINI,
    ),
    _usage("timeout-negative", ("run", "--timeout", "-1"), NOT_NUMBER.format("-1")),
    _usage(
        "json-in-missing-folder",
        (*RUN_MINI, "--json", "{tmp}/no/such/r.json"),
        "gammonspec: {tmp}/no/such/r.json: --json: no folder {tmp}/no/such",
        MINI,
    ),
    _usage(
        "junit-in-missing-folder",
        (*RUN_MINI, "--junit", "{tmp}/no/r.xml"),
        "gammonspec: {tmp}/no/r.xml: --junit: no folder {tmp}/no",
        MINI,
    ),
    _usage("json-is-a-folder", (*RUN_MINI, "--json", "{tmp}"), "gammonspec: {tmp}: --json: is a folder", MINI),
    _usage("junit-is-a-folder", (*RUN_MINI, "--junit", "{tmp}"), "gammonspec: {tmp}: --junit: is a folder", MINI),
    # --- results lost or wrong ------------------------------------------------------------------
    _check(
        "lost-result",
        "roll-float",
        _g(("roll: [6, 5]", "roll: [6.0, 5]")),
        8,
        "cases/0/roll/0: 6.0 is not of type 'integer'",
    ),
    _check(
        "lost-result",
        "roll-bool",
        _g(("roll: [6, 5]", "roll: [true, 5]")),
        8,
        "cases/0/roll/0: True is not of type 'integer'",
    ),
    _check(
        "lost-result",
        "roll-string-die",
        _g(("roll: [6, 5]", 'roll: ["6", 5]')),
        8,
        "cases/0/roll/0: '6' is not of type 'integer'",
    ),
    _check(
        "lost-result",
        "count-float",
        _g(('expect:\n      plays:\n        - "24/13"\n        - "24/18 13/8"', "expect: {count: 3.0}")),
        9,
        "cases/0/expect/count: 3.0 is not of type 'integer'",
    ),
    _check(
        "lost-result",
        "point-key-float",
        _g(("position: start", "position: {white: {13.5: 15}, black: {24: 15}}")),
        6,
        "case one: impossible position: no point 13.5: a side's points are 1-24, plus bar and off",
    ),
    _check(
        "lost-result",
        "point-key-bool",
        _g(("position: start", "position: {white: {true: 15}, black: {24: 15}}")),
        6,
        "case one: impossible position: no point True: a side's points are 1-24, plus bar and off",
    ),
    _check(
        "lost-result",
        "checker-count-float",
        _g(("position: start", "position: {white: {13: 15.0}, black: {24: 15}}")),
        6,
        "cases/0/position/white/13: 15.0 is not of type 'integer'",
    ),
    _check(
        "lost-result",
        "no-play-yes",
        _g(('expect:\n      plays:\n        - "24/13"\n        - "24/18 13/8"', "expect: {no_play: yes}")),
        9,
        "cases/0/expect/no_play: True was expected",
    ),
    _check(
        "lost-result",
        "option-float",
        _g(("    turn: white\n", "    turn: white\n    options: {jacoby: 1.0}\n")),
        8,
        "cases/0/options/jacoby: 1.0 is not of type 'boolean', 'integer'",
    ),
    Fault(
        "lost-result",
        "yml-file-is-loaded",
        ("check", "--cases", "{tmp}/c.yml"),
        ONE_VALID,
        0,
        {"c.yml": GOOD},
        stream="stdout",
    ),
    Fault(
        "lost-result",
        "yml-file-in-a-folder-runs",
        ("run", "-q", "--cases", "{tmp}/mine"),
        MINI_PASSES,
        0,
        {"mine/mini.yml": MINI_SUITE},
        stream="stdout",
    ),
    _usage(
        "expect-fail-stale-id",
        (*RUN_MINI, "--expect-fail", "{tmp}/known.txt"),
        "gammonspec: {tmp}/known.txt:2: no case 'mini-nosuch' in the cases loaded (a stale entry?)",
        {**MINI, "known.txt": "# known\nmini-nosuch\n"},
    ),
    _usage(
        "expect-fail-unknown-ruleset",
        (*RUN_MINI, "--expect-fail", "{tmp}/known.txt"),
        f"gammonspec: {{tmp}}/known.txt:1: unknown ruleset 'chess' (known: {KNOWN_RULESETS})",
        {**MINI, "known.txt": "chess::mini-dance\n"},
    ),
    _usage(
        "matrix-game-chess",
        ("matrix", "--game", "chess"),
        f"gammonspec matrix: argument --game: invalid choice: 'chess' (choose from 'all', {GAMES}) (see gammonspec matrix --help)",
    ),
    Fault(
        "lost-result", "run-every-case-broken", ("run", "--cases", "{tmp}/bad"), BROKEN_LINE, 2, {"bad/c.yaml": BROKEN}
    ),
    Fault(
        "lost-result",
        "run-a-broken-file-beside-a-good-one",
        ("run", "-q", "--cases", "{tmp}/bad", "--cases", "{tmp}/mini.yaml"),
        BROKEN_LINE,
        2,
        {"bad/c.yaml": BROKEN, **MINI},
    ),
    Fault(
        "lost-result",
        "run-a-broken-case-beside-a-good-one",
        ("run", "-q", "--cases", "{tmp}/bad"),
        BROKEN_LINE,
        2,
        {"bad/c.yaml": BROKEN + MINI_SUITE.split("cases:\n", 1)[1]},
    ),
    Fault(
        "lost-result",
        "cases-folder-without-case-files",
        ("run", "--cases", "{tmp}/mine"),
        "gammonspec: {tmp}/mine: no case files (*.yaml, *.yml) in this folder",
        2,
        {"mine/notes.txt": "not a case"},
    ),
    # --- unclear or unlocated messages ----------------------------------------------------------
    _check("unclear-message", "merge-key-inline", _g(("    turn: white\n", "    <<: {turn: white}\n")), 7, MERGE),
    _check(
        "unclear-message",
        "merge-key-with-alias",
        "base: &b {turn: white}\n" + _g(("    turn: white\n", "    <<: *b\n")),
        8,
        MERGE,
    ),
    _check(
        "unclear-message",
        "play-uses-a-number-not-rolled",
        _g(('"24/18 13/8"', '"24/20 13/8"')),
        12,
        "case one: play '24/20 13/8': 24/20 moves 4 pips, which no numbers of 6-5 make",
    ),
    _check(
        "unclear-message",
        "play-uses-a-number-twice",
        _g(('"24/18 13/8"', '"24/18 13/7"')),
        12,
        "case one: play '24/18 13/7': its moves (6, 6) need more numbers than 6-5 gives",
    ),
    _check(
        "unclear-message",
        "play-of-one-checker-too-far",
        _g(('"24/13"', '"24/11"')),
        11,
        "case one: play '24/11': 24/11 moves 13 pips, which no numbers of 6-5 make",
    ),
    _check(
        "unclear-message",
        "includes-uses-a-number-not-rolled",
        _g(('expect:\n      plays:\n        - "24/13"\n        - "24/18 13/8"', 'expect: {includes: ["13/9 13/8"]}')),
        9,
        "case one: play '13/9 13/8': 13/9 moves 4 pips, which no numbers of 6-5 make",
    ),
    _check(
        "unclear-message",
        "excludes-a-play-the-roll-cannot-make",
        _g(
            (
                'expect:\n      plays:\n        - "24/13"\n        - "24/18 13/8"',
                'expect: {excludes: [{play: "24/18 13/9", reason: both-dice-required}]}',
            )
        ),
        9,
        "case one: excluded play '24/18 13/9': 13/9 moves 4 pips, which no numbers of 6-5 make",
    ),
    _check(
        "unclear-message",
        "bear-off-without-the-number",
        _g(
            ("position: start", "position: {white: {6: 2}, black: {24: 15}}"),
            ('"24/13"', '"6/off 6/off"'),
            ('"24/18 13/8"', '"6/1 6/off"'),
        ),
        11,
        "case one: play '6/off 6/off': its moves (6/off, 6/off) need more numbers than 6-5 gives",
    ),
    _check(
        "unclear-message",
        "scenario-play-not-rolled",
        _s(('play: "8/3 6/3"', 'play: "8/4 6/3"')),
        13,
        "case scene: step 2: play '8/4 6/3': 8/4 moves 4 pips, which no numbers of 5-3 make",
    ),
    _check(
        "unclear-message",
        "scenario-play-of-the-second-turn",
        _s(('play: "13/11 6/5"', 'play: "13/10 6/5"')),
        16,
        "case scene: step 3: play '13/10 6/5': its moves (3, 1) need more numbers than 2-1 gives",
    ),
    _check(
        "unclear-message",
        "scenario-turn-without-a-play",
        _s(('        play: "13/11 6/5"\n', "")),
        14,
        "case scene: step 3: a turn needs the 'play' made (or expect no_play)",
    ),
    _check(
        "unclear-message",
        "scenario-wrong-side",
        _s(("      - roll: [2, 1]\n", "      - roll: [2, 1]\n        turn: white\n")),
        15,
        "case scene: step 3: it is black's turn, not white's",
    ),
    _check(
        "unclear-message",
        "scenario-numbers-not-due",
        _s(("      - roll: [2, 1]\n", "      - numbers: [2, 1]\n")),
        14,
        "case scene: step 3: no segment is due here: a 'numbers' step follows a step whose 'next' names its numbers",
    ),
    _check(
        "unclear-message",
        "scenario-next-game-without-result",
        _s(("    derivation:", "      - next_game: true\n    derivation:")),
        17,
        "case scene: step 4: next_game needs the game's result first (a result check or a dropped double)",
    ),
    _check(
        "unclear-message",
        "scenario-opening-wrong-expect",
        _s(("expect: {starts: white, dice: [5, 3]}", "expect: {starts: white, winner: black}")),
        10,
        "case scene: step 1: an opening step expects starts, dice and cube",
    ),
    _check(
        "unclear-message",
        "scenario-nobody-on-roll",
        _s(("      - opening: {white: 5, black: 3}\n        expect: {starts: white, dice: [5, 3]}\n", "")),
        9,
        "case scene: step 1: nobody is on roll yet (start with an opening step or give 'turn')",
    ),
    _check(
        "unclear-message",
        "scenario-with-top-level-expect",
        _s(("    position: start\n", "    position: start\n    expect: {count: 1}\n")),
        3,
        "case scene: a scenario has 'steps' (each with its own expect), no top-level expect",
    ),
    _check(
        "unclear-message",
        "scenario-expectation-of-a-result-in-a-turn",
        _s(('expect: {includes: ["13/11 6/5"]}', "expect: {not_over: true}")),
        15,
        "case scene: step 3: not_over is not an expectation of legal plays",
    ),
    _check(
        "unclear-message",
        "unknown-rule-id",
        _g(("rules: [bg.move.closed-point]", "rules: [bg.move.no-such-rule]")),
        4,
        "case one: unknown rule bg.move.no-such-rule (no spec page defines it)",
    ),
    Fault(  # run refuses what check refuses, with the same line
        "lost-result",
        "run-cases-unknown-rule-id",
        ("run", "-q", "--cases", "{tmp}/c.yaml"),
        "gammonspec: {tmp}/c.yaml:4: case one: unknown rule bg.move.no-such-rule (no spec page defines it)",
        2,
        {"c.yaml": _g(("rules: [bg.move.closed-point]", "rules: [bg.move.no-such-rule]"))},
    ),
    _check(  # the ID cut in its middle, so that the line still says what is wrong
        "unclear-message",
        "case-id-of-600-characters",
        _g(("id: one", "id: " + "x" * 600), ("rules: [bg.move.closed-point]", "rules: [bg.move.no-such-rule]")),
        4,
        "case " + "x" * 30 + "…" + "x" * 28 + ": unknown rule bg.move.no-such-rule (no spec page defines it)",
    ),
    Fault(
        "unclear-message",
        "run-case-id-of-600-characters",
        ("run", "-q", "--cases", "{tmp}/c.yaml", "--json", "{tmp}/r.json", "--junit", "{tmp}/r.xml"),
        "gammonspec: {tmp}/c.yaml:4: case " + "x" * 30 + "…" + "x" * 28 + ": unknown rule bg.move.no-such-rule"
        " (no spec page defines it)",
        2,
        {"c.yaml": _g(("id: one", "id: " + "x" * 600), ("rules: [bg.move.closed-point]", "rules: [bg.move.no-such-rule]"))},
    ),
    Fault(
        "unclear-message",
        "duplicate-id-across-files",
        ("check", "--cases", "{tmp}/d"),
        "gammonspec: {tmp}/d/b.yaml:3: duplicate case id 'one' (first at {tmp}/d/a.yaml:3)",
        2,
        {"d/a.yaml": GOOD, "d/b.yaml": GOOD},
    ),
    _check(
        "unclear-message",
        "duplicate-id-in-one-file",
        GOOD + GOOD.split("cases:\n", 1)[1],
        14,
        "duplicate case id 'one' (first at {tmp}/c.yaml:3)",
    ),
    Fault(
        "unclear-message",
        "cases-path-missing",
        ("check", "--cases", "{tmp}/nope"),
        "gammonspec: {tmp}/nope: no such file or folder",
        2,
    ),
    _check(
        "unclear-message",
        "cases-path-not-yaml",
        GOOD,
        None,
        "not a case file: case files end in .yaml or .yml",
        name="c.json",
    ),
    _check(
        "unclear-message",
        "tab-indentation",
        _g(("    turn: white\n", "\tturn: white\n")),
        7,
        "malformed YAML: found a tab character that violates indentation",
    ),
    _check(
        "unclear-message",
        "duplicate-key",
        _g(("    turn: white\n", "    turn: white\n    turn: black\n")),
        8,
        "malformed YAML: duplicate key 'turn'",
    ),
    _check(
        "unclear-message",
        "unclosed-quote",
        _g(('        - "24/13"\n', '        - "24/13\n')),
        12,
        "malformed YAML: did not find expected '-' indicator",
    ),
    _check(
        "unclear-message",
        "mapping-in-a-value",
        _g(("    turn: white\n", "    turn: white: black\n")),
        7,
        "malformed YAML: mapping values are not allowed in this context",
    ),
    _check(
        "unclear-message",
        "unknown-field",
        _g(("    turn: white\n", "    turn: white\n    colour: red\n")),
        8,
        "cases/0/colour: Additional properties are not allowed ('colour' was unexpected)",
    ),
    _check(
        "unclear-message",
        "unknown-top-level-field",
        _g(("game: backgammon\n", "game: backgammon\nauthor: me\n")),
        2,
        "author: Additional properties are not allowed ('author' was unexpected)",
    ),
    _check(
        "unclear-message",
        "game-chess-in-file",
        _g(("game: backgammon", "game: chess")),
        1,
        "game: 'chess': not one of backgammon, narde, crazy-narde",
    ),
    _check(
        "unclear-message",
        "turn-red",
        _g(("turn: white", "turn: red")),
        7,
        "cases/0/turn: 'red': not one of white, black",
    ),
    _check(
        "unclear-message",
        "id-with-spaces",
        _g(("id: one", "id: Case One")),
        3,
        "cases/0/id: 'Case One' does not match '^[a-z0-9]+(-[a-z0-9]+)*$'",
    ),
    _check(
        "unclear-message",
        "id-is-a-date",
        _g(("id: one", "id: 2024-01-01")),
        3,
        "cases/0/id: datetime.date(2024, 1, 1) is not of type 'string'",
    ),
    _check(
        "unclear-message",
        "derivation-missing",
        _g(("    derivation: by hand, from the rules\n", "")),
        3,
        "cases/0: 'derivation' is a required property",
    ),
    _check(
        "unclear-message",
        "roll-of-seven",
        _g(("roll: [6, 5]", "roll: [7, 5]")),
        8,
        "cases/0/roll/0: 7 is greater than the maximum of 6",
    ),
    _check(
        "unclear-message", "roll-of-one-die", _g(("roll: [6, 5]", "roll: [6]")), 8, "cases/0/roll: [6] is too short (at least 2)"
    ),
    _check(  # an empty list expects nothing: the case would pass whatever the engine answers
        "lost-result",
        "empty-includes",
        _g(('plays:\n        - "24/13"\n        - "24/18 13/8"', "includes: []")),
        10,
        "cases/0/expect/includes: [] should be non-empty",
    ),
    _check(
        "lost-result",
        "empty-excludes-in-a-step",
        _s(('expect: {includes: ["8/3 6/3"]}', "expect: {excludes: []}")),
        12,
        "cases/0/steps/1/expect/excludes: [] should be non-empty",
    ),
    _check(
        "unclear-message",
        "sixteen-checkers",
        _g(("position: start", "position: {white: {13: 16}, black: {24: 15}}")),
        6,
        "cases/0/position/white/13: 16 is greater than the maximum of 15",
    ),
    _check(
        "unclear-message",
        "both-sides-on-a-point",
        _g(("position: start", "position: {white: {13: 15}, black: {12: 15}}")),
        6,
        "case one: impossible position: white's point 13 (black's 12) holds checkers of both sides",
    ),
    _check(
        "unclear-message",
        "point-25",
        _g(("position: start", "position: {white: {25: 1, 13: 14}, black: {24: 15}}")),
        6,
        "case one: impossible position: no point 25: a side's points are 1-24, plus bar and off",
    ),
    _check(
        "unclear-message",
        "no-expect",
        _g(('    expect:\n      plays:\n        - "24/13"\n        - "24/18 13/8"\n', "")),
        3,
        "case one: no 'expect'",
    ),
    _check(
        "unclear-message",
        "plays-case-without-roll",
        _g(("    roll: [6, 5]\n", "")),
        3,
        "case one: a legal-plays case needs a 'roll'",
    ),
    _check(
        "unclear-message",
        "plays-and-no-play",
        _g(("      plays:\n", "      no_play: true\n      plays:\n")),
        9,
        "case one: give either plays or no_play",
    ),
    _check(
        "unclear-message",
        "two-plays-one-position",
        _g(('"24/18 13/8"', '"24/18/13"')),
        12,
        "case one: '24/18/13' and '24/13' reach the same position: list it once",
    ),
    _check(
        "unclear-message",
        "result-in-a-plays-case",
        _g(('expect:\n      plays:\n        - "24/13"\n        - "24/18 13/8"', "expect: {not_over: true}")),
        9,
        "case one: not_over is not an expectation of legal plays",
    ),
    _check(
        "unclear-message",
        "play-from-an-empty-point",
        _g(('"24/13"', '"23/12"')),
        11,
        "case one: play '23/12': white has no checker on point 23",
    ),
    _check(
        "unclear-message",
        "play-unreadable",
        _g(('"24/13"', '"24-13"')),
        11,
        "case one: play '24-13': cannot read move '24-13' (expected e.g. 24/18, bar/22*, 6/off, 13/7(2))",
    ),
    _check(
        "unclear-message",
        "gnubgid-without-turn",
        _g(("position: start\n    turn: white", "gnubgid: 4HPwATDgc/ABMA")),
        3,
        "a gnubgid position needs 'turn' (the ID is from the side on roll's view)",
    ),
    _check(
        "unclear-message",
        "xgid-in-a-narde-file",
        _g(
            ("game: backgammon", "game: narde"),
            ("position: start", "xgid: XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"),
        ),
        6,
        "case one: xgid: position IDs describe positions of backgammon, not of narde",
    ),
    _check(
        "unclear-message",
        "unknown-switch",
        _g(("    turn: white\n", "    turn: white\n    requires: {no-such-switch: on}\n")),
        8,
        "case one: unknown switch 'no-such-switch' (known: hitting, opening, next-game-opener, doubles, unplayable, head-rule, head-exception, six-block, bear-off, home-frozen, scoring, draw, cube)",
    ),
    _check(
        "unclear-message",
        "unknown-switch-value",
        _g(("    turn: white\n", "    turn: white\n    requires: {hitting: sometimes}\n")),
        8,
        "case one: switch hitting has no value 'sometimes' (values: blots, none)",
    ),
    _check(
        "unclear-message",
        "unknown-option",
        _g(("    turn: white\n", "    turn: white\n    options: {no-such-option: true}\n")),
        8,
        "case one: unknown option 'no-such-option' (known: jacoby, beavers, automatic-doubles, coke-value, coke-any-checker)",
    ),
    _check(
        "unclear-message",
        "unknown-switch-in-file-requires",
        _g(("cases:\n", "requires: {no-such-switch: on}\ncases:\n")),
        2,
        "file requires: unknown switch 'no-such-switch' (known: hitting, opening, next-game-opener, doubles, unplayable, head-rule, head-exception, six-block, bear-off, home-frozen, scoring, draw, cube)",
    ),
    _check("unclear-message", "empty-case-list", "game: backgammon\ncases: []\n", 2, "cases: [] should be non-empty"),
    _check(
        "unclear-message", "not-a-mapping", "- game\n- cases\n", 1, "a case file is a mapping with 'game' and 'cases'"
    ),
    _check("unclear-message", "empty-file", "", 1, "a case file is a mapping with 'game' and 'cases'"),
    # --- the documents --------------------------------------------------------------------------
    Fault(
        "protocol-doc",
        "conventions-example-is-a-valid-case",
        ("check", "--cases", "{tmp}/example.yaml"),
        ONE_VALID,
        0,
        {"example.yaml": _conventions_example()},
        stream="stdout",
    ),
    # --- CLI misuse -----------------------------------------------------------------------------
    _usage(
        "ruleset-unknown",
        ("run", "--ruleset", "nosuch"),
        f"gammonspec: unknown ruleset nosuch (known: {KNOWN_RULESETS})",
    ),
    _usage(
        "expect-fail-missing",
        (*RUN_MINI, "--expect-fail", "{tmp}/nope.txt"),
        "gammonspec: {tmp}/nope.txt: cannot read: No such file or directory",
        MINI,
    ),
    _usage(
        "game-chess",
        ("run", "--game", "chess"),
        f"gammonspec run: argument --game: invalid choice: 'chess' (choose from {GAMES}) (see gammonspec run --help)",
    ),
    _usage(
        "rule-glob-malformed",
        ("run", "--rule", "[bg.move"),
        "gammonspec run: argument --rule: malformed pattern '[bg.move': '[' without a closing ']' (see gammonspec run --help)",
    ),
    _usage(
        "case-glob-malformed",
        ("run", "--case", "bg-[!x"),
        "gammonspec run: argument --case: malformed pattern 'bg-[!x': '[' without a closing ']' (see gammonspec run --help)",
    ),
    _usage(
        "rule-glob-matches-nothing",
        (*RUN_MINI, "--rule", "bg.nosuch.*"),
        "gammonspec: --rule 'bg.nosuch.*' matches no rule ID of the 6 in the cases loaded",
        MINI,
    ),
    _usage(
        "case-glob-matches-nothing",
        (*RUN_MINI, "--case", "zzz-*"),
        "gammonspec: --case 'zzz-*' matches no case id of the 6 in the cases loaded",
        MINI,
    ),
    _usage(
        "filters-match-no-pair",
        (*RUN_MINI, "--case", "mini-dance", "--rule", "bg.score.*"),
        "gammonspec: no case matches the filters",
        MINI,
    ),
    _usage("game-with-no-cases", (*RUN_MINI, "--game", "narde"), "gammonspec: no case matches the filters", MINI),
    _usage(  # a 100,000-character glob is quoted by its start and end, not echoed whole
        "case-glob-100000-characters",
        (*RUN_MINI, "--case", "x" * 100_000),
        f"gammonspec: --case '{'x' * 40}…{'x' * 39}' matches no case id of the 6 in the cases loaded",
        MINI,
    ),
    Fault(  # a shard past the selection is empty: said so, not "skipped all 0 cases"
        "unclear-message",
        "shard-past-a-one-case-selection",
        ("run", "-q", "--case", "bg-bar-enter-either-number-white", "--shard", "5/9"),
        "gammonspec: shard 5/9 is empty: the 1 (case, ruleset) pair selected fills fewer than 9 shards",
        2,
    ),
    Fault(  # no filter was given: the message says why nothing applies instead
        "unclear-message",
        "own-case-no-ruleset-admits",
        ("run", "-q", "--cases", "{tmp}/c.yaml"),
        "gammonspec: no case loaded (1) applies: the rulesets lack the switch values or options the cases require",
        2,
        {"c.yaml": _g(("    position: start\n", "    requires: {hitting: none}\n    position: start\n"))},
    ),
    _usage("timeout-inf", ("run", "--timeout", "inf"), NOT_NUMBER.format("inf")),
    _usage("timeout-zero", ("run", "--timeout", "0"), NOT_NUMBER.format("0")),
    _usage("timeout-past-the-clocks", ("run", "--timeout", "1e10"), NOT_NUMBER.format("1e10")),
    _usage(
        "json-over-the-case-file",
        (*RUN_MINI, "--json", "{tmp}/mini.yaml"),
        "gammonspec: {tmp}/mini.yaml: --json: the same file as --cases: a run never writes over what it uses",
        MINI,
    ),
    _usage(
        "junit-and-json-one-file",
        ("run", "-q", "--json", "{tmp}/r", "--junit", "{tmp}/r"),
        "gammonspec: {tmp}/r: --junit: the same file as --json: a run never writes over what it uses",
    ),
    _usage(
        "startup-timeout-past-the-clocks",
        ("run", "--startup-timeout", "1e10"),
        NOT_NUMBER.format("1e10").replace("--timeout", "--startup-timeout"),
    ),
    _usage("timeout-text", ("run", "--timeout", "soon"), NOT_NUMBER.format("soon")),
    _usage("no-command", (), "gammonspec: the following arguments are required: command (see gammonspec --help)"),
    _usage(
        "unknown-command",
        ("frobnicate",),
        "gammonspec: argument command: invalid choice: 'frobnicate' (choose from "
        + ", ".join(map(repr, COMMANDS))
        + ") (see gammonspec --help)",
    ),
    _usage(
        "run-unknown-option",
        ("run", "--no-such-option"),
        "gammonspec: unrecognized arguments: --no-such-option (see gammonspec --help)",
    ),
    _usage(
        "two-engines",
        ("run", "--engine", "reference", "--engine-cmd", "true"),
        "gammonspec run: argument --engine-cmd: not allowed with argument --engine (see gammonspec run --help)",
    ),
    _usage(
        "check-extra-argument",
        ("check", "cases/"),
        "gammonspec: unrecognized arguments: cases/ (see gammonspec --help)",
    ),
    _usage(
        "cases-option-without-path",
        ("check", "--cases"),
        "gammonspec check: argument --cases: expected one argument (see gammonspec check --help)",
    ),
    _usage(
        "matrix-game-missing",
        ("matrix", "--game"),
        "gammonspec matrix: argument --game: expected one argument (see gammonspec matrix --help)",
    ),
    _usage(
        "replay-no-file",
        ("replay",),
        "gammonspec replay: the following arguments are required: FILE (see gammonspec replay --help)",
    ),
    _usage(
        "replay-unreadable-transcript",
        ("replay", "{tmp}/match.mat"),
        "gammonspec: {tmp}/match.mat:5: cannot read '31' at column 6 (expected a roll like '31:' and its moves,"
        " 'Doubles => 2', 'Takes', 'Drops' or 'Wins 1 point')",
        {"match.mat": " 1 point match\n\n Game 1\n a : 0      b : 0\n  1) 31 x\n"},
    ),
    _usage(
        "replay-sgf-not-backgammon",
        ("replay", "{tmp}/go.sgf"),
        "gammonspec: {tmp}/go.sgf:1: not a backgammon game (GM[6])",
        {"go.sgf": "(;GM[1]SZ[19];B[pd])\n"},
    ),
    _usage(
        "replay-narde-ruleset",
        ("replay", "--ruleset", "narde-guide", "{tmp}/m.mat"),
        "gammonspec: no backgammon ruleset or profile selected (narde-guide): transcripts are backgammon matches;"
        " Narde and Crazy Narde have no transcript format to replay",
        {"m.mat": " 1 point match\n"},
    ),
    _check(
        "unclear-message",
        "fuzz-draft-in-a-suite",
        _g(("    title: a title\n", "    title: a title\n    draft: fuzz\n")),
        6,
        "case one: a draft found by fuzzing (draft: fuzz) is not a case yet: confirm its expectation by hand or by an"
        " independent method, write that in its derivation and remove 'draft'",
    ),
    _usage(
        "fuzz-unknown-kind",
        ("fuzz", "--kinds", "nope"),
        "gammonspec fuzz: argument --kinds: unknown kind nope (kinds: contact bar bear-off stragglers one-out"
        " race prime first-turn playout head mid home late block block-edge head-last home-one-out wide"
        " few frozen near-draw chain passed passed-start ended) (see gammonspec fuzz --help)",
    ),
    _usage(  # a long unknown value and more after it: the first cut in its middle, the rest counted, within 300
        "fuzz-unknown-kind-400-characters",
        ("fuzz", "--kinds", "x" * 400 + ",barr,cc"),
        "gammonspec fuzz: argument --kinds: unknown kind xxxxxx…xxxxx and 2 more (kinds: contact bar bear-off"
        " stragglers one-out race prime first-turn playout head mid home late block block-edge head-last home-one-out"
        " wide few frozen near-draw chain passed passed-start ended) (see gammonspec fuzz --help)",
    ),
]
