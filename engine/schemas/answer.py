"""What asking the corpus returns: an answer with page citations, the retrieved pages and a trace."""

from __future__ import annotations

from pydantic import Field

from engine.schemas.base import Model


class Citation(Model):
    doc: str = Field(description="file name")
    page: int = Field(ge=1)
    quote: str = Field(description="text that occurs on that page (sentences apart on it joined by ' … ')")
    boxes: list[list[float]] = Field(default_factory=list, description=(
        "rectangles [x0, y0, x1, y1] of the quoted text on its page, in PDF points, top-left origin"))


class Passage(Model):
    """A longer stretch of a cited page around what the answer quotes (context to read on)."""

    doc: str = Field(description="file name")
    page: int = Field(ge=1)
    text: str


class RetrievedPage(Model):
    doc: str
    page: int = Field(ge=1)
    score: float


class TraceStep(Model):
    """One step of answering: routing, a tool call, a retrieval, a decision."""

    kind: str
    detail: str = ""
    tool: str | None = None
    doc: str | None = None


class Answer(Model):
    answer: str
    citations: list[Citation] = Field(default_factory=list)
    retrieved: list[RetrievedPage] = Field(default_factory=list)
    trace: list[TraceStep] = Field(default_factory=list)
    passages: list[Passage] = Field(default_factory=list, description="the context of the quoted sentences")
    covered: bool = Field(default=True, description="False when the corpus does not support an answer")
