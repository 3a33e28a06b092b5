"""The Pipeline page's board tells the truth: a run starts clean with its documents queued, a document's time
is its own in this run, nothing that did not run gets a time, and a cancelled run marks what it did not finish."""

from __future__ import annotations

from pathlib import Path

from app.runner import Batch, ProgressBoard, RunFinished, RunStarted, queued_names
from engine.schemas import IngestResult, ProgressEvent, Status


def _event(doc: str, stage: str, message: str) -> ProgressEvent:
    return ProgressEvent(doc=doc, stage=stage, done=1, total=1, message=message)


def _result(name: str, seconds: float, status: Status = Status.OK) -> IngestResult:
    return IngestResult(doc_id="x", file_name=name, pages=1, format="portrait", status=status, seconds=seconds)


def test_queued_names_from_files_and_folders(tmp_path: Path):
    (tmp_path / "pdfs" / "sub").mkdir(parents=True)
    for name in ("a.pdf", "sub/B.PDF", "notes.txt"):
        (tmp_path / "pdfs" / name).write_bytes(b"%PDF-")
    batch = Batch((tmp_path / "pdfs", tmp_path / "upload.pdf"))
    assert queued_names(batch) == ["a.pdf", "sub/B.PDF", "upload.pdf"]


def test_a_new_run_clears_the_last_one_and_queues_its_documents(tmp_path: Path):
    board = ProgressBoard()
    board.apply(RunStarted(Batch((tmp_path / "old.pdf",), label="first")))
    board.apply(_event("old.pdf", "open", "running"))
    board.apply(_event("old.pdf", "done", "ok"))
    board.apply(RunFinished(Batch(()), (_result("old.pdf", 1.9),), seconds=2.0))
    assert board.docs["old.pdf"].seconds == 1.9  # the engine's measure replaces the page's

    board.apply(RunStarted(Batch((tmp_path / "New: report.PDF",), label="second")))
    assert list(board.docs) == ["New: report.PDF"]
    assert board.docs["New: report.PDF"].status == "queued" and board.docs["New: report.PDF"].fraction == 0.0
    board.apply(_event("New_ report.pdf", "open", "running"))  # reported under its sanitised name: same row
    assert list(board.docs) == ["New_ report.pdf"] and board.docs["New_ report.pdf"].status == "running"


def test_a_cached_document_has_no_time():
    board = ProgressBoard()
    board.apply(RunStarted(Batch((), label="all")))
    board.apply(_event("a.pdf", "done", "cached"))
    board.apply(RunFinished(Batch(()), (_result("a.pdf", 0.0),), seconds=376.0))
    doc = board.docs["a.pdf"]
    assert doc.status == "cached" and doc.seconds is None
    # stages that were cached in a run that went on to run others: the document's time is this run's only
    board.apply(RunStarted(Batch((), label="again")))
    board.apply(_event("a.pdf", "open", "cached"))
    board.apply(_event("a.pdf", "read", "running"))
    board.apply(_event("a.pdf", "read", "ok"))
    board.apply(_event("a.pdf", "done", "ok"))
    assert board.docs["a.pdf"].seconds is not None and board.docs["a.pdf"].seconds < 60


def test_cancel_marks_what_did_not_finish_and_times_only_what_began(tmp_path: Path):
    board = ProgressBoard()
    batch = Batch((tmp_path / "a.pdf", tmp_path / "b.pdf", tmp_path / "c.pdf"), label="three")
    board.apply(RunStarted(batch))
    board.apply(_event("a.pdf", "open", "running"))
    board.apply(_event("a.pdf", "done", "ok"))
    board.apply(_event("b.pdf", "open", "running"))
    board.apply(RunFinished(batch, cancelled=True, seconds=5.0))
    a, b, c = (board.docs[n] for n in ("a.pdf", "b.pdf", "c.pdf"))
    assert a.status == "ok" and b.status == "cancelled" and c.status == "cancelled"
    assert b.seconds is not None and b.seconds < 5.0 and c.seconds is None  # c never began
    assert b.stages["open"].status == "cancelled" and c.fraction == 1.0
    assert board.log[-1].startswith("Run cancelled: three")


def test_a_queued_name_that_never_reports_is_dropped_when_the_run_ends(tmp_path: Path):
    board = ProgressBoard()
    board.apply(RunStarted(Batch((tmp_path / "x.pdf",), label="one")))
    board.apply(_event("x-2.pdf", "done", "ok"))  # stored under a freed name
    board.apply(RunFinished(Batch(()), (_result("x-2.pdf", 0.5),), seconds=1.0))
    assert list(board.docs) == ["x-2.pdf"]
