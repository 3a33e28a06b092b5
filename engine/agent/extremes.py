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
of outsourcing.
"""

from __future__ import annotations

import re
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


@dataclass(frozen=True)
class Extreme:
    """A table row holding its table's extreme value, the stems of its caption and header row, and the table's
    first and last line."""

    line: int
    context: frozenset[str]
    table: tuple[int, int]


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


def extreme_rows(text: str, sign: int, question: str) -> list[Extreme]:
    """The rows of a page's tables that hold their table's largest value (sign 1) or smallest (sign -1) in the
    column compared (the module docstring)."""
    if not sign:
        return []
    asked = set(tokenize(question))
    lines = text.split("\n")
    found: list[Extreme] = []
    for first, last in tables(lines):
        header = next((i for i in range(first, last) if SEPARATOR_RE.match(lines[i + 1])
                       and all(NAME_CELL_RE.search(cell) for cell in cell_texts(lines[i])[1:] if cell)), None)
        rows = [(i, cell_texts(lines[i])) for i in range(first, last + 1)
                if i != header and is_row(lines[i]) and not SEPARATOR_RE.match(lines[i])]
        rows = [(i, cells) for i, cells in rows if cells and LETTER_WORD_RE.search(cells[0])]
        names = cell_texts(lines[header]) if header is not None else []
        width = max((len(cells) for _, cells in rows), default=0)
        columns = []
        for c in range(1, width):
            values = [(i, v) for i, cells in rows if c < len(cells) and (v := cell_number(cells[c])) is not None]
            if len(values) >= MIN_ROWS:
                columns.append((c, values))
        if not columns:
            continue
        named = [(c, values) for c, values in columns if c < len(names) and set(tokenize(names[c])) & asked]
        c, values = (named or columns)[0]
        numbers = [v for _, v in values]
        kept = [(i, v) for n, (i, v) in enumerate(values) if not is_total(numbers, n)]
        if len(kept) < MIN_ROWS:
            continue
        best = max(sign * v for _, v in kept)
        context = frozenset(tokenize(caption(lines, first))) \
            | (frozenset(tokenize(lines[header])) if header is not None else frozenset())
        found += [Extreme(i, context, (first, last)) for i, v in kept if sign * v == best]
    return found
