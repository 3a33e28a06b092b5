"""Retrieval methods over the corpus index: `bm25` (passages), `vector`, `tree` (the structure tree's descent
alone: the command-line contract names it; it ranks below `bm25` on every blind set, so no default uses it)
and `hybrid` (passages, the tree's descent and vectors fused into candidates, which a fitted model of their
parts and best sentence orders: engine/index/rank.py).

Every method returns pages: retrieved passages (or chunks, for vectors) expand to the page they lie on,
one hit per page, with the section (node) whose passage matched best on it. A comparison's hits take turns
between the compared documents (`alternate`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from engine.index import lexical, rank
from engine.index.corpus import CorpusIndex
from engine.index.builds import on_last_steps
from engine.index.evidence import answer_type, defined_term, definition_pages, spelling_pages, to_expand
from engine.index.sections import NamedSection, is_deck, named_sections, names_slides, titled_sections
from engine.text import query_pairs, query_terms, question_language
from engine.index.tree import tree_scores
from engine.schemas.index import Hit
from engine.workspace import Workspace

METHODS = ("bm25", "vector", "tree", "hybrid")
HYBRID_WEIGHTS = {"bm25": 1.0, "tree": 1.0, "vector": 1.0}  # the fused score that picks hybrid's candidates
ALTERNATE_DEPTH = 20  # a comparison's first pages that take turns between the compared documents


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
    notes: list[str] = field(default_factory=list)  # what the search had to leave out or put first, and why
    language: str = "en"  # the language the question is asked in (engine.text.question_language)
    sections: list[NamedSection] = field(default_factory=list)  # the sections it names, whose pages come first

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
        asked_in = question_language(question, corpus.languages)
        terms, phrases = self.terms(question, asked_in), query_pairs(question, asked_in)
        routing = slides_first(corpus, question, terms, lexical.route(corpus, question, terms, docs))
        language = asked_in or lexical.terms_language(corpus, terms)
        # a document written in another language than the question: its words that share a question word's root too
        # (of the routed documents; of all when none holds a word of the question, and routed by them then)
        routed = routing.chosen[:2] if routing.comparison else routing.chosen[:1]
        cognates = lexical.cognate_terms(corpus, routed or (docs if docs is not None else range(len(corpus.docs))),
                                         terms, language)
        if cognates:
            terms = terms + cognates
            if not routed:
                routing = slides_first(corpus, question, terms, lexical.route(corpus, question, terms, docs))
        parts: dict[str, np.ndarray] = {}
        notes: list[str] = []
        if method in ("bm25", "hybrid"):
            parts["bm25"] = lexical.routed_scores(corpus, routing, terms)
        if method in ("tree", "hybrid"):  # the tree alone ranks worse than passages; in hybrid it finds candidates
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
            scores = rank.rerank(corpus, question, terms, phrases, routing, parts, fuse(corpus, parts, docs))
        else:
            scores = parts[method]
        if docs is not None:
            scores = np.where(corpus.page_mask(docs), scores, 0.0)
        if method == "vector":
            routing = _routing_from_scores(corpus, scores, routing)
        named = named_sections(corpus, question, routing.chosen[:2] if routing.comparison else routing.chosen[:1])
        if named:  # a section the question names (by number or title) is where it asks to look
            scores = sections_first(corpus, scores, named)
            notes += [s.note(corpus.docs[s.doc].info.file_name) for s in named]
        elif routing.chosen and not routing.comparison:  # a term asked to be defined: where the document defines it
            defining, how = where_defined(corpus, question, routing.chosen[0])
            if defining:
                scores = pages_first(scores, defining)
                notes.append(f"{how} '{defined_term(question) or ', '.join(to_expand(question))}' on page(s) "
                             f"{', '.join(str(corpus.page_address(g)[1]) for g in defining)}: they come first")
        scores = on_last_steps(corpus, scores)  # (a slide built up over pages: its last page holds it all)
        order = alternate(corpus, scores, routing.chosen[:2]) if routing.comparison else None
        return Retrieval(question, method, terms, phrases, routing, scores, self.hits(scores, terms, k, order), notes,
                         language, named)

    def terms(self, question: str, asked_in: str | None = None) -> list[str]:
        """The terms a question is searched and routed by: its content words stemmed (engine.text.query_terms), and
        its compounds as the corpus writes them (lexical.compound_terms). `asked_in`: the question's language when
        known (engine.text.question_language; read here when not given)."""
        if asked_in is None:
            asked_in = question_language(question, self.corpus.languages)
        return lexical.compound_terms(self.corpus, question, query_terms(question, asked_in), asked_in)

    def _vector_scores(self, question: str, docs: Sequence[int] | None) -> np.ndarray:
        from engine.index.vectors import ensure_vectors, vector_scores

        if self.workspace is None:
            raise MethodUnavailable("vectors need the workspace they are stored in")
        vectors = ensure_vectors(self.workspace, self.corpus, self.embedder)
        query = self.embedder.embed([question], kind="query")[0]
        return vector_scores(self.corpus, vectors, query, docs)

    def hits(self, scores: np.ndarray, terms: Sequence[str], k: int, order: Sequence[int] | None = None) -> list[Hit]:
        """The k best pages (in `order` when given, else by score), each with the section whose passage matched
        the question best on it."""
        corpus = self.corpus
        order = [int(g) for g in (order if order is not None else np.argsort(-scores, kind="stable"))[:k]
                 if scores[g] > 0]
        if not order:
            return []
        passage_scores = corpus.bm25["passage"].scores(terms)
        hits = []
        for g in order:
            doc, page = corpus.page_address(g)
            index = corpus.docs[doc]
            on_page = corpus.page_passages(g)
            node = None
            if on_page.size:
                best = int(on_page[np.argmax(passage_scores[on_page])])
                node = index.nodes[int(corpus.unit_node["passage"][best])]
            hits.append(Hit(doc=index.info.file_name, doc_id=index.info.doc_id, page=page,
                            score=round(float(scores[g]), 4), node=node.node if node else None,
                            title=node.title if node else "", path=list(node.path) if node else []))
        return hits


def slides_first(corpus: CorpusIndex, question: str, terms: Sequence[str], routing: lexical.Routing) -> lexical.Routing:
    """A question naming a slide ("What is on the last slide?") asks about a deck: unless the document routing put
    first is one, or the question names it (lexical.named_documents), the best routed deck comes first."""
    if routing.comparison or not routing.chosen or not names_slides(question) or is_deck(corpus, routing.chosen[0]):
        return routing
    order = [s.doc for s in routing.scores]
    if lexical.named_documents(corpus, terms, order):
        return routing
    deck = next((d for d in order if is_deck(corpus, d)), None)
    if deck is None:
        return routing
    return replace(routing, chosen=[deck] + [d for d in routing.chosen if d != deck], comparison=False)


def alternate(corpus: CorpusIndex, scores: np.ndarray, compared: Sequence[int],
              depth: int = ALTERNATE_DEPTH) -> list[int]:
    """Pages in the order a comparison shows them: its `depth` best pages taking turns between the compared
    documents (the document of the best page first; each document's pages in their own order), then the rest
    by score. Each compared document gets its share of the first pages, whichever document's pages score
    higher overall."""
    ranked = [int(g) for g in np.argsort(-scores, kind="stable")]
    queues = {d: [g for g in ranked[:depth] if scores[g] > 0 and int(corpus.page_doc[g]) == d] for d in compared}
    # on a tie (each compared document's pages are scaled to its best) the one routing put first starts, not the
    # one whose file name sorts first
    turns = sorted(queues, key=lambda d: -float(scores[queues[d][0]]) if queues[d] else 0.0)
    merged: list[int] = []
    while any(queues[d] for d in turns):
        merged += [queues[d].pop(0) for d in turns if queues[d]]
    taken = set(merged)
    return merged + [g for g in ranked if g not in taken]


def sections_first(corpus: CorpusIndex, scores: np.ndarray, named: Sequence[NamedSection]) -> np.ndarray:
    """Scores with the pages of the named sections above every other page, in their own order."""
    pages = [np.arange(int(corpus.page_base[s.doc]) + s.first_page - 1, int(corpus.page_base[s.doc]) + s.last_page)
             for s in named]
    return pages_first(scores, np.concatenate(pages) if pages else [])


def where_defined(corpus: CorpusIndex, question: str, doc: int) -> tuple[list[int], str]:
    """The pages (global ids) where a document says what the term a question asks to be defined is, and how: those
    defining it in a sentence or a glossary entry (engine.index.evidence.definition_pages), else the first pages of
    the sections it titles by the term (engine.index.sections.titled_sections); for a question asking what an acronym
    stands for, those spelling it out (engine.index.evidence.spelling_pages); none for another question."""
    kind = answer_type(question)
    if kind == "expansion":
        return spelling_pages(corpus, question, doc), "spells out"
    defining = definition_pages(corpus, question, doc)
    if defining or kind != "definition":
        return defining, "defines"
    nodes = corpus.docs[doc].nodes
    base = int(corpus.page_base[doc])
    return list(dict.fromkeys(base + nodes[n].start_page - 1
                              for n in titled_sections(corpus, defined_term(question), doc))), "titles a section"


def pages_first(scores: np.ndarray, pages: Sequence[int] | np.ndarray) -> np.ndarray:
    """Scores with these pages (global ids) above every other page, in their own order."""
    out = scores.astype(np.float32, copy=True)
    top = float(scores.max()) if scores.size else 0.0
    lift = top if top > 0 else 1.0
    chosen = np.asarray(pages, dtype=np.int64)
    out[chosen] = np.maximum(scores[chosen], 0.0) + lift + 1e-3
    return out


def fuse(corpus: CorpusIndex, parts: dict[str, np.ndarray], docs: Sequence[int] | None = None) -> np.ndarray:
    """Hybrid's first stage: each part over its best page, weighted and summed (pages outside `docs`: 0)."""
    scores = np.zeros(corpus.pages, dtype=np.float32)
    for name, part in parts.items():
        top = float(part.max()) if part.size else 0.0
        if top > 0:
            scores += HYBRID_WEIGHTS[name] * part / top
    return np.where(corpus.page_mask(docs), scores, 0.0) if docs is not None else scores


def _routing_from_scores(corpus: CorpusIndex, scores: np.ndarray, routing: lexical.Routing) -> lexical.Routing:
    """For a method that does not route (vectors): the documents of its best pages, best first."""
    best: dict[int, float] = {}
    for g in np.argsort(-scores, kind="stable")[:20]:
        if scores[g] <= 0:
            break
        doc = int(corpus.page_doc[g])
        best.setdefault(doc, float(scores[g]))
    chosen = list(best)[: max(1, len(routing.chosen))]
    return replace(routing, chosen=chosen)
