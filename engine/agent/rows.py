"""Table rows as evidence: the row that holds the value asked for about the thing asked about.

A row names what it is about in its label cells (those without a value of the asked kind) and states
values in the others ("Net income | 40.1 | 4.0"): when its labels hold what the question asks about and
another cell a value the question does not state, the row is the answer, however far apart the words
stand. A note on the page that defines a label ("1. fCNT = Operating frequency for 16-bit counters") lends
the rows carrying that label its words.
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet

from engine.agent.values import new_values
from engine.index.evidence import PageUnits
from engine.text import tokenize

# "1. fCNT = Operating frequency for 16-bit counters", "TPD = pin-to-pin delay": a short term, "=", its meaning
DEFINITION_RE = re.compile(r"^(?:\(?\d{1,2}[.)]\s*)?([^\s=|]{1,24}(?:\s[^\s=|]{1,24})?)\s*=\s*([^=|]{3,})$")


LABEL_WORD_RE = re.compile(r"[^\W\d_]{2,}")
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
    return LABEL_WORD_RE.search(SCALE_RE.sub(" ", rest)) is not None


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
