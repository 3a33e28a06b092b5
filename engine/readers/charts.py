"""Bar charts drawn as vectors, read as the table of values they print.

A column chart is drawn as filled rectangles standing on one baseline; when the chart prints each bar's value (on
the bar, or just above it), the chart is a table: one row a category (the text under its bar, or over the plot
when the chart stands in a stack of panels that share their categories), one column a series (the name the
legend sets beside a key of the bar's colour). Read as text instead, its values fall into a lattice of empty
cells and its categories into a row of their own ("50% 43% 36% ..." far from "Complying with evolving tax laws
..."). Only charts whose bars carry their values are read so (`LABELLED`): from a plot without printed values
the bars' heights would have to be measured against the axis, which this reader does not do; such a chart's
text stays as it was.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from statistics import median

from engine.readers.layout import Line

FILL_OP_RE = re.compile(rb"\s(?:f\*?|B\*?|b\*?)\s")  # a content stream's operators that fill a path
VALUE_RE = re.compile(r"^[-−–+]?\(?[$€£¥]?\s?\d[\d,]*(?:\.\d+)?\s?(?:%|pp|bn|[kKmMbBx])?\)?\*?$")
MIN_BARS = 3  # bars on one baseline, at least, that make a chart
LABELLED = 0.75  # share of its bars (or stacked parts) a chart prints the value of, at least
EDGE = 1.5  # points: bars whose sides, bottoms or stacked ends lie this close are aligned
WIDTHS = 0.2  # a chart's bars differ in width by at most this share of their median width
SWATCH = 14.0  # points: a legend's colour key is at most this wide and tall
WHITE = 0.97  # a fill this light in every component is the page's background, not a bar
ABOVE = 1.5  # line heights: a value printed over its bar stands at most this far above the bar's top
UNDER = 2.5  # line heights: a category's first line starts at most this far under the baseline
STACKED = 0.8  # line heights: the gap, at most, between two lines of one category's label
CUT = 0.5  # line heights: a gap this wide inside a line under a chart parts two labels' lines
AGREE = 0.9  # share of a chart's pairs of bars whose lengths are in the order of their values, at least
TIED = 0.5  # points: bars this close in length are as long as one another
MIN_NAMED = 0.5  # share of a chart's bars whose category is found, at least (fewer: its text stays as it was)


@dataclass(slots=True)
class Bar:
    x0: float
    y0: float
    x1: float
    y1: float
    fill: tuple[float, ...]


@dataclass(slots=True)
class Column:
    """A bar, or bars stacked on one another, bottom first."""

    parts: list[Bar]

    @property
    def x0(self) -> float:
        return self.parts[0].x0

    @property
    def x1(self) -> float:
        return self.parts[0].x1

    @property
    def base(self) -> float:
        return self.parts[0].y1

    @property
    def top(self) -> float:
        return self.parts[-1].y0

    @property
    def middle(self) -> float:
        return (self.x0 + self.x1) / 2


@dataclass(slots=True)
class Chart:
    """A chart read as a table: `rows` its header (an empty cell, then each series' name when the legend gives
    it) and one row per category (the category's lines, then each series' value line); `top` where it is read."""

    rows: list[list[list[Line]]]
    top: float
    x0: float
    x1: float
    plots: list[tuple[float, float, float, float]]  # the bars' bounds (x0, y0, x1, y1), a panel each

    def covers(self, box: tuple[float, float, float, float]) -> bool:
        """Whether most of a box (a lattice the bars' edges draw) lies on a plot."""
        x0, y0, x1, y1 = box
        return any(max(0.0, min(x1, px1) - max(x0, px0)) * max(0.0, min(y1, py1) - max(y0, py0))
                   >= 0.5 * max(1e-6, (x1 - x0) * (y1 - y0)) for px0, py0, px1, py1 in self.plots)


@dataclass(slots=True)
class _Found:
    columns: list[Column]
    values: dict[tuple[int, int], Line] = field(default_factory=dict)  # (column, part) -> its value's line
    categories: dict[int, list[Line]] = field(default_factory=dict)  # column -> its category's lines
    names: dict[tuple[float, ...], Line] = field(default_factory=dict)  # a fill -> its series' name in the legend
    ticks: list[Line] = field(default_factory=list)  # the value axis's labels

    @property
    def top(self) -> float:
        return min([c.top for c in self.columns] + [l.y0 for l in self.values.values()])

    @property
    def base(self) -> float:
        return max(c.base for c in self.columns)


def bars(drawings: list[dict], width: float) -> list[Bar]:
    """The page's filled rectangles that may be bars (or legend keys): not white, not wider than a fifth of
    the page (a panel's background), not a hairline."""
    found = []
    for d in drawings:
        fill = d.get("fill")
        items = d.get("items") or []
        if fill is None or not _boxed(items) or d.get("fill_opacity", 1.0) == 0:
            continue
        if all(c >= WHITE for c in fill):
            continue
        x0, y0, x1, y1 = d["rect"]
        if 1.0 <= x1 - x0 <= width / 5 and y1 - y0 >= 0.5:
            found.append(Bar(x0, y0, x1, y1, tuple(round(c, 2) for c in fill)))
    return found


def _boxed(items: list) -> bool:
    """Whether a path's items draw one upright rectangle: a rectangle, or three or four strokes each level or
    upright."""
    if len(items) == 1:
        return items[0][0] == "re"
    return 3 <= len(items) <= 4 and all(item[0] == "l" and (abs(item[1][0] - item[2][0]) < 0.01 or abs(
        item[1][1] - item[2][1]) < 0.01) for item in items)


def columns(found: list[Bar]) -> list[Column]:
    """Bars stacked on one another (same sides, one's bottom at the other's top) as one column each."""
    out: list[Column] = []
    at: dict[int, list[Column]] = {}  # (columns by their left side, to the point)
    for bar in sorted(found, key=lambda b: -b.y1):
        near = [c for x in (round(bar.x0) - 1, round(bar.x0), round(bar.x0) + 1) for c in at.get(x, ())]
        for column in near:
            if abs(column.x0 - bar.x0) <= EDGE and abs(column.x1 - bar.x1) <= EDGE and abs(column.top - bar.y1) <= EDGE:
                column.parts.append(bar)
                break
        else:
            out.append(Column([bar]))
            at.setdefault(round(bar.x0), []).append(out[-1])
    return out


def plots(found: list[Column]) -> list[list[Column]]:
    """Columns standing on one baseline, of one width, side by side: a column chart's bars (left to right)."""
    groups: list[list[Column]] = []
    for column in sorted(found, key=lambda c: (c.base, c.x0)):
        for group in groups:
            if abs(group[0].base - column.base) <= EDGE:
                group.append(column)
                break
        else:
            groups.append([column])
    out = []
    for group in groups:
        group.sort(key=lambda c: c.x0)
        widths = [c.x1 - c.x0 for c in group]
        typical = median(widths)
        group = [c for c, w in zip(group, widths) if abs(w - typical) <= WIDTHS * typical]
        if len(group) >= MIN_BARS and all(a.x1 <= b.x0 + EDGE for a, b in zip(group, group[1:])):
            out.append(group)
    return out


def _pitch(columns: list[Column]) -> float:
    """The typical distance between the middles of neighbouring bars."""
    return median(b.middle - a.middle for a, b in zip(columns, columns[1:]))


def _middle(line: Line) -> tuple[float, float]:
    return (line.x0 + line.x1) / 2, (line.y0 + line.y1) / 2


def _value_of(bar: Bar, line: Line, top: bool) -> float | None:
    """How far a value line stands from where a bar's value is printed (inside it, or over it when `top`),
    None when it is not there."""
    x, y = _middle(line)
    if not bar.x0 - EDGE <= x <= bar.x1 + EDGE:
        return None
    if bar.y0 <= y <= bar.y1:
        return 0.0
    if top and bar.y0 - ABOVE * line.height <= line.y1 <= bar.y0 + EDGE:
        return bar.y0 - line.y1 + 1.0
    return None


def _values(chart: _Found, lines: list[Line], taken: set[int]) -> None:
    """Each bar's (or stacked part's) value: the value line inside it, or over the top part."""
    x0, x1 = chart.columns[0].x0 - EDGE, chart.columns[-1].x1 + EDGE
    candidates = [k for k, line in enumerate(lines) if k not in taken and line.x1 > x0 and line.x0 < x1
                  and VALUE_RE.match(line.text.strip())]
    for c, column in enumerate(chart.columns):
        for p, bar in enumerate(column.parts):
            scored = [(d, k) for k in candidates if k not in taken
                      and (d := _value_of(bar, lines[k], p == len(column.parts) - 1)) is not None]
            if scored:
                k = min(scored)[1]
                chart.values[(c, p)] = lines[k]
                taken.add(k)


def number(text: str) -> float | None:
    """A printed value as a number ("43%" 43, "(1.2)" -1.2, "$1,250" 1250), None when it is none."""
    digits = re.sub(r"[^\d.]", "", text)
    try:
        value = float(digits.rstrip("."))
    except ValueError:
        return None
    return -value if text.strip().startswith(("(", "-", "−", "–")) else value


def proportional(chart: _Found) -> bool:
    """Whether the bars are as long as the values printed on them say: of every two bars (or stacked parts) with
    different values, the larger value's is the longer (`AGREE` of the pairs at least). A table whose cells are
    shaded also sets its values in filled boxes on one line, but boxes of one height."""
    sized = [(bar.y1 - bar.y0, v) for (c, p), line in chart.values.items()
             if (v := number(line.text)) is not None for bar in [chart.columns[c].parts[p]]]
    pairs = agree = 0
    for i, (h, v) in enumerate(sized):
        for g, w in sized[i + 1:]:
            if v != w:
                pairs += 1
                agree += (h - g) * (v - w) > 0 and abs(h - g) > TIED
    return pairs > 0 and agree >= AGREE * pairs


def _zeros(chart: _Found, lines: list[Line], taken: set[int]) -> None:
    """Bars of no height (a value of 0, drawn as nothing): a value line standing on the baseline where the
    chart's spacing puts a bar that is not drawn, in a chart of one colour."""
    fills = {bar.fill for column in chart.columns for bar in column.parts}
    if len(fills) != 1:
        return
    first, width = chart.columns[0], chart.columns[0].x1 - chart.columns[0].x0
    pitch = _pitch(chart.columns)
    values = {(id(chart.columns[c]), p): line for (c, p), line in chart.values.items()}
    for k, line in enumerate(lines):
        x = _middle(line)[0]
        slot = round((x - first.middle) / pitch)
        if k in taken or not VALUE_RE.match(line.text.strip()) or abs(x - first.middle - slot * pitch) > pitch / 4 \
                or not chart.base - ABOVE * line.height <= line.y1 <= chart.base + EDGE or line.y0 >= chart.base \
                or any(abs(c.middle - x) <= pitch / 2 for c in chart.columns):
            continue
        column = Column([Bar(x - width / 2, chart.base, x + width / 2, chart.base, next(iter(fills)))])
        chart.columns.append(column)
        values[(id(column), 0)] = line
        taken.add(k)
    chart.columns.sort(key=lambda c: c.x0)
    chart.values = {(c, p): values[(id(column), p)] for c, column in enumerate(chart.columns)
                    for p in range(len(column.parts)) if (id(column), p) in values}


def _categories(chart: _Found, lines: list[Line], taken: set[int], *, above: bool = False) -> None:
    """Each bar's category: the lines stacked in its column under the baseline (`above`: over the plot)."""
    slots = _slots(chart)
    middles = [(chart.columns[s[0]].x0 + chart.columns[s[-1]].x1) / 2 for s in slots]
    pitch = median(b - a for a, b in zip(middles, middles[1:])) if len(middles) > 1 else chart.base - chart.top
    edge = chart.top if above else chart.base
    left, right = chart.columns[0].x0, chart.columns[-1].x1
    ceiling = max([l.y1 for l in lines if l.x1 - l.x0 > 1.2 * pitch and l.x0 < right and l.x1 > left
                   and l.y1 <= edge], default=0.0)  # (labels over a plot stand under its title)
    for slot, middle in zip(slots, middles):
        near = [(k, line) for k, line in enumerate(lines) if k not in taken and line.x1 - line.x0 <= 1.2 * pitch
                and abs(_middle(line)[0] - middle) <= pitch / 2
                and (line.y1 <= edge + EDGE if above else line.y0 >= edge - EDGE)]
        near.sort(key=lambda kl: -kl[1].y1 if above else kl[1].y0)
        if not near:
            continue
        first = near[0][1]
        if first.y0 < ceiling if above else first.y0 - edge > UNDER * first.height:
            continue
        stack = [near[0]]
        for k, line in near[1:]:
            last = stack[-1][1]
            gap = last.y0 - line.y1 if above else line.y0 - last.y1
            if gap > STACKED * last.height:
                break
            stack.append((k, line))
        if above:
            stack.reverse()
        for c in slot:
            chart.categories[c] = [line for _, line in stack]
        taken.update(k for k, _ in stack)


def _slots(chart: _Found) -> list[list[int]]:
    """The chart's bars grouped under their categories: bars of different colours standing side by side,
    touching, are one category's (a grouped chart's series); any other bar is a category of its own."""
    slots: list[list[int]] = []
    for c, column in enumerate(chart.columns):
        if slots and column.x0 - chart.columns[slots[-1][-1]].x1 <= EDGE \
                and column.parts[0].fill not in {chart.columns[j].parts[0].fill for j in slots[-1]}:
            slots[-1].append(c)
        else:
            slots.append([c])
    return slots


def _ticks(chart: _Found, lines: list[Line], taken: set[int]) -> None:
    """The value axis's labels left of the plot (numbers right-aligned in a column over its height): no
    category's or series' name (they stay on the page as text, as they were read)."""
    left = chart.columns[0].x0
    ticks = [k for k, line in enumerate(lines) if k not in taken and VALUE_RE.match(line.text.strip())
             and left - 8 * line.height <= line.x1 <= left + EDGE
             and 2 * chart.top - chart.base - line.height <= _middle(line)[1] <= chart.base + line.height]
    aligned = [k for k in ticks if sum(abs(lines[j].x1 - lines[k].x1) <= 2 * EDGE for j in ticks) >= 2]
    chart.ticks = [lines[k] for k in aligned]
    taken.update(aligned)


def _legend(chart: _Found, keys: list[Bar], lines: list[Line], taken: set[int]) -> None:
    """Each series' name: the line beside the legend's key of its colour nearest the chart."""
    for fill in dict.fromkeys(bar.fill for column in chart.columns for bar in column.parts):
        named = []
        for key in keys:
            if max(abs(a - b) for a, b in zip(key.fill, fill)) > 0.02:
                continue
            middle = (key.y0 + key.y1) / 2
            for k, line in enumerate(lines):
                if k not in taken and key.x1 - EDGE <= line.x0 <= key.x1 + 1.5 * line.height \
                        and abs(_middle(line)[1] - middle) <= max(line.height / 2, key.y1 - key.y0):
                    distance = max(0.0, key.y0 - chart.base, chart.top - key.y1)
                    named.append((distance, k))
        if named:
            k = min(named)[1]
            chart.names[fill] = lines[k]
            taken.add(k)


def find_charts(drawings: list[dict], lines: list[Line], width: float,
                words_of_page: Callable[[], list] | None = None) -> tuple[list[Chart], list[Line]]:
    """The column charts of a page that print their values, as tables, and the page's lines without theirs
    (`words_of_page`: returns `page.get_text("words")`, to cut lines that run across two labels)."""
    found = bars(drawings, width)
    stood = plots(columns(found))
    if not stood:
        return [], lines
    in_bars = {id(bar) for group in stood for column in group for bar in column.parts}
    keys = [b for b in found if id(b) not in in_bars and b.x1 - b.x0 <= SWATCH and b.y1 - b.y0 <= SWATCH]
    stood = [group for group in stood if _may_print_values(group, lines)]
    if not stood:
        return [], lines
    pieces: dict[int, Line] = {}
    if words_of_page is not None:
        lines, pieces = _split_labels(lines, [_Found(group) for group in stood], words_of_page())
    taken: set[int] = set()
    charts = []
    for group in stood:
        chart = _Found(group)
        tried = set(taken)
        _values(chart, lines, tried)
        _zeros(chart, lines, tried)
        parts = sum(len(c.parts) for c in group)
        if len(chart.values) >= LABELLED * parts and proportional(chart):
            charts.append(chart)
            taken = tried
    charts.sort(key=lambda c: c.base)
    for chart in charts:
        _ticks(chart, lines, taken)
        _legend(chart, keys, lines, taken)
    for chart in charts:
        _categories(chart, lines, taken)
    for chart in charts:
        if len(chart.categories) < MIN_NAMED * len(chart.columns):
            _share_categories(chart, charts, lines, taken)
    kept = []
    for chart in charts:
        if len(chart.categories) < MIN_NAMED * len(chart.columns):  # its text stays as it was
            own = {id(line) for line in [*chart.values.values(), *chart.names.values()]}
            taken -= {k for k, line in enumerate(lines) if id(line) in own}
        else:
            kept.append(chart)
    ticks = {id(line) for chart in charts for line in chart.ticks}  # (kept out of the categories, then given back)
    taken -= {k for k, line in enumerate(lines) if id(line) in ticks}
    if not kept:
        return [], _whole(lines, set(), pieces)
    return [_table(stack) for stack in _stacks(kept)], _whole(lines, taken, pieces)


def _may_print_values(group: list[Column], lines: list[Line]) -> bool:
    """Whether enough values (words of value lines) stand over the bars' span to label `LABELLED` of them."""
    x0, x1 = group[0].x0 - EDGE, group[-1].x1 + EDGE
    top, base = min(c.top for c in group), max(c.base for c in group)
    words = sum(len(line.text.split()) for line in lines if line.x1 > x0 and line.x0 < x1
                and top - ABOVE * line.height <= line.y1 and line.y0 <= base
                and all(VALUE_RE.match(t) for t in line.text.split()))
    return words >= LABELLED * sum(len(c.parts) for c in group)


def _split_labels(lines: list[Line], charts: list[_Found], words: list) -> tuple[list[Line], dict[int, Line]]:
    """The page's lines with those that run across the columns of a chart's labels (two labels' lines on one
    baseline, read as one line) cut at their wide gaps (`CUT`), and lines of values over its bars cut at each
    word; and each piece's line."""
    out: list[Line] = []
    pieces: dict[int, Line] = {}  # id of a piece -> the line it was cut from
    for line in lines:
        cut = None
        tokens = line.text.split()
        for chart in charts:
            pitch = _pitch(chart.columns)
            if line.x0 >= chart.columns[-1].x1 or line.x1 <= chart.columns[0].x0:
                continue
            if len(tokens) > 1 and all(VALUE_RE.match(t) for t in tokens) \
                    and chart.top - ABOVE * line.height <= line.y1 and line.y0 <= chart.base:
                cut = _cut(line, words, 0.0)  # (the values of bars side by side, read as one line)
                break
            if line.x1 - line.x0 > 1.2 * pitch and (line.y0 >= chart.base - EDGE or line.y1 <= chart.top + EDGE):
                cut = _cut(line, words, CUT)
                break
        if cut is None or len(cut) < 2:
            out.append(line)
            continue
        for piece in cut:
            pieces[id(piece)] = line
        out.extend(cut)
    return out, pieces


def _cut(line: Line, words: list, gap: float) -> list[Line]:
    """A line cut where its words stand apart by more than `gap` line heights (a word space is a quarter)."""
    inside = sorted((w for w in words if line.x0 - 1 <= (w[0] + w[2]) / 2 <= line.x1 + 1
                     and line.y0 - 1 <= (w[1] + w[3]) / 2 <= line.y1 + 1), key=lambda w: w[0])
    runs: list[list] = []
    for w in inside:
        if runs and w[0] - runs[-1][-1][2] <= gap * line.height:
            runs[-1].append(w)
        else:
            runs.append([w])
    return [replace(line, text=" ".join(w[4] for w in run), x0=run[0][0], x1=run[-1][2],
                    y0=min(w[1] for w in run), y1=max(w[3] for w in run)) for run in runs]


def _whole(lines: list[Line], taken: set[int], pieces: dict[int, Line]) -> list[Line]:
    """The lines not taken, a cut line whole again where none of its pieces was taken."""
    used = {id(pieces[id(line)]) for k, line in enumerate(lines) if k in taken and id(line) in pieces}
    out: list[Line] = []
    for k, line in enumerate(lines):
        if k in taken:
            continue
        origin = pieces.get(id(line))
        if origin is None or id(origin) in used:
            out.append(line)
        elif not out or out[-1] is not origin:
            out.append(origin)
    return out


def _aligned(a: _Found, b: _Found) -> dict[int, int]:
    """The columns of `a` that stand where a column of `b` stands: a's index -> b's."""
    return {i: j for i, x in enumerate(a.columns) for j, y in enumerate(b.columns)
            if abs(x.middle - y.middle) <= 2 * EDGE}


def _share_categories(chart: _Found, charts: list[_Found], lines: list[Line], taken: set[int]) -> None:
    """A chart in a stack of panels whose bars stand at the same places: the categories named under another
    panel, or over the topmost one, are its own too."""
    stack = [c for c in charts if len(_aligned(chart, c)) >= MIN_NAMED * len(chart.columns)]
    named = [c for c in stack if len(c.categories) >= MIN_NAMED * len(c.columns)]
    if not named:
        highest = min(stack, key=lambda c: c.top)
        _categories(highest, lines, taken, above=True)
        if len(highest.categories) < MIN_NAMED * len(highest.columns):
            return
        named = [highest]
    for c in stack:
        if len(c.categories) < MIN_NAMED * len(c.columns):
            source = named[0]
            c.categories = {i: source.categories[j] for i, j in _aligned(c, source).items() if j in source.categories}


def _table(stack: list[_Found]) -> Chart:
    """Charts that share their categories (a chart, or a stack of panels) as one table: a header naming each
    series (from the legend; a panel's own key names its one series), then a category and its values a row;
    side-by-side bars under one category make one row."""
    series = [(id(chart), chart, fill) for chart in stack
              for fill in dict.fromkeys(bar.fill for column in chart.columns for bar in column.parts)]
    rows: list[list[list[Line]]] = [[[]] + [[chart.names[f]] if f in chart.names else [] for _, chart, f in series]]
    column_of = {(key, f): 1 + k for k, (key, _, f) in enumerate(series)}  # (a chart by identity, a fill) -> column
    index: dict[tuple[int, ...], int] = {}
    for chart in stack:
        for c, column in enumerate(chart.columns):
            category = chart.categories.get(c, [])
            key = tuple(id(line) for line in category) or (-id(column),)
            if key not in index:
                index[key] = len(rows)
                rows.append([category] + [[] for _ in series])
            row = rows[index[key]]
            for p, bar in enumerate(column.parts):
                value = chart.values.get((c, p))
                at = column_of[(id(chart), bar.fill)]
                if value is not None and not row[at]:
                    row[at] = [value]
    every = [line for row in rows for cell in row for line in cell]
    plots = [(chart.columns[0].x0, min(c.top for c in chart.columns), chart.columns[-1].x1, chart.base)
             for chart in stack]
    return Chart(rows, min(line.y0 for line in every), min(line.x0 for line in every), max(line.x1 for line in every),
                 plots)


def _stacks(charts: list[_Found]) -> list[list[_Found]]:
    """The charts grouped where they share a category's lines (panels stacked under one row of categories)."""
    stacks: list[list[_Found]] = []
    for chart in charts:
        own = {id(line) for lines in chart.categories.values() for line in lines}
        for stack in stacks:
            if own & {id(line) for other in stack for lines in other.categories.values() for line in lines}:
                stack.append(chart)
                break
        else:
            stacks.append([chart])
    return stacks


def read_charts(page, lines: list[Line], drawings_of_page: Callable[[], list[dict]],
                words_of_page: Callable[[], list] | None = None) -> tuple[list[Chart], list[Line]]:
    """`find_charts` on a PyMuPDF page; its drawings are read only when enough of its lines are values."""
    if sum(1 for line in lines if VALUE_RE.match(line.text.strip())) < LABELLED * MIN_BARS:
        return [], lines
    try:
        if len(FILL_OP_RE.findall(page.read_contents())) < MIN_BARS:
            return [], lines
        drawings = drawings_of_page()
    except Exception:  # (a damaged content stream: no bars, the page is read as text)
        return [], lines
    return find_charts(drawings, lines, page.rect.width, words_of_page)
