"""The gemini provider through the pipeline, in process, against the fakes: records, accounting, partial, cache."""

from __future__ import annotations

from pathlib import Path

from engine.markdown import count_markers, split_pages
from engine.pipeline import Pipeline
from engine.schemas import Provider, Status
from engine.structure import tree_pages
from engine.workspace import Workspace
from tests.fakes import gemini as g

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "samples"
GUIDE, DECK = SAMPLES / "pdfrag-field-guide.pdf", SAMPLES / "pdfrag-product-deck.pdf"
LLM_STAGES = ("read", "reformat", "toc", "structure", "metadata")


def ingest(data_dir: Path, settings, *paths: Path, **kwargs):
    pipeline = Pipeline(data_dir, provider="gemini", llm=settings, workers=1, **kwargs)
    return pipeline.ingest(list(paths)), Workspace(data_dir)


def test_samples_ingested_with_gemini(data_dir, fake_gemini, fake_mistral, llm_settings):
    results, workspace = ingest(data_dir, llm_settings, GUIDE, DECK)
    assert [r.status for r in results] == [Status.OK, Status.OK], [r.error for r in results]
    for result in results:
        record = workspace.load(result.doc_id)
        read = record.stages["read"]
        assert read.provider is Provider.GEMINI and read.model == "gemini-3.8-flash"
        assert (read.calls, read.retries, read.fallbacks) == (record.pages, 0, 0)
        assert read.input_tokens > 0 and read.output_tokens > 0
        for name in LLM_STAGES:  # a report's structure is its (LLM-reformatted) headings: no call of its own
            calls = 0 if name == "structure" and record.format == "portrait" else 1
            assert record.stages[name].provider is Provider.GEMINI and record.stages[name].calls >= calls
        assert record.stages["tree"].provider is Provider.OFFLINE and record.stages["tree"].calls == 0
        assert count_markers(workspace.reformatted_markdown_path(record).read_text()) == record.pages
        assert tree_pages(record.tree) == set(range(1, record.pages + 1))
    assert not fake_mistral.requests_to("/v1/chat/completions")  # the fallback was never needed
    assert len(fake_gemini.list_requests) == 1 and len(fake_mistral.requests_to("/v1/models")) == 1  # the check


def test_a_page_that_fails_for_good_leaves_the_document_partial(data_dir, fake_gemini, llm_settings):
    fake_gemini.script(*[g.error(500)] * 2, match=g.has_pdf_containing("Planning a Survey\n"))
    settings = llm_settings.model_copy(update={"max_attempts": 2})
    (result,), workspace = ingest(data_dir, settings, GUIDE)
    record = workspace.load(result.doc_id)
    assert result.status is Status.PARTIAL and "kept the text-layer transcription" in result.error
    read = record.stages["read"]
    assert read.status is Status.PARTIAL and (read.calls, read.retries, read.fallbacks) == (12, 1, 1)
    raw = split_pages(workspace.raw_markdown_path(record).read_text())
    assert len(raw) == 11 and all(block.strip() for block in raw)
    assert tree_pages(record.tree) == set(range(1, 12))


def test_cached_runs_make_no_calls_and_the_provider_is_part_of_the_key(data_dir, fake_gemini, llm_settings):
    ingest(data_dir, llm_settings, DECK)
    calls = len(fake_gemini.requests)
    (again,), _ = ingest(data_dir, llm_settings, DECK)
    assert again.status is Status.OK and len(fake_gemini.requests) == calls
    (offline,), workspace = Pipeline(data_dir, workers=1).ingest([DECK]), Workspace(data_dir)
    record = workspace.load(offline.doc_id)
    assert record.stages["read"].provider is Provider.OFFLINE and record.stages["read"].calls == 0
    assert len(fake_gemini.requests) == calls


def test_needs_ocr_mode_is_its_own_cache_entry(data_dir, fake_gemini, llm_settings):
    ingest(data_dir, llm_settings.model_copy(update={"vision_pages": "needs_ocr"}), GUIDE)
    read_calls = len([r for r in fake_gemini.generate_requests if g.inline_data(r)])
    assert read_calls == 0  # every page of the sample has a text layer
    ingest(data_dir, llm_settings, GUIDE)
    assert len([r for r in fake_gemini.generate_requests if g.inline_data(r)]) == 11


def transcriptions(fake) -> list:
    return [r for r in fake.generate_requests if g.inline_data(r)]


def test_a_partial_document_retries_exactly_its_failed_pages_next_run(data_dir, fake_gemini, llm_settings):
    fake_gemini.script(*[g.error(503)] * 2, match=g.has_pdf_containing("Planning a Survey\n"))
    settings = llm_settings.model_copy(update={"max_attempts": 2})
    (first,), workspace = ingest(data_dir, settings, GUIDE)
    assert first.status is Status.PARTIAL
    before = len(fake_gemini.generate_requests)
    (second,), _ = ingest(data_dir, settings, GUIDE)  # no --force: the failed page is not cached as done
    record = workspace.load(second.doc_id)
    retried = transcriptions(fake_gemini)[12:]
    assert second.status is Status.OK and record.status is Status.OK, second.error
    assert len(retried) == 1 and "Planning a Survey" in g.pdf_text(retried[0])
    read = record.stages["read"]
    assert (read.status, read.calls, read.fallbacks) == (Status.OK, 1, 0)
    assert not any("kept the text-layer" in w for page in record.page_info for w in page.warnings)
    raw = split_pages(workspace.raw_markdown_path(record).read_text())
    assert len(raw) == 11 and all(block.strip() for block in raw)
    # the stages after it ran again on the completed text (their inputs changed, their keys did not)
    assert len(fake_gemini.generate_requests) - before > 1 and record.stages["reformat"].calls >= 1
    calls = len(fake_gemini.generate_requests)
    (third,), _ = ingest(data_dir, settings, GUIDE)
    assert third.status is Status.OK and len(fake_gemini.generate_requests) == calls  # now it is done


def test_a_document_that_failed_on_a_broken_server_is_redone_by_a_healthy_run(data_dir, fake_gemini, llm_settings):
    settings = llm_settings.model_copy(update={"max_attempts": 1})
    healthy = fake_gemini.responder
    fake_gemini.responder = lambda request: g.error(500)
    (broken,), workspace = ingest(data_dir, settings, DECK)
    record = workspace.load(broken.doc_id)
    assert broken.status is Status.PARTIAL
    assert {name: record.stages[name].status for name in ("read", "reformat", "metadata")} == {
        "read": Status.PARTIAL, "reformat": Status.PARTIAL, "metadata": Status.PARTIAL}
    fake_gemini.responder = healthy
    (again,), _ = ingest(data_dir, settings, DECK)
    record = workspace.load(again.doc_id)
    assert again.status is Status.OK, again.error
    assert all(state.status is Status.OK for state in record.stages.values())
    assert record.stages["read"].calls == 12  # every page had failed, every page is read again


def test_offline_stages_keep_caching_their_failures(data_dir, fake_gemini, llm_settings):
    """Only LLM stages are retried: an offline stage is deterministic for its key."""
    from engine.llm.resume import incomplete
    from engine.schemas import StageState

    assert incomplete(StageState(status=Status.FAILED)) and incomplete(StageState(status=Status.PENDING))
    assert incomplete(StageState(status=Status.PARTIAL, fallbacks=1))
    assert not incomplete(StageState(status=Status.PARTIAL, fallbacks=0))
    assert not incomplete(StageState(status=Status.OK))
    (done,), workspace = ingest(data_dir, llm_settings, DECK)
    calls = len(fake_gemini.generate_requests)
    record = workspace.load(done.doc_id)
    record.stages["tree"] = record.stages["tree"].model_copy(update={"status": Status.FAILED})
    workspace.save(record)
    (again,), _ = ingest(data_dir, llm_settings, DECK)
    assert len(fake_gemini.generate_requests) == calls and workspace.load(done.doc_id).stages["tree"].status is \
        Status.FAILED
