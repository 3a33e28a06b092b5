"""Retrieval methods over the corpus index: `bm25` (passages), `vector`, `tree` (the structure tree's descent
alone: the command-line contract names it; it ranks below `bm25` on every blind set, so no default uses it)
and `hybrid` (passages, the tree's descent and vectors fused, then the best pages re-read for their best
sentence).

Every method returns pages: retrieved passages (or chunks, for vectors) expand to the page they lie on,
one hit per page, with the section (node) whose passage matched best on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from engine.index import lexical
from engine.index.corpus import CorpusIndex
from engine.index.evidence import page_units, score_windows
from engine.text import query_pairs, query_terms
from engine.index.tree import tree_scores
from engine.schemas.index import Hit
from engine.workspace import Workspace

METHODS = ("bm25", "vector", "tree", "hybrid")
HYBRID_WEIGHTS = {"bm25": 1.0, "tree": 1.0, "vector": 1.0}
RERANK_PAGES = 12  # hybrid re-reads this many best pages
RERANK_WEIGHT = 1.0  # the best sentence on a page weighs as much as the fused retrieval score


class MethodUnavailable(RuntimeError):
    """The method needs something this setup lacks (vectors need an embedding provider)."""


@dataclass
class Retrieval:
    """What one search found: routing, a score per global page, and the top pages as hits."""

    question: str
    method: str
    terms: list[str]
    phrases: list[str]
    routing: lexical.Routing
    scores: np.ndarray
    hits: list[Hit]
    notes: list[str] = field(default_factory=list)  # what the search had to leave out, and why

    def routed_files(self, corpus: CorpusIndex) -> list[str]:
        return [corpus.docs[d].info.file_name for d in self.routing.chosen]


class Retriever:
    """Searches one corpus index; vectors join in when an embedder is given."""

    def __init__(self, corpus: CorpusIndex, *, workspace: Workspace | None = None, embedder=None) -> None:
        self.corpus = corpus
        self.workspace = workspace
        self.embedder = embedder

    @property
    def methods(self) -> list[str]:
        return [m for m in METHODS if m != "vector" or self.embedder is not None]

    def resolve_docs(self, docs: Sequence[str] | None) -> list[int] | None:
        """Document positions for names or ids (None: the whole corpus); unknown names raise KeyError."""
        if not docs:
            return None
        positions = []
        for name in docs:
            position = self.corpus.doc_position(name)
            if position is None:
                raise KeyError(name)
            positions.append(position)
        return positions

    def search(self, question: str, *, method: str = "hybrid", k: int = 5,
               docs: Sequence[int] | None = None) -> Retrieval:
        if method not in METHODS:
            raise ValueError(f"unknown retrieval method {method!r} (choose from {', '.join(METHODS)})")
        if method == "vector" and self.embedder is None:
            raise MethodUnavailable("the vector method needs an embedding provider (PDFRAG_EMBEDDINGS=gemini "
                                    "and GEMINI_API_KEY)")
        corpus = self.corpus
        terms, phrases = query_terms(question), query_pairs(question)
        routing = lexical.route(corpus, question, terms, docs)
        parts: dict[str, np.ndarray] = {}
        notes: list[str] = []
        if method in ("bm25", "hybrid"):
            parts["bm25"] = lexical.routed_scores(corpus, routing, terms)
        if method in ("tree", "hybrid"):  # the tree alone ranks worse than passages; fused, it helps a little
            parts["tree"] = tree_scores(corpus, routing, terms)
        if method == "vector":
            parts["vector"] = self._vector_scores(question, docs)
        elif method == "hybrid" and self.embedder is not None:
            from engine.index.vectors import EmbeddingError

            try:
                parts["vector"] = self._vector_scores(question, docs)
            except EmbeddingError as exc:  # fuse what is there; say what was left out
                notes.append(f"vectors left out: {exc}")
        if method == "hybrid":
            scores = np.zeros(corpus.pages, dtype=np.float32)
            for name, part in parts.items():
                top = float(part.max()) if part.size else 0.0
                if top > 0:
                    scores += HYBRID_WEIGHTS[name] * part / top
            scores = self._rerank(question, terms, phrases, routing, scores, docs)
        else:
            scores = parts[method]
        if docs is not None:
            scores = np.where(corpus.page_mask(docs), scores, 0.0)
        if method == "vector":
            routing = _routing_from_scores(corpus, scores, routing)
        return Retrieval(question, method, terms, phrases, routing, scores, self.hits(scores, terms, k), notes)

    def _rerank(self, question: str, terms: list[str], phrases: list[str], routing: lexical.Routing,
                scores: np.ndarray, docs: Sequence[int] | None) -> np.ndarray:
        """Answer-aware second stage: the best pages gain the score of their best sentence, so that a
        page that states the answer outranks one that only shares the topic."""
        if docs is not None:
            scores = np.where(self.corpus.page_mask(docs), scores, 0.0)
        top = float(scores.max()) if scores.size else 0.0
        if top <= 0:
            return scores
        scores = scores / top
        best = [int(g) for g in np.argsort(-scores, kind="stable")[:RERANK_PAGES] if scores[g] > 0]
        evidence = {}
        weights: dict[int, list[float]] = {}
        for g in best:
            doc, page = self.corpus.page_address(g)
            if doc not in weights:
                weights[doc] = lexical.evidence_weights(self.corpus, terms, doc, routing)
            found = score_windows(page_units(self.corpus, doc, page), terms, weights[doc], question, phrases,
                                  singles=True, text=self.corpus.page_text(doc, page))
            evidence[g] = found[0].score if found else 0.0
        strongest = max(evidence.values(), default=0.0)
        if strongest > 0:
            for g, value in evidence.items():
                scores[g] += RERANK_WEIGHT * value / strongest
        return scores

    def _vector_scores(self, question: str, docs: Sequence[int] | None) -> np.ndarray:
        from engine.index.vectors import ensure_vectors, vector_scores

        if self.workspace is None:
            raise MethodUnavailable("vectors need the workspace they are stored in")
        vectors = ensure_vectors(self.workspace, self.corpus, self.embedder)
        query = self.embedder.embed([question], kind="query")[0]
        return vector_scores(self.corpus, vectors, query, docs)

    def hits(self, scores: np.ndarray, terms: Sequence[str], k: int) -> list[Hit]:
        """The k best pages, each with the section whose passage matched the question best on it."""
        corpus = self.corpus
        order = [int(g) for g in np.argsort(-scores, kind="stable")[:k] if scores[g] > 0]
        if not order:
            return []
        passage_scores = corpus.bm25["passage"].scores(terms)
        hits = []
        for g in order:
            doc, page = corpus.page_address(g)
            index = corpus.docs[doc]
            on_page = np.flatnonzero(corpus.unit_page["passage"] == g)
            node = None
            if on_page.size:
                best = int(on_page[np.argmax(passage_scores[on_page])])
                node = index.nodes[int(corpus.unit_node["passage"][best])]
            hits.append(Hit(doc=index.info.file_name, doc_id=index.info.doc_id, page=page,
                            score=round(float(scores[g]), 4), node=node.node if node else None,
                            title=node.title if node else "", path=list(node.path) if node else []))
        return hits


def _routing_from_scores(corpus: CorpusIndex, scores: np.ndarray, routing: lexical.Routing) -> lexical.Routing:
    """For a method that does not route (vectors): the documents of its best pages, best first."""
    best: dict[int, float] = {}
    for g in np.argsort(-scores, kind="stable")[:20]:
        if scores[g] <= 0:
            break
        doc = int(corpus.page_doc[g])
        best.setdefault(doc, float(scores[g]))
    chosen = list(best)[: max(1, len(routing.chosen))]
    return lexical.Routing(routing.scores, chosen, routing.comparison)
