"""Enumerations of a page: a run of list items (bulleted or numbered Markdown lines) under the line that
leads into it. A question that asks for the items of such a run gets the lead-in and each item's lead (its
number and first sentence), not each item's explanation, so that the whole run fits in a concise answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# a Markdown line that is a list item: "- …", "* …", "• …", "1. …", "2) …", "(a) …", "b) …", "(iv) …"
ITEM_LINE_RE = re.compile(r"\s*(?:[-*+•]|\(?\d{1,2}[.)]|\([a-z]\)|[a-h]\)|\((?:i|ii|iii|iv|v|vi|vii|viii|ix|x)\))"
                          r"\s+\S")
# a unit that is only an item's number or letter ("1.", "(b)"): the item's lead goes on to its first sentence
MARKER_RE = re.compile(r"\(?(?:\d{1,2}|[a-z]|[ivx]{1,4})[.)]")
MIN_ITEMS = 2  # fewer item lines in a row are no enumeration


@dataclass(frozen=True)
class Run:
    """A run of item lines (Markdown line numbers; blank lines between them are allowed) and the line just
    before the first of them that leads into it (None when the run opens the page)."""

    lead_in: int | None
    lines: tuple[int, ...]


def item_runs(text: str) -> list[Run]:
    """The runs of at least MIN_ITEMS list-item lines of a page's Markdown text, in page order."""
    runs: list[Run] = []
    current: list[int] = []
    before: int | None = None  # the last non-blank line that is no item
    lead_in: int | None = None
    for n, line in enumerate(text.split("\n")):
        if not line.strip():
            continue
        if ITEM_LINE_RE.match(line):
            if not current:
                lead_in = before
            current.append(n)
            continue
        if len(current) >= MIN_ITEMS:
            runs.append(Run(lead_in, tuple(current)))
        current = []
        before = n
    if len(current) >= MIN_ITEMS:
        runs.append(Run(lead_in, tuple(current)))
    return runs


def run_of(runs: list[Run], line: int) -> Run | None:
    """The run that the line leads into or is an item of."""
    return next((r for r in runs if line == r.lead_in or line in r.lines), None)


def lead_units(units_on_line: list[int], texts: list[str]) -> list[int]:
    """An item's lead among the units of its line (their indexes, in order, with their texts): the first
    unit, and the one after it when the first is only the item's number ("1." "Develop the policy.")."""
    if not units_on_line:
        return []
    if MARKER_RE.fullmatch(texts[0].strip()) and len(units_on_line) > 1:
        return units_on_line[:2]
    return units_on_line[:1]
