"""The created TOC: a table of contents recovered from the reformatted Markdown (reports) or the deck sections.

Report format, one line per heading: `#`×level + ` Title [line N]`, N the 0-based line of the heading
in the reformatted Markdown (e.g. `## Methods [line 42]`).

Root-entry rule: when the first heading is not at line 0 (there is a preamble, such as a cover page,
before it) or there is no heading at all, the TOC starts with `# <file stem> [line 0]` and every heading of
the document is pushed one level down (level + 1), so the document's own H1 becomes a child of the root
entry and the whole
hierarchy keeps its shape. Without a preamble the levels are kept as they are.

A heading taken from a source other than the layout carries it as a tag: `## Methods [line 42] [outline]`
(outline, contents or llm; no tag is the layout).

Deck format, one line per section: `# Section title [page N]`, N its first page.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.extract.landscape import Section
from engine.markdown import iter_headings, page_of_lines
from engine.schemas.toc import Heading, StructureHeading

VERSION = 4  # bump when the output changes: the pipeline re-runs the stage (the created TOC; 3: CommonMark fences;
# 4: a deck's sections at their outline depth)


def headings_from_markdown(markdown: str) -> list[Heading]:
    """Every ATX heading outside fenced code, with its level, 0-based line and 1-based page."""
    page_of = page_of_lines(markdown)
    return [
        Heading(title=h.title, level=h.level, line=h.line, page=page_of[h.line])
        for h in iter_headings(markdown)
    ]


def create_report_toc(markdown: str, file_stem: str, headings: Sequence[StructureHeading] | None = None) -> str:
    """The created TOC of a report: `#`×level + ` Title [line N]` per heading, with a root entry if needed.

    `headings` (the structure reconciled with its source) replace the Markdown's own headings; their levels
    may go deeper than Markdown's six, and a source other than the layout is tagged."""
    if headings is None:
        headings = [StructureHeading(title=h.title, level=h.level, line=h.line) for h in iter_headings(markdown)]
    shift = 0
    lines: list[str] = []
    if not headings or headings[0].line != 0:
        lines.append(f"# {file_stem.strip() or 'Document'} [line 0]")
        shift = 1
    for heading in headings:
        tag = "" if heading.source == "layout" else f" [{heading.source}]"
        lines.append(f"{'#' * (heading.level + shift)} {heading.title} [line {heading.line}]{tag}")
    return "\n".join(lines)


def create_deck_toc(sections: Sequence[Section]) -> str:
    """The created TOC of a deck: `# Section title [page N]` per section (as many `#` as its level), N its first
    page (an outline's entry whose pages are all its subsections': the entry's own)."""
    return "\n".join(f"{'#' * s.level} {s.title} [page {s.pages[0] if s.pages else s.page}]"
                     for s in sections if s.pages or s.page)
