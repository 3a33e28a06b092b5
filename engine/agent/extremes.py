"""Questions for the most or the least of something, read against a table: the row holding its table's largest
(or smallest) value is the answer a superlative asks for ("which benefit did the largest share name?" over a
table of benefits and the shares naming each), whatever words the row shares with the question.

A table is a run of Markdown table lines on a page; its rows are those whose first cell names something (letters)
and that are not its header row (the line over "| --- |" when its other cells are names or years: the reader
sets the first row of a table's every piece as a header, data or not). The column compared is the one whose
name the question uses, else the leftmost column in which two rows or more state one number each ("61.4%",
"1,755", "$2,717 bil.", "3M"). A row whose value is the sum of the others' (a total) is no candidate. What the
table is about is its caption (the line over it that has words) and its header row: a row lends their words, so
"benefit … outsourcing" in a caption makes its largest row the answer to a question about the largest benefit
of outsourcing. A table that runs over a page break is read whole: a page that opens with rows as wide as the last
table of the page before goes on with that table (`extremes_over`), so its extreme row may stand on a page the
question's words never reach, and the answer's passages include it (engine.agent.offline.extreme_windows).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine.agent.rows import NAME_CELL_RE, SEPARATOR_RE, cell_texts, is_row
from engine.text import LETTER_WORD_RE, tokenize

# the most of something ("the largest share", "ranked highest", "most often", "the top challenge") or the least;
# not "at least", "at most", "top-tier", "top secret"
MOST_RE = re.compile(r"(?<!\bat )\b(?:most|largest|highest|biggest|greatest|top(?![\s-](?:tier|level|secret|of)\b))\b",
                     re.I)
LEAST_RE = re.compile(r"(?<!\bat )(?<!\bat the very )\b(?:least|lowest|smallest|fewest)\b", re.I)
# a cell stating one number: "61.4%", "1,755", "$2,717 bil.", "US$1.2 billion", "(3.5)"
NUMBER_CELL_RE = re.compile(r"^[(\-−]?(?:US)?[$€£]?\s?(\d[\d,]*(?:\.\d+)?|\.\d+)\s?"
                            r"(%|percent|bil\.?|billion|bn|mil\.?|million|mn|[kKmMbB])?\)?$")
# the scale a suffix gives ("10K", "3M", "$2.1 bil."): a column mixing "3932" and "3M" compares right
SCALES = {"k": 1e3, "m": 1e6, "mil": 1e6, "million": 1e6, "mn": 1e6, "b": 1e9, "bil": 1e9, "billion": 1e9, "bn": 1e9}
MIN_ROWS = 2  # a column compared has values in this many rows or more
WRAP_WORDS = 8  # a line of text this short between rows of one table is a wrapped part of a cell
CAPTION_WORDS = 40  # the line over a table is its caption when it is this short
SUM_TOLERANCE = 0.02  # a total equals the sum of the rows over it within this share
TABLE_PAGES = 3  # a table is read over up to this many pages before and after the one it is found on


@dataclass(frozen=True)
class Extreme:
    """A table row holding its table's extreme value, the stems of its caption and header row, and the first and
    last line of its table's piece on its page."""

    line: int
    context: frozenset[str]
    table: tuple[int, int]
    pages: tuple[int, int] = (0, 0)  # the first and last page of its table (one page unless it runs over a break)


def direction(question: str) -> int:
    """1 when the question asks for the most of something, -1 for the least, 0 for neither (or both)."""
    most, least = bool(MOST_RE.search(question)), bool(LEAST_RE.search(question))
    return 0 if most == least else 1 if most else -1


def cell_number(cell: str) -> float | None:
    """The number a cell states alone, scaled by its suffix ("61.4%" 61.4, "10K" 10000, "$2 bil." 2e9), else None."""
    match = NUMBER_CELL_RE.match(cell.strip())
    if match is None:
        return None
    try:
        number = float(match.group(1).replace(",", ""))
    except ValueError:
        return None
    return number * SCALES.get((match.group(2) or "").lower().rstrip("."), 1.0)


def tables(lines: list[str]) -> list[tuple[int, int]]:
    """The (first, last) line numbers of each run of table lines: blank lines within a run allowed, and a short
    line of text (up to WRAP_WORDS words) between two rows of as many cells, the wrapped part of a cell the reader
    set apart, which splits one table into pieces."""
    runs: list[tuple[int, int]] = []
    start = last = None
    for i, line in enumerate(lines):
        if is_row(line) or SEPARATOR_RE.match(line):
            if start is None:
                start = i
            last = i
        elif line.strip() and start is not None and last is not None and not wrapped(lines, last, i):
            runs.append((start, last))
            start = last = None
    if start is not None and last is not None:
        runs.append((start, last))
    return runs


def wrapped(lines: list[str], last: int, at: int) -> bool:
    """Whether line `at`, after the table row `last`, is a short line of text between it and a next row of as many
    cells (blank lines aside)."""
    if is_row(lines[at]) or len(lines[at].split()) > WRAP_WORDS or lines[at].lstrip().startswith("#"):
        return False
    after = next((j for j in range(at + 1, len(lines)) if lines[j].strip()), None)
    return after is not None and is_row(lines[after]) and len(cell_texts(lines[after])) == len(cell_texts(lines[last]))


def caption(lines: list[str], first: int) -> str:
    """The nearest line over a table that holds a word (not an axis's numbers, "50%", set between a chart's caption
    and its table), when short enough to be its caption; else ""."""
    for line in reversed(lines[:first]):
        if LETTER_WORD_RE.search(line):
            return line if len(line.split()) <= CAPTION_WORDS else ""
    return ""


def is_total(values: list[float], at: int) -> bool:
    """Whether the value at `at` sums up the others of its column."""
    rest = sum(v for i, v in enumerate(values) if i != at)
    return rest > 0 and abs(values[at] - rest) <= SUM_TOLERANCE * rest


@dataclass(frozen=True)
class _Piece:
    """One page's run of table lines: its rows naming something, as (line, cells)."""

    page: int
    first: int
    last: int
    rows: list[tuple[int, list[str]]]

    @property
    def width(self) -> int:
        return max((len(cells) for _, cells in self.rows), default=0)


def extremes_over(pages: Sequence[tuple[int, str]], sign: int, question: str) -> dict[int, dict[int, Extreme]]:
    """The rows of the pages' (number, text) tables that hold their table's largest value (sign 1) or smallest (sign
    -1) in the column compared (the module docstring), by page and line, a table over a page break read whole: a
    page that opens with table rows (no line with a word above them) as wide as the last table of the page before
    it goes on with that table, whose caption and header row it shares."""
    found: dict[int, dict[int, Extreme]] = {number: {} for number, _ in pages}
    if not sign:
        return found
    asked = set(tokenize(question))
    tables_read: list[tuple[list[_Piece], list[str], frozenset[str]]] = []  # pieces, column names, context
    open_at: tuple[int, int] | None = None  # (page, index in tables_read) of the last table of the page before
    for number, text in pages:
        lines = text.split("\n")
        runs = tables(lines)
        for n, (first, last) in enumerate(runs):
            header = next((i for i in range(first, last) if SEPARATOR_RE.match(lines[i + 1])
                           and all(NAME_CELL_RE.search(cell) for cell in cell_texts(lines[i])[1:] if cell)), None)
            rows = [(i, cell_texts(lines[i])) for i in range(first, last + 1)
                    if i != header and is_row(lines[i]) and not SEPARATOR_RE.match(lines[i])]
            piece = _Piece(number, first, last, [(i, cells) for i, cells in rows if cells
                                                 and LETTER_WORD_RE.search(cells[0])])
            going_on = n == 0 and open_at is not None and open_at[0] == number - 1 \
                and not any(LETTER_WORD_RE.search(line) for line in lines[:first]) \
                and piece.width == tables_read[open_at[1]][0][-1].width
            if going_on and open_at is not None:
                tables_read[open_at[1]][0].append(piece)
                continue
            context = frozenset(tokenize(caption(lines, first))) \
                | (frozenset(tokenize(lines[header])) if header is not None else frozenset())
            tables_read.append(([piece], cell_texts(lines[header]) if header is not None else [], context))
        open_at = (number, len(tables_read) - 1) if runs else None
    for pieces, names, context in tables_read:
        for piece, line in extremes_of(pieces, names, sign, asked):
            found[piece.page][line] = Extreme(line, context, (piece.first, piece.last),
                                              (pieces[0].page, pieces[-1].page))
    return found


def pages_around(page: int, count: int) -> list[int]:
    """The pages a table on `page` of a document of `count` pages may run over (TABLE_PAGES either side)."""
    return list(range(max(1, page - TABLE_PAGES), min(count, page + TABLE_PAGES) + 1))


def extremes_of(pieces: list[_Piece], names: list[str], sign: int, asked: set[str]) -> list[tuple[_Piece, int]]:
    """The (piece, line) of the rows of one table (its pieces over pages) holding its extreme value in the column
    compared (`names`: its header row's cells; `asked`: the question's stems)."""
    rows = [(piece, i, cells) for piece in pieces for i, cells in piece.rows]
    width = max((len(cells) for _, _, cells in rows), default=0)
    columns = []
    for c in range(1, width):
        values = [(piece, i, v) for piece, i, cells in rows
                  if c < len(cells) and (v := cell_number(cells[c])) is not None]
        if len(values) >= MIN_ROWS:
            columns.append((c, values))
    if not columns:
        return []
    named = [(c, values) for c, values in columns if c < len(names) and set(tokenize(names[c])) & asked]
    _, values = (named or columns)[0]
    numbers = [v for _, _, v in values]
    kept = [(piece, i, v) for n, (piece, i, v) in enumerate(values) if not is_total(numbers, n)]
    if len(kept) < MIN_ROWS:
        return []
    best = max(sign * v for _, _, v in kept)
    return [(piece, i) for piece, i, v in kept if sign * v == best]
