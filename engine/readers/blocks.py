"""One page's lines to typed blocks: headings, paragraphs, list items, table rows and figures, with positions."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from statistics import median

from engine.readers.headings import LEADER_RE, Candidate, label_class
from engine.readers.layout import Line
from engine.readers.reading_order import same_row
from engine.schemas import Block, BlockLine, BlockStyle, ImageRef

BULLET_RE = re.compile(r"^[•▪◦●■□◆▶➢➤►✓✔\uf0b7\uf0a7\uf0d8]\s*|^[-–—*]\s+|^o\s+(?=[A-Z])")
CURRENCY_CELL_RE = re.compile(r"^[$€£¥]$")
HYPHEN_END = re.compile(r"([A-Za-z]+)-$")
Heads = dict[tuple[int, int], tuple[Candidate, int]]  # (page, first line index) -> (candidate, level)


def box(lines: list[Line]) -> tuple[float, float, float, float]:
    """The union of the lines' boxes, rounded to a tenth of a point."""
    return (round(min(l.x0 for l in lines), 1), round(min(l.y0 for l in lines), 1),
            round(max(l.x1 for l in lines), 1), round(max(l.y1 for l in lines), 1))


def style(line: Line) -> BlockStyle:
    return BlockStyle(size=line.size, bold=line.bold, italic=line.italic, font=line.face)


@dataclass
class _Open:
    """A paragraph or list item being gathered: its printed lines and the text each contributes."""

    kind: str
    lines: list[Line] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)


def page_blocks(page_no: int, lines: list[Line], heads: Heads, page_images: list[ImageRef],
                vocabulary: set[str], body: float) -> list[Block]:
    """The page's lines (furniture already removed) as blocks in reading order."""
    out: list[Block] = []
    current: _Open | None = None
    pending_images = sorted(page_images, key=lambda r: r.bbox[1] if r.bbox else 0)
    gaps = [b.y0 - a.y1 for a, b in zip(lines, lines[1:]) if 0 <= b.y0 - a.y1 < 3 * body]
    line_gap = median(gaps) if gaps else body * 0.4

    def flush() -> None:
        nonlocal current
        if current is not None and current.lines:
            out.append(_text_block(current, vocabulary))
        current = None

    def place_images(before_y: float) -> None:
        while pending_images and pending_images[0].bbox and pending_images[0].bbox[1] <= before_y:
            flush()
            ref = pending_images.pop(0)
            out.append(Block(kind="figure", text="", image=ref.id, bbox=ref.bbox))

    i = 0
    prev: Line | None = None
    while i < len(lines):
        line = lines[i]
        place_images(line.y0)
        head = heads.get((page_no, i))
        if head is not None:
            flush()
            cand, level = head
            out.append(_heading_block(lines[i:i + cand.count], cand.text, level))
            prev = lines[i + cand.count - 1]
            i += cand.count
            continue
        text = line.text
        bullet = BULLET_RE.match(text)
        row = _row_end(lines, i, page_no, heads) if not bullet else i + 1
        if row > i + 1:  # cells side by side: one table row, cells split by " | "
            flush()
            _add_row(out, lines[i:row])
            prev = lines[row - 1]
            i = row
            continue
        new_block = prev is None or _starts_block(prev, line, line_gap, body)
        if bullet:
            flush()
            current = _Open("list_item", [line], [text[bullet.end():].strip()])
        else:  # a new block, or the next line of the paragraph or list item being gathered
            if new_block:
                flush()
            if current is None:
                current = _Open("paragraph")
            current.lines.append(line)
            current.texts.append(text)
        prev = line
        i += 1
    flush()
    place_images(float("inf"))
    return out


def furniture_blocks(lines: list[Line], height: float, *, top: bool) -> list[Block]:
    """Running headers (top=True: the upper half of the page) or footers, page numbers and margin
    notes as furniture blocks, one a line."""
    return [Block(kind="furniture", text=l.text, bbox=box([l]), style=style(l),
                  lines=[BlockLine(start=0, end=len(l.text), bbox=box([l]))])
            for l in lines if ((l.y0 + l.y1) / 2 < height / 2) == top]


def _text_block(gathered: _Open, vocabulary: set[str]) -> Block:
    text, spans = join_lines(gathered.texts, vocabulary)
    lines = [BlockLine(start=s, end=e, bbox=box([l])) for (s, e), l in zip(spans, gathered.lines)]
    return Block(kind=gathered.kind, text=text, bbox=box(gathered.lines), style=style(gathered.lines[0]), lines=lines)


def _heading_block(lines: list[Line], text: str, level: int) -> Block:
    spans, start = [], 0
    for line in lines:  # the heading's text is its lines joined by single spaces
        spans.append(BlockLine(start=start, end=min(len(text), start + len(line.text)), bbox=box([line])))
        start += len(line.text) + 1
    return Block(kind="heading", text=text, level=level, bbox=box(lines), style=style(lines[0]), lines=spans)


def _add_row(out: list[Block], cells: list[Line]) -> None:
    """A table row: appended to the table block just before it, else a new table block."""
    row = _row_text(cells)
    last = out[-1] if out else None
    if last is not None and last.kind == "table":
        start = len(last.text) + 1
        last.text = f"{last.text}\n{row}"
        last.bbox = box_union(last.bbox, box(cells))
    else:
        start = 0
        last = Block(kind="table", text=row, bbox=box(cells), style=style(cells[0]))
        out.append(last)
    last.lines.append(BlockLine(start=start, end=start + len(row), bbox=box(cells)))


def box_union(a, b):
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _row_end(lines: list[Line], i: int, page_no: int, heads: Heads) -> int:
    """The index after the last line that sits in the same row as lines[i], right of the one before."""
    j = i + 1
    while (j < len(lines) and (page_no, j) not in heads and same_row(lines[i], lines[j])
           and lines[j].x0 >= lines[j - 1].x1 - 2):
        j += 1
    return j


def _row_text(cells: list[Line]) -> str:
    parts: list[str] = []
    for cell in cells:
        text = " ".join(cell.text.split())
        if parts and CURRENCY_CELL_RE.match(parts[-1]):
            parts[-1] = f"{parts[-1]} {text}"
        else:
            parts.append(text)
    return " | ".join(parts)


def _starts_block(prev: Line, line: Line, line_gap: float, body: float) -> bool:
    if LEADER_RE.search(prev.text) or label_class(line.text):  # contents entries, numbered items
        return True
    gap = line.y0 - prev.y1
    if gap < -2 or gap > max(line_gap * 1.8, line_gap + 0.5 * body):
        return True
    if abs(line.size - prev.size) >= 1 or line.bold != prev.bold:
        return True
    # a first-line indent after a line that ended a sentence
    return line.x0 > prev.x0 + 8 and prev.text.rstrip().endswith((".", ":", "?", "!", "”"))


def join_lines(lines: list[str], vocabulary: set[str]) -> tuple[str, list[tuple[int, int]]]:
    """The printed lines of one paragraph as one text, a word hyphenated at a line end rejoined; also
    where each line's text lies in it (start, end)."""
    text = lines[0]
    spans = [(0, len(text))]
    for nxt in lines[1:]:
        match = HYPHEN_END.search(text)
        if match and nxt[:1].islower():
            head = match.group(1)
            tail = nxt.split()[0] if nxt.split() else ""
            tail_word = re.match(r"[A-Za-z]+", tail)
            joined = (head + (tail_word.group() if tail_word else "")).lower()
            hyphenated = f"{head}-{tail_word.group() if tail_word else ''}".lower()
            if not (hyphenated in vocabulary and joined not in vocabulary):  # not a compound split at its hyphen
                text = text[:-1]
                spans[-1] = (spans[-1][0], len(text))
        else:
            text = f"{text} "
        spans.append((len(text), len(text) + len(nxt)))
        text = f"{text}{nxt}"
    return text, spans
