"""Display formulas: lines of mathematics set apart, kept on their own lines, inside the sentence they belong to."""

from __future__ import annotations

import re
from functools import lru_cache

from engine.readers.layout import Line

MATH_FACE = re.compile(r"cmmi|cmsy|cmex|msbm|msam|eufm|rsfs|lmmath|lmmi|lmsy|stix(?!two-?text)|math|symbol", re.I)
# (STIX Two Text is the text face of the STIX fonts: STIXTwoMath and STIXMath set the mathematics)
RELATION = re.compile(r"[=<>≤≥≠≈≡∈∉⊂⊆⊃⊇→←↦⇒⇐⇔∼≜∝]")
SYMBOL = re.compile(r"[=<>≤≥≠≈≡∈∉⊂⊆⊃⊇→←↦⇒⇐⇔∼≜∝+−∑∏∫√∪∩∀∃·×÷±∞∂∇⟨⟩|^_{}()\[\]/*]")
WORD = re.compile(r"[^\W\d_]{4,}")
STOPS = (".", "?", "!")


def is_formula(line: Line) -> bool:
    """A line of mathematics: set in a math font, or relations and operators with hardly a word of prose."""
    if _math_face(line.face):
        return True
    text = line.text
    if not RELATION.search(text):
        return False
    words = [w for w in WORD.findall(text) if w.islower()]
    return bool(RELATION.search(text)) and len(SYMBOL.findall(text)) >= 3 and len(words) <= 1


@lru_cache(maxsize=1024)
def _math_face(face: str) -> bool:
    return MATH_FACE.search(face) is not None


def runs_into(prev: Line, line: Line, limit: float) -> bool:
    """A formula line taken into the sentence above it: that sentence has not stopped (a colon introduces
    the formula), and the formula sits within a few line pitches below."""
    step = line.baseline - prev.baseline
    return not prev.text.rstrip().endswith(STOPS) and 0.3 * line.size < step <= 3.5 * limit


def resumes(prev: Line, line: Line, limit: float) -> bool:
    """The sentence goes on after its formula: a lower-case word within a few line pitches below."""
    step = line.baseline - prev.baseline
    return line.text[:1].islower() and not prev.text.rstrip().endswith(STOPS) and 0.3 * line.size < step <= 3.5 * limit


def formula_goes_on(prev: Line, line: Line, limit: float) -> bool:
    """The next line of a formula of several lines (aligned equations)."""
    step = line.baseline - prev.baseline
    return 0.3 * line.size < step <= 2.5 * limit
