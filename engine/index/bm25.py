"""Sparse BM25 in numpy: term counts per unit, postings by term, scores for a bag of query terms."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import itertools
from collections import defaultdict

import numpy as np

K1, B = 1.2, 0.75


@dataclass
class TermCounts:
    """Term counts of a list of units in a compact form: unit u has terms[ids[ptr[u]:ptr[u+1]]]."""

    terms: list[str]
    ptr: np.ndarray  # int64, len units + 1
    ids: np.ndarray  # int32, index into terms
    counts: np.ndarray  # float32
    lengths: np.ndarray  # float32, tokens per unit (for length normalisation)

    @classmethod
    def from_tokens(cls, units: Iterable[Sequence[str]], lengths: Sequence[int] | None = None) -> TermCounts:
        vocab: defaultdict[str, int] = defaultdict(itertools.count().__next__)  # term -> id, on first sight
        lookup = vocab.__getitem__
        ids: list[int] = []
        sizes: list[int] = []
        for tokens in units:
            ids.extend(map(lookup, tokens))
            sizes.append(len(tokens))
        n = len(sizes)
        if not ids:
            return cls(terms=list(vocab), ptr=np.zeros(n + 1, dtype=np.int64), ids=np.zeros(0, dtype=np.int32),
                       counts=np.zeros(0, dtype=np.float32),
                       lengths=np.asarray(lengths if lengths is not None else sizes, dtype=np.float32))
        unit_of = np.repeat(np.arange(n, dtype=np.int64), sizes)
        keys = unit_of * len(vocab) + np.asarray(ids, dtype=np.int64)
        unique, counts = np.unique(keys, return_counts=True)  # sorted: by unit, then term
        unit_ids, term_ids = np.divmod(unique, len(vocab))
        ptr = np.zeros(n + 1, dtype=np.int64)
        np.add.at(ptr, unit_ids + 1, 1)
        return cls(
            terms=list(vocab), ptr=np.cumsum(ptr), ids=term_ids.astype(np.int32),
            counts=counts.astype(np.float32),
            lengths=np.asarray(lengths if lengths is not None else sizes, dtype=np.float32),
        )

    @property
    def units(self) -> int:
        return len(self.ptr) - 1


class Bm25:
    """BM25 over units whose term counts are concatenated from several documents' TermCounts."""

    def __init__(self, parts: Sequence[TermCounts], k1: float = K1, b: float = B) -> None:
        self.k1, self.b = k1, b
        vocab: dict[str, int] = {}
        units, rows, cols, vals, lengths = 0, [], [], [], []
        for part in parts:
            remap = np.fromiter((vocab.setdefault(t, len(vocab)) for t in part.terms), dtype=np.int64,
                                count=len(part.terms))
            row_of = np.repeat(np.arange(part.units, dtype=np.int64), np.diff(part.ptr)) + units
            rows.append(row_of)
            cols.append(remap[part.ids] if len(part.ids) else np.zeros(0, dtype=np.int64))
            vals.append(part.counts)
            lengths.append(part.lengths)
            units += part.units
        self.vocab = vocab
        self.units = units
        row = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
        col = np.concatenate(cols) if cols else np.zeros(0, dtype=np.int64)
        val = np.concatenate(vals) if vals else np.zeros(0, dtype=np.float32)
        self.lengths = np.concatenate(lengths) if lengths else np.zeros(0, dtype=np.float32)
        order = np.argsort(col, kind="stable")
        self.post_units = row[order].astype(np.int32)
        self.post_tf = val[order]
        self.term_ptr = np.zeros(len(vocab) + 1, dtype=np.int64)
        np.add.at(self.term_ptr, col + 1, 1) if len(col) else None
        self.term_ptr = np.cumsum(self.term_ptr)
        self.df = np.diff(self.term_ptr).astype(np.float32)
        avg = float(self.lengths.mean()) if units else 1.0
        self.norm = (k1 * (1 - b + b * self.lengths / max(avg, 1e-9))).astype(np.float32)

    def idf(self, term: str, within: np.ndarray | None = None) -> float:
        """Robertson-Sparck Jones idf (never negative); `within` restricts the collection to some units."""
        tid = self.vocab.get(term)
        if tid is None:
            return 0.0
        if within is None:
            n, df = self.units, float(self.df[tid])
        else:
            units = self.post_units[self.term_ptr[tid]:self.term_ptr[tid + 1]]
            n, df = int(within.sum()), float(within[units].sum())
        return rsj_idf(n, df) if df else 0.0

    def postings(self, term: str) -> tuple[np.ndarray, np.ndarray]:
        tid = self.vocab.get(term)
        if tid is None:
            return np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.float32)
        lo, hi = self.term_ptr[tid], self.term_ptr[tid + 1]
        return self.post_units[lo:hi], self.post_tf[lo:hi]

    def scores(self, terms: Sequence[str], weights: Sequence[float] | None = None,
               idfs: Sequence[float] | None = None) -> np.ndarray:
        """BM25 score of every unit for the query terms (each term counted once, optionally weighted)."""
        out = np.zeros(self.units, dtype=np.float32)
        for i, term in enumerate(terms):
            units, tf = self.postings(term)
            if not len(units):
                continue
            idf = idfs[i] if idfs is not None else self.idf(term)
            weight = idf * (weights[i] if weights is not None else 1.0)
            if weight <= 0:
                continue
            out[units] += weight * tf * (self.k1 + 1) / (tf + self.norm[units])
        return out

    def matched(self, terms: Sequence[str]) -> np.ndarray:
        """How many of the query terms each unit contains."""
        out = np.zeros(self.units, dtype=np.int16)
        for term in terms:
            units, _ = self.postings(term)
            out[units] += 1
        return out


def rsj_idf(units: float, df: float) -> float:
    """The Robertson-Sparck Jones idf of a term on `df` of `units` units (never negative)."""
    return float(np.log(1.0 + (units - df + 0.5) / (df + 0.5)))
