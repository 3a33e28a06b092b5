"""Where a citation's quote lies on its page: rectangles from PyMuPDF's text search, so that the app can
highlight it (Citation.boxes: [x0, y0, x1, y1] in PDF points, top-left origin).

Each part of a quote (parts apart on the page are joined by " … ", table cells by " | ") is searched
for whole; MuPDF's search reads across line breaks and joins words hyphenated at a line's end. A part
that is not found (the text layer orders or spaces it differently from the Markdown) is looked up in
the page's words with spacing, punctuation and case ignored (a text layer that breaks words into
pieces, "argumen ts", still matches), whole or in runs of RUN_WORDS words, and else searched in runs.
A short part is taken where the page holds it once; of a run or short part found several times, the
rectangles near the ones found unambiguously are kept.
Rectangles on one line are merged. Every cited PDF is opened once per answer.
"""

from __future__ import annotations

import re
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from engine.text import WORD_RE, squash

RUN_WORDS = 5  # words of a run searched when a whole part is not found
UNIQUE_WORDS = 6  # a part this long is taken to occur once on its page
NEAR = 80.0  # points above or below the unambiguous rectangles within which an ambiguous match counts
ELISION = " … "
SPLIT_RE = re.compile(r"\s*\|\s*|\n+")

Box = list[float]


def quote_pieces(quote: str) -> list[str]:
    """The parts of a quote that are searched on their own: elided parts, table cells, lines."""
    return [piece for row in quote_rows(quote) for piece in row]


def quote_rows(quote: str) -> list[list[str]]:
    """The quote's lines (elided parts, and the lines of each), each as its table cells or its one text."""
    rows = []
    for part in quote.split(ELISION):  # ligatures spelled out, as the search reads the page ("ﬁ" -> "fi")
        for line in part.split("\n"):
            cells = [" ".join(unicodedata.normalize("NFKC", p).split()) for p in SPLIT_RE.split(line)
                     if WORD_RE.search(p)]
            if cells:
                rows.append(cells)
    return rows


def same_line(a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Whether two (top, bottom) spans are one line of text (within 2 points each)."""
    return abs(a[0] - b[0]) < 2 and abs(a[1] - b[1]) < 2


def shared_line(found: list[list[Any]], anchors: list[Any]) -> tuple[float, float] | None:
    """The line (top, bottom) on which most of a table row's cells have a match, when two or more do, of lines as
    good the one nearest `anchors` (the quote's parts found once): where the row stands, so that a cell the page
    also holds elsewhere ("Total" in a header and in the text) is taken there."""
    lines: list[tuple[float, float, set[int]]] = []
    for cell, hits in enumerate(found):
        for r in hits:
            line = next((ln for ln in lines if same_line((ln[0], ln[1]), (r.y0, r.y1))), None)
            if line is None:
                lines.append((r.y0, r.y1, {cell}))
            else:
                line[2].add(cell)

    def distance(line: tuple[float, float, set[int]]) -> float:
        return min((abs(a.y0 - line[0]) for a in anchors), default=0.0)

    best = min(lines, key=lambda ln: (-len(ln[2]), distance(ln)), default=None)
    return (best[0], best[1]) if best is not None and len(best[2]) >= 2 else None


class WordStream:
    """A page's words (PyMuPDF "words") as one squashed string, each character mapped to its word."""

    def __init__(self, words: list[tuple]) -> None:
        self.rects = [w[:4] for w in words]
        chars, owner = [], []
        for i, word in enumerate(words):
            piece = squash(word[4])
            chars.append(piece)
            owner += [i] * len(piece)
        self.text, self.owner = "".join(chars), owner

    def count(self, piece: str) -> int:
        """How often the piece occurs (spacing, punctuation, case ignored; a piece under four letters: 2)."""
        needle = squash(piece)
        return self.text.count(needle) if len(needle) >= 4 else 2

    def find(self, piece: str) -> list[Rect] | None:
        """The rectangles of the words holding the piece (spacing, punctuation, case ignored), or None;
        a piece found more than once is None (ambiguous)."""
        needle = squash(piece)
        at = self.text.find(needle) if len(needle) >= 4 else -1
        if at < 0 or self.text.find(needle, at + 1) >= 0:
            return None
        first, last = self.owner[at], self.owner[at + len(needle) - 1]
        return [Rect(*self.rects[i]) for i in range(first, last + 1)]


class Rect:
    """x0, y0, x1, y1 of a word (what merge_lines reads of a PyMuPDF Rect)."""

    def __init__(self, x0: float, y0: float, x1: float, y1: float) -> None:
        self.x0, self.y0, self.x1, self.y1 = x0, y0, x1, y1


def quote_boxes(page, quote: str, textpage=None) -> list[Box]:
    """The rectangles of the quote's text on a PyMuPDF page (see the module docstring)."""
    sure: list[list[Any]] = []  # PyMuPDF's rectangles or ours (Rect)
    unsure: list[list[Any]] = []
    stream: WordStream | None = None
    rows = quote_rows(quote)
    searched = [[page.search_for(piece, textpage=textpage) for piece in row] for row in rows]
    anchors = [hits[0] for matches in searched for hits in matches if len(hits) == 1]  # parts found once
    for row, matches in zip(rows, searched):
        line = shared_line(matches, anchors) if len(row) > 1 else None
        for piece, found in zip(row, matches):
            words = piece.split()
            if found and len(words) >= UNIQUE_WORDS:
                sure.append(found)
                continue
            if stream is None:
                stream = WordStream(page.get_text("words", textpage=textpage))
            once = stream.count(piece) == 1
            if line is not None and found and not once:  # a table row's short cell the page holds more than once:
                # where the row's other cells stand
                on_line = [r for r in found if same_line(line, (r.y0, r.y1))]
                if on_line:
                    sure.append(on_line)
                    continue
            if found:  # a short part is sure where the page holds it once ("Roles and responsibilities.")
                (sure if once else unsure).append(found)
                continue
            whole = stream.find(piece)
            if whole:
                sure.append(whole)
                continue
            runs = [" ".join(words[i:i + RUN_WORDS]) for i in range(0, len(words), RUN_WORDS)]
            located = [stream.find(run) for run in runs]
            if sum(1 for hits in located if hits) * 2 >= len(runs):
                sure += [hits for hits in located if hits]
                continue
            for i in range(0, len(words), RUN_WORDS):
                run = words[i:i + RUN_WORDS]
                if len(run) < 2 and i:  # a lone last word: searched with the one before it
                    run = words[i - 1:i + 1]
                hits = page.search_for(" ".join(run), textpage=textpage)
                if hits:
                    (sure if len(hits) <= 2 and len(run) >= 3 else unsure).append(hits)
    rects = [r for hits in sure for r in hits]
    if rects:
        top, bottom = min(r.y0 for r in rects) - NEAR, max(r.y1 for r in rects) + NEAR
        for hits in unsure:
            rects += [r for r in hits if r.y1 >= top and r.y0 <= bottom]
    else:
        rects = [r for hits in unsure for r in hits]
    return merge_lines(rects)


def merge_lines(rects: Iterable) -> list[Box]:
    """Rectangles on one line at most a word space apart become one; rounded to 0.1 pt, top to bottom."""
    out: list[list[float]] = []
    for r in sorted(rects, key=lambda r: (round(r.y0), r.x0)):
        box = [r.x0, r.y0, r.x1, r.y1]
        if out:
            last = out[-1]
            if same_line((last[1], last[3]), (box[1], box[3])) \
                    and box[0] <= last[2] + 0.5 * (box[3] - box[1]):  # a word space apart at most
                last[2] = max(last[2], box[2])
                continue
            if any(b[0] <= box[0] and b[1] <= box[1] and b[2] >= box[2] and b[3] >= box[3] for b in out):
                continue  # already inside a box
        out.append(box)
    return [[round(v, 1) for v in box] for box in out]


class TextPages:
    """Open PDF pages with their text, kept across answers (an evaluation's answers cite the same pages again
    and again; reading a page's text is most of the cost of its boxes): at most `size` pages, least recently
    used first out, each PDF open while one of its pages is kept. `close()` ends it."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._documents: dict[Path, Any] = {}
        self._pages: OrderedDict[tuple[Path, int], tuple[Any, Any]] = OrderedDict()

    def get(self, path: Path, number: int) -> tuple[Any, Any] | None:
        """(page, textpage) of page `number` (1-based) of the PDF at `path`; None for an unreadable PDF or a
        page it does not have."""
        import pymupdf

        key = (path, number)
        if key in self._pages:
            self._pages.move_to_end(key)
            return self._pages[key]
        if path not in self._documents:
            try:
                self._documents[path] = pymupdf.open(path)
            except Exception:  # an unreadable PDF: no boxes, the answer stands
                return None
        document = self._documents[path]
        if not 1 <= number <= document.page_count:
            return None
        page = document[number - 1]
        self._pages[key] = (page, page.get_textpage())
        while len(self._pages) > self.size:
            (old_path, _), _ = self._pages.popitem(last=False)
            if not any(kept == old_path for kept, _ in self._pages):
                self._documents.pop(old_path).close()
        return self._pages[key]

    def close(self) -> None:
        self._pages.clear()
        for document in self._documents.values():
            document.close()
        self._documents.clear()


def add_boxes(citations: list, pdf_path: Callable[[str], Path | None], pages: TextPages | None = None) -> None:
    """Fill in the boxes of every citation; `pdf_path(file_name)` locates a cited document's PDF (None:
    unknown, its citations keep no boxes). `pages` keeps pages read for the next answers (else each PDF is
    opened once for this answer, each page's text read once)."""
    own = pages is None
    cache = TextPages() if pages is None else pages
    paths: dict[str, Path | None] = {}
    try:
        for citation in citations:
            if citation.doc not in paths:
                paths[citation.doc] = pdf_path(citation.doc)
            path = paths[citation.doc]
            if path is None or not path.is_file():
                continue
            found = cache.get(path, citation.page)
            if found is not None:
                page, textpage = found
                citation.boxes = quote_boxes(page, citation.quote, textpage)
    finally:
        if own:
            cache.close()
