"""What opening a PDF tells us: page count, format, docinfo, outline, per-page facts."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from engine.schemas.base import Model
from engine.schemas.blocks import PageBlocks

DocFormat = Literal["portrait", "landscape"]
DocKind = Literal["report", "deck"]  # where the structure lives: headings, or slides (engine.extract.kind)


class OutlineEntry(Model):
    """One bookmark of the PDF outline (author-made, not recovered)."""

    title: str
    level: int = Field(ge=1)
    page: int | None = Field(default=None, description="1-based physical page, None if unresolved")


class PdfInfo(Model):
    file_name: str
    pages: int = Field(ge=0)
    format: DocFormat
    width: float = Field(description="first page width in points, after /Rotate")
    height: float
    rotation: int = 0
    encrypted: bool = False
    tagged: bool = False
    pdf_version: str = ""
    docinfo: dict[str, str] = Field(default_factory=dict)
    outline: list[OutlineEntry] = Field(default_factory=list)
    page_labels: list[str] = Field(
        default_factory=list, description="printed page label of each physical page, if the PDF defines them"
    )


class ImageRef(Model):
    """An embedded image of at least 100x100 px, left as `[IMAGE: id]` in the Markdown."""

    id: str
    page: int = Field(ge=1)
    width: int
    height: int
    bbox: tuple[float, float, float, float] | None = None


class PageInfo(Model):
    """What the reader saw on one page."""

    page: int = Field(ge=1)
    chars: int = 0
    needs_ocr: bool = False
    columns: int = 1
    images: int = 0
    runs_on: bool = Field(default=False, description="its text's last sentence goes on at the top of the next page")
    warnings: list[str] = Field(default_factory=list)


class ReadResult(Model):
    """A reader's output: page-marked Markdown plus what it saw on each page."""

    markdown: str
    pages: list[PageInfo] = Field(default_factory=list)
    images: list[ImageRef] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    blocks: list[PageBlocks] = Field(default_factory=list,
                                     description="typed blocks per page; empty from readers without positions")
