"""Retrieval indexes over the workspace: nodes, BM25, tree search and (when configured) vectors.

    corpus = load_corpus(workspace)               # brought up to date, kept in memory
    found = Retriever(corpus).search(question, method="hybrid", k=5)
"""

from engine.index.corpus import CorpusIndex, load_corpus
from engine.index.retrieve import METHODS, MethodUnavailable, Retrieval, Retriever
from engine.index.store import IndexUpdate, update_index

__all__ = [
    "METHODS", "CorpusIndex", "IndexUpdate", "MethodUnavailable", "Retrieval", "Retriever", "load_corpus",
    "update_index",
]
