"""Where a page sets a table: rows of cells side by side, from the text's geometry alone."""

from __future__ import annotations

from bisect import bisect_right

from engine.readers.layout import Line


ROW_MIN_CELLS = 3  # lines side by side that make a row of a table (two may be a label and its value)
CELL_CHARS = 40  # a line longer than this is prose (a column of the page), not a cell that makes a row
ROW_GAP = 2.5  # line heights between two rows of one table, at most


GUTTER_MIN = 6.0  # points: the narrowest gap between two columns of prose


def prose_gutters(lines: list[Line]) -> list[tuple[float, float]]:
    """The gaps between the page's columns of prose: x intervals no line longer than a cell crosses, with
    such lines on both sides."""
    spans = sorted((l.x0, l.x1) for l in lines if len(l.text) > CELL_CHARS)
    gutters: list[tuple[float, float]] = []
    reach = spans[0][1] if spans else 0.0
    for x0, x1 in spans[1:]:
        if x0 - reach >= GUTTER_MIN:
            gutters.append((reach, x0))
        reach = max(reach, x1)
    return gutters


def _row_of(lines: list[Line], order: list[int], tops: list[float], i: int,
            gutters: list[tuple[float, float]]) -> list[int]:
    """Indexes of the lines that sit beside line i, apart from it, on its row (vertical overlap of at least a
    third of the lower line's height), on its side of every gutter between columns of prose (`order`: the
    line indexes by top, `tops` their tops)."""
    line = lines[i]
    found = [i]
    for j in order[:bisect_right(tops, line.y1)]:
        other = lines[j]
        if j == i or other.y1 <= line.y0 or (other.x0 < line.x1 and other.x1 > line.x0):
            continue
        left, right = (line, other) if line.x1 <= other.x0 else (other, line)
        if any(left.x1 <= g1 and g0 <= right.x0 for g0, g1 in gutters):
            continue
        overlap = min(line.y1, other.y1) - max(line.y0, other.y0)
        if overlap > 0.34 * min(line.height, other.height):
            found.append(j)
    return found


def table_text(lines: list[Line]) -> set[int]:
    """Indexes of the lines set in a table: rows of three or more cells side by side, two rows at most a few
    line heights apart, and every line inside the box those rows span (a row label alone on its row, a header
    cell set between two rows). A page's two columns of text are two cells a row, never three."""
    if len(lines) < 2 * ROW_MIN_CELLS:
        return set()
    rows: list[tuple[float, float, float, float]] = []
    seen: set[int] = set()
    gutters = prose_gutters(lines)
    short = [k for k, line in enumerate(lines) if len(line.text) <= CELL_CHARS]
    order = sorted(short, key=lambda k: lines[k].y0)
    tops = [lines[k].y0 for k in order]
    for i in short:
        if i in seen:
            continue
        row = _row_of(lines, order, tops, i, gutters)
        if len(row) >= ROW_MIN_CELLS:
            seen.update(row)
            members = [lines[k] for k in row]
            rows.append((min(l.x0 for l in members), min(l.y0 for l in members),
                         max(l.x1 for l in members), max(l.y1 for l in members)))
    if len(rows) < 2:
        return set()
    rows.sort(key=lambda r: r[1])
    regions: list[list[float]] = []
    for x0, y0, x1, y1 in rows:
        height = y1 - y0
        last = regions[-1] if regions else None
        if last is not None and y0 - last[3] <= ROW_GAP * max(height, 1.0) and x0 < last[2] and x1 > last[0]:
            last[0], last[2], last[3] = min(last[0], x0), max(last[2], x1), max(last[3], y1)
            last[4] += 1
        else:
            regions.append([x0, y0, x1, y1, 1])
    found: set[int] = set()
    for x0, y0, x1, y1, count in regions:
        if count < 2:
            continue
        for k, line in enumerate(lines):
            middle_x, middle_y = (line.x0 + line.x1) / 2, (line.y0 + line.y1) / 2
            if x0 - 1 <= middle_x <= x1 + 1 and y0 - 1 <= middle_y <= y1 + 1:
                found.add(k)
    return found
