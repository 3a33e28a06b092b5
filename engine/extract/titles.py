"""Heading titles compared across sources: a title as words (its numbering label set apart) and how a line holds it.

A title from an outline or a contents page is matched against a line of the Markdown. Both are read as
lower-case words (Unicode NFKC, case folded, punctuation dropped) after one leading numbering label
("1.2", "A.1", "IV.", "(b)", "3)", "3:", "Chapter 3", "Appendix B") is set apart. A line holds a title
`exact`ly (same words), `spaced` (the same letters once spaces are ignored: a title printed letter-spaced, "T Y
PE S"), `fuzzy` (difflib ratio of the joined words >= 0.85), as a `prefix` (a run-in
heading: the title, then the paragraph it opens) or `wrapped` (the title's first words; the following
lines hold the rest).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from itertools import accumulate
from typing import Literal

from engine.text import WORD_RE, fold, folded_words

FUZZY_RATIO = 0.85
MAX_CHARS = 600  # of a line read as a title
RUN_IN_END = ":.—–-"  # punctuation that closes a run-in heading ("Noise Models: We add ...")

_ROMAN = r"[ivxlcdmIVXLCDM]{1,7}"
_NUMBER = r"(?:[A-Za-z]\.)?\d{1,3}(?:\.\d{1,3})*\.?"
_WORDS = (r"chapter|chap\.|section|sect\.|part|appendix|annex|article|kapitel|abschnitt|anhang|teil|"
          r"chapitre|partie|annexe|anexo|cap[ií]tulo|ap[eé]ndice")
LABEL_RE = re.compile(
    rf"""^\s*(?:
        (?:{_WORDS})\s+(?:{_NUMBER}|{_ROMAN}|[A-Za-z])(?=[\s.:)\-–—]|$)[.:)]?
      | {_NUMBER}(?=\s|:\s|$)
      | \d{{1,3}}\.(?:\d{{1,3}}\.?)*(?=(?-i:[A-Z]))
      | \d{{1,3}}\)
      | (?:{_ROMAN}|[A-Za-z])[.)](?=\s|$)
      | \((?:\d{{1,3}}|{_ROMAN}|[A-Za-z])\)
    )\s*[.:\-–—]?\s*""",
    re.VERBOSE | re.IGNORECASE,
)
LABEL_WORD_RE = re.compile(rf"(?:{_WORDS.replace(chr(92) + '.', '')})", re.IGNORECASE)
# heading marks, a list bullet, emphasis and code marks (the Markdown written here marks emphasis with "**"; an
# underscore belongs to the text: "__code", "__init__" are names)
MARKUP_RE = re.compile(r"^\s*(?:#{1,6}|[-*+•])\s+|\*\*|`")

MatchKind = Literal["exact", "spaced", "fuzzy", "prefix", "wrapped"]


@dataclass(frozen=True)
class Title:
    """A title read as words: `label` is its numbering ("1.2", "appendix b") and `words` the rest."""

    label: str
    words: tuple[str, ...]

    @property
    def text(self) -> str:
        return " ".join(self.words)


def strip_markup(line: str) -> str:
    """A Markdown line without its heading marks and emphasis."""
    return MARKUP_RE.sub("", line).strip()


def _word(token: str) -> str:
    return fold(token)


def _words(text: str) -> tuple[str, ...]:
    """The words of a text, normalised; only the first MAX_CHARS characters of a long one (a paragraph is
    compared with a title by its start)."""
    return tuple(folded_words(text[:MAX_CHARS]))


def _label_key(label: str) -> str:
    """A label's number without its word ("Chapter 4" and "4." are both "4"; "A.1" is "a 1")."""
    words = [_word(w) for w in WORD_RE.findall(label)]
    if len(words) > 1 and LABEL_WORD_RE.fullmatch(words[0]):
        words = words[1:]
    return " ".join(words)


def split_label(text: str) -> tuple[str, str]:
    """(numbering label, rest) of a title; the label is '' when there is none or nothing would be left."""
    match = LABEL_RE.match(text)
    if not match or not WORD_RE.search(text[match.end():]):
        return "", text
    return _label_key(match.group(0)), text[match.end():]


def label_only(text: str) -> str | None:
    """The normalised label of a line that is nothing but a numbering label ("Chapter 4", "4.", "Anhang B")."""
    match = LABEL_RE.match(strip_markup(text))
    if not match or WORD_RE.search(strip_markup(text)[match.end():]):
        return None
    return _label_key(match.group(0)) or None


def read_title(text: str) -> Title:
    """A title as words, its leading numbering label set apart."""
    label, rest = split_label(strip_markup(text))
    return Title(label, _words(rest))


def read_line(text: str) -> list[Title]:
    """The ways a line (markup stripped) may hold a title: after one numbering label, and after a second
    one when a number stands before the label (a draft's line number: "85 3.3.2 Existing Infrastructure")."""
    label, rest = split_label(text)
    first = Title(label, _words(rest))
    if not label.isdigit():
        return [first]
    inner_label, inner = split_label(rest)
    return [first, Title(inner_label, _words(inner))] if inner_label else [first]


def similar(a: str, b: str) -> bool:
    """Joined words close enough to be the same title (a cheap length check first)."""
    if not a or not b:
        return False
    if a == b:
        return True
    shorter, longer = sorted((len(a), len(b)))
    if 2 * shorter / (shorter + longer) < FUZZY_RATIO:
        return False
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    return matcher.quick_ratio() >= FUZZY_RATIO and matcher.ratio() >= FUZZY_RATIO


def _numbers(words: tuple[str, ...]) -> list[str]:
    """The words that are numbers or codes ("2", "6b"; not a footnote mark glued to a word, "services386")."""
    return sorted(w for w in words if w[:1].isdigit())


def line_match(title: Title, line: Title, *, heading: bool) -> MatchKind | None:
    """How a line holds a title, if it does: exact, fuzzy, prefix (a run-in heading) or wrapped (its start)."""
    if not title.words or not line.words:
        return None
    if title.words == line.words:
        return "exact"
    if "".join(title.words) == "".join(line.words):
        return "spaced"  # the same letters spaced otherwise: a title set letter-spaced ("FO U N DAT ION S")
    if similar(title.text, line.text) and _numbers(title.words) == _numbers(line.words):
        return "fuzzy"  # titles that differ in a number ("Table 2", "Table 3") are different titles
    n = len(title.words)
    if len(line.words) > n and line.words[:n] == title.words and (heading or n >= 2):
        return "prefix"
    if len(line.words) < n and title.words[:len(line.words)] == line.words:
        return "wrapped"
    return None


def words_of(text: str) -> tuple[str, ...]:
    """Every word of a text, normalised, a numbering label included."""
    return _words(strip_markup(text))


def extends(longer: str, shorter: str) -> bool:
    """`longer` is `shorter` with more words after it: a title and its subtitle ("River Survey Methods: A Field
    Guide" over "River Survey Methods"), or a full title over a truncated copy of it (a docinfo Title that
    stops before the title's last printed line). `shorter` must hold two words at least: one word opens too
    many titles to say anything."""
    long_words, short_words = words_of(longer), words_of(shorter)
    return len(short_words) >= 2 and len(long_words) > len(short_words) \
        and long_words[:len(short_words)] == short_words


RESTATE_MIN_WORDS = 4  # a shorter title read inside a longer one must hold this many words


def restates(a: str, b: str) -> bool:
    """Two lines name the same title: the same words, or one extends the other (see `extends`), or the words of
    the shorter, four or more, all stand in the longer in their order ("NIST 800-34, Rev 1 Contingency Planning
    Guide" in "NIST Special Publication 800-34 Rev. 1 Contingency Planning Guide")."""
    words_a, words_b = words_of(a), words_of(b)
    if not words_a or not words_b:
        return False
    if words_a == words_b or extends(a, b) or extends(b, a):
        return True
    short, long_ = sorted((words_a, words_b), key=len)
    remaining = iter(long_)
    return len(short) >= RESTATE_MIN_WORDS and all(word in remaining for word in short)


def cut_after(text: str, start: int, count: int) -> int:
    """Offset just after the `count`-th word of `text` from `start`, with the punctuation that closes it."""
    words = list(WORD_RE.finditer(text, start))
    end = words[count - 1].end()
    while end < len(text) and text[end] in RUN_IN_END + "*_)”’\"'":
        end += 1
    return end


def prefix_end(line: str, title: Title, labels: int = 1) -> int | None:
    """Offset in `line` (markup stripped) just after the run-in title it opens, trailing punctuation included,
    past `labels` numbering labels (2: a line number, then the label; see `read_line`).

    None when the title's last word ends the line, or when a one-word title is neither numbered nor closed
    by punctuation (a sentence that starts with the same word is no heading)."""
    rest = line
    for _ in range(labels):
        label, rest = split_label(rest)
    offset = len(line) - len(rest)
    words = list(WORD_RE.finditer(line, offset))
    if len(words) <= len(title.words):
        return None
    end = cut_after(line, offset, len(title.words))
    if len(title.words) == 1 and not label and end == words[0].end():
        return None
    return end


def respaced(printed: str, title: str) -> str:
    """A line that holds a title letter-spaced (`line_match` "spaced") with the spaces between its letters where
    the title has them ("3 T Y PE S" for "3: Types": "3 TYPES"): its own characters, case and punctuation, only
    the spaces between two letters or digits within the title's letters moved. Read from the end, where the line
    and the title end alike (a line number or label before the title keeps its spacing). The line unchanged when
    its letters are not the title's."""
    letters = "".join(_words(printed))
    words = next((w for w in (_words(strip_markup(title)), read_title(title).words)  # (its label printed or not)
                  if w and letters.endswith("".join(w))), None)
    if words is None:
        return printed
    lengths = [len(word) for word in words]
    total = sum(lengths)
    breaks = set(accumulate(reversed(lengths)))  # letters right of each word start of the title
    out: list[str] = []  # the line's characters, last first
    count = 0  # letters right of the character read
    for k in range(len(printed) - 1, -1, -1):
        char = printed[k]
        if char.isspace():
            if count < total and printed[k - 1:k].isalnum() and printed[k + 1:k + 2].isalnum():
                continue  # (a space within the title's letters: put back below where the title breaks)
            if out and out[-1] != " ":
                out.append(" ")
            continue
        if char.isalnum() and out and out[-1].isalnum() and count in breaks:
            out.append(" ")
        out.append(char)
        count += len(_word(char)) if char.isalnum() else 0
    return "".join(reversed(out)).strip()
