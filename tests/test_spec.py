"""The spec as a whole: every clause covered or excused, the disagreement matrix complete, rule IDs findable in code."""

from __future__ import annotations

import re
from pathlib import Path

from gammonspec.conformance.harness.cases import suite
from gammonspec.conformance.harness.coverage import MIN_CASES, cases_by_rule, problems
from gammonspec.conformance.tools.matrix import fill
from gammonspec.model.clauses import clauses
from gammonspec.model.rulesets import registry, rulesets

ROOT = Path(__file__).resolve().parent.parent


def test_every_clause_is_covered_or_excused() -> None:
    assert problems(suite()) == []
    by_rule = cases_by_rule(suite())
    for clause in clauses().values():
        if clause.status == "testable":
            assert len(by_rule[clause.id]) >= MIN_CASES, clause.id
        else:
            assert clause.reason, clause.id
    assert not [c.id for c in clauses().values() if c.status == "deferred"], "no clause is left for later"


def test_every_source_has_a_spec_page_with_clauses() -> None:
    cited = " ".join(path.read_text() for path in (ROOT / "spec").glob("*.md"))
    for source in ("vog-backgammon", "narde-guide", "narde-variant", "vog-crazy-narde", "gul-bara"):
        assert f"**Source:** `{source}`" in cited or f"`{source}`, " in cited, source
    for prefix, page in (("bg.", "backgammon.md"), ("nd.", "narde.md"), ("cn.", "crazy-narde.md")):
        assert any(c.id.startswith(prefix) and c.path.name == page for c in clauses().values())


def test_combined_matrix_lists_every_disagreement_of_the_sources() -> None:
    table = fill("<!-- disagreements: all -->")
    topics = {spec["topic"] for spec in registry()["switches"].values()}
    for topic in (
        "opening",
        "doubles",
        "unplayable numbers",
        "head rule",
        "six-block",
        "bear-off",
        "scoring",
        "draws",
        "doubling cube",
    ):
        assert topic in topics
        assert f"| {topic} |" in table, topic
    for name in rulesets():
        assert f"`{name}`" in table


def test_rulesets_and_sources_use_registered_switch_values() -> None:
    for name, spec in registry()["switches"].items():
        taken = {rs.switches[name] for rs in rulesets().values()}
        assert taken <= set(spec["values"]), name
        assert set(spec["sources"]) <= set(spec["values"]), name
        assert set(spec.get("decided", {})) <= set(spec["values"]), name
        stated = [s for group in spec["sources"].values() for s in group]
        chosen = [s for group in spec.get("decided", {}).values() for s in group]
        assert len(set(stated + chosen)) == len(stated + chosen), name  # a source in one of the two, once


def test_every_ruleset_source_is_stated_or_decided_for_its_value() -> None:
    """Each ruleset's value of each switch is either stated by its source or decided for it (the matrix marks which)."""
    for name, spec in registry()["switches"].items():
        for rs in rulesets().values():
            value = rs.switches[name]
            listed = [*spec["sources"].get(value, []), *spec.get("decided", {}).get(value, [])]
            assert rs.source in listed, (name, value, rs.name)


def test_matrix_marks_decided_values_with_a_legend() -> None:
    table = fill("<!-- disagreements: all -->")
    row = next(line for line in table.splitlines() if line.startswith("| draws |"))
    # backgammon, narde-guide, narde-variant, crazy-narde, gul-bara: only narde-guide states "no draw"
    assert row.split(" | ")[2:] == ["`none` *", "`none`", "`none` *", "`both-blocked`", "`none` * |"]
    assert "\\* decided: the ruleset's text is silent on the point, or does not settle the reading" in table


def test_a_source_both_stated_and_decided_is_refused(tmp_path, monkeypatch) -> None:
    import pytest
    from gammonspec.model import rulesets as ruleset_module
    from gammonspec.model.yamlio import DataError

    text = (ROOT / "spec" / "switches.yaml").read_text()
    bad = text.replace(
        "    decided: {none: [narde-guide, narde-variant]}", "    decided: {none: [narde-guide, gul-bara]}"
    )
    assert bad != text
    (tmp_path / "switches.yaml").write_text(bad)
    monkeypatch.setattr(ruleset_module, "SPEC_DIR", tmp_path)
    ruleset_module.registry.cache_clear()
    try:
        with pytest.raises(DataError, match="switch cube: source gul-bara is in both sources and decided"):
            ruleset_module.registry()
    finally:
        ruleset_module.registry.cache_clear()


def test_rule_ids_in_the_reference_engine_exist_in_the_spec() -> None:
    code = " ".join(path.read_text() for path in (ROOT / "reference").glob("*.py"))
    named = set(re.findall(r"\b((?:bg|nd|cn)\.[a-z]+\.[a-z0-9-]+)", code))
    assert named, "the engine's docstrings name rule IDs"
    assert named <= set(clauses()), sorted(named - set(clauses()))


def test_a_stated_value_without_the_sources_words_is_refused(tmp_path, monkeypatch) -> None:
    """Every source that states a value says where and what (`words`), so the matrix's ● can name it."""
    import pytest
    from gammonspec.model import rulesets as ruleset_module
    from gammonspec.model.yamlio import DataError

    text = (ROOT / "spec" / "switches.yaml").read_text()
    bad = text.replace('      none: {gul-bara: "the stake is never doubled"}\n', "")
    assert bad != text
    (tmp_path / "switches.yaml").write_text(bad)
    monkeypatch.setattr(ruleset_module, "SPEC_DIR", tmp_path)
    ruleset_module.registry.cache_clear()
    try:
        with pytest.raises(DataError, match=r"switch cube: words of 'none' name \[\]; every source that states it"):
            ruleset_module.registry()
    finally:
        ruleset_module.registry.cache_clear()
