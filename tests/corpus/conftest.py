"""The shared corpus ingested once per test run (shared by xdist workers through a lock file)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
CORPUS = SHARED / "corpus"


def _locked(path: Path):
    try:
        import fcntl
    except ImportError:  # no advisory locks on this platform: every worker ingests on its own
        return None
    handle = open(path, "w")
    fcntl.flock(handle, fcntl.LOCK_EX)
    return handle


@pytest.fixture(scope="session")
def corpus_workspace(tmp_path_factory) -> Path:
    """A workspace with ../shared/corpus ingested offline; read-only for the tests that use it."""
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is absent")
    from engine.pipeline import Pipeline

    base = tmp_path_factory.getbasetemp()
    shared = base.parent if base.name.startswith("popen-gw") else base  # xdist: one root for all workers
    root = shared / "corpus-workspace"
    lock = _locked(shared / "corpus-workspace.lock")
    try:
        done = root / "ingested.json"
        if not done.exists():
            results = Pipeline(root, workers=2).ingest(sorted(CORPUS.glob("*.pdf")))
            done.write_text(json.dumps([r.model_dump(mode="json") for r in results]), encoding="utf-8")
    finally:
        if lock is not None:
            lock.close()
    return root
