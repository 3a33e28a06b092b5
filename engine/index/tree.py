"""Tree retrieval: score the nodes of each routed document's tree by title, summary and text, and
descend from the top level to the best pages, the way a reader uses a contents page.

A node's score mixes BM25 of its title, of its summary and the best passage found in its subtree (all
with the document's own term statistics). The search keeps a beam of the best nodes per level and
opens them; a node is read as a whole (its pages ranked directly) when opening it saves no search:
it has no children, a single child, or spans no more pages than the cost of opening it
(`collapse_pages`, the cost-model pruning).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from engine.index.corpus import CorpusIndex
from engine.index.lexical import Routing, term_weights

TITLE_WEIGHT, SUMMARY_WEIGHT, TEXT_WEIGHT = 1.0, 0.5, 1.0


@dataclass
class DocTreeIndex:
    """Parent/child links of one document's nodes and, per node, its own passages."""

    children: list[list[int]]
    roots: list[int]
    first_page: np.ndarray
    last_page: np.ndarray
    passages: list[list[int]] = field(default_factory=list)  # global passage ids of the node's own text


def tree_index(corpus: CorpusIndex, doc: int) -> DocTreeIndex:
    """The tree structure of a document (built once per corpus load)."""
    key = f"tree:{doc}"
    cached = corpus.extras.get(key)
    if cached is not None:
        return cached
    nodes = corpus.docs[doc].nodes
    children: list[list[int]] = [[] for _ in nodes]
    roots = []
    for node in nodes:
        if node.parent is None:
            roots.append(node.node)
        else:
            children[node.parent].append(node.node)
    passages: list[list[int]] = [[] for _ in nodes]
    base = int(np.searchsorted(corpus.unit_doc["passage"], doc))
    for offset, node in enumerate(corpus.docs[doc].passage_node):
        passages[int(node)].append(base + offset)
    built = DocTreeIndex(
        children=children, roots=roots,
        first_page=np.asarray([n.start_page for n in nodes]), last_page=np.asarray([n.end_page for n in nodes]),
        passages=passages,
    )
    corpus.extras[key] = built
    return built


def _level_scores(corpus: CorpusIndex, level: str, doc: int, terms: Sequence[str],
                  weights: Sequence[float]) -> np.ndarray:
    bm = corpus.bm25[level]
    mask = corpus.unit_doc[level] == doc
    idfs = [bm.idf(t, within=mask) for t in terms]
    scores = bm.scores(terms, weights=weights, idfs=idfs)
    return scores[mask]


def node_scores(corpus: CorpusIndex, doc: int, terms: Sequence[str], weights: Sequence[float],
                passage_scores: np.ndarray) -> np.ndarray:
    """Title, summary and best-passage-in-subtree scores of every node of a document, combined."""
    tree = tree_index(corpus, doc)
    title = _level_scores(corpus, "title", doc, terms, weights)
    summary = _level_scores(corpus, "summary", doc, terms, weights)
    own = np.asarray([max((passage_scores[p] for p in ps), default=0.0) for ps in tree.passages],
                     dtype=np.float32)
    best = own.copy()
    for node in range(len(best) - 1, -1, -1):  # children come after their parent
        for child in tree.children[node]:
            best[node] = max(best[node], best[child])
    # a section's title also speaks for its subsections
    inherited = title.copy()
    for node in range(len(inherited)):
        for child in tree.children[node]:
            inherited[child] = max(inherited[child], 0.5 * inherited[node])
    return TITLE_WEIGHT * inherited + SUMMARY_WEIGHT * summary + TEXT_WEIGHT * best


def _opens(tree: DocTreeIndex, node: int, collapse_pages: int) -> bool:
    kids = tree.children[node]
    if len(kids) < 2:
        return False
    return int(tree.last_page[node] - tree.first_page[node]) + 1 > collapse_pages


def tree_scores(corpus: CorpusIndex, routing: Routing, terms: Sequence[str], *, beam: int = 3,
                collapse_pages: int = 2) -> np.ndarray:
    """Global page scores found by descending each routed document's tree (pages never reached: 0)."""
    out = np.zeros(corpus.pages, dtype=np.float32)
    by_doc = {s.doc: s.score for s in routing.scores}
    best_doc = max((by_doc[d] for d in routing.chosen), default=1.0) or 1.0
    passage_bm = corpus.bm25["passage"]
    for doc in routing.chosen:
        weights = term_weights(corpus, terms, doc, routing, cover=True)
        mask = corpus.unit_doc["passage"] == doc
        idfs = [passage_bm.idf(t, within=mask) for t in terms]
        passage_scores = passage_bm.scores(terms, weights=weights, idfs=idfs)
        scores = node_scores(corpus, doc, terms, weights, passage_scores)
        top = float(scores.max()) if scores.size else 0.0
        if top <= 0:
            continue
        tree = tree_index(corpus, doc)
        factor = 1.0 if routing.comparison else by_doc[doc] / best_doc
        frontier = list(tree.roots)
        while frontier:
            frontier.sort(key=lambda n: -scores[n])
            kept, frontier = frontier[:beam], []
            for node in kept:
                opened = _opens(tree, node, collapse_pages)
                if opened:
                    frontier.extend(tree.children[node])
                _credit(corpus, tree, node, not opened, float(scores[node]) / top * factor, passage_scores, out)
    return out


def _credit(corpus: CorpusIndex, tree: DocTreeIndex, node: int, whole: bool, share: float,
            passage_scores: np.ndarray, out: np.ndarray) -> None:
    """Give the pages of a node read as a whole (or only its own text, when opened) its score,
    ranked within by their best passage."""
    stack, passage_ids = [node], []
    while stack:
        current = stack.pop()
        passage_ids += tree.passages[current]
        if whole:
            stack.extend(tree.children[current])
    if not passage_ids:
        return
    ids = np.asarray(passage_ids)
    local = passage_scores[ids]
    top = float(local.max()) or 1.0
    pages = corpus.unit_page["passage"][ids]
    value = share * (0.5 + 0.5 * local / top)
    np.maximum.at(out, pages, value.astype(np.float32))
