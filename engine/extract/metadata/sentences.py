"""Sentence splitting and the prose and boilerplate tests shared by the summary and theme extractors."""

from __future__ import annotations

import re

# A sentence ends at . ! ? maybe followed by a closing quote and a footnote number ("advice.55"), then
# space and an upper-case letter or digit.
BOUNDARY_RE = re.compile(r"(?<=[.!?\"”’)0-9])\s+(?=[\"“‘(]?[A-Z0-9])")
SENTENCE_END_RE = re.compile(r"[.!?][\"”’)]?\d{0,3}$")
ABBREVIATIONS = frozenset(
    """mr mrs ms dr prof inc ltd co corp no nos vol fig figs e.g i.e etc vs al st jr sr p pp sec ch approx
    jan feb mar apr jun jul aug sep sept oct nov dec u.s u.k cf esq gen gov rep sen art para calif fla mass
    wash conn ill ariz colo mich minn tenn n.y d.c""".split()
)


def split_sentences(paragraph: str) -> list[str]:
    """Sentences of a paragraph; no split after abbreviations (Inc., U.S., e.g.) or initials (J.)."""
    sentences: list[str] = []
    start = 0
    for boundary in BOUNDARY_RE.finditer(paragraph):
        piece = paragraph[start : boundary.start()]
        if not SENTENCE_END_RE.search(piece[-6:]):
            continue
        last = piece.rstrip("\"”’)0123456789").rsplit(None, 1)[-1].rstrip(".").lower()
        if last in ABBREVIATIONS or (len(last) == 1 and last.isalpha()):
            continue
        sentences.append(piece.strip())
        start = boundary.end()
    sentences.append(paragraph[start:].strip())
    return [s for s in sentences if s]


BOILERPLATE_MARKS = (
    "©", "copyright", "all rights reserved", "http", "www.", "@", "....", "……", "click", " | ", "trademark",
    "refers to one or more of", "legally separate", "has been licensed", "proprietary", "confidential",
    "general information only", "does not constitute", "informational purposes", "subject to change without",
)  # fmt: skip
FOOTNOTE_END_RE = re.compile(r"(?:(?<=[^\W\d_][.!?])|(?<=[.!?][\"”’)]))\d{1,3}$")


def is_prose(sentence: str) -> bool:
    """At least five words, at least 40% of them starting lower-case (not a label, a list or a caption)."""
    words = sentence.split()
    return len(words) >= 5 and sum(1 for w in words if w[:1].islower()) >= 0.4 * len(words)
