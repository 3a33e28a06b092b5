"""Reading order by recursive XY-cut: split a page at its widest whitespace gap, columns left first."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.readers.sentences import ends_sentence

if TYPE_CHECKING:
    from engine.readers.layout import Line

MIN_GUTTER = 12.0  # points of empty width between two columns
MIN_COLUMN_TEXT = 25  # typical prose line length; table cells are much shorter
COLUMN_BREAK = 2.5  # lines' heights: a blank across both columns narrower than this is a paragraph's or a
# heading's space that happens to fall level in both, not a break between two bands of columns
COLUMN_LINES = 6  # lines on each side of a gutter that make the two sides columns of text


def _gaps(intervals: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Empty stretches between the union of intervals, as (start, end)."""
    gaps: list[tuple[float, float]] = []
    intervals = sorted(intervals)
    reach = intervals[0][1]
    for start, end in intervals[1:]:
        if start > reach:
            gaps.append((reach, start))
        if end > reach:  # (max(reach, end), without the call)
            reach = end
    return gaps


def _is_column(lines: list[Line]) -> bool:
    """Prose or a title block, not a column of table cells (numbers and short labels)."""
    chars = sum(len(line.text) for line in lines)
    return chars >= 40 and chars / len(lines) >= MIN_COLUMN_TEXT * 0.6


PANEL_GAP = 2.0  # a lone title this many of its heights or more away from the text beside it heads a panel of its own
PANEL_SIZE = 1.5  # … set at least this many times the size of the text across the gap


def _panel_title(side: list[Line], other: list[Line], gap: float) -> bool:
    """A title alone in a panel beside the page's text ("Contacts" set large on a coloured band left of a grid of
    contact cards): one line of words, set much larger than the text across the gap and far from it. Not a term beside
    its definition in a table (the same size), nor a chapter's number set beside its title (digits, close to it)."""
    if len(side) != 1 or not other:
        return False
    line = side[0]
    sizes = sorted(l.size for l in other)
    return sum(c.isalpha() for c in line.text) >= 3 and gap >= PANEL_GAP * (line.y1 - line.y0) \
        and line.size >= PANEL_SIZE * sizes[len(sizes) // 2]


def _is_prose(lines: list[Line]) -> bool:
    """A column of running text: many lines, of a prose line's length on average."""
    return len(lines) >= COLUMN_LINES and sum(len(line.text) for line in lines) / len(lines) >= MIN_COLUMN_TEXT


def _text_columns(left: list[Line], right: list[Line], blank: float) -> bool:
    """Two columns of running text, each with many lines, that a horizontal blank only a few lines tall
    crosses: the blank is space around a heading or between paragraphs that falls level in both columns
    (a two-column paper's section breaks), so the columns are read first, each top to bottom."""
    if min(len(left), len(right)) < COLUMN_LINES:
        return False
    heights = sorted(l.y1 - l.y0 for l in left + right)
    return blank <= COLUMN_BREAK * heights[len(heights) // 2]


LABEL_SHARE = 0.6  # a column of labels is at most this share of the width of the text beside it
LABEL_ENTRIES = 3  # labels, at least, that each open an entry of the text beside them
PARAGRAPH_GAP = 1.3  # a blank this many times the usual space between lines parts two paragraphs


def _leading(lines: list[Line]) -> float:
    """The usual blank between one line of a column (top to bottom) and the next."""
    steps = sorted(b.y0 - a.y1 for a, b in zip(lines, lines[1:]))
    return steps[len(steps) // 2] if steps else 0.0


def _set_off(before: Line, line: Line, usual: float) -> bool:
    """Whether more space than a column's usual blank between lines stands above a line."""
    return line.y0 - before.y1 > max(usual * PARAGRAPH_GAP, usual + 0.2 * line.height)


def _paragraph_starts(lines: list[Line], usual: float) -> list[Line]:
    """The lines of a column (top to bottom) that open a paragraph: its first, one set off by more space than its
    lines usually leave, and one that opens a sentence after a line that ended one."""
    starts = lines[:1]
    for before, line in zip(lines, lines[1:]):
        first = line.text.lstrip()[:1]
        if _set_off(before, line, usual) \
                or (ends_sentence(before.text) and (first.isupper() or first.isdigit() or first in "([\"'“‘")):
            starts.append(line)
    return starts


def beside_labels(left: list[Line], right: list[Line]) -> list[Line] | None:
    """A column of labels beside the text they label (a glossary's terms beside their definitions, a manual's side
    heads beside their paragraphs): the left column far narrower than the right, each of its runs of lines (lines
    set off by a blank) opening on the row of a paragraph of the right column, LABEL_ENTRIES such rows or more. The
    right column's lines that open an entry, top to bottom; None for two columns of a page read one after the other
    (two columns of prose are about as wide; a note in the margin stands beside a paragraph's middle) and for a
    table's columns (the right side sets lines side by side)."""
    if len(left) < LABEL_ENTRIES or len(right) < LABEL_ENTRIES:
        return None
    width = max(l.x1 for l in left) - min(l.x0 for l in left)
    if width > LABEL_SHARE * (max(l.x1 for l in right) - min(l.x0 for l in right)):
        return None
    left = sorted(left, key=lambda l: l.y0)
    right = sorted(right, key=lambda l: l.y0)
    if any(same_row(a, b) for a, b in zip(right, right[1:])):
        return None  # cells side by side: a table's columns, not one column of text
    usual = _leading(right)  # (the text's leading: a label of a line or two has too few of its own)
    paragraphs = {id(line) for line in _paragraph_starts(right, usual)}
    opened: list[Line] = []
    for k, line in enumerate(left):
        beside = next((r for r in right if same_row(r, line)), None)
        run = k == 0 or _set_off(left[k - 1], line, usual)
        if beside is not None and id(beside) in paragraphs:
            if not opened or opened[-1] is not beside:
                opened.append(beside)
        elif run:
            return None  # a label beside no paragraph's first line: a note in the margin, or a column of its own
    return opened if len(opened) >= LABEL_ENTRIES else None


def by_entries(left: list[Line], right: list[Line], opened: list[Line]) -> list[Line]:
    """Lines of a column of labels and the text beside it entry by entry: each label's lines, then its text, down
    to the next label's row (text above the first label first)."""
    tops = [line.y0 for line in opened]

    def entry(line: Line) -> int:
        middle = (line.y0 + line.y1) / 2
        return sum(1 for top in tops if top <= middle)

    labels = {id(line) for line in left}  # (an entry's labels before its text, each top to bottom)
    return sorted(left + right, key=lambda l: (entry(l), id(l) not in labels, l.y0))


def xy_cut(lines: list[Line]) -> tuple[list[Line], bool]:
    """Lines in reading order, and whether a column split was made."""
    if len(lines) <= 1:
        return list(lines), False
    v_gaps = [g for g in _gaps([(l.x0, l.x1) for l in lines]) if g[1] - g[0] >= MIN_GUTTER]
    h_gaps = _gaps([(l.y0, l.y1) for l in lines])
    best_h = max(h_gaps, key=lambda g: g[1] - g[0], default=None)
    blank = 0.0 if best_h is None else best_h[1] - best_h[0]
    # the widest gap first; when it parts no two columns of text (a table's column of figures beside a page's
    # columns of prose), the next widest that parts two columns of prose (a table's columns of short cells stay)
    for rank, gap in enumerate(sorted(v_gaps, key=lambda g: g[1] - g[0], reverse=True)):
        cut = (gap[0] + gap[1]) / 2
        left = [l for l in lines if l.x1 <= cut]
        right = [l for l in lines if l.x0 >= cut]
        if rank and not (_is_prose(left) and _is_prose(right)):
            continue
        width = gap[1] - gap[0]
        if (width > blank or _text_columns(left, right, blank)) \
                and (_is_column(left) or _panel_title(left, right, width)) \
                and (_is_column(right) or _panel_title(right, left, width)):
            opened = beside_labels(left, right)
            if opened:
                return by_entries(left, right, opened), True
            first, split_a = xy_cut(left)
            second, split_b = xy_cut(right)
            return first + second, True
    if best_h is not None:
        cut = (best_h[0] + best_h[1]) / 2
        top: list[Line] = []
        bottom: list[Line] = []
        for l in lines:  # (one pass: this runs once for every gap of a page)
            if l.y1 <= cut:
                top.append(l)
            if l.y0 >= cut:
                bottom.append(l)
        first, split_a = xy_cut(top)
        second, split_b = xy_cut(bottom)
        return first + second, split_a or split_b
    return in_rows(lines), False


def margin_notes(lines: list[Line]) -> set[int]:
    """ids of the lines written up or down a side margin (a vertical notice beside the text, an archive's stamp),
    outside the span of the page's horizontal lines."""
    across = [l for l in lines if not l.vertical]
    if not across:
        return set()
    left, right = min(l.x0 for l in across), max(l.x1 for l in across)
    return {id(l) for l in lines if l.vertical and (l.x1 <= left + 1 or l.x0 >= right - 1)}


def same_row(a: Line, b: Line) -> bool:
    """Two lines side by side: each one's vertical middle lies within the other's extent."""
    return a.y0 <= (b.y0 + b.y1) / 2 <= a.y1 and b.y0 <= (a.y0 + a.y1) / 2 <= b.y1


def in_rows(lines: list[Line]) -> list[Line]:
    """Lines top to bottom; lines of one row (table cells, a label and its value) left to right, even
    when their baselines differ by a fraction of a point."""
    rows: list[list[Line]] = []
    for line in sorted(lines, key=lambda l: ((l.y0 + l.y1) / 2, l.x0)):
        if rows and same_row(rows[-1][0], line):
            rows[-1].append(line)
        else:
            rows.append([line])
    return [line for row in rows for line in sorted(row, key=lambda l: l.x0)]


def around_gutter(lines: list[Line], gutter: float) -> list[Line]:
    """Reading order of a two-column page whose gutter is known: between two lines that cross the
    gutter (a title, a wide code line, a figure's caption), the left column's lines, then the right
    column's; each column in its own reading order (XY-cut)."""
    crossing = sorted((l for l in lines if l.x0 < gutter < l.x1), key=lambda l: (l.y0 + l.y1) / 2)
    bands: list[list[Line]] = [[] for _ in range(len(crossing) + 1)]
    for line in lines:
        if line.x0 < gutter < line.x1:
            continue
        middle = (line.y0 + line.y1) / 2
        bands[sum(1 for c in crossing if (c.y0 + c.y1) / 2 < middle)].append(line)
    ordered: list[Line] = []
    for i, band in enumerate(bands):
        for side in ([l for l in band if l.x1 <= gutter], [l for l in band if l.x0 >= gutter]):
            ordered += xy_cut(side)[0]
        if i < len(crossing):
            ordered.append(crossing[i])
    return ordered
