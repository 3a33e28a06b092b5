"""Text read through the wrong encoding (UTF-8 bytes shown as Latin-1: "IntroducciÃ³n", "QuÃ© es ..."): signs that
look like symbols there are halves of a letter."""

from __future__ import annotations

import re

# "©" (U+00A9) right after a character in "Ã".."ß" (U+00C3..U+00DF) is the second byte of a two-byte UTF-8 letter
# shown as Latin-1 ("é" as "Ã©"), not a copyright sign
COPYRIGHT_RE = re.compile(r"(?<![\u00c3-\u00df])©")


def copyright_sign(text: str) -> bool:
    """Whether the text holds a copyright sign ("Copyright © 2022 ..."), not a letter's mojibake ("QuÃ© es")."""
    return COPYRIGHT_RE.search(text) is not None
