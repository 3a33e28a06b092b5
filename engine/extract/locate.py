"""Where the entries of an outline or contents page sit in a document's Markdown.

An entry is looked for on its physical page, then the page after (an anchor set at the foot of the page
before its heading), then the page before; entries keep their order, except where an outline goes back to
an earlier page. A line holds an entry's title (see `engine.extract.titles`) exactly or nearly, as a run-in
heading that opens it (the line is cut after the title), or as the start of a title that wraps onto the
next lines (they are joined); a label alone on the line above ("Chapter 4") joins the title when the entry's
title has that number or the layout made the label a heading (else it stays a line of text). An entry not
found goes to the top of its page, after the document's title.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property, lru_cache

from engine.extract.titles import (
    MatchKind, Title, cut_after, label_only, line_match, prefix_end, read_line, read_title, split_label, strip_markup,
    words_of,
)
from engine.markdown import HEADING_RE, MARKER_RE, Fences, page_of_lines
from engine.schemas.base import Model
from engine.text import CONTENTS_LEADER_RE

WRAP_LINES = 3  # a title may wrap onto this many further lines
# a contents line: its title runs into leader dots (and its page number, or the number on the next line); it
# refers to a heading and is never one (a cover's bookmarks are not found on the cover, but on the contents page)
CONTENTS_LINE_RE = re.compile(rf"(?:{CONTENTS_LEADER_RE.pattern})\s*\d*\s*$")
KIND_RANK = {"exact": 0, "spaced": 1, "fuzzy": 1, "prefix": 2, "wrapped": 2}


class SourceEntry(Model):
    """An entry of an outline or contents page: its title, level (1 = top) and physical page, if known."""

    title: str
    level: int
    page: int | None = None


@dataclass
class MdLine:
    index: int
    page: int
    text: str  # markup stripped
    level: int | None  # its Markdown heading level, None for a plain line

    @cached_property
    def titles(self) -> list[Title]:
        """The ways it may hold a title (see `read_line`), read when first compared."""
        return read_line(self.text)

    @cached_property
    def contents_line(self) -> bool:
        """A contents page's line (see CONTENTS_LINE_RE), asked once: every entry whose pages hold it asks."""
        return CONTENTS_LINE_RE.search(self.text) is not None


@dataclass
class Placement:
    """Where an entry sits in the Markdown: lines start..end (joined), split after `cut`, or inserted."""

    kind: MatchKind | None  # None: not found, inserted before line `start`
    start: int
    end: int
    cut: int | None = None  # a run-in heading: the line's text is split at this offset
    lead: int = 0  # the heading starts at this offset of the first line (a line number before it stays apart)


@lru_cache(maxsize=4)  # one document is read by every source tried and by the reconciliation
def read_markdown(markdown: str) -> tuple[list[str], list[MdLine], int | None, list[int], frozenset[int]]:
    """The raw lines, the readable ones (not blank, markers or fenced code), the title (first H1) line, the
    page of every raw line and the lines within fenced code (its closing fence included)."""
    raw = markdown.split("\n")
    page_of = page_of_lines(markdown)
    lines: list[MdLine] = []
    inside: set[int] = set()
    fences, title_line = Fences(), None
    for index, text in enumerate(raw):
        if fences.inside:
            inside.add(index)  # (its closing fence included)
        if fences.fence(text):
            continue
        if fences.inside or not text.strip() or MARKER_RE.match(text):
            continue
        match = HEADING_RE.match(text)
        level = len(match.group(1)) if match else None
        if level == 1 and title_line is None:
            title_line = index
        stripped = strip_markup(text)
        lines.append(MdLine(index, page_of[index], stripped, level))
    return raw, lines, title_line, page_of, frozenset(inside)


def _wrapped_end(title: Title, lines: list[MdLine], at: int, reading: int) -> tuple[int, int | None] | None:
    """(last line, cut in it) when lines[at] and the next ones, on its page, spell out the title."""
    words = list(lines[at].titles[reading].words)
    for k in range(at + 1, min(at + 1 + WRAP_LINES, len(lines))):
        line = lines[k]
        if line.page != lines[at].page or (line.level is not None and line.level != lines[at].level):
            return None
        needed, more = title.words[len(words):], words_of(line.text)
        if more == needed:
            return k, None
        if more[:len(needed)] == needed:
            return k, cut_after(line.text, 0, len(needed))
        if needed[:len(more)] != more:
            return None
        words += more
    return None


def _label_line(above: MdLine, line: MdLine, title: Title) -> bool:
    """Whether the line above a title's line holds only its numbering ("Chapter 4", "4", "Appendix B") and joins
    it: when the entry's own title carries that number, or the layout took the label for a heading. A plain
    label line under an entry titled without it ("Kapitel 1" over the outline's "Einleitung") stays in the
    text above the heading, as the layout left it: the heading reads as the source names it. A contents page's entry
    whose first word is the label's letter ("A Differences between JAGS and OpenBUGS" under "Appendix A": a letter
    without a stop reads as no label, "A Brief History" may begin so) carries it too."""
    if above.page != line.page or line.titles[0].label:
        return False
    label = label_only(above.text)
    if label is None:
        return False
    if title.label:
        return label == title.label
    return above.level is not None or (len(label) == 1 and label.isalpha() and title.words[:1] == (label,))


def _match(title: Title, line: Title, heading: bool) -> MatchKind | None:
    """How a line holds a title, their numbering labels agreeing (when both have one)."""
    if title.label and line.label and title.label != line.label:
        return None
    return line_match(title, line, heading=heading)


def _candidates(entry: SourceEntry, window: list[int], by_page: dict[int, list[int]], lines: list[MdLine],
                after: int, used: set[int]) -> Placement | None:
    """The best line for an entry among the pages of `window`, past line `after`."""
    title = read_title(entry.title)
    if not title.words:
        return None
    best: tuple[tuple[int, ...], Placement] | None = None
    for page_rank, page in enumerate(window):
        for position in by_page.get(page, []):
            line = lines[position]
            if line.index <= after or line.index in used or line.contents_line:
                continue
            kinds = [_match(title, t, line.level is not None) for t in line.titles]
            reading = next((i for i, k in enumerate(kinds) if k), None)
            if reading is None:
                continue
            kind = kinds[reading]
            assert kind is not None  # the reading is the first that matched
            placement = Placement(kind, line.index, line.index)
            if reading:
                placement.lead = len(line.text) - len(split_label(line.text)[1])
            if kind == "prefix":
                placement.cut = prefix_end(line.text, title, reading + 1)
                if placement.cut is None:
                    continue
            elif kind == "wrapped":
                wrapped = _wrapped_end(title, lines, position, reading)
                if wrapped is None:
                    continue
                placement.end, placement.cut = lines[wrapped[0]].index, wrapped[1]
            if position and _label_line(lines[position - 1], line, title) and lines[position - 1].index > after \
                    and lines[position - 1].index not in used and not placement.lead:
                placement.start = lines[position - 1].index  # "Chapter 4" on the line above its title
            rank = (KIND_RANK[kind], page_rank, 0 if line.level is not None else 1, line.index)
            if best is None or rank < best[0]:
                best = (rank, placement)
    return best[1] if best else None


def _first_line(raw: list[str], page_of: list[int], inside: frozenset[int], page: int, after: int) -> int:
    """Where an entry not found goes: the first non-blank line of its page past `after` (its marker at worst),
    never within fenced code."""
    for index in range(after + 1, len(raw)):
        if page_of[index] >= page and raw[index].strip() and index not in inside:
            return index
    return len(raw)


def locate(entries: list[SourceEntry], markdown: str, *, reserve_title: bool = False) -> list[Placement | None]:
    """Each entry's place in the Markdown, in order (None: no page to put it on). An entry not found goes
    after the title (the first H1), which is no entry's when `reserve_title`."""
    raw, lines, title_line, page_of, inside = read_markdown(markdown)
    reserved = title_line if reserve_title else None
    last_page = page_of[-1] if page_of else 1
    by_page: dict[int, list[int]] = defaultdict(list)
    for position, line in enumerate(lines):
        by_page[line.page].append(position)
    placements: list[Placement | None] = []
    used: set[int] = set() if reserved is None else {reserved}
    ends: list[tuple[int, int]] = []  # (entry page, last line) of the entries placed so far
    back: set[int] = set()  # the entries that point before a page the outline reached already
    furthest = 0
    for k, entry in enumerate(entries):
        after = ends[-1][1] if ends else -1
        if entry.page is not None and ends and entry.page < ends[-1][0]:  # the outline goes back: only the
            after = max([end for page, end in ends if page < entry.page] or [-1])  # pages before bind it
        if entry.page is not None:
            if entry.page < furthest:
                back.add(k)
            furthest = max(furthest, entry.page)
        if entry.page is not None:
            window = [p for p in (entry.page, entry.page + 1, entry.page - 1) if 1 <= p <= last_page]
        else:  # a contents entry without a page: between the pages of its neighbours
            low = max([e.page for e in entries[:k] if e.page] or [1])
            high = min([e.page for e in entries[k + 1:] if e.page] or [last_page])
            window = list(range(low, high + 1))
        found = _candidates(entry, window, by_page, lines, after, used) if window else None
        if found is None and entry.page is not None and window:
            floor = max(after, -1 if title_line is None else title_line)
            start = _first_line(raw, page_of, inside, entry.page, floor)
            found = Placement(None, start, start - 1)  # inserted before `start`, takes no line
        placements.append(found)
        if found is not None:
            used.update(range(found.start, found.end + 1))
            ends.append((entry.page or page_of[min(found.start, len(raw) - 1)], found.end))
    for k in sorted(back, reverse=True):  # (the deepest first: an entry over one that moves follows it)
        moved = _before_its_section(k, entries, placements, by_page, lines, used)
        if moved is not None:
            old = placements[k]
            if old is not None and old.kind is not None:
                used.difference_update(range(old.start, old.end + 1))
            used.update(range(moved.start, moved.end + 1))
            placements[k] = moved
    return placements


def _before_its_section(k: int, entries: list[SourceEntry], placements: list[Placement | None],
                        by_page: dict[int, list[int]], lines: list[MdLine], used: set[int]) -> Placement | None:
    """Where an entry that sends the reader back to an earlier page goes instead, when its own entries (the
    deeper ones after it) stand further on: before the first of them, where its title is printed on that page
    above it, or (its title printed neither there nor on its own page) right before it. The outline's order and
    levels hold where its page does not: an appended document's bookmarks left pointing at page 1 over the
    sections of that document ("Overview" printed on page 1 and again over the sections it opens on page 65).
    None: it stays."""
    placement = placements[k]
    first = None
    for j in range(k + 1, len(entries)):
        if entries[j].level <= entries[k].level:
            break
        found = placements[j]
        if found is not None and found.kind is not None:
            first = found
            break
    if placement is None or first is None or first.start <= placement.start:
        return None
    page = next(line.page for line in lines if line.index >= first.start)
    before = max([p.end for p in placements if p is not None and p is not placement and p.end < first.start]
                 or [-1])
    above = _candidates(entries[k], [page], by_page, lines, before, used)
    if above is not None and above.end < first.start:
        return above
    return Placement(None, first.start, first.start - 1) if placement.kind is None else None
