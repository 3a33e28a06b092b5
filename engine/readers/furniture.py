"""Running headers, footers and page numbers: lines that repeat in the page margins."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import replace
from statistics import median

from engine.readers.layout import Line, PageLayout
from engine.readers.reading_order import margin_notes, same_row
from engine.text import SECTION_WORDS

MARGIN = 0.1  # top/bottom share of the page height where furniture lives
LARGE = 1.15  # of the body size: margin text set larger may be a slide's title, not furniture
LARGE_MARK = "^"  # before the key of margin text set larger that repeats (told apart from the small text's keys)
PAGE_NUMBER_RE = re.compile(
    r"^(?:page\s*)?[-–—]?\s*(?:\d{1,4}|[ivxlc]{1,6})\s*[-–—]?(?:\s*(?:of|/)\s*\d{1,4})?$", re.I
)
_DIGITS = re.compile(r"\d+")


def furniture_key(text: str) -> str:
    """A margin line as furniture is told by: in lower case, whitespace collapsed, its numbers alike ("Page 3" is
    "Page 4")."""
    return _DIGITS.sub("#", " ".join(text.lower().split()))


def _in_margin(page: PageLayout, line: Line) -> bool:
    return line.y1 <= page.height * MARGIN + 2 or line.y0 >= page.height * (1 - MARGIN) - 2


def _margin_lines(page: PageLayout, edges: bool = True) -> list[Line]:
    """The lines in the top and bottom margins, and (`edges`) in a row set apart there (see `_edge_rows`), but for
    the head of a table's columns (`column_heads`)."""
    edge = _edge_rows(page) if edges else set()
    heads = column_heads(page)
    return [l for l in page.lines if (_in_margin(page, l) or id(l) in edge) and id(l) not in heads]


EDGE = 0.2  # top/bottom share of the page height where a row set apart from the text may be a header or footer


def _edge_rows(page: PageLayout) -> set[int]:
    """ids of the top and the bottom row of a page when each stands apart from the rest of the text (a gap of
    a line's height or more) within the outer fifth of the page, set no larger than the text: a running header
    below a wide top margin.
    Whether it is furniture is still decided by its repeating from page to page."""
    lines = [l for l in page.lines if not l.vertical]
    if len(lines) < 3:
        return set()
    found: set[int] = set()
    for edge, at_top in ((min(lines, key=lambda l: l.y0), True), (max(lines, key=lambda l: l.y1), False)):
        row = [l for l in lines if same_row(l, edge)]
        rest = [l for l in lines if not same_row(l, edge)]
        size = max(l.size for l in row)
        top, bottom = min(l.y0 for l in row), max(l.y1 for l in row)
        if not rest or size > LARGE * max(median(o.size for o in rest), _text_size(rest)) \
                or not all(o.y0 - bottom >= size or top - o.y1 >= size for o in rest):
            continue  # (a heading set large atop the text is no header)
        if (bottom <= page.height * EDGE) if at_top else (top >= page.height * (1 - EDGE)):
            found |= {id(l) for l in row}
    return found


def _text_size(lines: list[Line]) -> float:
    """The size most of the lines' characters are set in (a figure's many short labels, set small, weigh less than
    the page's paragraphs; a table's many cells, set small, weigh more than their lines' count)."""
    sizes: Counter[float] = Counter()
    for line in lines:
        sizes[line.size] += len(line.text)
    return sizes.most_common(1)[0][0]


def page_margins(pages: list[PageLayout]) -> list[list[Line]]:
    """Each page's margin lines (see `_margin_lines`), read once for `find_furniture` and `strip_furniture`."""
    return [_margin_lines(page) for page in pages]


def find_furniture(pages: list[PageLayout], body_size: float, margins: list[list[Line]] | None = None) -> set[str]:
    """Normalised texts of running headers/footers (digits fuzzed) repeated on many pages (`margins`: each page's
    `_margin_lines`, when read already)."""
    if len(pages) < 3:
        return set()
    small: Counter[str] = Counter()
    exact: Counter[str] = Counter()
    large: Counter[str] = Counter()
    sided: dict[str, set[int]] = {}  # large margin text (digits fuzzed): the pages it stands on
    bands = text_bands(pages)
    margins = margins or page_margins(pages)  # (read once: the detectors below ask for them too)
    for number, margin in enumerate(margins):
        for line in margin:
            if line.size > body_size * LARGE:
                sided.setdefault(furniture_key(line.text), set()).add(number)
        small.update({furniture_key(l.text) for l in margin if l.size <= body_size * LARGE and not _in_bands(l, bands)})
        exact.update({" ".join(l.text.lower().split()) for l in margin if l.size <= body_size * LARGE})
        # large margin text may be a slide title repeated on a few slides: only exact, frequent repeats
        large.update({" ".join(l.text.lower().split()) for l in margin if l.size > body_size * LARGE})
    threshold = max(3, int(0.25 * len(pages)))
    found = {key for key, n in small.items() if n >= threshold and key.strip("# ")}
    # the same number on every page is no page number (a version or a date stamp)
    found |= {text for text, n in exact.items() if n >= threshold and not PAGE_NUMBER_RE.match(text)}
    # (large text's keys are marked apart: a title set large on the first page is no header for reading like the
    # small running head that repeats it on every page, "CD-HIT User's Guide")
    found |= {LARGE_MARK + key for key, n in large.items() if n >= max(3, 0.5 * len(pages))}
    found |= {LARGE_MARK + key for key, on in sided.items() if key.strip("# ") and _every_other(on, len(pages))}
    return found | running_by_section(pages, body_size, margins) | echoed_headings(pages, body_size, margins) \
        | side_notes(pages) | stacked_heads(pages) | paged_heads(pages, body_size, margins) \
        | side_bars(pages, body_size)


PROSE_WORDS = 8  # words of a line of running text (with PROSE_CHARS characters)
PROSE_CHARS = 50
TEXT_BAND_PAGES = 2  # pages on which running text stands in a band of the margin that make it the text's


def text_bands(pages: list[PageLayout]) -> set[int]:
    """The heights (`BAND`s) where a page's top or bottom line is a line of running text on two pages or more, each
    text found on one page only: the text block itself begins or ends there (a word processor's page that sets
    no running head), so a short line there on other pages is the text's first or last line (a heading set like
    the text, "Article 6" atop its page), not furniture, though its words repeat with other numbers."""
    on: dict[int, set[int]] = {}
    ends: list[tuple[int, Line]] = []
    for page in pages:
        lines = [l for l in page.lines if not l.vertical]
        if lines:
            ends += [(page.number, min(lines, key=lambda l: l.y0)), (page.number, max(lines, key=lambda l: l.y1))]
    seen = Counter(furniture_key(line.text) for _, line in ends)
    for number, line in ends:
        if len(line.text.split()) >= PROSE_WORDS and len(line.text) >= PROSE_CHARS \
                and seen[furniture_key(line.text)] == 1:
            on.setdefault(round(line.y0 / BAND), set()).add(number)
    return {band for band, numbers in on.items() if len(numbers) >= TEXT_BAND_PAGES}


def _in_bands(line: Line, bands: set[int]) -> bool:
    band = round(line.y0 / BAND)
    return bool(bands) and any(b in bands for b in (band - 1, band, band + 1))


def _below_top(page: PageLayout, line: Line) -> bool:
    """Whether a line may be a running header's second row: it starts in the top margin and reaches below it (set
    large), or it stands in the top fifth of the page with nothing but margin text above it (the short title and
    the part number in a row under "Philips Semiconductors | Product specification").
    Whether it is furniture is still decided by its repeating, at the same height, from page to page."""
    if line.vertical or _in_margin(page, line):
        return False
    if line.y0 <= page.height * MARGIN:
        return True
    return line.y1 <= page.height * EDGE and any(_in_margin(page, o) for o in page.lines if o is not line) \
        and all(_in_margin(page, o) for o in page.lines if o is not line and o.y1 <= line.y0 + 1)


HEAD_CELLS = 3  # lines side by side in a row that heads a table's columns, at the least
HEAD_ALIGN = 2.0  # points: a column head's left edge and its column's cells' edges
HEADS_ALIGNED = 2  # a row's lines flush left with cells of the rows below it, at the least, to head a table
HEAD_REACH = 15  # line heights under the row within which its columns' cells are looked for


def column_heads(page: PageLayout) -> set[int]:
    """ids of the lines of the page's first row of text (but for margin text above it) when it stands in the top
    fifth of the page and heads a table's columns: HEAD_CELLS lines side by side or more, HEADS_ALIGNED of them flush
    left with cells (lines with another beside them) of the rows below.
    A table continued from the page before repeats its head at the top of each page, where a running header would
    stand: it repeats at the same height, but it is the table's, not furniture (a word processor's feature chart
    over several pages, "Feature Name | Feature ID | Feature Setting | …")."""
    lines = [l for l in page.lines if not l.vertical]
    found: set[int] = set()
    for line in lines:
        if line.y1 > page.height * EDGE or id(line) in found:
            continue
        row = [o for o in lines if same_row(o, line)]
        top, bottom = min(o.y0 for o in row), max(o.y1 for o in row)
        if len(row) < HEAD_CELLS or any(o.y1 <= top + 1 and not _in_margin(page, o) for o in lines):
            continue  # (the page's first row of text, but for margin text above it)
        below = [o for o in lines if bottom - 1 <= o.y0 <= bottom + HEAD_REACH * o.size and not same_row(o, line)]
        cells = [o for o in below if any(p is not o and same_row(p, o) for p in below)]
        lefts = {round(r.x0) for r in row if any(abs(c.x0 - r.x0) <= HEAD_ALIGN for c in cells)}
        if len(lefts) >= HEADS_ALIGNED:
            found |= {id(o) for o in row}
    return found


def _head_key(text: str, y0: float, band: int | None = None) -> str:
    return f"|head|{_band_key(text, y0, band)}"


def stacked_heads(pages: list[PageLayout]) -> set[str]:
    """Keys of the lines of a running header stacked over two rows, the second below the top margin (see
    `_below_top`: "Guidelines Version 2.2020" over the short title, both set large): the same text at the same
    height on half the pages or more (three at least). Keys carry the height, so a heading that reads the same elsewhere
    stays."""
    if len(pages) < 3:
        return set()
    seen: Counter[str] = Counter()
    for page in pages:
        heads = column_heads(page)
        seen.update({_head_key(l.text, l.y0) for l in page.lines if _below_top(page, l) and id(l) not in heads})
    return {key for key, n in seen.items() if n >= max(3, 0.5 * len(pages))}


def _every_other(on: set[int], pages: int) -> bool:
    """Pages (0-based) that are every other page of the document after its first: a running header set
    larger than the text that alternates, the author's name over the left-hand pages and the short title over
    the right-hand ones (a slide's title repeats on a run of pages, not on every second one)."""
    side = [n for n in range(1, pages) if n % 2 == min(on) % 2]
    return len(on) >= 3 and all(n % 2 == min(on) % 2 for n in on) and len(on) >= ALTERNATE * len(side)


ALTERNATE = 0.8  # of the pages of one side that carry an alternating running header


def _side_key(text: str) -> str:
    return f"|side|{' '.join(text.lower().split())}"


def side_notes(pages: list[PageLayout]) -> set[str]:
    """Keys of the texts written up or down a side margin on three pages or more ("DRAFT", a notice): on a page
    turned sideways, where every line runs up or down and no margin can be told, they are furniture too; so is a
    text set aslant across the page (a watermark) wherever it stands."""
    seen: Counter[str] = Counter()
    for page in pages:
        notes = margin_notes(page.lines) | _outer_vertical(page.lines) | {id(l) for l in page.lines if l.slanted}
        seen.update({_side_key(l.text) for l in page.lines if id(l) in notes})
    return {key for key, n in seen.items() if n >= RUNNING_MIN_PAGES}


def _outer_vertical(lines: list[Line]) -> set[int]:
    """ids of the lines running up or down a page turned sideways (every line does) beyond all the others."""
    if not lines or not all(l.vertical for l in lines):
        return set()
    if len(lines) < 2:
        return set()
    starts, ends = sorted(l.x0 for l in lines), sorted(l.x1 for l in lines)
    found: set[int] = set()
    for line in lines:
        left = starts[1] if line.x0 == starts[0] else starts[0]  # (the others' leftmost start, rightmost end)
        right = ends[-2] if line.x1 == ends[-1] else ends[-1]
        if line.x1 <= left + 1 or line.x0 >= right - 1:
            found.add(id(line))
    return found


SIDE = 0.25  # the outer share of the page's width where a side bar stands (a slide theme's title and author)
BAR_SIZE = 0.9  # of the body size: a side bar's text is set smaller than the text beside it
BAR_SHARE = 0.5  # of the pages a side bar's line repeats on, at the least (and on RUNNING_MIN_PAGES)


BAR_MARK = "|bar|"  # before the key of a side bar's line


def _bar_key(text: str, x0: float, band: int | None = None) -> str:
    return BAR_MARK + _band_key(text, x0, band)


def _under_head(line: Line, head: Line) -> bool:
    """The line is a column head or a line of its wrapped text: in its column, at most a line's height under it."""
    return line is head or (line.x0 < head.x1 and head.x0 < line.x1 and 0 <= line.y0 - head.y1 <= head.y1 - head.y0)


def _at_side(page: PageLayout, line: Line, body_size: float) -> bool:
    """Small text in the outer quarter of the page's width: where a side bar's lines stand."""
    return line.size < BAR_SIZE * body_size and (line.x0 >= (1 - SIDE) * page.width or line.x1 <= SIDE * page.width)


def side_bars(pages: list[PageLayout], body_size: float) -> set[str]:
    """Keys of the lines of a side bar: small text in the outer quarter of the page's width, beyond every other line
    of the page (none reaches into its column), between the top and bottom margins, that repeats at the same place on
    half the pages or more (a slide theme's bar naming the talk and its author beside every slide's text: read in the
    text's rows, it made each slide a table of two columns)."""
    if len(pages) < RUNNING_MIN_PAGES:
        return set()
    seen: Counter[str] = Counter()
    for page in pages:
        lines = [l for l in page.lines if not (l.vertical or l.slanted or _in_margin(page, l))]
        if not any(_at_side(page, l, body_size) for l in lines):
            continue
        head_ids = column_heads(page)  # (a table's heads repeated over its columns on every page, their wrapped
        heads = [l for l in page.lines if id(l) in head_ids]  # lines too, are no bar)
        lines = [l for l in lines if not any(_under_head(l, h) for h in heads)]
        small = {id(l) for l in lines if _at_side(page, l, body_size)}
        rest = [l for l in lines if id(l) not in small]
        if not small or not rest:
            continue
        left, right = min(l.x0 for l in rest), max(l.x1 for l in rest)
        seen.update({_bar_key(l.text, l.x0) for l in lines if id(l) in small and (l.x0 >= right or l.x1 <= left)})
    return {key for key, n in seen.items() if n >= max(RUNNING_MIN_PAGES, BAR_SHARE * len(pages))}


ECHO_LABEL_RE = re.compile(rf"^(?:(?:{'|'.join(sorted(SECTION_WORDS))})\s+\w{{1,4}}\b|[\d.]+)", re.I)
HEADING_SIZE = 1.12  # of the body size: a line set this large is a heading's


def _echo_key(text: str) -> str:
    """A heading's words without its label, as a running head repeats them ("1.3. The #include command" and
    "1.3 The #include command", "Chapter 1. Source files format" and "SOURCE FILES FORMAT")."""
    text = unicodedata.normalize("NFKC", text)  # (a ligature: "ﬁles" is "files")
    return " ".join(re.sub(r"[\W_]+", " ", ECHO_LABEL_RE.sub("", text.strip(), count=1)).lower().split())


def _set_apart(line: Line, lines: list[Line]) -> bool:
    """Whether a line stands an em or more above or below every other line not in its row (a running head,
    not a heading at the top of the text)."""
    return all(o is line or same_row(o, line) or o.y0 - line.y1 >= line.size or line.y0 - o.y1 >= line.size
               for o in lines)


def echoed_headings(pages: list[PageLayout], body_size: float, margins: list[list[Line]] | None = None) -> set[str]:
    """Running heads that repeat the title of the chapter or section a page is in (each title on one page or
    two, too few for `running_by_section`): small margin text that reads, without its label, as a heading
    set large in the text of the same or an earlier page (`margins`: each page's `_margin_lines`, when read
    already)."""
    found: set[str] = set()
    heads: dict[str, float] = {}  # a heading's words: the smallest size it is set in
    for page, edged in zip(pages, margins or page_margins(pages)):
        # (the margins' rows set apart aside: a heading atop a page stands apart too, and occurs once)
        margin = [l for l in edged if _in_margin(page, l)]
        for line in page.lines:  # (a heading may stand in the margin's band too, right under the running head)
            if line.size >= HEADING_SIZE * body_size and len(line.text) <= 120:
                key = _echo_key(line.text)
                heads[key] = min(line.size, heads.get(key, line.size))
        for line in margin:
            key = _echo_key(line.text)
            worded = len(key.split()) >= 2 or ECHO_LABEL_RE.match(line.text.strip()) is not None
            if worded and line.size < min(HEADING_SIZE * body_size, heads.get(key, 0.0)) \
                    and _set_apart(line, page.lines):
                found.add(_band_key(line.text, line.y0))  # (set smaller than the heading it repeats)
    return found


RUNNING_MIN_PAGES = 3  # pages a running header of one chapter repeats on
RUNNING_MAX_STEP = 2  # pages between two of its repeats (every page, or every other page of a spread)
BAND = 4.0  # points: the vertical band a running header keeps from page to page


def _near_bands(at: float) -> tuple[int, int, int]:
    """The band of a position (points, in steps of BAND) and the bands either side: a line keeps its place from
    page to page within these."""
    band = round(at / BAND)
    return band - 1, band, band + 1


def _band_key(text: str, y0: float, band: int | None = None) -> str:
    return f"@{round(y0 / BAND) if band is None else band}|{' '.join(text.lower().split())}"


def running_by_section(pages: list[PageLayout], body_size: float,
                       margins: list[list[Line]] | None = None) -> set[str]:
    """Running headers and footers that change with the chapter ("CHAPTER ONE", "Appendix D", "2. Methods"):
    the same small margin text at the same height on at least three pages, each within two pages of the
    last (the steps of one slide counting as one page: `_slides`). Keys carry the height (see `_band_key`), so a
    heading that reads the same elsewhere stays.
    `margins`: each page's `_margin_lines`, when read already."""
    seen: dict[str, list[int]] = {}
    for page, margin in zip(pages, margins or page_margins(pages)):
        for line in margin:
            if line.size <= body_size * LARGE:
                key = _band_key(line.text, line.y0)
                if not seen.get(key) or seen[key][-1] != page.number:
                    seen.setdefault(key, []).append(page.number)
    by_number = {page.number: page for page in pages}
    found: set[str] = set()
    for key, numbers in seen.items():
        runs: list[list[int]] = [numbers[:1]]
        for a, b in zip(numbers, numbers[1:]):
            if b - a <= RUNNING_MAX_STEP:
                runs[-1].append(b)
            else:
                runs.append([b])
        if any(len(run) >= RUNNING_MIN_PAGES and _slides([by_number[n] for n in run], key) >= RUNNING_MIN_PAGES
               for run in runs):
            found.add(key)
    return found


BUILD_SHARE = 0.5  # of a page's other lines that the next page repeats: one slide shown in steps


def _slides(pages: list[PageLayout], key: str) -> int:
    """How many pages of a run differ, a landscape page repeating most of the one before's other lines counting with
    it (one slide shown in steps) when the line they all hold (`key`) is bold: it is the slide's title, set small, not
    a running header, unless it stands over several slides. (A navigation bar's section name, in plain type, is
    furniture over the steps of one slide too; a portrait page repeating the one before, an example's code printed
    twice, is a page of its own.)"""
    texts = [{" ".join(l.text.lower().split()) for l in page.lines if _band_key(l.text, l.y0) != key}
             if page.width > page.height and any(l.bold for l in page.lines if _band_key(l.text, l.y0) == key)
             else set() for page in pages]
    return 1 + sum(1 for a, b in zip(texts, texts[1:])
                   if not (a and b and len(a & b) >= BUILD_SHARE * min(len(a), len(b))))


# a margin line with a number at one end, a space or a bar apart ("2.2 Least-squares Regression 29", "18 1 Title")
NUMBER_FIRST_RE = re.compile(r"^(\d{1,4})\s+(?:[|•·]\s*)?\S")
NUMBER_LAST_RE = re.compile(r"\S(?:\s*[|•·])?\s+(\d{1,4})$")
# a page's code of a numbering by part: a short mark, a hyphen, the number ("PAP-3", "A-5", "3-12")
PAGE_CODE_RE = re.compile(r"^[^\W_]{1,6}\s?[-‐‑–]\s?(\d{1,4})$")


def _end_number(text: str) -> tuple[int, bool] | None:
    """The number at the start or the end of a line of words, or of a page's code, and whether it is a code (a
    bare number is `PAGE_NUMBER_RE`'s)."""
    text = " ".join(text.split())
    if PAGE_NUMBER_RE.match(text):
        return None
    code = PAGE_CODE_RE.match(text)
    if code:
        return int(code.group(1)), True
    match = NUMBER_LAST_RE.search(text) or NUMBER_FIRST_RE.match(text)
    return (int(match.group(1)), False) if match else None


def _row_number(line: Line, margin: list[Line]) -> tuple[int, bool] | None:
    """The page's number set apart from a line of words on its row, at the row's outer end ("4.3. THE EDITOR OF KIND
    3" with "2" at the right margin, read as two lines): a bare number of the row left or right of every other line
    of it, the line itself holding a letter."""
    if not any(c.isalpha() for c in line.text):
        return None
    row = [o for o in margin if same_row(o, line)]
    for end in (min(row, key=lambda o: o.x0), max(row, key=lambda o: o.x1)):
        if end is not line and LINE_NUMBER_RE.match(end.text.strip()):
            return int(end.text), False
    return None


def paged_heads(pages: list[PageLayout], body_size: float, margins: list[list[Line]] | None = None) -> set[str]:
    """Running heads that carry the page's number on their line ("2.2 Least-squares Regression Method 29" over
    the right-hand pages, "30 2 Calibration" over the left-hand ones), whatever their text, which may change with
    every section, and pages' codes of a numbering by part ("PAP-3"): small margin lines (set apart from the text,
    unless a code) whose end number runs with the pages, as far from its page's place in the file as such numbers
    are on two other pages or more.
    Keys carry the height (see `_band_key`), so a heading that reads the same elsewhere stays.
    `margins`: each page's `_margin_lines`, when read already."""
    numbered: list[tuple[int, Line]] = []  # (printed number minus the page's place, the line)
    on: dict[int, set[int]] = {}  # such a difference: the pages it is found on
    for page, margin in zip(pages, margins or page_margins(pages)):
        for line in margin:
            found = (_end_number(line.text) or _row_number(line, margin)) if line.size <= body_size * LARGE else None
            if found is not None and (found[1] or _set_apart(line, page.lines)):  # (a code needs no room around)
                numbered.append((found[0] - page.number, line))
                on.setdefault(found[0] - page.number, set()).add(page.number)
    return {_band_key(line.text, line.y0) for offset, line in numbered if len(on[offset]) >= RUNNING_MIN_PAGES}


LINE_NUMBER_RE = re.compile(r"^\d{1,5}$")
GLUED_NUMBER_RE = re.compile(r"^(\d{1,5})\s+(\S.*)$")
MIN_LINE_NUMBERS = 5
MIN_NUMBERED_PAGES = 2  # pages showing a column of line numbers that make it the document's


def line_numbers(lines: list[Line]) -> set[int]:
    """ids of the line numbers printed in a page margin (drafts for review number every line): bare numbers
    in one column left or right of all the text, counting up by one down the page."""
    numbers = [l for l in lines if LINE_NUMBER_RE.match(l.text)]
    if len(numbers) < MIN_LINE_NUMBERS:
        return set()
    text = [l for l in lines if not LINE_NUMBER_RE.match(l.text)]
    text = [l for l in text if not GLUED_NUMBER_RE.match(l.text)] or text  # (a line a number was read into)
    left = min((l.x0 for l in text), default=0.0)
    right = max((l.x1 for l in text), default=0.0)
    glued = [(int(m.group(1)), l) for l in lines if (m := GLUED_NUMBER_RE.match(l.text)) and l.x0 < left]
    found: set[int] = set()
    for side in ([n for n in numbers if n.x1 <= left], [n for n in numbers if n.x0 >= right]):
        # the numbers read into a line count in the column's sequence too (on a page whose every heading and
        # every other line has its number glued on, the bare ones alone skip)
        column = [(int(n.text), n.y0) for n in side]
        if side and side[0].x1 <= left:
            column += [(k, l.y0) for k, l in glued if any(abs(l.x0 - n.x0) < 2 for n in side)]
        column.sort(key=lambda c: c[1])
        steps = [b[0] - a[0] for a, b in zip(column, column[1:])]
        if len(side) >= MIN_LINE_NUMBERS and sum(1 for d in steps if d == 1) >= 0.8 * len(steps):
            found |= {id(n) for n in side}
    return found


def split_glued_numbers(page: PageLayout) -> PageLayout:
    """The page with each line that a margin line number was read into ("164 5.1.1.7 DE.CM-2: ...") split in
    two: the number, in the margin's column of line numbers, and the line's text, from the text's left edge."""
    numbers = line_numbers(page.lines)
    column = [l for l in page.lines if id(l) in numbers]
    if not column:
        return page
    x1 = max(l.x1 for l in column)
    starts = [l.x0 for l in page.lines if id(l) not in numbers and l.x0 > x1]
    if not starts:
        return page
    edge = min(starts)
    lines: list[Line] = []
    for line in page.lines:
        match = GLUED_NUMBER_RE.match(line.text) if id(line) not in numbers \
            and any(abs(line.x0 - n.x0) < 2 for n in column) else None  # (right-aligned: "9" and "10" start apart)
        if match is None:
            lines.append(line)
            continue
        number = match.group(1)
        lines.append(replace(line, text=number, x1=x1, lead=0, lead_style=(False, False, False)))
        lines.append(replace(line, text=match.group(2), x0=_text_start(line, number, edge),
                             lead=max(0, line.lead - len(number) - 1)))
    return replace(page, lines=lines)


def _text_start(line: Line, number: str, edge: float) -> float:
    """Where the text of a line a margin line number was read into starts: where its second fragment does, when
    the number was a fragment of its own ("32" and "2. Licensed ...", a list item indented), else the text's edge."""
    if line.rest_x0 > line.x0 and line.lead == len(number):
        return line.rest_x0
    return max(edge, line.x0)


def split_line_numbers(layouts: list[PageLayout]) -> tuple[list[PageLayout], set[int]]:
    """Each page with its glued margin line numbers split off (`split_glued_numbers`), and the ids of the line
    numbers that only the document shows to be such: on a page too short to show its column alone (a heading and
    two lines, each with its number read into it), the numbers in a column found on other pages of the document,
    counting up down the page (`strip_furniture` drops them with the page's own)."""
    out = [split_glued_numbers(layout) for layout in layouts]
    found = [line_numbers(layout.lines) for layout in out]
    numbers: set[int] = set()
    if sum(1 for ids in found if ids) < MIN_NUMBERED_PAGES:
        return out, numbers
    starts = {round(l.x0) for layout, ids in zip(out, found) for l in layout.lines if id(l) in ids}
    edges = [min((l.x0 for l in layout.lines if id(l) not in ids and l.x0 > right), default=right)
             for layout, ids in zip(out, found) if ids
             for right in [max(l.x1 for l in layout.lines if id(l) in ids)]]
    edge = median(edges)  # the text's left edge, right of the column
    for k, (layout, ids) in enumerate(zip(out, found)):
        # (on a page that shows its column too, a glued number of fewer digits starts where none of the page's
        # bare ones does: "99 2 Treatment rules:" above "100", "101", ...)
        column = [(int(m.group(1) if m.lastindex else m.group(0)), l, m) for l in layout.lines
                  if (m := GLUED_NUMBER_RE.match(l.text) or LINE_NUMBER_RE.match(l.text))
                  and (id(l) in ids or any(abs(l.x0 - x) < 2 for x in starts))]
        column.sort(key=lambda c: c[1].y0)
        steps = [b[0] - a[0] for a, b in zip(column, column[1:])]
        if len(column) < 2 or any(d < 1 for d in steps) or sum(1 for d in steps if d == 1) < 0.8 * len(steps):
            continue
        numbered = {id(c[1]): c[2] for c in column if id(c[1]) not in ids}
        lines: list[Line] = []
        for line in layout.lines:
            match = numbered.get(id(line))
            if match is None:
                lines.append(line)
                continue
            if not match.lastindex:  # a bare number
                numbers.add(id(line))
                lines.append(line)
                continue
            number = match.group(1)
            piece = replace(line, text=number, x1=min(line.x1, _text_start(line, number, edge) - 1), lead=0,
                            lead_style=(False, False, False))
            numbers.add(id(piece))
            lines.append(piece)
            lines.append(replace(line, text=match.group(2), x0=_text_start(line, number, edge),
                                 lead=max(0, line.lead - len(number) - 1)))
        out[k] = replace(layout, lines=lines)
    return out, numbers


def end_page_number(lines: list[Line]) -> set[int]:
    """The id of a page number printed alone below all the text (or above it), wherever the margin ends."""
    found: set[int] = set()
    for edge in (max(lines, key=lambda l: l.y1, default=None), min(lines, key=lambda l: l.y0, default=None)):
        if edge is None or not PAGE_NUMBER_RE.match(edge.text) or not _DIGITS.search(edge.text):
            continue
        if not any(o is not edge and same_row(o, edge) for o in lines):
            found.add(id(edge))
    return found


def strip_furniture(page: PageLayout, furniture: set[str], margin_lines: list[Line] | None = None,
                    body_size: float = 0.0, numbers: set[int] | None = None) -> tuple[list[Line], str | None]:
    """The page's lines without headers, footers, page numbers, margin line numbers and vertical margin
    notes; also the printed page label (`margin_lines`: the page's `_margin_lines`, when read already;
    `body_size`: the text's size, when known: margin text set larger is furniture only as large text repeated;
    `numbers`: ids of line numbers the document's other pages tell, from `split_line_numbers`)."""
    margin = {id(l) for l in (_margin_lines(page) if margin_lines is None else margin_lines)}
    numbered = line_numbers(page.lines) | margin_notes(page.lines) | end_page_number(page.lines) | (numbers or set())

    def running(line: Line) -> bool:
        keys = (furniture_key(line.text), " ".join(line.text.lower().split()))
        if any(LARGE_MARK + key in furniture for key in keys):
            return True
        if body_size and line.size > LARGE * body_size:
            return False
        if any(key in furniture for key in keys):
            return True
        return any(_band_key(line.text, 0.0, b) in furniture for b in _near_bands(line.y0))

    kept: list[Line] = []
    label: str | None = None
    barred = any(key.startswith(BAR_MARK) for key in furniture)  # (a document with a side bar: `side_bars`)
    for line in page.lines:
        if id(line) in numbered or ((line.vertical or line.slanted) and _side_key(line.text) in furniture):
            continue
        if barred and any(_bar_key(line.text, 0.0, b) in furniture for b in _near_bands(line.x0)):
            continue  # (a side bar's line: `side_bars`)
        if _below_top(page, line) and any(_head_key(line.text, 0.0, b) in furniture for b in _near_bands(line.y0)):
            continue
        if id(line) in margin:
            # a number in the margin is the page's; in a row set apart lower down (the last row of a chart or
            # a table may be), only beside a running header
            if PAGE_NUMBER_RE.match(line.text) and (_in_margin(page, line) or any(
                    o is not line and id(o) in margin and same_row(o, line) and running(o) for o in page.lines)):
                digits = _DIGITS.search(line.text)
                label = label or (digits.group() if digits else line.text)  # the first page number wins
                continue
            if running(line):
                continue
        kept.append(line)
    return kept, label
