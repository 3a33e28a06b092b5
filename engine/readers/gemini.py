"""GeminiReader: each page sent to Gemini as a one-page PDF, pages in parallel; nothing is ever lost.

A page Gemini declines to recite (RECITATION) is rendered to PNG and transcribed by the Mistral vision
model; any other finish reason, or retries running out, keeps that page's text-layer transcription.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from engine.llm.clients import LlmClients, LlmSession
from engine.llm.errors import LlmError
from engine.llm.prompts import render
from engine.llm.usage import Usage
from engine.pdf import render_page_png, split_pdf_pages
from engine.readers.offline import NEEDS_OCR_MIN_CHARS, OfflineReader
from engine.readers.vision import PageFailure, PageText, clean_page_text, merge_pages
from engine.schemas import ReadResult

Progress = Callable[[int, int], None]


class GeminiReader:
    """Vision transcription of every page (or only the pages without a text layer)."""

    name = "gemini"
    version = 1

    def __init__(self, clients: LlmClients | None = None, offline: OfflineReader | None = None) -> None:
        self.clients = clients or LlmClients()
        self.offline = offline or OfflineReader()

    def read(self, path: Path, *, progress: Progress | None = None, usage: Usage | None = None) -> ReadResult:
        usage = usage if usage is not None else Usage()
        base = self.offline.read(path)  # the fallback for every page, and the needs_ocr flags
        only_ocr = self.clients.settings.vision_pages == "needs_ocr"
        pages = [info.page for info in base.pages if info.needs_ocr or not only_ocr]
        if not pages:
            return base
        documents = split_pdf_pages(path, pages)
        chars = {info.page: info.chars for info in base.pages}

        async def work(session: LlmSession) -> tuple[list[PageText], list[PageFailure]]:
            return await transcribe_pages(session, path, documents, chars, progress)

        done, failed = self.clients.run(work, usage)
        usage.add(fallbacks=len(failed))
        return merge_pages(base, done, failed)


async def transcribe_pages(session: LlmSession, path: Path, documents: dict[int, bytes], chars: dict[int, int],
                           progress: Progress | None = None) -> tuple[list[PageText], list[PageFailure]]:
    """Transcribe the one-page PDFs `documents` with at most `page_workers` calls in flight."""
    limit = asyncio.Semaphore(session.settings.page_workers)
    total, finished = len(documents), [0]

    async def one(page: int, data: bytes) -> PageText | PageFailure:
        async with limit:
            result = await transcribe_page(session, path, page, data, chars.get(page, 0))
        finished[0] += 1
        if progress is not None:
            progress(finished[0], total)
        return result

    results = await asyncio.gather(*(one(page, data) for page, data in sorted(documents.items())))
    return ([r for r in results if isinstance(r, PageText)], [r for r in results if isinstance(r, PageFailure)])


async def transcribe_page(session: LlmSession, path: Path, page: int, data: bytes,
                          offline_chars: int = 0) -> PageText | PageFailure:
    """One Gemini call for one page; RECITATION goes to Mistral; anything else is a failure to fall back on."""
    gemini = session.gemini
    try:
        reply = await gemini.generate([gemini.pdf_part(data), render("transcribe_page", medium="PDF page")])
    except LlmError as exc:
        return PageFailure(page, str(exc))
    if reply.finish_reason == "RECITATION":
        return await transcribe_with_mistral(session, path, page, "gemini: RECITATION")
    if reply.finish_reason != "STOP":
        return PageFailure(page, f"Gemini stopped with {reply.finish_reason}")
    text = clean_page_text(reply.text)
    if not text and offline_chars >= NEEDS_OCR_MIN_CHARS:
        return PageFailure(page, "Gemini returned nothing for a page that has text")
    return PageText(page, text, "gemini")


async def transcribe_with_mistral(session: LlmSession, path: Path, page: int, why: str) -> PageText | PageFailure:
    """The page rendered to PNG and transcribed by the Mistral vision model (one call)."""
    mistral = session.mistral
    if mistral is None:
        return PageFailure(page, f"{why}, and no MISTRAL_API_KEY for the fallback")
    png = render_page_png(path, page, 150)  # PyMuPDF is not thread-safe: rendered on the loop, rarely needed
    try:
        reply = await mistral.chat_image(render("transcribe_page", medium="image of a document page"), png)
    except LlmError as exc:
        return PageFailure(page, f"{why}; Mistral: {exc}")
    if reply.finish_reason != "STOP" or not reply.text.strip():
        return PageFailure(page, f"{why}; Mistral stopped with {reply.finish_reason}")
    return PageText(page, clean_page_text(reply.text), session.settings.mistral_vision_model, why)
