"""Which printed lines make one paragraph (line pitch, indents, line ends, style), and joining them.

A line continues the paragraph above it when it sits one line pitch below (the pitch this document
uses for text of that size, or the paragraph's own), in the same column, in the same style, and
nothing says a new paragraph starts: a first-line indent or a return to the left after a sentence
that ended, a last line that ended a sentence short of the column's right edge, a numbering label.
A line at the top of the next column continues it when the sentence visibly goes on (no closing
punctuation above, a lower-case word below). A word hyphenated at a line end is rejoined by the rule of
engine.readers.hyphens (`join_lines`), which table cells and wrapped headings share.
"""

from __future__ import annotations

import re

from engine.readers.headings import label_class
from engine.readers.layout import Line
from engine.readers.pitch import pitch_limit
from engine.readers.reading_order import same_row
from engine.readers.sentences import ends_sentence, sentence_goes_on
from engine.text import has_leader, roman_value

NUMBERED_RE = re.compile(r"^\(?\d{1,4}[.)]?\s+\S")
INDENT = 0.8  # ems: a first-line indent or a hanging indent is at least this deep
MAX_INDENT = 6.0  # ems: deeper than this, the line is not the same paragraph's


TERM_CHARS = 24  # a hanging term ("O", "-v", "--output FILE", "Note:") is at most this long …
TERM_WORDS = 3  # … and this many words
TERM_GAP = 1.5  # ems between a hanging term and its text, at the least (a tab stop, not a word space)
ALIGNED = 0.5  # ems: lines set at one tab stop start within this of each other
# a numbering label, "(ii)", "b.", "F)", opens a numbered item (a bare letter, "D", may be a term: "D  Specify …")
ENUMERATOR_RE = re.compile(r"^\(?(?:[^\W\d_]|[ivxlcIVXLC]{1,5})[.)]$")
PITCH = 2.0  # ems from one baseline to the next, at the most, for the next line to be right under a term's


def hanging_term(line: Line, nxt: Line | None, item: Line | None = None) -> bool:
    """Whether the line opens an item of a list of hanging terms: a short term at the margin, its text a tab stop
    to the right, and the text's next line set under that text, or the next item's term and text under this one's,
    or this one's under those of the item before (`item`: the first line of the list item open above, if any)
    (troff's tagged paragraphs, option lists, glossaries: "O    Add an entry to the document outline. …")."""
    text_start = _term_text(line)
    if text_start is None:
        return False
    if item is not None and _aligned_terms(item, _term_text(item), line, text_start):
        return True
    em = max(line.size, 1.0)
    if nxt is None or not same_size(line, nxt) or not 0 < nxt.baseline - line.baseline <= PITCH * em:
        return False  # (the next line right under it)
    return abs(nxt.x0 - text_start) <= ALIGNED * em or _aligned_terms(line, text_start, nxt, _term_text(nxt))


def _term_text(line: Line) -> float | None:
    """Where the text after a line's hanging term starts, if the line opens with one: a short term without digits (a
    number, a section's or a line's, is none) that is no numbering label, its text a tab stop to the right; None if
    not."""
    if len(line.pieces) < 2 or line.mono or has_leader(line.text):
        return None
    (term, _, term_end), (_, text_start, _) = line.pieces[0], line.pieces[1]
    if len(term) > TERM_CHARS or len(term.split()) > TERM_WORDS or any(c.isdigit() for c in term) \
            or ENUMERATOR_RE.match(term) \
            or text_start - term_end < TERM_GAP * max(line.size, 1.0):
        return None
    return text_start


def _aligned_terms(above: Line, above_text: float | None, below: Line, below_text: float | None) -> bool:
    """Two lines of hanging terms (their texts starting at `above_text`, `below_text`), one term under the other and
    one text under the other."""
    em = max(above.size, 1.0)
    return above_text is not None and below_text is not None and abs(above.x0 - below.x0) <= ALIGNED * em \
        and abs(above_text - below_text) <= ALIGNED * em


def right_edge(lines: list[Line], line: Line) -> float:
    """The right edge of the column `line` is in: the furthest end of the page's lines that start within
    an em or so of it and overlap it."""
    reach = line.x1
    for other in lines:
        if abs(other.x0 - line.x0) <= 1.5 * line.size and other.x0 < line.x1 and other.x1 > line.x0:
            reach = max(reach, other.x1)
    return reach


def same_size(a: Line, b: Line) -> bool:
    """Set in one size: within a point, or within a quarter when both sizes were estimated from glyph
    widths (fonts that report none), where a bold face measures larger than its roman."""
    if a.font and b.font:
        return abs(a.size - b.size) < 0.25 * min(a.size, b.size)
    return abs(a.size - b.size) < 1


def _first_word_width(line: Line) -> float:
    word = line.text.split(" ", 1)[0]
    return len(word) * (line.x1 - line.x0) / max(1, len(line.text))


def column_run(paragraph: list[Line]) -> list[Line]:
    """The paragraph's lines since it last went on in another column (each below the one before)."""
    start = len(paragraph) - 1
    while start > 0 and paragraph[start].baseline > paragraph[start - 1].baseline:
        start -= 1
    return paragraph[start:]


def _after_label(line: Line, page: list[Line]) -> bool:
    """Whether something stands left of the line on its row (a run-in label: "Exercise 3   Modify ...")."""
    return any(o is not line and o.x1 <= line.x0 + 1 and same_row(o, line) for o in page)


def _decimal_in_text(prev: Line, line: Line, label: tuple[str, float]) -> bool:
    """A line that opens with a decimal number and goes on in lower case after a line that did not end its
    sentence ("… into circulation in 2023, a" / "1.0 percent decrease …") holds an amount in running text, not
    a section number (a section's title opens with a capital)."""
    if not label[0].startswith("decimal") or ends_sentence(prev.text):
        return False
    after = line.text.split(maxsplit=1)[1:]
    return bool(after) and after[0][:1].islower()


SINGLE_LABEL_RE = re.compile(r"^\(?([A-Za-z]{1,4}|\d{1,2})[.)]")  # the label's value: "D." "0." "xi." "7)"


def _label_value(kind: str, token: str) -> int | None:
    """A label's place in its series of `kind` (1 for "1", "a", "A", "i", "I"; 0 for "0"); None when the token is not
    of that kind."""
    if kind == "arabic":
        return int(token) if token.isdigit() else None
    if not token.isalpha() or token.isupper() != (kind in ("upper", "roman")):
        return None
    if kind in ("roman", "lower_roman"):
        return roman_value(token)
    return ord(token.lower()) - ord("a") + 1 if len(token) == 1 else None


def _label_in_text(prev: Line, line: Line, page: list[Line], label: tuple[str, float]) -> bool:
    """A line that opens like a list's label ("D. All these works …", "0. The example …", "7. A federate …")
    right under a full line that did not end its sentence ("… the k nearest neighbors of q in", "… discussed in
    Chapter"), flush with it, goes on with that sentence when no list holds the label: it is not the first of
    its series (1, a, A, i, I) and no line above it on the page opens with the label before it."""
    if label[0] not in ("arabic", "upper", "lower", "roman", "lower_roman") or ends_sentence(prev.text):
        return False
    em = max(prev.size, 1.0)
    if abs(line.x0 - prev.x0) > 0.5 * em or right_edge(page, prev) - prev.x1 > 1.5 * em:
        return False
    match = SINGLE_LABEL_RE.match(line.text)
    value = _label_value(label[0], match.group(1)) if match else None
    if value is None or value <= 1:
        return value == 0
    return not any(other.baseline < line.baseline and (found := SINGLE_LABEL_RE.match(other.text)) is not None
                   and other.text[found.end():found.end() + 1].isspace()
                   and _label_value(label[0], found.group(1)) == value - 1 for other in page)


def continues(paragraph: list[Line], line: Line, *, pitch: float | None, page: list[Line],
              hanging: bool = False) -> bool:
    """Whether `line` goes on with the paragraph whose printed lines so far are `paragraph` (`page`: all
    the page's lines, where the column's right edge is found; `hanging`: a list item, led by its bullet)."""
    prev = paragraph[-1]
    em = max(prev.size, 1.0)
    goes_on = sentence_goes_on(prev.text, line.text)
    if has_leader(prev.text) or not same_size(prev, line) or (line.bold != prev.bold and not goes_on):
        return False
    if ends_sentence(prev.text) and NUMBERED_RE.match(line.text):
        return False  # a numbered paragraph or footnote starts
    label = label_class(line.text)
    if label and not (label[0] in ("arabic_bare", "upper_bare") and goes_on) \
            and not _decimal_in_text(prev, line, label) and not _label_in_text(prev, line, page, label):
        return False  # a numbered item starts
    step = line.baseline - prev.baseline
    if step < 0.5 * em:  # beside or above: the next column (or a stray line out of reading order)
        return line.y1 < prev.y0 and line.x0 >= prev.x1 - em and goes_on
    run = column_run(paragraph)
    # one line pitch below: the paragraph's own pitch, else the document's for this size
    own = run[-1].baseline - run[-2].baseline if len(run) >= 2 else None
    limit = pitch_limit(max(own or 0.0, pitch or 0.0) or None, em)
    if step > limit and not (step <= 1.5 * limit and goes_on):
        return False
    if line.x0 >= prev.x1 or (line.x1 <= prev.x0 and not (goes_on and len(run) == 1 and _after_label(prev, page))):
        return False  # not in the same column (but a first line may start after a run-in label)
    margin = run[1].x0 if len(run) >= 2 else None
    finished = ends_sentence(prev.text) and not goes_on  # (a decimal number going on: sentences.DECIMAL_END_RE)
    if hanging and margin is None and line.x0 < prev.x0 + 0.5 * INDENT * em \
            and not goes_on:
        return False  # a list item's next line hangs under its text, not under its bullet
    if margin is None:
        if line.x0 > prev.x0 + INDENT * em:  # deeper than the first line: a hanging indent, or a new paragraph
            if finished or (line.x0 > prev.x0 + MAX_INDENT * em and not goes_on):
                return False
        elif line.x0 < prev.x0 - MAX_INDENT * em and not goes_on:
            return False  # (a first line that began after a run-in label goes on at the margin)
    elif line.x0 > margin + INDENT * em:  # indented under the paragraph's lines: a new paragraph
        if finished or line.x0 > margin + MAX_INDENT * em:
            return False
    elif line.x0 < margin - INDENT * em and not goes_on:
        return False  # back out of a hanging indent: the next item
    # a line that stopped short of the column's edge although the next word would have fit ended its paragraph
    return not (finished and right_edge(page, prev) - prev.x1 > _first_word_width(line) + 0.5 * em)


LIST_LINES = 3  # lines a list set one item a line without bullets has at the least


def line_list(lines: list[Line]) -> bool:
    """Whether a paragraph's printed lines are a list set one item a line without bullets (an HTML list printed
    plainly, an address, a title block's lines): LIST_LINES or more lines down one left edge, no sentence running on
    from one to the next, and each but its widest and its last stopping short of the widest although the next line's
    first word would have fit there (a wrapped paragraph fills its lines; so does a ragged one, up to a word)."""
    if len(lines) < LIST_LINES:
        return False
    em = max(lines[0].size, 1.0)
    if any(b.baseline <= a.baseline for a, b in zip(lines, lines[1:])) \
            or any(abs(other.x0 - lines[0].x0) > 0.5 * em for other in lines[1:]) \
            or any(sentence_goes_on(a.text, b.text) for a, b in zip(lines, lines[1:])):
        return False
    widest = max(range(len(lines)), key=lambda k: lines[k].x1)
    return all(lines[widest].x1 - lines[k].x1 > _first_word_width(lines[k + 1]) + 0.5 * em
               for k in range(len(lines) - 1) if k != widest)
