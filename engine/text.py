"""Text primitives shared by every stage: words and index tokens, stems and stop words, sentences, and the
patterns of contents-page leaders and list bullets (the page-marked Markdown's own patterns, markers,
headings and image placeholders, are engine.markdown's).

Some PDFs (TeX with Type 3 fonts) come out with words broken into pieces ("argumen ts", "t yp es").
`fragmented` detects such text and `tokenize(..., joins=True)` then also emits the joins of two or
three adjacent pieces, so that a query word still finds its broken occurrence.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

import Stemmer
from breame.data.spelling_constants import BRITISH_ENGLISH_SPELLINGS

# ----------------------------------------------------------------------------------------------- words

WORD_RE = re.compile(r"[^\W_]+")  # a run of letters and digits: the word of the index, of matching, of recall
# A word that starts with a letter and keeps its inner apostrophes and hyphens ("state-of-the-art", "don't"):
# a keyword's word, where "covid-19" is one word and "2023" none.
COMPOUND_WORD_RE = re.compile(r"[^\W\d_][\w'’-]*[^\W_]|[^\W\d_]")
POSSESSIVE_RE = re.compile(r"(?<=\w)['’]s\b")
LETTER_WORD_RE = re.compile(r"[^\W\d_]{2,}")  # a word of two letters or more: text that names or says, not figures

STOP_WORDS = frozenset("""
a about above after again against all also am an and any are as at be because been before being below
between both but by can could did do does doing down during each either else ever few for from further
had has have having he her here hers herself him himself his how however i if in into is it its itself
just least less let like may me might more most much must my myself no nor not now of off on once only or
other others otherwise ought our ours ourselves out over own per rather same shall she should since so
some such than that the their theirs them themselves then there these they this those though through thus
to too under until up upon us very via was we were what when where whether which while who whom whose why
versus vs will with within without would yet you your yours yourself yourselves
""".split())

# Prose analysis (keywords, summaries, names) also drops these adverbs and connectives, which never make a
# keyword; the index keeps them searchable (a question may turn on "often", "although" or "therefore").
PROSE_STOP_WORDS = STOP_WORDS | frozenset("""
almost although always among another anyone anything around became become cannot done enough etc even every
neither often perhaps thereby therefore toward towards unless whatever whereas
""".split())

# Words that ask rather than describe: dropped from questions only (a page may well contain them).
QUESTION_WORDS = frozenset("""
according answer cover covers covered describe described describes discuss discussed discusses explain
give kind mean means meant mention mentioned mentions say says said talk talks tell show shows many much
""".split())

# Short words that are real words, used to tell a letter-spaced text layer from ordinary prose.
_SHORT_WORDS = frozenset("""
a an as at be by do go he if in is it me my no of oh ok on or so to up us we
""".split())

# Snowball stemmers by ISO 639-1 code (PyStemmer's names); any other language is stemmed as English.
STEMMER_LANGS = {
    "en": "english", "fr": "french", "de": "german", "es": "spanish", "it": "italian", "pt": "portuguese",
    "nl": "dutch", "sv": "swedish", "no": "norwegian", "da": "danish", "fi": "finnish", "ru": "russian",
    "hu": "hungarian", "ro": "romanian", "tr": "turkish", "ca": "catalan", "el": "greek", "id": "indonesian",
    "ga": "irish", "lt": "lithuanian", "cs": "czech", "pl": "polish",
}  # fmt: skip


@lru_cache(maxsize=32)
def stemmer(lang: str = "en") -> Stemmer.Stemmer:
    """The Snowball stemmer of a language (English for one without)."""
    return Stemmer.Stemmer(STEMMER_LANGS.get(lang, "english"))


@lru_cache(maxsize=16)
def stop_words(lang: str = "en") -> frozenset[str]:
    """The stop words of prose in a language (ISO 639-1): English our own list, others stopwords-iso's
    (English for a language it lacks)."""
    if lang in ("", "en"):
        return PROSE_STOP_WORDS
    import stopwordsiso  # its lists load on first use

    found = stopwordsiso.stopwords(lang)
    return frozenset(w.lower() for w in found) if found else PROSE_STOP_WORDS


@lru_cache(maxsize=16)
def language_names(lang: str) -> tuple[str, ...]:
    """What a language (ISO 639-1) is called in English and in itself ("de": "German", "Deutsch"), from
    pycountry's ISO 639 data; () for an unknown code. (A name's qualifiers are left out: "Spanish; Castilian"
    is "Spanish", "Modern Greek (1453-)" is "Modern Greek".)"""
    if not lang:
        return ()
    import gettext

    import pycountry  # its data loads on first use

    found = pycountry.languages.get(alpha_2=lang)
    if found is None:
        return ()
    try:
        own = gettext.translation("iso639-3", pycountry.LOCALES_DIR, languages=[lang]).gettext(found.name)
    except OSError:  # no translation into the language itself
        own = found.name
    names = (re.split(r"[;(]", name)[0].strip() for name in (found.name, own))
    return tuple(dict.fromkeys(name for name in names if name))


def stem_words(found: list[str], lang: str = "en") -> list[str]:
    """Snowball stems of words in a language, as they are (no British "-ise" mapping: see `stem`)."""
    return stemmer(lang).stemWords(found)


_stemmer = stemmer("en")


# Typographic ligatures as one glyph each ("ﬁ" in "ﬁrst"), as many PDFs' text layers keep them, and the letters
# they stand for; a no-break space reads as a space.
LIGATURES = {"ﬁ": "fi", "ﬂ": "fl", "ﬀ": "ff", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st", "\u00a0": " "}


def leads_in(text: str) -> bool:
    """Whether a unit or line leads into items that follow it: it ends so, "… as follows:", "… including—" (an em
    dash after a letter; one alone, "2023: —", is a table's empty value), or with a colon and a dash, the old
    printers' lead-in ("… selected from:–", "… as follows:—")."""
    end = text.rstrip()
    return end.endswith((":", ":—", ":–")) or (end.endswith("—") and len(end) > 1 and end[-2].isalpha())


def fix_ligatures(text: str) -> str:
    """Ligature glyphs spelled out as their letters: for text people read and copy (a title, an answer), where a
    quote keeps the page's own characters."""
    for ligature, letters in LIGATURES.items():
        text = text.replace(ligature, letters)
    return text


def normalize(text: str) -> str:
    """NFKC (ligatures split), lower case: the index's words (a stored index is built on exactly this)."""
    return text.lower() if text.isascii() else unicodedata.normalize("NFKC", text).lower()


def fold(text: str) -> str:
    """NFKC (ligatures split), case folded ("ß" is "ss"): for comparing two texts, never stored."""
    return unicodedata.normalize("NFKC", text).casefold()


def words(text: str) -> list[str]:
    """Lower-cased words of a text (letters and digits), ligatures expanded, possessive 's dropped."""
    text = normalize(text)
    return WORD_RE.findall(POSSESSIVE_RE.sub("", text) if "'" in text or "’" in text else text)


def unaccented(text: str) -> str:
    """The text without its letters' accents ("ångstrom" -> "angstrom", "zürich" -> "zurich"; letters of scripts
    without them, and "ß" or "ø", stay)."""
    if text.isascii():
        return text
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def folded_words(text: str) -> list[str]:
    """The words of a text (letters and digits), folded: punctuation, spacing and case do not count."""
    return WORD_RE.findall(fold(text))


def squash(text: str) -> str:
    """Letters and digits only, folded: for matching across broken spacing, punctuation and case."""
    return "".join(folded_words(text))


CAPITAL_RUN_RE = re.compile(r"(?<![^\W\d_])[A-Z]{2,}(?![^\W\d_])")  # capitals between non-letters: "AN", "AN_stats"


def acronym_stops(text: str, found: list[str]) -> set[int]:
    """The positions in `found` (the text's `words`) of stop words written as acronyms: in capitals, two letters or
    more, beside no word in capitals across a mere space ("the Unicode type AN", "Type: AN, GDL Label", "the IT
    budget", "in US dollars", "WHILE loops"); a line in capitals ("WHAT IS IT", "VERY HIGH") keeps them stop words."""
    if not any(word.lower() in STOP_WORDS for word in CAPITAL_RUN_RE.findall(text)):
        return set()
    cased = unicodedata.normalize("NFKC", text) if not text.isascii() else text
    cased = POSSESSIVE_RE.sub("", cased) if "'" in cased or "’" in cased else cased
    raw = list(WORD_RE.finditer(cased))
    if len(raw) != len(found):  # (a possessive in capitals, "IT'S", or a letter NFKC splits: left as they are)
        return set()

    def run(i: int, j: int) -> bool:  # words i and j (next to each other) both in capitals, a space apart
        return i >= 0 and j < len(raw) and raw[i].group().isupper() and raw[j].group().isupper() \
            and not cased[raw[i].end():raw[j].start()].strip()

    return {i for i, m in enumerate(raw) if len(m.group()) > 1 and m.group().isupper() and found[i] in STOP_WORDS
            and not run(i - 1, i) and not run(i, i + 1)}


def _content(word: str) -> bool:
    return word not in STOP_WORDS and (len(word) > 1 or word.isdigit())


BRITISH_ISE_RE = re.compile(r"(?<=\w{3})is(e|ed|es|ing|ation|ations|er|ers)$")  # organisation, prioritised


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """The Snowball stem of a word's American spelling: British spellings breame lists taken as American
    ("centred" is "centered", "licence" "license", "behaviour" "behavior"), and any other "-ise" as "-ize"
    ("tokenisation" is "tokenization")."""
    word = BRITISH_ENGLISH_SPELLINGS.get(word, word)
    return _stemmer.stemWord(BRITISH_ISE_RE.sub(r"iz\1", word) if "is" in word else word)


# nouns that name a document by its kind ("the Gasper paper", "the OPM annual report", "the ODF package spec")
DOCUMENT_KINDS = """
paper report manual guide handbook thesis dissertation book article document publication study whitepaper
specification spec standard brief release plan deck presentation proposal memo memorandum note notes lectures
tutorial documentation datasheet reference talk slides
""".split()
DOCUMENT_NOUNS = frozenset(stem(w) for w in DOCUMENT_KINDS)


class _TokenCache(dict):
    """word -> its stem, or "" for a stop word; filled on first sight (cleared when it grows large)."""

    def __missing__(self, word: str) -> str:
        if len(self) > 500_000:
            self.clear()
        token = self[word] = stem(word) if _content(word) else ""
        return token


_TOKENS = _TokenCache()


def tokenize(text: str, *, joins: bool = False) -> list[str]:
    """Stemmed content words (with the stop words written as acronyms, `acronym_stops`); with `joins`, also the
    joins of 2 and 3 adjacent pieces of short runs."""
    found = words(text)
    kept = acronym_stops(text, found)
    tokens = [t for t in (stem(w) if i in kept else _TOKENS[w] for i, w in enumerate(found)) if t] if kept \
        else [t for t in map(_TOKENS.__getitem__, found) if t]
    if joins:
        tokens.extend(_joined(found))
    return tokens


def pairs(tokens: list[str]) -> list[str]:
    """Adjacent content-word pairs (`a~b`): phrases such as "largest dataset" or "sharing specification"."""
    return [f"{a}~{b}" for a, b in zip(tokens, tokens[1:])]


def query_pairs(question: str, lang: str = "en") -> list[str]:
    """The distinct adjacent pairs of a question's content words (`lang`: as in `query_terms`)."""
    return list(dict.fromkeys(pairs([stem(w) for w in _query_words(question, lang)])))


MIN_STOP_HITS = 2  # stop words of another language a question must hold to be read as asked in it
CAPITALS_RE = re.compile(r"\b[A-Z]{2,}\b")  # a word in capitals: an acronym, whatever word it spells


def question_language(question: str, languages: Iterable[str]) -> str:
    """The language (ISO 639-1) a question is asked in, among `languages` (those of the corpus's documents):
    the one whose stop words it holds most; English unless another holds more of its own, and at least
    MIN_STOP_HITS; "" when its stop words are too few to tell (a terse query: "IDunion: Anzahl Knoten")."""
    shouted = {word.lower() for word in CAPITALS_RE.findall(question)}  # "DID", "IT": acronyms, not "did", "it"
    found = [word for word in words(question) if word not in shouted]
    best, hits = "en", sum(1 for word in found if word in STOP_WORDS or word in QUESTION_WORDS)
    others = 0
    for lang in sorted(set(languages) - {"", "en"}):
        own = stop_words(lang)
        count = sum(1 for word in found if word in own)
        others = max(others, count)
        if count > hits and count >= MIN_STOP_HITS:
            best, hits = lang, count
    if best == "en" and hits < MIN_STOP_HITS and others >= hits:
        return ""
    return best


# verbs that ask in the imperative ("List the …", "Name the …", "Summarize …"): opening a request they name nothing
# the answer is about
REQUEST_VERBS = frozenset("list name summarize summarise outline identify state compare contrast enumerate "
                          "define".split())
REQUEST_RE = re.compile(rf"^\W*(?:please\s+)?(?:{'|'.join(sorted(REQUEST_VERBS))})\s+", re.I)


def asked_part(question: str) -> str:
    """The question without the imperative verb that opens a request ("List the …" -> "the …")."""
    found = REQUEST_RE.match(question)
    return question[found.end():] if found else question


def query_terms(question: str, lang: str = "en") -> list[str]:
    """The distinct stemmed terms of a question, in order, without stop and question words (and, for a question
    asked in another language, `lang`, without that language's stop words: "dass", "nicht", "werden")."""
    return list(dict.fromkeys(stem(w) for w in _query_words(question, lang)))


def _query_words(question: str, lang: str) -> list[str]:
    """The words of a question that are searched for, in order: its content words, without the words that only ask
    and, in a question asked in another language, without that language's stop words."""
    others = stop_words(lang) if lang not in ("", "en") else frozenset()
    called = {w.lower() for w in CALLED_RE.findall(question)}  # ("mean()": a function's name, not "what … mean")
    asked = asked_part(question)
    found = words(asked)
    kept = acronym_stops(asked, found)
    return [w for i, w in enumerate(found)
            if i in kept or (_content(w) and (w not in QUESTION_WORDS or w in called) and w not in others)]


CALLED_RE = re.compile(r"\b([^\W\d]\w*)\s?\(\)")  # a word written as a call, empty brackets after it: "mean()"


def fragmented(text: str, sample: int = 20_000) -> bool:
    """True when many words are broken into pieces (one- or two-letter fragments that are not words)."""
    found = words(text[:sample])
    if len(found) < 200:
        return False
    letters = [w for w in found if w.isalpha()]
    odd = sum(1 for w in letters if len(w) <= 2 and w not in _SHORT_WORDS)
    return odd / max(1, len(letters)) > 0.2


def _joined(found: list[str]) -> list[str]:
    """Stems of adjacent pieces glued together, where a piece is short enough to be a fragment."""
    extra = []
    n = len(found)
    for i in range(n - 1):
        a, b = found[i], found[i + 1]
        if not (a.isalpha() and b.isalpha()):
            continue
        if len(a) <= 8 or len(b) <= 8:
            extra.append(stem(a + b))
        if i + 2 < n and found[i + 2].isalpha() and min(len(a), len(b), len(found[i + 2])) <= 3:
            extra.append(stem(a + b + found[i + 2]))
    return extra


# ------------------------------------------------------------------------------------------- sentences

# A break is the space after a sentence's end (. ! ? maybe followed by a closing quote or bracket, or by a
# footnote number after a word: "advice.55", not "4.1") before an upper-case letter or a digit, maybe after
# an opening quote or bracket; not after an abbreviation (Inc., U.S., e.g., v., "vol. 3, no. 2") or an
# initial (J., P.-A.), nor after the label that opens a paragraph ("b. Requirements").
# With footnotes=False a footnote number ends no sentence, as evidence units and node summaries always had
# it: splitting there too raised the offline answers' key facts on two question sets (dev +0.10, fresh
# +0.04) and lowered them on two (fresh2 -0.013, below its floor; heldout -0.012), a change to make apart.
_BREAK_RE = re.compile(r"(?<=[.!?\"”’)0-9])\s+(?=[\"“‘(]?[A-Z0-9])")
_END_RE = re.compile(r"(?:[.!?][\"”’)]?|(?<=[^\W\d_]{2})[.!?]\d{1,3}|(?<=[\"”’)])[.!?]\d{1,3}|[.!?][\"”’)]\d{1,3})$")
_PLAIN_END_RE = re.compile(r"[.!?][\"”’)]?$")
_INITIAL_RE = re.compile(r"(?:^|[.-])[^\W\d_]$")  # the word ends in a single letter: "J", "P.-A", "J.R.R"
_ENUMERATOR_RE = re.compile(r"\d{1,2}|[ivx]{1,4}|[IVX]{1,4}")  # a numbered paragraph's label: "2. Confirm …", "iv. …"
ABBREVIATIONS = frozenset("""
mr mrs ms dr prof inc ltd co corp no nos vol fig figs e.g i.e v vs al st jr sr p pp sec ch approx cit
jan feb mar apr jun jul aug sep sept oct nov dec u.s u.k cf esq gen gov rep sen art para calif fla conn ariz
colo mich minn tenn n.y d.c
""".split())


def _no_break_after(word: str, opens: bool) -> bool:
    """The word before a possible break ends no sentence: an abbreviation, an initial, an opening label."""
    word = word.rstrip("\"”’)0123456789").lstrip("\"“‘([*_").rstrip(".")
    if word.lower() in ABBREVIATIONS:
        return True
    if opens and _ENUMERATOR_RE.fullmatch(word):
        return True
    initial = _INITIAL_RE.search(word)
    return initial is not None and (word[-1].isupper() or (opens and len(word) == 1))


def sentence_spans(text: str, *, footnotes: bool = True) -> list[tuple[int, int]]:
    """(start, end) of each sentence of a paragraph, surrounding spaces left out: `text[start:end]` is the
    sentence exactly as written."""
    spans: list[tuple[int, int]] = []
    start = 0
    for space in _BREAK_RE.finditer(text):
        if not (_END_RE if footnotes else _PLAIN_END_RE).search(text, max(start, space.start() - 8), space.start()):
            continue
        words = text[start : space.start()].split()
        if _no_break_after(words[-1], opens=start == 0 and len(words) == 1):
            continue
        spans.append((start, space.start()))
        start = space.end()
    spans.append((start, len(text)))
    out = []
    for begin, end in spans:
        piece = text[begin:end]
        begin += len(piece) - len(piece.lstrip())
        end -= len(piece) - len(piece.rstrip())
        if end > begin:
            out.append((begin, end))
    return out


def split_sentences(text: str, *, footnotes: bool = True) -> list[str]:
    """The sentences of a paragraph (see `sentence_spans`)."""
    return [text[start:end] for start, end in sentence_spans(text, footnotes=footnotes)]


# ---------------------------------------------------------------------------------------- line patterns

# A contents line's dot leader ("Introduction ........ 3"): five dots or more, single-spaced, or two ellipses;
# prose with a ". . . ." elision is no contents line (evidence and passages leave contents lines out).
CONTENTS_LEADER_RE = re.compile(r"(?:\.\s?){5,}|…{2,}")
# What the reader takes for leader dots on a printed line, which then is no heading and ends no paragraph:
# four dots however spaced, two ellipses, or two dots before the page number that ends the line (".. 8").
LEADER_RE = re.compile(r"(\.\s*){4,}|…{2,}|(\.\s*){2,}\s*\d+\s*$")


def has_leader(text: str) -> bool:
    """`LEADER_RE.search(text)`, not run on a text with fewer than two dots and no ellipsis (it needs them)."""
    return ("…" in text or text.count(".") >= 2) and LEADER_RE.search(text) is not None


# The glyphs a text layer marks list items with (Symbol-font private-use bullets included); each reader
# pattern adds what it also accepts. A symbol font without a Unicode map reports its codes in the private-use
# block U+F020-U+F0FF: Symbol's bullet (B7), Wingdings' bullets (6C circle, 6E/A7 squares, 6F/A8 hollow
# squares, 71 box, 75 diamond, 76 four diamonds, 9F small circle, D8 arrowhead, FC tick); their arrows
# (E0, E8) stand between words ("B1 → A1"), and U+F8xx are bracket pieces, not bullets.
# the words that name an appendix ("Appendix B", "Anhang B", "Anexo 2"), and every numbered division of a
# document ("Chapter 4", "Lecture 2")
APPENDIX_WORDS = frozenset({"appendix", "annex", "anhang", "annexe", "anexo"})
SECTION_WORDS = APPENDIX_WORDS | {"chapter", "section", "part", "article", "kapitel", "abschnitt", "teil", "chapitre",
                                  "partie", "book", "unit", "lecture", "volume"}
SYMBOL_BULLETS = "\uf0b7\uf06c\uf06e\uf0a7\uf06f\uf0a8\uf071\uf075\uf076\uf09f\uf0d8\uf0fc"
BULLET_GLYPHS = "•‣▪◦●■□◆❖▶➢➤►✓✔" + SYMBOL_BULLETS  # ("‣": the triangular bullet)
# A bullet glyph that opens an item in the middle of a line or of a table cell (a list set inline, or its
# items' lines joined in one cell): after a space or a cell's pipe, before the item's text. ("◦" is also a
# composition operator, "□" a missing glyph's box: neither opens an item there.)
INLINE_BULLET_RE = re.compile(rf"(?:(?<=[\s|])|^)[•▪●■◆❖➢➤►✓✔{SYMBOL_BULLETS}](?=\s*[\w\"“‘(])")


ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}


def roman_value(numeral: str) -> int | None:
    """The value of a Roman numeral in either case ("IV" 4, "xii" 12), a smaller digit before a larger one
    subtracted; None when a character is no Roman digit (the numeral's form is not checked: see callers)."""
    digits = [ROMAN_VALUES.get(c) for c in numeral.lower()]
    if not digits or None in digits:
        return None
    values = [d for d in digits if d is not None]
    return sum(-d if i + 1 < len(values) and d < values[i + 1] else d for i, d in enumerate(values))

