"""The corpus index in memory: every document's units merged into one BM25 per level, page addressing."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from engine.index.bm25 import Bm25, TermCounts
from engine.index.cache import BytesLru, CacheStats, approx_nbytes
from engine.index.store import LEVELS, DocIndex, current_indexes
from engine.settings import EnvSettings
from engine.text import tokenize
from engine.workspace import Workspace, json_stamps

log = logging.getLogger(__name__)


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
    unit_node: dict[str, np.ndarray] = field(init=False)  # node (within its document) of each passage
    bm25: dict[str, Bm25] = field(init=False)
    profiles: Bm25 = field(init=False)
    names: Bm25 = field(init=False)
    name_terms: list[set[str]] = field(init=False)
    name_words: frozenset[str] = field(init=False)  # every word some document goes by (name_terms together)
    cover_terms: list[set[str]] = field(init=False)  # the words of a cover page's title block, not among name_terms
    extras: dict[str, Any] = field(init=False, default_factory=dict)  # lazily built (tree, vectors, caches)
    unsaved: list[str] = field(default_factory=list)  # file names whose index was built in memory, not stored
    _base_nbytes: int | None = field(init=False, default=None, repr=False)

    def __post_init__(self) -> None:
        docs = self.docs
        counts = [len(d.pages) for d in docs]
        self.page_base = (np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64) if docs
                          else np.zeros(0, np.int64))
        self.page_doc = np.repeat(np.arange(len(docs)), counts).astype(np.int32)
        sizes = {level: [d.terms[level].units for d in docs] for level in LEVELS}
        sizes["chunk"] = [len(d.chunk_node) for d in docs]  # chunks are addressed (for vectors), not counted
        self.unit_doc = {level: np.repeat(np.arange(len(docs)), n).astype(np.int32) for level, n in sizes.items()}
        base = self.page_base
        self.unit_page = {
            "page": np.arange(self.pages, dtype=np.int64),
            "chunk": _cat([d.chunk_page.astype(np.int64) - 1 + base[i] for i, d in enumerate(docs)], np.int64),
            "passage": _cat([d.passage_page.astype(np.int64) - 1 + base[i] for i, d in enumerate(docs)], np.int64),
        }
        self.unit_node = {"passage": _cat([d.passage_node for d in docs], np.int32)}
        self.bm25 = {level: Bm25([d.terms[level] for d in docs]) for level in LEVELS}
        self.profiles = Bm25([TermCounts.from_tokens([tokenize(d.info.profile + "\n" + d.info.summary)])
                              for d in docs])
        self.name_terms = [name_terms(d.info.names, d.info.fragmented) for d in docs]
        self.name_words = frozenset().union(*self.name_terms)
        self.names = Bm25([TermCounts.from_tokens([sorted(terms)]) for terms in self.name_terms])
        # a cover's words name a document for ranking its pages only (lexical.term_weights, `cover`): not for routing,
        # where a cover's tagline ("Field data without the paperwork") would take questions about its words
        self.cover_terms = [name_terms(d.info.cover, d.info.fragmented) - own for d, own in zip(docs, self.name_terms)]

    @property
    def languages(self) -> set[str]:
        """The languages (ISO 639-1) of the documents, as their metadata gives them."""
        return {d.info.language for d in self.docs if d.info.language}

    def nbytes(self) -> int:
        """Approximate memory held: the merged arrays, every document's index (measured once) and what has
        been added to `extras` since (measured on each call)."""
        if self._base_nbytes is None:
            self._base_nbytes = approx_nbytes([v for k, v in vars(self).items() if k != "extras"])
        return self._base_nbytes + approx_nbytes(self.extras, skip=(CorpusIndex, DocIndex, Bm25))

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

    def page_passages(self, gpage: int) -> np.ndarray:
        """The ids of the passages on a global page, in order (a lookup built once per corpus: not a scan of every
        passage for each page a search reads)."""
        if "page_passages" not in self.extras:
            unit_page = self.unit_page["passage"]
            order = np.argsort(unit_page, kind="stable")
            self.extras["page_passages"] = (order, np.searchsorted(unit_page[order], np.arange(self.pages + 1)))
        order, bounds = self.extras["page_passages"]
        return order[bounds[gpage]:bounds[gpage + 1]]

    def page_mask(self, docs: Sequence[int] | None) -> np.ndarray:
        """Boolean mask over global pages of the given documents (all when None)."""
        if docs is None:
            return np.ones(self.pages, dtype=bool)
        return np.isin(self.page_doc, list(docs))

    def unit_mask(self, level: str, docs: Sequence[int] | None) -> np.ndarray:
        if docs is None:
            return np.ones(len(self.unit_doc[level]), dtype=bool)
        return np.isin(self.unit_doc[level], list(docs))


MB = 1024 * 1024


def cache_limit_bytes(env: Mapping[str, str] | None = None) -> int:
    """PDFRAG_CORPUS_CACHE_MB (default 512): the memory the corpus indexes kept between questions may take."""
    return EnvSettings.from_env(env).corpus_cache_mb * MB


def _stamp(folder: Path) -> tuple:
    return tuple(sorted(json_stamps(folder).items()))


def build_corpus(workspace: Workspace) -> CorpusIndex:
    """The corpus index of the workspace as its documents stand now: stored indexes where they are current,
    others built in memory (named in `unsaved`; nothing is written)."""
    docs, unsaved = current_indexes(workspace)
    docs.sort(key=lambda d: d.info.file_name.lower())
    corpus = CorpusIndex(docs, unsaved=sorted(unsaved, key=str.lower))
    if unsaved:
        log.info("index of %d document(s) built in memory (missing or out of date under %s): %s",
                 len(unsaved), workspace.index, ", ".join(corpus.unsaved))
    return corpus


class CorpusCache:
    """Corpus indexes by workspace, each kept while the workspace's records and stored indexes do not change,
    bounded in bytes (least recently used dropped first) and built once however many threads ask."""

    def __init__(self, max_bytes: Callable[[], int] = cache_limit_bytes) -> None:
        self._table: BytesLru[CorpusIndex] = BytesLru(max_bytes, CorpusIndex.nbytes)

    @property
    def stats(self) -> CacheStats:
        return self._table.stats

    def lru_keys(self) -> list[str]:
        """The workspaces whose corpus is in memory, least recently used first."""
        return [str(key) for key in self._table.lru_keys()]

    def load(self, workspace: Workspace) -> CorpusIndex:
        def build() -> CorpusIndex:
            self._table.discard(lambda key: not Path(str(key)).is_dir())  # workspaces deleted since (sessions)
            return build_corpus(workspace)

        return self._table.get(str(workspace.root.resolve()),
                               lambda: (_stamp(workspace.documents), _stamp(workspace.index / "docs")), build)

    def clear(self) -> None:
        self._table.clear()


_CACHE = CorpusCache()


def load_corpus(workspace: Workspace) -> CorpusIndex:
    """The workspace's corpus index as its documents stand now, kept in memory while nothing changes.

    Never writes: a document whose stored index is missing or out of date is indexed in memory (listed in
    `CorpusIndex.unsaved`); `update_index`, the ingest's index stage, saves indexes. The records and index
    files are only listed (not read) when the corpus is already in memory.
    """
    return _CACHE.load(workspace)


MIXED_RE = re.compile(r"[a-z]{2,}|\d+")  # the letter and digit runs of a word that mixes them
RELEASED_RE = re.compile(r"[a-z]+\d+(?=[a-z]+\d)")  # a name and its number before a release's ("x11" of "x11r7")


def name_terms(names: str, fragmented: bool = False) -> set[str]:
    """The terms that name a document, and the letter and digit runs of those that mix them: a name written
    with its version or number in one word ("docbook5", "v5", "xc9500") is named by the words apart ("DocBook
    5"), and one with its release after it ("X11R7.7") by the name before the release ("X11")."""
    terms = set(tokenize(names, joins=fragmented))
    for term in list(terms):
        if not term.isalpha() and not term.isdigit():
            terms.update(MIXED_RE.findall(term) + RELEASED_RE.findall(term))
    return terms
