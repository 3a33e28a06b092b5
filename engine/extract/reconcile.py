"""The structure from the best source a document offers, written into its Markdown.

Order of trust: the PDF outline (bookmarks) when it is consistent with the text, else the printed contents
page, else the headings the layout (or the LLM) found. A source is consistent when at least
`MIN_FOUND_SHARE` of its entries (and at least `MIN_ENTRIES`) are found in the text of their pages
(`engine.extract.locate`); an outline entry whose page has too little text to show it (`textless_pages`: blank,
scanned, or drawn as shapes with only a link or page number in its text layer) is not counted either way.

Reconciling the chosen source with the Markdown (`reconcile`):
- outline: its entries are the headings, at their outline depth below the document's title (the single
  H1); an entry not found is added at the top of its page; every other heading of the layout becomes a bold
  line, so the Markdown, the created TOC, the structure string and the tree hold the same headings.
- contents: each contents level is read on the layout's scale (the layout level most of its entries have;
  when a deeper contents level is not deeper there, the two disagree and the contents page is not used). A
  heading found keeps its layout level unless its decimal number confirms its contents level; an entry found
  as a plain line gets the mapped level (an entry not in the text is left out: the body prints what a
  contents page lists, so it was misread); the layout's other headings stay, one below the entry before them
  within the span the contents page covers, at their own level elsewhere.
- layout (or llm): the Markdown is left as it is.
Levels are then renumbered so that none is skipped. Only heading marks change, lines are split or joined,
missing titles are added, and a title printed letter-spaced ("T Y PE S") is spaced as its source spaces it:
no letter is lost. Reconciling a reconciled Markdown changes nothing.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import islice, pairwise

from engine.extract.locate import MdLine, Placement, SourceEntry, locate, read_markdown
from engine.markdown import BLANK_PAGE, NEEDS_OCR_LEAD, split_pages
from engine.extract.titles import respaced, strip_markup
from engine.schemas.pdf import OutlineEntry
from engine.schemas.toc import StructureHeading, TocEntry
from engine.schemas.tree import TAGGED_SOURCES, StructureSource

VERSION = 14  # bump when the output of this module, `locate` or `titles` changes (the structure stage re-runs)

MIN_FOUND_SHARE = 0.5  # of a source's entries found in the text for it to be trusted
MIN_ENTRIES = 2  # an outline or contents page with fewer entries is no structure
# a page with fewer words of text than this (a page whose body is drawn as shapes or scanned, with only a link or a
# page number in its text layer) cannot show whether an outline entry's title is printed on it
THIN_PAGE_WORDS = 8
MAX_MD_LEVEL = 6
PRINTED_WORD_RE = re.compile(r"\S*[^\W_]\S*")  # a word as printed: a link is one
DOTTED_RE = re.compile(r"^(\d{1,3}(?:\.\d{1,3})*|[A-Z](?:\.\d{1,3})+)\.?\s")  # "4 ", "4.1.2 ", "A.1 "


@dataclass
class Reconciled:
    """The Markdown with the chosen source's headings, and the structure's headings in order."""

    markdown: str
    source: StructureSource
    headings: list[StructureHeading]
    found: int = 0
    entries: int = 0
    warnings: list[str] = field(default_factory=list)
    moved: list[int] | None = None  # the new line of each line of the Markdown reconciled (None: unchanged)

    def line(self, old: int) -> int:
        """Where line `old` of the Markdown reconciled is in the new one."""
        return old if self.moved is None else self.moved[old]

def _depths(levels: list[int]) -> list[int]:
    """Levels as depths with none skipped (a level-3 entry right under a level-1 one is at depth 2)."""
    stack: list[int] = []
    depths = []
    for level in levels:
        while stack and stack[-1] >= level:
            stack.pop()
        stack.append(level)
        depths.append(len(stack))
    return depths


@dataclass
class _Head:
    """A heading to write: its level (1 = title), text, source; `line` is set once the Markdown is written."""

    level: int
    text: str
    source: StructureSource
    line: int = -1


def _write(raw: list[str], heads: dict[int, tuple[Placement, _Head]], keep: dict[int, _Head],
           demote: set[int], title: _Head | None) -> tuple[list[str], list[_Head], list[int]]:
    """The new Markdown lines, the structure headings with their new line numbers in order, and where each
    old line went (a joined line: to the heading that holds it)."""
    out: list[str] = []
    order: list[_Head] = []
    moved: list[int] = []
    inserted: dict[int, list[_Head]] = defaultdict(list)
    spans: dict[int, tuple[Placement, _Head]] = {}
    for placement, head in heads.values():
        if placement.kind is None:
            inserted[placement.start].append(head)
        else:
            spans[placement.start] = (placement, head)

    def heading(head: _Head) -> str:
        head.line = len(out)
        order.append(head)
        return f"{'#' * min(head.level, MAX_MD_LEVEL)} {head.text}"

    if title is not None:
        out += [heading(title), ""]
    skip_to = -1
    for index, text in enumerate(raw):
        for head in inserted.get(index, []):
            out += [heading(head), ""]
        if index <= skip_to:
            moved.append(moved[-1])
            continue
        moved.append(len(out))
        if index in spans:
            placement, head = spans[index]
            parts = [strip_markup(raw[i]) for i in range(placement.start, placement.end + 1)]
            rest = ""
            if placement.cut is not None:
                rest = parts[-1][placement.cut:].strip()
                parts[-1] = parts[-1][:placement.cut]
            if placement.kind == "spaced":  # (the title printed letter-spaced reads as its source spaces it)
                parts[-1] = respaced(parts[-1], head.text)
            if placement.lead:
                out += [parts[0][:placement.lead].strip(), ""]
                parts[0] = parts[0][placement.lead:]
                moved[-1] = len(out)
            head.text = " ".join(p.strip() for p in parts if p.strip())
            out.append(heading(head))
            if rest:
                out += ["", rest]
            skip_to = placement.end
        elif index in keep:
            keep[index].text = keep[index].text or strip_markup(text)
            out.append(heading(keep[index]))
        elif index in demote:
            out.append(f"**{strip_markup(text)}**")
        else:
            out.append(text)
    for head in inserted.get(len(raw), []):
        out += [heading(head), ""]
    return out, order, moved


def _shift(placements: list[Placement | None], title_line: int | None, depths: list[int]) -> tuple[int, bool]:
    """(depth offset, whether the title line is an entry's): entries sit one below the title, unless the
    first entry is the title itself and the only one at its depth."""
    first = next((p for p in placements if p is not None), None)
    on_title = first is not None and title_line is not None and first.start <= title_line <= first.end \
        and first.kind is not None
    if on_title and depths.count(1) == 1 and depths[0] == 1:
        return 0, True
    return 1, on_title


NUMBERED_SHARE = 0.8  # of a contents page's entries whose numbers give their levels: its levels are the numbering's


def level_map(pairs: list[tuple[int, int]], numbered: bool = False) -> dict[int, int] | None:
    """Contents level -> layout level, each the layout level most often found for it; None when the two
    disagree (a deeper contents level is not deeper in the layout) or nothing was matched to a heading. When the
    contents' levels are its entries' own numbering (`numbered`: "2." over "2.1" over "2.1.3"), a layout that sets two
    of them alike (a chapter's heading in the size of its sections') is read apart: the deeper one level deeper."""
    by_level: dict[int, Counter[int]] = defaultdict(Counter)
    for contents, layout in pairs:
        by_level[contents][layout] += 1
    mapping = {c: max(counts.items(), key=lambda kv: (kv[1], -kv[0]))[0] for c, counts in by_level.items()}
    ordered = [mapping[c] for c in sorted(mapping)]
    if not ordered or any(b < a or (b == a and not numbered) for a, b in zip(ordered, ordered[1:])):
        return None
    for before, level in pairwise(sorted(mapping)):
        mapping[level] = max(mapping[level], mapping[before] + 1)
    return mapping


def _mapped(mapping: dict[int, int], level: int) -> int:
    """A contents level on the layout's scale (a level never matched: as far from the nearest one that was)."""
    if level in mapping:
        return mapping[level]
    lower = [c for c in mapping if c < level]
    near = max(lower) if lower else min(mapping)
    return max(2, mapping[near] + level - near)


def _titled(lines: list[MdLine], title: str, taken: set[int]) -> int | None:
    """The first page's heading that reads `title` (the document's title), if the outline did not take it."""
    wanted = " ".join(title.split())
    return next((line.index for line in lines if line.page == 1 and line.level is not None and wanted
                 and " ".join(line.text.split()) == wanted and line.index not in taken), None)


def _numbered_depth(title: str) -> int | None:
    """The depth a decimal number gives a title ("4.1.2 Tokens": 3, "4 Usage": 1), None without one."""
    match = DOTTED_RE.match(title.strip())
    return match.group(1).count(".") + 1 if match else None


def _fallback(markdown: str, lines: list[MdLine], fallback: StructureSource, found: int, entries: int,
              warnings: list[str]) -> Reconciled:
    heads = [StructureHeading(title=line.text, level=line.level, line=line.index, source=fallback)
             for line in lines if line.level is not None]
    return Reconciled(markdown, fallback, heads, found, entries, warnings)


def reconcile(markdown: str, source: StructureSource, entries: list[SourceEntry], *, fallback: StructureSource,
              fallback_title: str, title: str = "", placements: list[Placement | None] | None = None,
              contents_pages: Sequence[int] = ()) -> Reconciled:
    """The Markdown rewritten so that its headings are the source's (see the module docstring).

    `fallback_title` is the H1 the reformatter falls back to (the file name); with an outline, whose
    entries replace the title page's headings, such an H1 (or a title put on top) reads `title` instead;
    `contents_pages`: the pages of the contents page read, whose own title stands at its top level."""
    raw, lines, title_line = read_markdown(markdown)[:3]
    if source not in TAGGED_SOURCES:
        return _fallback(markdown, lines, fallback, 0, 0, [])
    if placements is None:
        placements = locate(entries, markdown, reserve_title=source == "contents")
    placed = [(e, p) for e, p in zip(entries, placements)  # a contents entry not in the text was misread
              if p is not None and (p.kind is not None or source == "outline")]
    found = sum(1 for _, p in placed if p.kind is not None)
    layout_level = {line.index: line.level for line in lines if line.level is not None}
    heads: dict[int, tuple[Placement, _Head]] = {}
    keep: dict[int, _Head] = {}
    top: _Head | None = None  # a title put on top
    taken = {i for _, p in placed if p.kind is not None for i in range(p.start, p.end + 1)}
    others = [i for i in layout_level if i not in taken and i != title_line]
    if source == "outline":
        named = _titled(lines, title, taken)
        if named is not None and title_line is not None and named != title_line:
            others = [i for i in [*others, title_line] if i != named]
            title_line = named  # the heading that reads as the document's title is its H1
        depths = _depths([e.level for e, _ in placed])
        shift, on_title = _shift([p for _, p in placed], title_line, depths)
        for (entry, placement), depth in zip(placed, depths):
            heads[id(placement)] = (placement, _Head(depth + shift, entry.title, source))
        demote = set(others)
        if title_line is not None and not on_title and all(p.start >= title_line for _, p in placed):
            text = raw[title_line].lstrip("#").strip()
            keep[title_line] = _Head(1, title.strip() if text == fallback_title.strip() else "", fallback)
        elif shift == 1:  # the title line is an entry's, follows one, or there is none: a title goes on top
            top = _Head(1, title.strip() or fallback_title.strip() or "Untitled document", fallback)
            if title_line is not None:
                demote |= {title_line} - taken
    else:
        span_level = {id(p): min([layout_level[i] for i in range(p.start, p.end + 1) if i in layout_level] or [0])
                      for _, p in placed if p.kind is not None}
        numbered = sum(_numbered_depth(e.title) == e.level for e, _ in placed) >= NUMBERED_SHARE * len(placed)
        mapping = level_map([(e.level, span_level[id(p)]) for e, p in placed if span_level.get(id(p))], numbered)
        if mapping is None:
            return _fallback(markdown, lines, fallback, found, len(entries),
                             ["the contents page was not used: its levels disagree with the layout's"])
        anchors: list[tuple[int, int]] = []  # (line, level) of the entries
        for entry, placement in placed:
            level = span_level.get(id(placement)) or None
            if level is None or _numbered_depth(entry.title) == entry.level:
                level = _mapped(mapping, entry.level)
            heads[id(placement)] = (placement, _Head(level, entry.title, source))
            anchors.append((placement.start, level))
        last = max(line for line, _ in anchors)
        top_level = _mapped(mapping, min(e.level for e, _ in placed))
        page_of = {line.index: line.page for line in lines}
        for i in others:  # within the span the contents page covers, it would list a heading at the level of
            before = [level for line, level in anchors if line <= i]  # the entry before it: one below that
            keep[i] = _Head(max(layout_level[i], before[-1] + 1) if before and i < last else layout_level[i],
                            "", fallback)
            if page_of.get(i) in contents_pages:  # the contents' own title belongs to no entry's section (one
                keep[i] = _Head(top_level, "", fallback)  # printed at the end is no part of the last one)
        if title_line is not None:
            keep[title_line] = _Head(1, "", fallback)
        else:
            top = _Head(1, fallback_title.strip() or "Untitled document", fallback)
        demote = set()
    out, order, moved = _write(raw, heads, keep, demote, top)
    for head, depth in zip(order, _depths([h.level for h in order])):  # no level skipped
        if depth != head.level or source == "contents":
            head.level = depth
            out[head.line] = f"{'#' * min(depth, MAX_MD_LEVEL)} {head.text}"
    structure = [StructureHeading(title=h.text, level=h.level, line=h.line, source=h.source) for h in order]
    return Reconciled("\n".join(out), source, structure, found, len(entries), moved=moved)


def outline_entries(outline: list[OutlineEntry]) -> list[SourceEntry]:
    """The outline's entries that point to a page (the others cannot be placed)."""
    return [SourceEntry(title=e.title, level=e.level, page=e.page) for e in outline if e.page is not None]


def contents_entries(contents: list[TocEntry]) -> list[SourceEntry]:
    """The contents page's entries whose pages run in order (the longest such run: the others were misread);
    entries without a page are kept."""
    paged = [k for k, e in enumerate(contents) if e.page is not None]
    keep = set(_longest_run([page for k in paged if (page := contents[k].page) is not None]))
    kept = {paged[k] for k in keep} | {k for k, e in enumerate(contents) if e.page is None}
    return [SourceEntry(title=e.title, level=e.level, page=e.page) for k, e in enumerate(contents) if k in kept]


def _longest_run(values: list[int]) -> list[int]:
    """Indices of a longest non-decreasing subsequence of `values`."""
    tails: list[int] = []  # index of the smallest tail of a run of each length
    previous: list[int | None] = []
    for k, value in enumerate(values):
        length = bisect_right([values[t] for t in tails], value)
        previous.append(tails[length - 1] if length else None)
        if length == len(tails):
            tails.append(k)
        else:
            tails[length] = k
    run: list[int] = []
    at: int | None = tails[-1] if tails else None
    while at is not None:
        run.append(at)
        at = previous[at]
    return run[::-1]


def textless_pages(markdown: str) -> set[int]:
    """The pages of a marked Markdown with too little text to hold a heading: blank, without a text layer (the
    reader's note), or with fewer than THIN_PAGE_WORDS words (a drawn or scanned page's link or page number)."""
    out = set()
    for number, block in enumerate(split_pages(markdown), start=1):
        text = block.strip()
        if text == BLANK_PAGE or text.startswith(NEEDS_OCR_LEAD) \
                or sum(1 for _ in islice(PRINTED_WORD_RE.finditer(text), THIN_PAGE_WORDS)) < THIN_PAGE_WORDS:
            out.add(number)
    return out


def best_structure(markdown: str, outline: list[OutlineEntry], contents: list[TocEntry], *,
                   fallback: StructureSource = "layout", fallback_title: str = "", title: str = "",
                   contents_pages: Sequence[int] = ()) -> Reconciled:
    """The Markdown reconciled with the first consistent source: the outline, the contents page (printed on
    `contents_pages`), else its own headings (`fallback`: layout, or llm when a model wrote them)."""
    warnings: list[str] = []
    sources: list[tuple[StructureSource, list[SourceEntry]]] = [("outline", outline_entries(outline)),
                                                               ("contents", contents_entries(contents))]
    textless = textless_pages(markdown)
    for source, entries in sources:
        if len(entries) < MIN_ENTRIES:
            continue
        placements = locate(entries, markdown, reserve_title=source == "contents")
        found = sum(1 for p in placements if p is not None and p.kind is not None)
        # (an outline entry whose page has no text to find it in, a page of outlined glyphs or a scan, can
        # neither confirm the outline nor speak against it)
        checkable = sum(1 for e in entries if source != "outline" or e.page not in textless)
        if found < MIN_FOUND_SHARE * checkable:
            warnings.append(f"the {source} was not used: only {found} of its {checkable} entries on pages with "
                            "text are found in the text of their pages")
            continue
        result = reconcile(markdown, source, entries, fallback=fallback, fallback_title=fallback_title,
                           title=title, placements=placements, contents_pages=contents_pages)
        if result.source != source:
            warnings += result.warnings
            continue
        if found < len(entries):
            fate = "added at the top of their page" if source == "outline" else "left out (misread)"
            warnings.append(f"structure from the {source}: {found} of {len(entries)} entries found in the text, "
                            f"the others {fate}")
        result.warnings = warnings
        return result
    result = reconcile(markdown, fallback, [], fallback=fallback, fallback_title=fallback_title)
    result.warnings = warnings
    return result
