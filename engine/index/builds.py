"""Slides built up over several pages (a Beamer overlay, a mom PAUSE): each page shows the one before it and more,
so the run's last page holds everything the others do. A search that finds a step of such a build lands on its last
page, where the whole slide is, not on a part of it."""

from __future__ import annotations

import re
from collections import Counter

import numpy as np

from engine.index.corpus import CorpusIndex
from engine.index.sections import is_deck

LETTERS_RE = re.compile(r"[^\W\d_]+")  # words of letters: a slide's number in its footer ("3 / 31") changes


def build_steps(corpus: CorpusIndex, doc: int) -> dict[int, int]:
    """The global pages of a deck that are steps of a build, each mapped to the build's last page: a page every
    word of which the next page holds, with more words (cached on the corpus index); none for a report."""
    cache: dict[int, dict[int, int]] = corpus.extras.setdefault("build_steps", {})
    if doc not in cache:
        steps: dict[int, int] = {}
        if is_deck(corpus, doc):
            words = [Counter(LETTERS_RE.findall(corpus.page_text(doc, page).lower()))
                     for page in range(1, len(corpus.docs[doc].pages) + 1)]
            last = len(words)  # the last page of the build the page (counting back from the end) belongs to
            for page in range(len(words) - 1, 0, -1):
                shown, then = words[page - 1], words[page]
                if shown and not shown - then and then.total() > shown.total():
                    steps[corpus.gpage(doc, page)] = corpus.gpage(doc, last)
                else:
                    last = page
        cache[doc] = steps
    return cache[doc]


def on_last_steps(corpus: CorpusIndex, scores: np.ndarray) -> np.ndarray:
    """Page scores with each build step's score moved to its build's last page (the best of the run's scores
    there, none left on the steps)."""
    moved = scores.copy()
    for doc in range(len(corpus.docs)):
        steps = build_steps(corpus, doc)
        for step, final in steps.items():
            moved[final] = max(moved[final], scores[step])
        moved[list(steps)] = 0.0
    return moved
