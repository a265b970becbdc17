"""The built site's disagreement matrix, results pages and site-wide metadata: what a rules committee and an
engine author read there (stakes, clause links, per-engine drill-down, badges, history), and no placeholder."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
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
    section = page.split('id="history"', 1)[1].split("<h2", 1)[0]
    drawn, every = section.split("Every run", 1)
    for p in sorted((ROOT / "site" / "results").glob("*.json")):
        data = json.loads(p.read_text())
        assert data["history"], p.name  # every shipped report carries its history
        name = data["engine"]["name"]
        line = drawn.split(f"<td>{name}</td>", 1)[1].split("</tr>", 1)[0]
        assert line.count("<circle") == len(data["history"]), p.name  # drawn: a dot a run
        for e in data["history"]:
            row = f"<td>{name}</td>\n<td>{e['suite']}</td>\n<td>{e['engine_version']}</td>"
            assert row in every, (p.name, e)
            assert f"{name} {e['engine_version']}, suite {e['suite']} ({e['date']})" in line, (p.name, e)


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
        section = page.split(f'id="{anchor}"', 1)[1].split("<h4", 1)[0].split("<h3", 1)[0]
        listed = re.findall(r"<li><span class=\"rf\"[^>]*></span><code>([^<]+)</code>: <a href=\"[^\"]*#([^\"]+)\"", section)
        assert sorted(listed) == failed, p.name  # each failing case of the engine once, linked to its case


def test_a_report_over_a_file_that_is_not_ours_starts_a_new_history(tmp_path: Path) -> None:
    from gammonspec.conformance.tools import engine_report

    for earlier in ('{"history": [{"suite": "dev-build", "engine_version": "1", "date": ""}]}', '{"history": [{}]}',
                    "not json", '["a list"]'):
        (tmp_path / "my-engine.json").write_text(earlier)
        path = engine_report.write(tmp_path, _report("0.1.0", "1.0", "2026-12-01", 6))
        assert [(e["suite"], e["passed"]) for e in json.loads(path.read_text())["history"]] == [("0.1.0", 6)], earlier


THIRDPARTY = ROOT / "engines" / "thirdparty"
RESULTS = ROOT / "site" / "results"


def _reports() -> dict[str, dict]:
    return {p.name: json.loads(p.read_text()) for p in sorted(RESULTS.glob("*.json"))}


def test_every_committed_report_validates_and_a_third_party_one_names_its_commit_and_licence() -> None:
    from gammonspec.conformance.tools import engine_report
    from gammonspec.model.validation import compiled

    sources = {p.parent.name: engine_report.source(p) for p in THIRDPARTY.glob("*/source.json")}
    seen = set()
    for name, data in _reports().items():
        assert compiled("report").failure(data) is None, name
        origin = data["engine"].get("source")
        if origin is None:
            continue
        seen.add(origin["name"])
        assert origin == sources[origin["name"]], name  # the report carries its source.json as it stands
        assert data["engine"]["adapter"] == origin["name"] and origin["licence"], name
        if "not_driven" in origin:
            assert data["not_driven"] == origin["not_driven"] and data["results"] == [], name
        else:  # driven: at a pinned commit, named in the version it reports, with results and identify's reading
            assert re.fullmatch(r"[0-9a-f]{40}", origin["commit"]) and origin["commit"][:7] in data["engine"]["version"]
            assert data["results"] and data["identified"], name
    assert seen == set(sources)  # every recipe has its committed report


def test_at_least_five_narde_family_third_party_engines_are_driven() -> None:
    driven = {
        data["engine"]["name"]
        for data in _reports().values()
        if data["engine"].get("adapter") != "reference" and not data.get("not_driven")
        and any(r["game"] in ("narde", "crazy-narde") and r["status"] != "skipped" for r in data["results"])
    }
    assert len(driven) >= 5, driven
    assert {"long-nardy-engine", "long-narde", "alexonov-backgammon", "backgammonjs-gulbara"} <= driven


def test_each_recipe_names_a_driver_and_the_files_it_loads() -> None:
    for path in THIRDPARTY.glob("*/source.json"):
        data = json.loads(path.read_text())
        if "not_driven" in data:
            assert "driver" not in data, path  # nothing is run for it
            continue
        assert (path.parent / data["driver"]).is_file() and data["needs"], path
        assert data["recipe"].startswith(f"python engines/thirdparty/recipe.py {data['name']} CHECKOUT"), path


def _recipe(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(THIRDPARTY / "recipe.py"), *args], capture_output=True, text=True, cwd=cwd)


def test_the_recipe_refuses_bad_input_in_one_line(tmp_path: Path) -> None:
    unknown = _recipe("no-such-engine", str(tmp_path))
    assert unknown.returncode == 2 and "no-such-engine: no " in unknown.stderr and "long-narde" in unknown.stderr
    no_checkout = _recipe("long-narde")
    assert no_checkout.returncode == 2 and "give the path of a checkout of MetinGames/Long-Narde" in no_checkout.stderr
    empty = _recipe("long-nardy-engine", str(tmp_path))  # a checkout without the JavaScript its build makes
    assert empty.returncode == 2 and "no dist/engine/long-nardy/engine.js" in empty.stderr
    assert len(empty.stderr.strip().splitlines()) == 1 and "Traceback" not in empty.stderr


def test_the_recipe_writes_a_report_with_the_engines_origin(tmp_path: Path) -> None:
    """A small fixture engine (the reference engine under another name) stands in for a third-party checkout."""
    from gammonspec.model.validation import compiled

    fixtures = ROOT / "tests" / "fixtures" / "thirdparty"
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / "engine.txt").write_text("a checkout\n")
    done = _recipe("--engines", str(fixtures), "--out", str(tmp_path / "out"), "fixture-narde", str(checkout))
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "out" / "fixture-narde.json").read_text())
    assert compiled("report").failure(data) is None
    assert data["engine"]["source"] == {k: v for k, v in json.loads((fixtures / "fixture-narde" / "source.json").read_text()).items() if k not in ("driver", "needs")}
    assert data["engine"]["version"] == "commit 0123456" and data["summary"]["failed"] == 0
    assert [f["closest_profile"] for f in data["identified"]] == ["narde-guide"]


def test_report_source_alone_writes_a_not_driven_report_and_a_bad_one_is_refused(tmp_path: Path) -> None:
    cli = [sys.executable, "-c", "import sys; from gammonspec.conformance.cli import main; sys.exit(main())", "report"]
    source = THIRDPARTY / "opornik" / "source.json"
    done = subprocess.run([*cli, "--out", str(tmp_path), "--source", str(source)], capture_output=True, text=True)
    assert done.returncode == 1 and "not driven" in done.stdout
    data = json.loads((tmp_path / "opornik.json").read_text())
    assert data["not_driven"].startswith("no copy of its repository") and data["engine"]["source"]["url"].endswith("/opornik")
    bad = tmp_path / "bad.json"
    bad.write_text('{"name": "x", "repository": "a/b", "url": "https://x", "licence": "MIT", "recipe": "r", "commit": "12"}')
    refused = subprocess.run([*cli, "--out", str(tmp_path), "--source", str(bad), "--engine-cmd", "true"],
                             capture_output=True, text=True)
    assert refused.returncode == 2 and "field 'commit': not a commit's 40 hex digits" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1


def _results_page(built: Path) -> str:
    return (built / "results" / "index.html").read_text()


def test_each_third_party_engine_links_its_project_commit_and_licence_and_a_not_driven_one_says_why(built: Path) -> None:  # noqa: F811
    import html

    page = _results_page(built)
    origins = page.split('id="where-each-engine-comes-from"', 1)[1].split("<h2", 1)[0]
    for data in _reports().values():
        origin = data["engine"].get("source")
        if origin:
            row = origins.split(f"<td>{data['engine']['name']}</td>", 1)[1].split("</tr>", 1)[0]
            assert f'href="{origin["url"]}"' in row and html.escape(origin["licence"]) in row, origin["name"]
            if "commit" in origin:
                assert f'/commit/{origin["commit"]}"' in row and f"<code>{origin['commit'][:7]}</code>" in row
        if data.get("not_driven"):
            assert f"<strong>{data['engine']['name']}</strong>: {html.escape(data['not_driven'])}" in origins


def test_the_interop_view_sets_each_rulesets_value_beside_each_engines_reading(built: Path) -> None:  # noqa: F811
    page = _results_page(built)
    view = page.split('id="interop-how-the-engines-read-each-rule"', 1)[1].split('id="history"', 1)[0]
    for game, title in (("narde", "Narde"), ("crazy-narde", "Crazy Narde")):
        table = view.split(f">{title}<", 1)[1].split("</table>", 1)[0]
        heads = re.findall(r"<th[^>]*>(.*?)</th>", table)
        names = [n for n, rs in sorted(rulesets().items()) if rs.game == game]
        engines = [(d["engine"]["name"], f) for d in _reports().values() if d["engine"].get("adapter") != "reference"
                   for f in d.get("identified") or [] if f["game"] == game]
        assert len(heads) == 1 + len(names) + len(engines), heads
        assert [n for n in names if f"#{n}" in " ".join(heads)] == names
        assert all(name in " ".join(heads) for name, _ in engines)
        rows = {re.search(r"#([a-z-]+)\"", r)[1]: re.findall(r"<td>(.*?)</td>", r) for r in table.split("<tr>")[2:]}
        assert "head-rule" in rows and "six-block" in rows, rows.keys()
        for switch, cells in rows.items():
            values = [re.sub(r"^[●■▲◆★] ", "", re.sub(r"<[^>]+>", "", c)).strip() for c in cells[1:]]
            assert values[: len(names)] == [rulesets()[n].switches[switch] for n in names], switch  # what each says
            for (engine, found), value in zip(engines, values[len(names):]):
                if switch in found["changes"]:  # a reading identify names: the engine's column shows it
                    assert value == found["changes"][switch], (engine, switch)


def test_failures_unique_to_one_engine_are_all_linked(built: Path) -> None:  # noqa: F811
    page = _results_page(built)
    section = page.split('id="failures-unique-to-one-engine"', 1)[1].split("<h3", 1)[0]
    failing: dict[str, set[str]] = {}
    for data in _reports().values():
        for r in data["results"]:
            if r["status"] in ("failed", "errored"):
                failing.setdefault(f"{r['ruleset']}::{r['id']}", set()).add(data["engine"]["name"])
    unique: dict[str, set[str]] = {}
    for key, who in failing.items():
        if len(who) == 1:
            unique.setdefault(next(iter(who)), set()).add(key)
    assert max(len(keys) for keys in unique.values()) > 12  # more than the twelve the page used to show
    for engine, keys in unique.items():
        block = section.split(f"<summary>{engine} ({len(keys)})</summary>", 1)[1].split("</details>", 1)[0]
        linked = set(re.findall(r'<a href="[^"]+#[^"]+"><code>([^<]+)</code></a>', block))
        assert linked == keys, engine


def test_no_board_of_a_cubeless_game_on_the_results_page_draws_a_cube(built: Path) -> None:  # noqa: F811
    page = (built / "results-by-rule" / "index.html").read_text()
    section = page.split('id="failures-by-rule"', 1)[1]
    drawn = {"narde": 0, "crazy-narde": 0, "backgammon-cube": 0}
    for item in section.split("<li>")[1:]:
        game = re.search(r'data-game="([a-z-]+)"', item)[1]
        for src in re.findall(r'<img[^>]+src="([^"]+\.svg)"', item.split("</li>", 1)[0]):
            svg = (built / "results-by-rule" / src).resolve().read_text()
            if game == "backgammon":
                drawn["backgammon-cube"] += 'class="cube"' in svg
            else:
                assert 'class="cube"' not in svg, (game, src)
                drawn[game] += 1
    assert all(drawn.values()), drawn  # each kind was looked at, and backgammon boards do draw their cube


def _driven_sources() -> list[str]:
    return sorted(p.parent.name for p in THIRDPARTY.glob("*/source.json") if "not_driven" not in json.loads(p.read_text()))


@pytest.mark.parametrize("name", _driven_sources())
def test_a_committed_report_is_made_again_by_its_recipe(name: str, tmp_path: Path) -> None:
    """With a checkout of the pinned commit at $GAMMONSPEC_CHECKOUTS/NAME (CI has none: skipped), the recipe gives
    the committed results again, case by case, and the same reading."""
    root = os.environ.get("GAMMONSPEC_CHECKOUTS")
    checkout = Path(root) / name if root else None
    if checkout is None or not checkout.is_dir():
        pytest.skip(f"no checkout of {name} (set GAMMONSPEC_CHECKOUTS to a folder holding one named {name})")
    done = _recipe("--out", str(tmp_path), name, str(checkout))
    assert done.returncode in (0, 1), done.stderr
    again, kept = json.loads((tmp_path / f"{name}.json").read_text()), json.loads((RESULTS / f"{name}.json").read_text())

    def statuses(data: dict) -> dict:
        return {(r["ruleset"], r["id"]): r["status"] for r in data["results"]}

    assert statuses(again) == statuses(kept)
    assert [f["closest_profile"] for f in again["identified"]] == [f["closest_profile"] for f in kept["identified"]]
