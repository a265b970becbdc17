"""The `distributed` extra: perft and fuzz on a Dask LocalCluster give what they give on one process.

The cluster's workers are threads of the test process (`--dask local-threads`): it starts in a moment,
and the tasks, their engines (one per worker) and the gathering of results are the same as on a cluster
of processes or machines (`--dask local`, `--dask ADDRESS`)."""

from __future__ import annotations

import json

import pytest
from gammonspec.conformance import cli

pytest.importorskip("distributed")


def test_perft_on_a_local_cluster_counts_the_published_tree(tmp_path, capsys):
    out = tmp_path / "perft.json"
    args = [
        "perft",
        "--ruleset",
        "narde-guide",
        "-d",
        "2",
        "--dask",
        "local-threads",
        "--jobs",
        "2",
        "--json",
        str(out),
    ]
    assert cli.main(args) == 0
    assert "330 positions, 1110 over 36 rolls" in capsys.readouterr().out
    assert json.loads(out.read_text())["tables"][0]["weighted"] == 1110


def test_fuzz_on_a_local_cluster_finds_a_planted_bug_and_nothing_in_the_reference(tmp_path, capsys):
    base = ["fuzz", "--ruleset", "narde-guide", "--count", "40", "--dask", "local-threads", "--jobs", "2", "-q"]
    assert cli.main([*base, "--out", str(tmp_path / "none"), "--json", str(tmp_path / "ok.json")]) == 0
    clean = json.loads((tmp_path / "ok.json").read_text())
    assert clean["targets"][0]["positions"] == 40 and not clean["failures"]
    planted = [
        "fuzz",
        "--ruleset",
        "backgammon",
        "--engine",
        "mutant_engine:BarIgnored",
        "--count",
        "30",
        "--max-failures",
        "1",
        "-q",
    ]
    drafts, found = tmp_path / "drafts", tmp_path / "found.json"
    assert (
        cli.main([*planted, "--dask", "local-threads", "--jobs", "2", "--out", str(drafts), "--json", str(found)]) == 1
    )
    failures = json.loads(found.read_text())["failures"]
    assert failures and sum(f["states"] for f in failures) >= 1 and list(drafts.glob("*.yaml"))
    capsys.readouterr()
