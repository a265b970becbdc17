"""The site builds strictly, and shows what the spec promises: cases under clauses, generated tables."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("mkdocs", reason="the site extra is not installed")
    out = tmp_path_factory.mktemp("site")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "-q",
            "-f",
            str(ROOT / "site" / "mkdocs.yml"),
            "-d",
            str(out),
        ],
        capture_output=True,
        text=True,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode == 0, run.stderr
    return out


def test_clauses_link_their_cases(built: Path) -> None:
    page = (built / "backgammon" / "index.html").read_text()
    assert 'href="../cases-backgammon/#bg-opening-65-run-or-split"' in page


def test_disagreement_table_is_generated(built: Path) -> None:
    page = (built / "disagreements" / "index.html").read_text()
    assert "<!-- disagreements" not in page
    assert "head-exception" in page and "first-turn-3-4-6" in page


def test_cases_page_draws_boards(built: Path) -> None:
    page = (built / "cases-backgammon" / "index.html").read_text()
    assert "W = white on roll" in page
    scenarios = (built / "cases-crazy-narde" / "index.html").read_text()
    assert "(passed)" in scenarios and "opening roll: white" in scenarios
