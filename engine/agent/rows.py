"""Table rows as evidence: the row that holds the value asked for about the thing asked about.

A row names what it is about in its label cells (those without a value of the asked kind) and states
values in the others ("Net income | 40.1 | 4.0"): when its labels hold what the question asks about and
another cell a value the question does not state, the row is the answer, however far apart the words
stand. A note on the page that defines a label ("1. fCNT = Operating frequency for 16-bit counters") lends
the rows carrying that label its words.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Set as AbstractSet

from engine.agent.values import new_values
from engine.index.evidence import URL_RE as ADDRESS_RE, PageUnits
from engine.text import LETTER_WORD_RE, tokenize

# "1. fCNT = Operating frequency for 16-bit counters", "TPD = pin-to-pin delay": a short term, "=", its meaning
DEFINITION_RE = re.compile(r"^(?:\(?\d{1,2}[.)]\s*)?([^\s=|]{1,24}(?:\s[^\s=|]{1,24})?)\s*=\s*([^=|]{3,})$")


SCALE_RE = re.compile(r"\b(?:thousand|million|billion|trillion|percent|per cent|bn|mn|m|k|US|USD|EUR|GBP)\b", re.I)


def is_row(line: str) -> bool:
    """Whether a Markdown line is a table row ("a | b", "| a | b |")."""
    return " | " in line or line.lstrip().startswith("|")


def definitions(analysis: PageUnits) -> dict[str, frozenset[str]]:
    """The terms a page defines ("fCNT = Operating frequency …"): each term's token -> the stems of its meaning."""
    found: dict[str, frozenset[str]] = {}
    for unit in analysis.units:
        match = DEFINITION_RE.match(unit.text.strip())
        if match is None:
            continue
        meaning = frozenset(tokenize(match.group(2)))
        for token in tokenize(match.group(1)):
            if not token.isdigit():
                found[token] = found.get(token, frozenset()) | meaning
    return found


def cells(row: str) -> list[str]:
    return [cell.strip() for cell in row.strip().strip("|").split("|")]


def is_label(cell: str, kind: str | None, question: str) -> bool:
    """A cell that names rather than states: a word of two letters or more is left once the values of `kind`
    it holds are taken out ("fCNT (MHz)(1)", "Net income"; not "40.1", "$3.1 billion", "12%")."""
    rest = cell
    for match in reversed(new_values(kind, cell, question) if kind is not None else []):
        rest = rest[:match.start()] + " " + rest[match.end():]
    return LETTER_WORD_RE.search(SCALE_RE.sub(" ", rest)) is not None


def label_stems(row: str, kind: str | None, question: str, defined: dict[str, frozenset[str]]) -> frozenset[str]:
    """The stems of a row's label cells (is_label), with the meanings the page gives its defined terms."""
    found: set[str] = set()
    for cell in cells(row):
        if not is_label(cell, kind, question):
            continue
        tokens = tokenize(cell)
        found.update(tokens)
        for token in tokens:
            found |= defined.get(token, frozenset())
    return frozenset(found)


def lent_stems(row: str, defined: dict[str, frozenset[str]]) -> frozenset[str]:
    """The meanings of the defined terms a row carries ("fCNT (MHz)(1)" -> operating, frequency, counters)."""
    if not defined:
        return frozenset()
    return frozenset().union(*(defined.get(token, frozenset()) for token in tokenize(row)))


def row_nearness(row: str, focus: AbstractSet[str], kind: str | None, question: str,
                 defined: dict[str, frozenset[str]]) -> float:
    """1.0 when the row's label cells hold a focus word and another cell a value of `kind` that the question
    does not state; else 0.0."""
    if not focus or kind is None:
        return 0.0
    values = [cell for cell in cells(row) if new_values(kind, cell, question) and not is_label(cell, kind, question)]
    return 1.0 if values and label_stems(row, kind, question, defined) & focus else 0.0


NAME_WORDS = 8  # a column's name is short: a longer top cell is a row of text, no header
PROSE_WORDS = 6  # a cell of this many words or more that ends in a full stop is a sentence
VALUE_WORDS = 4  # a value this short is given with its column's name ("Status: Target Met"); a longer one reads alone
UNIT_NOTE_RE = re.compile(r"^\(.*\)$")  # a header cell wholly in brackets: the unit of the table's values
NAME_CELL_RE = re.compile(r"[^\W\d_]|^(?:19|20)\d\d$")  # a column's name: a word, or a year ("2023"), not "40.1"
SEPARATOR_RE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")  # "| --- | --- |" under a header


def cell_spans(line: str) -> list[tuple[int, int]]:
    """The (start, end) offsets within a Markdown table line of each of its cells' text, outer pipes left out."""
    bounds = [i for i, c in enumerate(line) if c == "|" and (i == 0 or line[i - 1] != "\\")]
    edges = ([-1] if not line.lstrip().startswith("|") else []) + bounds \
        + ([len(line)] if not line.rstrip().endswith("|") else [])
    spans = []
    for left, right in zip(edges, edges[1:]):
        start, end = left + 1, right
        while start < end and line[start].isspace():
            start += 1
        while end > start and line[end - 1].isspace():
            end -= 1
        spans.append((start, end))
    return spans


def cell_texts(line: str) -> list[str]:
    """The cells of a Markdown table line as cell_spans reads them."""
    return [line[a:b] for a, b in cell_spans(line)]


def labelled(row: str, header: str, used: list[tuple[int, int]] | None = None) -> list[tuple[int, str]] | None:
    """A table row as (column, text) pairs: of each cell the answer takes a part of (`used`: (start, end) offsets
    within the row; None: every cell), those parts (the whole cell when None), empty cells left out. None when the
    header does not name one column per cell, names fewer than two, or holds a cell that is no name (a value:
    "40.1", a first row of data, a sentence of more than NAME_WORDS words)."""
    names = cell_texts(header)
    spans = cell_spans(row)
    if len(names) != len(spans) or len(names) < 2 or sum(1 for n in names if n) < 2 \
            or not all(NAME_CELL_RE.search(n) and len(n.split()) <= NAME_WORDS for n in names if n):
        return None
    parts = []
    for column, (start, end) in enumerate(spans):
        if start == end:
            continue
        if used is None:
            parts.append((column, row[start:end]))
            continue
        taken = [row[max(a, start):min(b, end)] for a, b in sorted(used) if a < end and start < b]
        if taken:
            parts.append((column, " ".join(" ".join(t.split()) for t in taken if t.strip())))
    return parts


def first_row_of_data(first: str, row: str) -> bool:
    """Whether a table's first row (which Markdown has to set as its header) is data like its `row`: a cell of it
    holds an address (a name never does: "Sales | hello@example.com"), its first cell is a label ending in ":"
    as the row's is (a glossary's "Computer: | A device that …"), or a code of the row's first cell's shape (a chart
    of characters, "U+19B5 | … | NEW TAI LUE VOWEL SIGN E" over "U+19B6 | …")."""
    head, own = cell_texts(first), cell_texts(row)
    return any(ADDRESS_RE.search(cell) for cell in head) \
        or bool(head and own and head[0].endswith(":") and own[0].endswith(":")) \
        or bool(head and own and coded_alike(head[0], own[0]))


def coded_alike(a: str, b: str) -> bool:
    """Whether two cells are codes of one shape: each holds a letter and a digit, and their letters and digits stand
    between the same marks ("U+19B5" and "U+19BA"; not "Year" and "2023", nor a chart's axis numbers)."""
    return all(CODE_RE.search(c) for c in (a, b)) and MARKS_RE.sub("", a) == MARKS_RE.sub("", b)


CODE_RE = re.compile(r"^(?=.*[^\W\d_])(?=.*\d)\S+$")  # one word of letters and digits
MARKS_RE = re.compile(r"[^\W_]+")  # (runs of letters and digits: what is left are a code's marks)


SENTENCE_END_RE = re.compile(r"\.(?:\s*\[[^\[\]]*\]|\s*\([^()]*\))?\s*$")  # a full stop, maybe a remark after it


def sentence_cell(cell: str) -> bool:
    """Whether a table cell is a sentence: PROSE_WORDS words or more ending in a full stop, a remark in brackets after
    it allowed ("Compute the (ordinary) arithmetic mean. [default]") (no column's name)."""
    return SENTENCE_END_RE.search(cell) is not None and len(cell.split()) >= PROSE_WORDS


def named_table(lines: list[str], at: int) -> bool:
    """Whether line `at` of a page's Markdown heads a table whose rows read by its names: a header row proper (a
    "| --- |" line under it) over rows that fill most of its named columns (not a chart's labels over its legend),
    and no first row of data (`first_row_of_data`)."""
    if at + 1 >= len(lines) or SEPARATOR_RE.match(lines[at + 1]) is None \
            or first_row_of_data(lines[at], lines[at + 2] if at + 2 < len(lines) else ""):
        return False
    filled = {c for row in itertools.takewhile(is_row, lines[at + 2:])
              for c, cell in enumerate(cell_texts(row)) if cell}
    columns = {c for c, name in enumerate(cell_texts(lines[at])) if name}
    return 2 * len(columns & filled) >= len(columns)


def as_labels(parts: list[tuple[int, str]], header: str) -> str:
    """(column, text) pairs as the columns' names with their values ("Type: Target, Status: Target Met"); a value
    of more than VALUE_WORDS words (a cell of prose), under an empty name, under a note of the table's unit in
    brackets ("($ in millions)": no column's name), or one that repeats its name, as it is."""
    names = ["" if UNIT_NOTE_RE.match(name) else name for name in cell_texts(header)]
    pieces = [f"{names[c]}: {value}" if names[c] and names[c] != value and len(value.split()) <= VALUE_WORDS
              else value for c, value in parts]
    return "".join(piece + ("" if n + 1 == len(pieces) else " " if piece.endswith((".", "!", "?", ";")) else ", ")
                   for n, piece in enumerate(pieces))
