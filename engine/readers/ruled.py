"""Ruled tables: the grid a page's vector rulings draw, and the reader's lines placed in its cells.

PyMuPDF's table finder (`page.find_tables`) reads a ruled table by the lattice method: rulings snapped and
joined into edges, their intersections, the cells those bound. Run on a whole page it also re-extracts every
character and guesses a header, which costs 50-370 ms a page (measured on the corpus), more than reading the
page. This module keeps the lattice part and leaves the text to the reader: the rulings come from
`page.get_cdrawings()` only on pages whose text sets lines side by side and whose content stream draws paths,
and the reader's own lines are put into the rows and columns the rulings bound. The first row is the header.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from statistics import median

import numpy as np

from engine.readers.layout import Line
from engine.readers.sentences import ends_sentence, sentence_goes_on
from engine.readers.tables import table_blocks
from engine.schemas import Block

SNAP = 1.5  # points: rulings this close are one
JOIN = 2.0  # points: collinear rulings this close end to end are one
THIN = 2.5  # points: a filled rectangle this thin is a ruling
MIN_RULE = 4.0  # points: shorter strokes are glyph parts, not rulings
WHITE = 0.98  # a fill this light in every component is the page's own white
WHITE_CELLS = 6  # white rectangles on a page, at least, that are a table's cells (fewer: figures' backgrounds)
MIN_PATH_OPS = 3  # path operators in the page's content stream before the drawings are read (an open table draws 3)
MIN_SIDE_BY_SIDE = 2  # pairs of lines side by side (cells) before the drawings are read
PATH_OP_RE = re.compile(rb"\s(?:re|l)\s")


@dataclass(slots=True)
class Grid:
    """A ruled table's lattice: the x of its column rules and the y of its row rules (both sorted), and the
    row rules as drawn (a rule may cross only some columns: the cells it leaves uncut span rows)."""

    xs: list[float]
    ys: list[float]
    rules: list[tuple[float, float, float]] = field(default_factory=list)  # (y, x0, x1) of each row rule
    open: bool = False  # ruled across only (see `open_grids`): its rows are told by their first cells
    downs: list[tuple[float, float, float]] = field(default_factory=list)  # (x, y0, y1) of each column rule drawn
    open_below: float | None = None  # a lattice head over rows ruled across only from this y down (`headed`)
    drawn: list[float] = field(default_factory=list)  # row rules only its column rules' pieces tell (`with_drawn_rows`)

    def open_at(self, line: Line) -> bool:
        """Whether the line is read as in a table ruled across only: its columns' bounds are the gaps down it."""
        return self.open or (self.open_below is not None and (line.y0 + line.y1) / 2 > self.open_below)

    def column_rows(self, column: int) -> list[float]:
        """The y of the row rules that cross a column (its cells' tops and bottoms)."""
        middle = (self.xs[column] + self.xs[column + 1]) / 2
        crossing = [y for y, x0, x1 in self.rules if x0 - JOIN <= middle <= x1 + JOIN]
        return _positions(crossing) if len(crossing) >= 2 else self.ys

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        return self.xs[0], self.ys[0], self.xs[-1], self.ys[-1]

    def parts(self, line: Line) -> list[float]:
        """The column bounds a line runs over that part its text: in an open table every bound inside the
        grid's sides, in a lattice those a column rule is drawn at beside the line (a cell spanning columns
        has none there)."""
        middle = (line.y0 + line.y1) / 2
        return [x for x in self.xs[1:-1] if line.x0 < x < line.x1 and (self.open_at(line) or any(
            abs(rx - x) <= SNAP and y0 - JOIN <= middle <= y1 + JOIN for rx, y0, y1 in self.downs))]

    def holds(self, line: Line) -> bool:
        """Whether a line's middle lies inside the grid."""
        x, y = (line.x0 + line.x1) / 2, (line.y0 + line.y1) / 2
        return self.xs[0] - 1 <= x <= self.xs[-1] + 1 and self.ys[0] - 1 <= y <= self.ys[-1] + 1


def side_by_side(lines: list[Line]) -> int:
    """Pairs of lines that share a baseline, one after the other (a table's cells)."""
    rows: dict[int, list[Line]] = {}
    for line in lines:
        rows.setdefault(round(line.baseline / 3), []).append(line)
    return sum(len(row) - 1 for row in rows.values() if len(row) > 1)


def find_tables(page, lines: list[Line], words_of_page: Callable[[], list] | None = None,
                drawings_of_page: Callable[[], list[dict]] | None = None) -> tuple[list[Grid], list[Line]]:
    """The ruled tables of a PyMuPDF page (lattices, and tables ruled across only), and the page's lines with
    those that run over an open table's column gap cut there (`words_of_page`: returns `page.get_text("words")`,
    from an extraction already made; `drawings_of_page`: returns `page.get_cdrawings()`, read once a page)."""
    if side_by_side(lines) < MIN_SIDE_BY_SIDE:
        return [], lines
    try:
        if len(PATH_OP_RE.findall(page.read_contents())) < MIN_PATH_OPS:
            return [], lines
        drawings = drawings_of_page() if drawings_of_page else page.get_cdrawings()
    except Exception:  # (a damaged content stream: no rulings, the page is read as text)
        return [], lines
    horizontal, vertical = rulings(drawings, page.rect.width, page.rect.height)
    joints = vertical_joints(drawings)
    found = [with_drawn_rows(grid, joints) for grid in banded(grids(horizontal, vertical), lines)]
    across = [h for h in horizontal if not any(_crosses(h, v) for v in vertical)]
    crossing = any(g.holds(line) and g.parts(line) for g in found for line in lines)
    if len(across) < OPEN_MIN_RULES and not crossing:
        return found, lines
    extracted = words_of_page() if words_of_page else page.get_text("words")
    words = [(w[0], w[1], w[2], w[3]) for w in extracted]
    opened = open_grids(across, lines, words) if len(across) >= OPEN_MIN_RULES else []
    found, opened = headed(found, _begun(found, opened, across, lines, words), across, lines, words)
    spelled = {(w[0], w[1], w[2], w[3]): w[4] for w in extracted}
    return found + opened, split_at_columns(lines, found + opened, words, spelled)


Segment = tuple[float, float, float]  # (position, start, end): y, x0, x1 of a horizontal; x, y0, y1 of a vertical
Box = tuple[float, float, float, float]  # a word's x0, y0, x1, y1


def rulings(drawings: list[dict], width: float, height: float) -> tuple[list[Segment], list[Segment]]:
    """Horizontal and vertical rulings: stroked lines, thin filled rectangles, and the sides of the cell-sized
    rectangles (a page-sized background aside, and a fill drawn inside one of its own colour: `unseen`)."""
    horizontal: list[Segment] = []
    vertical: list[Segment] = []
    hidden = unseen(drawings)
    # white fills on the white page edge nothing that shows: a figure's background drawn under it is no table; but
    # a table whose every cell a word processor filled white has its cells told by them
    blank = [_blank(drawing) for drawing in drawings]
    cells = sum(1 for drawing, white in zip(drawings, blank) if white
                for item in drawing.get("items", ()) if item[0] == "re")
    for n, (drawing, white) in enumerate(zip(drawings, blank)):
        skip = white and cells < WHITE_CELLS
        for k, item in enumerate(drawing.get("items", ())):
            stroke = _stroke(item)
            if stroke is not None:
                (horizontal if stroke[0] else vertical).append(stroke[1])
            elif item[0] == "re":
                x0, y0, x1, y1 = item[1]
                x0, x1 = min(x0, x1), max(x0, x1)
                y0, y1 = min(y0, y1), max(y0, y1)
                w, h = x1 - x0, y1 - y0
                if w >= MIN_RULE and h >= MIN_RULE and not (w > 0.9 * width and h > 0.9 * height) and not skip \
                        and (n, k) not in hidden:
                    horizontal += [(y0, x0, x1), (y1, x0, x1)]
                    vertical += [(x0, y0, y1), (x1, y0, y1)]
    return _joined(horizontal), _joined(vertical)


def _stroke(item: tuple) -> tuple[bool, Segment] | None:
    """A drawing item that is a ruling, stroked or a thin filled rectangle: (across, its segment); None for any
    other item (a cell-sized rectangle, a curve, a stroke shorter than MIN_RULE)."""
    if item[0] == "l":
        (x0, y0), (x1, y1) = item[1], item[2]
        if abs(y1 - y0) < 1 and abs(x1 - x0) >= MIN_RULE:
            return True, ((y0 + y1) / 2, min(x0, x1), max(x0, x1))
        if abs(x1 - x0) < 1 and abs(y1 - y0) >= MIN_RULE:
            return False, ((x0 + x1) / 2, min(y0, y1), max(y0, y1))
    elif item[0] == "re":
        x0, y0, x1, y1 = item[1]
        x0, x1 = min(x0, x1), max(x0, x1)
        y0, y1 = min(y0, y1), max(y0, y1)
        if y1 - y0 < THIN and x1 - x0 >= MIN_RULE:
            return True, ((y0 + y1) / 2, x0, x1)
        if x1 - x0 < THIN and y1 - y0 >= MIN_RULE:
            return False, ((x0 + x1) / 2, y0, y1)
    return None


def vertical_joints(drawings: list[dict]) -> list[tuple[float, float]]:
    """(x, y) where one vertical ruling ends and the next on its line begins (within JOIN): a table that draws its
    column rules a row at a time (LaTeX's `|l|l|` without `\\hline`) shows its rows there, and nowhere else."""
    pieces = [stroke[1] for drawing in drawings for item in drawing.get("items", ())
              if (stroke := _stroke(item)) is not None and not stroke[0]]
    starts: dict[int, list[Segment]] = {}  # pieces by their x, rounded
    for piece in pieces:
        starts.setdefault(round(piece[0]), []).append(piece)
    return [(a[0], (a[2] + b[1]) / 2) for a in pieces
            for key in range(round(a[0]) - 2, round(a[0]) + 3) for b in starts.get(key, ())
            if b is not a and abs(b[0] - a[0]) <= SNAP and abs(b[1] - a[2]) <= JOIN]


def with_drawn_rows(grid: Grid, joints: list[tuple[float, float]]) -> Grid:
    """A lattice with a row rule wherever every one of its column rules is drawn in two pieces that meet (its rows
    drawn a row at a time, no rule across between them: `vertical_joints`); as it was when there is none."""
    inside = [y for x, y in joints if abs(x - grid.xs[0]) <= SNAP and grid.ys[0] + SNAP < y < grid.ys[-1] - SNAP
              and not any(abs(y - ry) <= SNAP for ry in grid.ys)]
    drawn = [y for y in _positions(inside)
             if all(any(abs(x - cx) <= SNAP and abs(jy - y) <= SNAP for x, jy in joints) for cx in grid.xs[1:])]
    if grid.open or not drawn:
        return grid
    return replace(grid, ys=sorted(grid.ys + drawn), drawn=drawn,
                   rules=sorted(grid.rules + [(y, grid.xs[0], grid.xs[-1]) for y in drawn]))


MAX_FILLS = 2000  # filled rectangles on a page, at most, compared with each other (`unseen`)


def unseen(drawings: list[dict]) -> set[tuple[int, int]]:
    """The (drawing, item) positions of filled rectangles that lie inside a larger one of the same colour drawn
    before or after them: their edges do not show (a word processor shades each line of a cell's text in the
    cell's own colour), so they part no rows or columns. (Within one path, a rectangle inside another is a hole:
    the two draw a frame, whose edges show.)"""
    fills: list[tuple[tuple[float, ...], float, float, float, float, int, int]] = []
    for n, drawing in enumerate(drawings):
        if drawing.get("type") != "f" or drawing.get("fill") is None:
            continue
        colour = tuple(round(c, 2) for c in drawing["fill"])
        for k, item in enumerate(drawing.get("items", ())):
            if item[0] == "re":
                x0, y0, x1, y1 = item[1]
                fills.append((colour, min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1), n, k))
    if len(fills) > MAX_FILLS:
        return set()
    hidden: set[tuple[int, int]] = set()
    by_colour: dict[tuple[float, ...], list[tuple[float, float, float, float, int, int]]] = {}
    for fill in fills:
        by_colour.setdefault(fill[0], []).append(fill[1:])
    for group in by_colour.values():
        if len(group) < 2:
            continue
        box = np.array([g[:4] for g in group])
        area = (box[:, 2] - box[:, 0]) * (box[:, 3] - box[:, 1])
        drawn = np.array([g[4] for g in group])  # (a rectangle inside another of one path is a hole: a frame)
        inside = (box[None, :, 0] <= box[:, None, 0] + SNAP) & (box[None, :, 1] <= box[:, None, 1] + SNAP) \
            & (box[None, :, 2] >= box[:, None, 2] - SNAP) & (box[None, :, 3] >= box[:, None, 3] - SNAP) \
            & (area[None, :] > area[:, None]) \
            & (drawn[None, :] != drawn[:, None])  # [i, j]: rectangle i lies inside the larger rectangle j, drawn apart
        hidden.update((group[i][4], group[i][5]) for i in np.flatnonzero(inside.any(axis=1)))
    return hidden


def _blank(drawing: dict) -> bool:
    """Whether the drawing is only filled, in white (or all but)."""
    fill = drawing.get("fill")
    return drawing.get("type") == "f" and fill is not None and min(fill) >= WHITE


def _joined(segments: list[Segment]) -> list[Segment]:
    """Rulings on one line (within SNAP) joined where they touch or overlap (within JOIN)."""
    out: list[Segment] = []
    for pos, start, end in sorted(segments):
        for k in range(len(out) - 1, -1, -1):
            other = out[k]
            if pos - other[0] > SNAP:
                out.append((pos, start, end))
                break
            if start <= other[2] + JOIN and end >= other[1] - JOIN:
                out[k] = (other[0], min(start, other[1]), max(end, other[2]))
                break
        else:
            out.append((pos, start, end))
    return out


def _crosses(h: Segment, v: Segment) -> bool:
    return h[1] - JOIN <= v[0] <= h[2] + JOIN and v[1] - JOIN <= h[0] <= v[2] + JOIN


def _positions(values: list[float]) -> list[float]:
    """Sorted positions with those within SNAP of the one before merged."""
    out: list[float] = []
    for value in sorted(values):
        if not out or value - out[-1] > SNAP:
            out.append(value)
    return out


def grids(horizontal: list[Segment], vertical: list[Segment]) -> list[Grid]:
    """The lattices the rulings form: sets of rulings connected by crossings, with at least three rules down
    and two across (two columns side by side, in one row or more; a framed box is no table, nor a box parted
    only across, a title band over its text)."""
    if len(horizontal) < 2 or len(vertical) < 3:
        return []
    parent = list(range(len(horizontal) + len(vertical)))

    def find(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for i, h in enumerate(horizontal):
        for j, v in enumerate(vertical):
            if _crosses(h, v):
                parent[find(i)] = find(len(horizontal) + j)
    groups: dict[int, tuple[list[Segment], list[Segment]]] = {}
    for i, h in enumerate(horizontal):
        groups.setdefault(find(i), ([], []))[0].append(h)
    for j, v in enumerate(vertical):
        groups.setdefault(find(len(horizontal) + j), ([], []))[1].append(v)
    found: list[Grid] = []
    for hs, vs in groups.values():
        ys, xs = _positions([h[0] for h in hs]), _positions([v[0] for v in vs])
        if len(ys) >= 2 and len(xs) >= 3:
            found.append(Grid(xs, ys, sorted(hs), downs=sorted(vs)))
    return found


BAND_ROWS = 3.0  # an unfilled row between two banded lattices is at most this many times their tallest row


def banded(found: list[Grid], lines: list[Line]) -> list[Grid]:
    """Lattices one above the other with the same columns, told apart only by an unfilled band between them, as
    one: a table whose rows are shaded every other one (zebra stripes) draws its shaded rows' cells and nothing of
    the rows between, whose text each sits inside one column. Not when a line in the band runs across a column
    edge or past the sides (a caption, a paragraph between two tables), or the band is taller than BAND_ROWS of
    their tallest row. Such a table's last row, when unshaded, is read under it (`_unshaded_below`)."""
    out = sorted(found, key=lambda g: g.ys[0])
    merged: set[int] = set()
    k = 0
    while k + 1 < len(out):
        upper, lower = out[k], out[k + 1]
        tallest = _tallest(upper, lower)
        gap = [line for line in lines if upper.ys[-1] < (line.y0 + line.y1) / 2 < lower.ys[0]]
        same = len(upper.xs) == len(lower.xs) and all(abs(a - b) <= SNAP for a, b in zip(upper.xs, lower.xs))
        if same and gap and 0 < lower.ys[0] - upper.ys[-1] <= BAND_ROWS * tallest \
                and all(_in_a_column(line, upper) for line in gap):
            out[k] = Grid(upper.xs, upper.ys + lower.ys, sorted(upper.rules + lower.rules),
                          downs=sorted(upper.downs + lower.downs))
            del out[k + 1]
            merged.add(id(out[k]))
        else:
            k += 1
    return [_unshaded_below(g, lines) if id(g) in merged else g for g in out]


def _tallest(*found: Grid) -> float:
    return max(b - a for g in found for a, b in zip(g.ys, g.ys[1:]))


def _in_a_column(line: Line, grid: Grid) -> bool:
    """Whether a line lies between the grid's sides without running over a column edge."""
    return grid.xs[0] - SNAP <= line.x0 and line.x1 <= grid.xs[-1] + SNAP \
        and not any(line.x0 < x < line.x1 for x in grid.xs[1:-1])


def _unshaded_below(grid: Grid, lines: list[Line]) -> Grid:
    """A banded table with its last row read on below its last shaded one: the lines starting within a line's
    height under it, each in one column, and those packed under them (wrapped cells), up to the first gap; none
    when a line running over a column edge follows without a gap (prose set tight under the table) or the row
    would be taller than BAND_ROWS of the tallest."""
    bottom = grid.ys[-1]
    below = sorted((line for line in lines if (line.y0 + line.y1) / 2 > bottom
                    and line.x1 > grid.xs[0] and line.x0 < grid.xs[-1]), key=lambda line: line.y0)
    if not below or below[0].y0 - bottom > below[0].y1 - below[0].y0 or not _in_a_column(below[0], grid):
        return grid
    pad = max(0.0, below[0].y0 - bottom)
    reach = below[0].y1
    for line in below[1:]:
        if line.y0 > reach + 0.5 * (line.y1 - line.y0):
            break  # (a gap: the row has ended)
        if not _in_a_column(line, grid):
            return grid
        reach = max(reach, line.y1)
    end = reach + pad
    if end - bottom > BAND_ROWS * _tallest(grid):
        return grid
    return Grid(grid.xs, grid.ys + [end], grid.rules + [(end, grid.xs[0], grid.xs[-1])], downs=grid.downs)


OPEN_MIN_RULES = 3  # an open table: a rule above, one under its header, one below (booktabs' top, mid, bottom)
OPEN_MAX_CHARS = 40  # median characters of its lines: cells are short, prose lines are not
GAP = 0.6  # ems: a gap this wide running down a table parts two columns (a cell's words stand 0.3 em apart)
LARGER = 1.15  # of the page's median size: text set larger is a title or a heading, not a table's cell
EDGE = 3.0  # points: rules of one open table start and end this close


def open_grids(horizontal: list[Segment], lines: list[Line], words: list[Box]) -> list[Grid]:
    """Tables ruled across only, with no rule down (LaTeX's booktabs, pandoc's tables): three or more
    horizontal rules of one width, no line of text reaching beyond them between the first and the last, short
    lines between them, their words in two or more columns that a gap runs down (the columns' bounds)."""
    found: list[Grid] = []
    by_width: dict[tuple[int, int], list[Segment]] = {}
    for rule in horizontal:
        key = next((k for k in by_width if abs(k[0] - rule[1]) <= EDGE and abs(k[1] - rule[2]) <= EDGE),
                   (round(rule[1]), round(rule[2])))
        by_width.setdefault(key, []).append(rule)
    for (x0, x1), rules in by_width.items():
        run: list[Segment] = []
        above: list[tuple[float, float]] = []  # the gaps of the band above
        for rule in sorted(rules):
            # a band between two rules that is no part of a table (prose, a caption, a heading, notes: text
            # reaching beyond the rules, in one column, or in columns of its own) ends the table above it
            gaps = _gaps(run[-1][0], rule[0], lines, words, x0, x1) if run else []
            if run and (not gaps or (above and not any(a < d and c < b for a, b in above for c, d in gaps))):
                found += _open_grid(run, lines, words, x0, x1)
                run = run[-1:] if gaps else []  # (columns of its own may open the next table)
            run.append(rule)
            above = gaps
        found += _open_grid(run, lines, words, x0, x1)
    return found


def _begun(lattices: list[Grid], opened: list[Grid], across: list[Segment], lines: list[Line],
           words: list[Box]) -> list[Grid]:
    """The open tables, with those that a lattice's bottom rule begins (a filled head over rows ruled across only:
    its bottom edge is their first rule, which touches the lattice's sides and so is no rule across) in place of
    the ones found within them; none that runs into the next lattice down the page."""
    tops = [(g.ys[-1], g.xs[0], g.xs[-1]) for g in lattices
            if any(h[0] > g.ys[-1] and abs(h[1] - g.xs[0]) <= EDGE and abs(h[2] - g.xs[-1]) <= EDGE for h in across)]
    if not tops or len(across) < OPEN_MIN_RULES - 1:
        return opened
    begun = [o for o in open_grids(across + tops, lines, words)
             if any(abs(o.ys[0] - top[0]) <= SNAP and abs(o.xs[0] - top[1]) <= EDGE for top in tops)
             and not any(o.ys[0] + SNAP < g.ys[0] < o.ys[-1] - SNAP for g in lattices)]
    return [o for o in opened if not any(b.ys[0] - SNAP <= o.ys[0] and o.ys[-1] <= b.ys[-1] + SNAP
                                         and abs(o.xs[0] - b.xs[0]) <= EDGE for b in begun)] + begun


def headed(lattices: list[Grid], opened: list[Grid], across: list[Segment], lines: list[Line],
           words: list[Box]) -> tuple[list[Grid], list[Grid]]:
    """Each lattice whose bottom rule is the top rule of a table ruled across only, as wide, joined with it: one
    table whose head (a title band, the columns' names in filled cells) is the lattice and whose rows are the open
    table's, its columns the gaps down the rows (`Grid.open_below`: lines under the head are read in those columns,
    cut where their words stand apart at a bound); a lattice over rules across that make no open table of their
    own (a rule under every row) takes them as its rows, in its own columns (`_ruled_under`); the others as they
    are."""
    kept: list[Grid] = []
    rest = list(opened)
    for lattice in lattices:
        below = next((o for o in rest if abs(o.ys[0] - lattice.ys[-1]) <= SNAP
                      and abs(o.xs[0] - lattice.xs[0]) <= EDGE and abs(o.xs[-1] - lattice.xs[-1]) <= EDGE), None)
        if below is not None:
            rest.remove(below)
            kept.append(Grid(below.xs, lattice.ys + below.ys[1:], sorted(lattice.rules + below.rules),
                             downs=lattice.downs, open_below=lattice.ys[-1]))
            continue
        grown = _ruled_under(lattice, across, lattices, lines, words)
        if grown is None:
            kept.append(lattice)
            continue
        rest = [o for o in rest if o.ys[-1] <= lattice.ys[-1] + SNAP or o.ys[0] >= grown.ys[-1] - SNAP]
        # (an open table read inside those rows gives way)
        kept.append(grown)
    return kept, rest


def _ruled_under(lattice: Grid, across: list[Segment], lattices: list[Grid], lines: list[Line],
                 words: list[Box]) -> Grid | None:
    """A lattice with the rules across under it as its rows (in its columns): the rules as wide as it, down to the
    next lattice, while the text between two of them stays between its sides and holds no line of prose across
    the rows; None when fewer than two."""
    x0, x1, bottom = lattice.xs[0], lattice.xs[-1], lattice.ys[-1]
    under = sorted(h for h in across if h[0] > bottom + SNAP and abs(h[1] - x0) <= EDGE and abs(h[2] - x1) <= EDGE)
    stop = min((g.ys[0] for g in lattices if g.ys[0] > bottom + SNAP), default=float("inf"))
    ys = [bottom]
    for y, _, _ in under:
        band = _between(lines, ys[-1], y)
        if y >= stop or any(_past_sides(l, x0, x1) or _prose_across(l, words, x0, x1) for l in band):
            break  # (the next table, or text that is no row of this one: prose across it, lines past its sides)
        ys.append(y)
    if len(ys) < 3:
        return None
    return Grid(lattice.xs, lattice.ys + ys[1:], sorted(lattice.rules + [(y, x0, x1) for y in ys[1:]]),
                downs=lattice.downs, open_below=bottom)


def _between(lines: list[Line], top: float, bottom: float) -> list[Line]:
    """The lines whose middle lies between two heights."""
    return [l for l in lines if top < (l.y0 + l.y1) / 2 < bottom]


def _words_of(line: Line, words: list[Box]) -> list[Box]:
    """The word boxes that lie within a line's box, left to right."""
    return sorted(w for w in words if line.y0 - 1 <= (w[1] + w[3]) / 2 <= line.y1 + 1
                  and line.x0 - 1 <= w[0] and w[2] <= line.x1 + 1)


def _gaps(top: float, bottom: float, lines: list[Line], words: list[Box], x0: float,
          x1: float) -> list[tuple[float, float]]:
    """The gaps (from, to) that run down the text between two rules (between columns); none when a line there
    reaches beyond the rules or the text has no gap `GAP` ems wide."""
    inside = _between(lines, top, bottom)
    if not inside or any(_past_sides(l, x0, x1) for l in inside):
        return []
    gap = GAP * min(l.size for l in inside)
    spans = sorted((w[0], w[2]) for w in words if top < (w[1] + w[3]) / 2 < bottom and x0 - EDGE <= w[0] <= x1)
    gaps: list[tuple[float, float]] = []
    reach = spans[0][1] if spans else x1
    for start, end in spans[1:]:
        if start - reach >= gap:
            gaps.append((reach, start))
        reach = max(reach, end)
    return gaps


def _past_sides(line: Line, x0: float, x1: float) -> bool:
    """Whether a line reaches beyond a table's sides (by more than EDGE)."""
    return line.x0 < x0 - EDGE or line.x1 > x1 + EDGE


def _prose_across(line: Line, words: list[Box], x0: float, x1: float) -> bool:
    """Whether a line is prose across a table's width: long, over three quarters of it, no column gap in it."""
    return len(line.text) > 2 * OPEN_MAX_CHARS and 4 * (line.x1 - line.x0) > 3 * (x1 - x0) and _gapless(line, words)


def _gapless(line: Line, words: list[Box]) -> bool:
    """Whether a line's words follow each other with no gap a column would leave (a line of prose)."""
    boxes = _words_of(line, words)
    return all(b[0] - a[2] < GAP * line.size for a, b in zip(boxes, boxes[1:]))


def _open_grid(rules: list[Segment], lines: list[Line], words: list[Box], x0: float, x1: float) -> list[Grid]:
    if len(rules) < OPEN_MIN_RULES:
        return []
    top, bottom = rules[0][0], rules[-1][0]
    inside = _between(lines, top, bottom)
    notes = [l for l in inside
             if len(l.text) > OPEN_MAX_CHARS and ends_sentence(l.text) and 2 * (l.x1 - l.x0) > x1 - x0]
    cells = [l for l in inside if not any(l is n for n in notes)]
    if notes and cells and min(n.y0 for n in notes) > max(l.y1 for l in cells) > rules[-2][0]:
        bottom = min(n.y0 for n in notes) - 0.5  # (a note set under the rows, before the last rule, stays out)
        rules = [*rules[:-1], (bottom, x0, x1)]
        inside = cells
    if any(_prose_across(l, words, x0, x1) for l in inside):
        return []  # (a line of prose across the rules: text between rules that frame a figure or a box)
    banded = [{round(l.baseline) for l in _between(inside, a, b)} for (a, _, _), (b, _, _) in zip(rules[1:], rules[2:])]
    text_size = median(l.size for l in lines)
    if len(inside) < 3 or max(len(rows) for rows in banded) < 2 or max(l.size for l in inside) > LARGER * text_size \
            or sorted(len(l.text) for l in inside)[len(inside) // 2] > OPEN_MAX_CHARS:
        return []  # (rows under the header with no rule between them, which a table ruled row by row has, is read
        # as aligned text; a title set large between rules is no table)
    cuts = [(a + b) / 2 for a, b in _gaps(top, bottom, lines, words, x0, x1)]
    if not cuts:
        return []
    return [Grid([x0, *cuts, x1], [y for y, _, _ in rules], [(y, x0, x1) for y, _, _ in rules], open=True)]


def split_at_columns(lines: list[Line], tables: list[Grid], words: list[Box],
                     spelled: dict[Box, str] | None = None) -> list[Line]:
    """The lines, each one inside a table that runs over a column's bound (`Grid.parts`: the reader joined two
    cells' words on one baseline) cut into one line a column (its words placed by their boxes; `spelled`, each
    box's text, places a line's words where the reader parted one word in two: `_token_boxes`)."""
    if not tables:
        return lines
    out: list[Line] = []
    for line in lines:
        grid = next((g for g in tables if g.holds(line)), None)
        crossed = grid.parts(line) if grid else []
        if grid is None or not crossed:
            out.append(line)
            continue
        tokens = line.text.split()
        boxes = _token_boxes(tokens, _words_of(line, words), spelled or {})
        if boxes is None:  # (the words do not match the line's text: leave it whole)
            out.append(line)
            continue
        if not grid.open:  # a drawn rule (or a head's bound) parts two cells' words, which stand apart as columns do
            crossed = [x for x in crossed if _apart(boxes, x, GAP * line.size)]
        bounds = [line.x0, *crossed, line.x1 + 1]
        for left, right in zip(bounds, bounds[1:]):
            part = [(b, t) for b, t in zip(boxes, tokens) if left <= (b[0] + b[2]) / 2 < right]
            if part:
                out.append(replace(line, text=" ".join(t for _, t in part), x0=part[0][0][0], x1=part[-1][0][2],
                                   lead=0, lead_style=(False, False, False)))
    return out


def _token_boxes(tokens: list[str], boxes: list[Box], spelled: dict[Box, str]) -> list[Box] | None:
    """The box of each of a line's words: the boxes themselves when there are as many, else each box given to the
    words that spell its text together (the reader reads a raised exponent apart: "2 241" in the box of "2241");
    None when they do not match."""
    if len(boxes) == len(tokens):
        return boxes
    out: list[Box] = []
    for box in boxes:
        want, got = spelled.get(box, ""), ""
        while len(out) < len(tokens) and len(got) < len(want):
            got += tokens[len(out)]
            out.append(box)
        if not want or got != want:
            return None
    return out if len(out) == len(tokens) else None


def _apart(boxes: list[Box], x: float, gap: float) -> bool:
    """Whether the words either side of `x` (by their middles) stand at least `gap` apart."""
    left = [b[2] for b in boxes if (b[0] + b[2]) / 2 < x]
    right = [b[0] for b in boxes if (b[0] + b[2]) / 2 >= x]
    return bool(left and right) and min(right) - max(left) >= gap


def _band(value: float, edges: list[float]) -> int:
    """The index of the band between two consecutive edges that holds `value` (clamped)."""
    for k in range(len(edges) - 1):
        if value < edges[k + 1]:
            return k
    return len(edges) - 2


def cells(grid: Grid, lines: list[Line]) -> list[list[list[Line]]]:
    """The lines of a grid as rows of cells (each cell its lines top to bottom), empty rows and columns left out.
    A band between two row rules whose cells each hold several lines on shared baselines (a table ruled only
    between groups of rows) is split into one row per baseline."""
    bands: dict[int, list[Line]] = {}
    tops = [grid.column_rows(k) for k in range(len(grid.xs) - 1)]
    for line in lines:
        column = tops[_band(line.x0 + 1, grid.xs)]
        top = column[_band((line.y0 + line.y1) / 2, column)]  # the rule over its cell, which may span rows
        bands.setdefault(min(range(len(grid.ys)), key=lambda k: abs(grid.ys[k] - top)), []).append(line)
    rows: list[list[list[Line]]] = []
    for band in sorted(bands):
        members = bands[band]
        for n, part in enumerate(_sub_rows(members, grid)):
            row: list[list[Line]] = [[] for _ in range(len(grid.xs) - 1)]
            for line in sorted(part, key=lambda l: (l.y0, l.x0)):
                row[_band(line.x0 + 1, grid.xs)].append(line)
            if n == 0 and rows and row[0] == [] and any(abs(grid.ys[band] - y) <= SNAP for y in grid.drawn):
                for cell, more in zip(rows[-1], row):  # (a row drawn under one without a first cell goes on with
                    cell.extend(more)  # it: a cell's lines set as rows of their own, "96" over "(12×8)")
                continue
            rows.append(row)
    used = [k for k in range(len(grid.xs) - 1) if any(row[k] for row in rows)]
    return [[row[k] for k in used] for row in rows if any(row)]


def one_cell(grid: Grid, lines: list[Line]) -> bool:
    """Whether the lines a grid holds fill one cell of it alone: a box drawn around a title or a note (its shadow's
    slivers of cells empty), no table."""
    found = cells(grid, lines)
    return len(found) == 1 and len(found[0]) == 1


def _sub_rows(members: list[Line], grid: Grid) -> list[list[Line]]:
    """A band's lines as rows: one row, unless every column with text holds one line on each of the band's
    baselines (one text row a baseline, as in a table ruled only around groups of rows)."""
    baselines: list[float] = []
    for line in sorted(members, key=lambda l: l.baseline):
        if not baselines or line.baseline - baselines[-1] > 0.6 * line.size:
            baselines.append(line.baseline)
    if len(baselines) < 2:
        return [members]
    per_column: dict[int, int] = {}
    for line in members:
        column = _band(line.x0 + 1, grid.xs)
        per_column[column] = per_column.get(column, 0) + 1
    if grid.open and len(per_column) >= 2:  # a row starts at each line of the first column; a cell wraps below
        first = min(per_column)
        starts = sorted(l.baseline for l in members if _band(l.x0 + 1, grid.xs) == first)
        if starts:
            parts: list[list[Line]] = [[] for _ in starts]
            for line in members:
                k = max([0] + [n for n, y in enumerate(starts) if y <= line.baseline + 0.3 * line.size])
                parts[k].append(line)
            return parts
    if len(per_column) < 2 or any(n != len(baselines) for n in per_column.values()):
        return [members]  # (a cell wraps its text over lines: one row of wrapped cells)
    if all(_wraps([l for l in members if _band(l.x0 + 1, grid.xs) == column]) for column in per_column):
        return [members]  # (every cell's sentence runs on from line to line: wrapped over as many lines each)
    rows: list[list[Line]] = [[] for _ in baselines]
    for line in members:
        k = min(range(len(baselines)), key=lambda b: abs(baselines[b] - line.baseline))
        rows[k].append(line)
    return rows


def _wraps(cell: list[Line]) -> bool:
    """Whether each line of a cell goes on with the sentence of the line above (`sentence_goes_on`)."""
    ordered = sorted(cell, key=lambda l: l.baseline)
    return all(sentence_goes_on(a.text, b.text) for a, b in zip(ordered, ordered[1:]))


def grid_blocks(grid: Grid, lines: list[Line], vocabulary: set[str], box, style) -> list[Block]:
    """A ruled table as its blocks (`engine.readers.tables.table_blocks`: rows split by newlines, cells by " | ",
    `cells` in columns, each printed line's span kept; a title row over the columns' names set before it); none
    when fewer than two rows or columns hold text."""
    rows = cells(grid, lines)
    if len(rows) < 2 or len(rows[0]) < 2:
        return []
    return table_blocks(rows, vocabulary, box, style)
