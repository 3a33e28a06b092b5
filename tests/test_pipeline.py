"""Pipeline mechanics: cache skips, resume, --force, version bumps, failures, parallel workers, progress."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.pipeline import Pipeline, ReformatStage, Stage, StageContext, StageOutcome, default_stages
from engine.schemas import DocumentRecord, ProgressEvent, Status
from engine.workspace import Workspace
from tests.stage_helpers import Counting

STAGES = ["open", "read", "reformat", "toc", "structure", "metadata", "tree"]


class SimulatedCrash(BaseException):
    """Stands for the process dying (not an error the pipeline records)."""


class Crashing(Stage):
    def __init__(self, inner: Stage, log: Path) -> None:
        self.inner = inner
        self.name, self.requires, self.uses = inner.name, inner.requires, inner.uses  # type: ignore[misc]

    def version(self) -> int:
        return self.inner.version()

    def run(self, ctx: StageContext) -> StageOutcome:
        raise SimulatedCrash


class Failing(Counting):
    def run(self, ctx: StageContext) -> StageOutcome:
        raise RuntimeError("boom\nsecond line")


class NewerReformat(ReformatStage):
    def version(self) -> int:
        return super().version() + 1


def counted(log: Path, replace: dict[str, type] | None = None) -> list[Stage]:
    replace = replace or {}
    return [replace.get(s.name, Counting)(s, log) for s in default_stages()]


def runs(log: Path) -> list[str]:
    if not log.exists():
        return []
    names = log.read_text().split()
    log.unlink()
    return names


def comparable(record: DocumentRecord) -> dict:
    data = record.model_dump(mode="json")
    for state in data["stages"].values():
        state["seconds"] = 0
    return data


def test_ingest_runs_every_stage(data_dir: Path, make_pdf) -> None:
    [result] = Pipeline(data_dir, workers=1).ingest([make_pdf(pages=3)])
    assert result.status is Status.OK and result.pages == 3 and result.format == "portrait"
    ws = Workspace(data_dir)
    record = ws.load(result.doc_id)
    assert list(record.stages) == STAGES
    assert all(s.status is Status.OK and s.cache_key.startswith(f"{n}:v") for n, s in record.stages.items())
    assert ws.raw_markdown_path(record).read_text().count("--- end page") == 3
    assert ws.reformatted_markdown_path(record).exists()
    assert record.tree is not None and record.tree.pages == 3 and record.headings


def test_second_ingest_reruns_nothing(data_dir: Path, make_pdf, tmp_path: Path) -> None:
    log = tmp_path / "runs.log"
    pdfs = [make_pdf("a.pdf"), make_pdf("b.pdf", pages=3)]
    first = Pipeline(data_dir, workers=1, stages=counted(log)).ingest(pdfs)
    assert runs(log) == STAGES * 2
    ws = Workspace(data_dir)
    mtimes = {p: p.stat().st_mtime_ns for p in ws.root.rglob("*") if p.is_file()}
    second = Pipeline(data_dir, workers=2, stages=counted(log)).ingest(pdfs)
    assert runs(log) == []
    assert [r.model_copy(update={"seconds": 0}) for r in second] == [r.model_copy(update={"seconds": 0}) for r in first]
    assert {p: p.stat().st_mtime_ns for p in ws.root.rglob("*") if p.is_file()} == mtimes


def test_resume_after_crash_in_a_later_stage(data_dir: Path, make_pdf, tmp_path: Path) -> None:
    log = tmp_path / "runs.log"
    pdf = make_pdf()
    with pytest.raises(SimulatedCrash):
        Pipeline(data_dir, workers=1, stages=counted(log, {"structure": Crashing})).ingest([pdf])
    assert runs(log) == ["open", "read", "reformat", "toc"]
    [result] = Pipeline(data_dir, workers=1, stages=counted(log)).ingest([pdf])
    assert runs(log) == ["structure", "metadata", "tree"]
    assert result.status is Status.OK


def test_force_reruns_everything(data_dir: Path, make_pdf, tmp_path: Path) -> None:
    log = tmp_path / "runs.log"
    pdf = make_pdf()
    Pipeline(data_dir, workers=1, stages=counted(log)).ingest([pdf])
    runs(log)
    Pipeline(data_dir, workers=1, stages=counted(log)).ingest([pdf], force=True)
    assert runs(log) == STAGES


def test_new_stage_version_reruns_it_and_its_dependents(data_dir: Path, make_pdf, tmp_path: Path) -> None:
    log = tmp_path / "runs.log"
    pdf = make_pdf()
    Pipeline(data_dir, workers=1, stages=counted(log)).ingest([pdf])
    runs(log)
    stages = [Counting(NewerReformat(), log) if s.name == "reformat" else s for s in counted(log)]
    Pipeline(data_dir, workers=1, stages=stages).ingest([pdf])
    assert runs(log) == ["reformat", "structure", "metadata", "tree"]  # toc needs only the raw read


def test_missing_cache_file_reruns_only_that_stage(data_dir: Path, make_pdf, tmp_path: Path) -> None:
    log = tmp_path / "runs.log"
    pdf = make_pdf()
    [result] = Pipeline(data_dir, workers=1, stages=counted(log)).ingest([pdf])
    runs(log)
    ws = Workspace(data_dir)
    ws.reformatted_markdown_path(ws.load(result.doc_id)).unlink()
    Pipeline(data_dir, workers=1, stages=counted(log)).ingest([pdf])
    assert runs(log) == ["reformat"]


def test_failed_required_stage_skips_dependents(data_dir: Path, make_pdf, tmp_path: Path) -> None:
    log = tmp_path / "runs.log"
    good, bad = make_pdf("good.pdf"), make_pdf("bad.pdf", pages=3)
    stages = counted(log, {"reformat": Failing})
    results = Pipeline(data_dir, workers=1, stages=stages).ingest([bad, good])
    assert [r.status for r in results] == [Status.FAILED, Status.FAILED]
    assert results[0].error == "reformat stage failed: RuntimeError: boom second line"
    record = Workspace(data_dir).load(results[0].doc_id)
    assert record.stages["toc"].status is Status.OK
    for name in ("structure", "metadata", "tree"):
        assert record.stages[name].status is Status.PENDING
    assert "skipped: the reformat stage failed" in record.stages["structure"].warnings
    assert record.tree is None and "Traceback" not in record.model_dump_json()
    assert runs(log).count("structure") == 0
    # a failure is a cached result: not retried until --force
    Pipeline(data_dir, workers=1, stages=counted(log, {"reformat": Failing})).ingest([bad])
    assert runs(log) == []
    [forced] = Pipeline(data_dir, workers=1, stages=counted(log)).ingest([bad], force=True)
    assert forced.status is Status.OK


def test_failed_optional_stage_makes_the_document_partial(data_dir: Path, make_pdf, tmp_path: Path) -> None:
    log = tmp_path / "runs.log"
    [result] = Pipeline(data_dir, workers=1, stages=counted(log, {"metadata": Failing})).ingest([make_pdf()])
    assert result.status is Status.PARTIAL
    assert result.error.startswith("metadata stage failed: RuntimeError: boom")
    record = Workspace(data_dir).load(result.doc_id)
    assert record.stages["tree"].status is Status.OK and record.tree is not None


@pytest.mark.slow
def test_parallel_workers_match_one_worker(tmp_path: Path, make_pdf) -> None:
    pdfs = [make_pdf(f"doc{i}.pdf", pages=i + 1) for i in range(3)]
    events: list[ProgressEvent] = []
    parallel = Pipeline(tmp_path / "p", workers=2, on_progress=events.append).ingest(pdfs)
    serial = Pipeline(tmp_path / "s", workers=1).ingest(pdfs)
    assert [r.doc_id for r in parallel] == [r.doc_id for r in serial]
    assert [r.status for r in parallel] == [Status.OK] * 3
    for result in parallel:
        one = Workspace(tmp_path / "p").load(result.doc_id)
        two = Workspace(tmp_path / "s").load(result.doc_id)
        assert comparable(one) == comparable(two)
    assert_ordered(events, {f"doc{i}.pdf" for i in range(3)})


def test_progress_events_in_order_in_process(data_dir: Path, make_pdf) -> None:
    events: list[ProgressEvent] = []
    a = make_pdf("a.pdf")
    Pipeline(data_dir, workers=1, on_progress=events.append).ingest([a, make_pdf("b.pdf")])
    assert_ordered(events, {"a.pdf", "b.pdf"})
    again: list[ProgressEvent] = []
    Pipeline(data_dir, workers=1, on_progress=again.append).ingest([a])
    assert [(e.stage, e.message) for e in again] == [("done", "cached")]


def assert_ordered(events: list[ProgressEvent], docs: set[str]) -> None:
    assert {e.doc for e in events} == docs
    for doc in docs:
        mine = [e for e in events if e.doc == doc]
        stages = [e.stage for e in mine if e.stage != "done"]
        positions = [STAGES.index(s) for s in stages]
        assert positions == sorted(positions), stages
        assert set(stages) == set(STAGES)
        assert mine[-1].stage == "done" and mine[-1].message == "ok"
        pages = [e.done for e in mine if e.stage == "read" and e.message == "pages"]
        assert pages == sorted(pages) and pages
        assert [e.done for e in mine if e.message in ("ok", "cached")][:-1] == list(range(1, len(STAGES) + 1))


def test_cancel_stops_between_stages_and_the_next_run_resumes(data_dir: Path, make_pdf) -> None:
    pdf = make_pdf()
    pipeline: Pipeline

    def on_progress(event: ProgressEvent) -> None:
        if event.stage == "reformat" and event.message == "ok":
            pipeline.cancel()

    pipeline = Pipeline(data_dir, workers=1, on_progress=on_progress)
    [result] = pipeline.ingest([pdf])
    assert result.status is Status.PENDING and result.error == "cancelled"
    record = Workspace(data_dir).load(result.doc_id)
    assert set(record.stages) == {"open", "read", "reformat"}
    events: list[ProgressEvent] = []
    [resumed] = Pipeline(data_dir, workers=1, on_progress=events.append).ingest([pdf])
    assert resumed.status is Status.OK
    assert [e.stage for e in events if e.message == "running"] == ["toc", "structure", "metadata", "tree"]


def test_results_follow_input_order_and_report_missing_paths(data_dir: Path, make_pdf, tmp_path: Path) -> None:
    folder = tmp_path / "inputs"
    make_pdf("sub/B.PDF")
    make_pdf("a.pdf")
    (folder / "notes.txt").write_text("not collected")
    results = Pipeline(data_dir, workers=1).ingest([tmp_path / "missing.pdf", folder])
    assert [(r.file_name, r.status.value) for r in results] == [
        ("missing.pdf", "failed"), ("a.pdf", "ok"), ("B.pdf", "ok"),
    ]
    assert results[0].error == "no such file or directory" and results[0].doc_id is None
    assert json.loads(results[1].model_dump_json()).keys() == {
        "doc_id", "file_name", "pages", "format", "status", "error", "seconds",
    }


def test_size_limit(data_dir: Path, make_pdf) -> None:
    [result] = Pipeline(data_dir, workers=1, max_bytes=100).ingest([make_pdf()])
    assert result.status is Status.FAILED and "limit" in result.error and "PDFRAG_MAX_UPLOAD_MB" in result.error
    assert not Workspace(data_dir).records()


@pytest.mark.parametrize("debug", ["1", ""])
def test_tracebacks_only_with_pdfrag_debug(data_dir: Path, make_pdf, tmp_path: Path, monkeypatch, capfd,
                                           debug: str) -> None:
    monkeypatch.setenv("PDFRAG_DEBUG", debug)
    [result] = Pipeline(data_dir, workers=1, stages=counted(tmp_path / "log", {"toc": Failing})).ingest([make_pdf()])
    assert result.status is Status.PARTIAL
    err = capfd.readouterr().err
    assert ("Traceback" in err) is bool(debug)
    assert "Traceback" not in (data_dir / "documents" / f"{result.doc_id}.json").read_text()


@pytest.mark.slow
def test_cancel_with_worker_processes(tmp_path: Path, make_pdf) -> None:
    pdfs = [make_pdf(f"doc{i}.pdf", pages=2) for i in range(4)]
    pipeline: Pipeline

    def on_progress(event: ProgressEvent) -> None:
        if event.message == "ok":
            pipeline.cancel()

    pipeline = Pipeline(tmp_path / "ws", workers=2, on_progress=on_progress)
    results = pipeline.ingest(pdfs)
    assert len(results) == 4 and any(r.error == "cancelled" for r in results)
    assert all(r.status in (Status.OK, Status.PENDING) for r in results)
    again = Pipeline(tmp_path / "ws", workers=2).ingest(pdfs)
    assert [r.status for r in again] == [Status.OK] * 4


class ExitingOnCrashPdf(Counting):
    """Kills its worker process on the document named crash.pdf (like a segfault in MuPDF would)."""

    def run(self, ctx: StageContext) -> StageOutcome:
        if ctx.record.file_name == "crash.pdf":
            import os

            os._exit(3)
        return self.inner.run(ctx)


@pytest.mark.slow
def test_a_crashing_worker_fails_only_its_document(tmp_path: Path, make_pdf) -> None:
    pdfs = [make_pdf("crash.pdf"), make_pdf("a.pdf"), make_pdf("b.pdf", pages=3)]
    stages = counted(tmp_path / "log", {"tree": ExitingOnCrashPdf})
    results = Pipeline(tmp_path / "ws", workers=2, stages=stages).ingest(pdfs)
    assert [r.status for r in results] == [Status.FAILED, Status.OK, Status.OK]
    assert "worker process crashed" in results[0].error
    record = Workspace(tmp_path / "ws").load(results[0].doc_id)
    assert record.status is Status.FAILED and record.stages["structure"].status is Status.OK
