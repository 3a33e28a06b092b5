"""Tracked (letter-spaced) type: the spaces a text extractor reads into the widened gaps between its letters."""

from __future__ import annotations

import re
from collections.abc import Sequence
from statistics import median
from typing import NamedTuple

TRACKING_MIN = 0.06  # ems: letters of one word set this far apart (or more) are tracked; ordinary type sets them
# edge to edge (a glyph's box is its advance), kerning moving a pair by a few hundredths of an em
TRACKING_MAX = 0.5  # ems: wider apart, the pieces are a table's cells or a spread title's, not one word's letters
WORD_SPACE = 0.15  # ems: a word space in tracked type is its tracking plus a space glyph (0.2 em or more) wide
STEADY = 0.75  # share of the narrow gaps of a tracked line that are its tracking (half of it or more)
MIN_GAPS = 3  # narrow gaps a line needs to show its tracking
SAME_SIZE = 0.5  # points: two glyphs in one size (tracking is measured and undone between such only)
_LONE_LETTER_RE = re.compile(r"(?<!\S)[^\W\d_](?!\S)")  # one letter between blanks (or a numeral's sign: a superset)


class Glyph(NamedTuple):
    """One character of a line as the text layer places it."""

    char: str
    x0: float
    x1: float
    size: float


def tracking_spaces(glyphs: Sequence[Glyph]) -> set[int]:
    """The indices of the spaces in a line that are its tracking, not word spaces: a line is tracked when the
    letters of its words (pairs with no space between) stand apart by the same gap, over TRACKING_MIN ems, and an
    extractor that puts a space wherever a gap passes its own threshold then cuts its words into pieces ("FO U N
    DAT ION S"). Such a space stands in a gap no wider than a letter gap and a little (under twice the tracking,
    under tracking plus WORD_SPACE ems), where a real word space in tracked type is a space glyph with the tracking
    on both sides. Only spaces between two letters or digits of one size go (signs and a formula's scripts keep
    theirs); a line whose letters touch, as in ordinary type, or a row of single letters with nothing joined to
    tell its tracking, keeps every space."""
    marks = [k for k, g in enumerate(glyphs) if not g.char.isspace()]
    pairs = []  # (gap in ems, spaces between, left index, right index)
    for a, b in zip(marks, marks[1:]):
        left, right = glyphs[a], glyphs[b]
        if abs(left.size - right.size) < SAME_SIZE:  # (a script's glyphs stand where the formula sets them)
            pairs.append(((right.x0 - left.x1) / max(left.size, 1.0), b - a > 1, a, b))
    joined = [gap for gap, spaced, _, _ in pairs if not spaced]
    if not joined:
        return set()
    track = median(joined)
    if not TRACKING_MIN <= track <= TRACKING_MAX:
        return set()
    limit = min(2 * track, track + WORD_SPACE)
    narrow = [gap for gap, _, _, _ in pairs if gap <= limit]
    if len(narrow) < MIN_GAPS or sum(gap >= 0.5 * track for gap in narrow) < STEADY * len(narrow):
        return set()
    gone: set[int] = set()
    for gap, spaced, a, b in pairs:
        if spaced and gap <= limit and glyphs[a].char.isalnum() and glyphs[b].char.isalnum():
            gone.update(range(a + 1, b))
    return gone


def untracked_spans(line: dict) -> list[str] | None:
    """The texts of a line's spans (PyMuPDF "rawdict", with their characters) without the spaces of its tracking,
    or None when it has none."""
    glyphs: list[Glyph] = []
    owner: list[int] = []  # the span of each glyph
    for s, span in enumerate(line["spans"]):
        for ch in span.get("chars", ()):
            glyphs.append(Glyph(ch["c"], ch["bbox"][0], ch["bbox"][2], span["size"]))
            owner.append(s)
    gone = tracking_spaces(glyphs)
    if not gone:
        return None
    texts = [[] for _ in line["spans"]]  # type: list[list[str]]
    for k, glyph in enumerate(glyphs):
        if k not in gone:
            texts[owner[k]].append(glyph.char)
    return ["".join(parts) for parts in texts]


def may_be_tracked(text: str) -> bool:
    """Whether a line's text could hold the pieces of tracked words (cheap, on the text alone, before its
    characters' places are read): a capital standing alone beside a piece in capitals ("T Y PE S", "M ACROS"), or
    two small letters standing alone side by side ("W h a t")."""
    if _LONE_LETTER_RE.search(text) is None:
        return False  # (no letter stands alone: nothing more to ask)
    tokens = text.split()
    for a, b in zip(tokens, tokens[1:]):
        if not (a.isalpha() and b.isalpha()) or min(len(a), len(b)) > 1:
            continue
        if (a.isupper() and b.isupper()) or len(a) == len(b) == 1:
            return True
    return False
