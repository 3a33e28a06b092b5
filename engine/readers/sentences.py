"""Whether a printed line ends its sentence, or the sentence visibly runs on into the next line."""

from __future__ import annotations

import re

SENTENCE_END = (".", ":", "?", "!", "”", '"', ";")
FOOTNOTE_MARK = re.compile(r"(?<=[.?!:;”\")])\d{1,3}$")  # "… end of sentence.12"
DECIMAL_END_RE = re.compile(r"\d\.\d{1,3}$")  # "… 57.3": a decimal number, or a number ending a sentence and its mark
RUNS_ON = (",", "-", "\u00ad", "\ufffe", "\u2010", "(", "–", "—")
# English words that cannot end a sentence: an article, a possessive, a preposition or conjunction that wants
# what follows ("… signed by the chief counsel for the" / "Committee’s staff, …")
DANGLING = frozenset("the a an of and or for with from into than its their our your".split())
# what opens a list item or a note rather than the rest of a sentence: a bullet, a label ("(iv) ", "3. ", "b) ",
# "[2] "), a number before a capital ("90 See …")
MARKER_RE = re.compile(r"^\s*(?:[^\w\s“\"'‘(\[]\s|[(\[]?[0-9ivxlcIVXLCa-zA-Z]{1,4}[.)\]]\s|\d{1,4}\s+[A-Z])")


def ends_sentence(text: str) -> bool:
    text = text.rstrip()
    if text[-1:].isdecimal():  # (a footnote's number ends the text: what FOOTNOTE_MARK asks after)
        text = FOOTNOTE_MARK.sub("", text)
    return text.endswith(SENTENCE_END)


def sentence_goes_on(prev: str, nxt: str) -> bool:
    """The text itself says the sentence runs on: no closing punctuation before, a lower-case word
    (or the rest of a hyphenated word) after, or a last word that wants what follows (`dangles`) before
    anything but a list item or a note (`MARKER_RE`). A decimal number at the line's end reads as a sentence's
    last number and a note's mark ("… in 2017.45"), unless a lower-case word goes on ("… claims (57.3" /
    "percent) within …")."""
    prev = prev.rstrip()
    if not prev:
        return False
    if ends_sentence(prev):
        return DECIMAL_END_RE.search(prev) is not None and nxt[:1].islower()
    return nxt[:1].islower() or prev.endswith(RUNS_ON) or (dangles(prev) and MARKER_RE.match(nxt) is None)


def dangles(text: str) -> bool:
    """Whether the text stops on a word that wants what follows (`DANGLING`); not a list's "…; and", "…; or",
    which close an item before the next."""
    head, _, last = text.rstrip().rpartition(" ")
    return last in DANGLING and not (last in ("and", "or") and head.endswith(";"))
