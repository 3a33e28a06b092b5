"""Offline context metadata (title, author, date, language, type, keywords, summary, themes, entities, periods).

Every field has its own small pure function; `extract_metadata` wires them and records provenance.
No model, no network: docinfo, the layout (headings) and rules over the text.

Decisions worth knowing:
- publication_date: a date printed on the first two pages wins over the docinfo creation date (the
  creation date is the file's, often a re-export); dates introduced by "effective", "on or before",
  "ended", "as of", ranges... are deadlines or periods, not publication dates, and are skipped.
  A month-only date ("March 2025") becomes the first of that month.
- time periods: a fiscal year N ("FY25", "fiscal 2025", "fiscal year 2025") is mapped to the calendar
  year N and marked approximate (fiscal calendars differ and the text rarely states them); a fiscal
  quarter Qn of FY N likewise to the n-th calendar quarter of N. "quarter/year ended <date>" is exact at
  its end; its start is computed back (3 or 12 months) and is approximate unless the end is a month end.
- cost is bounded whatever the length: keywords, summary and language read a sample of SAMPLE_CHARS
  characters of body text (the opening pages plus pages spread over the rest), entities and periods a
  sample of SCAN_CHARS, and at most MAX_ANCHORS years / organisation words are examined. A 400-page
  document takes about 0.15-0.25 s; the first call also loads py3langid's model (~0.6-0.9 s, once).
"""

from __future__ import annotations

import calendar
import re
from bisect import bisect_right
from collections import Counter
from datetime import date, timedelta
from functools import lru_cache
from importlib import resources
from itertools import islice
from math import log, sqrt

from engine.markdown import HEADING_RE, MARKER_RE, iter_headings, split_pages
from engine.schemas.base import Provenance
from engine.schemas.metadata import ContextMetadata, Entity, Theme, TimePeriod
from engine.schemas.pdf import PdfInfo
from engine.schemas.toc import Heading

SAMPLE_CHARS = 100_000  # about 15k words of body text for keywords, summary and language
SCAN_CHARS = 600_000  # text scanned for entities and time periods (about 160 pages)
MAX_THEMES = 8
MAX_ENTITIES = 15
MAX_PERIODS = 5
THEME_DESCRIPTION_CHARS = 200
VERSION = 1  # bump when the output changes: the pipeline re-runs the stage

# ---------------------------------------------------------------------------------------------- words

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


# ------------------------------------------------------------------------------------- the markdown

IMAGE_RE = re.compile(r"^\s*\[IMAGE:[^\]]*\]\s*$")
BULLET_RE = re.compile(r"^(?:[-*+•▪◦●■➢►]|\d{1,2}[.)])\s+")
SOFT_HYPHEN = "\u00ad"
LIGATURES = {"ﬁ": "fi", "ﬂ": "fl", "ﬀ": "ff", "ﬃ": "ffi", "ﬄ": "ffl", "\u00a0": " "}


def fix_ligatures(text: str) -> str:
    for ligature, letters in LIGATURES.items():
        text = text.replace(ligature, letters)
    return text


def page_blocks(markdown: str) -> list[str]:
    """Page blocks of a marked document (as `split_pages`, faster); the whole text when it has no markers."""
    pieces = ("\n" + markdown).split("\n--- end page ")
    blocks = [pieces[0]]
    for piece in pieces[1:]:
        number, _, rest = piece.partition("\n")
        if not number.rstrip().isdigit():
            return split_pages(markdown) or [markdown]  # an unusual line: take the exact path
        blocks.append(rest)
    return [b.strip("\n") for b in blocks[:-1]] if len(blocks) > 1 else [markdown]


def plain_text(markdown: str) -> str:
    """Markdown as plain text: heading marks removed; markers, placeholders and warning lines dropped."""
    out = []
    for line in markdown.split("\n"):
        first = line[:1]
        if first and first in "->[ \t":
            if first == ">" or MARKER_RE.match(line) or IMAGE_RE.match(line):
                continue
        elif first == "#":
            heading = HEADING_RE.match(line)
            line = heading.group(2) if heading else line
        out.append(line)
    return "\n".join(out)


def _skip_line(line: str, stripped: str) -> bool:
    """Not body text: blank, heading, placeholder, quote/warning, table row, or a short line without
    lower-case letters (a heading, a label, a number)."""
    if not stripped:
        return True
    first = stripped[0]
    if first in "#>|[-" and (
        first in ">|" or HEADING_RE.match(line) or IMAGE_RE.match(line) or MARKER_RE.match(line)
    ):
        return True
    return len(stripped) < 60 and stripped.upper() == stripped


def body_paragraphs(block: str) -> list[str]:
    """Body paragraphs of a page block: wrapped lines joined; headings, tables, code, placeholders out.

    Works on reformatted Markdown (one paragraph per line) and on raw text-layer lines: after a short
    line, a line starting upper-case starts a new paragraph. A word broken at a line end ("re-" /
    "ceived") is joined with a soft hyphen that `resolve_hyphens` settles once the vocabulary is known.
    """
    lines = block.split("\n")
    lengths = sorted(len(line) for line in lines if len(line) >= 20)
    full = lengths[int(len(lengths) * 0.9)] if lengths else 0  # the width of a full line
    short = 0.8 * full if full >= 40 else 0
    paragraphs: list[str] = []
    current: list[str] = []
    in_fence = previous_short = False
    for line in lines:
        stripped = line.strip()
        if stripped[:3] in ("```", "~~~"):
            in_fence = not in_fence
            stripped = ""
        if in_fence or _skip_line(line, stripped):
            if current:
                paragraphs.append(" ".join(current))
                current = []
            continue
        bullet = BULLET_RE.match(stripped) if stripped[0] in "-*+•▪◦●■➢►0123456789" else None
        if current and (bullet or (previous_short and stripped[0].isupper() and current[-1][-1] not in ",;-–(")):
            paragraphs.append(" ".join(current))
            current = []
        stripped = stripped[bullet.end() :] if bullet else stripped
        if current and current[-1][-1] == "-" and current[-1][-2:-1].isalpha() and stripped[:1].islower():
            current[-1] = current[-1][:-1] + SOFT_HYPHEN + stripped
        elif stripped:
            current.append(stripped)
        previous_short = len(stripped) < short
    if current:
        paragraphs.append(" ".join(current))
    return paragraphs


def resolve_hyphens(text: str) -> str:
    """Soft-hyphen joins become one word when the text uses that word elsewhere, else keep the hyphen."""
    if SOFT_HYPHEN not in text:
        return text
    pieces = text.split(SOFT_HYPHEN)
    vocabulary = set(WORD_RE.findall(" ".join(pieces).lower()))
    out = [pieces[0]]
    for piece in pieces[1:]:
        left = re.search(r"[^\W\d_]+$", out[-1][-40:])
        right = re.match(r"[^\W\d_]+", piece)
        joined = left and right and (left.group(0) + right.group(0)).lower() in vocabulary
        out.append(piece if joined else "-" + piece)
    return "".join(out)


def sample_pages(blocks: list[str], budget: int = SAMPLE_CHARS) -> list[int]:
    """Indices of the pages to read: the opening pages (40% of the budget), then pages spread evenly."""
    total = sum(len(b) for b in blocks)
    if total <= budget:
        return list(range(len(blocks)))
    chosen: list[int] = []
    used = 0
    index = 0
    while index < len(blocks) and used < 0.4 * budget:
        chosen.append(index)
        used += len(blocks[index])
        index += 1
    rest = list(range(index, len(blocks)))
    rest_chars = sum(len(blocks[i]) for i in rest) or 1
    step = max(1.0, rest_chars / max(1.0, budget - used))
    position = 0.0
    while int(position) < len(rest) and used < budget:
        page = rest[int(position)]
        chosen.append(page)
        used += len(blocks[page])
        position += step
    return chosen


def body_sample(blocks: list[str], budget: int = SAMPLE_CHARS) -> list[str]:
    """Body paragraphs of the sampled pages, in page order, with broken words mended."""
    paragraphs = [p for i in sample_pages(blocks, budget) for p in body_paragraphs(blocks[i])]
    return fix_ligatures(resolve_hyphens("\n".join(paragraphs))).split("\n") if paragraphs else []


# ------------------------------------------------------------------------------------------ sentences

# A sentence ends at . ! ? maybe followed by a closing quote and a footnote number ("advice.55"), then
# space and an upper-case letter or digit.
BOUNDARY_RE = re.compile(r"(?<=[.!?\"”’)0-9])\s+(?=[\"“‘(]?[A-Z0-9])")
SENTENCE_END_RE = re.compile(r"[.!?][\"”’)]?\d{0,3}$")
ABBREVIATIONS = frozenset(
    """mr mrs ms dr prof inc ltd co corp no nos vol fig figs e.g i.e etc vs al st jr sr p pp sec ch approx
    jan feb mar apr jun jul aug sep sept oct nov dec u.s u.k cf esq gen gov rep sen art para calif fla mass
    wash conn ill ariz colo mich minn tenn n.y d.c""".split()
)
# "SUMMARY: We propose..." and "BURBANK, Calif. – The Walt Disney Company..." lose their label.
LABEL_RE = re.compile(
    r"^(?:[A-Z][A-Z &/-]{2,40}:|[A-Z][A-Z .'-]{2,30},(?:\s+[A-Z][A-Za-z.]{1,12}){1,2}\s+[–—-])\s+"
)


def split_sentences(paragraph: str) -> list[str]:
    """Sentences of a paragraph; no split after abbreviations (Inc., U.S., e.g.) or initials (J.)."""
    sentences: list[str] = []
    start = 0
    for boundary in BOUNDARY_RE.finditer(paragraph):
        piece = paragraph[start : boundary.start()]
        if not SENTENCE_END_RE.search(piece[-6:]):
            continue
        last = piece.rstrip("\"”’)0123456789").rsplit(None, 1)[-1].rstrip(".").lower()
        if last in ABBREVIATIONS or (len(last) == 1 and last.isalpha()):
            continue
        sentences.append(piece.strip())
        start = boundary.end()
    sentences.append(paragraph[start:].strip())
    return [s for s in sentences if s]


BOILERPLATE_MARKS = (
    "©", "copyright", "all rights reserved", "http", "www.", "@", "....", "……", "click", " | ", "trademark",
    "refers to one or more of", "legally separate", "has been licensed", "proprietary", "confidential",
    "general information only", "does not constitute", "informational purposes", "subject to change without",
)  # fmt: skip
FOOTNOTE_END_RE = re.compile(r"(?:(?<=[^\W\d_][.!?])|(?<=[.!?][\"”’)]))\d{1,3}$")


def is_prose(sentence: str) -> bool:
    """At least five words, at least 40% of them starting lower-case (not a label, a list or a caption)."""
    words = sentence.split()
    return len(words) >= 5 and sum(1 for w in words if w[:1].islower()) >= 0.4 * len(words)


CAPTION_RE = re.compile(r"(?:figure|fig\.|table|exhibit|chart|sources?|notes?|see|id\.|cf\.)\b|.*\bpage \d", re.I)


def is_summary_sentence(sentence: str) -> bool:
    """A complete prose sentence: 8-50 words, starts upper-case, ends with . ! ?, few digits or capitals."""
    words = sentence.split()
    if not 8 <= len(words) <= 50 or len(sentence) > 400:
        return False
    if not (sentence[0].isupper() or (sentence[0] in "\"“‘(" and sentence[1:2].isupper())) or sentence[1] == ".":
        return False  # lower-case start, or a leftover label such as "D. All these works..."
    if not sentence.rstrip("\"”’)").endswith((".", "!", "?")) or CAPTION_RE.match(sentence):
        return False
    lowered = sentence.lower()
    if any(mark in lowered for mark in BOILERPLATE_MARKS):
        return False
    letters = sum(map(str.isalpha, sentence))
    digits = sum(map(str.isdigit, sentence))
    if letters < 0.6 * len(sentence) or digits > 0.08 * len(sentence):
        return False
    lower = sum(1 for w in words if w[:1].islower())
    return lower >= 0.5 * len(words)


# -------------------------------------------------------------------------------------------- title

FILE_EXT_RE = re.compile(r"\.(?:pdf|docx?|dvi|ps|tex|indd|pptx?|xlsx?|rtf|txt|qxd|odt|pages|key|eps)\s*$", re.I)
SLUG_RE = re.compile(r"^[\w.-]+$")
GENERIC_TITLES = frozenset(
    {"untitled", "title", "document", "presentation", "powerpoint presentation", "slide 1", "unknown", "none",
     "no title", "draft"}
)  # fmt: skip


def _squash(text: str) -> str:
    return re.sub(r"[\W_]+", "", text).lower()


def is_meaningful_title(title: str, file_name: str = "") -> bool:
    """Not empty, not a file or path name, not "Microsoft Word - x.docx", not a generic placeholder."""
    title = title.strip()
    if len(title) < 3 or not any(c.isalpha() for c in title):
        return False
    if title.lower() in GENERIC_TITLES or re.match(r"^microsoft (?:word|powerpoint|excel)\b", title, re.I):
        return False
    if FILE_EXT_RE.search(title) or "\\" in title or title.startswith("/") or re.match(r"^[A-Z]:", title):
        return False
    if " " not in title and SLUG_RE.match(title) and re.search(r"[-_.\d]", title):
        return False  # a slug such as "q1-fy25-earnings" or "report_v2"
    stem = re.sub(r"\.[A-Za-z0-9]{1,5}$", "", file_name)
    return not (stem and _squash(stem) == _squash(title))


def heading_list(markdown: str, headings: list[Heading]) -> list[tuple[int, int, str]]:
    """(line, level, title) of the Markdown's ATX headings (as `iter_headings`, faster without code
    fences); the given headings when the Markdown has none."""
    if "```" in markdown or "~~~" in markdown:
        found = [(h.line, h.level, h.title) for h in iter_headings(markdown)]
    else:
        found, line, last = [], 0, 0
        starts = ([0] if markdown.startswith("#") else []) + [m.start() + 1 for m in re.finditer("\n#", markdown)]
        for start in starts:
            line += markdown.count("\n", last, start)
            last = start
            end = markdown.find("\n", start)
            match = HEADING_RE.match(markdown[start : end if end >= 0 else len(markdown)])
            if match:
                found.append((line, len(match.group(1)), match.group(2).strip()))
    return found or sorted((h.line, h.level, h.title) for h in headings)


def extract_title(info: PdfInfo, markdown: str, headings: list[Heading]) -> tuple[str, Provenance | None]:
    """The docinfo title when meaningful (pdf-info); else the H1 (layout); else, when the H1 is only the
    file name the reformatter fell back to, the first heading of page 1 with at least three words."""
    docinfo = " ".join(info.docinfo.get("title", "").split())
    if is_meaningful_title(docinfo, info.file_name):
        return docinfo, Provenance.PDF_INFO
    found = heading_list(markdown, headings)
    marker = re.search(r"^--- end page 1\s*$", markdown, re.M)
    page_one_lines = markdown.count("\n", 0, marker.start()) if marker else len(markdown)
    h1 = [title for _, level, title in found if level == 1][:1]
    page_one = [title for line, level, title in found if level > 1 and line < page_one_lines]
    words_ok = [t for t in page_one if len(t.split()) >= 3 and all(len(w) > 1 or w in "aAI&" for w in t.split())]
    for candidate in h1 + words_ok[:1]:
        candidate = " ".join(candidate.replace("**", "").split())
        if is_meaningful_title(candidate, info.file_name):
            return candidate, Provenance.LAYOUT
    return "", None


# ------------------------------------------------------------------------------------------- author

GENERIC_AUTHORS = frozenset(
    {"user", "admin", "administrator", "owner", "unknown", "author", "windows user", "microsoft office user",
     "default", "standard", "none", "n/a", "test", "pc", "hp", "dell"}
)  # fmt: skip
BYLINE_RE = re.compile(r"^\s*(?:prepared by|written by|authors?:|by)\s*:?\s+(?P<name>.+?)\s*$", re.I | re.M)


def is_meaningful_author(author: str) -> bool:
    author = author.strip()
    return (
        len(author) >= 2
        and any(c.isalpha() for c in author)
        and author.lower() not in GENERIC_AUTHORS
        and not FILE_EXT_RE.search(author)
        and "\\" not in author
    )


def extract_author(info: PdfInfo, first_pages: str) -> tuple[str, Provenance | None]:
    """The docinfo author when meaningful (pdf-info), else a "Prepared by / By / Author:" line (heuristic)."""
    docinfo = " ".join(info.docinfo.get("author", "").split())
    if is_meaningful_author(docinfo):
        return docinfo, Provenance.PDF_INFO
    for match in BYLINE_RE.finditer(first_pages):
        name = match.group("name").strip(" .,;:")
        words = name.split()
        if 1 <= len(words) <= 12 and words[0][:1].isupper() and not re.search(r"\d{3}|@|https?:", name):
            return name, Provenance.HEURISTIC
    return "", None


# -------------------------------------------------------------------------------------------- dates

MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
YEAR = r"(?:19|20)\d{2}"
DATE_RE = re.compile(
    rf"(?<![\w-])(?P<iy>{YEAR})-(?P<im>0[1-9]|1[0-2])-(?P<id>0[1-9]|[12]\d|3[01])(?![\w-])"
    rf"|\b(?P<am>{MONTH})\s+(?P<ad>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<ay>{YEAR})\b"
    rf"|\b(?P<bd>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<bm>{MONTH})\s+(?P<by>{YEAR})\b"
    rf"|\b(?P<cm>{MONTH}),?\s+(?P<cy>{YEAR})\b",
    re.IGNORECASE,
)
NOT_PUBLICATION_RE = re.compile(
    r"\b(?:effective|on or before|before|after|until|through|thru|ended|ending|as of|as at|from|since|between|"
    r"received|due|expires?|expiration|deadline|deliver\w*|to|and)\W{0,3}$|[–—-]\s*$",
    re.IGNORECASE,
)
RANGE_AFTER_RE = re.compile(r"^\s*(?:–|—|-|to\b|through\b|until\b)")
PUBLICATION_CUE_RE = re.compile(r"\b(?:dated|published|publication date|issued|released|date)\W{0,3}$", re.I)


def month_number(name: str) -> int:
    return {m[:3].lower(): i for i, m in enumerate(calendar.month_name) if m}[name[:3].lower()]


def iso(year: int, month: int, day: int) -> str | None:
    """YYYY-MM-DD for a real date, else None."""
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return None


def find_dates(text: str) -> list[tuple[int, int, str]]:
    """Printed calendar dates as (start, end, YYYY-MM-DD); month-only dates are the 1st of the month."""
    found = []
    for m in DATE_RE.finditer(text):
        if m.group("iy"):
            value = iso(int(m.group("iy")), int(m.group("im")), int(m.group("id")))
        else:
            month = m.group("am") or m.group("bm") or m.group("cm")
            if not month[0].isupper():  # "may 2020" is a verb, "May 2020" a month
                continue
            year = int(m.group("ay") or m.group("by") or m.group("cy"))
            day = int(m.group("ad") or m.group("bd") or 1)
            value = iso(year, month_number(month), day)
        if value:
            found.append((m.start(), m.end(), value))
    return found


def docinfo_date(value: str) -> str:
    """PDF date string ("D:20240812133835-04'00'") to YYYY-MM-DD, or "" when it is not a real date."""
    match = re.match(r"^(?:D:)?(\d{4})(\d{2})?(\d{2})?", value.strip())
    if not match:
        return ""
    year, month, day = int(match.group(1)), int(match.group(2) or 1), int(match.group(3) or 1)
    return (iso(year, month, day) or "") if 1900 <= year <= 2100 else ""


def extract_publication_date(info: PdfInfo, first_pages: str) -> tuple[str, Provenance | None]:
    """A date printed on the first pages (heuristic) wins; else the docinfo creation date (pdf-info).

    Dates that read as deadlines, effective dates, period ends or range ends are skipped; among the rest a
    date introduced by "Dated", "Published", "Issued"... wins, else the first one.
    """
    eligible = []
    for start, end, value in find_dates(first_pages):
        before = first_pages[max(0, start - 40) : start]
        if NOT_PUBLICATION_RE.search(before) or RANGE_AFTER_RE.match(first_pages[end : end + 10]):
            continue
        eligible.append((PUBLICATION_CUE_RE.search(before) is None, start, value))
    if eligible:
        return min(eligible)[2], Provenance.HEURISTIC
    created = docinfo_date(info.docinfo.get("creationDate", ""))
    return (created, Provenance.PDF_INFO) if created else ("", None)


# ----------------------------------------------------------------------------------------- language


def extract_language(paragraphs: list[str]) -> str:
    """ISO 639-1 code from py3langid over up to ~6,000 characters of body text taken at three places."""
    text = "\n".join(paragraphs)
    if sum(map(str.isalpha, text[:2000])) < 40:
        return ""
    if len(text) > 6000:
        third = len(text) // 3
        text = "\n".join(text[i : i + 2000] for i in (0, third, 2 * third))
    import py3langid  # the model loads on first use

    return str(py3langid.classify(text)[0])


# ------------------------------------------------------------------------------------ document type

TYPE_RULES: list[tuple[str, str, re.Pattern[str]]] = [
    # (label, where: "title" = title + docinfo subject/keywords, "front" = title + first pages, "page1")
    ("proposed rule", "front", re.compile(r"\bACTION:\s*Proposed rules?\b|^proposed rule\b", re.I | re.M)),
    ("final rule", "front", re.compile(r"\bACTION:\s*Final rules?\b", re.I)),
    ("interpretive release", "front", re.compile(r"\bACTION:\s*Interpretation\b|\binterpretive release\b", re.I)),
    ("policy statement", "front", re.compile(r"\bACTION:\s*Policy statement\b", re.I)),
    ("earnings release", "page1", re.compile(
        r"\b(?:reports?|announces?)\b[^.]{0,60}\b(?:quarter|full[- ]year|fiscal)\b[^.]{0,40}"
        r"\b(?:earnings|financial results)\b|\bearnings release\b", re.I)),
    ("annual report", "page1", re.compile(r"\bannual report\b", re.I)),
    ("datasheet", "page1", re.compile(r"\bdata ?sheet\b|^product specification\s*$", re.I | re.M)),
    ("research paper", "front", re.compile(
        r"^\s*abstract\b(?=[\s\S]*^\s*(?:1\.?|I\.)?\s*introduction\s*$)", re.I | re.M)),
    ("lecture notes", "title", re.compile(r"\blectures?\b|\blecture notes\b", re.I)),
    ("thesis", "page1", re.compile(r"\b(?:thesis|dissertation) submitted\b|\bdoctoral dissertation\b", re.I)),
    ("press release", "page1", re.compile(r"\bfor immediate release\b|\bpress release\b", re.I)),
    ("white paper", "title", re.compile(r"\bwhite ?paper\b", re.I)),
    ("manual", "title", re.compile(r"\b(?:user(?:'s)? guide|manual|handbook)\b", re.I)),
    ("report", "title", re.compile(r"\breport\b", re.I)),
    ("report", "front", re.compile(r"^\s*executive summary\b", re.I | re.M)),
]  # fmt: skip
DECK_CREATOR_RE = re.compile(r"powerpoint|keynote|google slides|impress|beamer", re.I)


def extract_document_type(info: PdfInfo, title: str, first_pages: str, page1: str) -> str:
    """A short label from rule-based cues; "presentation" for landscape decks; "" when no cue fires."""
    title_text = "\n".join([title, info.docinfo.get("subject", ""), info.docinfo.get("keywords", "")])
    haystacks = {"title": title_text, "front": f"{title_text}\n{first_pages}", "page1": f"{title_text}\n{page1}"}
    landscape_deck = info.format == "landscape" and bool(
        DECK_CREATOR_RE.search(info.docinfo.get("creator", "") + " " + info.docinfo.get("producer", ""))
    )
    for label, where, pattern in TYPE_RULES:
        if label == "white paper" and landscape_deck:
            return "presentation"  # a slide deck: past the specific cues, the format says more than the title
        if pattern.search(haystacks[where]):
            return label
    return "presentation" if info.format == "landscape" else ""


# ----------------------------------------------------------------------------------------- keywords

TOKEN_SPLIT_RE = re.compile(r"[^\w\s'’-]+|\s[-–—]+\s|--+")
URL_RE = re.compile(r"\S*(?:https?://|www\.|@)\S*")


def _content_word(token: str, stop: frozenset[str]) -> str:
    """The lower-case content word of a token; "of" for "of" (it may bridge a phrase); "" otherwise."""
    token = token.strip("'’-")
    word = token.lower()
    word = word[:-2] if word.endswith(("'s", "’s")) else word
    if word == "of":
        return word
    ok = word not in stop and WORD_RE.fullmatch(word) and (len(word) > 2 or (len(word) == 2 and token.isupper()))
    return word if ok else ""


def keyword_candidates(paragraphs: list[str], stop: frozenset[str]) -> tuple[Counter, Counter]:
    """Counts and spread (in how many of ~40 chunks) of runs of content words cut into 1-3-grams, and of
    "X of Y" ("conflicts of interest")."""
    counts: Counter[tuple[str, ...]] = Counter()
    spread: Counter[tuple[str, ...]] = Counter()
    words_of: dict[str, str] = {}
    size = max(1, len(paragraphs) // 40)
    for first in range(0, len(paragraphs), size):
        grams: list[tuple[str, ...]] = []
        for paragraph in paragraphs[first : first + size]:
            if "http" in paragraph or "www." in paragraph or "@" in paragraph:
                paragraph = URL_RE.sub(" ", paragraph)
            for piece in TOKEN_SPLIT_RE.split(paragraph):
                run: list[str] = []
                bridge = ""
                for token in piece.split() + [" "]:
                    word = words_of.get(token)
                    if word is None:
                        word = words_of[token] = _content_word(token, stop)
                    if word and word != "of":
                        if bridge and not run:
                            grams.append((bridge, "of", word))
                        run.append(word)
                        continue
                    if run:
                        grams.extend(zip(run))
                        grams.extend(zip(run, run[1:]))
                        grams.extend(zip(run, run[1:], run[2:]))
                    bridge = run[-1] if word == "of" and run else ""
                    run = []
        chunk = Counter(grams)
        counts.update(chunk)
        spread.update(chunk.keys())
    return counts, spread


def extract_keywords(paragraphs: list[str], lang: str = "en", top: int = 15) -> list[str]:
    """8-15 key phrases (1-3 words) by count x (1 + log spread) x length weight, lower-case, deduplicated
    by stems; a phrase inside a kept longer phrase that accounts for half of its uses is dropped."""
    counts, spread = keyword_candidates(paragraphs, stopwords(lang) | KEYWORD_NOISE)
    length_weight = {1: 1.0, 2: 2.5, 3: 3.0}
    scored = sorted(
        ((c * (1 + log(spread[k])) * length_weight[len(k)], k, c) for k, c in counts.items() if c >= 2),
        reverse=True,
    )[: top * 20]
    kept: list[tuple[tuple[str, ...], tuple[str, ...], int]] = []  # stems, phrase, count
    for _, phrase, count in scored:
        stems = tuple(stem_words(list(phrase), lang))
        if len(set(stems)) < len(stems) or any(s == stems for s, _, _ in kept):
            continue
        if any(_contains(longer, stems) and longer_count >= 0.5 * count for longer, _, longer_count in kept):
            continue
        kept = [(s, p, c) for s, p, c in kept if not (_contains(stems, s) and count >= 0.5 * c)]
        kept.append((stems, phrase, count))
        if len(kept) >= top:
            break
    return [" ".join(p).replace("’", "'") for _, p, _ in kept]


def _contains(longer: tuple[str, ...], shorter: tuple[str, ...]) -> bool:
    n = len(shorter)
    return len(longer) > n and any(longer[i : i + n] == shorter for i in range(len(longer) - n + 1))


# ------------------------------------------------------------------------------------------ summary


def extract_summary(paragraphs: list[str], lang: str = "en", max_sentences: int = 5) -> str:
    """3-5 sentences, verbatim, in document order: centroid similarity x position bonus, no near-repeats."""
    stop = stopwords(lang) | KEYWORD_NOISE
    candidates: list[tuple[int, str, list[str]]] = []
    frequencies: Counter[str] = Counter()
    position = 0
    for paragraph in paragraphs:
        for sentence in split_sentences(paragraph):
            words = [w.lower() for w in WORD_RE.findall(sentence)]
            stems = stem_words([w for w in words if w not in stop and len(w) > 2], lang)
            frequencies.update(stems)
            label = LABEL_RE.match(sentence)
            sentence = FOOTNOTE_END_RE.sub("", sentence[label.end() :] if label else sentence)
            if is_summary_sentence(sentence) and len(candidates) < 3000:
                candidates.append((position, sentence, stems))
            position += 1
    if not candidates:
        return ""
    centroid = {w: log(1 + c) for w, c in frequencies.most_common(100)}
    total = max(position, 1)
    scored = []
    for pos, sentence, stems in candidates:
        distinct = set(stems)
        if not distinct:
            continue
        weight = sum(centroid.get(w, 0.0) for w in distinct) / sqrt(len(distinct))
        bonus = 1.0 + 0.8 * max(0.0, 1.0 - pos / max(20.0, 0.1 * total))
        scored.append((weight * bonus, pos, sentence, distinct))
    scored.sort(key=lambda item: (-item[0], item[1]))
    chosen: list[tuple[int, str, set[str]]] = []
    for _, pos, sentence, distinct in scored:
        if any(len(distinct & other) / len(distinct | other) > 0.4 for _, _, other in chosen):
            continue
        chosen.append((pos, sentence, distinct))
        if len(chosen) >= max_sentences or (len(chosen) >= 3 and sum(len(s) for _, s, _ in chosen) > 700):
            break
    return " ".join(sentence for _, sentence, _ in sorted(chosen))


# ------------------------------------------------------------------------------------------- themes

BOILERPLATE_SECTIONS_RE = re.compile(
    r"^(?:table of )?contents?$|^(?:end|foot)?notes$|^references?$|^bibliography$|^works cited$|^contacts?$|"
    r"^contact (?:us|information)$|^appendi(?:x|xes|ces)\b|^annex(?:es)?\b|^glossary$|^index$|^disclaimers?$|"
    r"^acknowledge?ments?$|^about (?:the )?(?:authors?|us|this (?:report|document|publication)|deloitte)$|"
    r"^copyright\b|^legal\b|^abbreviations$|^acronyms$|^list of (?:figures|tables)$|^sources$",
    re.IGNORECASE,
)
NUMBERING_RE = re.compile(r"^(?:\d+(?:\.\d+)*[.)]?|[IVXLC]+[.)]|[A-Z][.)])\s+(?=\S)")


def theme_name(heading: str) -> str:
    """A heading without its numbering ("II. Interpretation" -> "Interpretation") or emphasis marks."""
    name = " ".join(heading.replace("**", "").replace("__", "").split())
    return NUMBERING_RE.sub("", name).strip()


def shorten(text: str, limit: int = THEME_DESCRIPTION_CHARS) -> str:
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(" ,;:")
    return cut + "…"


def first_sentence(paragraphs: list[str]) -> str:
    """The first complete prose sentence (upper-case start, final punctuation), else the first prose
    fragment starting upper-case, else ""; boilerplate (copyright, licence lines) skipped."""
    fallback = ""
    for paragraph in paragraphs:
        for sentence in split_sentences(paragraph):
            if not (sentence[0].isupper() and is_prose(sentence)):
                continue
            if any(mark in sentence.lower() for mark in BOILERPLATE_MARKS):
                continue
            if sentence.rstrip("\"”’)0123456789").endswith((".", "!", "?", ":")):
                return FOOTNOTE_END_RE.sub("", sentence)
            fallback = fallback or sentence
    return fallback


def themes_at_level(found: list[tuple[int, int, str]], lines: list[str], level: int, title: str) -> list[Theme]:
    """Sections whose heading is at `level`: name + first sentence of the body (up to the next heading at
    that level or above). Boilerplate, the title itself, and sections without prose are skipped."""
    bounds = sorted(line for line, lvl, _ in found if lvl <= level)
    themes: list[Theme] = []
    seen = {" ".join(title.lower().split())}
    for line, _, heading in [h for h in found if h[1] == level][:40]:
        name = theme_name(heading)
        if not name or len(name) > 120 or BOILERPLATE_SECTIONS_RE.match(name) or name.lower() in seen:
            continue
        seen.add(name.lower())
        following = bounds[bisect_right(bounds, line) :]
        end = min(following[0] if following else len(lines), line + 300)
        description = first_sentence(body_paragraphs("\n".join(lines[line + 1 : end]))[:30])
        if description:  # else a contents-page entry, a title page, a section of tables only
            themes.append(Theme(name=name, description=shorten(fix_ligatures(description))))
        if len(themes) >= MAX_THEMES:
            break
    return themes


def extract_themes(markdown: str, headings: list[Heading], title: str = "") -> list[Theme]:
    """The document's top-level sections as themes: level 2 under the single H1 normally; when that level
    holds fewer than three usable sections (a title heading, a contents page, stray figure labels), the
    next level down that does, else the level with the most."""
    found = heading_list(markdown, headings)
    levels = sorted({level for _, level, _ in found if level > 1})[:3]
    if sum(1 for _, level, _ in found if level == 1) > 1:
        levels = [1] + levels  # not reformatted: several H1s are the sections
    lines = markdown.split("\n")
    best: list[Theme] = []
    for level in levels:
        themes = themes_at_level(found, lines, level, title)
        if len(themes) >= 3:
            return themes
        best = themes if len(themes) > len(best) else best
    return best


# ----------------------------------------------------------------------------------------- entities

ORG_HEADS = (
    "Commission|Board|Institute|Association|Bank|University|Corporation|Company|Authority|Agency|Bureau|"
    "Council|Committee|Department|Ministry|Office|Federation|Forum|Foundation|Fund|Group|Administration|"
    "Organization|Organisation|Society|Academy|College|School|Court|Congress|Parliament|Exchange|Union|Trust"
)
ORG_SUFFIXES = "Inc|LLC|LLP|Ltd|Limited|Corp|PLC|Plc|plc|GmbH"
ORG_ANCHOR_RE = re.compile(rf"(?:{ORG_HEADS}|{ORG_SUFFIXES})\b")  # literal-led: fast on megabytes
ORG_NAME_RE = re.compile(rf"\b(?:{ORG_HEADS}|{ORG_SUFFIXES})\b")
ORG_HEAD_SET = frozenset(ORG_HEADS.split("|"))
CAP_TOKEN_RE = re.compile(r"[A-Z][\w'’&-]*|(?:[A-Z]\.){2,}")
ACRONYM_DEF_RE = re.compile(r"\((?:the\s+)?[“\"]?([A-Z][A-Za-z&]{1,8})[”\"]?(?:\)|\s+or\s|,|;)")
CONNECTORS = frozenset({"and", "&", "of", "the", "for", "on"})
NAME_STOP = STOPWORDS_EN | frozenset(
    "each any all this that these those our its their in for as under see by to from with at if when both "
    "neither every such other new chairman chair staff dear mr mrs ms dr".split()
)
NAME_STOP_INSIDE = NAME_STOP - CONNECTORS


def _left_words(text: str, start: int) -> list[str]:
    """Capitalised words (with inner and/&) just before `start`, in order; stops at anything else."""
    tokens = text[max(0, start - 160) : start].rstrip(", \n").split()
    words: list[str] = []
    for token in reversed(tokens):
        if token in ("and", "&"):
            if not words:
                break
            words.append(token)
            continue
        if not CAP_TOKEN_RE.fullmatch(token) or token.lower() in NAME_STOP or len(words) >= 6:
            break
        words.append(token)
    while words and words[-1] in ("and", "&"):
        words.pop()
    return words[::-1]


def _right_words(text: str, end: int) -> list[str]:
    """A head word's complement: "Board" + "of Governors of the Federal Reserve System"."""
    if not re.match(r"\s+(?:of|for|on)\s+(?:the\s+)?[A-Z]", text[end : end + 16]):
        return []
    words: list[str] = []
    tokens = text[end : end + 120].split()
    for index, token in enumerate(tokens):
        clean = token.rstrip(",;:.)”\"’")
        clean = clean[:-2] if clean.endswith(("'s", "’s")) else clean
        if not (clean in CONNECTORS or CAP_TOKEN_RE.fullmatch(clean)) or clean.lower() in NAME_STOP_INSIDE:
            break
        following = tokens[index + 1] if index + 1 < len(tokens) else ""
        if clean in ("and", "&") and (following in ("the", "The") or following in ORG_HEAD_SET):
            break  # "Bank of England and the Bank of ...": a list, not one name
        words.append(clean)
        if clean != token:
            break
    while words and words[-1] in CONNECTORS:
        words.pop()
    return words


def entity_key(name: str) -> str:
    """Comparison key: "U.S. Securities and Exchange Commission" ~ "Securities and Exchange Commission"."""
    key = re.sub(r"['’]s$|[.,]", "", name.lower())
    key = re.sub(rf"^(?:us|the)\s+|\s+(?:{ORG_SUFFIXES.lower()})$", "", key)
    return " ".join(key.split())


def find_organisations(text: str) -> Counter[str]:
    """Names ending in an organisation word ("X Commission", "X, Inc.") or led by one ("Bank of X")."""
    names: Counter[str] = Counter()
    for match in islice(ORG_ANCHOR_RE.finditer(text), MAX_ANCHORS):
        start, end, word = match.start(), match.end(), match.group(0)
        if start and (text[start - 1].isalnum() or text[start - 1] == "_"):
            continue
        is_head = word in ORG_HEAD_SET
        if is_head and re.match(r"\s+[A-Z]\w", text[end : end + 4]):
            continue  # "Commission Interpretation": the head word modifies what follows
        if not is_head and text[end : end + 1] == ".":
            end += 1  # "Inc."
        left = _left_words(text, start)
        right = _right_words(text, end) if is_head else []
        if not left and not right:
            continue
        sep = ", " if not is_head and text[start - 2 : start] == ", " else " "
        name = re.sub(r"^(?:The|the)\s+", "", sep.join([" ".join(left), " ".join([text[start:end]] + right)]).strip())
        if len(name.split()) >= 2 and len(name) <= 90:
            names[name] += 1
    counts: Counter[str] = Counter()
    surface: dict[str, str] = {}
    for name, count in names.most_common():  # variants of one name count together, under the commonest
        key = entity_key(name)
        counts[key] += count
        surface.setdefault(key, name)
    return Counter({surface[key]: count for key, count in counts.items()})


def long_form(short: str, words: list[str]) -> str:
    """Schwartz-Hearst: the shortest run of `words` ending the text whose letters spell `short`."""
    text = " ".join(words)
    s, i = len(short) - 1, len(text) - 1
    while s >= 0:
        char = short[s].lower()
        if not char.isalnum():
            s -= 1
            continue
        while i >= 0 and (text[i].lower() != char or (s == 0 and i > 0 and text[i - 1].isalnum())):
            i -= 1
        if i < 0:
            return ""
        i -= 1
        s -= 1
    return text[text.rfind(" ", 0, i + 1) + 1 :]


def find_acronym_organisations(text: str) -> Counter[str]:
    """Organisations defined with an acronym ("Securities and Exchange Commission (SEC)"), with the count
    of the acronym's later uses."""
    found: dict[str, str] = {}
    for match in ACRONYM_DEF_RE.finditer(text):
        acronym = match.group(1)
        if acronym in found or len(found) >= 40 or sum(c.isupper() for c in acronym) < 2:
            continue
        words = text[max(0, match.start() - 200) : match.start()].split()[-min(len(acronym) + 5, 2 * len(acronym)) :]
        name = long_form(acronym, [w.strip("“”\"‘’,;:(") for w in words])
        tokens = name.split()
        if (
            len(tokens) >= 2
            and ORG_NAME_RE.search(name)
            and all(t[:1].isupper() or t in CONNECTORS or t == "in" for t in tokens)
        ):
            found[acronym] = re.sub(r"^(?:The|the)\s+", "", name)
    if not found:
        return Counter()
    uses: Counter[str] = Counter()
    pattern = re.compile("|".join(re.escape(a) for a in sorted(found, key=len, reverse=True)) + "(?![A-Za-z])")
    for m in pattern.finditer(text):
        if not (m.start() and text[m.start() - 1].isalpha()):
            uses[m.group(0)] += 1
    counts: Counter[str] = Counter()
    for acronym, name in found.items():
        counts[name] += max(0, uses[acronym] - 1)
    return counts


def is_organisation(name: str) -> bool:
    return len(name.split()) == 1 or bool(ORG_NAME_RE.search(name))


def extract_entities(text: str, author: str = "") -> list[Entity]:
    """The author (role author, or publisher for an organisation), then organisations named at least twice
    (role mentioned), most frequent first; at most MAX_ENTITIES."""
    entities: list[Entity] = []
    keys: set[str] = set()
    if author:
        entities.append(Entity(name=author, role="publisher" if is_organisation(author) else "author"))
        keys.add(entity_key(author))
    counts = find_organisations(text)
    by_key = {entity_key(name): name for name in counts}
    for name, uses in find_acronym_organisations(text).items():
        counts[by_key.setdefault(entity_key(name), name)] += uses
    for name, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        key = entity_key(name)
        if count >= 2 and key not in keys and len(entities) < MAX_ENTITIES:
            keys.add(key)
            entities.append(Entity(name=name, role="mentioned"))
    return entities


# ------------------------------------------------------------------------------------- time periods

YEAR_ANCHOR_RE = re.compile(r"(?:19|20)\d\d")
FY_ANCHOR_RE = re.compile(r"FY\s?'?(\d{4}|\d{2})(?!\d)")
QUARTER_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4}
# Each is matched against the ~70 characters just before a year (the year itself excluded).
BEFORE_YEAR = [
    ("quarter", re.compile(r"\bQ(?P<q>[1-4])\s*(?:of\s+)?(?P<f>fiscal\s+(?:year\s+)?)?\Z", re.I)),
    ("quarter", re.compile(
        r"\b(?P<w>first|second|third|fourth)\s+(?P<f>fiscal\s+)?quarter\s+(?:of\s+|for\s+|in\s+)?"
        r"(?P<g>fiscal\s+(?:year\s+)?)?\Z", re.I)),
    ("fiscal", re.compile(r"\bfiscal\s+(?:year\s+)?\Z", re.I)),
    ("calendar", re.compile(r"\bcalendar\s+year\s+\Z", re.I)),
    ("ended", re.compile(
        r"\b(?P<kind>(?:fiscal\s+)?years?|(?:fiscal\s+)?quarters?|(?:three|six|nine|twelve|3|6|9|12)[- ]months?)"
        rf"\s+end(?:ed|ing)\s+(?:on\s+)?(?P<m>{MONTH})\s+(?P<d>\d{{1,2}}),?\s+\Z", re.I)),
    ("months", re.compile(
        rf"\b(?P<m1>{MONTH})\s+(?P<y1>{YEAR})\s*(?:–|—|-|to|through|until|and)\s*(?P<m2>{MONTH})\s+\Z"
        rf"|\b(?P<m3>{MONTH})\s*(?:–|—|-|to|through)\s*(?P<m4>{MONTH})\s+\Z")),
    ("years", re.compile(
        rf"(?:(?<![\w/.-])(?P<a>{YEAR})\s*(?:–|—|-|\bto|\bthrough)\s*|\bbetween\s+(?P<b>{YEAR})\s+and\s+)\Z")),
]  # fmt: skip
# Cheap tests before each pattern: (how many characters before the year to look at, one of these must be there)
GATES = {
    "quarter": (40, ("q",)), "fiscal": (16, ("fiscal",)), "calendar": (16, ("calendar",)), "ended": (40, ("end",)),
    "months": (12, ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")),
    "years": (10, ("–", "—", "-", "to", "through", "and")),
}  # fmt: skip
MAX_ANCHORS = 4000  # years and organisation words looked at, at most: bounds the time on any document
PERIOD_MONTHS = {"year": 12, "years": 12, "quarter": 3, "quarters": 3, "three": 3, "six": 6, "nine": 9, "twelve": 12,
                 "3": 3, "6": 6, "9": 9, "12": 12}  # fmt: skip
SHORT_RANGE_AFTER_RE = re.compile(r"\s*[–—-]\s*(\d{2})(?![\w/-]|\.\d)")
COPYRIGHT_BEFORE_RE = re.compile(r"(?:©|\(c\)|copyright)\s*$", re.I)

Period = tuple[int, str, str, str, bool]  # position, start, end, description, approximate


def _full_year(text: str) -> int:
    value = int(text)
    return value if value >= 100 else (2000 + value if value < 80 else 1900 + value)


def _last_day(year: int, month: int) -> int:
    return calendar.monthrange(year, month)[1]


def _months_back(end: date, months: int) -> date:
    """The first day of a period of `months` months ending on `end` (exact for month ends)."""
    after = end + timedelta(days=1)
    index = after.year * 12 + after.month - 1 - months
    year, month = divmod(index, 12)
    return date(year, month + 1, min(after.day, _last_day(year, month + 1)))


def _year(year: int, description: str, approximate: bool, position: int) -> Period:
    return (position, f"{year}-01-01", f"{year}-12-31", description, approximate)


def _quarter(year: int, quarter: int, fiscal: bool, position: int) -> Period:
    last = 3 * quarter
    description = f"Q{quarter} fiscal year {year}" if fiscal else f"Q{quarter} {year}"
    return (position, f"{year}-{last - 2:02d}-01", f"{year}-{last:02d}-{_last_day(year, last)}", description, fiscal)


def _period_before_year(kind: str, m: re.Match[str], year: int, position: int) -> Period | None:
    if kind == "quarter":
        quarter = int(m.group("q")) if "q" in m.groupdict() else QUARTER_WORDS[m.group("w").lower()]
        fiscal = bool(m.group("f") or m.groupdict().get("g"))
        return _quarter(year, quarter, fiscal, position)
    if kind == "fiscal":
        return _year(year, f"fiscal year {year}", True, position)
    if kind == "calendar":
        return _year(year, f"calendar year {year}", False, position)
    if kind == "ended":
        value = iso(year, month_number(m.group("m")), int(m.group("d")))
        if not value or not m.group("m")[0].isupper():
            return None
        end = date.fromisoformat(value)
        kind_word = re.sub(r"^fiscal\s+", "", m.group("kind").lower()).replace("-", " ").split()[0]
        months = PERIOD_MONTHS[kind_word]
        noun = {12: "year", 3: "quarter"}.get(months, f"{months} months")
        description = f"{noun} ended {calendar.month_name[end.month]} {end.day}, {end.year}"
        approximate = end.day != _last_day(end.year, end.month)
        return (position, _months_back(end, months).isoformat(), value, description, approximate)
    if kind == "months":
        first, second = m.group("m1") or m.group("m3"), m.group("m2") or m.group("m4")
        if not (first[0].isupper() and second[0].isupper()):
            return None
        m1, m2 = month_number(first), month_number(second)
        y1 = int(m.group("y1")) if m.group("y1") else (year if m1 <= m2 else year - 1)
        if not (y1, m1) < (year, m2) or year - y1 > 30:
            return None
        description = f"{calendar.month_name[m1]} {y1} – {calendar.month_name[m2]} {year}"
        return (position, f"{y1}-{m1:02d}-01", f"{year}-{m2:02d}-{_last_day(year, m2)}", description, False)
    start = int(m.group("a") or m.group("b"))
    if not start < year <= start + 30:
        return None
    return (position, f"{start}-01-01", f"{year}-12-31", f"{start}–{year}", False)


def find_periods(text: str) -> list[Period]:
    """Explicit periods, found from the years (and "FY" marks) of the text; each look is local."""
    found: list[Period] = []
    for anchor in islice(YEAR_ANCHOR_RE.finditer(text), MAX_ANCHORS):
        p, q = anchor.start(), anchor.end()
        if (p and text[p - 1].isdigit()) or text[q : q + 1].isdigit():
            continue
        year = int(anchor.group(0))
        before = text[max(0, p - 70) : p]
        tail = before[-40:].lower()
        for kind, pattern in BEFORE_YEAR:
            width, hints = GATES[kind]
            end = tail[-width:]
            if not any(h in end for h in hints):
                continue
            m = pattern.search(before)
            if m:
                position = p - (len(before) - m.start())
                period = _period_before_year(kind, m, year, position)
                if period and not COPYRIGHT_BEFORE_RE.search(text[max(0, position - 16) : position]):
                    found.append(period)
                break
        short = SHORT_RANGE_AFTER_RE.match(text, q) if text[q : q + 3].strip()[:1] in "–—-" else None
        if short and not re.search(r"[\w/.-]$", text[max(0, p - 1) : p]) and not COPYRIGHT_BEFORE_RE.search(
            text[max(0, p - 16) : p]
        ):
            end = year // 100 * 100 + int(short.group(1))
            if year < end <= year + 30:
                found.append((p, f"{year}-01-01", f"{end}-12-31", f"{year}–{end}", False))
    for anchor in FY_ANCHOR_RE.finditer(text):
        p = anchor.start()
        if p and text[p - 1].isalpha():
            continue
        year = _full_year(anchor.group(1))
        quarter = re.search(r"\bQ([1-4])\s*(?:of\s+)?\Z", text[max(0, p - 8) : p]) or re.match(
            r"\s*Q([1-4])\b", text[anchor.end() : anchor.end() + 6]
        )
        if quarter:
            found.append(_quarter(year, int(quarter.group(1)), True, p))
        else:
            found.append(_year(year, f"fiscal year {year}", True, p))
    return found


def extract_time_periods(title: str, text: str, front_chars: int = 0) -> list[TimePeriod]:
    """At most MAX_PERIODS explicit periods: those of the title first, then by count (+2 when on the first
    pages). A title with one year and no other period ("Annual Report, 2023") gives that year, approximate."""
    in_title = find_periods(title)
    years = set(re.findall(rf"(?<!\d)({YEAR})(?!\d)", title))
    if not in_title and len(years) == 1:
        year = years.pop()
        in_title = [_year(int(year), year, True, 0)]
    score: Counter[tuple[str, str]] = Counter()
    first_seen: dict[tuple[str, str], int] = {}
    descriptions: dict[tuple[str, str], Counter[str]] = {}
    exact: set[tuple[str, str]] = set()
    for weight, periods in ((1000, in_title), (1, find_periods(text))):
        for position, start, end, description, approximate in periods:
            key = (start, end)
            score[key] += weight + (2 if weight == 1 and position < front_chars and key not in first_seen else 0)
            first_seen.setdefault(key, position if weight == 1 else -1)
            descriptions.setdefault(key, Counter())[description] += 1
            if not approximate:
                exact.add(key)
    ranked = sorted(score, key=lambda k: (-score[k], first_seen[k]))[:MAX_PERIODS]
    return [
        TimePeriod(
            start_date=start,
            end_date=end,
            period_description=descriptions[(start, end)].most_common(1)[0][0],
            is_approximate=(start, end) not in exact,
        )
        for start, end in ranked
    ]


# --------------------------------------------------------------------------------------------- main


def extract_metadata(info: PdfInfo, markdown: str, headings: list[Heading]) -> ContextMetadata:
    """All context metadata fields of one document, each with where it came from."""
    blocks = page_blocks(markdown)
    front = [plain_text(b) for b in blocks[:2]]
    first_pages = "\n".join(front)[:20_000]
    paragraphs = body_sample(blocks)
    scanned = "\n".join(plain_text(blocks[i]) for i in sample_pages(blocks, SCAN_CHARS))
    provenance: dict[str, Provenance] = {}

    title, title_from = extract_title(info, markdown, headings)
    author, author_from = extract_author(info, first_pages)
    publication_date, date_from = extract_publication_date(info, first_pages)
    for field, source in (("title", title_from), ("author", author_from), ("publication_date", date_from)):
        if source:
            provenance[field] = source

    language = extract_language(paragraphs)
    lang = language or "en"
    document_type = extract_document_type(info, title, first_pages, front[0] if front else "")
    keywords = extract_keywords(paragraphs, lang)
    summary = extract_summary(paragraphs, lang)
    themes = extract_themes(markdown, headings, title)
    entities = extract_entities(scanned, author)
    time_periods = extract_time_periods(title, scanned, front_chars=sum(len(f) + 1 for f in front))

    for field, value, source in (
        ("language", language, Provenance.HEURISTIC),
        ("document_type", document_type, Provenance.HEURISTIC),
        ("keywords", keywords, Provenance.HEURISTIC),
        ("summary", summary, Provenance.HEURISTIC),
        ("themes", themes, Provenance.LAYOUT),
        ("entities", entities, Provenance.HEURISTIC),
        ("time_periods", time_periods, Provenance.HEURISTIC),
    ):
        if value:
            provenance[field] = source
    if entities and all(e.role != "mentioned" for e in entities) and author_from:
        provenance["entities"] = author_from
    return ContextMetadata(
        title=title,
        author=author,
        publication_date=publication_date,
        language=language,
        document_type=document_type,
        themes=themes,
        entities=entities,
        time_periods=time_periods,
        keywords=keywords,
        summary=summary,
        provenance=provenance,
    )
