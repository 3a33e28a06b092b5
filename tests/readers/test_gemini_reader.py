"""GeminiReader and MistralOcrReader against the fake servers: one call per page, fallbacks, retries, concurrency."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from conftest import png_bytes, write_pdf
from engine.llm.clients import LlmClients
from engine.llm.settings import LlmSettings
from engine.llm.usage import Usage
from engine.markdown import count_markers, split_pages
from engine.readers.gemini import GeminiReader
from engine.readers.mistral import MistralOcrReader
from tests.fakes import gemini as g
from tests.fakes import mistral as m


def reader(settings: LlmSettings, **changes) -> GeminiReader:
    return GeminiReader(LlmClients(settings.model_copy(update=changes)))


def page_is(n: int):
    return g.has_pdf_containing(f"topic number {n} ")


@pytest.fixture
def pdf(tmp_path: Path) -> Path:
    return write_pdf(tmp_path / "four.pdf", 4)


def test_one_call_per_page_markers_joined_fences_stripped(pdf, fake_gemini, fake_mistral, llm_settings):
    fake_gemini.script(g.text("```markdown\n## Page two, as Gemini saw it\n\nBody.\n```"), match=page_is(2))
    usage = Usage()
    result = reader(llm_settings).read(pdf, usage=usage)
    blocks = split_pages(result.markdown)
    assert len(fake_gemini.generate_requests) == 4 and not fake_mistral.requests
    assert count_markers(result.markdown) == 4 and len(blocks) == 4
    assert blocks[1] == "## Page two, as Gemini saw it\n\nBody."
    assert "topic number 3" in blocks[2] and "```" not in result.markdown
    assert result.warnings == [] and not any(p.needs_ocr for p in result.pages)
    assert (usage.calls, usage.retries, usage.fallbacks) == (4, 0, 0)
    assert usage.input_tokens > 4 * 258 and usage.output_tokens > 0
    request = fake_gemini.generate_requests[0]
    assert g.inline_data(request)[0][0] == "application/pdf"
    assert "Markdown" in g.request_texts(request)[0]
    with pymupdf.open(stream=g.inline_data(request)[0][1], filetype="pdf") as one:
        assert one.page_count == 1


def test_recitation_page_costs_one_mistral_call(pdf, fake_gemini, fake_mistral, llm_settings):
    fake_gemini.script(g.finish("RECITATION"), match=page_is(3))
    fake_mistral.script(m.chat("# Page three from pixtral"))
    usage = Usage()
    result = reader(llm_settings).read(pdf, usage=usage)
    assert len(fake_gemini.generate_requests) == 4
    chats = fake_mistral.requests_to("/v1/chat/completions")
    assert len(chats) == 1 and chats[0].body["model"] == "mistral-medium-3.5"
    assert m.chat_images(chats[0])[0].startswith(b"\x89PNG")
    assert split_pages(result.markdown)[2] == "# Page three from pixtral"
    assert result.warnings == [] and usage.calls == 5 and usage.fallbacks == 0
    assert "RECITATION" in result.pages[2].warnings[0]


def test_500_and_429_are_retried_then_succeed(pdf, fake_gemini, llm_settings):
    fake_gemini.script(g.error(500), g.error(429), match=page_is(1))
    usage = Usage()
    result = reader(llm_settings).read(pdf, usage=usage)
    assert result.warnings == []
    assert (usage.calls, usage.retries) == (6, 2)
    assert "topic number 1" in split_pages(result.markdown)[0]


@pytest.mark.parametrize("failure", ["SAFETY", "MAX_TOKENS", "retries"])
def test_a_failed_page_keeps_its_text_layer(pdf, fake_gemini, fake_mistral, llm_settings, failure):
    if failure == "retries":
        fake_gemini.script(*[g.error(503)] * 3, match=page_is(2))
    else:
        fake_gemini.script(g.finish(failure), match=page_is(2))
    usage = Usage()
    result = reader(llm_settings, max_attempts=3).read(pdf, usage=usage)
    offline = split_pages(GeminiReader(LlmClients(llm_settings)).offline.read(pdf).markdown)
    assert split_pages(result.markdown)[1] == offline[1]
    assert count_markers(result.markdown) == 4
    assert len(result.warnings) == 1 and result.warnings[0].startswith("page 2: kept the text-layer transcription")
    assert usage.fallbacks == 1 and not fake_mistral.requests
    assert (failure if failure != "retries" else "503") in result.warnings[0]


def test_recitation_without_a_mistral_key_falls_back(pdf, fake_gemini, llm_settings):
    fake_gemini.script(g.finish("RECITATION"), match=page_is(4))
    result = reader(llm_settings, mistral_api_key=None).read(pdf)
    assert "no MISTRAL_API_KEY" in result.warnings[0]


def scanned_pdf(path: Path) -> Path:
    doc = pymupdf.open()
    for n in (1, 2, 3):
        page = doc.new_page()
        if n == 2:
            page.insert_image(pymupdf.Rect(50, 50, 250, 310), stream=png_bytes(200, 260))
        else:
            page.insert_text((72, 72), f"Text page {n} with enough words to count as a text layer.", fontsize=11)
    doc.save(path)
    return path


def test_needs_ocr_pages_only(tmp_path, fake_gemini, llm_settings):
    fake_gemini.script(g.text("Scanned text read by Gemini."))
    result = reader(llm_settings, vision_pages="needs_ocr").read(scanned_pdf(tmp_path / "scan.pdf"))
    assert len(fake_gemini.generate_requests) == 1
    blocks = split_pages(result.markdown)
    assert blocks[1] == "Scanned text read by Gemini." and "Text page 3" in blocks[2]
    assert not any(p.needs_ocr for p in result.pages) and result.warnings == []


def test_pages_run_concurrently_up_to_the_worker_limit(tmp_path, fake_gemini, llm_settings):
    pdf = write_pdf(tmp_path / "eight.pdf", 8)
    fake_gemini.latency = 0.3  # long enough for the calls to overlap
    reader(llm_settings, page_workers=4).read(pdf)
    assert fake_gemini.max_in_flight == 4  # four at once (not eight calls in a row), never more


def test_mistral_ocr_reader(pdf, fake_gemini, fake_mistral, llm_settings):
    fake_mistral.script(m.ocr(["# One", "Two", "Three"]))  # one page short
    usage = Usage()
    result = MistralOcrReader(LlmClients(llm_settings)).read(pdf, usage=usage)
    blocks = split_pages(result.markdown)
    assert blocks[:3] == ["# One", "Two", "Three"] and "topic number 4" in blocks[3]
    assert len(fake_mistral.requests_to("/v1/ocr")) == 1 and not fake_gemini.requests
    assert fake_mistral.requests[0].body["document"]["document_url"].startswith("data:application/pdf;base64,")
    assert usage.fallbacks == 1 and "page 4" in result.warnings[0]


def test_mistral_ocr_reader_only_scanned_pages(tmp_path, fake_mistral, llm_settings):
    path = scanned_pdf(tmp_path / "scan.pdf")
    result = MistralOcrReader(LlmClients(llm_settings.model_copy(update={"vision_pages": "needs_ocr"}))).read(path)
    sent = m.ocr_document(fake_mistral.requests[0])
    with pymupdf.open(stream=sent, filetype="pdf") as doc:
        assert doc.page_count == 1
    assert result.warnings == [] and not result.pages[1].needs_ocr
