"""Values of the kind a question asks for (a number, a date) that a text states and the question does not
already hold: a question's own numbers ("the 1998 world cup", "in fiscal 2025") are what it is about, never
the value it asks for.

A value is the question's own when every number it writes in digits is a number of the question ("June
2019" or "2019" for a question about 2019, "1,411" for one that writes "1411"); one written in words
("three") when the question holds that word. Numbers are compared whole, not as substrings: "20" is not the
question's own because the question says "2023".
"""

from __future__ import annotations

import re

from engine.index.evidence import DATE_RE, has_type, stated

NUMERAL_RE = re.compile(r"\d+(?:[.,]\d+)*")
LETTERS_RE = re.compile(r"[a-z]+")  # the words of a value written in words ("three")
AMOUNT_KINDS = frozenset({"number", "date"})  # the kinds of value `new_values` reads
# a question asking how long or how often is answered by a span of time, which a text often writes with an
# article ("within a week", "once a year", "an hour")
DURATION_ASK_RE = re.compile(r"\bhow (?:long|often|soon|frequently)\b", re.I)
DURATION_RE = re.compile(r"\b(?:a|an|one|half an?|each|every)\s+(?:second|minute|hour|day|week|fortnight|month|quarter|"
                         r"year|decade)\b", re.I)


def numerals(text: str) -> frozenset[str]:
    """The numbers a text writes in digits, thousands commas dropped ("1,411" -> "1411", "5.1" kept)."""
    return frozenset(m.group(0).replace(",", "") for m in NUMERAL_RE.finditer(text))


def is_own(value: str, question: str, own: frozenset[str] | None = None) -> bool:
    """Whether a value found in a text is one the question itself states (`own`: numerals(question),
    when the caller has it already)."""
    found = numerals(value)
    if found:
        return found <= (own if own is not None else numerals(question))
    return set(LETTERS_RE.findall(value.lower())) <= set(LETTERS_RE.findall(question.lower()))


def new_values(kind: str | None, text: str, question: str) -> list[re.Match[str]]:
    """The values of `kind` ("number" or "date") in the text that the question does not state (and, for a
    question asking how long or how often, the spans of time written with an article)."""
    if kind not in AMOUNT_KINDS:
        return []
    own = numerals(question)
    # a number within a date ("December 28, 2024": 28 and 2024), or a date itself (a year alone: "for fiscal 2025 and
    # 2024"), is no amount
    dates = [m.span() for m in DATE_RE.finditer(text)] if kind == "number" else []
    found = [m for m in stated(kind, text) if not is_own(m.group(0), question, own)
             and not any(a <= m.start() and m.end() <= b for a, b in dates)]
    if kind == "number" and DURATION_ASK_RE.search(question):
        found += [m for m in DURATION_RE.finditer(text) if not is_own(m.group(0), question, own)]
        found.sort(key=lambda m: m.start())
    return found


def holds_value(kind: str | None, text: str, question: str) -> bool:
    """True when the text holds a value of the asked kind that the question does not state (for a name, a
    reason or a definition as engine.index.evidence.has_type reads it)."""
    if kind in AMOUNT_KINDS:
        return bool(new_values(kind, text, question))
    return has_type(kind, text, question)
