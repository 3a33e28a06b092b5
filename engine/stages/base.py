"""The stage interface: what a stage reads and writes (StageContext), reports (StageOutcome) and declares."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from engine.llm.usage import Usage
from engine.schemas import DocFormat, DocKind, DocumentRecord, PdfInfo, Provider
from engine.workspace import Workspace


@dataclass
class StageOutcome:
    """What a stage reports besides the record fields it set."""

    warnings: list[str] = field(default_factory=list)
    partial: bool = False  # some pages or parts could not be done (the document becomes `partial`)


@dataclass
class StageContext:
    """What a stage may read and write: the record being built, the workspace files and its usage counters."""

    workspace: Workspace
    record: DocumentRecord
    provider: Provider
    model: str
    progress: Callable[[int, int], None]
    usage: Usage = field(default_factory=Usage)  # reset before each stage runs; copied into its StageState

    @property
    def pdf_path(self) -> Path:
        return self.workspace.pdf_path(self.record)

    @property
    def kind(self) -> DocKind:
        return self.record.doc_kind

    @property
    def doc_format(self) -> DocFormat:
        """The format the reformatters work to: "landscape" for a deck (one slide a page), else "portrait"
        (a landscape report reads as a portrait one)."""
        return "landscape" if self.kind == "deck" else "portrait"

    @property
    def file_stem(self) -> str:
        return Path(self.record.file_name).stem

    def raw_markdown(self) -> str:
        return self.workspace.raw_markdown_path(self.record).read_text(encoding="utf-8")

    def reformatted_markdown(self) -> str:
        return self.workspace.reformatted_markdown_path(self.record).read_text(encoding="utf-8")

    def pdf_info(self) -> PdfInfo:
        """What the open stage read of the PDF (stages that need it require the open stage)."""
        if self.record.pdf is None:
            raise RuntimeError("the PDF has not been opened (the open stage has not run)")
        return self.record.pdf


class Stage:
    """One step: `run` sets the record `fields` it owns; `requires` must have succeeded, `uses` may have.

    Its version is read from `version_sources()`, (module, attribute) pairs such as
    ("engine.reformat", "VERSION"), so that a cache check need not import unchanged modules.
    `options_key()` names settings that change its output besides provider and model (part of the cache key).
    """

    name: ClassVar[str] = ""
    requires: ClassVar[tuple[str, ...]] = ()
    uses: ClassVar[tuple[str, ...]] = ()
    optional: ClassVar[bool] = False  # a failure makes the document partial, not failed
    fields: ClassVar[tuple[str, ...]] = ()  # record fields reset when the stage fails or is skipped

    def version_sources(self) -> list[tuple[str, str]]:
        return []

    def version(self) -> int:
        return combine_versions([import_attr(m, a) for m, a in self.version_sources()])

    def provider(self, provider: Provider) -> Provider:
        return Provider.OFFLINE

    def options_key(self) -> str:
        return ""

    def outputs_exist(self, ctx: StageContext) -> bool:
        return True

    def run(self, ctx: StageContext) -> StageOutcome:
        raise NotImplementedError


def combine_versions(values: list[int]) -> int:
    """One number for a stage built from several versioned modules (1 when none declares a version)."""
    total = 0
    for value in values:
        total = total * 1000 + value
    return total or 1


def import_attr(module: str, attribute: str) -> int:
    """The integer at `module.attribute` (dotted); a missing one is an error, never a silent default
    (a stage whose version cannot be read would never be recomputed when its code changes)."""
    value: Any = importlib.import_module(module)
    for part in attribute.split("."):
        value = getattr(value, part)
    return int(value)
