"""The retrieval index's units: section nodes addressed like the document, and what a search returns."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from engine.schemas.base import Model

NodeKind = Literal["front", "section", "page"]


class IndexNode(Model):
    """A unit of a document: a heading section of a report (its own text, up to the next heading) or a
    deck page. `path` holds the titles from the top of the document down to this node."""

    doc_id: str
    node: int = Field(ge=0, description="position of the node in its document")
    kind: NodeKind
    title: str
    path: list[str] = Field(default_factory=list)
    line: int | None = Field(default=None, description="0-based Markdown line of the heading (reports)")
    start_page: int = Field(ge=1)
    end_page: int = Field(ge=1)
    parent: int | None = Field(default=None, description="node of the enclosing section, None at the top")
    summary: str = Field(default="", description="the first sentences of the node's own text")


class Chunk(Model):
    """The part of a node that lies on one page: what BM25 and vectors score."""

    node: int = Field(ge=0)
    page: int = Field(ge=1)
    text: str


class DocIndexInfo(Model):
    """What a per-document index was built from (it is rebuilt when any of this changes)."""

    doc_id: str
    file_name: str
    title: str
    pages: int
    version: int
    source_key: str = Field(description="the tree stage's cache key, or a hash of the inputs")
    fragmented: bool = False
    summary: str = ""
    names: str = Field(default="", description="title, file name, first-page headings: how it names itself")
    profile: str = Field(default="", description="title, type, keywords, themes, headings: the routing text")
    cover: str = Field(default="", description="a cover page's title block (authors, venue, date) when the first page "
                       "is one: words that name it for ranking its pages")
    language: str = Field(default="", description="ISO 639-1, from the document's metadata ('' when unknown)")
    furniture: str = Field(default="", description="the distinct lines of its running headers and footers (left out of "
                           "its pages' text): names it prints only there, as a deck's footline its authors' institute")


class Hit(Model):
    """A retrieved page: its score and the best section on it."""

    doc: str = Field(description="file name")
    doc_id: str
    page: int = Field(ge=1)
    score: float
    node: int | None = None
    title: str = ""
    path: list[str] = Field(default_factory=list)
