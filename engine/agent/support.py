"""Whether a document supports an answer to a question: three general signals of its evidence and one
fitted test over them (no rule written for a particular question or document).

The signals, read on the document's best pages (`SIGNAL_PAGES`, by the retrieval's scores):

- `cover`: the largest share of the question's weight (its terms weighted by the document's own idf,
  words that name the document discounted) held by one sentence;
- `typed`: the same for a sentence that holds the kind of value asked for ("how many" → a number,
  "when" → a date) which the question does not already contain; equal to `cover` when no such
  value is asked for;
- `focus`: the share of the words right after the question word ("how many *employees*", "what
  *royalty rate*"), which name what is asked, that one passage of up to three sentences holds
  together (with the value asked for, when one is).

`support(signals)` is a logistic regression over them, fitted by `benchmarks/fit_evidence.py` on
every question set of the project (see FIT below for its provenance); a document whose support is
below THRESHOLD does not cover the question.
"""

from __future__ import annotations

import math
import re
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

import numpy as np

from engine.index import lexical
from engine.index.evidence import answer_type, has_type, page_units, score_windows
from engine.text import QUESTION_WORDS, STOP_WORDS, stem, words

SIGNAL_PAGES = 3  # a document's best pages whose sentences are read for the signals
FOCUS_WORDS = 2  # content words after the question word that name what is asked
FOCUS_SPAN = 3  # sentences of one passage that may hold the focus words together
VALUE_KINDS = ("number", "date")  # kinds of value a sentence is checked for
WH_RE = re.compile(r"\b(?:how (?:many|much|long|large|big|far|often|old)|what|which|who|whom|whose|when|where|why|"
                   r"how)\b", re.I)
# Nouns that say what kind of value is asked for, not what it is about ("what *number* of …").
GENERIC = frozenset(stem(w) for w in """
number numbers amount amounts share shares percentage percentages proportion fraction value values total
kind kinds type types sort way ways figure figures level levels size rate rates count part parts main key
""".split())

# Fitted by benchmarks/fit_evidence.py (logistic regression, classes balanced, L2 = 1.0) on the pooled
# question sets ../shared/eval/qa_dev.jsonl, tests/corpus/qa_heldout.jsonl, qa_fresh.jsonl and
# qa_fresh2.jsonl (256 questions, 36 unanswerable) over ../shared/corpus, hybrid retrieval; the
# threshold is the highest support that still answers 95% of the answerable questions. 5-fold
# cross-validation (20 shuffles): training folds answered 0.955, refused 0.235; held-out folds answered
# 0.948, refused 0.237 (with the unknown-name rule of engine.agent.offline). `cover` weighs against
# once `typed` is known: a document that speaks of the question's words without the value asked for
# is the near miss.
FIT = "benchmarks/fit_evidence.py, 4 question sets (256 questions), 5-fold CV held-out: answered 0.948, refused 0.237"
WEIGHTS = {"cover": -0.5404, "typed": 2.1022, "focus": 1.8310}
BIAS = -1.8627
THRESHOLD = 0.2995


@dataclass(frozen=True)
class Signals:
    """How well one document's best pages hold a question (each a share, 0 to 1)."""

    cover: float
    typed: float
    focus: float

    def vector(self) -> list[float]:
        return [getattr(self, name) for name in WEIGHTS]


def focus_terms(question: str, names: AbstractSet[str] = frozenset()) -> list[str]:
    """Stems of the first FOCUS_WORDS content words after the question's first question word, without
    words that only say what kind of value is asked for and without `names` (the words that name the
    document): what the question asks about ("how many employees did …" → employ)."""
    match = WH_RE.search(question)
    tail = question[match.end():] if match else question
    found: list[str] = []
    for word in words(tail):
        if word in STOP_WORDS or word in QUESTION_WORDS or word.isdigit() or len(word) < 2:
            continue
        term = stem(word)
        if term in GENERIC or term in names or term in found:
            continue
        found.append(term)
        if len(found) == FOCUS_WORDS:
            break
    return found


def signals(corpus, retrieval, doc: int) -> Signals:
    """The signals of document `doc` (a position in the corpus) for a retrieval's question."""
    question, terms = retrieval.question, retrieval.terms
    weights = lexical.evidence_weights(corpus, terms, doc, retrieval.routing)
    kind = answer_type(question)
    kind = kind if kind in VALUE_KINDS else None
    focus = focus_terms(question, corpus.name_terms[doc])
    start, count = int(corpus.page_base[doc]), len(corpus.docs[doc].pages)
    scores = retrieval.scores[start:start + count]
    cover = typed = joint = 0.0
    for offset in np.argsort(-scores, kind="stable")[:SIGNAL_PAGES]:
        if scores[offset] <= 0:
            continue
        page = int(offset) + 1
        analysis = page_units(corpus, doc, page)
        for window in score_windows(analysis, terms, weights, question, retrieval.phrases, singles=True,
                                    text=corpus.page_text(doc, page)):
            cover = max(cover, window.coverage)
            if kind is None or window.typed:
                typed = max(typed, window.coverage)
        joint = max(joint, focus_share(analysis, focus, kind, question))
    return Signals(round(cover, 4), round(typed, 4), round(joint, 4))


def focus_share(analysis, focus: list[str], kind: str | None, question: str) -> float:
    """The largest share of the focus terms that a run of up to FOCUS_SPAN units of one page holds
    together, counting only runs that hold a value of `kind` when one is asked for (1.0 when the
    question names no focus)."""
    if not focus:
        return 1.0
    found = analysis.units
    valued = [kind is None or has_type(kind, u.text, question) for u in found]
    best = 0.0
    for first in range(len(found)):
        held: set[str] = set()
        for last in range(first, min(first + FOCUS_SPAN, len(found))):
            if last > first and found[last].heading:
                break
            held |= analysis.stems[last] & set(focus)
            if any(valued[first:last + 1]):
                best = max(best, len(held) / len(focus))
    return best


def support(found: Signals) -> float:
    """The fitted probability that the document answers the question."""
    z = BIAS + sum(WEIGHTS[name] * value for name, value in zip(WEIGHTS, found.vector()))
    return 1.0 / (1.0 + math.exp(-z))


def supported(found: Signals) -> bool:
    return support(found) >= THRESHOLD
