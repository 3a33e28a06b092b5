"""The typed blocks a reader sees on each page (kind, text, style, position); the Markdown is rendered from them."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from engine.schemas.base import Model

BlockKind = Literal[
    "heading", "paragraph", "list_item", "table", "figure", "caption", "code", "formula", "furniture"
]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in PDF points, top-left origin (as PyMuPDF)


class BlockStyle(Model):
    """The dominant style of a block's text (of its first line when the lines differ)."""

    size: float | None = Field(default=None, description="font size in points")
    bold: bool = False
    italic: bool = False
    font: str = Field(default="", description="font name as the PDF gives it, when known")


class BlockLine(Model):
    """One printed line of a block: where its text sits in `Block.text` and on the page."""

    start: int = Field(ge=0, description="offset of the line's first character in the block's text")
    end: int = Field(ge=0, description="offset just after its last character")
    bbox: Box


class Block(Model):
    """One unit of the page: a heading, a paragraph (its printed lines joined), a list item, a table,
    a figure, a caption, code or a formula (their lines kept), or furniture (running headers and
    footers, page numbers, margin notes: kept here, left out of the Markdown)."""

    kind: BlockKind
    text: str = Field(description="plain text; a table's rows and code's or a formula's lines split by newlines, "
                                  "a table's cells by ' | '")
    bbox: Box | None = Field(default=None, description="None when the reader has no positions")
    style: BlockStyle | None = None
    level: int | None = Field(default=None, ge=1, le=6, description="a heading's level (1 = top)")
    image: str | None = Field(default=None, description="a figure's ImageRef id")
    cells: list[list[str]] = Field(default_factory=list, description="a table's rows of cells, in columns "
                                                                     "(an empty string for an empty cell)")
    lines: list[BlockLine] = Field(default_factory=list, description="the printed lines, when known")
    continues: bool = Field(default=False, description="a paragraph that goes on at the top of the next page "
                                                       "(or column): split there only because of the page marker")


class PageBlocks(Model):
    """The blocks of one page, in reading order."""

    page: int = Field(ge=1)
    width: float = 0.0
    height: float = 0.0
    blocks: list[Block] = Field(default_factory=list)
    blank: bool = Field(default=False, description="a page with neither text nor images")
    needs_ocr: bool = Field(default=False, description="images but no text layer: not transcribed")


class DocumentBlocks(Model):
    """Every page's blocks, as one reader (at one version) saw them."""

    reader: str
    version: int
    pages: list[PageBlocks] = Field(default_factory=list)
