"""Links in the spec's prose, for the site: rule IDs to their clause, switch names (and values only one switch
has) to their definition, ruleset names to theirs, spec files to their page, and the first use on a page of a
term `conventions.md` defines to its definition. Code blocks, headings, tables and existing links are left alone."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from gammonspec.model.clauses import clauses
from gammonspec.model.rulesets import registry, rulesets

RULE_REF = re.compile(r"(?<![\w./#-])(?P<id>(?:bg|nd|cn)\.[a-z0-9-]+(?:\.[a-z0-9-]+)*)(?![\w-])")
_PARTS = re.compile(r"(`[^`]*`|\[[^\]]*\]\([^)]*\))")  # code spans and links: never linked inside
_SKIP = ("#", "    ", "```", "|", "<", "???", "!!!")  # headings, indented blocks, fences, tables, HTML, admonitions
FILES = {"conventions.md": "conventions.md", "switches.yaml": "switches.md", "protocol.md": "protocol.md"}
STATE_FIELDS = {"turn", "dice", "cube", "match", "segment", "context.first_turn", "context.rolls_in_game"}
STATE_FIELDS |= {"context.head_moves", "first_turn", "rolls_in_game", "head_moves"}
# The terms conventions.md defines, and where: linked at their first use on every other page.
TERMS = {
    r"rule IDs?": "rule-clauses",
    r"rule switch(?:es)?": "rulesets-and-switches",
    r"rulesets?": "rulesets-and-switches",
    r"segments?": "turns-in-segments",
    r"scenarios?": "scenarios",
    r"move notation": "move-notation",
    r"turn context": "turn-context",
    r"canonical key": "canonical-key-and-digest",
    r"digest": "canonical-key-and-digest",
    r"own point of view": "one-state-model-for-three-games",
}
_AFTER_RULESET = re.compile(r"\brulesets?\s*$", re.I)
_LIST = re.compile(r"\s*(?:,|,? and|,? or)\s*")
_TERM = re.compile(r"\b(?P<term>" + "|".join(TERMS) + r")\b", re.I)


@cache
def _unique_values() -> dict[str, str]:
    """Switch values that name one switch only (and no ruleset or source): value -> switch."""
    owners: dict[str, set[str]] = {}
    for name, spec in registry()["switches"].items():
        for value in spec["values"]:
            owners.setdefault(value, set()).add(name)
    names = set(rulesets()) | {rs.source for rs in rulesets().values()}
    return {v: next(iter(s)) for v, s in owners.items() if len(s) == 1 and v not in names}


def code_target(code: str, after_ruleset: bool) -> str | None:
    """Where a code span links, if anywhere. A source's ID is a ruleset's name only after the word ruleset(s)."""
    switches = registry()["switches"]
    pair = re.fullmatch(r"(?P<name>[a-z-]+)\s*(?:[:=]\s*(?P<value>[a-z0-9-]+))?", code)
    if (
        pair
        and pair["name"] in switches
        and (pair["value"] is None or pair["value"] in switches[pair["name"]]["values"])
    ):
        return f"switches.md#{pair['name']}"
    sources = {rs.source for rs in rulesets().values()}
    if code in rulesets() and (code not in sources or after_ruleset):
        return f"rulesets.md#{code}"
    if code in _unique_values():
        return f"switches.md#{_unique_values()[code]}"
    file = re.fullmatch(r"(?:spec/)?rulesets/(?P<name>[a-z-]+)\.yaml", code)
    if file and file["name"] in rulesets():
        return f"rulesets.md#{file['name']}"
    target = FILES.get(code.removeprefix("spec/"))
    if target:
        return target
    return "conventions.md#turn-context" if code in STATE_FIELDS else None


def _rule_link(own: str | None) -> Callable[[re.Match[str]], str]:
    """A rule ID as a link to its clause (an unknown one, or the clause's own, stays text)."""
    known = clauses()

    def rule(match: re.Match[str]) -> str:
        rid = match["id"]
        return f"[{rid}]({known[rid].path.name}#{rid})" if rid in known and rid != own else rid

    return rule


def link_rule_ids(text: str) -> str:
    """Rule IDs in a text (a case's derivation) as links, outside its code and links."""
    return _subs(text, [(RULE_REF, _rule_link(None))])


def link_line(line: str, own: str | None, page: str, seen: set[str]) -> str:
    """One line of prose with its links. `own`: the clause it belongs to (not linked to itself);
    `seen`: the terms already linked on this page (updated)."""
    if line.startswith(_SKIP):
        return line
    rule = _rule_link(own)

    def term(match: re.Match[str]) -> str:
        anchor = TERMS[next(t for t in TERMS if re.fullmatch(t, match["term"], re.I))]
        if page == "conventions.md" or anchor in seen:
            return match["term"]
        seen.add(anchor)
        return f"[{match['term']}](conventions.md#{anchor})"

    out, text, ruleset_before = [], "", False
    for i, part in enumerate(_PARTS.split(line)):
        if i % 2 == 0:
            text = part
            out.append(_subs(part, [(RULE_REF, rule), (_TERM, term)]))
        elif part.startswith("`"):  # a ruleset named after "ruleset(s)", or listed after one: "`a` and `b`"
            after = bool(_AFTER_RULESET.search(text)) or ruleset_before and bool(_LIST.fullmatch(text))
            target = code_target(part[1:-1], after)
            ruleset_before = bool(target and target.startswith("rulesets.md"))
            out.append(f"[{part}]({target})" if target and target != page else part)
        else:
            ruleset_before = False
            out.append(part)
    return "".join(out)


def _subs(text: str, rules: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]]) -> str:
    """Apply each substitution to the text outside the links the ones before it made."""
    for pattern, fn in rules:
        pieces = _PARTS.split(text)
        text = "".join(p if i % 2 else pattern.sub(fn, p) for i, p in enumerate(pieces))
    return text
