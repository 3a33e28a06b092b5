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
