"""The ingest runner and the progress board, without a browser."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from app.runner import STAGES, Batch, IngestRunner, ProgressBoard, RunFinished, RunStarted
from browser_helpers import text_pdf
from engine.schemas import ProgressEvent
from engine.workspace import Workspace


def run_to_end(runner: IngestRunner, timeout: float = 60) -> list:
    messages, started = [], time.perf_counter()
    while time.perf_counter() - started < timeout:
        messages += runner.drain()
        if messages and isinstance(messages[-1], RunFinished) and not runner.running:
            return messages
        time.sleep(0.05)
    raise AssertionError("the run did not finish")


@pytest.mark.slow
def test_child_process_run_reports_progress_and_results(tmp_path: Path) -> None:
    pdfs = [text_pdf(tmp_path / "in" / f"doc{n}.pdf", f"Doc {n}", 3) for n in (1, 2)]
    staging = tmp_path / "staging"
    staging.mkdir()
    runner = IngestRunner(Workspace(tmp_path / "ws"))
    runner.submit(Batch(tuple(pdfs), label="two", cleanup=staging), workers=2)
    messages = run_to_end(runner)
    assert isinstance(messages[0], RunStarted)
    finished = messages[-1]
    assert finished.error is None and not finished.cancelled
    assert [r.status.value for r in finished.results] == ["ok", "ok"]
    board = ProgressBoard()
    for message in messages:
        board.apply(message)
    assert {d.status for d in board.docs.values()} == {"ok"}
    assert all(cell.status == "ok" for doc in board.docs.values() for cell in doc.stages.values())
    assert not staging.exists()  # the staging folder is removed after the run
    assert len(Workspace(tmp_path / "ws").records()) == 2
    assert len(list((tmp_path / "ws" / "index" / "docs").glob("*.npz"))) == 2  # the index stage ran (ask never writes)


def test_cancel_drops_waiting_batches_and_stops_the_run(tmp_path: Path) -> None:
    pdf = text_pdf(tmp_path / "in" / "doc.pdf", "Doc", 2)
    runner = IngestRunner(Workspace(tmp_path / "ws"), in_process=True)
    runner.submit(Batch((pdf,), label="first"))
    runner.submit(Batch((pdf,), label="second"))
    runner.cancel()
    messages = run_to_end(runner)
    finished = [m for m in messages if isinstance(m, RunFinished)]
    assert any(m.cancelled and m.batch.label == "second" for m in finished)


def test_board_folds_events_into_cells() -> None:
    board = ProgressBoard()
    assert board.apply(ProgressEvent(doc="a.pdf", stage="open", done=0, total=7, message="running"))
    assert not board.apply(ProgressEvent(doc="a.pdf", stage="read", done=5, total=10, message="pages"))
    doc = board.docs["a.pdf"]
    assert doc.status == "running" and doc.stages["read"].done == 5 and 0 < doc.fraction < 1
    board.apply(ProgressEvent(doc="a.pdf", stage="done", done=1, total=1, message="failed: broken"))
    assert doc.status == "failed" and doc.message == "broken" and doc.fraction == 1.0
    assert any("failed: broken" in line for line in board.log)
    board.apply(ProgressEvent(doc="b.pdf", stage="done", done=1, total=1, message="cached"))
    assert {c.status for c in board.docs["b.pdf"].stages.values()} == {"cached"}
    assert list(board.docs["b.pdf"].stages) == list(STAGES)


@pytest.mark.slow
def test_cancel_ends_the_child_process_and_its_workers(tmp_path: Path) -> None:
    """Cancel stops a child-process run within its grace period, workers included; documents stay resumable."""
    import os

    from app.runner import CANCEL_GRACE
    from engine.procs import alive, descendants

    pdfs = [text_pdf(tmp_path / "in" / f"long{n}.pdf", f"Long {n}", 120) for n in range(4)]
    runner = IngestRunner(Workspace(tmp_path / "ws"))
    runner.submit(Batch(tuple(pdfs), label="long"), workers=2)
    deadline, procs = time.monotonic() + 60, []
    while time.monotonic() < deadline:  # the child and its two workers are up
        procs = [p for p in descendants(os.getpid())
                 if b"resource_tracker" not in open(f"/proc/{p}/cmdline", "rb").read()]
        if len(procs) >= 3:
            break
        time.sleep(0.05)
    assert len(procs) >= 3, procs
    runner.cancel()
    messages = run_to_end(runner, timeout=CANCEL_GRACE + 20)
    assert messages[-1].cancelled
    deadline = time.monotonic() + 5
    while any(alive(p) for p in procs) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [p for p in procs if alive(p)] == []
    records = Workspace(tmp_path / "ws").records()
    assert {r.status.value for r in records} <= {"pending", "ok"}
    # stopped between stages or ended mid-stage, a document left pending says why
    assert all(r.error == "cancelled" for r in records if r.status.value == "pending")
