"""Headings told by the headings of their style: a long heading (a FAQ's question, a heading that states a rule)
kept because other headings in its style and at its left edge are accepted and wrap; a glossary's letter groups
("A", "B", "C" ...) set alone in one emphasised style; and the size class that compares heading styles."""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.readers.furniture import HEADING_SIZE
from engine.readers.layout import Line, family
from engine.readers.reading_order import same_row

if TYPE_CHECKING:
    from engine.readers.headings import Candidate


def heading_size(size: float) -> int:
    """A style's size to the whole point, halves up (10.5 and 11.5 alike go up; Python's round() takes halves to
    the even neighbour, which put 13.5 and 14.5 in one class and 10.5 and 11.5 in two)."""
    return math.floor(size + 0.5)


LONG_WORDS = 48  # words at most of a long heading kept by its style's siblings
SIBLINGS_MIN = 2  # accepted headings of its style and left edge for that, one of them wrapped over two lines
EDGE = 0.25  # of the size: how far apart two left edges may be and still be one
# one sentence ends and the next begins within the text (a stop, a question's or exclamation's mark, then a capital)
SENTENCES_RE = re.compile(r"[\w)][.;:!?]\s+[¿¡\"“(]?[A-ZÀ-Þ]")
LINK_RE = re.compile(r"(?i)\bhttps?:|\bwww\.|\S@\S+\.\w")


def _siblings(cand: Candidate, found: list[Candidate], pages: list[list[Line]]) -> list[Candidate]:
    first = pages[cand.page - 1][cand.index]
    out = []
    for other in found:
        line = pages[other.page - 1][other.index]
        if other.style.size == cand.style.size and other.style.bold == cand.style.bold \
                and other.style.italic == cand.style.italic and family(line.face) == family(first.face) \
                and abs(line.x0 - first.x0) <= EDGE * first.size:
            out.append(other)
    return out


def long_headings(pending: list[Candidate], found: list[Candidate], pages: list[list[Line]],
                  body: float) -> list[Candidate]:
    """The long candidates (`pending`: passed over for their length or for reading as a sentence, "¿Cómo puedo
    enviar parches, informar de fallos y hablar de Claws Mail con otros?") that are headings all the same: set
    larger than the text (`body`), two or more accepted headings (`found`) share their size, weight and typeface
    and their left edge, and one of those wraps over two lines or more (the style sets long headings); 48 words
    at most, one sentence, no link. (A long sentence in bold at the text's size is an emphasised paragraph, a
    requirement's statement, though short ones in its style head sections.)"""
    kept = []
    for cand in pending:
        text = cand.text.strip()
        if cand.style.size < HEADING_SIZE * body or len(text.split()) > LONG_WORDS or SENTENCES_RE.search(text) \
                or LINK_RE.search(text):
            continue
        siblings = _siblings(cand, found, pages)
        if len(siblings) >= SIBLINGS_MIN and any(s.count >= 2 for s in siblings):
            kept.append(cand)
    return kept


LETTERS_MIN = 5  # letter groups in alphabetical order that make a glossary's
INDEX_SHARE = 0.3  # of the entries under the letters that end in a page number: a back-of-book index
# an index entry's page references at its end: "heron, 12", "herons 12, 45–47", "Heron ..... 112"
PAGE_REF_END_RE = re.compile(r"(?:^|[\s,.])\d{1,4}(?:\s*[-–]\s*\d{1,4})?$")


@dataclass(slots=True)
class _Letter:
    page: int  # 0-based
    index: int
    line: Line


def _base(letter: str) -> str:
    return unicodedata.normalize("NFD", letter)[0]


def _letter_line(lines: list[Line], i: int, body: float) -> bool:
    """A capital letter alone on its row, bold or set larger than the text, with a line under it on its page."""
    line = lines[i]
    text = line.text.strip()
    return len(text) == 1 and text.isalpha() and text.isupper() and (line.bold or line.size > body) \
        and not line.mono and i + 1 < len(lines) \
        and not any(j != i and same_row(other, line) for j, other in enumerate(lines))


def letter_groups(pages: list[list[Line]], body: float) -> list[tuple[int, int]]:
    """The places (0-based page, line index) of a glossary's letter groups: single capitals ("A", "B", "C" ...)
    set alone on their rows in one emphasised style (bold or larger than the text) at one left edge, five or more
    in alphabetical order. Not a back-of-book index's: there over 30% of the entries under the letters end in a
    page number."""
    letters: list[_Letter] = [_Letter(p, i, line) for p, lines in enumerate(pages) for i, line in enumerate(lines)
                              if _letter_line(lines, i, body)]
    groups: list[list[_Letter]] = []
    for letter in letters:
        line = letter.line
        for group in groups:
            other = group[-1].line
            if (other.size, other.bold, other.italic, family(other.face)) == \
                    (line.size, line.bold, line.italic, family(line.face)) \
                    and abs(other.x0 - line.x0) <= EDGE * line.size:
                group.append(letter)
                break
        else:
            groups.append([letter])
    found: list[tuple[int, int]] = []
    for group in groups:
        runs: list[list[_Letter]] = []  # (runs of letters each after the one before in the alphabet)
        for letter in group:
            if runs and _base(letter.line.text.strip()) > _base(runs[-1][-1].line.text.strip()):
                runs[-1].append(letter)
            else:
                runs.append([letter])
        for run in runs:
            if len(run) >= LETTERS_MIN and not _index(run, pages):
                found += [(item.page, item.index) for item in run]
    return found


def _index(run: list[_Letter], pages: list[list[Line]]) -> bool:
    """Whether more than 30% of the entries under the letters (their lines down to the next letter or the page's
    end) end in a page number."""
    places = {(item.page, item.index) for item in run}
    entries = numbered = 0
    for item in run:
        for j in range(item.index + 1, len(pages[item.page])):
            if (item.page, j) in places:
                break
            entries += 1
            numbered += PAGE_REF_END_RE.search(pages[item.page][j].text.strip()) is not None
    return numbered > INDEX_SHARE * max(1, entries)


def in_place(found: list[Candidate], extra: list[Candidate]) -> list[Candidate]:
    """The candidates with `extra` ones put where they stand in the document (by page and line), each one's order
    renumbered to its new position."""
    out = list(found)
    for cand in sorted(extra, key=lambda c: (c.page, c.index)):
        at = next((k for k, c in enumerate(out) if (c.page, c.index) > (cand.page, cand.index)), len(out))
        out.insert(at, cand)
    for n, cand in enumerate(out):
        cand.order = n
    return out

