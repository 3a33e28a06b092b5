"""MistralOcrReader: the document's pages (or only those without a text layer) through Mistral's OCR
endpoint, in batches that stay within its limits (at most `ocr_batch_pages` pages and `ocr_batch_mb` MB of
PDF a request; the endpoint takes 1,000 pages and 50 MB). A batch that fails keeps its pages' text-layer
transcription; one above the size limit is halved until it fits."""

from __future__ import annotations

import asyncio
from pathlib import Path

from engine.llm.clients import LlmSession
from engine.llm.errors import LlmError
from engine.llm.usage import Usage
from engine.pdf import open_document
from engine.readers.offline import Progress
from engine.readers.vision import LlmReader, PageFailure, PageText, clean_page_text, merge_pages
from engine.schemas import ReadResult


def pages_pdf(doc: object, pages: list[int]) -> bytes:
    """A PDF of the given 1-based pages of an open document, in order."""
    import pymupdf

    out = pymupdf.open()
    try:
        for page in pages:
            out.insert_pdf(doc, from_page=page - 1, to_page=page - 1, links=False, annots=False)
        return out.tobytes(garbage=3, deflate=True)
    finally:
        out.close()


def batches(pages: list[int], size: int) -> list[list[int]]:
    return [pages[start:start + size] for start in range(0, len(pages), size)]


class MistralOcrReader(LlmReader):
    """OCR in page batches; pages a batch does not return keep their text-layer transcription."""

    name = "mistral-ocr"
    version = 2

    def read(self, path: Path, *, progress: Progress | None = None, usage: Usage | None = None) -> ReadResult:
        base = self.offline.read(path)
        only_ocr = self.clients.settings.vision_pages == "needs_ocr"
        pages = [info.page for info in base.pages if info.needs_ocr or not only_ocr]
        if not pages:
            return base
        return self.retry(path, base, pages, progress=progress, usage=usage)

    def retry(self, path: Path, base: ReadResult, pages: list[int], *, progress: Progress | None = None,
              usage: Usage | None = None) -> ReadResult:
        """`base` with `pages` read by OCR (a first reading, or a retry of the pages that failed last time)."""
        usage = usage if usage is not None else Usage()
        settings = self.clients.settings

        async def work(session: LlmSession) -> tuple[list[PageText], list[PageFailure]]:
            return await ocr_pages(session, path, pages, settings.ocr_batch_pages,
                                   int(settings.ocr_batch_mb * 2**20), progress)

        try:
            done, failed = self.clients.run(work, usage)
        except LlmError as exc:
            done, failed = [], [PageFailure(page, f"Mistral OCR: {exc}") for page in pages]
        usage.add(fallbacks=len(failed))
        return merge_pages(base, done, failed)


async def ocr_pages(session: LlmSession, path: Path, pages: list[int], batch_pages: int, max_bytes: int,
                    progress: Progress | None = None) -> tuple[list[PageText], list[PageFailure]]:
    """OCR `pages` in batches of at most `batch_pages` pages and `max_bytes` bytes, `page_workers` at once."""
    mistral = session.mistral
    if mistral is None:
        raise LlmError("the Mistral OCR reader needs MISTRAL_API_KEY")
    done: list[PageText] = []
    failed: list[PageFailure] = []
    limit = asyncio.Semaphore(session.settings.page_workers)
    with open_document(path) as doc:  # PyMuPDF stays on this thread: batches are cut before they are sent
        work: list[tuple[list[int], bytes]] = []
        queue = batches(pages, batch_pages)
        while queue:
            batch = queue.pop(0)
            data = pages_pdf(doc, batch)
            if len(data) > max_bytes and len(batch) > 1:
                half = len(batch) // 2
                queue[:0] = [batch[:half], batch[half:]]
            elif len(data) > max_bytes:
                failed.append(PageFailure(batch[0], f"Mistral OCR: the page alone is {len(data) / 2**20:.1f} MB, "
                                                    f"above the {max_bytes / 2**20:.0f} MB a request may carry"))
            else:
                work.append((batch, data))

    async def one(batch: list[int], data: bytes) -> None:
        async with limit:
            try:
                texts = await mistral.ocr_pdf(data)
            except LlmError as exc:
                failed.extend(PageFailure(page, f"Mistral OCR: {exc}") for page in batch)
            else:
                done.extend(PageText(page, clean_page_text(text), "mistral-ocr") for page, text in zip(batch, texts))
                failed.extend(PageFailure(page, "Mistral OCR returned no text for it") for page in batch[len(texts):])
        if progress is not None:
            progress(len(done) + len(failed), len(pages))

    await asyncio.gather(*(one(batch, data) for batch, data in work))
    return sorted(done, key=lambda p: p.page), sorted(failed, key=lambda p: p.page)
