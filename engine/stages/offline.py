"""The offline stages: open, read (text layer), reformat, toc, structure, metadata and tree; no network."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from engine.schemas import DocumentBlocks, Provider
from engine.schemas.tree import StructureSource
from engine.stages.base import Stage, StageContext, StageOutcome
from engine.workspace import atomic_write_text

log = logging.getLogger(__name__)

OPEN_STAGE_VERSION = 2


class OpenStage(Stage):
    """Validate the PDF and describe it (pages, format, docinfo, outline, page labels)."""

    name, fields = "open", ("pdf", "pages", "format")

    def version_sources(self) -> list[tuple[str, str]]:
        return [("engine.stages.offline", "OPEN_STAGE_VERSION")]

    def run(self, ctx: StageContext) -> StageOutcome:
        from engine.pdf import CorruptPdfError, describe, open_document

        path, warnings = ctx.pdf_path, []
        try:
            with open_document(path) as doc:
                info, repaired = describe(doc, path.name), bool(doc.is_repaired)
        except CorruptPdfError:
            if _truncated(path):
                raise CorruptPdfError(TRUNCATED) from None
            raise
        if repaired and _truncated(path):
            raise CorruptPdfError(TRUNCATED)
        if repaired:
            warnings.append("the file's cross-reference table was damaged and has been repaired")
        ctx.record.pdf, ctx.record.pages, ctx.record.format = info, info.pages, info.format
        return StageOutcome(warnings=warnings)


TRUNCATED = ("the file is truncated (it ends before the PDF end-of-file marker), probably cut off during a "
             "download or upload; add the complete file again")


def _truncated(path: Path, tail: int = 4096) -> bool:
    """No `%%EOF` near the end: the file was cut short (MuPDF may still recover some pages)."""
    with open(path, "rb") as handle:
        handle.seek(max(0, path.stat().st_size - tail))
        return b"%%EOF" not in handle.read()


class ReadStage(Stage):
    """Transcribe every page to page-marked Markdown (cache/<rel>.md) and, from a reader with positions,
    its typed blocks (cache/<rel>.blocks.json), from which that Markdown was rendered."""

    name, requires, fields = "read", ("open",), ("page_info", "images")

    def __init__(self, reader: Any | None = None) -> None:
        self.reader = reader

    def _reader(self) -> Any:
        if self.reader is None:
            from engine.readers.offline import OfflineReader

            self.reader = OfflineReader()
        return self.reader

    def version_sources(self) -> list[tuple[str, str]]:
        if self.reader is None:
            return [("engine.readers.offline", "OfflineReader.version")]
        return [(type(self.reader).__module__, f"{type(self.reader).__qualname__}.version")]

    def provider(self, provider: Provider) -> Provider:
        return provider  # the reader is chosen by the provider

    def outputs_exist(self, ctx: StageContext) -> bool:
        return ctx.workspace.raw_markdown_path(ctx.record).exists()

    def read(self, ctx: StageContext) -> Any:
        """The reader's ReadResult for this document (a subclass may pass more, such as usage counters)."""
        return self._reader().read(ctx.pdf_path, progress=ctx.progress)

    def run(self, ctx: StageContext) -> StageOutcome:
        from engine.extract.kind import runs_on_from_blocks, runs_on_from_markdown

        result = self.read(ctx)
        blocks_path = ctx.workspace.blocks_path(ctx.record)
        if result.blocks:  # the blocks first: the raw Markdown is what marks the stage's output as there
            reader = self._reader()
            document = DocumentBlocks(reader=str(getattr(reader, "name", type(reader).__name__)),
                                      version=int(getattr(reader, "version", 0)), pages=result.blocks)
            atomic_write_text(blocks_path, document.model_dump_json(exclude_defaults=True))
        else:  # a reader without positions (an LLM's transcription) leaves no blocks file, nor a stale one
            blocks_path.unlink(missing_ok=True)
        atomic_write_text(ctx.workspace.raw_markdown_path(ctx.record), result.markdown)
        ctx.record.page_info, ctx.record.images = result.pages, result.images
        runs_on = runs_on_from_blocks(result.blocks) if result.blocks else runs_on_from_markdown(result.markdown)
        for info in result.pages:
            info.runs_on = 0 < info.page <= len(runs_on) and runs_on[info.page - 1]
        ocr = [p.page for p in result.pages if p.needs_ocr]
        log.debug("read pages=%d blocks=%d needs_ocr=%d", len(result.pages), sum(len(p.blocks) for p in result.blocks),
                  len(ocr))
        warnings = list(result.warnings)
        if ocr:
            listed = ", ".join(map(str, ocr[:20])) + (", …" if len(ocr) > 20 else "")
            warnings.insert(0, f"{len(ocr)} page(s) without a text layer need OCR: {listed}")
        return StageOutcome(warnings=warnings, partial=bool(ocr or result.warnings))


class ReformatStage(Stage):
    """Coherent heading levels, one H1 (cache/<rel>.reformatted.md)."""

    name, requires, fields = "reformat", ("read",), ("kind",)

    def version_sources(self) -> list[tuple[str, str]]:
        return [("engine.reformat", "VERSION"), ("engine.extract.kind", "VERSION")]

    @staticmethod
    def decide_kind(ctx: StageContext) -> None:
        """Report or deck (engine.extract.kind), from the pages as the reader saw them: the reformatters and
        every later stage work to it."""
        from engine.extract.kind import document_kind, has_contents_page

        outline = ctx.record.pdf.outline if ctx.record.pdf else []
        landscape = ctx.record.format == "landscape"  # (a portrait document is a report: nothing to read)
        ctx.record.kind = document_kind(ctx.record.format, ctx.record.page_info,
                                        max((entry.level for entry in outline), default=0),
                                        landscape and has_contents_page(ctx.raw_markdown()))

    def outputs_exist(self, ctx: StageContext) -> bool:
        return ctx.workspace.reformatted_markdown_path(ctx.record).exists()

    def run(self, ctx: StageContext) -> StageOutcome:
        from engine.reformat import normalize_document

        self.decide_kind(ctx)
        text, warnings = normalize_document(
            ctx.raw_markdown(), doc_format=ctx.doc_format, fallback_title=ctx.file_stem
        )
        atomic_write_text(ctx.workspace.reformatted_markdown_path(ctx.record), text)
        return StageOutcome(warnings=list(warnings))


class TocStage(Stage):
    """The document's own contents page, and its PDF outline kept apart."""

    name, requires, optional, fields = "toc", ("read",), True, ("extracted_toc",)

    def version_sources(self) -> list[tuple[str, str]]:
        return [("engine.extract.toc_extract", "VERSION")]

    def run(self, ctx: StageContext) -> StageOutcome:
        from engine.extract.toc_extract import extract_toc
        from engine.markdown import split_pages
        from engine.pdf import open_document, page_texts

        with open_document(ctx.pdf_path) as doc:
            first = page_texts(doc, 10)
        pdf = ctx.record.pdf
        ctx.record.extracted_toc = extract_toc(
            first, split_pages(ctx.raw_markdown()), pdf.page_labels if pdf else [], pdf.outline if pdf else []
        )
        return StageOutcome()


class StructureStage(Stage):
    """Headings from the page content; reports: the structure from the best source (outline, contents page,
    layout) written into the reformatted Markdown, the created TOC and the structure string; decks: sections."""

    name, requires, uses = "structure", ("reformat",), ("toc",)
    fields = ("headings", "created_toc", "landscape_pages", "structure")

    def version_sources(self) -> list[tuple[str, str]]:
        return [("engine.extract.toc_create", "VERSION"), ("engine.extract.landscape", "VERSION"),
                ("engine.extract.reconcile", "VERSION")]

    def run(self, ctx: StageContext) -> StageOutcome:
        from engine.extract import landscape
        from engine.extract.reconcile import best_structure
        from engine.extract.toc_create import create_deck_toc, create_report_toc, headings_from_markdown
        from engine.reformat import normalize_document

        record, offline = ctx.record, self.provider(ctx.provider) is Provider.OFFLINE
        # the layout's headings (never the outline's), which `show --what headings` reports, from the Markdown
        # as the offline reformatter writes it: recomputed, since an earlier run of this stage may have
        # reconciled the file (a model's reformatting is read back: reconciling is idempotent)
        layout = normalize_document(ctx.raw_markdown(), doc_format=ctx.doc_format,
                                    fallback_title=ctx.file_stem)[0]
        record.headings = headings_from_markdown(layout)
        markdown = layout if offline else ctx.reformatted_markdown()
        if ctx.kind == "deck":
            titles = landscape.slide_titles(markdown)
            sections = landscape.outline_sections(record.pdf.outline if record.pdf else [], titles) \
                or landscape.group_sections(titles, landscape.find_agenda(markdown, titles))
            record.landscape_pages = landscape.landscape_pages(titles)
            record.structure = landscape.deck_structure(sections, titles)
            record.created_toc = create_deck_toc(sections)
            log.debug("deck slides=%d sections=%d", len(titles), len(sections))
            return StageOutcome()
        from engine.extract.metadata.document import extract_title

        fallback: StructureSource = "layout" if offline else "llm"
        title = extract_title(record.pdf, layout, record.headings)[0] if record.pdf else ""
        result = best_structure(markdown, record.pdf.outline if record.pdf else [], record.extracted_toc.contents,
                                fallback=fallback, fallback_title=ctx.file_stem, title=title,
                                contents_pages=record.extracted_toc.contents_pages)
        if offline:  # the layout's headings where their text now stands (a bold line when another source won)
            record.headings = [h.model_copy(update={"line": result.line(h.line)}) for h in record.headings]
        if result.markdown != ctx.reformatted_markdown():
            atomic_write_text(ctx.workspace.reformatted_markdown_path(record), result.markdown)
        record.created_toc = create_report_toc(result.markdown, ctx.file_stem, result.headings)
        record.structure, record.landscape_pages = record.created_toc, ""
        log.debug("structure source=%s headings=%d", result.source, len(result.headings))
        return StageOutcome(warnings=result.warnings)


class MetadataStage(Stage):
    """Context metadata (title, author, date, language, themes…) with provenance."""

    name, requires, optional, fields = "metadata", ("reformat", "structure"), True, ("metadata",)

    def version_sources(self) -> list[tuple[str, str]]:
        return [("engine.extract.metadata", "VERSION")]

    def run(self, ctx: StageContext) -> StageOutcome:
        from engine.extract.metadata import extract_metadata

        ctx.record.metadata = extract_metadata(ctx.pdf_info(), ctx.reformatted_markdown(), ctx.record.headings,
                                               kind=ctx.kind)
        return StageOutcome()


class TreeStage(Stage):
    """The DocTree parsed from the structure string; every page under some node."""

    name, requires, uses, fields = "tree", ("structure",), ("metadata",), ("tree",)

    def version_sources(self) -> list[tuple[str, str]]:
        return [("engine.structure", "VERSION")]

    def run(self, ctx: StageContext) -> StageOutcome:
        from engine.extract.metadata.document import shown_title
        from engine.structure import build_tree

        record = ctx.record
        title = shown_title(record.metadata.title, record.pdf.docinfo.get("title", "") if record.pdf else "",
                            record.file_name)
        markdown = ctx.reformatted_markdown() if ctx.kind == "report" else None
        made_by = record.stages.get("structure")
        by_model = made_by is not None and made_by.provider is not Provider.OFFLINE
        source: StructureSource = "llm" if by_model else "layout"
        record.tree = build_tree(record.structure, kind=ctx.kind, pages=record.pages, doc_title=title,
                                 markdown=markdown, source=source, aliases=(ctx.file_stem,))
        return StageOutcome(warnings=list(record.tree.warnings))
