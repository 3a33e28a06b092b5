"""The corpus index in memory: every document's units merged into one BM25 per level, page addressing."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.index.bm25 import Bm25, TermCounts
from engine.index.store import LEVELS, DocIndex, load_doc_index, update_index
from engine.text import tokenize
from engine.workspace import Workspace


def _cat(arrays: list[np.ndarray], dtype) -> np.ndarray:
    return np.concatenate(arrays).astype(dtype) if arrays else np.zeros(0, dtype=dtype)


@dataclass
class CorpusIndex:
    """All per-document indexes merged. Pages have global ids (`page_base[doc] + page - 1`); every
    level's units map to their document (`unit_doc[level]`) and, below nodes, to a global page."""

    docs: list[DocIndex]
    page_base: np.ndarray = field(init=False)
    page_doc: np.ndarray = field(init=False)
    unit_doc: dict[str, np.ndarray] = field(init=False)
    unit_page: dict[str, np.ndarray] = field(init=False)  # global page of page/chunk/passage units
    unit_node: dict[str, np.ndarray] = field(init=False)  # node (within its document) of chunk/title/summary
    bm25: dict[str, Bm25] = field(init=False)
    profiles: Bm25 = field(init=False)
    names: Bm25 = field(init=False)
    name_terms: list[set[str]] = field(init=False)
    extras: dict[str, Any] = field(init=False, default_factory=dict)  # lazily built (tree, vectors, caches)

    def __post_init__(self) -> None:
        docs = self.docs
        counts = [len(d.pages) for d in docs]
        self.page_base = (np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64) if docs
                          else np.zeros(0, np.int64))
        self.page_doc = np.repeat(np.arange(len(docs)), counts).astype(np.int32)
        sizes = {level: [d.terms[level].units for d in docs] for level in LEVELS}
        self.unit_doc = {level: np.repeat(np.arange(len(docs)), sizes[level]).astype(np.int32) for level in LEVELS}
        base = self.page_base
        self.unit_page = {
            "page": np.arange(self.pages, dtype=np.int64),
            "chunk": _cat([d.chunk_page.astype(np.int64) - 1 + base[i] for i, d in enumerate(docs)], np.int64),
            "passage": _cat([d.passage_page.astype(np.int64) - 1 + base[i] for i, d in enumerate(docs)], np.int64),
        }
        self.unit_node = {
            "chunk": _cat([d.chunk_node for d in docs], np.int32),
            "title": _cat([np.arange(len(d.nodes)) for d in docs], np.int32),
            "summary": _cat([np.arange(len(d.nodes)) for d in docs], np.int32),
        }
        self.bm25 = {level: Bm25([d.terms[level] for d in docs]) for level in LEVELS}
        self.profiles = Bm25([TermCounts.from_tokens([tokenize(d.info.profile + "\n" + d.info.summary)])
                              for d in docs])
        self.name_terms = [set(tokenize(d.info.names, joins=d.info.fragmented)) for d in docs]
        self.names = Bm25([TermCounts.from_tokens([sorted(terms)]) for terms in self.name_terms])

    @property
    def pages(self) -> int:
        return int(self.page_doc.shape[0])

    def doc_position(self, name_or_id: str) -> int | None:
        for i, d in enumerate(self.docs):
            if name_or_id in (d.info.doc_id, d.info.file_name):
                return i
        return None

    def gpage(self, doc: int, page: int) -> int:
        return int(self.page_base[doc]) + page - 1

    def page_address(self, gpage: int) -> tuple[int, int]:
        """(document position, 1-based page) of a global page id."""
        doc = int(self.page_doc[gpage])
        return doc, int(gpage - self.page_base[doc]) + 1

    def page_text(self, doc: int, page: int) -> str:
        return self.docs[doc].pages[page - 1]

    def page_mask(self, docs: Sequence[int] | None) -> np.ndarray:
        """Boolean mask over global pages of the given documents (all when None)."""
        if docs is None:
            return np.ones(self.pages, dtype=bool)
        return np.isin(self.page_doc, list(docs))

    def unit_mask(self, level: str, docs: Sequence[int] | None) -> np.ndarray:
        if docs is None:
            return np.ones(len(self.unit_doc[level]), dtype=bool)
        return np.isin(self.unit_doc[level], list(docs))


_CACHE: dict[str, tuple[tuple, CorpusIndex]] = {}
_LOCK = threading.Lock()


def _stamp(folder) -> tuple:
    if not folder.is_dir():
        return ()
    return tuple(sorted((p.name, p.stat().st_mtime_ns, p.stat().st_size) for p in folder.glob("*.json")))


def load_corpus(workspace: Workspace, *, update: bool = True) -> CorpusIndex:
    """The workspace's corpus index, brought up to date first; kept in memory while nothing changes.

    The document records are re-read only when a file under `documents/` changed since the last call.
    """
    with _LOCK:
        key = str(workspace.root.resolve())
        records_stamp = _stamp(workspace.documents)
        cached = _CACHE.get(key)
        if update and not (cached and cached[0][0] == records_stamp):
            update_index(workspace)
        folder = workspace.index / "docs"
        stamp = (records_stamp, _stamp(folder))
        if cached and cached[0] == stamp:
            return cached[1]
        ids = [p.stem for p in sorted(folder.glob("*.json"))]
        loaded = [load_doc_index(workspace, doc_id) for doc_id in ids]
        broken = {doc_id for doc_id, doc in zip(ids, loaded) if doc is None}
        if broken and update:  # unreadable files: build those documents again
            update_index(workspace, rebuild=broken)
            loaded = [doc or load_doc_index(workspace, doc_id) for doc_id, doc in zip(ids, loaded)]
            stamp = (records_stamp, _stamp(folder))
        docs = [d for d in loaded if d is not None]
        docs.sort(key=lambda d: d.info.file_name.lower())
        corpus = CorpusIndex(docs)
        _CACHE[key] = (stamp, corpus)
        return corpus
