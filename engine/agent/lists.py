"""Enumerations of a page: a run of list items (bulleted or numbered Markdown lines) under the line that
leads into it. A question that asks for the items of such a run gets the lead-in and each item's lead (its
number and first sentence), not each item's explanation, so that the whole run fits in a concise answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.index.evidence import NUMBER_WORDS
from engine.markdown import is_heading
from engine.text import leads_in

# a numbered list item's mark: "1.", "2)", "(3)", "(a)", "b)", "(iv)"
NUMBER_MARK = r"\(?\d{1,2}[.)]|\([a-z]\)|[a-h]\)|\((?:i|ii|iii|iv|v|vi|vii|viii|ix|x)\)"
# a Markdown line that is a list item: "- …", "* …", "• …", or numbered
ITEM_LINE_RE = re.compile(rf"\s*(?:[-*+•]|{NUMBER_MARK})\s+\S")
NUMBERED_LINE_RE = re.compile(rf"(?:{NUMBER_MARK})\s")  # a numbered item's line (its indent left out)
# a unit that is only an item's number or letter ("1.", "(b)"): the item's lead goes on to its first sentence
ITEM_MARK_RE = re.compile(r"\(?(?:\d{1,2}|[a-z]|[ivx]{1,4})[.)]")
MIN_ITEMS = 2  # fewer item lines in a row are no enumeration


# a list of labelled items: short label lines ("Asset valuations", "**Funding risk**") each over 1 to
# LABEL_BODY lines of its own, at least MIN_LABELS of them in a row
LABEL_WORDS = 6
LABEL_BODY = 3
LABEL_BODY_CHARS = 300  # an item's lines under its label are at most this long (longer: a labelled section)
MIN_LABELS = 3
LABEL_END = (".", "!", "?", ";", ",", ":")


@dataclass(frozen=True)
class Run:
    """A run of items and the line just before the first of them that leads into it (None when the run
    opens the page). Each item is its Markdown lines, the line that holds its lead first: a list item's
    line, or a label's line and the lines under it."""

    lead_in: int | None
    items: tuple[tuple[int, ...], ...]

    @property
    def lines(self) -> tuple[int, ...]:
        return tuple(line for item in self.items for line in item)


def item_runs(text: str) -> list[Run]:
    """The runs of list items and of labelled items of a page's Markdown text, in page order; runs of list items under
    group labels after one lead-in are one run (`grouped_runs`)."""
    return sorted(grouped_runs(list_runs(text), text) + label_runs(text), key=lambda run: run.lines[0])


def grouped_runs(runs: list[Run], text: str) -> list[Run]:
    """Runs of list items each led into by a group's label line ("**Technology**", "**Strategy**"), one right after
    the other, the first label right after a line leading into them all ("… capabilities, including:"): one run led
    into by that line, each label an item of its own before its group's items."""
    lines = text.split("\n")

    def previous(n: int | None) -> int | None:  # the last non-blank line before line n
        k = (n or 0) - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        return k if n is not None and k >= 0 else None

    out: list[Run] = []
    k = 0
    while k < len(runs):
        j = k
        while j < len(runs) and (label := runs[j].lead_in) is not None and is_label_line(lines[label]) \
                and (j == k or previous(label) == runs[j - 1].lines[-1]):
            j += 1
        outer = previous(runs[k].lead_in) if j - k >= 2 else None
        if outer is not None and leads_in(lines[outer]):
            items = tuple(item for run in runs[k:j] for item in ((run.lead_in or 0,), *run.items))
            out.append(Run(outer, items))
            k = j
        else:
            out.append(runs[k])
            k += 1
    return out


def list_runs(text: str) -> list[Run]:
    """The runs of at least MIN_ITEMS list-item lines (one item a line)."""
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
            runs.append(Run(lead_in, tuple((n,) for n in current)))
        current = []
        before = n
    if len(current) >= MIN_ITEMS:
        runs.append(Run(lead_in, tuple((n,) for n in current)))
    return runs


def is_label_line(line: str) -> bool:
    """A short line of its own that names what the lines under it are about: capitalised, at most LABEL_WORDS
    words, without closing punctuation, no heading, list item or table row."""
    bare = line.strip().strip("*_").strip()
    return bool(bare) and bare[0].isupper() and len(bare.split()) <= LABEL_WORDS and not bare.endswith(LABEL_END) \
        and not is_heading(line) and "|" not in line and not ITEM_LINE_RE.match(line)


def label_runs(text: str) -> list[Run]:
    """The runs of at least MIN_LABELS labelled items: a label line over 1 to LABEL_BODY lines (within
    LABEL_BODY_CHARS) that are no label, no heading and no list item; a heading, or an item without such
    lines, ends the run."""
    lines_text = text.split("\n")
    lines = [(n, line) for n, line in enumerate(lines_text) if line.strip()]
    runs: list[Run] = []
    k = 0
    while k < len(lines):
        if not is_label_line(lines[k][1]):
            k += 1
            continue
        lead_in = lines[k - 1][0] if k else None
        items: list[tuple[int, ...]] = []
        j = k
        while j < len(lines) and is_label_line(lines[j][1]):
            body: list[int] = []
            m = j + 1
            while m < len(lines) and len(body) < LABEL_BODY + 1 and not is_label_line(lines[m][1]) \
                    and not is_heading(lines[m][1]) and not ITEM_LINE_RE.match(lines[m][1]):
                body.append(lines[m][0])
                m += 1
            if not 1 <= len(body) <= LABEL_BODY or sum(len(lines_text[n].strip()) for n in body) > LABEL_BODY_CHARS:
                break
            items.append((lines[j][0], *body))
            j = m
        if len(items) >= MIN_LABELS:
            runs.append(Run(lead_in, tuple(items)))
            k = j
        else:
            k += 1
    return runs


def run_of(runs: list[Run], line: int) -> Run | None:
    """The run that the line leads into or is an item of."""
    return next((r for r in runs if line == r.lead_in or line in r.lines), None)


# a count of things, the number in figures or in words ("3 modes", "six different system calls")
COUNT_NAMES = NUMBER_WORDS.split("|")[:11]  # ("two" … "twelve")
COUNTS = {**{str(n): n for n in range(2, 31)}, **{w: n for n, w in enumerate(COUNT_NAMES, start=2)}}
# a sentence counting back the things just listed: "Please attempt to include these 5 important parts"
BACK_COUNT_RE = re.compile(rf"\b(?:these|those|the\s+above)\s+(\d{{1,2}}|{'|'.join(COUNT_NAMES)})\b", re.I)


def counted_back(runs: list[Run], text: str, line: int, sentence: str) -> Run | None:
    """The run of items a sentence on `line` counts back ("these 5 important parts" after five items): the run ending
    right before that line (blank lines aside) with as many items as the sentence counts; None when it counts none, or
    no such run stands just before it."""
    found = BACK_COUNT_RE.search(sentence)
    if found is None:
        return None
    lines = text.split("\n")
    before = line - 1
    while before >= 0 and not lines[before].strip():
        before -= 1
    return next((r for r in runs if r.lines and r.lines[-1] == before
                 and len(r.items) == COUNTS.get(found.group(1).lower(), 0)), None)


def lead_units(units_on_line: list[int], texts: list[str]) -> list[int]:
    """An item's lead among the units of its line (their indexes, in order, with their texts): the first
    unit, and the one after it when the first is only the item's number ("1." "Develop the policy.")."""
    if not units_on_line:
        return []
    if ITEM_MARK_RE.fullmatch(texts[0].strip()) and len(units_on_line) > 1:
        return units_on_line[:2]
    return units_on_line[:1]
