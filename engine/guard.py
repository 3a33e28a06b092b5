"""Deterministic checks on what an LLM returns: content preservation (token recall) and page-marker repair."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from engine.markdown import MARKER_RE, marker
from engine.text import folded_words

LOOSE_MARKER_RE = re.compile(r"^[\s\-–—*_#>]*end\s+(?:of\s+)?page\s+(\d+)[\s\-–—*_.]*$", re.I)


def content_tokens(markdown: str) -> Counter[str]:
    """Folded words of the text, page markers left out (heading marks, table pipes and emphasis underscores
    are not words; a ligature is its letters)."""
    words: Counter[str] = Counter()
    for line in markdown.split("\n"):
        if not MARKER_RE.match(line):
            words.update(folded_words(line))
    return words


def token_recall(original: str, rewritten: str) -> float:
    """Share of the original's words (with multiplicity) still present in the rewrite (1.0 when it had none)."""
    want, have = content_tokens(original), content_tokens(rewritten)
    total = sum(want.values())
    return 1.0 if total == 0 else sum(min(n, have[w]) for w, n in want.items()) / total


def token_precision(original: str, rewritten: str) -> float:
    """Share of the rewrite's words that were in the original: low when the model invented content."""
    return token_recall(rewritten, original)


@dataclass
class MarkerRepair:
    """The text with its markers repaired, what was changed, and whether every expected page is marked."""

    text: str
    repairs: list[str] = field(default_factory=list)
    complete: bool = True


def repair_markers(text: str, pages: list[int]) -> MarkerRepair:
    """Exactly one `--- end page N` per expected page, ascending: near-miss spellings normalised, invented,
    duplicate and out-of-order markers removed, text after the last marker moved before it.

    `complete` is False when an expected marker is missing (the page boundaries cannot be known).
    """
    expected = set(pages)
    repairs: list[str] = []
    lines: list[str] = []
    last = 0
    for line in text.split("\n"):
        strict = MARKER_RE.match(line)
        loose = strict or LOOSE_MARKER_RE.match(line)
        if not loose:
            lines.append(line)
            continue
        number = int(loose.group(1))
        if number not in expected:
            repairs.append(f"removed an invented marker for page {number}")
        elif number <= last:
            repairs.append(f"removed a {'duplicate' if number == last else 'out-of-order'} marker for page {number}")
        else:
            if not strict or line != marker(number):
                repairs.append(f"normalised the marker of page {number} (was {line.strip()!r})")
            lines.append(marker(number))
            last = number
            continue
    kept = [int(m.group(1)) for l in lines if (m := MARKER_RE.match(l))]
    missing = sorted(expected - set(kept))
    if missing:
        return MarkerRepair("\n".join(lines), repairs + [f"missing markers for pages {missing}"], complete=False)
    tail = max(i for i, line in enumerate(lines) if MARKER_RE.match(line)) + 1
    body, trailing = lines[:tail], lines[tail:]
    if any(line.strip() for line in trailing):
        repairs.append(f"moved text that followed the last marker (page {kept[-1]}) onto that page")
        body = body[:-1] + trailing + body[-1:]
    return MarkerRepair("\n".join(body).strip("\n"), repairs)
