"""Tables of contents: the document's own (contents page, outline) and recovered headings."""

from __future__ import annotations

from pydantic import Field

from engine.schemas.base import Model
from engine.schemas.pdf import OutlineEntry
from engine.schemas.tree import StructureSource


class TocEntry(Model):
    """One line of a printed contents page."""

    title: str
    level: int = Field(default=1, ge=1)
    printed_page: str = Field(default="", description="the page label as printed")
    page: int | None = Field(default=None, description="1-based physical page it maps to")


class ExtractedToc(Model):
    """The document's own tables of contents, kept apart: the contents page and the outline."""

    contents_pages: list[int] = Field(default_factory=list, description="physical pages of the contents page")
    contents: list[TocEntry] = Field(default_factory=list)
    outline: list[OutlineEntry] = Field(default_factory=list)


class Heading(Model):
    """A heading recovered from the page content (never from the outline)."""

    title: str
    level: int = Field(ge=1, description="1 = top")
    page: int = Field(ge=1)
    line: int = Field(ge=0, description="0-based line of its text in the reformatted Markdown (a bold line there "
                                        "when the structure came from the outline)")


class StructureHeading(Model):
    """A heading of the document's structure, reconciled with its best source (outline, contents page, layout)."""

    title: str
    level: int = Field(ge=1, description="depth, 1 = the title (may exceed the six Markdown levels)")
    line: int = Field(ge=0, description="0-based line in the reformatted Markdown")
    source: StructureSource = "layout"
