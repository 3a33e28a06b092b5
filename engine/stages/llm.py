"""The gemini stages: the offline ones with Gemini (and Mistral) doing the reading, reformatting and extraction.

Each stage is given LlmClients (settings only, so it pickles into worker processes) and opens one session
per run; its calls, tokens, retries and fallbacks go into the stage's usage counters.
"""

from __future__ import annotations

import logging
from typing import Any

from engine.llm.clients import LlmClients
from engine.llm.settings import LlmSettings
from engine.schemas import Provider, ReadResult, Status
from engine.stages.base import Stage, StageContext, StageOutcome
from engine.stages.offline import (
    MetadataStage, OpenStage, ReadStage, ReformatStage, StructureStage, TocStage, TreeStage,
)
from engine.workspace import atomic_write_text

log = logging.getLogger(__name__)


class _Gemini:
    """Mixin: the stage runs with the gemini provider and holds the clients."""

    clients: LlmClients

    def provider(self, provider: Provider) -> Provider:
        return Provider.GEMINI


class GeminiReadStage(_Gemini, ReadStage):
    """Pages transcribed by Gemini vision (or Mistral OCR), the offline text kept for any page that fails."""

    def __init__(self, clients: LlmClients, reader: Any | None = None) -> None:
        self.clients = clients
        super().__init__(reader)

    def _reader_class(self) -> tuple[str, str]:
        if self.clients.settings.reader == "mistral-ocr":
            return "engine.readers.mistral", "MistralOcrReader"
        return "engine.readers.gemini", "GeminiReader"

    def version_sources(self) -> list[tuple[str, str]]:
        if self.reader is not None:
            return super().version_sources()
        module, name = self._reader_class()
        return [(module, f"{name}.version"), ("engine.readers.offline", "OfflineReader.version")]  # the fallback

    def _reader(self) -> Any:
        if self.reader is None:  # made on first use: a cached run imports no reader
            import importlib

            module, name = self._reader_class()
            self.reader = getattr(importlib.import_module(module), name)(self.clients)
        return self.reader

    def options_key(self) -> str:
        return self.clients.settings.options_key()

    def read(self, ctx: StageContext) -> ReadResult:
        """The pages read by the model; when this run retries a partial reading, only its failed pages."""
        from engine.llm.resume import previous
        from engine.readers.vision import failed_pages, resume_base

        reader = self._reader()
        last = previous(ctx, self.name)
        raw_path = ctx.workspace.raw_markdown_path(ctx.record)
        retry = failed_pages(ctx.record.page_info) if last is not None and last.status is Status.PARTIAL else []
        if retry and last is not None and raw_path.exists() and hasattr(reader, "retry"):
            log.info("retrying %d failed page(s) of the last reading", len(retry))
            base = resume_base(raw_path.read_text(encoding="utf-8"), ctx.record.page_info, ctx.record.images,
                               last.warnings, retry)
            return reader.retry(ctx.pdf_path, base, retry, progress=ctx.progress, usage=ctx.usage)
        return reader.read(ctx.pdf_path, progress=ctx.progress, usage=ctx.usage)


class LlmReformatStage(_Gemini, ReformatStage):
    """Heading levels repaired by Gemini in page windows, guarded, then normalised like offline."""

    def __init__(self, clients: LlmClients) -> None:
        self.clients = clients

    def version_sources(self) -> list[tuple[str, str]]:
        return [("engine.reformat_llm", "VERSION"), *super().version_sources()]

    def options_key(self) -> str:
        settings = self.clients.settings
        return f"window={settings.reformat_window_pages};recall={settings.reformat_min_recall}"

    def run(self, ctx: StageContext) -> StageOutcome:
        from engine.extract.metadata.document import shown_title
        from engine.reformat_llm import reformat_document

        self.decide_kind(ctx)
        raw, doc_format = ctx.raw_markdown(), ctx.doc_format
        title = shown_title("", ctx.record.pdf.docinfo.get("title", "") if ctx.record.pdf else "", ctx.record.file_name)
        report = self.clients.run(lambda s: reformat_document(s, raw, doc_format=doc_format, title=title), ctx.usage)
        atomic_write_text(ctx.workspace.reformatted_markdown_path(ctx.record), report.markdown)
        ctx.usage.add(fallbacks=report.fallbacks)
        return StageOutcome(warnings=report.warnings, partial=report.failed)


class LlmTocStage(_Gemini, TocStage):
    """The printed contents page found by Gemini and parsed by the offline parser."""

    def __init__(self, clients: LlmClients) -> None:
        self.clients = clients

    def version_sources(self) -> list[tuple[str, str]]:
        return [("engine.extract.toc_llm", "VERSION"), ("engine.extract.toc_extract", "VERSION")]

    def run(self, ctx: StageContext) -> StageOutcome:
        from engine.extract.toc_llm import extract_toc_llm
        from engine.pdf import open_document, page_texts

        with open_document(ctx.pdf_path) as doc:
            first = page_texts(doc, 10)
        pdf, raw = ctx.record.pdf, ctx.raw_markdown()
        labels, outline = (pdf.page_labels, pdf.outline) if pdf else ([], [])
        report = self.clients.run(lambda s: extract_toc_llm(s, first, raw, labels, outline), ctx.usage)
        ctx.record.extracted_toc = report.toc
        ctx.usage.add(fallbacks=1 if report.warnings else 0)
        return StageOutcome(warnings=report.warnings, partial=report.failed)


class LlmStructureStage(_Gemini, StructureStage):
    """Reports: the created TOC of the LLM-reformatted headings. Decks: titles and sections from Gemini."""

    def __init__(self, clients: LlmClients) -> None:
        self.clients = clients

    def version_sources(self) -> list[tuple[str, str]]:
        return [*super().version_sources(), ("engine.extract.deck_llm", "VERSION")]

    def run(self, ctx: StageContext) -> StageOutcome:
        if ctx.kind != "deck":
            return super().run(ctx)
        from engine.extract import landscape
        from engine.extract.deck_llm import analyse_deck
        from engine.extract.toc_create import create_deck_toc, headings_from_markdown

        markdown, record = ctx.reformatted_markdown(), ctx.record
        report = self.clients.run(lambda s: analyse_deck(s, markdown), ctx.usage)
        record.headings = headings_from_markdown(markdown)
        record.landscape_pages = landscape.landscape_pages(report.titles)
        outline = record.pdf.outline if record.pdf else []
        sections = landscape.outline_sections(outline, report.titles) or report.sections
        record.structure = landscape.deck_structure(sections, report.titles)
        record.created_toc = create_deck_toc(sections)
        ctx.usage.add(fallbacks=report.fallbacks)
        return StageOutcome(warnings=report.warnings, partial=report.failed)


class LlmMetadataStage(_Gemini, MetadataStage):
    """Context metadata by structured output, valid fields with provenance llm, offline values otherwise."""

    def __init__(self, clients: LlmClients) -> None:
        self.clients = clients

    def version_sources(self) -> list[tuple[str, str]]:
        return [("engine.extract.metadata_llm", "VERSION"), ("engine.extract.metadata", "VERSION")]

    def run(self, ctx: StageContext) -> StageOutcome:
        from engine.extract.metadata_llm import extract_metadata_llm

        record, markdown, pdf = ctx.record, ctx.reformatted_markdown(), ctx.pdf_info()
        report = self.clients.run(lambda s: extract_metadata_llm(s, pdf, markdown, record.headings, kind=ctx.kind),
                                  ctx.usage)
        record.metadata = report.metadata
        ctx.usage.add(fallbacks=1 if report.failed else 0)
        return StageOutcome(warnings=report.warnings, partial=report.failed)


def gemini_stages(llm: LlmClients | LlmSettings | None = None, reader: Any | None = None) -> list[Stage]:
    """The stages of the gemini provider, in order (the tree is parsed as offline, from their outputs)."""
    clients = llm if isinstance(llm, LlmClients) else LlmClients(llm)
    return [OpenStage(), GeminiReadStage(clients, reader), LlmReformatStage(clients), LlmTocStage(clients),
            LlmStructureStage(clients), LlmMetadataStage(clients), TreeStage()]
