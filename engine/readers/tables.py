"""Table rows from lines side by side: cells, the wrapped lines of a cell gathered back into it, and a label line
between rows kept as a row of the table."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.readers.layout import Line
from engine.readers.hyphens import join_lines
from engine.readers.paragraphs import sentence_goes_on
from engine.readers.sentences import dangles
from engine.schemas import Block
from engine.text import BULLET_GLYPHS, SYMBOL_BULLETS

CURRENCY_CELL_RE = re.compile(r"^[$€£¥]$")
LETTER_RE = re.compile(r"[^\W\d_]")  # a letter (a cell with one holds a word, not figures alone)
# a cell's line that opens a list item (a tick keeps its glyph: in a table it may be the cell's value)
ITEM_GLYPHS = "".join(g for g in BULLET_GLYPHS if g not in "✓✔\uf0fc")
CELL_BULLET_RE = re.compile(rf"^[{ITEM_GLYPHS}]\s*(?=\S)")
# a symbol font's private-use bullet inside a cell's line (a rotated table's label read into the line of its first
# item: "Function \uf06eaggregates ...") reads "• " too
CELL_SYMBOL_RE = re.compile(rf"(?<=\s)[{''.join(g for g in SYMBOL_BULLETS if g in ITEM_GLYPHS)}]\s*(?=\w)")


@dataclass
class Cell:
    """One cell: its printed lines (several when its text wraps, or a currency sign beside its number)."""

    lines: list[Line]
    x0: float
    x1: float

    @property
    def text(self) -> str:
        return " ".join(l.text for l in self.lines)


@dataclass
class Table:
    """Rows of cells, in the order the page reads them."""

    rows: list[list[Cell]] = field(default_factory=list)

    def add_row(self, lines: list[Line]) -> None:
        self.rows.append(row_cells(lines))

    def absorb(self, lines: list[Line], limit: float) -> bool:
        """Take `lines` (one line, or cells side by side) as the wrapped continuation of the last row's
        cells when each sits under one cell, within a line pitch (`limit`) of that cell's last line, inside its
        column, and reads on from it (a lower-case start, or a cell text that visibly goes on)."""
        if not self.rows:
            return False
        row = self.rows[-1]
        targets: list[Cell] = []
        for line in lines:
            cell = max(row, key=lambda c: min(c.x1, line.x1) - max(c.x0, line.x0))
            k = row.index(cell)
            if min(cell.x1, line.x1) - max(cell.x0, line.x0) <= 0 or cell in targets:
                return False
            if (k + 1 < len(row) and line.x1 > row[k + 1].x0 + 2) or (k > 0 and line.x0 < row[k - 1].x1 - 2):
                return False  # reaches into a neighbouring column
            step = line.baseline - cell.lines[-1].baseline
            if not 0.3 * line.size < step <= limit or abs(line.size - cell.lines[-1].size) >= 1:
                return False
            text = cell.lines[-1].text
            prose = k > 0 and len(cell.text) >= 30 and len(line.text) >= 15  # a wrapped passage in a later column
            if not (prose or line.text[:1].islower() or sentence_goes_on(text, line.text) or level(row, cell, line)):
                return False  # (a line under the first column, or under a short cell, may begin the next row)
            targets.append(cell)
        for line, cell in zip(lines, targets):
            cell.lines.append(line)
            cell.x0, cell.x1 = min(cell.x0, line.x0), max(cell.x1, line.x1)
        return True

    def continues(self, cells: list[Cell]) -> bool:
        """Whether the row of `cells` (`row_cells` of lines side by side) is one more of this table's: as many cells
        as its widest row, each under its column, and no repeat of its first row (a repeated header under its own
        title starts another table)."""
        width = max(len(row) for row in self.rows)
        if len(cells) != width or width < 2:
            return False
        full = [row for row in self.rows if len(row) == width]
        bands = [(min(r[k].x0 for r in full), max(r[k].x1 for r in full)) for k in range(width)]
        return all(_column(cell, bands) == k for k, cell in enumerate(cells)) and \
            [cell.text for cell in cells] != [cell.text for cell in self.rows[0]]

    def pitch(self, limit: float, step: float | None = None) -> float:
        """The furthest a row's line may stand below the one before: `limit` (a paragraph's line pitch), or a
        little more than the step between the last two rows where the table sets its rows further apart (with one
        row so far, than `step`, the one below the line, when given)."""
        if len(self.rows) >= 2:
            step = self.rows[-1][0].lines[0].baseline - self.rows[-2][0].lines[-1].baseline
        elif step is None or step > 2 * limit:
            return limit
        return max(limit, ROW_PITCH_SLACK * step)

    def follows(self, line: Line, limit: float, step: float | None = None, reach: float = 1.0) -> bool:
        """Whether `line` stands within `reach` times the rows' `pitch` under the last row (whatever its size: a
        header row is often set smaller than the rows and the label under it)."""
        last = max((cell.lines[-1] for cell in self.rows[-1]), key=lambda l: l.baseline)
        return 0.3 * line.size < line.baseline - last.baseline <= reach * self.pitch(limit, step)

    def labels(self, line: Line, below: list[Line], limit: float) -> bool:
        """Whether `line`, alone between the last row and the row `below` (cells side by side), labels the rows
        below it inside this table ("Revenues:", "Short-term assets (note 1)" over rows of the table's columns):
        a line with a word and no sentence (no lower-case start, no full stop at its end), inside the first
        column (it reaches no further than where the row below's second cell starts), at the rows' size and pitch,
        over a row that `continues` the table, that it does not read on into (`starts_cell`: then it is the first
        cell's start)."""
        if not LETTER_RE.search(line.text) or not no_sentence(line.text):
            return False  # (a label starts no sentence's middle and ends none: "which has a solution of the form")
        cells = row_cells(below)
        step = min(l.baseline for l in below) - line.baseline
        if not (self.continues(cells) and self.follows(line, limit, step, GROUP_GAP)):
            return False
        return line.x1 <= cells[1].x0 - 2 and line.x0 <= cells[0].x1 and abs(line.size - below[0].size) < 1 \
            and 0.3 * line.size < step <= self.pitch(limit, step) and not starts_cell([line], cells[0].lines[0], limit)

    def columns(self) -> list[list[Cell | None]]:
        """The rows with their cells in columns: the columns of the rows with the most cells, and a
        shorter row's cells placed under the column each overlaps most (left-aligned if that fails)."""
        width = max(len(row) for row in self.rows)
        full = [row for row in self.rows if len(row) == width]
        bands = [(min(r[k].x0 for r in full), max(r[k].x1 for r in full)) for k in range(width)]
        placed: list[list[Cell | None]] = []
        for row in self.rows:
            slots = [_column(cell, bands) for cell in row] if len(row) < width else list(range(width))
            if any(b <= a for a, b in zip(slots, slots[1:])):
                slots = list(range(len(row)))
            cells: list[Cell | None] = [None] * width
            for k, cell in zip(slots, row):
                cells[k] = cell
            placed.append(cells)
        return placed

    def blocks(self, vocabulary: set[str], box, style) -> list[Block]:
        """The table as its blocks (see `table_blocks`)."""
        grid = [[cell.lines if cell is not None else [] for cell in row] for row in self.columns()]
        return table_blocks(grid, vocabulary, box, style)


def no_sentence(text: str) -> bool:
    """Whether a short line reads as a label or a name, not a sentence's part: no lower-case start, no full stop at
    its end."""
    return not text[:1].islower() and not text.rstrip().endswith(".")


def row_cells(lines: list[Line]) -> list[Cell]:
    """A row's cells from its lines side by side: a currency sign ("$") and the amount beside it are one cell."""
    cells: list[Cell] = []
    for line in lines:
        if cells and CURRENCY_CELL_RE.match(cells[-1].text):
            cells[-1].lines.append(line)
            cells[-1].x1 = line.x1
        else:
            cells.append(Cell([line], line.x0, line.x1))
    return cells


GROUP_GAP = 2.0  # a label line over the rows of a table's next group may stand this many row pitches under the last
ROW_PITCH_SLACK = 1.15  # a lone line between rows stands at most this many times the rows' own step below
BETWEEN_SHARE = 0.25  # of a line's size: how far from either of two lines a baseline between them keeps


def level(row: list[Cell], cell: Cell, line: Line) -> bool:
    """Whether another cell of the row is printed between `cell`'s last line and `line` under it: a table that
    sets its values in the middle of a row whose first cell wraps to two lines ("Non-Exchange Member Arranging For
    Transactions in Listed" over "Securities by Exchange Member", its "797" half a line below the first and above
    the second) has `line` as the cell's wrapped rest, where the next row's first cell is printed below the values."""
    if not LETTER_RE.search(line.text):
        return False  # (figures alone are values: a chart's axis numbers either side of its axis title)
    above, below, margin = cell.lines[-1].baseline, line.baseline, BETWEEN_SHARE * line.size
    return any(above + margin <= other.lines[-1].baseline <= below - margin for other in row if other is not cell)


TITLE_NAME_WORDS = 8  # a column's name is short: a row of longer cells is data, not the names under a title


def table_blocks(grid: list[list[list[Line]]], vocabulary: set[str], box, style) -> list[Block]:
    """A table as its blocks: the table (`table_block`), preceded by its title as a paragraph when its first row
    is one cell, the first, set over a row that names every column ("Table 3. Survey sites by region" over
    "Site | Region | Visits"): the names head the table. A title
    that stops on a word wanting more or a hyphen is a header wrapped over rows, and stays."""
    texts = [[" ".join(l.text for l in cell).strip() for cell in row] for row in grid[:2]]  # (title, names)
    if len(grid) >= 3 and len(texts[0]) >= 2 and texts[0][0] and not any(texts[0][1:]) \
            and all(_name(cell) for cell in texts[1]) and not dangles(texts[0][0]) \
            and not texts[0][0].endswith(("-", "\u00ad")):
        title = grid[0][0]
        joined, parts = join_lines([l.text for l in title], vocabulary)
        lines = [{"start": a, "end": b, "bbox": box([l])} for (a, b), l in zip(parts, title)]
        heading = Block(kind="paragraph", text=joined, bbox=box(title), style=style(title[0]),
                        lines=lines)  # type: ignore[arg-type]  # (dicts: the Block validates them into BlockLine)
        return [heading, _table(grid[1:], vocabulary, box, style)]
    return [_table(grid, vocabulary, box, style)]


def _table(grid: list[list[list[Line]]], vocabulary: set[str], box, style) -> Block:
    """`table_block`, its style from its first line in reading order."""
    return table_block(grid, next(l for row in grid for cell in row for l in cell), vocabulary, box, style)


def names_columns(cells: list[Cell]) -> bool:
    """Whether cells read as the names of their columns (each a word or a year, in a few words)."""
    return bool(cells) and all(_name(cell.text) for cell in cells)


def _name(cell: str) -> bool:
    """Whether a cell reads as a column's name: a word of two letters or more, or a year, in a few words."""
    return bool(re.search(r"[^\W\d_]{2}|^(?:19|20)\d\d$", cell)) and len(cell.split()) <= TITLE_NAME_WORDS


def table_block(grid: list[list[list[Line]]], first: Line, vocabulary: set[str], box, style) -> Block:
    """A table as one block: rows split by newlines, cells by " | " (a cell without lines stays empty), `cells`
    in columns, each printed line's span kept; `first` gives the block its style. A cell's line led by a bullet
    glyph starts with "• " (a symbol font's private-use bullet included), so its items stay apart."""
    text = ""
    spans: list[dict] = []  # BlockLine fields (validated with the block)
    rows: list[list[str]] = []
    for r, row in enumerate(grid):
        rows.append([])
        if r:
            text += "\n"
        for c, cell in enumerate(row):
            if c:
                text += " | "
            if not cell:
                rows[-1].append("")
                continue
            joined, parts = join_lines([CELL_SYMBOL_RE.sub("• ", CELL_BULLET_RE.sub("• ", l.text)) for l in cell],
                                       vocabulary)
            spans += [{"start": len(text) + s, "end": len(text) + e, "bbox": box([l])}
                      for (s, e), l in zip(parts, cell)]
            text += joined
            rows[-1].append(joined)
    every = [l for row in grid for cell in row for l in cell]
    return Block(kind="table", text=text, bbox=box(every), style=style(first), lines=spans,  # type: ignore[arg-type]
                 cells=rows)  # (dicts: the Block validates them into BlockLine, cheaper than models)


def _column(cell: Cell, bands: list[tuple[float, float]]) -> int:
    """The column a cell overlaps most, or, overlapping none, whose middle is nearest its own."""
    middle = (cell.x0 + cell.x1) / 2
    return max(range(len(bands)), key=lambda k: (min(bands[k][1], cell.x1) - max(bands[k][0], cell.x0),
                                                 -abs((bands[k][0] + bands[k][1]) / 2 - middle)))


def cell_under(lines: list[Line], row: list[Line]) -> int | None:
    """The index of the cell of `row` (lines side by side) whose column holds every one of `lines`, if any."""
    for k, cell in enumerate(row):
        left = row[k - 1].x1 if k else float("-inf")
        right = row[k + 1].x0 if k + 1 < len(row) else float("inf")
        if all(left - 2 <= l.x0 and l.x1 <= right + 2 and l.x0 < cell.x1 and l.x1 > cell.x0 for l in lines):
            return k
    return None


def prepend(table: Table, cell: int, lines: list[Line]) -> None:
    """Lines printed just above the last row, inside one cell's column, are the start of that cell's text."""
    target = table.rows[-1][cell]
    target.lines[:0] = lines
    target.x0, target.x1 = min([target.x0] + [l.x0 for l in lines]), max([target.x1] + [l.x1 for l in lines])


def starts_cell(lines: list[Line], cell_line: Line, limit: float) -> bool:
    """Whether a short paragraph's `lines` just above a row run on into the row's cell `cell_line`."""
    last = lines[-1]
    step = cell_line.baseline - last.baseline
    text = " ".join(l.text for l in lines)
    return 0.3 * last.size < step <= limit and abs(last.size - cell_line.size) < 1 and \
        (cell_line.text[:1].islower() or sentence_goes_on(text, cell_line.text))

