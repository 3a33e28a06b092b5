"""Page-marked Markdown to body text: page blocks, plain text, body paragraphs, page sampling, headings."""

# Cost is bounded whatever the length: keywords, summary and language read a sample of SAMPLE_CHARS characters
# of body text (the opening pages plus pages spread over the rest), entities and periods a sample of
# SCAN_CHARS, and at most MAX_ANCHORS years / organisation words are examined. A 400-page document takes about
# 0.15-0.25 s; the first call in a process also loads py3langid's model (~0.1-0.2 s from the copy unpacked in
# PDFRAG_MODEL_CACHE by the first process that needed it, engine.extract.metadata.language_model).

from __future__ import annotations

import re

from engine.markdown import HEADING_RE, IMAGE_RE, MARKER_RE, Fences, iter_headings, split_pages
from engine.schemas.toc import Heading
from engine.text import BULLET_GLYPHS, COMPOUND_WORD_RE, fix_ligatures

SAMPLE_CHARS = 100_000  # about 15k words of body text for keywords, summary and language
SCAN_CHARS = 600_000  # text scanned for entities and time periods (about 160 pages)
MAX_ANCHORS = 4000  # years and organisation words looked at, at most: bounds the time on any document

BULLET_RE = re.compile(rf"^(?:[-*+{BULLET_GLYPHS}]|\d{{1,2}}[.)])\s+")  # a list item's mark: Markdown, a glyph, "1."
BULLET_STARTS = frozenset("-*+0123456789" + BULLET_GLYPHS)
SOFT_HYPHEN = "\u00ad"
def page_blocks(markdown: str) -> list[str]:
    """Page blocks of a marked document (as `split_pages`, faster); the whole text when it has no markers."""
    pieces = ("\n" + markdown).split("\n--- end page ")
    blocks = [pieces[0]]
    for piece in pieces[1:]:
        number, _, rest = piece.partition("\n")
        if not number.rstrip().isdigit():
            return split_pages(markdown) or [markdown]  # an unusual line: take the exact path
        blocks.append(rest)
    return [b.strip("\n") for b in blocks[:-1]] if len(blocks) > 1 else [markdown]


def plain_text(markdown: str) -> str:
    """Markdown as plain text: heading marks removed; markers, placeholders and warning lines dropped."""
    out = []
    for line in markdown.split("\n"):
        first = line[:1]
        if first and first in "->[ \t":
            if first == ">" or MARKER_RE.match(line) or IMAGE_RE.match(line):
                continue
        elif first == "#":
            heading = HEADING_RE.match(line)
            line = heading.group(2) if heading else line
        out.append(line)
    return "\n".join(out)


def _skip_line(line: str, stripped: str) -> bool:
    """Not body text: blank, heading, placeholder, quote/warning, table row, or a short line without
    lower-case letters (a heading, a label, a number)."""
    if not stripped:
        return True
    first = stripped[0]
    if first in "#>|[-" and (
        first in ">|" or HEADING_RE.match(line) or IMAGE_RE.match(line) or MARKER_RE.match(line)
    ):
        return True
    return len(stripped) < 60 and stripped.upper() == stripped


def body_paragraphs(block: str) -> list[str]:
    """Body paragraphs of a page block: wrapped lines joined; headings, tables, code, placeholders out.

    Works on reformatted Markdown (one paragraph per line) and on raw text-layer lines: after a short
    line, a line starting upper-case starts a new paragraph. A word broken at a line end ("re-" /
    "ceived") is joined with a soft hyphen that `resolve_hyphens` settles once the vocabulary is known.
    """
    lines = block.split("\n")
    lengths = sorted(len(line) for line in lines if len(line) >= 20)
    full = lengths[int(len(lengths) * 0.9)] if lengths else 0  # the width of a full line
    short = 0.8 * full if full >= 40 else 0
    paragraphs: list[str] = []
    current: list[str] = []
    fences, previous_short = Fences(), False
    for line in lines:
        stripped = line.strip()
        if fences.fence(line):
            stripped = ""
        if fences.inside or _skip_line(line, stripped):
            if current:
                paragraphs.append(" ".join(current))
                current = []
            continue
        bullet = BULLET_RE.match(stripped) if stripped[0] in BULLET_STARTS else None
        if current and (bullet or (previous_short and stripped[0].isupper() and current[-1][-1] not in ",;-–(")):
            paragraphs.append(" ".join(current))
            current = []
        stripped = stripped[bullet.end() :] if bullet else stripped
        if current and current[-1][-1] == "-" and current[-1][-2:-1].isalpha() and stripped[:1].islower():
            current[-1] = current[-1][:-1] + SOFT_HYPHEN + stripped
        elif stripped:
            current.append(stripped)
        previous_short = len(stripped) < short
    if current:
        paragraphs.append(" ".join(current))
    return paragraphs


def resolve_hyphens(text: str) -> str:
    """Soft-hyphen joins become one word when the text uses that word elsewhere, else keep the hyphen."""
    if SOFT_HYPHEN not in text:
        return text
    pieces = text.split(SOFT_HYPHEN)
    vocabulary = set(COMPOUND_WORD_RE.findall(" ".join(pieces).lower()))
    out = [pieces[0]]
    for piece in pieces[1:]:
        left = re.search(r"[^\W\d_]+$", out[-1][-40:])
        right = re.match(r"[^\W\d_]+", piece)
        joined = left and right and (left.group(0) + right.group(0)).lower() in vocabulary
        out.append(piece if joined else "-" + piece)
    return "".join(out)


def sample_pages(blocks: list[str], budget: int = SAMPLE_CHARS) -> list[int]:
    """Indices of the pages to read: the opening pages (40% of the budget), then pages spread evenly."""
    total = sum(len(b) for b in blocks)
    if total <= budget:
        return list(range(len(blocks)))
    chosen: list[int] = []
    used = 0
    index = 0
    while index < len(blocks) and used < 0.4 * budget:
        chosen.append(index)
        used += len(blocks[index])
        index += 1
    rest = list(range(index, len(blocks)))
    rest_chars = sum(len(blocks[i]) for i in rest) or 1
    step = max(1.0, rest_chars / max(1.0, budget - used))
    position = 0.0
    while int(position) < len(rest) and used < budget:
        page = rest[int(position)]
        chosen.append(page)
        used += len(blocks[page])
        position += step
    return chosen


def body_sample(blocks: list[str], budget: int = SAMPLE_CHARS) -> list[str]:
    """Body paragraphs of the sampled pages, in page order, with broken words mended."""
    paragraphs = [p for i in sample_pages(blocks, budget) for p in body_paragraphs(blocks[i])]
    return fix_ligatures(resolve_hyphens("\n".join(paragraphs))).split("\n") if paragraphs else []


def heading_list(markdown: str, headings: list[Heading]) -> list[tuple[int, int, str]]:
    """(line, level, title) of the Markdown's ATX headings (as `iter_headings`, faster without code
    fences); the given headings when the Markdown has none."""
    if "```" in markdown or "~~~" in markdown:
        found = [(h.line, h.level, h.title) for h in iter_headings(markdown)]
    else:
        found, line, last = [], 0, 0
        starts = ([0] if markdown.startswith("#") else []) + [m.start() + 1 for m in re.finditer("\n#", markdown)]
        for start in starts:
            line += markdown.count("\n", last, start)
            last = start
            end = markdown.find("\n", start)
            match = HEADING_RE.match(markdown[start : end if end >= 0 else len(markdown)])
            if match:
                found.append((line, len(match.group(1)), match.group(2).strip()))
    return found or sorted((h.line, h.level, h.title) for h in headings)
