"""Whether a printed line ends its sentence, or the sentence visibly runs on into the next line."""

from __future__ import annotations

import re

SENTENCE_END = (".", ":", "?", "!", "”", '"', ";")
FOOTNOTE_MARK = re.compile(r"(?<=[.?!:;”\")])\d{1,3}$")  # "… end of sentence.12"
RUNS_ON = (",", "-", "\u00ad", "\ufffe", "\u2010", "(", "–", "—")


def ends_sentence(text: str) -> bool:
    text = text.rstrip()
    if text[-1:].isdecimal():  # (a footnote's number ends the text: what FOOTNOTE_MARK asks after)
        text = FOOTNOTE_MARK.sub("", text)
    return text.endswith(SENTENCE_END)


def sentence_goes_on(prev: str, nxt: str) -> bool:
    """The text itself says the sentence runs on: no closing punctuation before, a lower-case word
    (or the rest of a hyphenated word) after."""
    prev = prev.rstrip()
    if not prev or ends_sentence(prev):
        return False
    return nxt[:1].islower() or prev.endswith(RUNS_ON)
