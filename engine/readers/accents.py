"""Accents set as glyphs of their own before their letter (TeX's OT1 fonts: "Ger¨at", "hinzuf¨ugen") put back on it."""

from __future__ import annotations

import re
import unicodedata

# spacing accents and the combining marks they stand for
_ALWAYS = {"\u00a8": "\u0308", "\u02dc": "\u0303", "\u02c7": "\u030c", "\u02da": "\u030a",
           "\u00b8": "\u0327", "\u02d8": "\u0306", "\u02dd": "\u030b", "\u02d9": "\u0307"}
# a circumflex also stands for a caret ("ˆci-debian-.*$", a pattern): only on a vowel ("ˆetre", "bˆete")
_VOWEL_ONLY = {"\u02c6": "\u0302"}
# an acute or grave accent also serves as a quote or an apostrophe ("it´s", "`quoted'"): only inside a word, on a vowel
_ON_VOWELS = {"\u00b4": "\u0301", "`": "\u0300"}
_VOWELS = "aeiouyAEIOUYı"
_MARKS = (*_ALWAYS, *_VOWEL_ONLY, *_ON_VOWELS)
# (an acute also opens a word on its vowel: "´Indice", "´ultimo"; a grave there is an opening quote, "`as is'")
_ACCENT_RE = re.compile(rf"([{''.join(_ALWAYS)}](?=\w)|[{''.join(_VOWEL_ONLY)}](?=[{_VOWELS}])"
                        rf"|(?<=[^\W\d_])[{''.join(_ON_VOWELS)}](?=[{_VOWELS}])"
                        rf"|(?<![^\W\d_])\u00b4(?=[{_VOWELS}][^\W\d_]))(.)")


def compose_accents(text: str) -> str:
    """The text with each spacing accent set right before a letter joined to that letter, where the two make one
    letter of their own ("¨a" -> "ä", "´e" -> "é"); other pairs are left as they are."""
    if (text.isascii() and "`" not in text) or not any(c in text for c in _MARKS):
        return text  # (every mark but the grave accent is outside ASCII: most lines are asked nothing more)

    def join(match: re.Match[str]) -> str:
        mark = _ALWAYS.get(match.group(1)) or _VOWEL_ONLY.get(match.group(1)) or _ON_VOWELS[match.group(1)]
        base = "i" if match.group(2) == "\u0131" else match.group(2)  # (TeX accents a dotless i: "na¨ıve")
        letter = unicodedata.normalize("NFC", base + mark)
        return letter if len(letter) == 1 else match.group(0)

    return _ACCENT_RE.sub(join, text)
