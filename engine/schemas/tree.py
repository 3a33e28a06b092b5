"""The structure tree: every page of the document sits under some node."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from engine.schemas.base import Model

NodeKind = Literal["root", "section", "heading", "page"]
StructureSource = Literal["outline", "contents", "layout", "llm"]
TAGGED_SOURCES: tuple[StructureSource, ...] = ("outline", "contents")  # the document's own account of its structure


class TreeNode(Model):
    """A node of the DocTree.

    `number` is -1 for the root, negative (-2, -3, ...) for abstract section nodes, the 0-based
    Markdown line for report headings and the 1-based page for deck pages.
    """

    title: str
    number: int
    kind: NodeKind
    level: int = Field(ge=0, description="0 for the root")
    start_page: int = Field(ge=1)
    end_page: int = Field(ge=1)
    summary: str = ""
    source: StructureSource = Field(
        default="layout",
        description="where the node comes from: the PDF outline, the printed contents page, the layout or the LLM "
                    "(the root: the source the document's structure was taken from)",
    )
    children: list[TreeNode] = Field(default_factory=list)

    def walk(self):
        """This node and all its descendants, depth first, in document order."""
        yield self
        for child in self.children:
            yield from child.walk()


class DocTree(Model):
    doc_title: str
    pages: int = Field(ge=0)
    root: TreeNode
    warnings: list[str] = Field(default_factory=list)
    context: list[str] = Field(
        default_factory=list,
        description="titles of layout headings that stood over the document's whole outline and were merged into "
                    "the root (its top level is the outline's); retrieval reads them on every section's path",
    )
