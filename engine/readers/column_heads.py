"""A table's column heads set over its columns in lines of their own: the short lines just above the first row of
a table of three columns or more that stand over two or more of its columns after the first ("December 28," over
"2024", "December 30," over "2023") head those columns, instead of reading as paragraphs (or a table of their own)
over the table.

A head line stands wholly inside the columns after the first (from halfway between the row's first and second
cells), holds a word or a year and no sentence (no lower-case start, no full stop at its end, a few words, not a
note wholly in brackets such as "($K)", nor a caption, "Figure 2: …"), and each block of them stands within
HEAD_PITCHES line pitches of what is under it. A line joined from pieces set a word space or more apart is read
piece by piece ("December 28,   December 30," over two columns). A piece over several columns ("Quarter Ended")
says what they have in common, as a caption does, and stays over the table: lent to every row of every table of a
quarterly report, it would make each match any question about "the quarter" alike. A short paragraph in the first
column between the heads and the first row labels the rows under it, a row for each of its lines ("OPERATING
ACTIVITIES"). Heads over the names of the columns go before those names; over a row of values, they make a row of
their own.
"""

from __future__ import annotations

import re
from dataclasses import replace

from engine.readers.headings import CAPTION_RE
from engine.readers.layout import Line
from engine.readers.tables import LETTER_RE, Cell, no_sentence

HEAD_WORDS = 6  # a head line holds at most this many words
MAX_LABELS = 3  # label lines between the heads and the first row ("ASSETS" over "Current assets")
HEAD_PITCHES = 2.0  # a block of head lines stands at most this many line pitches over what is under it
SPAN_SHARE = 0.25  # a piece heads each column holding this share of its width or more
BRACKETED_RE = re.compile(r"^\(.*\)$")  # a note of the table's unit: "($K)", "(unaudited; $ in millions)"
YEAR_RE = re.compile(r"^(?:FY\s?)?(?:19|20)\d\d$")  # a head of figures alone is a year ("2024", "FY 2024")
MIN_CELLS = 3  # a table's first row holds this many cells or more (a label column and two of values)
MIN_HEADED = 2  # the heads stand over this many columns or more


def bands(row: list[Cell]) -> list[tuple[float, float]]:
    """The x-ranges of a row's columns after its first: from halfway to the cell before to halfway to the next (the
    last reaching as far right again as its cell is wide)."""
    out = []
    for k in range(1, len(row)):
        left = (row[k - 1].x1 + row[k].x0) / 2
        right = (row[k].x1 + row[k + 1].x0) / 2 if k + 1 < len(row) else row[k].x1 + (row[k].x1 - row[k].x0)
        out.append((left, right))
    return out


def head_text(text: str) -> bool:
    """Whether a line's text may head a column: a word or a year, few words, no sentence, no bracketed note, no
    caption."""
    text = text.strip()
    return bool(LETTER_RE.search(text) or YEAR_RE.match(text)) and len(text.split()) <= HEAD_WORDS \
        and no_sentence(text) and not BRACKETED_RE.match(text) \
        and not CAPTION_RE.match(text)


def is_label(line: Line, row: list[Cell], under: float, limit: float) -> bool:
    """Whether a line over a table's first row (`under`: the baseline of what stands under it), in the first
    column of `row` (a row of the table's every column), labels the rows under it."""
    step = under - line.baseline
    return len(row) >= 2 and line.x1 <= row[1].x0 - 2 and head_text(line.text) and LETTER_RE.search(line.text) \
        is not None and 0.3 * line.size < step <= HEAD_PITCHES * limit


def head_blocks(stack: list[list[Line]], row: list[Cell], under: float, limit: float) -> int:
    """How many of `stack` (the lines of the blocks just over a table, nearest first; `under`: the baseline of the
    table's first row, or of the labels between them and it) head the columns of `row` (a row of the table's every
    column; the module docstring)."""
    if len(row) < MIN_CELLS:
        return 0
    spans = bands(row)
    left, right = spans[0][0], spans[-1][1]
    count = 0
    for lines in stack:
        if not lines or not all(left <= l.x0 and l.x1 <= right and head_text(l.text) for l in lines):
            break
        step = under - max(l.baseline for l in lines)
        if not 0 < step <= HEAD_PITCHES * limit:
            break
        under = min(l.baseline for l in lines)
        count += 1
    while count and len(head_cells([l for lines in stack[:count] for l in lines], row)[0]) < MIN_HEADED:
        count -= 1  # (a lone line over one column: a cell's rest, a page's number, not the columns' heads)
    return count


def pieces(line: Line) -> list[Line]:
    """A line as the pieces it was joined from (`Line.pieces`), each a line of its own; the line itself when it was
    not joined, or its text is no longer theirs."""
    if len(line.pieces) < 2 or " ".join(t.strip() for t, _, _ in line.pieces).split() != line.text.split():
        return [line]
    return [replace(line, text=" ".join(t.split()), x0=x0, x1=x1, pieces=()) for t, x0, x1 in line.pieces]


def head_cells(lines: list[Line], row: list[Cell]) -> tuple[dict[int, Cell], list[Line]]:
    """The heads of a row's columns after its first (by the column's index in the row) from head lines, top to
    bottom: each piece under the column holding most of its width; and the pieces that span several columns
    (SPAN_SHARE of their width or more in each: "Quarter Ended"), which say what the columns have in common, as
    a caption does, and stay over the table."""
    spans = bands(row)
    found: dict[int, list[Line]] = {}
    spanning: list[Line] = []
    for line in sorted(lines, key=lambda l: (round(l.baseline), l.x0)):
        for piece in pieces(line):
            width = max(piece.x1 - piece.x0, 1.0)
            under = [k for k, (a, b) in enumerate(spans, start=1)
                     if min(b, piece.x1) - max(a, piece.x0) >= SPAN_SHARE * width]
            if len(under) > 1:
                spanning.append(piece)
            elif under:
                found.setdefault(under[0], []).append(piece)
    cells = {k: Cell(heads, max(min(l.x0 for l in heads), spans[k - 1][0]), min(max(l.x1 for l in heads),
                                                                               spans[k - 1][1]))
             for k, heads in found.items()}
    return cells, spanning
