"""Mistral OCR in page batches within the endpoint's limits, and a retry of only the pages that failed."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from conftest import write_pdf
from engine.llm.clients import LlmClients
from engine.llm.usage import Usage
from engine.markdown import split_pages
from engine.pipeline import Pipeline
from engine.readers.mistral import MistralOcrReader
from engine.schemas import Status
from engine.workspace import Workspace
from tests.fakes import mistral as m
from tests.fakes.mistral import FakeMistral

GUIDE = Path(__file__).resolve().parents[2] / "data" / "samples" / "pdfrag-field-guide.pdf"


def sent_pages(server) -> list[int]:
    counts = []
    for request in server.requests_to("/v1/ocr"):
        with pymupdf.open(stream=m.ocr_document(request), filetype="pdf") as doc:
            counts.append(doc.page_count)
    return counts


def test_a_long_document_goes_in_batches_the_endpoint_accepts(tmp_path, llm_settings):
    pdf = write_pdf(tmp_path / "long.pdf", 25)
    with FakeMistral(ocr_max_pages=10) as server:
        settings = llm_settings.model_copy(update={"mistral_server_url": server.url, "reader": "mistral-ocr",
                                                   "ocr_batch_pages": 10})
        usage = Usage()
        result = MistralOcrReader(LlmClients(settings)).read(pdf, usage=usage)
        assert sorted(sent_pages(server)) == [5, 10, 10] and result.warnings == []
        blocks = split_pages(result.markdown)
        assert len(blocks) == 25 and all(f"topic number {n} " in blocks[n - 1] for n in range(1, 26))
        assert (usage.calls, usage.fallbacks) == (3, 0)
        # one request with every page is what the endpoint refuses
        whole = settings.model_copy(update={"ocr_batch_pages": 1000})
        refused = MistralOcrReader(LlmClients(whole)).read(pdf, usage=Usage())
        assert len(refused.warnings) == 25 and "HTTP 400" in refused.warnings[0]


def test_a_batch_above_the_size_limit_is_halved(tmp_path, llm_settings, fake_mistral):
    pdf = write_pdf(tmp_path / "eight.pdf", 8)
    size = len(pymupdf.open(pdf).tobytes())
    settings = llm_settings.model_copy(update={"reader": "mistral-ocr", "ocr_batch_mb": 0.6 * size / 2**20})
    result = MistralOcrReader(LlmClients(settings)).read(pdf, usage=Usage())
    assert result.warnings == [] and len(sent_pages(fake_mistral)) > 1 and sum(sent_pages(fake_mistral)) == 8


def test_the_next_run_retries_only_the_failed_batch(data_dir, fake_gemini, fake_mistral, llm_settings):
    settings = llm_settings.model_copy(update={"reader": "mistral-ocr", "ocr_batch_pages": 4, "max_attempts": 1,
                                               "page_workers": 1})
    fake_mistral.script(m.error(500), match=lambda r: r.path.startswith("/v1/ocr"))  # the first batch fails
    (first,) = Pipeline(data_dir, provider="gemini", llm=settings, workers=1).ingest([GUIDE])
    assert first.status is Status.PARTIAL and sent_pages(fake_mistral) == [4, 4, 3]
    (second,) = Pipeline(data_dir, provider="gemini", llm=settings, workers=1).ingest([GUIDE])
    record = Workspace(data_dir).load(second.doc_id)
    assert second.status is Status.OK, second.error
    assert sent_pages(fake_mistral) == [4, 4, 3, 4] and record.stages["read"].calls == 1
