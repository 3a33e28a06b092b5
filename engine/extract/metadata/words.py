"""Stopword lists, stemming and the word pattern shared by the keyword and summary extractors."""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

STOPWORDS_EN = frozenset(
    """a about above after again against all almost also although always am among an and another any
    anyone anything are around as at be became because become been before being below between both but by
    can cannot could did do does doing done down during each either else enough etc even ever every few for
    from further had has have having he her here hers herself him himself his how however i if in into is
    it its itself just may me might more most much must my myself neither no nor not now of off often on
    once only or other others otherwise our ours ourselves out over own per perhaps rather same shall she
    should since so some such than that the their theirs them themselves then there thereby therefore these
    they this those though through thus to too toward towards under unless until up upon us very via was we
    were what whatever when where whereas whether which while who whom whose why will with within without
    would yet you your yours yourself yourselves""".split()
)
# Generic words that make poor keywords in any document.
KEYWORD_NOISE = frozenset(
    """also may might would could including include includes included however therefore see page pages
    figure fig table section sections footnote note notes supra infra id ibid et al vol pp percent million
    billion thousand first second third fourth one two three four five six seven eight nine ten new use used
    using well many make made makes like based given number part example particular certain various said
    says get thereof herein hereof whereas approximately respectively year years time january february march
    april june july august september october november december monday tuesday wednesday thursday friday
    copyright rights reserved inc ltd llc www http https com org due total need needs provide provides provided
    related regarding following described discussed generally include among another per cent eg ie continued
    continue continues current currently across""".split()
)
STEMMER_LANGS = {
    "en": "english", "fr": "french", "de": "german", "es": "spanish", "it": "italian", "pt": "portuguese",
    "nl": "dutch", "sv": "swedish", "no": "norwegian", "da": "danish", "fi": "finnish", "ru": "russian",
    "hu": "hungarian", "ro": "romanian", "tr": "turkish", "ca": "catalan", "el": "greek", "id": "indonesian",
    "ga": "irish", "lt": "lithuanian", "cs": "czech", "pl": "polish",
}  # fmt: skip

WORD_RE = re.compile(r"[^\W\d_][\w'’-]*[^\W_]|[^\W\d_]")


@lru_cache(maxsize=16)
def stopwords(lang: str) -> frozenset[str]:
    """English list of our own (yake's marks "best", "associated"...); other languages from yake's lists."""
    if lang in ("", "en"):
        return STOPWORDS_EN
    name = {"cs": "cz"}.get(lang, lang)  # yake's file names
    try:
        text = (resources.files("yake") / "core" / "StopwordsList" / f"stopwords_{name}.txt").read_text("utf-8")
    except (OSError, ModuleNotFoundError):
        return STOPWORDS_EN
    return frozenset(w.strip().lower() for w in text.splitlines() if w.strip())


@lru_cache(maxsize=16)
def _stemmer(lang: str):
    import Stemmer  # PyStemmer: imported lazily, no import-time cost

    return Stemmer.Stemmer(STEMMER_LANGS.get(lang, "english"))


def stem_words(words: list[str], lang: str = "en") -> list[str]:
    return _stemmer(lang).stemWords(words)
