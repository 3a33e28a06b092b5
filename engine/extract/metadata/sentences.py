"""The prose and boilerplate tests shared by the summary and theme extractors (sentences: engine.text)."""

from __future__ import annotations

import re

from engine.readers.mojibake import copyright_sign

BOILERPLATE_MARKS = (
    "copyright", "all rights reserved", "http", "www.", "@", "....", "……", "click", " | ", "trademark",
    "refers to one or more of", "legally separate", "has been licensed", "proprietary", "confidential",
    "general information only", "does not constitute", "informational purposes", "subject to change without",
)  # fmt: skip
FOOTNOTE_END_RE = re.compile(r"(?:(?<=[^\W\d_][.!?])|(?<=[.!?][\"”’)]))\d{1,3}$")


def is_prose(sentence: str) -> bool:
    """At least five words, at least 40% of them starting lower-case (not a label, a list or a caption)."""
    words = sentence.split()
    return len(words) >= 5 and sum(1 for w in words if w[:1].islower()) >= 0.4 * len(words)


def is_boilerplate(sentence: str) -> bool:
    """A copyright, licence, legal or web line ("© 2023 ...", "All rights reserved"), not a document's own prose."""
    lowered = sentence.lower()
    return copyright_sign(sentence) or any(mark in lowered for mark in BOILERPLATE_MARKS)
