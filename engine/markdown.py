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


def is_heading(line: str) -> bool:
    """A Markdown heading line (indent allowed): its marks stand apart from its text, so "#import x", a line of
    code, is none."""
    return HEADING_RE.match(line.lstrip()) is not None


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
    if len(rows) < 2:  # (escaped as a text line is: a chart legend's "# Member States ..." opens no heading)
        return escape_text(" | ".join(cell for cell in rows[0] if cell)) if rows else ""
    width = max(len(row) for row in rows)
    lines = []
    for r, row in enumerate(rows):
        cells = [" ".join(cell.split()).replace("|", "\\|") for cell in row] + [""] * (width - len(row))
        lines.append("| " + " | ".join(cells) + " |")
        if r == 0:
            lines.append("|" + " --- |" * width)
    return "\n".join(lines)


# points: a list item set more than NEST_MIN further right than the item above it is nested in it; more than NEST_MAX
# further right, it stands in another column or box and opens a list of its own. From the offsets between consecutive
# items over the 40 documents of the question sets' workspaces: 0-5 points between items of one level (a glyph's
# width), 8-40 a level in, 54 and more a formula's pieces, a diagram's boxes or two levels at once.
NEST_MIN, NEST_MAX = 6.0, 48.0
NEST_INDENT = "  "  # a nested item's Markdown indent per level (under "- ", whose text starts two columns in)


def list_depths(blocks: list[Block]) -> list[int]:
    """Each block's indent in list levels (NEST_INDENT steps), from where the blocks stand on the page: a list
    item's depth in its list (0 for the outer list's items), an item indented past the one above it opening a level
    and one back at an outer level's edge closing the levels within it; a block set inside an item (a paragraph,
    code or a table right of the list's edge, within NEST_MAX of its innermost level: the item's text going on)
    indented to that item's text. Any other block is 0 and ends the list (furniture aside)."""
    depths = [0] * len(blocks)
    levels: list[float] = []  # the left edges of the open levels, outermost first
    for n, block in enumerate(blocks):
        if block.kind == "furniture":
            continue
        x = block.bbox[0] if block.bbox is not None else None
        if block.kind != "list_item" or x is None:
            if x is None or block.kind == "heading" or not levels \
                    or not levels[0] + NEST_MIN < x <= levels[-1] + NEST_MAX:
                levels = []
                continue
            while len(levels) > 1 and x <= levels[-1] + NEST_MIN:  # the text of an outer item goes on
                levels.pop()
            depths[n] = len(levels)
            continue
        if levels and NEST_MIN < x - levels[-1] <= NEST_MAX:
            levels.append(x)
        elif not levels or abs(x - levels[-1]) > NEST_MIN:  # not the innermost level: an outer one, or a new list
            while len(levels) > 1 and x < levels[-1] - NEST_MIN:
                levels.pop()
            if not levels or abs(x - levels[-1]) > NEST_MIN:  # left of the list, or in another column
                levels = [x]
        depths[n] = len(levels) - 1
    return depths


def list_depth(line: str) -> int:
    """A Markdown line's list depth: its indent in NEST_INDENT steps, as `render_page` writes it."""
    return (len(line) - len(line.lstrip(" "))) // len(NEST_INDENT)


def render_page(page: PageBlocks, texts: dict[int, str] | None = None) -> str:
    """A page's Markdown block: its blocks in order, a blank line between them, a nested list item and the text
    set inside an item indented (`list_depths`; `texts`: a block's text to write instead of its own, by the
    block's id)."""
    if page.blank:
        return BLANK_PAGE
    blocks = page.blocks if not texts else [
        block.model_copy(update={"text": texts[id(block)]}) if id(block) in texts else block for block in page.blocks]
    rendered = [render_block(block) for block in blocks]
    for n, depth in enumerate(list_depths(blocks)):
        if depth:
            rendered[n] = "\n".join(NEST_INDENT * depth + line for line in rendered[n].split("\n"))
    text = "\n\n".join(part for part in rendered if part.strip())
    if page.needs_ocr:
        text = f"{text}\n\n{needs_ocr_note(page.page)}".strip()
    return text


# the end of a sentence: closing punctuation before a capitalised word, or at the end of the text
SENTENCE_END_RE = re.compile(r"[.!?][\"”’)\]]*(?=\s+[\"“(\[]?[A-Z])|[.!?][\"”’)\]]*\s*$")
HYPHEN_END_RE = re.compile(r"[^\W\d_][-\u00ad\ufffe\u2010]$")


def carried_sentences(pages: list[PageBlocks]) -> dict[int, str]:
    """Block texts (by block id) for a Markdown that keeps whole the sentences a page break cuts: the end of
    such a sentence, up to its closing punctuation, is carried from the top of the next page to the paragraph
    it ends (Block.continues), above the page marker; the rest of the next page's paragraph stays on its page.
    A line-end hyphen before the carried word goes; a figure the reader passed over (a logo) stays where it is.
    A page whose only text is the carried part keeps it."""
    texts: dict[int, str] = {}
    for page, nxt in zip(pages, pages[1:]):
        body = [b for b in page.blocks if b.kind != "furniture"]
        after = [b for b in nxt.blocks if b.kind != "furniture"]
        while body and body[-1].kind == "figure":
            body.pop()
        while body and body[-1].continues and after and after[0].kind == "figure":
            after.pop(0)  # a figure the reader passed over (decoration: the flag says so)
        if not body or not after or not body[-1].continues or after[0].kind != "paragraph" or nxt.blank:
            continue
        last, first = body[-1], after[0]
        text = texts.get(id(first), first.text)
        end = SENTENCE_END_RE.search(text)
        carried, rest = (text[:end.end()].rstrip(), text[end.end():].lstrip()) if end else (text, "")
        if not carried or (not rest and len(after) == 1):
            continue
        head = texts.get(id(last), last.text).rstrip()
        joined = f"{head[:-1]}{carried}" if HYPHEN_END_RE.search(head) and carried[:1].islower() \
            else f"{head} {carried}"
        texts[id(last)], texts[id(first)] = joined, rest
    return texts


def render_markdown(pages: list[PageBlocks]) -> str:
    """The page-marked Markdown of a document, rendered from its blocks (page 1 first), the sentences a page
    break cuts kept whole (see `carried_sentences`)."""
    texts = carried_sentences(pages)
    return join_pages([render_page(page, texts) for page in pages])


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


OPEN_FENCE_RE = re.compile(r"^( *)(`{3,}(?=[^`]*$)|~{3,})")  # a backtick fence's info string holds no backtick


class Fences:
    """Where fenced code starts and ends, line by line, as CommonMark reads it: a fence closes only with a line
    of its own character, at least as long, and nothing after it ("~~~ text" inside a ``` block is code), set at
    most three spaces further in than the fence that opened it. A fence may be indented: in the reader's Markdown
    only the text inside a list item is (`render_page`), and code there is fenced at the item's text."""

    def __init__(self) -> None:
        self.open: str | None = None  # the fence that opened the code block we are in
        self.indent = 0  # … and its indent

    def fence(self, line: str) -> bool:
        """Whether `line` opens or closes a code block (and track which)."""
        if self.open is None:
            match = OPEN_FENCE_RE.match(line)
            if match:
                self.open, self.indent = match.group(2), len(match.group(1))
            return match is not None
        stripped = line.strip()
        if line.startswith(" " * (self.indent + 4)) or not stripped or stripped.strip(self.open[0]) \
                or len(stripped) < len(self.open):
            return False
        self.open = None
        return True

    @property
    def inside(self) -> bool:
        return self.open is not None


def iter_headings(markdown: str) -> list[MdHeading]:
    """ATX headings outside fenced code, with their 0-based line numbers."""
    found: list[MdHeading] = []
    fences = Fences()
    for index, line in enumerate(markdown.split("\n")):
        if fences.fence(line) or fences.inside:
            continue
        match = HEADING_RE.match(line)
        if match:
            found.append(MdHeading(index, len(match.group(1)), match.group(2).strip()))
    return found
