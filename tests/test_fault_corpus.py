"""The fault corpus (tests/faults/*.yaml, run by tests/fault_corpus.py): every kind of fault gets its documented
error and status; a malformed entry is refused at load, named with its file."""

from __future__ import annotations

import os
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fault_corpus import CorpusError, Fault, Result, check, corpus, provoke

FAULTS = corpus()


@pytest.fixture(scope="session")
def provoked(request) -> dict[str, tuple[Result, Path]]:
    """Each selected fault provoked once, a few at a time (each in its own folder)."""
    chosen = [
        item.callspec.params["fault"]
        for item in request.session.items
        if getattr(item, "originalname", None) == "test_fault" and hasattr(item, "callspec")
    ]
    root = Path(tempfile.mkdtemp(prefix="fault-corpus-"))

    def one(fault: Fault) -> tuple[str, tuple[Result, Path]]:
        tmp = root / fault.kind
        tmp.mkdir()
        return fault.kind, (provoke(fault, tmp), tmp)

    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        return dict(pool.map(one, chosen))


@pytest.mark.parametrize("fault", FAULTS, ids=[f.kind for f in FAULTS])
def test_fault(fault: Fault, provoked) -> None:
    result, tmp = provoked[fault.kind]
    check(fault, result, tmp)


_ENTRY = "- class: cli-misuse\n  kind: no-command\n  argv: []\n  first_line: 'gammonspec: x'\n  status: 2\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (_ENTRY.replace("status: 2", "status: 3"), "area.yaml: entry 1 (no-command): status: 3 is not one of [0, 1, 2, 4]"),
        (_ENTRY.replace("cli-misuse", "misuse"), "area.yaml: entry 1 (no-command): class: 'misuse' is not one of"),
        (_ENTRY.replace("  status: 2\n", ""), "area.yaml: entry 1 (no-command): the entry: 'status' is a required property"),
        (_ENTRY + "  colour: red\n", "area.yaml: entry 1 (no-command): the entry: Additional properties are not allowed"),
        (_ENTRY + "  status: 1\n", "area.yaml: cannot read: key 'status' given twice"),
        (_ENTRY + "  files: {c.yaml: {base: good, replace: [[nowhere, x]]}}\n", "area.yaml: entry 1 (no-command): replace: 'nowhere' occurs 0 times"),
        (_ENTRY + _ENTRY, "area.yaml: kind no-command already in area.yaml"),
        ("{}\n", "area.yaml: a corpus file is a non-empty list of entries"),
    ],
    ids=["status", "class", "missing-field", "unknown-field", "key-twice", "replace-not-found", "kind-twice", "not-a-list"],
)
def test_a_malformed_entry_is_named_at_load(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "area.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(CorpusError) as raised:
        corpus(tmp_path)
    assert str(raised.value).startswith(message), raised.value


def test_the_corpus_files_load_each_kind_once() -> None:
    kinds = [f.kind for f in FAULTS]
    assert len(kinds) == len(set(kinds)) >= 256
    assert all(f.first_line and "{x*" not in f.first_line and "{commands}" not in f.first_line for f in FAULTS)
