"""Headings that no size or weight sets apart, told by a regularity the document keeps: labels that count up on
lines set apart, a heading typeface at the text's size."""

from __future__ import annotations

import re
from collections import Counter

from engine.readers.furniture import HEADING_SIZE
from engine.readers.layout import Line, family
from engine.readers.reading_order import same_row
from engine.text import roman_value

Place = tuple[int, int]  # (0-based page index, line index on the page)
StyleKey = tuple[float, bool, bool, str]  # size, bold, italic, typeface family

APART = 1.5  # line pitches from the line above and to the line below: a line set apart by blank space
COUNTED_MIN = 3  # labels of one word and style that count up ("Article 1", "Article 2", ...) to make a sequence
COUNTED_SHARE = 0.75  # of the steps between them that count up by one (or start again at one)
OTHERS_SHARE = 1 / 3  # unnumbered lines set apart in the labels' style, at most, per label, that head sections too
OTHER_WORDS = 4
COUNTED_RE = re.compile(r"^([^\W\d_][\w'’-]{1,24})\s+(\d{1,3}|[IVXLC]{1,7})[.:]?$")  # a word and its number


def regular_heads(pages: list[list[Line]], body: float, body_face: str,
                  pitches: dict[float, float]) -> set[Place]:
    """The places of lines that head sections by one of the document's regularities (see the module's rules)."""
    return counted_labels(pages, pitches) | face_headings(pages, body, body_face, pitches)


def _key(line: Line) -> StyleKey:
    return (line.size, line.bold, line.italic, family(line.face))


def _pitch(pitches: dict[float, float], size: float) -> float:
    return pitches.get(size) or 1.2 * size


def _alone(lines: list[Line], i: int) -> bool:
    line = lines[i]
    return not any(j != i and same_row(other, line) for j, other in enumerate(lines))


def _apart(lines: list[Line], i: int, pitches: dict[float, float], above_only: bool = False) -> bool:
    """Whether line i stands alone on its row, a blank line's space below the line above it (or first on its
    page) and, unless `above_only`, above the line under it (or last on its page: its text goes on overleaf)."""
    line = lines[i]
    if i > 0:
        prev = lines[i - 1]
        if prev.y1 > line.y0 or line.baseline - prev.baseline < APART * _pitch(pitches, prev.size):
            return False
    if not above_only and i + 1 < len(lines):
        nxt = lines[i + 1]
        if nxt.y0 < line.y1 or nxt.baseline - line.baseline < APART * _pitch(pitches, line.size):
            return False
    return _alone(lines, i)


def counted_label(text: str) -> tuple[str, int] | None:
    """A capitalised word of any script and its number alone on a line ("Article 12", "Глава IV"): the word
    (case-folded) and the number, else None."""
    match = COUNTED_RE.match(text.strip())
    number = label_number(match.group(2)) if match and match.group(1)[:1].isupper() else None
    return None if match is None or number is None else (match.group(1).casefold(), number)


def label_number(text: str) -> int | None:
    """A label's number, in Arabic or Roman numerals ("12", "IV")."""
    if text.isdigit():
        return int(text)
    total = roman_value(text)
    return total if total is not None and total > 0 else None


def counts_up(numbers: list[int]) -> bool:
    """Numbers in document order count up by one, a restart at one aside (each part's articles from 1)."""
    steps = list(zip(numbers, numbers[1:]))
    up = sum(1 for a, b in steps if b == a + 1)
    restart = sum(1 for a, b in steps if b == 1 and a > 1)
    return up >= COUNTED_MIN - 1 and up + restart >= COUNTED_SHARE * len(steps)


def _short_title(text: str) -> bool:
    """A few words that start with a capital and end without a sentence's stop or a list's colon."""
    words = text.split()
    return 0 < len(words) <= OTHER_WORDS and text[:1].isupper() and text.rstrip()[-1:] not in ".,;:!?" \
        and sum(map(str.isalpha, text)) >= 2


def counted_labels(pages: list[list[Line]], pitches: dict[float, float]) -> set[Place]:
    """Lines of one word and a number ("Article 12", "Article IV") set apart above and below, whose numbers count
    up through the document in one style, three or more: the headings of a document that sets its headings only
    by space (a word processor's text in one font and size). When the space sets apart little else in that
    style (a third as many lines, each a short title: "Preamble"), those lines head sections too."""
    labels: dict[tuple[str, StyleKey], list[tuple[Place, int]]] = {}
    others: dict[StyleKey, list[Place]] = {}
    for p, lines in enumerate(pages):
        for i, line in enumerate(lines):
            if line.mono or line.vertical:
                continue
            label = counted_label(line.text)
            # (the text is tested before the space around the line: no page compares every line with every other)
            if label is not None:
                if _apart(lines, i, pitches):
                    labels.setdefault((label[0], _key(line)), []).append(((p, i), label[1]))
            elif _short_title(line.text) and _apart(lines, i, pitches):
                others.setdefault(_key(line), []).append((p, i))
    found: set[Place] = set()
    for (_, key), items in labels.items():
        if len(items) < COUNTED_MIN or not counts_up([n for _, n in items]):
            continue
        found.update(place for place, _ in items)
        alone = others.get(key, [])
        if len(alone) <= OTHERS_SHARE * len(items):
            found.update(alone)
    return found


FACE_MIN = 3  # short lines set apart in a heading face at the text's size that make it one
FACE_SHARE = 2 / 3  # of that face's lines at the text's size that must be such lines
FACE_DISPLAY = 2  # lines set larger than the text in that face (its larger headings, the title)
FACE_WORDS = 6


def face_headings(pages: list[list[Line]], body: float, body_face: str, pitches: dict[float, float]) -> set[Place]:
    """Short lines at the text's size in a typeface other than the text's, each alone on its row a blank line's
    space below the text above it (or atop its page), with a line of the text's face right under it: headings
    of a word processor's heading style that differs from the text by its face only (a sans Heading 2 at 12 pt
    over a 12 pt serif text). The face must head larger headings too (two display lines in it), and such lines
    must make up most of its use at the text's size (not a face of table cells, notes or labels in a figure),
    three or more."""
    if not body_face:
        return set()
    display: Counter[str] = Counter()
    at_size: Counter[str] = Counter()
    heads: dict[str, list[Place]] = {}
    for p, lines in enumerate(pages):
        for i, line in enumerate(lines):
            face = family(line.face)
            if line.mono or face == body_face or not face:
                continue
            if line.size >= HEADING_SIZE * body:
                display[face] += 1
                continue
            if line.size < 0.9 * body:
                continue
            at_size[face] += 1
            if len(line.text.split()) <= FACE_WORDS and _short_title(" ".join(line.text.split()[:OTHER_WORDS]))\
                    and line.text.rstrip()[-1:] not in ".,;:!?" and _apart(lines, i, pitches, above_only=True) \
                    and _over_text(lines, i, body_face, pitches):
                heads.setdefault(face, []).append((p, i))
    found: set[Place] = set()
    for face, places in heads.items():
        if display[face] >= FACE_DISPLAY and len(places) >= FACE_MIN and len(places) >= FACE_SHARE * at_size[face]:
            found.update(places)
    return found


def _over_text(lines: list[Line], i: int, body_face: str, pitches: dict[float, float]) -> bool:
    """Whether the line under line i is the text's (its face, not monospaced), within two line pitches."""
    if i + 1 >= len(lines):
        return False
    line, nxt = lines[i], lines[i + 1]
    return family(nxt.face) == body_face and not nxt.mono and nxt.y0 >= line.y1 - 1 \
        and nxt.baseline - line.baseline <= 2 * APART * _pitch(pitches, line.size)
