"""The pydantic models every stage reads or writes: the contract between stages and with the app.

This package imports nothing else from the engine.
"""

from engine.schemas.answer import Answer, Citation, RetrievedPage, TraceStep
from engine.schemas.base import Model, Provenance, Provider, Status
from engine.schemas.blocks import Block, BlockKind, BlockLine, BlockStyle, DocumentBlocks, PageBlocks
from engine.schemas.index import Chunk, DocIndexInfo, Hit, IndexNode
from engine.schemas.pdf import DocFormat, DocKind, ImageRef, OutlineEntry, PageInfo, PdfInfo, ReadResult
from engine.schemas.metadata import ContextMetadata, Entity, Theme, TimePeriod
from engine.schemas.toc import ExtractedToc, Heading, TocEntry
from engine.schemas.tree import DocTree, TreeNode
from engine.schemas.record import (
    DocumentRecord,
    IngestResult,
    ProgressEvent,
    StageError,
    StageState,
)

__all__ = [
    "Answer", "Citation", "RetrievedPage", "TraceStep", "Chunk", "DocIndexInfo", "Hit", "IndexNode",
    "Block", "BlockKind", "BlockLine", "BlockStyle", "DocumentBlocks", "PageBlocks",
    "ContextMetadata", "DocFormat", "DocKind", "DocTree", "DocumentRecord", "Entity", "ExtractedToc",
    "Heading", "ImageRef", "IngestResult", "Model", "OutlineEntry", "PageInfo", "PdfInfo",
    "ProgressEvent", "Provenance", "Provider", "ReadResult", "StageError", "StageState", "Status", "Theme",
    "TimePeriod", "TocEntry", "TreeNode",
]
