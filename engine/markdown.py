"""The page-marked Markdown format shared by every stage: markers, page splitting, headings.

A document is one block per page, each followed by its marker line `--- end page N`
(1-based, ascending, exactly one per page). Headings are ATX (`#` to `######`); headings inside
fenced code blocks are not headings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.schemas.blocks import Block, PageBlocks

MARKER_RE = re.compile(r"^--- end page (\d+)\s*$")
HEADING_RE = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$")
FENCE_RE = re.compile(r"^\s*(```|~~~)")
IMAGE_RE = re.compile(r"^\s*\[IMAGE:[^\]]*\]\s*$")  # a figure's placeholder line, as render_block writes it


def marker(page: int) -> str:
    return f"--- end page {page}"


def join_pages(blocks: list[str]) -> str:
    """Join page blocks (page 1 first) with their end-page markers."""
    parts = []
    for number, block in enumerate(blocks, start=1):
        block = block.strip("\n")
        parts.append(f"{block}\n\n{marker(number)}" if block else marker(number))
    return "\n\n".join(parts) + "\n"


NEEDS_OCR_LEAD = "> **Warning (needs_ocr):**"


def needs_ocr_note(page: int) -> str:
    return (
        f"{NEEDS_OCR_LEAD} page {page} has no text layer (a scan, an image, or text drawn as shapes); "
        "its content is not transcribed. Run a vision or OCR reader on it."
    )


BLANK_PAGE = "_(blank page)_"


STRUCTURE_STARTS = r"#|--- end page|```|~~~"  # how a line opens a heading, a page marker or a code fence
STRUCTURE_START_RE = re.compile(rf"^(\s*)({STRUCTURE_STARTS})", re.M)
ESCAPED_START_RE = re.compile(rf"\\(?={STRUCTURE_STARTS})")  # escape_text's backslash, at a line's text start


def escape_text(text: str) -> str:
    """A text block's lines as Markdown text that opens no structure: a line of the PDF that starts like a
    heading ("# generated file"), a page marker or a code fence gets a backslash before it."""
    return STRUCTURE_START_RE.sub(lambda m: f"{m.group(1)}\\{m.group(2)}", text)


def render_block(block: Block) -> str:
    """One block as Markdown ("" for furniture, which the Markdown leaves out)."""
    if block.kind == "heading":
        return f"{'#' * (block.level or 1)} {block.text}"
    if block.kind == "list_item":
        return f"- {escape_text(block.text)}"
    if block.kind == "figure":
        return f"[IMAGE: {block.image}]" if block.image else ""
    if block.kind == "table":
        return render_table(block)
    if block.kind == "furniture":
        return ""
    if block.kind == "code":
        runs = [len(run) for run in re.findall(r"`{3,}", block.text)]
        fence = "`" * max([3] + [n + 1 for n in runs])
        return f"{fence}\n{block.text}\n{fence}"
    return escape_text(block.text)


def render_table(block: Block) -> str:
    """A table block as a Markdown pipe table, its first row the header; a single row stays a line of
    its own, its cells split by " | " ("a | b")."""
    rows = block.cells or [row.split(" | ") for row in block.text.split("\n")]
    if len(rows) < 2:
        return " | ".join(cell for cell in rows[0] if cell) if rows else ""
    width = max(len(row) for row in rows)
    lines = []
    for r, row in enumerate(rows):
        cells = [" ".join(cell.split()).replace("|", "\\|") for cell in row] + [""] * (width - len(row))
        lines.append("| " + " | ".join(cells) + " |")
        if r == 0:
            lines.append("|" + " --- |" * width)
    return "\n".join(lines)


def render_page(page: PageBlocks) -> str:
    """A page's Markdown block: its blocks in order, a blank line between them."""
    if page.blank:
        return BLANK_PAGE
    text = "\n\n".join(part for part in map(render_block, page.blocks) if part.strip())
    if page.needs_ocr:
        text = f"{text}\n\n{needs_ocr_note(page.page)}".strip()
    return text


def render_markdown(pages: list[PageBlocks]) -> str:
    """The page-marked Markdown of a document, rendered from its blocks (page 1 first)."""
    return join_pages([render_page(page) for page in pages])


def split_pages(markdown: str) -> list[str]:
    """Page blocks of a marked document, in marker order (text after the last marker is dropped)."""
    blocks: list[str] = []
    current: list[str] = []
    for line in markdown.split("\n"):
        if MARKER_RE.match(line):
            blocks.append("\n".join(current).strip("\n"))
            current = []
        else:
            current.append(line)
    return blocks


def page_of_lines(markdown: str) -> list[int]:
    """1-based page of every line (0-based index); a marker line belongs to the page it ends.

    Lines after the last marker (the trailing newline) belong to the last page.
    """
    pages: list[int] = []
    page = 1
    for line in markdown.split("\n"):
        pages.append(page)
        if MARKER_RE.match(line):
            page += 1
    last = max(1, page - 1)
    return [min(p, last) for p in pages]


def count_markers(markdown: str) -> int:
    return sum(1 for line in markdown.split("\n") if MARKER_RE.match(line))


@dataclass(frozen=True)
class MdHeading:
    line: int  # 0-based line index
    level: int
    title: str


def iter_headings(markdown: str) -> list[MdHeading]:
    """ATX headings outside fenced code, with their 0-based line numbers."""
    found: list[MdHeading] = []
    in_fence = False
    for index, line in enumerate(markdown.split("\n")):
        if FENCE_RE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        match = HEADING_RE.match(line)
        if match:
            found.append(MdHeading(index, len(match.group(1)), match.group(2).strip()))
    return found
