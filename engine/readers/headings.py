"""Heading detection from font size, weight and numbering, with one level per style document-wide."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from engine.readers.layout import Line

MAX_WORDS = 24
LEADER_RE = re.compile(r"(\.\s*){4,}|…{2,}|(\.\s*){2,}\s*\d+\s*$")
_LABEL_PATTERNS: list[tuple[str, float, re.Pattern[str]]] = [
    ("decimal", 2.0, re.compile(r"^(\d{1,2}(?:\.\d{1,2}){1,4})\.?\s+\S")),
    ("roman", 0.0, re.compile(r"^([IVXL]{1,5})\.\s+\S")),
    ("upper", 1.0, re.compile(r"^([A-Z])[.)]\s+\S")),
    ("arabic", 2.0, re.compile(r"^(\d{1,2})[.)]?\s+[A-Z]")),
    ("lower", 3.0, re.compile(r"^([a-z])[.)]\s+\S")),
    ("paren_arabic", 4.0, re.compile(r"^\((\d{1,2})\)\s+\S")),
    ("paren_lower", 5.0, re.compile(r"^\(([a-z])\)\s+\S")),
    ("upper_bare", 1.0, re.compile(r"^([A-H])\s+[A-Z][a-z]")),
]
_SMALL_WORDS = {
    "a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "is", "of", "on", "or", "the",
    "to", "under", "with", "vs", "via", "its", "be", "are", "not", "that", "who", "which", "than",
}
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'’\-]*")


@dataclass(frozen=True, slots=True)
class Style:
    size: float
    bold: bool
    italic: bool
    caps: bool
    numbering: str  # label class for body-size styles, "" otherwise


@dataclass(slots=True)
class Candidate:
    page: int
    index: int  # index of its first line in the page's line list
    count: int  # lines merged into it
    text: str
    style: Style
    order: int  # position in the document (first-appearance ranking)


def label_class(text: str) -> tuple[str, float] | None:
    for name, rank, pattern in _LABEL_PATTERNS:
        match = pattern.match(text)
        if match:
            if name == "decimal":
                depth = match.group(1).count(".")
                return f"decimal{depth}", rank + 0.2 * depth
            return name, rank
    return None


def body_size(pages: list[list[Line]]) -> float:
    weights: Counter[float] = Counter()
    for lines in pages:
        for line in lines:
            weights[line.size] += len(line.text)
    return weights.most_common(1)[0][0] if weights else 10.0


def _is_caps(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 4 and all(c.isupper() for c in letters)


def _title_case(text: str) -> bool:
    words = _WORD_RE.findall(text)
    if not words:
        return False
    significant = [w for w in words if w.lower() not in _SMALL_WORDS]
    if not significant:
        return False
    capital = sum(1 for w in significant if w[0].isupper())
    return capital >= 0.75 * len(significant)


def _text_ok(text: str) -> bool:
    letters = sum(c.isalpha() for c in text)
    if letters < 2 or len(text) > 220 or len(text.split()) > MAX_WORDS:
        return False
    if LEADER_RE.search(text) or "http" in text.lower() or "www." in text.lower():
        return False
    stripped = re.sub(r"^\W+", "", text)
    label = label_class(text)
    head = text if label else stripped
    if label:
        return True
    return bool(head) and not head[0].islower()


def _ends_sentence(text: str) -> bool:
    return text.rstrip().endswith((".", ",", ";")) and not re.search(r"\b[A-Z]\.$|\b[IVX]+\.$", text.strip())


def find_candidates(pages: list[list[Line]], body: float, right_margin: float) -> list[Candidate]:
    """Lines that look like headings, multi-line headings merged, in document order."""
    found: list[Candidate] = []
    order = 0
    for page_index, lines in enumerate(pages):
        i = 0
        while i < len(lines):
            line = lines[i]
            style = _classify(lines, i, body, right_margin)
            if style is None:
                i += 1
                continue
            text, count = line.text, 1
            # merge the following lines of a wrapped heading (same style, close below)
            while i + count < len(lines) and count < 4:
                nxt = lines[i + count]
                prev = lines[i + count - 1]
                if not (
                    abs(nxt.size - line.size) < 0.6
                    and nxt.bold == line.bold
                    and nxt.italic == line.italic
                    and 0 <= nxt.y0 - prev.y1 <= 0.9 * line.size
                    and abs(nxt.x0 - line.x0) < 40 + (60 if label_class(line.text) else 0)
                    and (line.size >= body * 1.12 or line.bold or line.italic)
                    and _text_ok(nxt.text)
                    and label_class(nxt.text) is None
                ):
                    break
                text = f"{text} {nxt.text}"
                count += 1
            if len(text.split()) <= MAX_WORDS + 6:
                found.append(Candidate(page_index + 1, i, count, text, style, order))
                order += 1
            i += count
    return found


def _classify(lines: list[Line], i: int, body: float, right_margin: float) -> Style | None:
    line = lines[i]
    text = line.text
    if not _text_ok(text) or line.size < body * 0.9:
        return None
    label = label_class(text)
    caps = _is_caps(text)
    large = line.size >= body * 1.12
    if large:
        return Style(line.size, line.bold, line.italic, caps, "")
    # body-size lines: need emphasis or a numbering label, and to stand on their own
    prev = lines[i - 1] if i > 0 else None
    nxt = lines[i + 1] if i + 1 < len(lines) else None
    if _ends_sentence(text) and not (label and len(text.split()) <= 2):
        return None
    if nxt is not None and nxt.size == line.size and nxt.bold == line.bold and nxt.italic == line.italic:
        # same style continues: a heading only if the line is short and the next starts a new block
        if line.x1 > right_margin - 0.15 * (right_margin - line.x0) and not line.bold:
            return None
        if not (line.bold or line.italic or caps) and nxt.x0 <= line.x0 - 1 and not label:
            return None
    if prev is not None and not _ends_block(prev) and prev.size == line.size and prev.bold == line.bold:
        return None
    numbering = label[0] if label else ""
    if line.bold or (caps and len(text.split()) >= 1):
        return Style(line.size, line.bold, line.italic, caps, numbering)
    if label and _title_case(text) and line.x1 < right_margin - 30:
        return Style(line.size, line.bold, line.italic, caps, numbering)
    if line.italic and label:
        return Style(line.size, line.bold, line.italic, caps, numbering)
    return None


def _ends_block(line: Line) -> bool:
    text = line.text.rstrip()
    return text.endswith((".", ":", "?", "!", "”", '"', ")")) or line.bold


def assign_levels(candidates: list[Candidate], body: float, pages: int) -> dict[int, int]:
    """One level per style for the whole document: {candidate order: level (1 = top)}."""
    by_style: dict[Style, list[Candidate]] = {}
    for cand in candidates:
        by_style.setdefault(cand.style, []).append(cand)
    kept: dict[Style, list[Candidate]] = {}
    for style, items in by_style.items():
        per_page = len(items) / max(1, pages)
        if style.size < body * 1.12 and len(items) > 30 and per_page > 1.5:
            continue  # bold body-size text used everywhere: labels or table cells, not structure
        kept[style] = items

    def rank(style: Style) -> tuple[float, float, int]:
        first = kept[style][0].order
        label = label_class(kept[style][0].text) if style.numbering else None
        if label:
            sub = label[1]
        else:
            sub = (0.0 if style.bold and style.caps else 1.0 if style.bold else 2.5 if style.caps else
                   3.5 if style.italic else 4.5)
        return (-round(style.size), sub, first)

    ordered = sorted(kept, key=rank)
    levels: dict[int, int] = {}
    for level, style in enumerate(ordered, start=1):
        for cand in kept[style]:
            levels[cand.order] = min(level, 6)
    return levels
