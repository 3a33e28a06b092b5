"""Long table rows cut into pieces an answer can quote.

A unit of the evidence analysis is a sentence, a list item or a whole table row. A row can be long: a
cell holding a case study ("Business challenge … Solution … Impact • … • …"), items set inline in a cell
("• Customers' data … • Flawed APIs …"). Such a unit rarely fits the room a concise answer has left, so
what it says is lost even when it is the answer. For the answer, a row longer than PIECE_CHARS is cut into
its sentences, its inline bullet items and its cells; each piece is a literal span of the page on the
row's line, so it is quoted and boxed like any unit. (Cutting long prose units too, at sentences that end
in a note number, gained as much on some question sets as it lost on others.)
"""

from __future__ import annotations

import re

from engine.agent.rows import is_row
from engine.index.evidence import URL_RE, PageUnits, Unit, posed_questions, windows
from engine.text import INLINE_BULLET_RE, pairs, sentence_spans, tokenize

PIECE_CHARS = 400  # a unit longer than this is cut into pieces
MIN_PIECE = 3  # characters: a shorter piece is no part of its own (a lone mark)
CELL_RE = re.compile(r"\s+\|\s+")


def cuts(text: str) -> list[tuple[int, int]]:
    """(start, end) of the pieces of a unit's text: its sentences (a note number after a word ends one),
    each cut at inline bullet glyphs and table cell bars; spaces, glyphs and bars left out."""
    out: list[tuple[int, int]] = []
    for start, end in sentence_spans(text, footnotes=True):
        bounds = sorted({start, end, *(m.start() for m in INLINE_BULLET_RE.finditer(text, start, end)),
                         *(m.start() for m in CELL_RE.finditer(text, start, end)),
                         *(m.end() for m in CELL_RE.finditer(text, start, end))})
        for a, b in zip(bounds, bounds[1:]):
            piece = text[a:b]
            if INLINE_BULLET_RE.match(piece):
                piece = " " + piece[1:]
            body = piece.strip().strip("|").strip()
            if len(body) < MIN_PIECE:
                continue
            lead = piece.find(body)
            out.append((a + lead, a + lead + len(body)))
    return out


def split_long(analysis: PageUnits, text: str, *, joins: bool = False, limit: int = PIECE_CHARS) -> PageUnits:
    """The page's analysis with every table row longer than `limit` cut into its pieces (`cuts`), each with
    its own stems and word pairs; the analysis itself when no row is cut."""
    found: list[Unit] = []
    stems: list[frozenset[str]] = []
    word_pairs: list[frozenset[str]] = []
    changed = False
    lines = text.split("\n")
    for unit, unit_stems, unit_pairs in zip(analysis.units, analysis.stems, analysis.pairs):
        long_row = len(unit.text) > limit and not unit.heading and is_row(lines[unit.line])
        parts = cuts(unit.text) if long_row else []
        if len(parts) < 2:
            found.append(unit)
            stems.append(unit_stems)
            word_pairs.append(unit_pairs)
            continue
        changed = True
        for a, b in parts:
            piece = Unit(unit.start + a, unit.start + b, unit.text[a:b], unit.line, unit.level)
            assert text[piece.start:piece.end] == piece.text  # a literal span of the page
            tokens = tokenize(URL_RE.sub(" ", piece.text), joins=joins)  # (as the analysis reads units)
            found.append(piece)
            stems.append(frozenset(tokens))
            word_pairs.append(frozenset(pairs(tokens)))
    if not changed:
        return analysis
    note_lines = {analysis.units[i].line for i in analysis.notes}  # (a note's pieces are notes too)
    notes = frozenset(i for i, u in enumerate(found) if u.line in note_lines)
    return PageUnits(found, stems, word_pairs, windows(found), notes, posed_questions(found))


def answer_units(corpus, doc: int, page: int, limit: int = PIECE_CHARS) -> tuple[PageUnits, str]:
    """A corpus page's (analysis with long units cut, text), cached on the corpus index."""
    from engine.index.evidence import page_units

    cache: dict = corpus.extras.setdefault("answer_units", {})
    key = (doc, page, limit)
    if key not in cache:
        if len(cache) >= 512:
            cache.clear()
        text = corpus.page_text(doc, page)
        cache[key] = (split_long(page_units(corpus, doc, page), text, joins=corpus.docs[doc].info.fragmented,
                                 limit=limit), text)
    return cache[key]
