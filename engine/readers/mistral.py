"""MistralOcrReader: the whole PDF (or only its pages without a text layer) through Mistral's OCR endpoint."""

from __future__ import annotations

from pathlib import Path

from engine.llm.clients import LlmSession
from engine.llm.errors import LlmError
from engine.llm.usage import Usage
from engine.pdf import split_pdf_pages
from engine.readers.offline import Progress
from engine.readers.vision import LlmReader, PageFailure, PageText, clean_page_text, merge_pages
from engine.schemas import ReadResult



class MistralOcrReader(LlmReader):
    """One OCR call for the document; pages it does not return keep their text-layer transcription."""

    name = "mistral-ocr"
    version = 1

    def read(self, path: Path, *, progress: Progress | None = None, usage: Usage | None = None) -> ReadResult:
        usage = usage if usage is not None else Usage()
        base = self.offline.read(path)
        only_ocr = self.clients.settings.vision_pages == "needs_ocr"
        pages = [info.page for info in base.pages if info.needs_ocr or not only_ocr]
        if not pages:
            return base
        if only_ocr:  # a PDF of just those pages, in order
            import pymupdf

            merged = pymupdf.open()
            for data in split_pdf_pages(path, pages).values():
                with pymupdf.open(stream=data, filetype="pdf") as single:
                    merged.insert_pdf(single)
            pdf = merged.tobytes()
            merged.close()
        else:
            pdf = path.read_bytes()

        async def work(session: LlmSession) -> list[str]:
            if session.mistral is None:
                raise LlmError("the Mistral OCR reader needs MISTRAL_API_KEY")
            return await session.mistral.ocr_pdf(pdf)

        try:
            texts = self.clients.run(work, usage)
        except LlmError as exc:
            usage.add(fallbacks=len(pages))
            return merge_pages(base, [], [PageFailure(page, f"Mistral OCR: {exc}") for page in pages])
        done = [PageText(page, clean_page_text(text), "mistral-ocr") for page, text in zip(pages, texts)]
        failed = [PageFailure(page, "Mistral OCR returned no text for it") for page in pages[len(texts):]]
        usage.add(fallbacks=len(failed))
        if progress is not None:
            progress(len(pages), len(pages))
        return merge_pages(base, done, failed)
