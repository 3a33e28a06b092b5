"""Page layout from the PDF text layer: styled visual lines in reading order, and image boxes."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
import pymupdf

from engine.readers.accents import compose_accents
from engine.readers.reading_order import around_gutter, margin_notes, same_row, xy_cut
from engine.readers.tracking import may_be_tracked, untracked_spans

if TYPE_CHECKING:
    from engine.readers.charts import Chart
    from engine.readers.ruled import Grid
from engine.text import BULLET_GLYPHS

_BOLD_NAME = re.compile(r"(bold|black|heavy|semibold|demi|[-,]bd\b|[-,](dm|md|sb)\b|medium)", re.I)
_ITALIC_NAME = re.compile(r"(italic|oblique|[-,]it\b|bdit|bkit)", re.I)
_MONO_NAME = re.compile(r"(mono|courier|consol|typewriter|cmtt|sftt|menlo|inconsolata|fixed|\bcode)", re.I)
LINE_NO_RE = re.compile(r"^\d{3,5}$")  # a margin's line number, set apart from the line's text
LABEL_RE = re.compile(
    r"^(?:(?:chapter|section|part|appendix|article)\s+)?"
    r"(\(?(?:\d{1,2}(?:\.\d{1,2}){0,4}|[IVXLC]{1,6}|[A-Za-z]|[A-Z]\.\d{1,2}(?:\.\d{1,2}){0,3})[.)]?"
    r"|[A-Z]{1,4}-\d{1,3}(?:\s?\(\d{1,2}\))?)\s*$",  # (or an identifier: "AC-1", "AC-3 (8)")
    re.I,
)
BULLET_GLYPH_RE = re.compile(rf"^[{BULLET_GLYPHS}\ufffd\-–]$")
DEGENERATE_SIZE = 10.0
UNREADABLE = 2.0  # points: a span set smaller is not printed to be read
STRETCHED_GAP = 2.5  # ems between two words of a stretched justified line (dvips word fragments)
# Type3 fonts made by dvips name their glyphs "/0".."/9" and by TeX's OT1 codes (0x0B = ff ...); without
# a full ToUnicode map, MuPDF reports the digits as U+0000..U+0009 and, asked for character codes
# instead of U+FFFD, the ligatures as their codes.
TYPE3_CODES = str.maketrans({**{chr(d): str(d) for d in range(10)},
                             "\x0b": "ff", "\x0c": "fi", "\x0d": "fl", "\x0e": "ffi", "\x0f": "ffl"})
TEXT_FLAGS = (
    pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_PRESERVE_LIGATURES | pymupdf.TEXT_MEDIABOX_CLIP
)


@dataclass(slots=True)
class Line:
    """One visual line: fragments on the same baseline merged, with its dominant style."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    size: float  # dominant font size (superscripts ignored)
    bold: bool
    italic: bool
    block: int  # PyMuPDF block number of its first fragment
    font: str = ""  # for a size repaired from a degenerate one: the font carrying most of its characters
    face: str = ""  # the font carrying most of its characters, as the PDF names it
    mono: bool = False  # set in a monospaced font (code)
    base: float = 0.0  # baseline y of its main text (sub- and superscripts aside); 0 when unknown
    vertical: bool = False  # written up or down the page (rotated 90 degrees)
    slanted: bool = False  # written aslant, neither across nor up or down (a watermark set across the page)
    color: int = 0  # the sRGB colour most of its characters are printed in
    lead: int = 0  # characters of its first run in one style (bold, italic, monospaced), when the rest differs
    lead_style: tuple[bool, bool, bool] = (False, False, False)  # that run's (bold, italic, monospaced)
    run_in: bool = False  # a run-in heading split from the text it opens (see engine.readers.run_in)
    lead_kept: bool = False  # the rest of the line keeps its first run's weight or slant (bold, then bold italic)
    rest_x0: float = 0.0  # where its second fragment starts, when fragments on one baseline were joined; 0 if not
    # the fragments on one baseline it was joined from, a word space or more apart, as (text, x0, x1); () if none
    # were (a table's column heads set close: "December 28,   December 30,")
    pieces: tuple[tuple[str, float, float], ...] = ()

    @property
    def baseline(self) -> float:
        return self.base or self.y1

    @property
    def height(self) -> float:
        return self.y1 - self.y0


@dataclass(slots=True)
class PageLayout:
    number: int  # 1-based
    width: float
    height: float
    lines: list[Line]
    images: list[tuple[int, int, tuple[float, float, float, float]]]  # (width px, height px, bbox)
    columns: int = 1
    gutter: float | None = None  # x of the column gutter found among word fragments (see word_gutter)
    grids: list[Grid] = field(default_factory=list)  # its ruled tables (engine.readers.ruled)
    charts: list[Chart] = field(default_factory=list)  # its column charts read as tables (engine.readers.charts)
    drawn: int = 0  # vector paths on a page without text (counted only there: text drawn as shapes)
    # a page read as shown though /Rotate turns it (engine.readers.offline.text_runs_across): the matrix from the
    # page as shown back to its own coordinates, and its own width and height, where blocks are given
    unturn: tuple[float, float, float, float, float, float] | None = None
    own_size: tuple[float, float] | None = None


@lru_cache(maxsize=1024)
def _font_traits(font: str) -> tuple[bool, bool, bool]:
    """Bold, italic and monospaced as a font's name says (names repeat on every line: asked once)."""
    return bool(_BOLD_NAME.search(font)), bool(_ITALIC_NAME.search(font)), bool(_MONO_NAME.search(font))


SUPERSCRIPT = 1  # PyMuPDF's span flag: the span is set above its line's baseline
RAISED_SIZE = 0.85  # a raised number is set at most this share of the size of the text it follows


def raised_number(span: dict, text: str, before: list[str], previous: float) -> bool:
    """Whether a span is a number set small and raised right after a word or number (a note's marker,
    "accuracy¹"; an exponent, "2⁶⁴"): it is read apart from it, not as one word ("accuracy1", "264"), unless it
    follows a word of one or two letters (a unit's power)."""
    if not (span.get("flags", 0) & SUPERSCRIPT and text[:1].isdigit() and before and before[-1][-1:].isalnum()
            and 0 < span["size"] < RAISED_SIZE * previous):
        return False
    word = UNIT_RE.search("".join(before[-2:]))
    return word is None  # (a unit's power stays with it: "m²", "km²" read "m2", "km2")


UNIT_RE = re.compile(r"(?<![^\W\d_])[^\W\d_]{1,2}$")  # a word of one or two letters ending the text before
RAISED_BY = 0.15  # of the text's size: how far above the text's baseline a leading marker's baseline stands


def leading_marker(spans: list[dict], k: int, before: list[str]) -> bool:
    """Whether span k is a number set small and raised at the start of its line, right before a word (an
    affiliation's or a note's marker, "¹International Computer Science Institute"): read apart from the word, not as
    one word ("1International")."""
    span = spans[k]
    if "".join(before).strip() or not span["text"].strip().isdigit() or "origin" not in span:
        return False
    after = next((s for s in spans[k + 1:] if s["text"].strip()), None)
    return after is not None and "origin" in after and after["text"][:1].isalpha() \
        and 0 < span["size"] < RAISED_SIZE * after["size"] \
        and after["origin"][1] - span["origin"][1] > RAISED_BY * after["size"]


INNER_SOFT_HYPHEN_RE = re.compile(r"[\u00ad\ufffe](?=\S)")
HUGE_BLANK = 3.0  # a span of spaces set this many times the line's size does not count in its box


def _fragment(line: dict, block_no: int, fixed: frozenset[str] = frozenset()) -> Line | None:
    """Turn one PyMuPDF line into a Line (None when it holds only whitespace; `fixed`: the names of the page's
    fonts of one width, monospaced whatever their names say)."""
    text_parts: list[str] = []
    weights: dict[float, int] = {}
    fonts: dict[str, int] = {}
    bases: dict[tuple[float, float], int] = {}  # (size, baseline y) -> characters
    blank = 0.0  # the largest size a span of spaces only is set in
    bold_chars = italic_chars = mono_chars = letters = 0
    prose_chars = prose_bold = prose_italic = 0
    colors: dict[int, int] = {}
    lead_parts: list[str] = []  # the text of the first run of spans in one style
    lead_style: tuple[bool, bool, bool] | None = None
    lead_done = False
    previous = 0.0  # the size of the last span holding text
    rest_bold = rest_italic = True  # every span after the first run is bold (italic)
    spans = line["spans"]
    for k, span in enumerate(spans):
        text = span["text"]
        if not text:
            continue
        font = span.get("font", "")
        type3 = font.startswith("Type3")
        span_size = span["size"]
        if span_size < UNREADABLE and not type3:
            continue  # (text too small to read, a hidden tag or placeholder; a dvips Type3 font reports 0.12)
        if type3 and min(text) < "\x10":
            text = text.translate(TYPE3_CODES)
        if raised_number(span, text, text_parts, previous):
            text = " " + text  # a note's marker or an exponent is no part of the word or number before it
        elif leading_marker(spans, k, text_parts):
            text = text + " "  # … nor of the word after it
        if text.strip():
            previous = span_size
        text_parts.append(text)
        stripped = len(text.strip())
        if not stripped:
            if span_size > blank:
                blank = span_size
            if not lead_done:
                lead_parts.append(text)
            continue
        size = round(span_size * 2) / 2
        weights[size] = weights.get(size, 0) + stripped
        if "origin" in span:
            key = (size, round(span["origin"][1], 1))
            bases[key] = bases.get(key, 0) + stripped
        fonts[font] = fonts.get(font, 0) + stripped
        flags = span.get("flags", 0)
        named_bold, named_italic, named_mono = _font_traits(font)
        bold = bool(flags & 16) or named_bold
        italic = bool(flags & 2) or named_italic
        mono = bool(flags & 8 or named_mono) or font in fixed
        if bold:
            bold_chars += stripped
        if mono:
            mono_chars += stripped
        if italic:
            italic_chars += stripped
        letters += stripped
        color = span.get("color", 0)
        colors[color] = colors.get(color, 0) + stripped
        style = (bold, italic, mono)
        if lead_style is None:
            lead_style = style
        if not lead_done and style == lead_style:
            lead_parts.append(text)
        else:
            lead_done = True
            rest_bold, rest_italic = rest_bold and bold, rest_italic and italic
        if not mono:  # (the weight of a line's prose: an identifier set in a typewriter face within it aside)
            prose_chars += stripped
            if bold:
                prose_bold += stripped
            if italic:
                prose_italic += stripped
    # a soft hyphen within a line is a hyphen printed: word processors code one so ("multi\u00adgene", "\u00adf" for
    # the option "-f"); shown as it is, a browser hides it (one at a line's end is a break: engine.readers.hyphens)
    text = INNER_SOFT_HYPHEN_RE.sub("-", "".join(text_parts))
    if not letters:
        return None
    # dominant size: the largest size carrying at least 30% of the characters (superscripts are small), or
    # the capitals' size of a line set in small capitals
    top = max(weights.values())
    size = max(s for s, w in weights.items() if w >= 0.3 * top)
    size = (_small_caps_size(spans) if len(spans) > 1 else None) or size  # (one span: no small capitals)
    x0, y0, x1, y1 = line["bbox"]
    if blank > HUGE_BLANK * size:  # (a space set many times the line's size
        # stretches no line: "TABLE 2.01A" and a 170-point blank)
        boxes = [span["bbox"] for span in spans if span.get("text", "").strip() and "bbox" in span]
        if boxes:
            y0, y1 = max(y0, min(b[1] for b in boxes)), min(y1, max(b[3] for b in boxes))
    at_size = [(n, b) for (s, b), n in bases.items() if s == size]
    base = max(at_size)[1] if at_size else 0.0
    font = ""
    face = max(fonts, key=fonts.__getitem__)
    if size < 2 or y1 - y0 < 1:  # Type3 fonts can report a size of 0.12 and zero-height boxes
        size = round(max(y1 - y0, DEGENERATE_SIZE) * 2) / 2
        y0 = min(y0, y1 - size)
        font = face  # the reader may rescale it from the font's glyph widths
    joined = compose_accents(" ".join(text.split()))
    # (the first run in one style is the whole line when no span ended it: its text is the line's)
    lead = len(joined) if not lead_done else len(compose_accents(" ".join("".join(lead_parts).split())))
    direction = line.get("dir", (1.0, 0.0))
    return Line(
        text=joined,
        x0=x0, y0=y0, x1=x1, y1=y1,
        size=size,
        bold=bold_chars >= 0.8 * letters or (prose_chars >= 0.5 * letters and prose_bold >= 0.8 * prose_chars),
        italic=italic_chars >= 0.8 * letters or (prose_chars >= 0.5 * letters and prose_italic >= 0.8 * prose_chars),
        mono=mono_chars >= 0.8 * letters,
        block=block_no,
        font=font,
        face=face,
        base=base,
        vertical=abs(direction[1]) > 0.7,
        slanted=min(abs(direction[0]), abs(direction[1])) > SLANT,
        color=max(colors, key=colors.__getitem__),
        lead=lead,
        lead_style=lead_style or (False, False, False),
        lead_kept=lead_done and lead_style is not None and ((lead_style[0] and rest_bold)
                                                            or (lead_style[1] and rest_italic)),
    )


def kept_after(first: Line, then: Line) -> bool:
    """`Line.lead_kept` of the line `first` and `then` make when joined, `then` to the right of `first`."""
    keeps = (first.lead_style[0] and then.bold) or (first.lead_style[1] and then.italic)
    if first.lead == len(first.text):  # (the first is all its first run: it goes on into the next piece, or ends)
        return then.lead_kept if then.lead_style == first.lead_style else keeps
    return first.lead_kept and keeps


SLANT = 0.2  # both parts of a line's direction over this (a turn of 12 to 78 degrees): it is set aslant

SMALL_CAPS_RATIO = 0.7  # a small capital is at least this share of its capital's size


def _small_caps_size(spans: list[dict]) -> float | None:
    """The size of the capitals when a line is set in small capitals ("VI. E" at 10 pt, "XPERIMENTAL" at 8 pt):
    two sizes, every span in the smaller one in capitals, and every change from the larger to the smaller
    within a word (a capital, then its word's small capitals)."""
    parts = [(round(sp["size"] * 2) / 2, sp["text"]) for sp in spans if sp["text"].strip()]
    sizes = {size for size, _ in parts}
    if len(sizes) != 2 or len(parts) < 2:
        return None
    small, large = sorted(sizes)
    if small < SMALL_CAPS_RATIO * large:
        return None
    joined = False
    for (size, text), (nxt_size, nxt) in zip(parts, parts[1:]):
        if size == large and nxt_size == small:
            if not (text[-1:].isupper() and nxt[:1].isupper()):
                return None  # (a smaller word after a larger one: not a capital and its small capitals)
            joined = True
    return large if joined and all(text.isupper() or not any(c.isalpha() for c in text) for size, text in parts
                                   if size == small) else None


STRETCHED_WORDS = 3  # words of a line stretched to its measure, each its own fragment
WORD_RE = re.compile(r"^[^\W\d_](?:[^\W\d_]|[’'-](?=[^\W\d_]))*[.,;:!?]?$")  # one word of letters (a stop after)
EVEN_SPACE = 1.0  # points: the spaces of a justified line are all one width …
STOP_STRETCH = 3.5  # … but one after a stop stretches more, up to about three times (TeX's space factor) and a bit
STOP_END = (".", ",", ";", ":", "!", "?")
ITEM_MARK_RE = re.compile(rf"^[{BULLET_GLYPHS}]\s+")  # a list item's mark before the first word: "• Improve"


def _join_stretched(fragments: list[Line]) -> list[Line]:
    """The words of one paragraph's line stretched to the measure (a narrow column, a long word after it) joined
    into one fragment: three or more words of letters of one block that holds running text, on one baseline, in
    one size, spaced evenly wider than a word space (over 1.2 ems, up to 2.5). A table's cells (numbers, labels
    of a matrix, a header row) stand in blocks of their own, or hold digits, or are not spaced evenly. A block
    with no such line may hold one too when the block goes on under it from its left edge: a heading justified over
    two lines ("DECLARACION RELATIVA AL PERIODO IMPOSITIVO" / "COMPRENDIDO DESDE EL ...")."""
    rows: dict[tuple[int, float], list[Line]] = {}
    prose: set[int] = set()  # blocks holding a line of running text (eight words or more)
    for frag in fragments:
        rows.setdefault((frag.block, round(frag.baseline)), []).append(frag)
        if len(frag.text.split()) >= 8:
            prose.add(frag.block)
    gone: set[int] = set()
    for (block, _), row in rows.items():
        row.sort(key=lambda f: f.x0)
        texts = [f.text.strip() for f in row]
        texts[0] = ITEM_MARK_RE.sub("", texts[0], count=1)
        if len(row) < STRETCHED_WORDS \
                or any(not WORD_RE.match(text) for text in texts) or any(f.vertical for f in row) \
                or 2 * sum(f.mono for f in row) > len(row) \
                or len({f.text for f in row}) < 2 or max(len(f.text) for f in row) < 4:
            continue  # (a table's marks, "X X X", are one short word over and over; code is mostly monospaced)
        size = row[0].size
        gaps = [b.x0 - a.x1 for a, b in zip(row, row[1:])]
        plain = [gap for gap, text in zip(gaps, texts) if not text.endswith(STOP_END)] or gaps
        widest = max(plain)
        if any(abs(f.size - size) >= 0.5 for f in row) or min(gaps) <= 1.2 * size \
                or widest > STRETCHED_GAP * size or widest - min(gaps) > EVEN_SPACE \
                or any(gap > max(widest + EVEN_SPACE, STOP_STRETCH * widest) for gap in gaps):
            continue
        if block not in prose and not any(f.block == block and f.baseline > row[0].baseline + 0.5 * size
                                          and abs(f.x0 - row[0].x0) < 1 for f in fragments):
            continue
        first = row[0]
        for frag in row[1:]:
            first.text = f"{first.text} {frag.text}"
            first.x1 = max(first.x1, frag.x1)
            first.y0, first.y1 = min(first.y0, frag.y0), max(first.y1, frag.y1)
            first.bold, first.italic = first.bold and frag.bold, first.italic and frag.italic
            gone.add(id(frag))
    return [f for f in fragments if id(f) not in gone]


def mono_joined(left: Line, right: Line) -> bool:
    """Whether two pieces of one line are monospaced together: both are, or one is and the other holds no letter
    or digit (a listing's continuation mark "↪" or a symbol in another font before its code)."""
    def symbols(piece: Line) -> bool:
        return not any(c.isalnum() for c in piece.text)

    return (left.mono or right.mono) and (left.mono or symbols(left)) and (right.mono or symbols(right))


def _merge_baseline(fragments: list[Line], gutter: float | None = None) -> list[Line]:
    """Merge fragments on the same baseline that belong together (labels, split runs), never across a
    column `gutter` (an x position)."""
    fragments.sort(key=_baseline_key(fragments))
    merged: list[Line] = []
    for frag in fragments:
        prev = merged[-1] if merged else None
        if prev is not None and _same_line(prev, frag) and not (gutter is not None and prev.x1 <= gutter <= frag.x0):
            joiner = "" if frag.x0 - prev.x1 < 1.0 else " "  # kerned pieces of one word, or two words
            bullet = BULLET_GLYPH_RE.match(prev.text) is not None
            prev.lead_kept = kept_after(prev, frag)
            prev.rest_x0 = prev.rest_x0 or frag.x0
            if joiner:
                prev.pieces = (prev.pieces or ((prev.text, prev.x0, prev.x1),)) + ((frag.text, frag.x0, frag.x1),)
            elif prev.pieces:  # (a kerned piece of the last word goes on the last piece)
                text, x0, _ = prev.pieces[-1]
                prev.pieces = prev.pieces[:-1] + ((text + frag.text, x0, frag.x1),)
            if prev.lead == len(prev.text) and frag.lead_style == prev.lead_style:
                prev.lead += len(joiner) + frag.lead  # (the first run in one style goes on in this fragment)
            prev.mono = mono_joined(prev, frag)
            prev.text = f"{prev.text}{joiner}{frag.text}"
            prev.x1 = max(prev.x1, frag.x1)
            prev.y0, prev.y1 = min(prev.y0, frag.y0), max(prev.y1, frag.y1)
            if bullet:  # a bullet glyph (often a symbol font set larger) takes the style of the text it introduces
                prev.size, prev.bold, prev.italic = frag.size, frag.bold, frag.italic
                prev.face, prev.base = frag.face, frag.base
                continue
            if len(frag.text) > len(prev.text) / 2:  # the title's style wins over its label's
                prev.size = max(prev.size, frag.size)
                # (a margin's line number, "222", is no label, but its style yields to the line's all the same)
                label = LABEL_RE.match(first_word := prev.text.split()[0]) is not None or LINE_NO_RE.match(first_word)
                prev.bold = prev.bold and frag.bold if not label else frag.bold
                prev.italic = frag.italic if label else prev.italic and frag.italic
                if first_word.isdigit() and prev.face != frag.face:
                    prev.face = frag.face  # (a number in a face of its own: the line's face is its text's)
            continue
        merged.append(frag)
    return merged


GUTTER_MIN_WORDS = 40  # words on each side of a gutter
GUTTER_CROSSING = 0.02  # share of the words that may cross a gutter (page numbers, full-width lines)


def _least_crossed(fragments: list[Line], width: float) -> tuple[float, int]:
    """The middle of the widest band in the middle of the page that the fewest fragments cross, and how many."""
    xs = np.arange(int(0.3 * width), int(0.7 * width) + 1, dtype=np.float64)
    x0 = np.array([f.x0 for f in fragments])
    x1 = np.array([f.x1 for f in fragments])
    counts = ((x0[None, :] < xs[:, None]) & (xs[:, None] < x1[None, :])).sum(axis=1).tolist()
    crossing = min(counts)
    runs: list[tuple[int, int]] = []  # (length, first index) of each run of least-crossed positions
    for i, count in enumerate(counts):
        if count == crossing:
            if runs and runs[-1][1] + runs[-1][0] == i:
                runs[-1] = (runs[-1][0] + 1, runs[-1][1])
            else:
                runs.append((1, i))
    length, first = max(runs)  # the widest such band, not a gap between two aligned words
    return float(xs[first + length // 2]), crossing


def word_gutter(fragments: list[Line], width: float) -> float | None:
    """The x of the gutter between two columns of a page whose fragments are single words (dvips
    Type3 text): the middle of the widest band in the middle of the page that the fewest words cross,
    when almost none do and each side holds many words. The gap there may be no wider than a justified word space, so
    the merge of words into lines must not cross it."""
    if len(fragments) < 2 * GUTTER_MIN_WORDS or width <= 0:
        return None
    x, crossing = _least_crossed(fragments, width)
    left = sum(1 for f in fragments if f.x1 <= x)
    right = sum(1 for f in fragments if f.x0 >= x)
    if crossing > GUTTER_CROSSING * len(fragments) or min(left, right) < GUTTER_MIN_WORDS:
        return None
    return x


PROSE_GUTTER_LINES = 12  # lines of prose on each side of a narrow gutter
MERGE_GAP = 1.2  # sizes: fragments on one baseline this close are one line (see _same_line)
NUMBER_GAP = 0.6  # sizes: … but two numbers this far apart stand in two columns (a word space is a quarter)
NUMBER_RE = re.compile(r"[−–-]?\(?[$€£]?\d(?:[\d,.]*\d)?%?\)?")  # "1,068,000", "-6.15%", "(1.9)", "$4.5"
# a currency sign printed apart from its amount, alone or before the next column's amount ("$ (1,016)")
CURRENCY_SIGN_RE = re.compile(r"[$€£¥](?:\s*[−–-]?\(?\d[\d,.]*\)?)?$")
PROSE_GUTTER_ROWS = 1  # rows on which a line of each column would be read as one line (one hides the gutter)


def prose_gutter(fragments: list[Line], width: float) -> float | None:
    """The x of the gutter between two columns of prose set so close (an em apart) that a row's lines of both
    would be read as one: almost no line crosses it, each side holds many lines, wide (prose, not a table's
    cells) and most of them starting at one x (a column's edge), and on some rows a line of each side would
    merge. (A gutter wide enough to keep the columns' lines apart is left to the XY-cut.)"""
    if len(fragments) < 2 * PROSE_GUTTER_LINES or width <= 0:
        return None
    x, crossing = _least_crossed(fragments, width)
    left = [f for f in fragments if f.x1 <= x]
    right = [f for f in fragments if f.x0 >= x]
    if min(len(left), len(right)) < PROSE_GUTTER_LINES:
        return None
    for side in (left, right):
        starts = Counter(round(f.x0) for f in side)
        widths = sorted(f.x1 - f.x0 for f in side)
        if starts.most_common(1)[0][1] < 0.5 * len(side) or widths[len(widths) // 2] < 0.25 * width:
            return None
    size = sorted(f.size for f in left + right)[len(left + right) // 2]
    if Counter(round(f.x0) for f in right).most_common(1)[0][0] - max(f.x1 for f in left) > MERGE_GAP * size:
        return None  # (columns further apart than a merge reaches: the XY-cut parts them)
    rows = [a for a in left for b in right if _same_line(a, b)]
    if len(rows) < PROSE_GUTTER_ROWS:
        return None
    top, bottom = min(a.y0 for a in rows), max(a.y1 for a in rows)
    if crossing > GUTTER_CROSSING * len(fragments) and any(top < f.y1 and f.y0 < bottom for f in fragments
                                                           if f.x0 < x < f.x1):
        return None  # (lines across the page above or below the columns, a chapter's opening, are no matter)
    return x


SCRIPT_REACH = 6  # later lines (in baseline order) searched for the pieces of a line split by its scripts
LEFT_PIECE_RE = re.compile(r"^(?:[A-Z]\.)?\d{1,2}(?:\.\d{1,2}){0,4}\.?$|^[A-Z]\.\d{1,2}(?:\.\d{1,2}){0,3}$")  # a number


def _join_pieces(lines: list[Line], gutter: float | None = None) -> list[Line]:
    """Pieces of one row that the baseline sort set apart (a formula whose sub- and superscripts move its
    box up or down) joined left to right when each starts where the one before ends (at most an em over). A
    piece sorted after the one it stands left of (a section's number in a Latin face left of its title in a
    Chinese one, whose boxes reach lower: "A.1.1" | "图") goes before it, when the two are set in different
    typefaces (a table's cells in one face, "2" | "Boston", stay apart)."""
    out: list[Line] = []
    gone: set[int] = set()
    for i, line in enumerate(lines):
        if i in gone:
            continue
        number = LEFT_PIECE_RE.match(line.text) is not None  # (only a number looks for its piece right of it)
        right = [k for k, done in enumerate(out[-SCRIPT_REACH:], start=max(0, len(out) - SCRIPT_REACH))
                 if not done.vertical and not line.vertical and same_row(line, done)
                 and 0 <= done.x0 - line.x1 <= 1.2 * max(line.size, 1.0) and done.x0 == min(
                     (o.x0 for o in out[-SCRIPT_REACH:] if same_row(line, o) and o.x0 >= line.x1), default=done.x0)
                 and not (gutter is not None and line.x1 <= gutter <= done.x0)] if number else []
        if right and family(out[right[0]].face) != family(line.face):
            done = out[right[0]]
            joiner = "" if done.x0 - line.x1 < 1.0 else " "
            done.lead_kept = kept_after(line, done)
            done.lead = line.lead + len(joiner) + done.lead if line.lead == len(line.text) \
                and done.lead_style == line.lead_style else line.lead
            done.lead_style = line.lead_style
            done.text = f"{line.text}{joiner}{done.text}"
            done.x0 = line.x0
            done.y0, done.y1 = min(line.y0, done.y0), max(line.y1, done.y1)
            continue
        while True:
            em = max(line.size, 1.0)
            near = [j for j in range(i + 1, min(len(lines), i + 1 + SCRIPT_REACH)) if j not in gone
                    and not lines[j].vertical and same_row(line, lines[j])
                    and -em <= lines[j].x0 - line.x1 <= 1.2 * em and not cells_apart(line, lines[j], numbers=False)
                    and not (gutter is not None and line.x1 <= gutter <= lines[j].x0)]
            if not near or line.vertical:
                break
            j = min(near, key=lambda k: lines[k].x0)
            piece = lines[j]
            joiner = "" if piece.x0 - line.x1 < 1.0 else " "
            line.lead_kept = kept_after(line, piece)
            if line.lead == len(line.text) and piece.lead_style == line.lead_style:
                line.lead += len(joiner) + piece.lead
            line.mono = mono_joined(line, piece)
            line.text = f"{line.text}{joiner}{piece.text}"
            line.x1 = max(line.x1, piece.x1)
            line.y0, line.y1 = min(line.y0, piece.y0), max(line.y1, piece.y1)
            gone.add(j)
        out.append(line)
    return out


FACE_SUFFIX_RE = re.compile(r"(psmt|mt|ps|std|pro|lt)$")


@lru_cache(maxsize=1024)
def family(face: str) -> str:
    """A font's family as its name says ("ABCDEF+TimesNewRomanPS-BoldMT": "timesnewroman", "SFRM1000": "sfrm")."""
    name = re.split(r"[-,]", face.rsplit("+", 1)[-1], maxsplit=1)[0].lower()
    return FACE_SUFFIX_RE.sub("", name.rstrip("0123456789"))


DROP_CAP_RE = re.compile(r"^[A-ZÀ-Ý]$")


def _join_drop_caps(lines: list[Line]) -> list[Line]:
    """A drop cap (one capital letter set several lines high at a paragraph's start) joined to the rest of
    its word: the line that starts just right of it, level with its top, in lower case ("A" + "ppendix B ...")."""
    caps = [l for l in lines if DROP_CAP_RE.match(l.text)]
    if not caps:
        return lines
    gone: set[int] = set()
    for cap in caps:
        beside = [l for l in lines if l is not cap and l.text[:1].islower() and l.size * 2 <= cap.size
                  and cap.x0 + 0.3 * (cap.x1 - cap.x0) <= l.x0 <= cap.x1 + l.size  # (a cap's box is wider than it)
                  and cap.y0 - l.size <= l.y0 <= cap.y0 + l.size]
        if beside:
            first = min(beside, key=lambda l: l.y0)
            first.text = cap.text + first.text
            first.lead += len(cap.text)
            gone.add(id(cap))
    return [l for l in lines if id(l) not in gone]


def _baseline_key(fragments: list[Line]):
    """Sort key: rounded baseline, then x; a bullet glyph takes the baseline of the text it introduces,
    which may sit a point higher (so that the two meet in the merge)."""
    keys: dict[int, tuple[float, float]] = {}
    for glyph in fragments:
        if BULLET_GLYPH_RE.match(glyph.text) is None:
            continue
        partners = [f for f in fragments if f is not glyph and same_row(glyph, f)
                    and 0 <= f.x0 - glyph.x1 <= 4 * max(glyph.size, 1.0)]
        if partners:
            keys[id(glyph)] = (round(min(partners, key=lambda f: f.x0).y1), glyph.x0)
    return lambda f: keys.get(id(f), (round(f.y1), f.x0))


def cells_apart(left: Line, right: Line, *, numbers: bool = True) -> bool:
    """Whether two pieces on one row, `right` after `left`, are two cells however close: a number and the currency
    sign that opens the next column's amount ("24,690   $   23,549": the sign goes with 23,549; "3,660   $ (1,016)"
    with the amount after it), or with `numbers`,
    numbers a column's gap apart ("1,068,000   1,033,108", "1.04   35 %"; a note's number before its text, "1   12
    sites were visited.", stays with it)."""
    if right.x0 - left.x1 < NUMBER_GAP * max(left.size, right.size) or not right.text.strip() \
            or NUMBER_RE.fullmatch(left.text.rsplit(None, 1)[-1] if left.text.strip() else "") is None:
        return False
    if CURRENCY_SIGN_RE.match(right.text.strip()):
        return True
    words = right.text.split()  # (a per cent sign set apart from its number is the number's: "35 %")
    return numbers and all(NUMBER_RE.fullmatch(w) or (w == "%" and k > 0) for k, w in enumerate(words))


def _same_line(left: Line, right: Line) -> bool:
    if left.vertical != right.vertical or left.slanted != right.slanted:
        return False  # (a watermark set aslant across the page, whose box holds a line's row, is not on it)
    overlap = min(left.y1, right.y1) - max(left.y0, right.y0)
    if overlap < 0.5 * min(left.height, right.height) or right.x0 < left.x1 - max(2.0, min(left.size, right.size)):
        return False
    if cells_apart(left, right):
        return False
    gap = right.x0 - left.x1
    size = max(left.size, right.size)
    if gap <= MERGE_GAP * size:
        return True
    if left.font and right.font and gap <= STRETCHED_GAP * size and right.text[:1].isalpha() \
            and (left.text[-1:].isalpha() or left.text.endswith((".", ",", ";", ":", "!", "?"))):
        return True  # dvips words on a stretched justified line, or after the wider space TeX sets after a stop
    # a numbering label ("A.", "1", "IV.", "(3)") or a bullet glyph followed by its text further right
    return gap <= 4 * size and (LABEL_RE.match(left.text) is not None or BULLET_GLYPH_RE.match(left.text) is not None)


SHADOW_OFFSET = 0.15  # of the type size: a copy of a line drawn this close to it is its shadow, not a second line
BULLET_LEAD_RE = re.compile(rf"^[{BULLET_GLYPHS}\-–]\s+")  # a bullet glyph opening a line, then its space
SHADOW_LOOKBACK = 4  # earlier copies of a line's text compared with it


def _without_overprint(fragments: list[Line]) -> list[Line]:
    """The fragments without a second copy of one printed at (nearly) the same place: text drawn twice, as for a
    fake bold, an overprint, or a shadow a fraction of its size off (a slide's titles and bullets, offset by 2
    points at 40, the shadow without the bullet): the page shows it once, the copy with its bullet kept."""
    seen: dict[str, list[int]] = {}
    placed: set[tuple[str, int, int]] = set()  # (text, x0, y1) rounded: a copy at the very place, drawn any time
    kept: list[Line] = []
    for frag in fragments:
        text = frag.text.strip() or frag.text
        if (text, round(frag.x0), round(frag.y1)) in placed:
            continue
        copies = seen.setdefault(BULLET_LEAD_RE.sub("", text), [])
        near = max(0.5, SHADOW_OFFSET * frag.size)
        # (a shadow is drawn next to its line: the last copies of the text only, not a table's every "0" cell)
        same = next((i for i in copies[-SHADOW_LOOKBACK:] if abs(kept[i].size - frag.size) <= near
                     and (_within(kept[i], frag, near) or _within(frag, kept[i], near))), None)
        placed.add((text, round(frag.x0), round(frag.y1)))
        if same is None:
            copies.append(len(kept))
            kept.append(frag)
        elif len(text) > len(kept[same].text.strip()):
            kept[same] = frag  # the copy with its bullet
    return kept


def _within(inner: Line, outer: Line, near: float) -> bool:
    """Whether `inner`'s box lies inside `outer`'s, `near` points of slack on every side."""
    return inner.x0 >= outer.x0 - near and inner.y0 >= outer.y0 - near and inner.x1 <= outer.x1 + near \
        and inner.y1 <= outer.y1 + near


FIXED_PROBES = "ilmwMW"  # letters of widths far apart in a proportional face
_NUMBERS = re.compile(r"-?\d+(?:\.\d+)?")


def fixed_pitch_fonts(page: pymupdf.Page, known: dict[int, bool] | None = None,
                      fonts: list | None = None) -> frozenset[str]:
    """The names of the page's simple fonts whose glyphs all take one width, as their /Widths say ("i" as wide as
    "m"): a typewriter face whatever it is called ("Letter Gothic"), which its descriptor may not flag (`known`:
    each font's answer by its xref, kept across a document's pages, which share their fonts; `fonts`: the page's
    `get_fonts()`, when read already)."""
    known = {} if known is None else known
    names: set[str] = set()
    for font in page.get_fonts(full=False) if fonts is None else fonts:
        xref, kind, name = font[0], font[2], font[3]
        if kind not in ("Type1", "TrueType", "MMType1") or not xref:
            continue
        if xref not in known:
            known[xref] = _one_width(page.parent, xref)
        if known[xref]:
            names.add(name.split("+", 1)[-1])
    return frozenset(names)


def _one_width(doc: pymupdf.Document, xref: int) -> bool:
    """Whether a simple font's /Widths give all its glyphs one width (probed letters among them)."""
    try:
        form, value = doc.xref_get_key(xref, "Widths")
        if form == "xref":
            value = doc.xref_object(int(value.split()[0]))
        elif form != "array":
            return False
        first = int(doc.xref_get_key(xref, "FirstChar")[1])
    except (ValueError, RuntimeError):
        return False
    widths = [float(w) for w in _NUMBERS.findall(value)]
    used = [w for w in widths if w > 0]
    probes = [widths[ord(c) - first] for c in FIXED_PROBES if 0 <= ord(c) - first < len(widths)]
    return len(used) >= 8 and sum(1 for w in probes if w > 0) >= 2 and max(used) - min(used) < 0.5


SIGN_AFTER_AMOUNT_RE = re.compile(r"(?<=[\d%)])\s{2,}(?=[$€£¥])")  # an amount, blanks, a currency sign: in one run


def _cut_at_signs(raw_line: dict) -> list[dict] | None:
    """A rawdict line cut before each currency sign that follows an amount across a wide blank within one text run
    (SIGN_AFTER_AMOUNT_RE), each part with its spans' texts and boxes ("dict" lines), or None when none does."""
    spans = [{**{k: v for k, v in span.items() if k != "chars"}, "text": "".join(c["c"] for c in span["chars"])}
             for span in raw_line["spans"]]
    parts: list[list[dict]] = [[]]
    for span, raw in zip(spans, raw_line["spans"], strict=True):
        text, chars, start = span["text"], raw["chars"], 0
        for match in SIGN_AFTER_AMOUNT_RE.finditer(text):
            if match.start() > start:
                parts[-1].append(_piece_of(span, chars, start, match.start()))
            parts.append([])
            start = match.end()
        parts[-1].append(_piece_of(span, chars, start, len(text)) if start else span)
    if len(parts) < 2:
        return None
    y0, y1 = raw_line["bbox"][1], raw_line["bbox"][3]
    return [{**raw_line, "spans": part, "bbox": (part[0]["bbox"][0], y0, part[-1]["bbox"][2], y1)}
            for part in parts if part]


def _piece_of(span: dict, chars: list[dict], start: int, end: int) -> dict:
    """The characters start:end of a rawdict span as a "dict" span of their own (trailing blanks out of its box)."""
    text = span["text"][start:end]
    last = start + max(len(text.rstrip()), 1) - 1
    return {**span, "text": text, "origin": chars[start]["origin"],
            "bbox": (chars[start]["bbox"][0], span["bbox"][1], chars[last]["bbox"][2], span["bbox"][3])}


class PageText:
    """One page's text layer, extracted once: its styled text (`data`, PyMuPDF's "dict") and, from the same
    extraction where that gives what a fresh one would, its word boxes (`words`, for engine.readers.ruled)."""

    def __init__(self, page: pymupdf.Page, tracked: dict[tuple, list[str] | None] | None = None,
                 fixed: dict[int, bool] | None = None) -> None:
        self.page = page
        self.tracked = {} if tracked is None else tracked  # (see `line`; one per document: running heads repeat)
        fonts = page.get_fonts(full=False)
        type3 = any(font[2] == "Type3" for font in fonts)
        self.flags = TEXT_FLAGS | (pymupdf.TEXT_USE_CID_FOR_UNKNOWN_UNICODE if type3 else 0)
        self.textpage = page.get_textpage(flags=self.flags)
        self.data = page.get_text("dict", textpage=self.textpage)
        self._raw: dict | None = None
        self.fixed = fixed_pitch_fonts(page, fixed, fonts)  # (`fixed`: one per document, see fixed_pitch_fonts)

    def raw(self) -> dict:
        """`page.get_text("rawdict")` from the same extraction (blocks, lines and spans as in `data`, with each
        character's box), read when first asked for."""
        if self._raw is None:
            self._raw = self.page.get_text("rawdict", textpage=self.textpage)
        return self._raw

    def line(self, block: int, index: int) -> dict:
        """The `index`-th line of the `block`-th block of `data`, its spans' texts without the spaces an
        extractor reads into tracked (letter-spaced) type (engine.readers.tracking). The characters' places are
        read for a line that may be tracked, once for each text set in the same fonts and sizes to the same width
        (`tracked`: a running head repeated on every page is the same line each time)."""
        line = self.data["blocks"][block]["lines"][index]
        if not may_be_tracked("".join(span["text"] for span in line["spans"])):
            return line
        key = (tuple((span["text"], span["font"], round(span["size"], 1)) for span in line["spans"]),
               round(line["bbox"][2] - line["bbox"][0], 1))
        if key not in self.tracked:
            self.tracked[key] = untracked_spans(self.raw()["blocks"][block]["lines"][index])
        texts = self.tracked[key]
        if texts is None:
            return line
        return {**line, "spans": [{**span, "text": t} for span, t in zip(line["spans"], texts, strict=True)]}

    def pieces(self, block: int, index: int) -> list[dict]:
        """`line(block, index)`, or the cells one of its text runs holds: an amount and, a column's gap further on,
        the currency sign that opens the next column's amount ("24,690   $ ", "3,660   $ (1,016)  $ " set as one
        run; see `cells_apart`), cut where the characters' places (rawdict) show the gaps."""
        line = self.line(block, index)
        if not any(SIGN_AFTER_AMOUNT_RE.search(span["text"]) for span in line["spans"]) \
                or line is not self.data["blocks"][block]["lines"][index]:  # (a tracked line is left whole)
            return [line]
        cut = _cut_at_signs(self.raw()["blocks"][block]["lines"][index])
        if cut is None:
            return [line]
        frags = [_fragment(part, 0, self.fixed) for part in cut]
        merged = [cut[0]]
        for k in range(1, len(cut)):
            left, right = frags[k - 1], frags[k]
            if left is not None and right is not None and cells_apart(left, right, numbers=False):
                merged.append(cut[k])
            else:  # (no cell boundary there: the pieces stay one line)
                prev = merged[-1]
                merged[-1] = {**prev, "spans": prev["spans"] + cut[k]["spans"],
                              "bbox": (prev["bbox"][0], prev["bbox"][1], cut[k]["bbox"][2], prev["bbox"][3])}
        return merged

    def words(self) -> list[tuple]:
        """`page.get_text("words")`. Its flags differ from the text's by at most TEXT_USE_CID_FOR_UNKNOWN_UNICODE,
        which changes only characters read as U+FFFD: with none on the page, the text's extraction is reused."""
        if self.flags == pymupdf.TEXTFLAGS_WORDS or (
                self.flags | pymupdf.TEXT_USE_CID_FOR_UNKNOWN_UNICODE == pymupdf.TEXTFLAGS_WORDS
                and not any("\ufffd" in span["text"] for block in self.data["blocks"]
                            for line in block.get("lines", ()) for span in line["spans"])):
            return self.page.get_text("words", textpage=self.textpage)
        return self.page.get_text("words")


def read_layout(page: pymupdf.Page, number: int, min_image_px: int = 100, text: PageText | None = None) -> PageLayout:
    """Styled lines (reading order) and large images of one page (`text`: its text layer, when read already)."""
    rect = page.rect
    text = text or PageText(page)
    fragments: list[Line] = []
    for b, block in enumerate(text.data["blocks"]):
        if block.get("type") != 0:
            continue
        for k in range(len(block["lines"])):
            for line in text.pieces(b, k):
                frag = _fragment(line, block["number"], text.fixed)
                if frag is not None and _visible(frag, rect):
                    fragments.append(frag)
    fragments = _join_stretched(_without_overprint(fragments))
    gutter = word_gutter(fragments, rect.width) if any(f.font for f in fragments) else prose_gutter(fragments,
                                                                                                   rect.width)
    lines = _join_drop_caps(_join_pieces(_merge_baseline(fragments, gutter), gutter))
    ordered, columns = reading_order(lines, gutter)
    images = []
    has_images = bool(page.get_images(full=False))  # the resource list is cheap; image boxes are not
    for info in page.get_image_info() if has_images else ():
        w, h = int(info.get("width", 0)), int(info.get("height", 0))
        bbox = tuple(round(v, 1) for v in info.get("bbox", (0, 0, 0, 0)))
        if w >= min_image_px and h >= min_image_px and (bbox[2] - bbox[0]) > 5 and (bbox[3] - bbox[1]) > 5:
            images.append((w, h, bbox))
    drawn = len(page.get_cdrawings()) if not fragments else 0  # (cheap on a page of text: not counted)
    return PageLayout(number, rect.width, rect.height, ordered, images, columns, gutter, drawn=drawn)


def reading_order(lines: list[Line], gutter: float | None) -> tuple[list[Line], int]:
    """Lines in reading order and the page's number of columns: around a known gutter, else XY-cut."""
    notes = margin_notes(lines)  # (a stamp up the margin, as tall as the columns, would hide the blank above
    # them from the XY-cut: read after the page's text, it parts nothing)
    level = [l for l in lines if id(l) not in notes]
    aside = [l for l in lines if id(l) in notes]
    if gutter is not None:
        return around_gutter(level, gutter) + aside, 2
    ordered, split = xy_cut(level)
    return ordered + aside, 2 if split else 1


def _visible(line: Line, rect: pymupdf.Rect) -> bool:
    return line.x1 > rect.x0 and line.x0 < rect.x1 and line.y1 > rect.y0 and line.y0 < rect.y1
