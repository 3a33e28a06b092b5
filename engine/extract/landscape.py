"""Decks: slide titles, the landscape-pages listing, grouping slides into sections, the deck structure.

Formats (lines joined with "\\n", no trailing newline):
  landscape_pages  `Page N : title` per page; an untitled page carries the previous title forward
                   (an untitled first page is "Untitled").
  deck structure   `# Section title` per section, followed by one `- Page N : title` line per page; a section from
                   the PDF's outline is tagged `[outline]` and set at its outline depth (`## Subsection …`).

Grouping rules: consecutive slides whose titles share a stem (the title without a continuation mark
such as "(page 2 of 6)", "(1 of 3)", "2/3", "— continued", "(cont.)") form one section titled by
that stem. When the deck has an agenda, a new section (titled by the agenda item) starts at each
slide whose own title matches an agenda item not used yet and runs until the next; the slides
before the first match are grouped by stem. Untitled slides never start a section. A deck whose PDF has an outline
(a Beamer talk's sections and subsections) is grouped by it instead: what the document says of itself
(`outline_sections`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

from engine.markdown import FENCE_RE, HEADING_RE, Fences, iter_headings, split_pages
from engine.schemas.base import Model
from engine.schemas.pdf import OutlineEntry

VERSION = 3  # bump when the output changes: the pipeline re-runs the stage (deck pages; 2: CommonMark fences; 3: the
# PDF outline's sections)

MAX_TITLE_WORDS = 12
AGENDA_PAGES = 4

_CONTINUATION = [
    re.compile(r"\s*[(\[]\s*(?:page\s+)?\d+\s*(?:of|/)\s*\d+\s*[)\]]$", re.I),  # (page 2 of 6) (1/3)
    re.compile(r"\s*[-–—:,]?\s*(?:page\s+)?\d+\s*(?:of|/)\s*\d+$", re.I),  # Agenda 2/3, - 1 of 2
    re.compile(r"\s*[(\[]\s*cont(?:inued|inuation|'d|d)?\.?\s*[)\]]$", re.I),  # (cont.) (continued)
    re.compile(r"\s*[-–—:,]\s*cont(?:inued|inuation|'d|d)?\.?$", re.I),  # — continued, - cont.
    re.compile(r"\s+(?:continued|cont'd|cont\.)$", re.I),  # Results continued
]
_AGENDA_TITLE = re.compile(r"^(?:todays?\s+|today s\s+)?(?:agenda|contents|table of contents|overview)$")
_BULLET = re.compile(r"^(?:[-*+•▪◦►]\s+|\(?\d{1,2}[.)]\s+|\d{1,2}\s+(?=\D))")
_LEADER = re.compile(r"\s*(?:\.{2,}|…+|\t)\s*\d+\s*$")
_NUMBERING = re.compile(r"^(?:(?:section|part|chapter)\s+)?\d{1,2}[.):]?\s+")


class Section(Model):
    """A run of consecutive slides that belong together."""

    title: str
    pages: list[int]
    level: int = 1  # its depth: 2 for a subsection of the section before it (an outline's)
    page: int | None = None  # where an outline's entry starts (its pages may all be its subsections')
    outline: bool = False  # it is an entry of the PDF's outline


def _clean(text: str) -> str:
    """Collapse whitespace and drop emphasis marks around a line."""
    text = " ".join(text.split())
    return text.strip("*_` ").strip()


def looks_like_title(line: str) -> bool:
    """A short line with letters, not ending in a period and not Markdown furniture (table, image, list)."""
    if not line or line.startswith(("|", "![", "<", ">", "[IMAGE")) or FENCE_RE.match(line):
        return False
    if _BULLET.match(line) and not line[:1].isdigit():
        return False
    words = line.split()
    return (
        len(words) <= MAX_TITLE_WORDS
        and not line.endswith(".")
        and any(ch.isalpha() for ch in line)
    )


def _block_title(block: str) -> str | None:
    headings = iter_headings(block)
    if headings:
        return _clean(headings[0].title) or None
    for raw in block.split("\n"):
        if raw.strip() and not raw.lstrip().startswith(("[IMAGE", "![")):  # logos do not count
            line = _clean(raw)
            return line if looks_like_title(line) else None
    return None


def slide_titles(markdown: str) -> list[str | None]:
    """The title of each page: its first heading, else a title-like first line, else None."""
    return [_block_title(block) for block in split_pages(markdown)]


def fill_titles(titles: list[str | None]) -> list[str]:
    """Carry the previous title forward over untitled pages ("Untitled" before the first title)."""
    filled: list[str] = []
    for title in titles:
        filled.append(title or (filled[-1] if filled else "Untitled"))
    return filled


def landscape_pages(titles: list[str | None]) -> str:
    """One `Page N : title` line per page, untitled pages carrying the previous title forward."""
    return "\n".join(f"Page {n} : {t}" for n, t in enumerate(fill_titles(titles), start=1))


_MID_COUNTER = re.compile(r"[(\[]\s*(?:page|part|slide)?\s*\d+\s*(?:of|/)\s*\d+\s*[)\]]", re.I)


def title_stem(title: str) -> str:
    """The title without continuation marks ("(page 2 of 6)", "(cont.)", "— continued", "2/3")."""
    stem = title.strip()
    # "Deloitte profile (page 2 of 6) Case studies": the part before a mid-title counter is the stem
    counter = _MID_COUNTER.search(stem)
    if counter and any(ch.isalpha() for ch in stem[: counter.start()]):
        stem = stem[: counter.start()].strip()
    changed = True
    while changed:
        changed = False
        for pattern in _CONTINUATION:
            shorter = pattern.sub("", stem).strip()
            if shorter != stem and any(ch.isalpha() for ch in shorter):
                stem, changed = shorter, True
    return stem


def _norm(text: str) -> str:
    text = title_stem(_clean(text)).casefold().replace("&", " and ")
    text = _NUMBERING.sub("", text)
    return " ".join(re.sub(r"[^\w\s]", " ", text).split())


def _matches(title: str, item: str) -> bool:
    a, b = _norm(title), _norm(item)
    if not a or not b:
        return False
    if a == b:
        return True
    short, long = sorted((a, b), key=len)
    if len(short) >= 4 and long.startswith(short + " "):
        return True
    return SequenceMatcher(None, a, b).ratio() >= 0.85


def _group_by_stem(titles: list[str | None], pages: list[int]) -> list[Section]:
    sections: list[Section] = []
    key = None
    for page in pages:
        title = titles[page - 1]
        if title is None and sections:
            sections[-1].pages.append(page)
            continue
        stem = title_stem(title) if title else "Untitled"
        if sections and _norm(stem) == key:
            sections[-1].pages.append(page)
        else:
            sections.append(Section(title=stem, pages=[page]))
            key = _norm(stem)
    return sections


def group_sections(titles: list[str | None], agenda: list[str] | None = None) -> list[Section]:
    """Group slides into sections (by agenda items when given and matched, else by title stem)."""
    starts: list[tuple[int, str]] = []  # (page, agenda item)
    used: set[int] = set()
    for page, title in enumerate(titles, start=1):
        if not title or not agenda:
            continue
        for index, item in enumerate(agenda):
            if index not in used and _matches(title, item):
                used.add(index)
                starts.append((page, _clean(item)))
                break
    if not starts:
        return _group_by_stem(titles, list(range(1, len(titles) + 1)))
    sections = _group_by_stem(titles, list(range(1, starts[0][0])))
    bounds = [page for page, _ in starts] + [len(titles) + 1]
    for (page, item), stop in zip(starts, bounds[1:]):
        sections.append(Section(title=item, pages=list(range(page, stop))))
    return sections


def outline_sections(outline: Sequence[OutlineEntry], titles: list[str | None]) -> list[Section] | None:
    """The deck's sections as its PDF outline gives them: each entry a
    section at its depth, holding the pages from its own up to the next entry's (an entry whose next one starts on
    its page holds none: a section opening with its first subsection); the pages before the first entry grouped by
    stem, as without an outline. None when fewer than two entries point to pages of the deck, or when the outline
    goes back in the deck (an entry on an earlier page than the one before it): no outline to group by."""
    entries = [(e.level, " ".join(e.title.split()), e.page) for e in outline
               if e.page is not None and 1 <= e.page <= len(titles) and e.title.strip()]
    if len(entries) < 2 or any(b[2] < a[2] for a, b in zip(entries, entries[1:])):
        return None
    sections = _group_by_stem(titles, list(range(1, entries[0][2])))
    depths: list[int] = []  # the outline levels open above the entry (its depth: how many)
    for n, (level, title, page) in enumerate(entries):
        while depths and depths[-1] >= level:
            depths.pop()
        depths.append(level)
        stop = entries[n + 1][2] if n + 1 < len(entries) else len(titles) + 1
        sections.append(Section(title=title, pages=list(range(page, stop)), level=len(depths), page=page,
                                outline=True))
    return sections


def _agenda_item(line: str) -> str | None:
    if line.startswith("|"):
        cells = [_clean(c) for c in line.strip("|").split("|")]
        if all(set(c) <= set("-: ") for c in cells):
            return None
        cells = [c for c in cells if any(ch.isalpha() for ch in c)]
        line = cells[0] if cells else ""
    heading = HEADING_RE.match(line)
    if heading:
        line = heading.group(2)
    line = _BULLET.sub("", _clean(line), count=1)
    line = _clean(_LEADER.sub("", line))
    return line if looks_like_title(line) else None


def find_agenda(markdown: str, titles: list[str | None]) -> list[str] | None:
    """Agenda items listed on an Agenda/Contents/Overview slide among the first pages, or None."""
    for index, block in enumerate(split_pages(markdown)[:AGENDA_PAGES]):
        title = titles[index] if index < len(titles) else None
        if not title or not _AGENDA_TITLE.match(_norm(title)):
            continue
        items: list[str] = []
        seen = {_norm(title)}
        fences = Fences()
        for raw in block.split("\n"):
            if fences.fence(raw):
                continue
            item = None if fences.inside or not raw.strip() else _agenda_item(raw.strip())
            if item and _norm(item) and _norm(item) not in seen:
                seen.add(_norm(item))
                items.append(item)
        if len(items) >= 2:
            return items
    return None


def deck_structure(sections: list[Section], titles: list[str | None]) -> str:
    """The deck structure string: `# Section title` (as many `#` as its level, `[outline]` after an outline's entry)
    then `- Page N : title` for each of its pages."""
    filled = fill_titles(titles)
    lines: list[str] = []
    for section in sections:
        lines.append(f"{'#' * section.level} {section.title}{' [outline]' if section.outline else ''}")
        for page in section.pages:
            title = filled[page - 1] if 1 <= page <= len(filled) else "Untitled"
            lines.append(f"- Page {page} : {title}")
    return "\n".join(lines)
