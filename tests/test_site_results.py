"""The built site's disagreement matrix, results pages and site-wide metadata: what a rules committee and an
engine author read there (stakes, clause links, per-engine drill-down, badges, history), and no placeholder."""

from __future__ import annotations

import json
import re
from pathlib import Path

from gammonspec.model.clauses import clauses
from gammonspec.model.rulesets import registry, rulesets

from tests.test_site import ROOT


def test_every_switch_value_has_words_and_its_clauses_are_of_games_that_take_it() -> None:
    for name, spec in registry()["switches"].items():
        for rs in rulesets().values():
            assert rs.switches[name] in spec["plain"], (name, rs.switches[name])
        for value, listed in spec["clauses"].items():
            games = {rs.game for rs in rulesets().values() if rs.switches[name] == value}
            for rule in listed:
                assert rule in clauses(), (name, value, rule)
                assert clauses()[rule].path.stem in games, (name, value, rule)
            assert len({clauses()[r].path.stem for r in listed}) == len(listed), (name, value)  # one per game


def _cells(page: str, switch: str) -> list[str]:
    row = re.search(rf'<tr><th title="topic: [^"]+"><a href="[^"]*#{switch}">.*?</tr>', page)
    assert row, switch
    return re.findall(r"<td.*?</td>", row[0])


def test_matrix_gives_stakes_and_links_each_value_to_the_clause_that_states_it(built: Path) -> None:  # noqa: F811
    page = (built / "disagreements" / "index.html").read_text()
    scoring = _cells(page, "scoring")  # backgammon, narde-guide, narde-variant, crazy-narde, gul-bara
    assert "1 / 2 / 3 points (single, gammon, backgammon)" in scoring[0] and "= single-gammon-backgammon" in scoring[0]
    assert "1 / 2 / 3 points (oin, mars, coke)" in scoring[1] and "scoring = oin-mars-coke" in scoring[1]
    assert 'href="../narde/#nd.score.coke"' in scoring[1]
    cube = _cells(page, "cube")
    assert 'href="../backgammon/#bg.cube.faces"' in cube[0] and "bg.cube.dead" not in cube[0]
    assert "nd.score.oin" not in cube[1] and 'href="../switches/#cube"' in cube[1]  # no Narde clause states it
    assert 'href="../crazy-narde/#cn.cube.none"' in cube[4]
    assert 'href="../backgammon/#bg.opening.every-game"' in _cells(page, "next-game-opener")[0]
    assert "<th>options</th>" in page and "coke-value (3 / 2)" in page
    assert 'data-md-type="navigation" hidden' not in page  # the page keeps the navigation
    narde = (built / "narde" / "index.html").read_text()
    assert (
        "The same in all of them:" in narde
        and 'href="../switches/#hitting"><code>hitting</code></a>: no hitting' in narde
    )


def test_no_placeholder_host_and_canonical_links_only_from_the_deployed_address(built: Path, monkeypatch) -> None:  # noqa: F811
    from mkdocs.config import load_config

    home = (built / "index.html").read_text()
    assert 'rel="canonical"' not in home and "<loc>" not in (built / "sitemap.xml").read_text()
    assert not any("example.org" in p.read_text() for p in built.rglob("*.html"))
    monkeypatch.setenv("GAMMONSPEC_SITE_URL", "https://rules.example.net/gammonspec/")
    assert load_config(str(ROOT / "site" / "mkdocs.yml"))["site_url"] == "https://rules.example.net/gammonspec/"


def test_every_reported_suite_version_is_a_released_changelog_entry() -> None:
    """The site shows results dated against a suite version: that version has a dated entry, not "unreleased"."""
    changelog = (ROOT / "CHANGELOG.md").read_text()
    versions = {json.loads(p.read_text())["suite"]["version"] for p in (ROOT / "site" / "results").rglob("*.json")}
    assert versions
    for v in versions:
        assert re.search(rf"^## {re.escape(v)} \(\d{{4}}-\d\d-\d\d\)$", changelog, re.M), f"{v}: no dated entry"


def test_perft_page_holds_the_published_tables_as_a_plain_file() -> None:
    """spec/perft.md read as a file has the tables its text announces, the same as cases/perft."""
    from gammonspec.conformance.tools.perft import published, with_tables

    text = (ROOT / "spec" / "perft.md").read_text()
    fix = "python -c 'from pathlib import Path; from gammonspec.conformance.tools.perft import with_tables as w; "
    fix += 'p = Path("spec/perft.md"); p.write_text(w(p.read_text()))\''
    assert text == with_tables(text), f"spec/perft.md: its tables differ from cases/perft; run {fix}"
    block = text.split("<!-- perft-tables:", 1)[1].split("<!-- /perft-tables -->", 1)[0]
    for name, table in published().items():
        for depth, row in table.depths.items():
            assert f"| `{name}` | {depth} | {row['positions']:,} |" in block, (name, depth)
    assert text.index("The tables below") < text.index("<!-- perft-tables:")


def _report(suite: str, engine_version: str, date: str, passed: int) -> dict:
    summary = {"total": 10, "passed": passed, "failed": 10 - passed, "errored": 0, "skipped": 0}
    return {"suite": {"version": suite}, "engine": {"name": "My Engine", "version": engine_version},
            "summary": summary, "date": date, "results": []}


def test_a_report_keeps_the_engines_history_over_suite_versions(tmp_path: Path) -> None:
    from gammonspec.conformance.tools import engine_report

    path = engine_report.write(tmp_path, _report("0.1.0", "1.0", "2026-12-01", 6))
    engine_report.write(tmp_path, _report("0.10.0", "1.0", "2026-12-03", 9))  # a newer suite: a new entry
    engine_report.write(tmp_path, _report("0.2.0", "1.0", "2026-12-02", 7))
    engine_report.write(tmp_path, _report("0.10.0", "1.0", "2026-12-04", 8))  # same versions: replaces its entry
    engine_report.write(tmp_path, _report("0.10.0", "1.1", "2026-12-05", 10))  # a new engine version: kept apart
    history = json.loads(path.read_text())["history"]
    assert path.name == "my-engine.json"
    assert [(e["suite"], e["engine_version"], e["passed"]) for e in history] == [
        ("0.1.0", "1.0", 6), ("0.2.0", "1.0", 7), ("0.10.0", "1.0", 8), ("0.10.0", "1.1", 10)
    ]


def test_results_page_shows_each_engines_history(built: Path) -> None:  # noqa: F811
    page = (built / "results" / "index.html").read_text()
    history = page.split('id="history"', 1)[1].split("</table>", 1)[0]
    for p in sorted((ROOT / "site" / "results").glob("*.json")):
        data = json.loads(p.read_text())
        assert data["history"], p.name  # every shipped report carries its history
        for e in data["history"]:
            row = f"<td>{data['engine']['name']}</td>\n<td>{e['suite']}</td>\n<td>{e['engine_version']}</td>"
            assert row in history, (p.name, e)


def test_a_failure_count_of_the_grid_drills_down_to_that_engines_failing_cases(built: Path) -> None:  # noqa: F811
    page = (built / "results" / "index.html").read_text()
    for p in sorted((ROOT / "site" / "results").glob("*.json")):
        data = json.loads(p.read_text())
        failed = sorted({(r["ruleset"], r["id"]) for r in data["results"] if r["status"] in ("failed", "errored")})
        anchor = "failures-" + re.sub(r"[^a-z0-9]+", "-", data["engine"]["name"].lower()).strip("-")
        if not failed:
            assert f'id="{anchor}"' not in page, p.name
            continue
        assert f'href="#{anchor}"' in page, p.name  # the grid's count links down
        section = page.split(f'id="{anchor}"', 1)[1].split("<h3", 1)[0].split("<h2", 1)[0]
        listed = re.findall(r"<li><code>([^<]+)</code>: <a href=\"[^\"]*#([^\"]+)\"", section)
        assert sorted(listed) == failed, p.name  # each failing case of the engine once, linked to its case


def test_a_report_over_a_file_that_is_not_ours_starts_a_new_history(tmp_path: Path) -> None:
    from gammonspec.conformance.tools import engine_report

    for earlier in ('{"history": [{"suite": "dev-build", "engine_version": "1", "date": ""}]}', '{"history": [{}]}',
                    "not json", '["a list"]'):
        (tmp_path / "my-engine.json").write_text(earlier)
        path = engine_report.write(tmp_path, _report("0.1.0", "1.0", "2026-12-01", 6))
        assert [(e["suite"], e["passed"]) for e in json.loads(path.read_text())["history"]] == [("0.1.0", 6)], earlier
