"""--jobs, --shard/--seed and `gammonspec merge`: the same results as one unsharded run in one process."""

from __future__ import annotations

import json

import pytest
from gammonspec.conformance import cli
from gammonspec.conformance.harness import jobs
from gammonspec.model.validation import compiled

SMALL = ["--ruleset", "narde-guide", "--rule", "nd.head.*"]  # a few dozen cases: cheap


def read(path) -> dict:
    """A report gammonspec wrote, checked against schema/report.schema.json, without the times."""
    data = json.loads(path.read_text())
    assert compiled("report").failure(data) is None, path
    for result in data.get("results", []):
        result.pop("time")  # the engine's time on a case differs from run to run
    return data


def test_shards_deal_every_item_out_once_whatever_the_seed():
    items = list(range(50))
    for seed in (0, 1, 99):
        shards = [jobs.select(items, jobs.Shard(i, 4, seed)) for i in range(1, 5)]
        assert sorted(x for s in shards for x in s) == items
        assert all(s == sorted(s) for s in shards) and all(len(s) in (12, 13) for s in shards)
    assert jobs.select(items, jobs.Shard(1, 4, 0)) != jobs.select(items, jobs.Shard(1, 4, 1))
    assert jobs.select(items, jobs.Shard(2, 4, 5)) == jobs.select(items, jobs.Shard(2, 4, 5))


def test_merged_shards_of_a_run_are_the_unsharded_report(tmp_path, capsys):
    assert cli.main(["run", "-q", *SMALL, "--json", str(tmp_path / "whole.json")]) == 0
    parts = [tmp_path / f"p{i}.json" for i in (1, 2, 3)]
    for i, part in enumerate(parts, 1):
        assert cli.main(["run", "-q", *SMALL, "--shard", f"{i}/3", "--seed", "11", "--json", str(part)]) == 0
    assert cli.main(["merge", *map(str, parts), "--json", str(tmp_path / "merged.json")]) == 0
    whole = read(tmp_path / "whole.json")
    assert read(tmp_path / "merged.json") == whole and whole["summary"]["passed"] > 10
    assert all(read(p)["shard"]["count"] == 3 and read(p)["plan"] for p in parts)


def test_jobs_give_the_outcomes_of_one_process(tmp_path, capsys):
    assert cli.main(["run", "-q", *SMALL, "--json", str(tmp_path / "one.json")]) == 0
    assert cli.main(["run", "-q", *SMALL, "--jobs", "2", "--json", str(tmp_path / "two.json")]) == 0
    assert read(tmp_path / "one.json") == read(tmp_path / "two.json")


def test_jobs_and_shards_count_the_same_perft_tree(tmp_path, capsys):
    whole, parts = tmp_path / "whole.json", [tmp_path / f"part{i}.json" for i in (1, 2, 3)]
    assert cli.main(["perft", "--ruleset", "narde-variant", "-d", "2", "--jobs", "2", "--json", str(whole)]) == 0
    for i, part in enumerate(parts, 1):
        args = ["perft", "--ruleset", "narde-variant", "-d", "2", "--shard", f"{i}/3", "--seed", "7"]
        assert cli.main([*args, "--json", str(part)]) == 0
    merged = tmp_path / "merged.json"
    assert cli.main(["merge", *map(str, parts), "--json", str(merged)]) == 0
    for path in (whole, *parts, merged):
        read(path)
    got, want = json.loads(merged.read_text()), json.loads(whole.read_text())
    assert got == want and want["tables"][0]["positions"] == 903
    sizes = [len(json.loads(p.read_text())["tables"][0]["units"]) for p in parts]
    assert sum(sizes) == len(want["tables"][0]["units"]) and min(sizes) > 0


@pytest.fixture
def shards(tmp_path):
    parts = [tmp_path / f"p{i}.json" for i in (1, 2)]
    for i, part in enumerate(parts, 1):
        assert cli.main(["run", "-q", *SMALL, "--shard", f"{i}/2", "--json", str(part)]) == 0
    return parts


@pytest.mark.parametrize(
    "which, message",
    [
        (lambda p: [p[0]], "are in no report (a shard missing?)"),
        (lambda p: [p[0], p[0], p[1]], "in more than one report (overlapping shards)"),
        (lambda p: [p[0], p[0].with_name("nonsense.json")], "not JSON"),
    ],
)
def test_merge_refuses_what_is_not_one_whole_campaign(shards, which, message, capsys):
    shards[0].with_name("nonsense.json").write_text("{")
    capsys.readouterr()
    assert cli.main(["merge", *map(str, which(shards)), "--json", str(shards[0].with_name("m.json"))]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_merge_refuses_an_output_that_is_one_of_its_shards(shards, capsys):
    before = shards[0].read_text()
    capsys.readouterr()
    assert cli.main(["merge", *map(str, shards), "--json", str(shards[0])]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"gammonspec: {shards[0]}: --json: the same file as a report being merged: a command never writes over what"
        " it reads\n"
    )
    assert shards[0].read_text() == before


def test_reports_of_failures_skips_errors_and_of_a_run_that_did_not_start_are_as_the_schema_says(tmp_path, capsys):
    statuses = set()
    for engine in ("fake_engines:DropOne", "fake_engines:Skips", "fake_engines:Raises"):
        path = tmp_path / "r.json"
        cli.main(["run", "-q", "--engine", engine, "--game", "backgammon", "--json", str(path)])
        statuses |= {r["status"] for r in read(path)["results"]}
    assert {"passed", "failed", "skipped", "errored"} <= statuses
    assert cli.main(["run", "-q", "--engine", "no_such_module:Engine", "--json", str(tmp_path / "e.json")]) == 2
    assert read(tmp_path / "e.json")["error"]


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.pop("results"), "(top): 'results' is a required property"),
        (lambda d: d["results"].append(42), "42 is not of type 'object'"),
        (lambda d: d["results"][0].update(status="weird"), "status: 'weird' is not one of"),
        (lambda d: d["engine"].pop("restarts"), "engine: 'restarts' is a required property"),
    ],
)
def test_merge_refuses_a_report_not_as_written(shards, change, message, capsys):
    data = json.loads(shards[0].read_text())
    change(data)
    shards[0].write_text(json.dumps(data))
    capsys.readouterr()
    assert cli.main(["merge", *map(str, shards), "--json", str(shards[0].with_name("m.json"))]) == 2
    err = capsys.readouterr().err
    assert f"{shards[0]}: not a gammonspec JSON report as written: " in err and message in err
    assert len(err.splitlines()) == 1


def test_merge_refuses_shards_of_different_campaigns(shards, tmp_path, capsys):
    other = tmp_path / "other.json"
    assert (
        cli.main(
            ["run", "-q", "--ruleset", "narde-guide", "--rule", "nd.block.*", "--shard", "2/2", "--json", str(other)]
        )
        == 0
    )
    assert cli.main(["merge", str(shards[0]), str(other), "--json", str(tmp_path / "m.json")]) == 2
    assert "not a shard of the same campaign" in capsys.readouterr().err


def test_fuzz_in_worker_processes_asks_every_state_once(tmp_path, capsys):
    out = tmp_path / "fuzz.json"
    args = ["fuzz", "--ruleset", "narde-guide", "--count", "21", "--jobs", "2", "-q", "--out", str(tmp_path / "d")]
    assert cli.main([*args, "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["targets"][0]["positions"] == 21 and not report["failures"]


def test_merge_reads_the_reports_gammonspec_report_writes(tmp_path, capsys):
    from pathlib import Path

    shipped = Path(__file__).resolve().parent.parent / "site" / "results" / "gammonspec-reference.json"
    assert cli.main(["merge", str(shipped), "--json", str(tmp_path / "m.json")]) == 0


def test_an_empty_shard_says_so(tmp_path, capsys):
    argv = ["run", "--case", "bg-higher-die-single-checker", "--ruleset", "backgammon", "--shard", "5/9"]
    assert cli.main([*argv, "--json", str(tmp_path / "s.json")]) == 2
    message = "shard 5/9 is empty: the 1 (case, ruleset) pair selected fills fewer than 9 shards"
    assert capsys.readouterr().err == f"gammonspec: {message}\n"
    assert json.loads((tmp_path / "s.json").read_text())["error"] == message
