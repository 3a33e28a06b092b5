"""A word broken at a line end: one rule for paragraphs, table cells and the lines of a wrapped heading.

A line that ends in a hyphen right after a letter ("Match-") and a next line that starts with a letter or digit
("ing") make one word. Whether the hyphen stays depends on what the joined word would be:

- a plausible word broken by hyphenation (the second part in lower case, the first a plain word) loses its
  hyphen (a soft hyphen, U+00AD or U+FFFE, a hyphen glyph's code, and U+2010 always), unless the document spells
  the word with its hyphen elsewhere and never without it ("well-known");
- otherwise the hyphen is a real one, a compound's broken at its hyphen: the second part starts with a capital
  or a digit ("non-" "English", "UTF-" "8", "LilyPond-Eingabe-" "Dateien"), or the first part is one letter, a
  name from code or set in capitals ("X-" "ray", "GPL-" "compatible", "cd-hit-" "dup", "x_max-"): the hyphen
  stays and no space is put in, unless the document prints the whole word without it elsewhere ("PRE-" "AMBLE"
  where "preamble" is seen). A soft hyphen kept so is printed "-" (word processors code a hyphen as one:
  "DATA\u00ad" "DRIVEN").

No letter is lost either way: the parts are joined, with or without their hyphen. Pure: text in, text out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

BREAK_HYPHENS = ("-", "\u00ad", "\ufffe", "\u2010")  # hyphen, soft hyphen, U+FFFE (a hyphen glyph's code), U+2010
SOFT_HYPHENS = ("\u00ad", "\ufffe")
WORD_END = re.compile(r"([^\W\d_]+)[-\u00ad\ufffe\u2010]$")  # (one of BREAK_HYPHENS at the end)
WORD_START = re.compile(r"[^\W\d_]+")
TOKEN_END = re.compile(r"\S+$")  # the whole printed word before the break ("cd-hit-", "x_max-")
CODE_MARKS = re.compile(r"[\d_/.\\@#$%&*+=<>|~]|[a-z][A-Z]")  # a name from code: digits, marks, camel case
OPENERS = "([{\"'“‘„«‹"  # punctuation that may open a printed word
VOCABULARY_WORD = re.compile(r"[\w'’-]+")  # a word of the vocabulary, its hyphens kept


def vocabulary(texts: Iterable[str]) -> set[str]:
    """The words of the printed lines, lower-cased, their hyphens kept: what says whether a word broken at a
    line end is spelled with its hyphen, or whole, elsewhere in the document."""
    words: set[str] = set()
    for text in texts:
        words.update(VOCABULARY_WORD.findall(text.lower()))
    return words


def plausible(token: str, head: str, rest: str) -> bool:
    """Whether a hyphen between `head` (the letters before it; `token`, the whole printed word) and `rest` (the
    next line's start) is hyphenation's, not a real hyphen: the second part starts in lower case, and the first
    is a plain word (not in capitals, not a name from code, not already a compound; `token`: the printed word
    with its hyphen, opening punctuation aside)."""
    body = token[:-1]  # (the word before its hyphen)
    return rest[:1].islower() and len(head) >= 2 and not head.isupper() and "-" not in body \
        and CODE_MARKS.search(body) is None  # (hyphenation leaves two letters at least before the break: "X-ray")


def joint(text: str, nxt: str, words: set[str] | frozenset[str]) -> str | None:
    """How a line `text` and the next printed line `nxt` join when `text` ends in a word broken at its hyphen,
    with no space between them: what stands for the hyphen ("" when it goes; a soft hyphen kept prints as "-").
    None when no word is broken there (the lines join with a space). `words`: the document's vocabulary."""
    if not text or text[-1] not in BREAK_HYPHENS or not nxt[:1].isalnum():
        return None
    match = WORD_END.search(text[-80:])  # (the end of the text only: a paragraph can be long)
    if match is None:
        return None
    hyphen, head = text[-1], match.group(1)
    found = TOKEN_END.search(text[-80:])
    token = found.group().lstrip(OPENERS) if found else head + hyphen
    tail = WORD_START.match(nxt)
    word = tail.group() if tail else ""
    kept = "-" if hyphen in SOFT_HYPHENS else hyphen
    if tail and plausible(token, head, nxt):
        compound = hyphen == "-" and f"{head}-{word}".lower() in words and (head + word).lower() not in words
        return kept if compound else ""
    # a real hyphen: it goes only when the document prints the whole word elsewhere, the printed word's other
    # hyphens kept ("PRE-" "AMBLE": "preamble"; "LilyPond-Eingabe-" "Dateien": "lilypond-eingabedateien")
    whole = (token[:-1] + word).lower()
    return "" if tail and whole in words and f"{token[:-1]}-{word}".lower() not in words else kept


def join_pair(text: str, nxt: str, words: set[str] | frozenset[str]) -> str:
    """`text` and the next printed line `nxt` as one text: a word broken at the line end joined (see `joint`),
    else a space between them."""
    hyphen = joint(text, nxt, words)
    return f"{text} {nxt}" if hyphen is None else f"{text[:-1]}{hyphen}{nxt}"


def join_lines(lines: list[str], words: set[str] | frozenset[str],
               own_lines: set[int] | frozenset[int] = frozenset()) -> tuple[str, list[tuple[int, int]]]:
    """The printed lines of one paragraph, cell or heading as one text, a word broken at a line end joined (the
    lines whose index is in `own_lines` start a new line instead: a formula's); also where each line's text lies
    in it (start, end)."""
    text = lines[0]
    spans = [(0, len(text))]
    for k, nxt in enumerate(lines[1:], start=1):
        hyphen = None if k in own_lines else joint(text, nxt, words)
        if k in own_lines:
            text = f"{text}\n"
        elif hyphen is not None:
            text = f"{text[:-1]}{hyphen}"
            spans[-1] = (spans[-1][0], min(spans[-1][1], len(text)))
        else:
            text = f"{text} "
        spans.append((len(text), len(text) + len(nxt)))
        text = f"{text}{nxt}"
    return text, spans
