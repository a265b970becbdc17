"""The fault corpus (tests/fault_corpus.py): every kind of fault gets its documented error and status."""

from __future__ import annotations

import os
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fault_corpus import Fault, Result, check, corpus, provoke

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
