"""The Chat page's answer: one source per cited page with its quote, the context folded away, citation ids that
carry the quote's boxes to Inspect, and a stream that yields the answer as soon as it is computed (Stop abandons it)."""

from __future__ import annotations

import asyncio
import threading

import pytest
from htmltools import TagList

from app.pages.chat import CitationIndex, answer_chunks, answer_stream, sources_by_page
from app.state import Highlight
from engine.schemas import Answer, DocumentRecord
from engine.schemas.answer import Citation, Passage, TraceStep


def _record(name: str = "report.pdf", doc_id: str = "d1") -> DocumentRecord:
    return DocumentRecord(doc_id=doc_id, file_name=name, rel_path=name, sha256="0" * 64, size_bytes=1, pages=9)


def _answer() -> Answer:
    return Answer(
        answer="The river is 12 km long (p. 3). It floods in spring (p. 5).",
        citations=[
            Citation(doc="report.pdf", page=3, quote="The river is 12 km long.", boxes=[[10, 20, 110, 32]]),
            Citation(doc="report.pdf", page=3, quote="It rises in the hills.", boxes=[[10, 40, 90, 52]]),
            Citation(doc="report.pdf", page=5, quote="It floods in spring.", boxes=[]),
        ],
        passages=[Passage(doc="report.pdf", page=3, text="The river is 12 km long. It rises in the hills.")],
        trace=[TraceStep(kind="route", detail="report.pdf"), TraceStep(kind="decision", detail="answered")],
    )


def test_one_source_per_page_with_its_quotes_and_boxes():
    sources = sources_by_page(_answer())
    assert [(doc, page) for doc, page, _, _ in sources] == [("report.pdf", 3), ("report.pdf", 5)]
    _, _, quote, boxes = sources[0]
    assert quote == "The river is 12 km long. … It rises in the hills."
    assert boxes == [[10, 20, 110, 32], [10, 40, 90, 52]]


def test_chunks_link_each_page_once_and_fold_passages_and_trace():
    index = CitationIndex()
    html = TagList(*answer_chunks(_answer(), [_record()], "chat-open", index)).get_html_string()
    assert html.count('href="#pdfrag-open:chat-open:d1:3"') == 1 and html.count('href="#pdfrag-open:chat-open:d1:5"') == 1
    assert "Sources (2 pages)" in html
    details = html[html.index("<details"):]
    assert "Passages" in details and "It rises in the hills." in details and "Trace (2 steps)" in details
    assert "Passages" not in html[:html.index("<details")]  # folded away, not in the answer's body
    # the links carry citation ids; the index gives Inspect the page's boxes
    assert 'data-pdfrag-cite="c1"' in html and 'data-pdfrag-cite="c2"' in html
    first = index.get("c1")
    assert first == Highlight("d1", 3, ((10, 20, 110, 32), (10, 40, 90, 52)), first.label)
    assert index.get("c2").boxes == () and index.get("nope") is None and index.get(None) is None


def test_a_document_no_longer_in_the_workspace_is_named_without_a_link():
    html = TagList(*answer_chunks(_answer(), [], "chat-open", CitationIndex())).get_html_string()
    assert "pdfrag-open" not in html and "report.pdf, p. 3" in html


def test_the_index_forgets_the_oldest_citations_past_its_limit():
    index = CitationIndex(limit=2)
    keys = [index.add(Highlight("d", n, ())) for n in (1, 2, 3)]
    assert index.get(keys[0]) is None and index.get(keys[2]).page == 3


async def _collect(stream) -> list:
    return [chunk async for chunk in stream]


def test_the_stream_yields_the_answer_chunks_once_computed():
    answered = []
    chunks = asyncio.run(_collect(answer_stream(lambda: _answer(), lambda a: answered.append(a) or ["a", "b"])))
    assert chunks == ["a", "b"] and answered and answered[0].citations


def test_an_error_becomes_one_message():
    def fail() -> Answer:
        raise RuntimeError("index missing <b>x</b>")

    [chunk] = asyncio.run(_collect(answer_stream(fail, lambda a: ["never"])))
    html = TagList(chunk).get_html_string()
    assert "could not be answered" in html and "&lt;b&gt;x&lt;/b&gt;" in html


def test_stop_cancels_the_stream_before_any_chunk():
    release = threading.Event()
    started = threading.Event()

    def slow() -> Answer:
        started.set()
        release.wait(10)
        return _answer()

    async def run() -> list:
        got: list = []

        async def consume():
            async for chunk in answer_stream(slow, lambda a: ["late"]):
                got.append(chunk)

        task = asyncio.create_task(consume())
        await asyncio.to_thread(started.wait, 10)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        release.set()
        return got

    assert asyncio.run(run()) == []
