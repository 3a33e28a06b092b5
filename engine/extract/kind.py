"""A document's kind: a report (its structure lives in headings) or a deck (its structure lives in slides).

A portrait document is a report. A landscape one is a deck unless its text runs on from page to page: a
slide stands alone, so when page breaks cut sentences on more than the odd page, the pages are pages of one
continuous text set in landscape (a two-column guideline, a landscape report), read as a report. Or unless
its outline nests deeper than presentation software writes one (PowerPoint exports a bookmark per slide, under
its sections at most; Beamer one per section, subsection and subsubsection): MAX_DECK_LEVELS, a landscape report
laid out page by page in a layout program (an InDesign sustainability report, outline six levels deep). Or
unless it has a printed contents page among its first pages (entries with page numbers, as a word processor sets
them: `has_contents_page`), which a deck's agenda slide is not. Nothing else about the pages decides it: decks and
landscape reports are alike in size, fonts and words per page, and an outline no deeper than a deck's is no sign
either way.

Whether a page's last sentence runs on is the reader's fact (PageInfo.runs_on): from its blocks when it
has positions (Block.continues), else from the page-marked Markdown.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.extract.toc_extract import find_contents
from engine.markdown import BLANK_PAGE, HEADING_RE, NEEDS_OCR_LEAD, split_pages
from engine.readers.sentences import sentence_goes_on
from engine.schemas.blocks import PageBlocks
from engine.schemas.pdf import DocFormat, DocKind, PageInfo

VERSION = 3  # bump when a document's kind changes: the reformat stage and all after it re-run (2: outline depth;
# 3: a printed contents page)

MIN_RUNS_ON = 3  # page breaks that cut a sentence: fewer is chance (a slide's last bullet without a period)
RUNS_ON_SHARE = 0.1  # of the page breaks with text on both sides
MAX_DECK_LEVELS = 3  # the deepest outline presentation software writes (Beamer: section, subsection, subsubsection)


def document_kind(doc_format: DocFormat | None, pages: Sequence[PageInfo], outline_levels: int = 0,
                  contents_page: bool = False) -> DocKind:
    """"report" or "deck" (the module docstring); `outline_levels`: how deep the PDF's own outline nests;
    `contents_page`: whether it has a printed contents page."""
    if doc_format != "landscape" or outline_levels > MAX_DECK_LEVELS or contents_page:
        return "report"
    breaks = [page.runs_on for page, nxt in zip(pages, pages[1:]) if page.chars and nxt.chars]
    cut = sum(breaks)
    return "report" if cut >= MIN_RUNS_ON and cut >= RUNS_ON_SHARE * len(breaks) else "deck"


def has_contents_page(markdown: str) -> bool:
    """Whether the page-marked Markdown has a printed contents page among its first pages (as the contents stage
    finds one: engine.extract.toc_extract.find_contents)."""
    found, _ = find_contents(split_pages(markdown))
    return bool(found)


def runs_on_from_blocks(pages: Sequence[PageBlocks]) -> list[bool]:
    """Per page: the reader's mark that its last paragraph goes on at the top of the next page (Block.continues,
    which engine.readers.blocks.mark_continued sets on that paragraph only)."""
    return [any(b.continues for b in page.blocks) for page in pages]


def runs_on_from_markdown(markdown: str) -> list[bool]:
    """The same read from page-marked Markdown alone (a transcription without blocks): the page's last line
    of text and the next page's first."""
    texts = [_text_lines(block) for block in split_pages(markdown)]
    return [bool(page and nxt) and sentence_goes_on(page[-1], nxt[0])
            for page, nxt in zip(texts, [*texts[1:], []])]


def _text_lines(block: str) -> list[str]:
    lines = [line.strip() for line in block.split("\n")]
    if any(line == BLANK_PAGE or line.startswith(NEEDS_OCR_LEAD) for line in lines):
        return []
    return [line for line in lines
            if line and not HEADING_RE.match(line) and not line.startswith(("[IMAGE", "![", "|", "<!--"))]
