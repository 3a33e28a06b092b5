"""Chapter titles set with a hanging indent: the chapter's label ("Capítulo 4.", "Kapitola 2", "Chapter IV") at the
margin, its title after it on the row, and the title's next lines aligned where that title text begins
("Capítulo 4. Sujetos pasivos. Repercusión." over "Devengo. Base imponible y" over "tipo": one heading)."""

from __future__ import annotations

import re

from engine.readers.layout import Line

# a label in any language: a capitalised word and a number (arabic, roman or a letter), an optional stop, then text
LABEL_RE = re.compile(r"^[^\W\d_][^\W\d_'’-]{1,24}\s+(?:\d{1,3}|[IVXLC]{1,6}|[A-Z])\.?(?:\s+|$)")
LABEL_ONLY_RE = re.compile(LABEL_RE.pattern + r"$")
BEFORE = 1.0  # ems the title's next line may start left of where the title's text is reckoned to begin
AFTER = 2.0  # ems it may start right of it (a tab after the label sets the text further right than a space would)
ALIGNED = 0.25  # ems: the title's later lines start where its second one does


def hanging_indent(first: Line) -> float | None:
    """Where the title begins on a line that opens with a chapter's label and goes on with the title's text (an
    estimate from the share of the line's characters before it); None for any other line, and for a label alone
    on its line (a title on its row is a line of its own, joined to it as a label on the title's row)."""
    match = LABEL_RE.match(first.text)
    if match is None or not first.text[:1].isupper() or match.end() >= len(first.text.rstrip()):
        return None
    return first.x0 + (first.x1 - first.x0) * match.end() / max(1, len(first.text))


def label_only(text: str) -> bool:
    """A chapter's label alone ("Capítulo 2.", "Kapitola 3"): a capitalised word and a number."""
    return LABEL_ONLY_RE.match(text.strip()) is not None and text.strip()[:1].isupper()


def hangs(first: Line, prev: Line, nxt: Line, indent: float) -> bool:
    """Whether `nxt` goes on the title that `first` opens with its label (`indent`: where its text begins): in
    the first line's size, weight and slant, right under the line before it, at the hanging indent (the title's
    second line) or where the line before it starts (a later one)."""
    size = first.size
    if abs(nxt.size - size) >= 0.6 or (nxt.bold, nxt.italic) != (first.bold, first.italic) \
            or not -0.35 * size <= nxt.y0 - prev.y1 <= 1.2 * size or nxt.x0 < first.x0 + 2 * size:
        return False
    if prev is first:
        return indent - BEFORE * size <= nxt.x0 <= indent + AFTER * size
    return abs(nxt.x0 - prev.x0) <= ALIGNED * size
