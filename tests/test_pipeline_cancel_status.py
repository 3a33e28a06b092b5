"""A cancelled run leaves the documents it did not change as they were (issue 15: Cancel must not demote
finished documents to pending)."""

from __future__ import annotations

from pathlib import Path

from engine.pipeline import Pipeline
from engine.schemas import ProgressEvent, Status
from engine.workspace import Workspace


def test_cancel_before_any_stage_reruns_keeps_the_status(data_dir: Path, make_pdf) -> None:
    pdf = make_pdf()
    [first] = Pipeline(data_dir, workers=1).ingest([pdf])
    assert first.status is Status.OK
    space = Workspace(data_dir)
    space.reformatted_markdown_path(space.load(first.doc_id)).unlink()  # the reformat stage must run again
    pipeline: Pipeline
    events: list[ProgressEvent] = []

    def on_progress(event: ProgressEvent) -> None:
        events.append(event)
        if event.stage == "read" and event.message == "cached":
            pipeline.cancel()  # open and read were cached: nothing has been replaced yet

    pipeline = Pipeline(data_dir, workers=1, on_progress=on_progress)
    [result] = pipeline.ingest([pdf])
    assert result.status is Status.PENDING and result.error == "cancelled"  # what this run did
    record = space.load(first.doc_id)
    assert record.status is Status.OK and record.error is None  # the document is still usable
    assert not any(e.message == "running" for e in events)
    [again] = Pipeline(data_dir, workers=1).ingest([pdf])
    assert again.status is Status.OK and space.reformatted_markdown_path(record).exists()


def test_cancel_after_a_stage_reran_leaves_it_resumable(data_dir: Path, make_pdf) -> None:
    pdf = make_pdf()
    [first] = Pipeline(data_dir, workers=1).ingest([pdf])
    pipeline: Pipeline

    def on_progress(event: ProgressEvent) -> None:
        if event.stage == "open" and event.message == "ok":
            pipeline.cancel()

    pipeline = Pipeline(data_dir, workers=1, on_progress=on_progress)
    [result] = pipeline.ingest([pdf], force=True)  # "Recompute": open ran again, then the cancel
    assert result.error == "cancelled"
    record = Workspace(data_dir).load(first.doc_id)
    assert record.status is Status.PENDING and record.error == "cancelled"
