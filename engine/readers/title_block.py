"""The title block of a document's first pages: author, date, version and notice lines are not headings."""

from __future__ import annotations

import re
from typing import Protocol


class WordCounts(Protocol):
    """The document's lower-cased word counts (a Counter, or one counted on first use)."""

    def __getitem__(self, word: str, /) -> int: ...


COVER_PAGES = 3  # the title block lives on the first pages (a cover, a title page, a notice page)
MONTHS = ("january|february|march|april|may|june|july|august|september|october|november|december|"
          "januar|februar|märz|juni|juli|oktober|dezember|janvier|février|mars|avril|mai|juin|juillet|août|"
          "septembre|octobre|novembre|décembre|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec")
DATE_RE = re.compile(rf"\b(?:\d{{1,2}}\.?\s+)?(?:{MONTHS})\.?\s+(?:\d{{1,2}},?\s+)?\d{{4}}\b"
                     r"|\b\d{4}-\d{2}-\d{2}\b", re.I)
VERSION_RE = re.compile(r"^(?:document\s+)?(?:version|revision|rev\.|release|draft|edition)\s*v?[\d.]+\b", re.I)
MARKERS_RE = re.compile(r"[*†‡§¶∗⋆\d]+")
NAME_RE = re.compile(r"^(?:[A-ZÀ-Ý][\w'’\-.]*|[A-Z]\.?)$")  # a capitalised name or an initial
FUNCTION_WORDS = {
    "a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the", "to", "with",
    "der", "die", "das", "und", "von", "für", "des", "le", "la", "les", "de", "du", "et",
}


def is_date_line(text: str) -> bool:
    """A date, or a line that starts or ends with one ("27 April 2021", "Yan X Zhang October 31, 2019")."""
    text = text.strip(" ,.;")
    match = next((m for m in DATE_RE.finditer(text)), None)
    return match is not None and (match.start() == 0 or match.end() == len(text))


def is_author_line(text: str, counts: WordCounts | None = None) -> bool:
    """Names separated by commas or "and" ("Karolin Varner*, Benjamin Lipp†, Wanja Zaeske,"), or a long run
    of capitalised names with no word between them ("Ada Quill Ben Marsh Ann Heath Bo Ling")
    that the rest of the document hardly uses (`counts`: the document's lower-cased words)."""
    plain = MARKERS_RE.sub(" ", text)
    words = plain.replace(",", " ").replace("&", " ").split()
    if not words or any(w.lower() in FUNCTION_WORDS - {"and"} for w in words) \
            or not all(NAME_RE.match(w) or w == "and" for w in words):
        return False
    groups = [g.split() for g in re.split(r",|\band\b|&", plain) if g.strip()]
    if len(groups) == 1:  # names one after the other, words the text does not otherwise use
        rare = sum(1 for w in words if counts is not None and counts[w.lower()] <= 3)
        return len(words) >= 6 and rare >= 0.6 * len(words)
    marked = MARKERS_RE.search(text) is not None
    return all(2 <= len(g) <= 4 for g in groups) and (marked or len(groups) >= 3)


def is_spaced_letters(text: str) -> bool:
    """A word set in spaced capitals ("C O M P U T E R   S E C U R I T Y"): a banner, not a heading."""
    tokens = text.split()
    return len(tokens) >= 5 and sum(len(t) == 1 for t in tokens) >= 0.8 * len(tokens)


def not_a_heading(text: str, counts: WordCounts | None = None) -> bool:
    """A title-block line that is no heading: authors, a date, a version, a banner, or a notice that leads
    into what follows it ("This publication is available free of charge from:")."""
    return is_author_line(text, counts) or is_date_line(text) or bool(VERSION_RE.match(text)) \
        or is_spaced_letters(text) or text.rstrip().endswith(":")
