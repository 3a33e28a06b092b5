"""The prose and boilerplate tests shared by the summary and theme extractors (sentences: engine.text)."""

from __future__ import annotations

import re

BOILERPLATE_MARKS = (
    "©", "copyright", "all rights reserved", "http", "www.", "@", "....", "……", "click", " | ", "trademark",
    "refers to one or more of", "legally separate", "has been licensed", "proprietary", "confidential",
    "general information only", "does not constitute", "informational purposes", "subject to change without",
)  # fmt: skip
FOOTNOTE_END_RE = re.compile(r"(?:(?<=[^\W\d_][.!?])|(?<=[.!?][\"”’)]))\d{1,3}$")


def is_prose(sentence: str) -> bool:
    """At least five words, at least 40% of them starting lower-case (not a label, a list or a caption)."""
    words = sentence.split()
    return len(words) >= 5 and sum(1 for w in words if w[:1].islower()) >= 0.4 * len(words)
