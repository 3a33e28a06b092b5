"""GeminiReader: each page sent to Gemini as a one-page PDF, pages in parallel; nothing is ever lost.

A page Gemini declines to recite (RECITATION) is rendered to PNG and transcribed by the Mistral vision
model; any other finish reason, or retries running out, keeps that page's text-layer transcription.
Pages are split while the first calls are in flight; the offline reading is made only when a page needs
it (a failure), or first when only the pages without a text layer are to be transcribed.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from engine.llm.clients import LlmSession
from engine.llm.errors import LlmError
from engine.llm.prompts import render
from engine.llm.usage import Usage
from engine.markdown import join_pages
from engine.pdf import one_page_pdf, open_document, page_png
from engine.readers.offline import NEEDS_OCR_MIN_CHARS, Progress
from engine.readers.vision import LlmReader, PageFailure, PageText, clean_page_text, merge_pages
from engine.schemas import PageInfo, ReadResult

PNG_DPI = 150


class GeminiReader(LlmReader):
    """Vision transcription of every page (or only the pages without a text layer)."""

    name = "gemini"
    version = 1

    def read(self, path: Path, *, progress: Progress | None = None, usage: Usage | None = None) -> ReadResult:
        usage = usage if usage is not None else Usage()
        base: ReadResult | None = None
        if self.clients.settings.vision_pages == "needs_ocr":
            base = self.offline.read(path)
            pages = [info.page for info in base.pages if info.needs_ocr]
            if not pages:
                return base
        else:
            with open_document(path) as doc:
                pages = list(range(1, doc.page_count + 1))

        async def work(session: LlmSession) -> tuple[list[PageText], list[PageFailure]]:
            return await transcribe_pages(session, path, pages, progress)

        done, failed = self.clients.run(work, usage)
        usage.add(fallbacks=len(failed))
        if base is None and not failed:
            return transcribed_only(done)
        return merge_pages(base or self.offline.read(path), done, failed)

    def retry(self, path: Path, base: ReadResult, pages: list[int], *, progress: Progress | None = None,
              usage: Usage | None = None) -> ReadResult:
        """`base` (a previous reading) with `pages` transcribed again; pages that fail again keep their text."""
        usage = usage if usage is not None else Usage()

        async def work(session: LlmSession) -> tuple[list[PageText], list[PageFailure]]:
            return await transcribe_pages(session, path, pages, progress)

        done, failed = self.clients.run(work, usage)
        usage.add(fallbacks=len(failed))
        return merge_pages(base, done, failed)


def transcribed_only(done: list[PageText]) -> ReadResult:
    """Every page from the model: the Markdown and what is known of each page."""
    done = sorted(done, key=lambda item: item.page)
    pages = [PageInfo(page=item.page, chars=len(item.text),
                      warnings=[f"transcribed by {item.source} ({item.note})"] if item.note else [])
             for item in done]
    return ReadResult(markdown=join_pages([item.text or "_(blank page)_" for item in done]), pages=pages)


async def transcribe_pages(session: LlmSession, path: Path, pages: list[int],
                           progress: Progress | None = None) -> tuple[list[PageText], list[PageFailure]]:
    """Transcribe `pages` with at most `page_workers` calls in flight, splitting pages as calls go out.

    PyMuPDF is used on this thread only (it is not thread-safe): splitting, renders for the fallback.
    """
    limit = asyncio.Semaphore(session.settings.page_workers)
    finished = [0]

    with open_document(path) as doc:

        async def one(page: int, data: bytes) -> PageText | PageFailure:
            try:
                result = await transcribe_page(session, doc, page, data)
            finally:
                limit.release()
            finished[0] += 1
            if progress is not None:
                progress(finished[0], len(pages))
            return result

        tasks = []
        for page in pages:
            await limit.acquire()  # split no further ahead than the calls can take
            tasks.append(asyncio.create_task(one(page, one_page_pdf(doc, page))))
        results = await asyncio.gather(*tasks)
    return ([r for r in results if isinstance(r, PageText)], [r for r in results if isinstance(r, PageFailure)])


async def transcribe_page(session: LlmSession, doc: Any, page: int, data: bytes) -> PageText | PageFailure:
    """One Gemini call for one page; RECITATION goes to Mistral; anything else is a failure to fall back on."""
    gemini = session.gemini
    try:
        reply = await gemini.generate([gemini.pdf_part(data), render("transcribe_page", medium="PDF page")],
                                      purpose="read")
    except LlmError as exc:
        return PageFailure(page, str(exc))
    if reply.finish_reason == "RECITATION":
        return await transcribe_with_mistral(session, doc, page, "gemini: RECITATION")
    if reply.finish_reason != "STOP":
        return PageFailure(page, f"Gemini stopped with {reply.finish_reason}")
    text = clean_page_text(reply.text)
    if not text and len(doc[page - 1].get_text().strip()) >= NEEDS_OCR_MIN_CHARS:
        return PageFailure(page, "Gemini returned nothing for a page that has text")
    return PageText(page, text, "gemini")


async def transcribe_with_mistral(session: LlmSession, doc: Any, page: int, why: str) -> PageText | PageFailure:
    """The page rendered to PNG and transcribed by the Mistral vision model (one call)."""
    mistral = session.mistral
    if mistral is None:
        return PageFailure(page, f"{why}, and no MISTRAL_API_KEY for the fallback")
    png = page_png(doc, page, PNG_DPI)
    try:
        reply = await mistral.chat_image(render("transcribe_page", medium="image of a document page"), png)
    except LlmError as exc:
        return PageFailure(page, f"{why}; Mistral: {exc}")
    if reply.finish_reason != "STOP" or not reply.text.strip():
        return PageFailure(page, f"{why}; Mistral stopped with {reply.finish_reason}")
    return PageText(page, clean_page_text(reply.text), session.settings.mistral_vision_model, why)
