"""The DocumentRecord (everything known about one document) and the pipeline's messages."""

from __future__ import annotations

from pydantic import Field

from engine.schemas.base import Model, Provider, Status
from engine.schemas.metadata import ContextMetadata
from engine.schemas.pdf import DocFormat, DocKind, ImageRef, PageInfo, PdfInfo
from engine.schemas.toc import ExtractedToc, Heading
from engine.schemas.tree import DocTree


class StageError(Model):
    message: str
    page: int | None = None


class StageState(Model):
    """How one stage went for one document, and the key its cached result is valid for."""

    status: Status = Status.PENDING
    provider: Provider = Provider.OFFLINE
    model: str = ""
    version: int = 1
    cache_key: str = ""
    seconds: float = 0.0
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    retries: int = 0
    fallbacks: int = 0
    warnings: list[str] = Field(default_factory=list)
    errors: list[StageError] = Field(default_factory=list)


class DocumentRecord(Model):
    doc_id: str
    file_name: str
    rel_path: str = Field(description="path under the workspace's pdfs/ folder")
    aliases: list[str] = Field(default_factory=list, description="other names the same content arrived under")
    sha256: str
    size_bytes: int
    status: Status = Status.PENDING
    error: str | None = None
    pages: int = 0
    format: DocFormat | None = None
    kind: DocKind | None = Field(default=None, description="report or deck, decided by the reformat stage from "
                                                          "the pages as read (engine.extract.kind)")
    pdf: PdfInfo | None = None
    page_info: list[PageInfo] = Field(default_factory=list)
    images: list[ImageRef] = Field(default_factory=list)
    metadata: ContextMetadata = Field(default_factory=ContextMetadata)
    extracted_toc: ExtractedToc = Field(default_factory=ExtractedToc)
    headings: list[Heading] = Field(default_factory=list)
    created_toc: str = ""
    landscape_pages: str = ""
    structure: str = ""
    tree: DocTree | None = None
    stages: dict[str, StageState] = Field(default_factory=dict)

    @property
    def doc_kind(self) -> DocKind:
        """`kind`, or before the document is read what its format suggests (a landscape one is a deck)."""
        return self.kind or ("deck" if self.format == "landscape" else "report")

    @property
    def needs_ocr_pages(self) -> list[int]:
        return [p.page for p in self.page_info if p.needs_ocr]


class ProgressEvent(Model):
    doc: str
    stage: str
    done: int
    total: int
    message: str = ""


class IngestResult(Model):
    """One line of `pdfrag ingest --json`."""

    doc_id: str | None
    file_name: str
    pages: int
    format: DocFormat | None
    status: Status
    error: str | None = None
    seconds: float
