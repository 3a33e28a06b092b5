"""Hybrid's second stage: its best candidate pages ordered by a linear model of their passage BM25, best sentence,
fused score and section titles, with weights fitted on the pooled question sets (benchmarks/fit_rank.py --pooled).

The candidates are the `CANDIDATES` best pages of the fused retrieval (passage BM25, the tree descent and, when
on, vectors: each part over its best page, summed); for 98-99% of the blind questions the gold page is among
them. A candidate's features are its BM25 (over the best page's), the score of its best sentence
(engine.index.evidence, singles: the share of the question's weight one sentence holds, with its bonuses), its fused
score (over the best candidate's: the tree descent's part of it speaks for the page's place in the document's
structure) and the share of the question's weight its section's titles hold (`section_shares`).
The first HEAD candidates keep the model's order; the others are ordered by reciprocal-rank fusion of the features
(see HEAD). Fitted on four question sets over ../shared/corpus, the tree descent's own part changed sign from one
ingest to the next; fitted on every set pooled (2,307 answerable questions over 70 documents), the fused score and the
section titles each add on held-out folds (see WEIGHTS). Vectors are not fitted (no embeddings offline): they count
as BM25 does. An index's or a contents page counts its features at INDEX_WEIGHT.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np

from engine.index import lexical
from engine.index.corpus import CorpusIndex
from engine.index.evidence import note_weight, page_units, score_windows
from engine.text import WORD_RE, tokenize

CANDIDATES = 20
FEATURES = ("bm25", "sentence", "fused", "heading")
# fitted by `benchmarks/fit_rank.py --pooled` (listwise logistic regression, scaled to bm25 = 1) on the original
# questions of every set of benchmarks/eval_answers.py but blind set 12 (2,307 answerable with the rewordings, over
# ../shared/corpus, corpus_wide and the blind sets' PDFs). Grouped 5-fold CV (a question and its rewordings in one
# fold), model with the fused tail, r@1 / r@5 / MRR held out: bm25 + sentence refitted 0.745 / 0.938 / 0.827, + fused
# 0.754 / 0.938 / 0.833, + heading 0.756 / 0.938 / 0.834, + the best window too 0.762 / 0.937 / 0.836 (left out: it
# doubles the search's time); the weights before (bm25 1, sentence 1.131, fitted on four sets) 0.740 / 0.938 / 0.825.
WEIGHTS = {"bm25": 1.0, "sentence": 1.462, "fused": 0.567, "heading": 0.536}
PART_FEATURE = {"bm25": "bm25", "vector": "bm25"}  # vectors weigh as BM25 (not fitted); the tree: see above
FLOOR = 1.0  # the lowest candidate's score; pages after the candidates score below half of it
# The first HEAD candidates by the model; the others by reciprocal-rank fusion (1 / (FUSION_K + rank), weighted) of
# the model's two features and the fused score, so that a page that leads by one of them is not buried under pages
# that are fair by both. Chosen by `benchmarks/fit_rank.py --tail`: 5-fold cross-validation (x20, a question and its
# rewordings in one fold) over HEAD 2-4, FUSION_K 5-20 and the fused score's weight 0, 0.5, 1 on the eight sets
# pooled (660 answerable questions); r@1 / r@5 / MRR within the candidates: training folds 0.759 / 0.938 / 0.833,
# held-out folds 0.759 / 0.935 / 0.832, the model alone held out 0.759 / 0.927 / 0.832 (weight 1 for the fused
# score is no better than the model alone; 0 and 0.5 are).
# Not in a comparison: its pages take turns between its documents instead, and its answer reads each document's
# third page, which this order would change (pooled retrieval the same either way).
HEAD = 3
FUSION_K = 10.0
FUSION_WEIGHTS = {"bm25": 1.0, "sentence": 1.0, "fused": 0.5}


# a page of entries pointing to pages, a back-of-book index ("MAXNESTING exceeded, 72", "$! . . . . 24") or a contents
# page ("4.2 Depth and velocity . . . . 8"), holds many of a question's rarest words and answers none of them: its
# features count at this share, as a note's do
INDEX_WEIGHT = 0.5
INDEX_ENTRY_RE = re.compile(r"(?:[^\W\d_][)\]]?,\s|(?:\s?\.){3,}\s*)\d{1,4}(?:(?:,\s|[-–])\d{1,4})*(?=[\s,.;]|$)")
INDEX_WORDS = 12  # such a page has an entry for every this many of its words, or more
INDEX_PAGE_WORDS = 40  # … and this many words at the least


def index_page(corpus: CorpusIndex, gpage: int) -> bool:
    """Whether a page (a global id) is an index's or a contents page: dense with entries that end in page numbers
    (`INDEX_ENTRY_RE`), as no page of prose, table or list is; cached on the corpus."""
    cache: dict[int, bool] = corpus.extras.setdefault("index_pages", {})
    found = cache.get(gpage)
    if found is None:
        found = cache[gpage] = reads_as_index(corpus.page_text(*corpus.page_address(gpage)))
    return found


def reads_as_index(text: str) -> bool:
    """Whether a page's text is an index's or a contents page's: INDEX_PAGE_WORDS words or more (a leader's dots are
    none), an entry ending in page numbers (after a comma or dot leaders) for every INDEX_WORDS of them."""
    words = len(WORD_RE.findall(text))
    return words >= INDEX_PAGE_WORDS and len(INDEX_ENTRY_RE.findall(text)) * INDEX_WORDS >= words


def candidates(fused: np.ndarray, count: int = CANDIDATES) -> np.ndarray:
    """Global ids of the best pages of the fused score (positive only), best first."""
    order = np.argsort(-fused, kind="stable")[:count]
    return order[fused[order] > 0].astype(np.int64)


def best_sentences(corpus: CorpusIndex, question: str, terms: Sequence[str], phrases: Sequence[str],
                   routing: lexical.Routing, pages: Sequence[int] | np.ndarray) -> np.ndarray:
    """The score of each page's best sentence (0 for a page without one); a note (a footnote, a reference-list
    entry) counts as the answer weighs it (engine.index.evidence.note_weight), unless it holds the value asked for:
    a page of endnotes that names what is asked in a cited title is no better evidence than the text citing it."""
    out = np.zeros(len(pages))
    weights: dict[int, list[float]] = {}
    notes = note_weight(question)
    for i, g in enumerate(pages):
        doc, page = corpus.page_address(int(g))
        if doc not in weights:
            weights[doc] = lexical.evidence_weights(corpus, terms, doc, routing, cover=True)
        analysis = page_units(corpus, doc, page)
        found = score_windows(analysis, terms, weights[doc], question, phrases, singles=True,
                              text=corpus.page_text(doc, page))
        out[i] = max((analysis.weighed(w, notes) for w in found), default=0.0)
    return out


def section_shares(corpus: CorpusIndex, terms: Sequence[str], routing: lexical.Routing,
                   pages: Sequence[int] | np.ndarray) -> np.ndarray:
    """For each page, the share of the question's weight (lexical.evidence_weights) that the section path of its best
    passage holds (the titles of the section and those above it; the passage by BM25 with its document's own idf,
    words naming the document discounted): a page in the section the question is about."""
    out = np.zeros(len(pages))
    if not terms:
        return out
    unit_node = corpus.unit_node["passage"]
    titles: dict[int, list[frozenset[str]]] = corpus.extras.setdefault("section_terms", {})
    by_doc: dict[int, tuple[list[float], np.ndarray]] = {}
    for i, g in enumerate(pages):
        doc = int(corpus.page_doc[int(g)])
        if doc not in by_doc:
            named = lexical.term_weights(corpus, terms, doc, routing, cover=True)
            by_doc[doc] = (lexical.evidence_weights(corpus, terms, doc, routing, cover=True),
                           lexical.passage_scores(corpus, terms, doc, named))
        if doc not in titles:
            titles[doc] = [frozenset(tokenize(" ".join(n.path) or n.title)) for n in corpus.docs[doc].nodes]
        weights, scores = by_doc[doc]
        on_page = corpus.page_passages(int(g))
        if not on_page.size:
            continue
        section = titles[doc][int(unit_node[on_page[np.argmax(scores[on_page])]])]
        out[i] = sum(w for t, w in zip(terms, weights) if t in section) / (sum(weights) or 1.0)
    return out


def features(corpus: CorpusIndex, question: str, terms: Sequence[str], phrases: Sequence[str],
             routing: lexical.Routing, parts: Mapping[str, np.ndarray], pages: np.ndarray,
             fused: np.ndarray) -> np.ndarray:
    """The (pages, FEATURES) matrix of the candidates: each part over its best page, summed by feature, the best
    sentence, the fused score over the best candidate's and the share of the question its section's titles hold."""
    table = np.zeros((len(pages), len(FEATURES)))
    table[:, FEATURES.index("fused")] = fused[pages] / float(fused[pages[0]])
    table[:, FEATURES.index("heading")] = section_shares(corpus, terms, routing, pages)
    for name, part in parts.items():
        top = float(part.max()) if part.size else 0.0
        if top > 0 and name in PART_FEATURE:
            table[:, FEATURES.index(PART_FEATURE[name])] += part[pages] / top
    table[:, FEATURES.index("sentence")] = best_sentences(corpus, question, terms, phrases, routing, pages)
    return table


def rerank(corpus: CorpusIndex, question: str, terms: Sequence[str], phrases: Sequence[str],
           routing: lexical.Routing, parts: Mapping[str, np.ndarray], fused: np.ndarray,
           weights: Mapping[str, float] = WEIGHTS, count: int = CANDIDATES) -> np.ndarray:
    """Page scores: the `count` candidates ordered by the model (from FLOOR up), every other page of the fused
    score below them, in its fused order."""
    pages = candidates(fused, count)
    if not len(pages):
        return fused
    table = features(corpus, question, terms, phrases, routing, parts, pages, fused)
    table *= np.asarray([INDEX_WEIGHT if index_page(corpus, int(g)) else 1.0 for g in pages])[:, None]
    values = table @ np.asarray([weights[name] for name in FEATURES])
    if not routing.comparison:  # a comparison's pages take turns between its documents instead (retrieve.alternate)
        values = fused_tail(values, table, fused[pages])
    out = np.where(fused > 0, fused / float(fused[pages[0]]) * 0.5 * FLOOR, 0.0).astype(np.float32)
    out[pages] = values - values.min() + FLOOR
    return out


def _ranks(values: np.ndarray) -> np.ndarray:
    """1 for the largest value, 2 for the next, ... (ties in order)."""
    out = np.empty(len(values))
    out[np.argsort(-values, kind="stable")] = np.arange(1, len(values) + 1)
    return out


def fused_tail(values: np.ndarray, table: np.ndarray, fused: np.ndarray, head: int = HEAD, k: float = FUSION_K,
               weights: Mapping[str, float] = FUSION_WEIGHTS) -> np.ndarray:
    """The candidates' model values with those after the first `head` reordered by reciprocal-rank fusion of
    the features and the fused score (see HEAD): the same values, given out in the fusion's order, so the
    first pages and every score's size stay the model's."""
    order = np.argsort(-values, kind="stable")
    tail = order[head:]
    if len(tail) < 2:
        return values
    columns = {name: table[:, i] for i, name in enumerate(FEATURES)} | {"fused": fused}
    fusion = np.zeros(len(values))
    for name, weight in weights.items():
        fusion += weight / (k + _ranks(columns[name]))
    out = values.copy()
    out[tail[np.argsort(-fusion[tail], kind="stable")]] = values[tail]
    return out
