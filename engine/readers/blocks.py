"""One page's lines to typed blocks: headings, paragraphs, list items, table rows and figures, with positions."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.readers.charts import Chart
from engine.readers.headings import Candidate
from engine.readers.layout import Line
from engine.readers.code import code_text, continues_code, merge_cells
from engine.readers.formula import formula_goes_on, is_formula, resumes, runs_into
from engine.readers.hyphens import join_lines
from engine.readers.paragraphs import continues, hanging_term, line_list, sentence_goes_on
from engine.readers.pitch import pitch_limit
from engine.readers.column_heads import MAX_LABELS, head_blocks, head_cells, is_label
from engine.readers.tables import Cell, Table, cell_under, names_columns, prepend, row_cells, starts_cell, \
    table_blocks
from engine.readers.reading_order import same_row
from engine.readers.ruled import Grid, grid_blocks
from engine.text import BULLET_GLYPHS
from engine.schemas import Block, BlockStyle, ImageRef, PageBlocks
from engine.schemas.blocks import BlockKind

BULLET_RE = re.compile(rf"^[{BULLET_GLYPHS}]\s*|^[-–—*\ufffd]\s+|^o\s+(?=[A-Z])")
MARKDOWN_BLOCK_RE = re.compile(r"^(#|>|\||[-*+] |\d+[.)] |```|~~~)")  # a line that would open a Markdown block
Heads = dict[tuple[int, int], tuple[Candidate, int]]  # (page, first line index) -> (candidate, level)


def box(lines: list[Line]) -> tuple[float, float, float, float]:
    """The union of the lines' boxes, rounded to a tenth of a point."""
    first = lines[0]
    x0, y0, x1, y1 = first.x0, first.y0, first.x1, first.y1
    for l in lines[1:]:
        x0, y0, x1, y1 = min(x0, l.x0), min(y0, l.y0), max(x1, l.x1), max(y1, l.y1)
    return round(x0, 1), round(y0, 1), round(x1, 1), round(y1, 1)


def style(line: Line) -> BlockStyle:
    return BlockStyle(size=line.size, bold=line.bold, italic=line.italic, font=line.face)


@dataclass
class _Open:
    """A paragraph or list item being gathered: its printed lines and the text each contributes."""

    kind: BlockKind
    lines: list[Line] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    newlines: set[int] = field(default_factory=set)  # lines that start a line of their own (a formula's)
    in_formula: bool = False  # its last line is a formula's

    def add(self, line: Line, *, own_line: bool = False, formula: bool = False) -> None:
        if own_line:
            self.newlines.add(len(self.lines))
        self.lines.append(line)
        self.texts.append(line.text)
        self.in_formula = formula


@dataclass(frozen=True)
class Traits:
    """What the whole document says about reading one page of it."""

    vocabulary: set[str]  # its words, lower-cased (whether a hyphenated word keeps its hyphen)
    pitches: dict[float, float]  # its line pitch for each text size
    code: bool = True  # monospaced lines are code (not in a document set in monospace throughout)


def page_blocks(page_no: int, lines: list[Line], heads: Heads, page_images: list[ImageRef],
                traits: Traits, grids: list[Grid] | None = None,
                decoration: set[tuple[int, ...]] | None = None, charts: list[Chart] | None = None) -> list[Block]:
    """The page's lines (furniture already removed) as blocks in reading order; the lines inside a ruled
    table (`grids`) make one table block where its first line is read, and a column chart read as a table
    (`charts`, its lines already taken from the page's) goes before the first line under its top that it stands
    over. An image at a place of `decoration` (see `recurring_places`: a logo, a watermark) ends no paragraph: it
    goes before the one it stands in."""
    vocabulary, pitches = traits.vocabulary, traits.pitches
    lines, heads, ruled_tables = _without_ruled(page_no, lines, heads, grids or [], vocabulary)
    for chart in charts or []:
        at = next((k for k, l in enumerate(lines) if l.y0 >= chart.top - 1 and l.x0 < chart.x1 and l.x1 > chart.x0),
                  len(lines))
        ruled_tables.setdefault(at, []).extend(table_blocks(chart.rows, vocabulary, box, style))
    out: list[Block] = []
    current: _Open | None = None
    table: Table | None = None
    flushed: list[tuple[int, int, _Open | Table | None]] = []  # the blocks out[start:end] a paragraph or table became
    beside: list[Line] = []  # text set beside an open code block (its rendered output's labels), read after it
    pending_images = sorted(page_images, key=lambda r: r.bbox[1] if r.bbox else 0)

    def flush() -> None:
        nonlocal current, table
        if current is not None and current.lines:
            out.append(_text_block(current, vocabulary))
            flushed.append((len(out) - 1, len(out), current))
        if beside:
            out.append(_text_block(_Open("paragraph", list(beside), [l.text for l in beside]), vocabulary))
            beside.clear()
        if table is not None and table.rows:
            take_heads(table)
            start = len(out)
            out.extend(table.blocks(vocabulary, box, style))
            flushed.append((start, len(out), table))
        current = table = None

    def take_heads(done: Table) -> None:
        """Before a table's blocks are written: its column heads set over it in lines of their own, read just before
        it (engine.readers.column_heads), go before the names its first row gives its columns, or make a row of
        their own over a first row of values, with the label lines between them and that row as rows of one
        cell ("OPERATING ACTIVITIES")."""
        sources: list[tuple[int, _Open | Table | None]] = []  # the blocks written just before, nearest first
        end = len(out)
        for start, stop, source in reversed(flushed):
            if stop != end:
                break
            sources.append((start, source))
            end = start
        if not sources:
            return
        width = max(len(row) for row in done.rows)
        full = next(row for row in done.rows if len(row) == width)
        first = done.columns()[0]
        named = any(first[1:]) and names_columns([cell for cell in first[1:] if cell is not None])
        under = min(cell.lines[0].baseline for cell in done.rows[0])
        pitch = limit(done.rows[0][0].lines[0])
        labels: list[Line] = []
        if not named and isinstance(sources[0][1], _Open) and sources[0][1].kind == "paragraph" \
                and len(sources[0][1].lines) <= MAX_LABELS \
                and all(is_label(l, full, n.baseline, pitch) for l, n in
                        zip(sources[0][1].lines, sources[0][1].lines[1:] + [done.rows[0][0].lines[0]])):
            labels = sources[0][1].lines
            under = labels[0].baseline
        stack = [source.lines if isinstance(source, _Open) and source.kind == "paragraph"
                 else [l for row in source.rows for c in row for l in c.lines] if isinstance(source, Table) else []
                 for _, source in sources[1 if labels else 0:]]
        taken = head_blocks(stack, full, under, pitch)
        if not taken:
            return
        del out[sources[taken - 1 + (1 if labels else 0)][0]:]
        del flushed[-(taken + (1 if labels else 0)):]
        heads, spanning = head_cells([l for lines in stack[:taken] for l in lines], full)
        if spanning:  # (what the columns share, "Quarter Ended", stays over the table as a caption would)
            out.append(_text_block(_Open("paragraph", spanning, [l.text for l in spanning]), vocabulary))
            flushed.append((len(out) - 1, len(out), None))
        if named:  # the first row names the columns: the heads go before those names
            for k, head in heads.items():
                cell = first[k]
                if cell is not None:
                    cell.lines[:0] = head.lines
                    cell.x0, cell.x1 = min(cell.x0, head.x0), max(cell.x1, head.x1)
            return
        done.rows[:0] = [[heads[k] for k in sorted(heads)]] + [[Cell([l], l.x0, l.x1)] for l in labels]

    def place_images(before_y: float) -> None:
        while pending_images and pending_images[0].bbox and pending_images[0].bbox[1] <= before_y:
            ref = pending_images.pop(0)
            if ref.bbox is None or place(ref.bbox) not in (decoration or ()):
                flush()
            out.append(Block(kind="figure", text="", image=ref.id, bbox=ref.bbox))

    def limit(line: Line) -> float:
        return pitch_limit(pitches.get(line.size), line.size)

    i = 0
    while i < len(lines):
        line = lines[i]
        place_images(line.y0)
        if i in ruled_tables:
            flush()
            out += ruled_tables.pop(i)
        head = heads.get((page_no, i))
        if head is not None:
            flush()
            cand, level = head
            out.append(_heading_block(lines[i:i + cand.count], cand.text, level, vocabulary))
            i += cand.count
            continue
        bullet = BULLET_RE.match(line.text)
        row = _row_end(lines, i, page_no, heads) if not bullet else i + 1
        if row > i + 1 and margin_sign(line, lines[i + 1]):
            row = i + 1  # (a sign in the margin beside a paragraph's first lines is no table's first cell)
        step = 1
        if row == i + 2 and _labelled(lines[i], lines[i + 1]):  # "171   Any transaction ...": one line
            line, row, step = _merge(lines[i], lines[i + 1]), i + 1, 2
        if row == i + 2 and table is None and _run_in(lines[i], lines[i + 1], lines[row] if row < len(lines) else None,
                                                      (page_no, row) in heads, limit(lines[i + 1])) \
                and not (row + 1 < len(lines) and same_row(lines[row], lines[row + 1])):
            line, row, step = _merge(lines[i], lines[i + 1]), i + 1, 2  # "Definition 1.   A noise model ..."
        below = lines[row] if row < len(lines) else None
        if row - i in (2, 3) and table is None and _stretched(lines[i:row], current, below):
            line, step = _join_stretched(lines[i:row]), row - i  # one justified line with a wide word space
            row = i + 1
        if row > i + 1 and traits.code and all(c.mono for c in lines[i:row]):
            line, step, row = merge_cells(lines[i:row]), row - i, i + 1  # a code line with a gap in it
        if row > i + 1 and table is None and current is not None and current.kind == "code" \
                and lines[i].mono and continues_code(current.lines, lines[i], limit(lines[i])) \
                and not any(c.mono for c in lines[i + 1:row]) \
                and min(c.x0 for c in lines[i + 1:row]) > max(l.x1 for l in current.lines + [lines[i]]) + lines[i].size:
            # a code line with its output set beside it, right of all the code (a diagram's labels): the code goes on
            current.lines.append(lines[i])
            beside.extend(lines[i + 1:row])
            i = row
            continue
        if row > i + 1:  # cells side by side: a table row, or the wrapped lines of the last row's cells
            cells = lines[i:row]
            i = row
            if table is not None:  # (no paragraph is open while a table is)
                if not table.absorb(cells, limit(cells[0])):
                    table.add_row(cells)
                continue
            opened, current = current, None
            table = Table()
            table.add_row(cells)
            cell = cell_under(opened.lines, cells) if opened and opened.kind == "paragraph" \
                and len(opened.lines) <= 3 else None
            if cell is not None and opened is not None and starts_cell(opened.lines, cells[cell], limit(cells[cell])):
                prepend(table, cell, opened.lines)  # the cell's text began on the lines above its row
            elif opened is not None:
                out.append(_text_block(opened, vocabulary))
                flushed.append((len(out) - 1, len(out), opened))
            continue
        i += step
        if table is not None:
            if not bullet and table.absorb([line], limit(line)):
                continue
            after = _row_end(lines, i, page_no, heads) if not bullet and i < len(lines) \
                and (page_no, i) not in heads else i
            if after > i + 1 and table.labels(line, lines[i:after], limit(line)):
                table.add_row([line])  # a label over the rows after it ("Revenues:"): a row of one cell
                continue
            if after > i + 1 and cell_under([line], lines[i:after]) == 0 \
                    and table.continues(row_cells(lines[i:after])) and table.follows(line, limit(line)) \
                    and starts_cell([line], lines[i], limit(line)):
                table.add_row(lines[i:after])  # the first cell began on the line above its row
                prepend(table, 0, [line])
                i = after
                continue
            flush()
        if traits.code and line.mono and not bullet:
            if current is not None and current.kind == "code" and continues_code(current.lines, line, limit(line)):
                current.lines.append(line)
                continue
            inline = current is not None and current.kind != "code" and not current.lines[-1].mono \
                and sentence_goes_on(current.lines[-1].text, line.text) \
                and continues(current.lines, line, pitch=pitches.get(line.size), page=lines)
            if not inline:  # (a monospaced line inside a sentence is a long identifier, not code)
                flush()
                current = _Open("code", [line], [line.text])
                continue
        elif current is not None and current.kind == "code":
            flush()
        if not bullet and is_formula(line):
            if current is not None and current.kind != "code" and (
                    formula_goes_on(current.lines[-1], line, limit(line)) if current.in_formula
                    else runs_into(current.lines[-1], line, limit(line))):
                current.add(line, own_line=current.kind != "formula" and not MARKDOWN_BLOCK_RE.match(line.text),
                            formula=True)
            else:
                flush()
                current = _Open("formula")
                current.add(line, formula=True)
            continue
        if current is not None and current.in_formula:
            if resumes(current.lines[-1], line, limit(line)):  # the sentence goes on after its formula
                current.kind = "list_item" if current.kind == "list_item" else "paragraph"
                current.add(line, own_line=not MARKDOWN_BLOCK_RE.match(line.text))
                continue
            flush()
        if bullet:
            flush()
            current = _Open("list_item", [line], [line.text[bullet.end():].strip()])
            continue
        if table is None and hanging_term(line, lines[i] if i < len(lines) else None,
                                          current.lines[0] if current is not None and current.kind == "list_item"
                                          and current.lines else None):
            flush()  # (an item of hanging terms: the term stays its text's first word)
            current = _Open("list_item", [line], [line.text])
            continue
        if current is not None and not continues(current.lines, line, pitch=pitches.get(line.size), page=lines,
                                                 hanging=current.kind == "list_item"):
            flush()
        if current is None:
            current = _Open("list_item" if LIST_LABEL_RE.match(line.text) else "paragraph")
        current.lines.append(line)
        current.texts.append(line.text)
    flush()
    for late in ruled_tables.values():  # (tables after the page's last line of text)
        out += late
    place_images(float("inf"))
    return out


def _without_ruled(page_no: int, lines: list[Line], heads: Heads, grids: list[Grid],
                   vocabulary: set[str]) -> tuple[list[Line], Heads, dict[int, list[Block]]]:
    """The page's lines without those of its ruled tables, the headings re-keyed to the lines left, and each
    table's block under the index of the line it comes before (where its first line was read)."""
    ruled: dict[int, list[Block]] = {}  # index of a table's first line -> its blocks (a title, the table)
    taken: set[int] = set()
    for grid in grids:
        inside = [k for k, line in enumerate(lines) if k not in taken and grid.holds(line)]
        made = grid_blocks(grid, [lines[k] for k in inside], vocabulary, box, style) if inside else []
        if made:
            taken.update(inside)
            ruled[inside[0]] = made
    if not ruled:
        return lines, heads, {}
    kept: list[Line] = []
    moved: dict[int, int] = {}
    tables: dict[int, list[Block]] = {}
    for k, line in enumerate(lines):
        if k in ruled:
            tables.setdefault(len(kept), []).extend(ruled[k])
        if k not in taken:
            moved[k] = len(kept)
            kept.append(line)
    rekeyed = {key: head for key, head in heads.items() if key[0] != page_no}
    rekeyed.update({(page, moved[index]): head for (page, index), head in heads.items()
                    if page == page_no and index in moved})
    return kept, rekeyed, tables


NUMBER_CELL_RE = re.compile(r"^\(?\d{1,4}[.)]?$")
LIST_LABEL_RE = re.compile(r"^(?:\(?[a-z]\)|[a-z]\.|\((?:\d{1,2}|[ivx]{1,4})\)|[ivx]{1,4}[.)])\s+\S")


def _labelled(label: Line, text: Line) -> bool:
    """A number set apart before its text on one baseline (a footnote's or a numbered paragraph's), not two
    cells of a table: the text is prose."""
    return NUMBER_CELL_RE.match(label.text) is not None and len(text.text) >= 25 and text.text[:1].isalpha() \
        and text.x0 - label.x1 <= 6 * max(text.size, 1.0)


def _run_in(label: Line, text: Line, nxt: Line | None, nxt_heading: bool, limit: float) -> bool:
    """A run-in label set apart from its paragraph's first line ("--list-errors.   This switch causes ...",
    "Definition 1 (Noise Model).   A noise model is defined"), not two cells: the line below goes on with
    the text, back at the label's margin."""
    labelled = label.text.rstrip().endswith((".", ":", ")", "—", "–")) \
        or (label.bold, label.italic) != (text.bold, text.italic)
    return nxt is not None and not nxt_heading and labelled and len(text.text) >= 20 and text.text[:1].isupper() \
        and nxt.x0 <= label.x0 + 0.8 * max(nxt.size, 1.0) and sentence_goes_on(text.text, nxt.text) \
        and 0.3 * nxt.size < nxt.baseline - text.baseline <= limit and not same_row(text, nxt)


def _stretched(cells: list[Line], current: _Open | None, nxt: Line | None) -> bool:
    """Pieces side by side that are one line of a justified paragraph (a word space stretched wide): they
    span exactly the width of the paragraph line above (or, at a paragraph's start, of the line below),
    and the sentence runs through them."""
    first, last = cells[0], cells[-1]
    if not all(sentence_goes_on(a.text, b.text) or (b.text[:1].isupper() and not a.text.endswith(":"))
               for a, b in zip(cells, cells[1:])):
        return False
    above = current.lines[-1] if current is not None and current.kind == "paragraph" else None
    for other in (above, nxt):
        if other is not None and abs(other.x0 - first.x0) <= 2 and abs(other.x1 - last.x1) <= 2 \
                and abs(other.size - first.size) < 1 and not same_row(other, first):
            return True
    return False


def _join_stretched(cells: list[Line]) -> Line:
    joined = _merge(cells[0], cells[1])
    return _merge(joined, cells[2]) if len(cells) == 3 else joined


def _merge(label: Line, text: Line) -> Line:
    return Line(text=f"{label.text} {text.text}", x0=label.x0, y0=min(label.y0, text.y0), x1=text.x1,
                y1=max(label.y1, text.y1), size=text.size, bold=text.bold, italic=text.italic, block=label.block,
                font=text.font, face=text.face, base=text.base)


def mark_continued(pages: list[PageBlocks]) -> None:
    """Flag the last paragraph of a page whose sentence goes on in the first paragraph of the next page
    (Block.continues): the Markdown keeps each part on its own page, for the page markers. A figure between
    them that stands in the same place on most pages (a logo) does not stop the sentence; another one does
    (the text under it is its caption as often as not)."""
    recurring = recurring_places([[b.bbox for b in page.blocks if b.kind == "figure" and b.bbox is not None]
                                  for page in pages])

    def text(block: Block) -> bool:
        return block.kind != "furniture" and not (block.kind == "figure" and block.bbox is not None
                                                  and place(block.bbox) in recurring)

    for page, nxt in zip(pages, pages[1:]):
        last = next((b for b in reversed(page.blocks) if text(b)), None)
        first = next((b for b in nxt.blocks if text(b)), None)
        if last is not None and first is not None and last.kind in ("paragraph", "list_item") \
                and first.kind == "paragraph" and last.style and first.style \
                and abs((last.style.size or 0) - (first.style.size or 0)) < 1 \
                and sentence_goes_on(last.text.rsplit("\n", 1)[-1], first.text):
            last.continues = True


def recurring_places(pages: list[list[tuple[float, float, float, float]]]) -> set[tuple[int, ...]]:
    """The places (bboxes to the point) of images that stand in the same place on at least half the pages
    (and three), given each page's image boxes: page decoration such as a logo or a watermark."""
    counts: dict[tuple[int, ...], int] = {}
    for boxes in pages:
        for spot in {place(box) for box in boxes}:
            counts[spot] = counts.get(spot, 0) + 1
    return {spot for spot, n in counts.items() if n >= max(3, len(pages) / 2)}


def place(box: tuple[float, float, float, float]) -> tuple[int, ...]:
    return tuple(round(v) for v in box)


def furniture_blocks(lines: list[Line], height: float, *, top: bool) -> list[Block]:
    """Running headers (top=True: the upper half of the page) or footers, page numbers and margin
    notes as furniture blocks, one a line."""
    return [Block(kind="furniture", text=l.text, bbox=box([l]), style=style(l),
                  lines=[{"start": 0, "end": len(l.text), "bbox": box([l])}])  # type: ignore[list-item]  # dicts: the Block validates them into BlockLine (cheaper than models)
            for l in lines if ((l.y0 + l.y1) / 2 < height / 2) == top]


def _text_block(gathered: _Open, vocabulary: set[str]) -> Block:
    if gathered.kind == "code":
        text, spans = code_text(gathered.lines)
    elif gathered.kind == "formula":
        text, spans = join_lines(gathered.texts, vocabulary, own_lines=set(range(1, len(gathered.texts))))
    else:  # (a list set one item a line keeps its lines: each item its own line of the block's text)
        own = set(range(1, len(gathered.lines))) if gathered.kind == "paragraph" and line_list(gathered.lines) \
            else gathered.newlines
        text, spans = join_lines(gathered.texts, vocabulary, own_lines=own)
    lines = [{"start": s, "end": e, "bbox": box([l])} for (s, e), l in zip(spans, gathered.lines)]
    return Block(kind=gathered.kind, text=text, bbox=box(gathered.lines), style=style(gathered.lines[0]),
                 lines=lines)  # type: ignore[arg-type]  # dicts: the Block validates them into BlockLine (cheaper than models)


def _heading_block(lines: list[Line], text: str, level: int, vocabulary: set[str]) -> Block:
    joined, parts = join_lines([line.text for line in lines], vocabulary)
    if joined != text:  # (a heading whose text is not its lines' as they join: spaced CJK, a title's parts)
        parts, start = [], 0
        for line in lines:  # its lines joined by single spaces
            parts.append((start, min(len(text), start + len(line.text))))
            start += len(line.text) + 1
    spans = [{"start": s, "end": e, "bbox": box([line])} for (s, e), line in zip(parts, lines)]
    return Block(kind="heading", text=text, level=level, bbox=box(lines), style=style(lines[0]),
                 lines=spans)  # type: ignore[arg-type]  # dicts: the Block validates them into BlockLine (cheaper than models)


SIGN_SIZE = 2.0  # of the size of the text beside it: a single sign set this large is a margin's sign


def margin_sign(line: Line, beside: Line) -> bool:
    """Whether a line is one sign that is no letter or digit, set far larger than the text to its right, beside
    it (a warning "!" or a dingbat spanning a paragraph's first lines): a mark in the margin, not a table's cell. (A
    large initial letter is the first letter of its word, not such a sign.)"""
    text = line.text.strip()
    return len(text) == 1 and not text.isalnum() and line.size >= SIGN_SIZE * beside.size and line.x1 <= beside.x0


def _row_end(lines: list[Line], i: int, page_no: int, heads: Heads) -> int:
    """The index after the last line that sits in the same row as lines[i], right of the one before."""
    j = i + 1
    while (j < len(lines) and (page_no, j) not in heads and same_row(lines[i], lines[j])
           and lines[j].x0 >= lines[j - 1].x1 - 2):
        j += 1
    return j
