"""Heading detection from font size, weight and numbering, with one level per style document-wide."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from engine.readers.furniture import HEADING_SIZE, PAGE_NUMBER_RE
from engine.readers.hanging import hanging_indent, hangs, label_only
from engine.readers.hyphens import join_pair, vocabulary
from engine.readers.layout import Line, family
from engine.readers.mojibake import copyright_sign
from engine.readers.pitch import pitch_limit
from engine.readers.reading_order import same_row
from engine.readers.regular_heads import COUNTED_MIN, counted_label, counts_up, regular_heads
from engine.readers.sentences import sentence_goes_on
from engine.readers.style_siblings import heading_size, in_place, letter_groups, long_headings
from engine.readers.table_regions import table_text
from engine.readers.title_block import COVER_PAGES, not_a_heading
from engine.text import APPENDIX_WORDS, BULLET_GLYPHS, SECTION_WORDS, STOP_WORDS, SYMBOL_BULLETS, has_leader

if TYPE_CHECKING:
    from engine.readers.ruled import Grid

MAX_WORDS = 24
_LABEL_PATTERNS: list[tuple[str, float, re.Pattern[str]]] = [
    ("decimal", 2.0, re.compile(r"^(\d{1,2}(?:\.\d{1,2}){1,4}|[A-Z]\.\d{1,2}(?:\.\d{1,2}){0,3})\.?\s+\S")),
    ("roman", 0.0, re.compile(r"^([IVXL]{1,5})\.\s+\S")),
    ("upper", 1.0, re.compile(r"^([A-Z])[.)]\s+\S")),
    ("arabic", 2.0, re.compile(r"^(\d{1,2})[.)]\s+\S")),
    ("arabic_bare", 2.0, re.compile(r"^(\d{1,2})\s+[A-Z][a-z]")),
    ("lower_roman", 3.5, re.compile(r"^([ivx]{2,4})[.)]\s+\S")),
    ("lower", 3.0, re.compile(r"^([a-z])[.)]\s+\S")),
    ("paren_arabic", 4.0, re.compile(r"^\((\d{1,2})\)\s+\S")),
    ("paren_lower", 5.0, re.compile(r"^\(([a-z])\)\s+\S")),
    ("upper_bare", 1.0, re.compile(r"^([A-H])\s+[A-Z][a-z]")),
    ("id", 2.5, re.compile(r"^([A-Z]{1,4}-\d{1,3}(?:\s?\(\d{1,2}\))?)\s+[A-Z]")),  # a catalogue's item: "AC-1 ACCESS"
]
SMALL = 0.75  # of the body size: an identified heading in capitals may be set this small (a catalogue's items)
_SMALL_WORDS = {
    "a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "is", "of", "on", "or", "the",
    "to", "under", "with", "vs", "via", "its", "be", "are", "not", "that", "who", "which", "than",
}
BULLET_LEAD_RE = re.compile(rf"^[{BULLET_GLYPHS}\ufffd]\s|^[{SYMBOL_BULLETS}]|^[•‣▪●▶►➢➤](?=[^\W\d_])")  # (a symbol
# font's glyph may touch its text; so may a round or pointing bullet, a Beamer theme's "▶Diversity in 3D space")
# a dash and a space opening a line: a list's item ("– Successor of QDBM") or code ("- (void)application…"), never a
# heading (no title of corpus_wide's 24 outlines opens with one); dropped after the styles' levels are assigned, as a
# candidate it still counts among its style's lines
DASH_LEAD_RE = re.compile(r"^[-–—]\s+\S")
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'’\-]*")


@dataclass(frozen=True, slots=True)
class Style:
    size: float
    bold: bool
    italic: bool
    caps: bool
    numbering: str  # label class for body-size styles, "" otherwise


@dataclass(slots=True)
class Candidate:
    page: int
    index: int  # index of its first line in the page's line list
    count: int  # lines merged into it
    text: str
    style: Style
    order: int  # position in the document (first-appearance ranking)
    identifier: bool = False  # it opens with a name set in a monospaced face (an API reference's "edge()")
    under: int = 0  # lines under it before the next candidate or the page's end
    prose: bool = False  # those lines hold prose (a sentence, a long line), not a cover's short lines
    listed: frozenset[str] = frozenset()  # the items of a bulleted list under it (a section's own contents)
    beside: bool = False  # text stands beside its first line on its row (a two-column glossary's definition)
    chapter: str = ""  # the number of the chapter's label line above it ("3" of "KAPITEL 3"), when it had one
    over: bool = False  # it stands right over the next candidate, smaller, no wider apart than a line or two
    own_face: bool = False  # set in a typeface other than the one most of the text is set in (a heading style's)
    regular: bool = False  # told by a regularity of the document's (engine.readers.regular_heads), never a list's label
    indented: bool = False  # its first line starts an em or more right of the page's text's left edge (`text_margin`)
    item: bool = False  # plain and numbered, right under or over a line numbered alike: a list's item (`_among_items`)


@lru_cache(maxsize=8192)  # (a line's text is asked again by the heading rules and the paragraph rules)
def label_class(text: str) -> tuple[str, float] | None:
    for name, rank, pattern in _LABEL_PATTERNS:
        match = pattern.match(text)
        if match:
            if name == "decimal":
                depth = match.group(1).count(".")
                return f"decimal{depth}", rank + 0.2 * depth
            return name, rank
    return None


def body_size(pages: list[list[Line]]) -> float:
    """The size most of the text is set in; code (monospaced lines) counts only where there is nothing else."""
    weights: Counter[float] = Counter()
    code: Counter[float] = Counter()
    for lines in pages:
        for line in lines:
            (code if line.mono else weights)[line.size] += len(line.text)
    weights = weights or code
    return weights.most_common(1)[0][0] if weights else 10.0


def _is_caps(text: str) -> bool:
    """Set in capitals: every letter upper case; in a Latin-script line only its Latin letters count (a Greek
    symbol of a formula in it, "SOME LATEX 2ε BASICS", is no lower-case word)."""
    if text.isascii():  # (every letter Latin: no lower-case one, and four or more)
        return text == text.upper() and sum(map(str.isalpha, text)) >= 4
    letters = [c for c in text if c.isalpha()]
    latin = [c for c in letters if c.isascii() or "LATIN" in unicodedata.name(c, "")]
    letters = latin or letters
    return len(letters) >= 4 and all(c.isupper() for c in letters)


def _title_case(text: str) -> bool:
    words = _WORD_RE.findall(text)
    if not words:
        return False
    significant = [w for w in words if w.lower() not in _SMALL_WORDS]
    if not significant:
        return False
    capital = sum(1 for w in significant if w[0].isupper())
    return capital >= 0.75 * len(significant)


CAPTION_RE = re.compile(
    r"^(figure|fig\.|table|box|chart|exhibit|graph|map|panel|source|note)s?\s*[A-Z]?[\d.]+|(—|-|\()\s*continued\)?$|\(cont(\.|inued|'d)\)$",
    re.I,
)


CITATION_RE = re.compile(r"^\[[^\]]{1,40}\](?:\s|$)")  # "[53] VERORDNUNG (EU) ...", "[OMB A-130]"
# a numbered reference list's entry whose authors are set surname and initials ("8. Siegel RL, Miller KD, Jemal A.")
_AUTHOR = r"[A-ZÀ-ÖØ-Þ][\w'’-]+(?: [A-ZÀ-ÖØ-Þ][\w'’-]+)? [A-Z]{1,3}"
REFERENCE_ENTRY_RE = re.compile(rf"^\d{{1,4}}\.\s+(?:{_AUTHOR}, )+{_AUTHOR}(?:\.|,? et al\b)")
BROKEN_WORD_RE = re.compile(r"[a-zà-ÿß]-$")
ASSIGNMENT_RE = re.compile(r"^[^\s=]+\s*=\s*\S")


def _word_letter(c: str) -> bool:
    """A letter of a word: not a modifier letter drawn as a formula's brace or bar ("⏞ˉˉˉ⏟") nor a letter of
    the mathematical alphanumerics (a formula's italic 𝑘)."""
    return c.isalpha() and (c.isascii() or not (unicodedata.category(c) == "Lm" or 0x1D400 <= ord(c) <= 0x1D7FF))


URL_RE = re.compile(r"(?i)\bhttps?:|\bwww\.")
# a year or a span of years, the last line of a title wrapped before it ("… Strategic Plan FY" / "2022-2026")
YEARS_RE = re.compile(r"(?:19|20)\d\d(?:\s*[-–—/]\s*(?:19|20)?\d\d)?")
SECTION_NUMBER_RE = re.compile(r"^\d{1,2}(?:\.\d{1,2})+\.?\s+(?=\S)")  # "3.5.1.5 " before a title


def _text_ok(text: str, identifier: bool = False) -> bool:
    """Whether a line's text may be a heading's (`identifier`: it opens with a name set in a monospaced face,
    which may start in lower case: "diagram()", "marks.typ")."""
    letters = sum(map(str.isalpha, text)) if text.isascii() else sum(map(_word_letter, text))
    if letters < 2 or len(text) > 220 or len(text.split()) > MAX_WORDS:
        return False
    body = SECTION_NUMBER_RE.sub("", text)  # (a section number's stops are no symbols: "3.5.1.5 __code")
    if 2 * letters < len(body) - sum(map(str.isspace, body)) - sum(map(str.isdigit, body)):
        return False  # (mostly symbols and digits: a grammar's rule, a formula, a table's numbers)
    if has_leader(text) or URL_RE.search(text) or CAPTION_RE.search(text):  # (a link; "HTTP proxy" may head)
        return False
    stripped = re.sub(r"^\W+", "", text)
    label = label_class(text)
    head = text if label else stripped
    if label:
        return True
    return bool(head) and (not head[0].islower() or identifier)


NOTE_MARK_RE = re.compile(r"(?<=[a-z][.;,])\d{1,3}$")  # a footnote's number after a sentence: "platforms.23"


def _ends_sentence(text: str) -> bool:
    text = NOTE_MARK_RE.sub("", text.rstrip())
    return text.endswith((".", ",", ";")) and not re.search(r"\b[A-Z]\.$|\b[IVX]+\.$", text.strip())


CONTENTS_TITLE_RE = re.compile(
    r"^(table of contents|contents|content|inhalt|inhaltsverzeichnis|sommaire|table des matières|índice|indice"
    r"|sum[áa]rio|conte[úu]do|contenidos?|spis treści|inhoud|inhoudsopgave)$", re.I)
TITLED_SEARCH = 25  # the front pages searched for a page titled as the contents
CONTENTS_BELOW = 5  # page references under a contents title set lower on its page (under an abstract)
LEADER_REF_RE = re.compile(r"(\.\s*){3,}\s*\d+\s*$")  # a contents line's leader dots and page number
PAGE_REF_RE = re.compile(LEADER_REF_RE.pattern + r"|\s\d{1,3}\s*$")  # … or its page number alone


def contents_pages(pages: list[list[Line]], search: int = 10) -> set[int]:
    """0-based indexes of the printed contents page(s): titled "Contents" or dense with page references."""
    found: set[int] = set()
    late: set[int] = set()  # those found past the first pages
    back = range(max(TITLED_SEARCH, len(pages) - TITLED_SEARCH), len(pages))  # (a contents printed at the end)
    for index, lines in [*enumerate(pages[:TITLED_SEARCH]), *((i, pages[i]) for i in back)]:
        titled = any(CONTENTS_TITLE_RE.match(l.text.strip(" :")) for l in lines[:8])
        if index >= search and not titled and (index - 1) not in late:
            continue  # (past the first pages, only a page titled as the contents, after lists of figures,
            # tables, abbreviations and symbols, or the pages that continue such a one: a contents that began on
            # the first pages ends there)
        refs = sum(1 for l in lines if PAGE_REF_RE.search(l.text)) + _row_page_numbers(lines)
        titled = titled or (index < search and _titled_below(lines))
        continued = (index - 1) in found and refs >= 5 and refs >= 0.3 * len(lines)
        if (titled and refs >= 3) or continued:
            found.add(index)
            if index >= search:
                late.add(index)
    return found


BARE_NUMBER_RE = re.compile(r"^\d{1,3}$")


LEADERED_MIN = 5  # lines ending in leaders and a page number that make a page a contents page, whatever its title


def contents_entries(pages: list[list[Line]], contents: set[int]) -> set[str]:
    """The titles the printed contents pages list (each entry's text before its leaders and page number, in
    `_key` form): what the document itself says its headings are."""
    found: set[str] = set()
    leadered = {index for index, lines in enumerate(pages[:TITLED_SEARCH])
                if sum(1 for l in lines if LEADER_REF_RE.search(l.text)) >= max(LEADERED_MIN, len(lines) // 2)}
    # (a contents page under a title of another word, "Index" over a word processor's table of contents: most
    # of its lines end in dot leaders and a page number)
    for index in sorted(contents | leadered):
        for line in pages[index]:
            if PAGE_REF_RE.search(line.text):
                title = PAGE_REF_RE.sub("", line.text).rstrip(" .\u2026")
                if title:
                    found.add(_key(title))
    return found


def _after_contents(lines: list[Line]) -> int:
    """Where the text after a contents page's last entry begins, when it begins on that page (a chapter
    heading under the list, a blank line's gap below its last page reference); 0 when it does not."""
    last = max((k for k, l in enumerate(lines) if PAGE_REF_RE.search(l.text) or BARE_NUMBER_RE.match(l.text.strip())),
               default=-1)
    if last < 0 or all(PAGE_NUMBER_RE.match(l.text.strip()) for l in lines[last + 1:]):
        return 0  # (nothing under it, or only its page number: "Page vi")
    nxt = lines[last + 1]
    return last + 1 if nxt.y0 - lines[last].y1 >= 1.5 * nxt.size else 0


LIST_TITLE_RE = re.compile(r"^(list of|lists of|liste des?|table des (figures|tableaux)|\w+verzeichnis$)", re.I)
LISTED_RE = re.compile(r"^([A-Z][a-z]+|[A-Z]{2,})\.?\s+(?:[A-Z]{1,3}[-.])?\d{1,3}(?:[.\-–]\d{1,3})*[a-z]?\b")
LIST_PAGES = 40  # the front pages searched for lists of figures, tables, rules
LISTED_MIN = 2  # entries of one label word that make it a list's


def listed_labels(pages: list[list[Line]]) -> set[str]:
    """The label words of the entries of the document's printed lists of figures, tables, rules ("Table 4-1:
    ...", "Rule 3-2: ..." under "LIST OF RULES"): lines that open with one of them and its number are those
    items' captions, not sections. Section words ("Chapter", "Appendix") are never such labels."""
    counts: Counter[str] = Counter()
    for lines in pages[:LIST_PAGES]:
        if not any(LIST_TITLE_RE.match(l.text.strip(" :")) and not CONTENTS_TITLE_RE.match(l.text.strip(" :"))
                   for l in lines[:8]):
            continue
        for line in lines:
            match = LISTED_RE.match(line.text)
            if match is not None and PAGE_REF_RE.search(line.text) and match.group(1).lower() not in SECTION_WORDS:
                counts[match.group(1).lower()] += 1
    return {label for label, n in counts.items() if n >= LISTED_MIN}


def _titled_below(lines: list[Line]) -> bool:
    """A contents title further down its page (a paper's first page: title, abstract, then "Contents") with
    page references on most of the lines under it."""
    for k, line in enumerate(lines[8:], start=8):
        if CONTENTS_TITLE_RE.match(line.text.strip(" :")):
            under = lines[k + 1:]
            refs = sum(1 for l in under if PAGE_REF_RE.search(l.text)) + _row_page_numbers(under)
            return refs >= CONTENTS_BELOW and 2 * refs >= len(under)
    return False


def _row_page_numbers(lines: list[Line]) -> int:
    """Page numbers set apart from their entry's title, on its row further right (a contents layout
    with no dot leaders)."""
    return sum(1 for number in lines if BARE_NUMBER_RE.match(number.text.strip())
               and any(o is not number and o.x1 < number.x0 and same_row(o, number) for o in lines))


class _LazyCounts:
    """The document's lower-cased word counts, counted the first time a title-block line asks."""

    def __init__(self, pages: list[list[Line]]) -> None:
        self.pages = pages
        self.counts: Counter[str] | None = None

    def __getitem__(self, word: str) -> int:
        if self.counts is None:
            self.counts = Counter(w.lower() for lines in self.pages for l in lines for w in l.text.split())
        return self.counts[word]


def cover_pages(pages: list[list[Line]], contents: set[int] | None = None) -> int:
    """How many first pages hold the title block: up to three, before any contents page but at least the first
    (none in a short document)."""
    if len(pages) <= COVER_PAGES:
        return 0
    return max(1, min([COVER_PAGES, *(contents_pages(pages) if contents is None else contents)]))


def find_candidates(pages: list[list[Line]], body: float, right_margin: float, grids: list[list[Grid]] | None = None,
                    pitches: dict[float, float] | None = None, vocab: set[str] | None = None,
                    slides: bool = False) -> list[Candidate]:
    """Lines that look like headings, multi-line headings merged, in document order (`grids`: each page's ruled
    tables, whose text is never a heading; `pitches`: the document's line pitch per text size; `vocab`: the
    document's vocabulary, which says how a word broken at a heading's line end joins: engine.readers.hyphens;
    `slides`: the pages are a deck's slides, each titled by its first line when that is set apart: `slide_titles`)."""
    pitches = pitches or {}
    titles = slide_titles(pages, body, pitches) if slides else set()
    if vocab is None:
        vocab = vocabulary(line.text for lines in pages for line in lines)
    found: list[Candidate] = []
    order = 0
    skip = contents_pages(pages)
    cover = cover_pages(pages, skip)
    counts = _LazyCounts(pages)
    face = body_family(pages, body)
    heading_colours = display_colours(pages, body)
    labels = listed_labels(pages)
    entries = contents_entries(pages, skip)
    regular = {place for place in regular_heads(pages, body, face, pitches)
               if not CAPTION_RE.search(pages[place[0]][place[1]].text)}
    pending: list[Candidate] = []  # passed over for length or a sentence's form (engine.readers.style_siblings)
    for page_index, lines in enumerate(pages):
        end = len(lines)
        contents_title: Candidate | None = None
        if page_index in skip:  # only the contents page's own title is a heading there (and, on the first
            for index, line in enumerate(lines if page_index - 1 not in skip else ()):  # page, the title block
                # above it; on a page that continues the contents, its title is a running head)
                if CONTENTS_TITLE_RE.match(line.text.strip(" :")):
                    title_style = Style(line.size, line.bold, line.italic, _is_caps(line.text), "")
                    contents_title = Candidate(page_index + 1, index, 1, line.text, title_style, -1)
                    break
            end = contents_title.index if page_index == 0 and contents_title is not None else 0
        resume = _after_contents(lines) if page_index in skip else 0
        spans = [(0, end)] + ([(resume, len(lines))] if resume else [])
        left = min((l.x0 for l in lines), default=0.0)
        margin = text_margin(lines, body, left)
        # (the text's edge for code: its margin, or further left where a line of its prose starts there)
        edge = min([margin] + [l.x0 for l in lines if abs(l.size - body) < 1 and not l.mono])
        figure = figure_text(lines, left, body if page_index == 0 else 0.0) | table_text(lines)
        for grid in (grids[page_index] if grids else ()):
            figure |= {k for k, line in enumerate(lines) if grid.holds(line)}
        title = first_title(lines, body) if page_index == 0 else None
        for i, end in spans:
            prev_heading = False
            while i < end:
                line = lines[i]
                # (a line set aslant is a stamp across the page, "DRAFT", "EARLY ACCESS": never a heading)
                code = _indented_code(line, body, face, edge)
                style = None if i in figure or line.slanted or code \
                    else _classify(lines, i, body, left, prev_heading, face, pitches, i == title)
                if style is None and not code and (page_index, i) in titles:  # (a slide's title that ends in a stop)
                    style = Style(line.size, line.bold, line.italic, _is_caps(line.text), "")
                told = style is None and not code and (page_index, i) in regular
                if told:
                    style = Style(line.size, line.bold, line.italic, _is_caps(line.text), "")
                if style is None:
                    prev_heading = False
                    i += 1
                    continue
                text, count = line.text, 1
                indent = None if told else hanging_indent(line)  # (a chapter's label opens it: engine.readers.hanging)
                hung = False
                # merge the following lines of a wrapped heading (same style, close below)
                while not told and i + count < end \
                        and count < (10 if (_is_caps(line.text) and line.size >= body * HEADING_SIZE)
                                     or NAMED_LABEL_RE.match(line.text) else 6):
                    nxt = lines[i + count]
                    prev = lines[i + count - 1]
                    if indent is not None and hangs(line, prev, nxt, indent) and label_class(nxt.text) is None:
                        text, count, hung = join_pair(text, nxt.text, vocab), count + 1, True
                        continue
                    emphasised = line.size >= body * HEADING_SIZE or line.bold or line.italic
                    if not (
                        abs(nxt.size - line.size) < 0.6
                        and nxt.bold == line.bold
                        and nxt.italic == line.italic
                        and -0.35 * line.size <= nxt.y0 - prev.y1 <= 1.2 * line.size
                        and not _set_apart_unfilled(prev, nxt, left, right_margin)
                        and (abs(nxt.x0 - line.x0) < 40 + (80 if label_class(line.text) else 0)
                             or abs(nxt.x0 + nxt.x1 - prev.x0 - prev.x1) < line.size  # (or centred under it,
                             or abs(nxt.x1 - prev.x1) < 0.5 * line.size)  # or set flush right with it)
                        and (emphasised or (_title_case(nxt.text) and not _starts_paragraph(lines, i + count + 1, left)
                                            and _starts_paragraph(lines, i + count + 1, left, strict=True)))
                        and (_text_ok(nxt.text) or (emphasised and nxt.text[:1].islower() and len(nxt.text) < 120)
                             or (emphasised and YEARS_RE.fullmatch(nxt.text.strip()) is not None))
                        and not (_ends_sentence(prev.text) and not (emphasised and prev.text.rstrip().endswith(","))
                                 and not _fills_measure(prev, line, body, right_margin))
                        and label_class(nxt.text) is None
                        and not (line.size < body * HEADING_SIZE and _stacked(prev, nxt, text, pitches))
                        and not (BULLET_LEAD_RE.match(nxt.text) and (line.bold or line.italic))  # (an emphasised
                        # heading over its list's first item, set in its emphasis)
                        and not (line.size < body * HEADING_SIZE and _is_caps(prev.text) != _is_caps(nxt.text)
                                 and not nxt.text.startswith("("))  # (a heading set at the text's size in
                        # capitals wraps in capitals: "2.2.1 FRAME" over "Inputs and Preconditions" are two)
                    ):
                        break
                    text = join_pair(text, nxt.text, vocab)  # (a word broken at the line's end joined)
                    count += 1
                words = len(text.split())
                numbered = (label_class(text) or ("", 0.0))[0].startswith("decimal")
                quote = words >= 12 and text.rstrip(" ”\"'’").endswith((".", "!", "?", "…")) \
                    and not (text.endswith("?") and line.bold and numbered) and not hung
                # (a question numbered as a section and set in bold heads a FAQ's answer: "11.4.1 What is ...?")
                leads_on = not line.run_in and LEADS_ON_RE.search(text) is not None  # (it introduces a list)
                if leads_on and text.rstrip().endswith(":") and "=" not in text and (
                        (line.size >= body * HEADING_SIZE and len(text.split()) >= COLON_HEADING_WORDS)
                        or _over_a_subheading(lines, i, count, body)
                        or (count == 1 and _numbered_colon_heading(line, label_class(text)))
                        or (line.size >= body * HEADING_SIZE and line.color in heading_colours)
                        or _key(text) in entries):
                    leads_on = False  # (the contents page lists it: "DEMO FILES :" over its examples; or
                    # set larger than the text, a phrase that names what follows is a heading
                    # though it ends in a colon, "Files that are copyright (c) by NASA:"; a label of a word or two,
                    # "Background:", still leads on into its text, unless set larger in the colour of the document's
                    # display headings: a word processor's heading style, "Changed Behaviour:" over its list)
                # a reference list's entry or a bracketed note ("[53] VERORDNUNG ...", "[OMB A-130]"), or a line whose
                # last word breaks onto the next: text (its lines are passed over with it)
                broken = BROKEN_WORD_RE.search(text) is not None or CITATION_RE.match(text) is not None \
                    or REFERENCE_ENTRY_RE.match(text) is not None
                listed = LISTED_RE.match(text)  # (an item of a printed list of figures, tables, rules)
                broken = broken or (listed is not None and listed.group(1).lower() in labels) \
                    or ASSIGNMENT_RE.match(text) is not None \
                    or PAGE_LABEL_RE.match(text) is not None or copyright_sign(text)
                # (code or a formula: "MAX_QUEUED = 4096"; a page's label left in the text: "Page ii"; a copyright
                # notice: "Copyright © 2022 by ..."; not a letter's mojibake, "QuÃ© es")
                named = NAMED_LABEL_RE.match(text) is not None  # (a goal's statement: "Strategic Goal 6: ...")
                long = words > MAX_WORDS + 12 + (NAMED_EXTRA // 2 if named else 0) or quote
                if not leads_on and not broken and not _runs_on(lines, i + count - 1, text) \
                        and not (page_index < cover and not line.run_in and not_a_heading(text, counts)):
                    cand = Candidate(page_index + 1, i, count, unspaced(text), style, order,
                                     identifier=line.lead_style[2] and text[:1].islower(),
                                     own_face=own_face(line, face), regular=told,
                                     indented=line.x0 > margin + line.size,
                                     item=not (line.bold or line.italic or style.caps)
                                     and _among_items(lines, i, style.numbering))
                    if long:  # (kept only if headings of its style wrap: engine.readers.style_siblings)
                        pending.append(cand)
                    else:
                        found.append(cand)
                        order += 1
                        prev_heading = True
                i += count
        if contents_title is not None:
            contents_title.order = order
            found.append(contents_title)
            order += 1
    letters = []  # a glossary's letter groups ("A", "B", ...: engine.readers.style_siblings), never a list's labels
    for page, index in letter_groups(pages, body):
        letter = pages[page][index]
        letters.append(Candidate(page + 1, index, 1, letter.text.strip(), Style(letter.size, letter.bold, letter.italic,
                                 False, ""), 0, own_face=own_face(letter, face), regular=True))
    found = in_place(found, long_headings(pending, found, pages, body) + letters)
    found = _without_repeated_titles(_without_label_lines(_labels_on_the_row(found, pages), pages), pages)
    after: Candidate | None = None  # the next candidate that stands on its own (a run-in one opens the text)
    for cand in reversed(found):
        end = after.index if after is not None and after.page == cand.page else len(pages[cand.page - 1])
        cand.under = max(0, end - cand.index - cand.count)
        under = pages[cand.page - 1][cand.index + cand.count:end]
        cand.prose = sum(1 for line in under if len(line.text) >= PARAGRAPH_CHARS) >= 2 \
            or any(len(line.text.split()) >= 8 and line.text.rstrip().endswith(".") for line in under)
        cand.listed = frozenset(_key(BULLET_LEAD_RE.sub("", line.text)) for line in under
                                if BULLET_LEAD_RE.match(line.text))
        first = pages[cand.page - 1][cand.index]
        if after is not None and after.page == cand.page and after.index == cand.index + cand.count:
            last, top = pages[cand.page - 1][cand.index + cand.count - 1], pages[cand.page - 1][after.index]
            cand.over = after.style.size < cand.style.size and 0 <= top.y0 - last.y1 <= STACK_GAP * top.size
        cand.beside = any(o.x0 >= first.x1 and same_row(o, first) for o in pages[cand.page - 1])
        if cand.style.numbering != "run_in":
            after = cand
    return found


def _indented_code(line: Line, body: float, body_face: str, edge: float) -> bool:
    """Whether a line is code set in the text: wholly in a monospaced face that is not the text's, at the text's size
    or smaller, without a number, indented an em or more right of the text's left edge (`edge`): "$ ./configure",
    "#include <stdio.h>" under the sentence that introduces them, however bold their font says they are and however
    regularly they recur. (A name heading its entry, "edge()", stands at the edge.)"""
    return line.mono and own_face(line, body_face) and line.size < body * HEADING_SIZE \
        and line.x0 > edge + line.size and label_class(line.text) is None


def text_margin(lines: list[Line], body: float, left: float) -> float:
    """The left edge of a page's text: where most of its lines set at the body size start (to the point), else
    its leftmost line's start (`left`). (A question set out to the left in bold, or a heading, is no edge.)"""
    starts = Counter(round(l.x0) for l in lines if abs(l.size - body) < 1)
    return float(starts.most_common(1)[0][0]) if starts else left


FILLED = 0.5  # ems short of the text's right edge at most: a line that reaches the edge was wrapped there


def _fills_measure(prev: Line, line: Line, body: float, right: float) -> bool:
    """Whether a line of a heading set larger than the text (`line`, its first line) reaches the right edge of the
    text's measure (`right`): the heading was wrapped there and goes on in the line below, though the line ends
    in a stop ("1.21 I want an Incremental but Bacula runs it as a Full backup." over "Why?")."""
    return line.size >= body * HEADING_SIZE and prev.x1 >= right - FILLED * prev.size


APART_GAP = 0.9  # of a heading's size: a gap this wide between two of its lines is a blank line's, not its leading
APART_SHORT = 0.6  # of the text's measure: the first of two headings set apart stops well short of it


def _set_apart_unfilled(prev: Line, nxt: Line, left: float, right: float) -> bool:
    """Two lines of one heading style a blank line apart, the first so short that the second's first word would
    have fit on it within the text's measure: two headings set one over the other ("Preferences" over "General
    Preferences", both centred on one axis, away from the margins), not one heading wrapped. The first stops short
    of 60% of the measure; neither holds a sentence's end."""
    words = nxt.text.split()
    if not words or nxt.y0 - prev.y1 <= APART_GAP * prev.size or prev.x1 - prev.x0 > APART_SHORT * (right - left) \
            or abs(prev.x0 + prev.x1 - nxt.x0 - nxt.x1) > prev.size \
            or min(prev.x0 - left, right - prev.x1) < prev.size \
            or SENTENCE_GAP_RE.search(prev.text) or SENTENCE_GAP_RE.search(nxt.text):
        return False  # (a line where one sentence ends and the next begins is a paragraph's)
    em = (nxt.x1 - nxt.x0) / max(1, len(nxt.text))  # (the mean advance of a character of the next line)
    return (prev.x1 - prev.x0) + em * (len(words[0]) + 1) < right - left


COLON_HEADING_WORDS = 4  # words of a heading set larger than the text that may end in a colon
COLON_NUMBERED_WORDS = 8  # words at most of a bold heading numbered "9.1.4" that ends in a colon


def _over_a_subheading(lines: list[Line], i: int, count: int, body: float) -> bool:
    """Whether the line right under a heading set larger than the text (its `count` lines from i) is a smaller
    heading's, set larger than the text too, a line or two below it: a section whose first part is a section of
    its own ("Structure Examples:" over "List Examples:" over "Numbered:"), which no label leading into its text
    heads."""
    if i + count >= len(lines):
        return False
    line, last, nxt = lines[i], lines[i + count - 1], lines[i + count]
    return line.size >= body * HEADING_SIZE and body * HEADING_SIZE <= nxt.size < line.size - 0.5 \
        and 0 <= nxt.y0 - last.y1 <= STACK_GAP * line.size and len(nxt.text.split()) <= COLON_NUMBERED_WORDS


def _numbered_colon_heading(line: Line, label: tuple[str, float] | None) -> bool:
    """A bold line of a few words under a section number of two levels or more that ends in a colon ("9.1.4
    Playing skill:"): a heading, not a label that leads into its text (a clause "5.2 The supplier shall:" is set
    in the text's weight)."""
    return label is not None and label[0].startswith("decimal") and line.bold \
        and len(line.text.split()) <= COLON_NUMBERED_WORDS
NUMBER_WORDS = ("one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
                "sixteen|seventeen|eighteen|nineteen|twenty")
CHAPTER_LABEL_RE = re.compile(
    rf"^(?:(?:chapter|part|appendix|annex|kapitel|teil|anhang|chapitre|partie|annexe|cap[ií]tulo)\s*"
    rf"|(?:capitolo|anexo|ap[éêe]ndice|appendice|parte)\s+)?"
    rf"(?:\d{{1,3}}|[IVXLC]{{1,6}}|[A-Z]|{NUMBER_WORDS})\.?$", re.I)
# a label whose word follows its number in lower case ("1. fejezet", "A. függelék", "3. luku"): no title starts so
POSTFIX_LABEL_RE = re.compile(r"^(\d{1,3}|[A-Z]|[IVXLC]{1,6})\.\s+[^\W\d_A-ZÀ-ÞŐŰ][^\W\d_]*$")
STACK_GAP = 2  # line heights (of the lower) at most between a heading and the smaller one right under it
LABEL_GAP = 6  # ems between a chapter's label line and its title below (Sphinx sets a rule between them)


# a chapter's or appendix's label in Chinese or Japanese ("第1 章", "第三章", "附录A")
CJK_LABEL_RE = re.compile(r"^(?:第\s*(?:\d{1,3}|[一二三四五六七八九十百]{1,4})\s*[章部篇]|附\s*录\s*[A-Z])$")
# letters of the scripts written without spaces between words (Han, kana; not Hangul, which spaces its words)
CJK_LETTER = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"
SPACED_CJK_RE = re.compile(rf"^{CJK_LETTER}(?: {CJK_LETTER})+$")


def unspaced(text: str) -> str:
    """A heading set in letter-spaced Chinese or Japanese ("摘 要", "目 录", "致 谢"): its letters, one word. Those
    scripts put no space between words, so a space between every two letters is the type's spacing."""
    return text.replace(" ", "") if SPACED_CJK_RE.match(text) else text


def _labels_on_the_row(found: list[Candidate], pages: list[list[Line]]) -> list[Candidate]:
    """A chapter's label set on its title's row, apart from it ("第1 章" and "论文主要部分的写法", "Chapter 3" and its
    title), and taken for two lines: one heading, the label before the title."""
    out: list[Candidate] = []
    for cand in found:
        prev = out[-1] if out else None
        if prev is not None and prev.page == cand.page and prev.index + prev.count == cand.index \
                and abs(prev.style.size - cand.style.size) < 0.6 \
                and (_chapter_label(prev.text.strip()) or (label_only(prev.text) and cand.count >= 2)) \
                and same_row(pages[cand.page - 1][prev.index + prev.count - 1], pages[cand.page - 1][cand.index]):
            out[-1] = Candidate(prev.page, prev.index, prev.count + cand.count, f"{prev.text} {cand.text}",
                                cand.style, prev.order, identifier=cand.identifier, own_face=cand.own_face)
            continue
        out.append(cand)
    return out


LIST_RUN = 3  # numbered lines right under one another, counting up by one, that are a list's items at the least
NUMBERED_ITEM_RE = re.compile(r"^(\d{1,2})[.)]\s+\S")  # "1. North India", "2) Deccan Plateau"


def numbered_runs(found: list[Candidate]) -> set[tuple[int, int]]:
    """(page, index) of candidates numbered "1.", "2.", "3." … on lines right under one another on one page, nothing
    between them, counting up by one, LIST_RUN or more: a numbered list set larger than the text (a slide's
    enumeration, "1. North India" to "8. Volcanic Pacific Islands"), not headings, which stand over text of their
    own. (They are left out of the headings only once levels are assigned: as candidates they still tell the document's
    styles and numbering, as before.)"""
    out: set[tuple[int, int]] = set()
    run: list[tuple[Candidate, int]] = []
    for cand in [*found, None]:
        match = NUMBERED_ITEM_RE.match(cand.text) if cand is not None else None
        if run and match and cand is not None and run[-1][0].page == cand.page \
                and run[-1][0].index + run[-1][0].count == cand.index and int(match.group(1)) == run[-1][1] + 1:
            run.append((cand, int(match.group(1))))
            continue
        if len(run) >= LIST_RUN:
            out |= {(c.page, c.index) for c, _ in run}
        run = [(cand, int(match.group(1)))] if match and cand is not None else []
    return out


def _label_mark(text: str) -> str:
    """The number or letter of a chapter's label ("3" of "KAPITEL 3", "1" of "第1 章")."""
    if CJK_LABEL_RE.match(text):
        found = re.search(r"\d{1,3}|[A-Z]$", text)
        return found.group(0) if found else ""
    return text.split()[-1].rstrip(".")


def _chapter_label(text: str) -> bool:
    return CHAPTER_LABEL_RE.match(text) is not None or CJK_LABEL_RE.match(text) is not None


def counted_label_words(found: list[Candidate]) -> set[str]:
    """Words that label chapters in this document, in any language: a word and a number alone on a candidate's
    line ("Глава 1", "Глава 2", "Глава 3"), the numbers counting up through the document, three or more."""
    numbers: dict[str, list[int]] = {}
    for cand in found:
        label = counted_label(cand.text)
        if label is not None:
            numbers.setdefault(label[0], []).append(label[1])
    return {word for word, seen in numbers.items() if len(seen) >= COUNTED_MIN and counts_up(seen)}


def _without_label_lines(found: list[Candidate], pages: list[list[Line]]) -> list[Candidate]:
    """A chapter's label set on a line of its own above its title ("Chapter 1", "APPENDIX A", "ONE", or a word of
    the document's own that labels its chapters counting up, "Глава 3"), or over two ("Chapter" over a larger "1"
    that reaches down to the title's top), is no heading of its own: the title below it is the heading (the label
    stays in the text, before it)."""
    words = counted_label_words(found)

    def chapter_label(text: str, label: Line, title: Line) -> bool:
        counted = counted_label(text)  # (a word of the document's own labels a title set no smaller than itself:
        # "Tool 1" set large over a "SYNOPSIS" at the text's size is a heading over its sub-heading)
        return _chapter_label(text) or (counted is not None and counted[0] in words and title.size >= label.size - 0.5)

    kept: list[Candidate] = []
    for k, cand in enumerate(found):
        nxt = found[k + 1] if k + 1 < len(found) else None
        if nxt is not None and nxt.page == cand.page and nxt.index - (cand.index + cand.count) <= 1:
            lines = pages[cand.page - 1]
            label_text, label, title = cand.text.strip(), lines[cand.index + cand.count - 1], lines[nxt.index]
            mark = lines[nxt.index - 1]  # (a line between: the label's number, set larger on a row of its own, not
            # a contents line's page number beside its entry)
            if not (chapter_label(label_text, label, title) or POSTFIX_LABEL_RE.match(label_text)) \
                    and mark is not label \
                    and mark.size > label.size + 0.5 and not same_row(label, mark):
                label_text, label = f"{label_text} {mark.text.strip()}", mark
            postfix = POSTFIX_LABEL_RE.match(label_text)
            # (the title starts under the label's baseline: a large number's box may reach past it)
            if (chapter_label(label_text, label, title) or postfix) \
                    and 0 <= title.y0 - min(label.y1, label.baseline) <= LABEL_GAP * max(title.size, label.size):
                nxt.chapter = postfix.group(1) if postfix else _label_mark(label_text)
                continue
        kept.append(cand)
    return kept


REPEAT_SHIFT = 2.0  # points a page's title atop the next page may stand away from where it stood


def _atop(cand: Candidate, pages: list[list[Line]]) -> Line | None:
    """The first line of a candidate that stands atop its page (no line of the page above it), else None."""
    lines = pages[cand.page - 1]
    first = lines[cand.index]
    return None if any(o.y1 <= first.y0 for o in lines) else first


def _without_repeated_titles(found: list[Candidate], pages: list[list[Line]]) -> list[Candidate]:
    """A page's title repeated atop the pages that follow, in the same place and size (a guideline's section
    title over each of its pages: "Thyroid Carcinoma – Papillary Carcinoma"), heads the first of them only."""
    tops: dict[int, tuple[str, Line]] = {}  # page: the candidate atop it (its words, its first line)
    for cand in found:
        first = _atop(cand, pages)
        if first is not None and cand.page not in tops:
            tops[cand.page] = (_key(cand.text), first)

    def repeated(cand: Candidate) -> bool:
        here, before = tops.get(cand.page), tops.get(cand.page - 1)
        return here is not None and before is not None and here[1] is pages[cand.page - 1][cand.index] \
            and here[0] == before[0] and abs(here[1].y0 - before[1].y0) <= REPEAT_SHIFT \
            and abs(here[1].size - before[1].size) < 0.6

    return [cand for cand in found if not repeated(cand)]


FIGURE_CAPTION_RE = re.compile(r"^(figure|fig\.|chart|graph|map|exhibit|abbildung|abb\.)\s*[A-Z]?\d+([.\-–]\d+)*\b",
                               re.I)
PARAGRAPH_CHARS = 40  # two lines this long under a heading are a paragraph
PROSE_CHARS = 50  # a line this long, or a sentence of six words, is text, not a label inside a figure


def _prose(line: Line) -> bool:
    return len(line.text) >= PROSE_CHARS or (len(line.text.split()) >= 6 and _ends_sentence(line.text))


def figure_text(lines: list[Line], left: float, body: float = 0.0) -> set[int]:
    """Indexes of the labels inside a figure drawn above its caption ("Past", "Present", "Epoch" over
    "Figure 4-2: ..."): the lines between the text above and the caption that stand apart from the
    column's left edge (a heading right above a figure starts at the edge). On a first page (`body` given),
    display text (set at least `DISPLAY` times the body size) ends the walk up: a paper's title over its
    authors, above a teaser figure set under the title block, is not a label inside that figure (further on,
    a figure's labels may be set that large: "RGB TEXT" drawn in a sample page)."""
    found: set[int] = set()
    for k, caption in enumerate(lines):
        if not FIGURE_CAPTION_RE.match(caption.text):
            continue
        j = k - 1
        while j >= 0 and lines[j].y1 <= caption.y0 + 1 and not _prose(lines[j]) \
                and not FIGURE_CAPTION_RE.match(lines[j].text) and not (body and lines[j].size >= DISPLAY * body):
            if lines[j].x0 > left + 2 * lines[j].size:
                found.add(j)
            j -= 1
    return found


def _runs_on(lines: list[Line], last: int, text: str) -> bool:
    """The unnumbered candidate is the first line of a paragraph: its sentence goes on in the line below it
    (a word broken at its end, or a lower-case word next), in its size but not its emphasis (that would be
    a heading wrapped over two lines), one line pitch under it in its column."""
    if last + 1 >= len(lines):
        return False
    line, nxt = lines[last], lines[last + 1]
    step = nxt.baseline - line.baseline
    wraps = (nxt.bold, nxt.italic) == (line.bold, line.italic) and (line.bold or line.italic or _is_caps(text))
    # (a numbered line whose sentence runs on is a numbered paragraph, unless a heading runs in before a colon:
    # "4) Data Augmentation: Adversarial training, GAN-")
    unnumbered = label_class(text) is None or (":" not in text and not _title_case(nxt.text))
    deliberate = (label_class(text) is not None or _is_caps(text)) \
        and (line.bold, line.italic) != (nxt.bold, nxt.italic) and _broken_early(line, lines[last + 1:last + 4])
    return not wraps and unnumbered and sentence_goes_on(text, nxt.text) and abs(nxt.size - line.size) < 1 \
        and nxt.mono == line.mono and 0.3 * line.size < step <= 2.0 * line.size \
        and line.x0 - 8 * line.size <= nxt.x0 <= line.x0 + 4 * line.size and nxt.x1 > line.x0 + line.size \
        and not deliberate


def _broken_early(line: Line, below: list[Line]) -> bool:
    """Whether the next line's first word would have fit at the end of this one, as far right as the lines `below`
    it run (the next and up to two more of its size): the break is the author's (a bold numbered heading over a
    paragraph that opens with a name in lower case, "2.1 Introduction" / "eSNACC was designed ...", or a side head
    in capitals, "SYNOPSIS" / "avs2ps converts ..."), not a sentence's wrap. (Unnumbered in mixed case, such a line
    is as often a note's label, "Note" / "you should ...", or a listing's title.)"""
    nxt = below[0]
    words = nxt.text.split()
    if not words:
        return False
    em = (nxt.x1 - nxt.x0) / max(1, len(nxt.text))  # (the mean advance of a character of the next line)
    measure = max([nxt.x1] + [l.x1 for l in below if abs(l.size - nxt.size) < 0.6 and l.mono == nxt.mono
                               and l.x0 < line.x1])
    return measure - line.x1 > em * (len(words[0]) + 2)  # (the paragraph's measure: its widest line of three)


CODE_MARK_RE = re.compile(r"[:;={}<>]")


def _stacked(line: Line, nxt: Line, text: str, pitches: dict[float, float] | None) -> bool:
    """Whether a line in the text's size whose text is `text` and the emphasised line below it are two headings
    stacked ("Program Highlights" over "Stockpile Management"), not one heading or one emphasised paragraph: a
    blank stands between them (the next line sits further below than the document's line pitch for that size)
    and the upper one is a title (its words capitalised, no sentence ended or running on, no code's marks)."""
    if not pitches or line.size not in pitches or nxt.baseline - line.baseline <= pitch_limit(pitches[line.size],
                                                                                                 line.size):
        return False
    return not line.mono and (_title_case(text) or _is_caps(text)) and CODE_MARK_RE.search(text) is None \
        and SENTENCE_GAP_RE.search(text) is None and not sentence_goes_on(text, nxt.text)


def _starts_paragraph(lines: list[Line], j: int, left: float, strict: bool = False) -> bool:
    """Whether line j (if any) begins a new paragraph: indented, a label, or after a gap."""
    if j >= len(lines):
        return True
    nxt, prev = lines[j], lines[j - 1]
    if nxt.x0 > left + 8 or label_class(nxt.text) or nxt.y0 - prev.y1 > 1.5 * nxt.size or CAPTION_RE.match(nxt.text):
        return True  # (indented, numbered, after a gap, or a table's or figure's label)
    return False if strict else (nxt.bold != prev.bold or abs(nxt.size - prev.size) >= 1)


DISPLAY_SIZE = 1.3  # of the text's size: a line this large is display type (a title, a chapter's heading)


def display_colours(pages: list[list[Line]], body: float) -> set[int]:
    """The colours the display headings are printed in, other than the text's (a word processor's heading styles
    share one colour): those of the lines set at least 1.3 times the text's size, on two lines or more."""
    text: Counter[int] = Counter()
    display: Counter[int] = Counter()
    for lines in pages:
        for line in lines:
            (display if line.size >= DISPLAY_SIZE * body else text)[line.color] += 1
    main = text.most_common(1)[0][0] if text else None
    return {colour for colour, n in display.items() if n >= 2 and colour != main}


def own_face(line: Line, body_face: str) -> bool:
    """Whether a line is set in a typeface other than the one most of the text is set in (`body_face`, when known)."""
    return body_face != "" and family(line.face) != body_face


def body_family(pages: list[list[Line]], body: float) -> str:
    """The family of the typeface most text of the body size is set in."""
    chars: Counter[str] = Counter()
    for lines in pages:
        for line in lines:
            if line.size == body and not line.mono:
                chars[family(line.face)] += len(line.text)
    return chars.most_common(1)[0][0] if chars else ""


HEADING_BLOCK_LINES = 3  # a heading wrapped over more lines than this is a paragraph (one more for a named number's)
HEADING_BLOCK_WORDS = 18
NAMED_EXTRA = 24  # more words for a heading opened by a named number ("Strategic Goal 6: Provide leadership ...")


def _short_block(lines: list[Line], i: int, left: float) -> bool:
    """Whether line i and the lines of its style right under it make a short block that ends without a
    sentence and is followed by other text: a heading wrapped over two or three lines ("REDUCING THE /
    FEDERAL BACKGROUND / INVESTIGATIONS INVENTORY"), not an emphasised paragraph."""
    line, end = lines[i], i + 1
    while end < len(lines) and end - i <= HEADING_BLOCK_LINES + 1:
        nxt, prev = lines[end], lines[end - 1]
        if (nxt.bold, nxt.italic) != (line.bold, line.italic) or abs(nxt.size - line.size) >= 0.6 \
                or not -0.35 * line.size <= nxt.y0 - prev.y1 <= 0.8 * line.size or abs(nxt.x0 - line.x0) > 2 \
                or CAPTION_RE.search(nxt.text):  # (a table's label right under a heading is not part of it)
            break
        end += 1
    block = lines[i:end]
    words = sum(len(l.text.split()) for l in block)
    text = " ".join(l.text for l in block)
    named = NAMED_LABEL_RE.match(text) is not None
    return 2 <= len(block) <= HEADING_BLOCK_LINES + named \
        and words <= HEADING_BLOCK_WORDS + (NAMED_EXTRA if named else 0) \
        and not any((_ends_sentence(l.text) and not (l is not block[-1] and l.text.rstrip().endswith(",")))
                    or l.text.rstrip().endswith((".", "!", "?")) for l in block) \
        and (_is_caps(text) or _title_case(text) or named) \
        and (_starts_paragraph(lines, end, left) or (end < len(lines) and lines[end].y0 - lines[end - 1].y1
                                                      > 0.8 * line.size))  # (or stands apart from what follows)


# a name from code that opens a heading set larger than the text (a size step, or bold), in lower case:
# "graphics/fill_and_stroke.rb", "asn1 read value", "os.path" (not "e.g. ...")
SENTENCE_GAP_RE = re.compile(r"[a-z0-9)][.;:] +[A-Z]")  # one sentence ends and the next begins within the line
# a name as code writes it: "diagram()", "marks.typ", "simpleFX.dsp", in camel case, "spssAddFileAttribute", or a
# command's name of words joined by hyphens, "cd-hit-dup", "read-linker"
CODE_NAME_RE = re.compile(r"^(?![a-z]\.[a-z]\.)[a-z][a-zA-Z0-9]*(?:[0-9_/(]|\.[a-z0-9])[\w/.()-]*(?:\s|$)"
                          r"|^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+(?:\(\))?(?:\s|$)"
                          r"|^[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?:\s|$)")
NAMED_LABEL_RE = re.compile(  # "Strategy 1.01: ", "Goal 3. ", "Strategic Goal 2: "
    r"^[A-Z][\w-]+(?:\s+[A-Z][\w-]+){0,2}\s+[A-Z]?\d{1,3}(?:[.\-]\d{1,3})*[.:]\s")


SLIDE_TITLE_WORDS = 15  # words at most of a slide's title line


def slide_titles(pages: list[list[Line]], body: float, pitches: dict[float, float]) -> set[tuple[int, int]]:
    """The places (page index, line index) of each slide's title: its first line at the text's size or larger (the
    smaller lines of a navigation bar above it passed over), set in bold, short, and apart from the line below it
    (a line's pitch and more, or in another style): a deck's frame titles are often set at the text's size and
    written as sentences ("Our formalization of haplotyping."), which no heading rule of a report's takes."""
    found = set()
    for page_index, lines in enumerate(pages):
        i = next((k for k, line in enumerate(lines) if line.size >= 0.9 * body), None)
        if i is None:
            continue
        line = lines[i]
        if not line.bold or len(line.text.split()) > SLIDE_TITLE_WORDS or BULLET_LEAD_RE.match(line.text) \
                or not any(c.isalpha() for c in line.text):
            continue
        nxt = lines[i + 1] if i + 1 < len(lines) else None
        apart = nxt is None or nxt.y0 - line.y0 >= 1.2 * (pitches.get(line.size) or 1.2 * line.size) \
            or (nxt.size, nxt.bold) != (line.size, line.bold)
        if apart:
            found.add((page_index, i))
    return found


TITLE_NAME_RE = re.compile(r"[^\W\d_][\w-]*")  # a lower-case title's first word: a name ("nauty"), not "e.g."


def first_title(lines: list[Line], body: float) -> int | None:
    """The line of a document's first page that is its title: the first one set in the page's largest size, when that
    is display type (DISPLAY_SIZE); None when the page has none, or when that line opens in lower case with no name
    (a stop word, an abbreviation: "e.g. the value of the field")."""
    largest = max((line.size for line in lines), default=0.0)
    if largest < DISPLAY_SIZE * body:
        return None
    found = next(i for i, line in enumerate(lines) if line.size == largest)
    first = (lines[found].text.split() or [""])[0]
    if first[:1].islower() and (not TITLE_NAME_RE.fullmatch(first) or first in STOP_WORDS):
        return None
    return found


def _classify(lines: list[Line], i: int, body: float, left: float, prev_heading: bool,
              body_face: str = "", pitches: dict[float, float] | None = None, title: bool = False) -> Style | None:
    line = lines[i]
    text = line.text
    if line.run_in:
        return Style(line.size, line.bold, line.italic, _is_caps(text), "run_in")
    if line.size < SMALL * body or (line.size < body * 0.9 and not (line.bold or line.italic)):
        return None
    identifier = (line.lead_style[2] and (line.bold or line.size >= body * HEADING_SIZE)) \
        or (line.size >= body * (HEADING_SIZE if line.bold else SIZE_STEP) and CODE_NAME_RE.match(text) is not None
            and not SENTENCE_GAP_RE.search(text))
    if line.size < body * HEADING_SIZE and line.lead_style == (True, False, True) and not line.lead_kept \
            and 0 < line.lead < len(text) and text[line.lead:].lstrip()[:1].islower():
        return None  # prose that names functions in bold code, its own words plain ("fooEnable and fooDisable.
        # Refer to"): bold by its identifiers' share of the line, but its words go on in the text's face
    label = label_class(text)
    caps = _is_caps(text)
    if label is not None and label[0] == "id" and not (caps or line.bold or line.italic):
        label = None  # (an identifier before plain text: a catalogue's row, not its heading)
    small = label is not None and label[0] in ("id", "paren_arabic") and caps and (line.bold or line.italic)
    # ("AC-1 ACCESS CONTROL POLICY", "(8) ACCESS ENFORCEMENT | REVOCATION": a catalogue's items, set small)
    # (the first page's title may open with a name written in lower case: "nauty and Traces User's Guide")
    if not _text_ok(text, identifier or title) or (line.size < body * 0.9 and not small) or BULLET_LEAD_RE.match(text):
        return None  # (a line led by a bullet glyph is a list item)
    above = lines[i - 1] if i else None
    if above is not None and BULLET_LEAD_RE.match(above.text) and not _ends_sentence(above.text) \
            and line.x0 > above.x0 + 0.3 * line.size and 0 <= line.y0 - above.y1 <= line.size:
        return None  # (the item's line wrapped, under its text: "▶Numerous borders … (like" / "Madagascar / …")
    if line.size >= body * HEADING_SIZE:
        return Style(line.size, line.bold, line.italic, caps, "")
    # body-size lines: need emphasis or a numbering label, and to stand on their own
    if label and label[0] == "arabic_bare":
        label = None
    wrapped = text.rstrip().endswith(",") and (line.bold or line.italic) and _short_block(lines, i, left)
    if _ends_sentence(text) and not (label and len(text.split()) <= 2) and not wrapped:
        return None  # (a sentence; but an emphasised heading may wrap after a comma)
    if label and label[0] in STEP_LABELS and text.rstrip().endswith("!"):
        return None  # (a numbered step that exclaims, "8. Click OK!", is an item of its list as one that ends in a
        # stop is; a section numbered "H.2.5 I want it all!" is still a heading)
    own = own_face(line, body_face)
    if (text.endswith(":") and not _numbered_colon_heading(line, label)) or (len(text.split()) == 1 and _is_caps(text)
                              and not ((line.bold or own) and line.size > body)
                              and not _centred(lines, i) and not _side_head(lines, i, left)):
        return None  # a run-in label ("Notes:") or a diagram tag ("JTAG"), not a heading set larger in bold or in
        # a heading style's own face ("VISION", "F/J/OTRA"), centred over its column ("REFERENCES" in a two-column
        # paper) or heading the text under it ("SYNOPSIS")
    prev = lines[i - 1] if i > 0 else None
    if label and label[0] in STEP_LABELS and not caps and prev is not None and not prev_heading \
            and prev.text.rstrip().endswith((":", "：")) and 0 <= line.y0 - prev.y1 < 1.5 * line.size:
        return None  # the first item of a list its lead-in introduces ("On Windows:" over "1. Unzip the files"; a
        # catalogue's item in capitals, "(1) BASELINE CONFIGURATION | REVIEWS", under "Control enhancements:" heads)
    if prev is not None and not prev_heading and not _ends_block(prev) and prev.y0 <= line.y0:
        if abs(prev.size - line.size) < 0.6 and prev.bold == line.bold and line.y0 - prev.y1 < 1.5 * line.size \
                and (prev.italic == line.italic or not caps):
            return None  # continues the previous paragraph (not a line in italic capitals after a plain one)
    if _in_table_row(lines, i) or _wrapped_cell(lines, i, pitches) or _right_of_cells(lines, i):
        return None
    numbering = label[0] if label else ""
    emphasised = line.bold or line.italic or caps
    if emphasised and not _starts_paragraph(lines, i + 1, left) and not label:
        nxt = lines[i + 1]
        if nxt.bold == line.bold and nxt.italic == line.italic and not _short_block(lines, i, left) \
                and not _stacked(line, nxt, text, pitches):
            return None  # an emphasised paragraph, not a heading (unless the next line stands apart from it)
    # a numbered line set a little larger than the text, or in another typeface, stands out as a bold one does; so
    # does a section number set in bold before a title in the text's face ("1.2.1" in a bold Latin face before a
    # title in a CJK face that has no bold)
    bold_number = label is not None and label[0].startswith("decimal") and line.lead_style[0] \
        and 0 < line.lead < len(text) and not any(ch.isalpha() for ch in text[:line.lead])
    distinct = label is not None and (line.size >= body + 0.5 or own or bold_number)
    if line.bold or caps or distinct:
        return Style(line.size, line.bold, line.italic, caps, numbering)
    if label and _title_case(text):
        if _starts_paragraph(lines, i + 1, left, strict=True) or (
            i + 1 < len(lines) and _title_case(lines[i + 1].text) and not _ends_sentence(lines[i + 1].text)
        ):
            return Style(line.size, line.bold, line.italic, caps, numbering)
    if line.italic and label:
        return Style(line.size, line.bold, line.italic, caps, numbering)
    if line.italic and _centred_apart(lines, i):  # (a two-column paper's unnumbered sub-sub-section, "Fonts")
        return Style(line.size, line.bold, line.italic, caps, numbering)
    return None


STEP_LABELS = {"arabic", "lower", "lower_roman", "paren_arabic", "paren_lower"}  # a list's item numbers


def _among_items(lines: list[Line], i: int, numbering: str) -> bool:
    """Whether plain line i, numbered as a list's items are, stands right under or right over a line numbered the
    same way in the same face and size, at the same indent: an item of that list ("(6) SQL Server Support" between
    "(5) backup and restore" and "(7) index maintenance"), however its words are capitalised."""
    if numbering not in STEP_LABELS:
        return False
    line = lines[i]
    for j in (i - 1, i + 1):
        if not 0 <= j < len(lines):
            continue
        other = lines[j]
        upper, lower = (other, line) if j < i else (line, other)
        if (label_class(other.text) or ("", 0.0))[0] == numbering and abs(other.size - line.size) < 0.6 \
                and other.bold == line.bold and other.italic == line.italic and abs(other.x0 - line.x0) < line.size \
                and 0 <= lower.y0 - upper.y1 <= line.size:
            return True
    return False


def _side_head(lines: list[Line], i: int, left: float) -> bool:
    """Whether line i, one word in emphasised capitals at the text's size, heads the text under it ("SYNOPSIS",
    "EXAMPLES" of a manual's reference pages): at the text's left edge (not an indented note's "WARNING"), alone on
    its row, a blank line under the text above it (or first on its page), and the next line (not another such
    word) right under it, starting where it starts."""
    line = lines[i]
    if not (line.bold or line.italic) or i + 1 >= len(lines) or line.x0 > left + line.size:
        return False
    if any(j != i and same_row(other, line) for j, other in enumerate(lines)):
        return False  # (a table's cell or a diagram's tag beside others)
    prev = lines[i - 1] if i > 0 else None
    if prev is not None and prev.y1 <= line.y0 and line.y0 - prev.y1 < 0.8 * line.size:
        return False
    nxt = lines[i + 1]
    return 0 <= nxt.y0 - line.y1 <= 1.5 * line.size and abs(nxt.x0 - line.x0) <= 2 * line.size \
        and not ((nxt.bold, nxt.italic) == (line.bold, line.italic) and _is_caps(nxt.text))


CENTRED_WORDS = 8  # an unnumbered italic heading centred over its column is a short phrase


def _centred_apart(lines: list[Line], i: int) -> bool:
    """Whether line i is a short phrase that starts with a capital and ends without a stop, set alone centred
    over the paragraph below it (at least three times as wide), a line's gap below the text above it."""
    line = lines[i]
    words = line.text.split()
    if not 0 < len(words) <= CENTRED_WORDS or not line.text[:1].isupper() or line.text.rstrip()[-1:] in ".,;:!?":
        return False
    prev = lines[i - 1] if i > 0 else None
    if prev is not None and prev.y1 <= line.y0 and line.y0 - prev.y1 < line.size:
        return False
    if i + 1 >= len(lines):
        return False
    below = lines[i + 1]
    return below.y0 - line.y1 >= 0.5 * line.size and below.x1 - below.x0 > 3 * (line.x1 - line.x0) \
        and abs(below.x0 + below.x1 - line.x0 - line.x1) < 2 * line.size and not below.italic


def _merge_unlabelled(candidates: list[Candidate]) -> list[Candidate]:
    """Unnumbered headings join the numbered style they otherwise share (its top numbering, when several)."""
    # "i." / "v." / "x." are roman numerals when the same style also numbers "ii.", "iii.", ...
    romans = {(c.style.size, c.style.bold, c.style.italic, c.style.caps)
              for c in candidates if c.style.numbering == "lower_roman"}
    for cand in candidates:
        base = (cand.style.size, cand.style.bold, cand.style.italic, cand.style.caps)
        if cand.style.numbering == "lower" and cand.text[:1] in "ivx" and base in romans:
            cand.style = Style(*base, "lower_roman")
    labelled: dict[tuple, tuple[float, str]] = {}  # style -> its top numbering (rank, class)
    for cand in candidates:
        base = (cand.style.size, cand.style.bold, cand.style.italic, cand.style.caps)
        label = label_class(cand.text) if cand.style.numbering and cand.style.numbering != "run_in" else None
        if label is not None and label[0] == cand.style.numbering:
            labelled[base] = min(labelled.get(base, (label[1], label[0])), (label[1], label[0]))
    for cand in candidates:
        base = (cand.style.size, cand.style.bold, cand.style.italic, cand.style.caps)
        if not cand.style.numbering and base in labelled:  # (several: the top one, "1." over "1.1" or "A.1")
            cand.style = Style(*base, labelled[base][1])
    return candidates


_FOOTNOTE_MARK = re.compile(r"(?<=[.?!:”\")])\d{1,4}$")


LEADS_ON_RE = re.compile(r"(?:[:;]|;\s*(?:and|or))\s*$")  # "... unless:", "a. The receiving ...; and"
ANNOTATION_RE = re.compile(r"^\[[^\]]+\]$")


def _centred(lines: list[Line], i: int) -> bool:
    """Whether line i stands centred over the line below it, at least three times as wide, a line's gap apart."""
    line = lines[i]
    if i + 1 >= len(lines):
        return False
    below = lines[i + 1]
    if below.y0 - line.y1 < 0.5 * line.size:
        return False
    if below.x1 - below.x0 > 3 * (line.x1 - line.x0) and abs(below.x0 + below.x1 - line.x0 - line.x1) < 2 * line.size:
        return True
    # or, atop the page, centred on the text the page holds (a section's name over its table)
    left, right = min(l.x0 for l in lines), max(l.x1 for l in lines)
    return all(l.y0 >= line.y0 for l in lines) and right - left > 6 * (line.x1 - line.x0) \
        and abs(left + right - line.x0 - line.x1) < 2 * line.size


def _in_table_row(lines: list[Line], i: int) -> bool:
    """Whether another line of the same style shares this line's row (a table header, not a heading)."""
    line = lines[i]
    for j in range(max(0, i - 12), min(len(lines), i + 13)):
        other = lines[j]
        if j == i or other.bold != line.bold or abs(other.size - line.size) >= 0.6 or ANNOTATION_RE.match(other.text):
            continue  # (a bracketed note set beside a heading, "[Back to Control]", makes no table row)
        overlap = min(line.y1, other.y1) - max(line.y0, other.y0)
        if overlap > 0.5 * min(line.height, other.height) and (other.x0 >= line.x1 or other.x1 <= line.x0):
            return True
    return False


CELL_WORDS = 3  # words at most of a table's cell to the left of a line on its row
ROW_CELLS = 2  # such cells that make the line a cell of their row


def _right_of_cells(lines: list[Line], i: int) -> bool:
    """Whether two or more short cells stand to the left of line i on its row ("1", "Numeric" left of a record
    layout's bold field name "RECORD TYPE"): a table's row, whatever the cells' weight, not a heading (the left
    column's line beside a heading of a two-column page is one long line; a heading's number set apart, one)."""
    line = lines[i]
    cells = 0
    for j in range(max(0, i - 12), min(len(lines), i + 13)):
        other = lines[j]
        overlap = min(line.y1, other.y1) - max(line.y0, other.y0)
        if j != i and other.x1 <= line.x0 and overlap > 0.5 * min(line.height, other.height) \
                and len(other.text.split()) <= CELL_WORDS:
            cells += 1
    return cells >= ROW_CELLS


def _wrapped_cell(lines: list[Line], i: int, pitches: dict[float, float] | None) -> bool:
    """Whether line i is the second line of a table's cell: one line pitch under a line that starts where it
    does and shares its row with other cells ("Total, Fossil Energy and Carbon" over "Management")."""
    line = lines[i]
    if label_class(line.text) is not None:
        return False  # (a numbered line starts something of its own)
    for j in range(max(0, i - 12), i):
        above = lines[j]
        if abs(above.x0 - line.x0) < 2 and abs(above.size - line.size) < 0.6 \
                and 0 < line.baseline - above.baseline <= pitch_limit((pitches or {}).get(line.size), line.size) \
                and _in_table_row(lines, j):
            return True
    return False


def _ends_block(line: Line) -> bool:
    text = _FOOTNOTE_MARK.sub("", line.text.rstrip())
    # (the full-width stops and closers of Chinese and Japanese text end a block as their Latin ones do)
    return text.endswith((".", ":", "?", "!", "”", '"', ")", "。", "：", "？", "！", "）", "」", "』")) or line.bold


LIST_MIN = 4  # body-size headings of one style on one page that may be a list of labels
LIST_BODY = 3  # lines under each of them, at most (the median), for that; numbered: none


def _label_list(group: list[Candidate]) -> bool:
    """Whether candidates of one style on one page are a list of labels rather than headings of sections."""
    if len(group) < LIST_MIN:
        return False
    if label_class(group[0].text):
        return sorted(c.under for c in group)[len(group) // 2] == 0
    # (a heading right over the next one, "Program Highlights" over "Stockpile Management", has no lines under
    # it of its own: it tells nothing of how much text the labels of a list have)
    unders = sorted(c.under for c in group if c.under > 0) or [0]
    return unders[len(unders) // 2] <= LIST_BODY


HEADS_ELSEWHERE = 3  # pages on which a style heads prose in fewer than LIST_MIN that make it a heading style


def _heading_style_elsewhere(group: list[Candidate], per_page: dict[tuple[int, Style], list[Candidate]]) -> bool:
    """Whether candidates of one style on one page are sub-sections of a style that heads sections elsewhere: on
    three or more other pages, fewer than four to a page, as many as here or more, each over prose; here each has
    lines of its own under it and all but one over prose, and each is set in a typeface other than the text's (a
    manual's "The file description.xml", "The folder config", five short sections on one page). Not a glossary's
    terms (in alphabetical order), nor bold labels in the text's own face (a tutorial's "Base", "Wall", "Facets")."""
    style, page = group[0].style, group[0].page
    elsewhere = [c for (pg, st), items in per_page.items() if st == style and pg != page and len(items) < LIST_MIN
                 for c in items if c.prose]
    keys = [_key(c.text) for c in group]
    return len({c.page for c in elsewhere}) >= HEADS_ELSEWHERE and len(elsewhere) >= len(group) \
        and all(c.under > 0 and c.own_face for c in group) and sum(c.prose for c in group) >= len(group) - 1 \
        and keys != sorted(keys)


def decimal_number(text: str) -> tuple[int, ...] | None:
    """A heading's decimal number with no letter before it ("1.2.4 Routines": (1, 2, 4); "7 IBM 1401": (7,)),
    else None."""
    match = NUMBER_DEPTH_RE.match(text)
    if match is None or text[:1].isalpha():
        return None
    return tuple(int(part) for part in match.group(1).split("."))


def section_number(text: str) -> tuple[int, ...] | None:
    """A heading's decimal section number of two levels or more ("1.2.4 Routines": (1, 2, 4)), else None."""
    number = decimal_number(text)
    return number if number is not None and len(number) > 1 else None


def _follows(prev: tuple[int, ...] | None, number: tuple[int, ...] | None) -> bool:
    """Whether a section number comes right after another: the next one at its level (1.2.3, 1.2.4)."""
    return prev is not None and number is not None and len(prev) == len(number) \
        and prev[:-1] == number[:-1] and number[-1] == prev[-1] + 1


def _counts_on(group: list[Candidate], candidates: list[Candidate]) -> bool:
    """Whether candidates of one style on one page carry section numbers of two levels or more that go on counting
    from the last candidate of their style on an earlier page (a reference's "1.2.4", "1.2.5" ... after the
    "1.2.3" that ended the page before, each over a bold "Synopsis" of its own): sections, however little
    text each holds, not a numbered list (whose items count from 1 and sit on one page)."""
    numbers = [section_number(c.text) for c in group]
    if numbers[0] is None or not all(_follows(a, b) for a, b in zip(numbers, numbers[1:])):
        return False  # (asked first: most groups carry no section numbers at all)
    before = [c for c in candidates if c.style == group[0].style and c.page < group[0].page]
    return bool(before) and _follows(section_number(before[-1].text), numbers[0])


def _heading_face_over_prose(group: list[Candidate]) -> bool:
    """Whether candidates of one style on one page are a word processor's headings, not a list of labels: each
    set in a typeface of its own (not the text's) and each over prose of its own (a form's instructions, one
    field's heading over the sentences that say how to fill it in, four or more to a page)."""
    return all(c.own_face and c.prose for c in group)


NUMBER_DEPTH_RE = re.compile(r"^(?:[A-Z]\.)?(\d{1,2}(?:\.\d{1,2}){0,4})\.?\s+\S")


def numbering_depth(text: str) -> int | None:
    """How deep a heading's decimal number puts it: "4 Usage" 1, "4.1.2 Tokens" 3, "A.1 Terms" 2."""
    match = NUMBER_DEPTH_RE.match(text)
    if match is None:
        return None
    return match.group(1).count(".") + 1 + (1 if text[:1].isalpha() else 0)


def _numbered_ranks(candidates: list[Candidate], ranks: dict[int, float]) -> dict[int, float]:
    """Numbering and style reconciled: when the rank most of the headings numbered at each depth have grows
    with the depth (1 < 1.1 < 1.1.1), a numbered heading set in a style that says otherwise (a word of code in
    it, a one-off size) takes the rank of its depth. Depth 1 is left alone (a numbered list looks like it).
    Where some headings of the first depth open deeper numbers ("3" before "3.1"), only those tell its rank: a
    licence's clauses numbered at the first depth ("0. PREAMBLE", "1. APPLICABILITY ...", none with a "1.1")
    set no rank for the chapters. A heading never takes a rank at or above its parent number's heading ("3.2"
    for "3.2.1"), and a number seen before in the document (a second numbering) keeps its own rank."""
    numbered = sorted((cand.order, cand.text) for cand in candidates
                      if cand.order in ranks and numbering_depth(cand.text) is not None)
    numbers = {order: _number_key(text) for order, text in numbered}
    parents = {key[:-1] for key in numbers.values() if len(key) > 1}
    opens = any(len(key) == 1 and key in parents for key in numbers.values())
    by_depth: dict[int, Counter[float]] = {}
    depth_of: dict[int, int] = {}
    for order, text in numbered:
        depth = numbering_depth(text) or 0
        depth_of[order] = depth
        if not (opens and len(numbers[order]) == 1 and numbers[order] not in parents):
            by_depth.setdefault(depth, Counter())[ranks[order]] += 1
    if len(by_depth) < 2:
        return ranks
    mode = {d: counts.most_common(1)[0][0] for d, counts in by_depth.items()}
    ordered = [mode[d] for d in sorted(mode)]
    if any(b <= a for a, b in zip(ordered, ordered[1:])):
        return ranks
    out = dict(ranks)
    seen: dict[tuple[str, ...], int] = {}  # each number: the order of the heading that carries it (the latest)
    for order, _ in numbered:
        key = numbers[order]
        depth = depth_of[order]
        parent = seen.get(key[:-1]) if len(key) > 1 else None
        reused = key in seen
        seen[key] = order
        if depth > 1 and depth in by_depth and by_depth[depth].total() >= 2 and not reused \
                and not (parent is not None and mode[depth] <= out[parent]):
            out[order] = mode[depth]
    return out


def _number_key(text: str) -> tuple[str, ...]:
    """A numbered heading's number as its parts ("A.1.2 Terms": ("A", "1", "2"); "3 Usage": ("3",))."""
    match = NUMBER_DEPTH_RE.match(text)
    letter = (text[0],) if text[:1].isalpha() else ()
    return letter + tuple(match.group(1).split(".")) if match else letter


CHAPTERS_MIN = 3  # chapters numbered 1, 2, 3 ... that count up, in one size and weight, to share their rank
CHAPTERS_SHARE = 0.75  # of the steps between them that go up by one


def _counted_chapters(candidates: list[Candidate], ranks: dict[int, float], body: float) -> dict[int, float]:
    """Chapters numbered at the first depth ("6 PDP-9/PDP-15", "7 IBM 1401", "8 HP2116 16K BASIC") set larger than
    the text in one size and weight, whose numbers count up one by one through the document, share one rank: the
    rank most of them have, though some titles read in capitals only because they are names ("PDP-11") and so
    differ in style from the others by their capitals alone."""
    groups: dict[tuple[float, bool, bool], list[tuple[int, int]]] = {}
    for cand in candidates:
        number = decimal_number(cand.text)
        if number is None or len(number) > 1 or cand.order not in ranks or cand.style.size < HEADING_SIZE * body:
            continue
        groups.setdefault((round(cand.style.size, 1), cand.style.bold, cand.style.italic), []).append(
            (cand.order, number[0]))
    out = dict(ranks)
    for items in groups.values():
        items.sort()
        numbers = [n for _, n in items]
        steps = [b - a for a, b in zip(numbers, numbers[1:])]
        if len(items) < CHAPTERS_MIN or min(steps) <= 0 or steps.count(1) < CHAPTERS_SHARE * len(steps):
            continue  # (a chapter the reader missed leaves a gap; a number that goes back is a list's)
        counts = Counter(ranks[order] for order, _ in items)
        if len(counts) > 1:
            common = counts.most_common(1)[0][0]
            out.update({order: common for order, _ in items})
    return out


def _mixed_case_under_capitals(kept: dict[Style, list[Candidate]], ranks: dict[int, float]) -> dict[int, float]:
    """Numbered headings set in capitals ("2.6. FR OBJECT INSPECTOR") over unnumbered ones in mixed case at their
    size and weight ("Using strings and variables"), these found only after the first numbered one: the capitals
    tell the higher level (a word processor's heading styles), though a number would rank the unnumbered style
    first. The mixed-case headings take a rank just below the numbered ones'."""
    out = dict(ranks)
    for upper, numbered in kept.items():
        if not (upper.caps and upper.numbering.startswith("decimal")):
            continue
        first = min(c.order for c in numbered)
        top = max(ranks.get(c.order, 0.0) for c in numbered)
        for lower, items in kept.items():
            if lower.caps or lower.numbering or lower.bold != upper.bold \
                    or heading_size(lower.size) != heading_size(upper.size) \
                    or len(items) < 2 or any(c.order < first for c in items):
                continue
            for c in items:
                if c.order in out and out[c.order] <= top:
                    out[c.order] = top + 0.5
    return out


def _chapter_ranks(candidates: list[Candidate], ranks: dict[int, float]) -> dict[int, float]:
    """A chapter's title under its label line ("KAPITEL 3" over "Pflichten von ...") stands over the sections
    numbered after it ("3.1 ..."), even when its style ranks beside them (Sphinx sets both at one size, the
    sections in bold): it takes a rank just above theirs."""
    ordered = sorted((c for c in candidates if c.order in ranks), key=lambda c: c.order)
    out = dict(ranks)
    implied = _implied_chapters(ordered, ranks)
    chapters = [k for k, c in enumerate(ordered) if c.chapter or k in implied]
    for k, mark in implied.items():
        ordered[k] = replace(ordered[k], chapter=mark)  # (a copy: the candidate itself is left as it was)
    raised: dict[Style, float] = {}
    alone: list[Candidate] = []  # chapters with no numbered section of their own (a closing chapter of prose)
    for n, k in enumerate(chapters):
        end = chapters[n + 1] if n + 1 < len(chapters) else len(ordered)
        own = re.compile(rf"^{re.escape(ordered[k].chapter)}\.\d")
        sections = [ranks[c.order] for c in ordered[k + 1:end] if own.match(c.text)]
        if sections and ranks[ordered[k].order] >= min(sections):
            out[ordered[k].order] = raised[ordered[k].style] = min(sections) - 0.5
        elif not sections:
            alone.append(ordered[k])
    for chapter in alone:  # (it stands where the other chapters of its style were raised to)
        if chapter.style in raised and ranks[chapter.order] > raised[chapter.style]:
            out[chapter.order] = raised[chapter.style]
    return out


FIRST_NUMBER_RE = re.compile(r"^(\d{1,2})\.(\d{1,2})")
LEAD_NUMBER_RE = re.compile(r"^(\d{1,2})\b")


def _implied_chapters(ordered: list[Candidate], ranks: dict[int, float]) -> dict[int, str]:
    """Chapters whose number is not in their heading's text (set apart as a large numeral, or drawn): an
    unnumbered heading where the document's numbering turns to a new first number, the first section after it
    numbered "k.1" and every numbered one up to the next unnumbered heading "k.something", is chapter k
    ({position in `ordered`: "k"}); not when a heading ranked above it stands between it and the last numbered
    one (that is the chapter: it is the chapter's own mini-contents, "Sommaire du présent chapitre"). A chapter
    numbered in its own text ("3 Usage") is found by that number."""
    found: dict[int, str] = {}
    last = ""  # the first number of the last numbered heading seen
    since = -1  # position of that heading
    for k, cand in enumerate(ordered):
        if numbering_depth(cand.text) is not None:
            match = LEAD_NUMBER_RE.match(cand.text)  # (a chapter numbered "4 Usage" or "3. Overview" holds 4.1)
            last, since = (match.group(1) if match else ""), k
            continue
        if cand.chapter or label_class(cand.text) or cand.style.numbering \
                or any(0 < ranks[c.order] < ranks[cand.order] for c in ordered[since + 1:k]):
            continue
        span: list[str] = []
        for nxt in ordered[k + 1:]:
            if numbering_depth(nxt.text) is None:
                break
            span.append(nxt.text)
        marks = [FIRST_NUMBER_RE.match(text) for text in span]
        if not span or any(m is None for m in marks) or marks[0] is None or marks[0].group(2) != "1":
            continue  # (nothing numbered under it, or a chapter numbered "3 Usage" of its own among them)
        mark = marks[0].group(1)
        if mark != last and all(m is not None and m.group(1) == mark for m in marks):
            found[k] = mark
    return found


NAMED_NUMBER_RE = re.compile(r"^([A-Z][a-z]{2,})\s+(\d{1,2}(?:\.\d{1,2}){0,4})\.?[:.]?\s+\S")
NAMED_GROUP = 3  # headings of one label word and depth ("Strategy 1.1.2", "Strategy 4.1.3") that settle their rank
NAMED_SHARE = 2 / 3  # share of them that must hold one rank for the rest to follow it


def _named_ranks(candidates: list[Candidate], ranks: dict[int, float]) -> dict[int, float]:
    """One label word and one numbering depth, one rank: when most headings labelled alike ("Strategy 4.1.2.",
    "Goal 3:") hold one rank, the few set in another style (a bold one among regular ones) take it."""
    groups: dict[tuple[str, int], list[int]] = {}
    for cand in candidates:
        match = NAMED_NUMBER_RE.match(cand.text)
        if match is not None and cand.order in ranks:
            groups.setdefault((match.group(1).lower(), match.group(2).count(".")), []).append(cand.order)
    out = dict(ranks)
    for orders in groups.values():
        if len(orders) < NAMED_GROUP:
            continue
        mode, count = Counter(ranks[o] for o in orders).most_common(1)[0]
        if count >= NAMED_SHARE * len(orders):
            for o in orders:
                out[o] = mode
    return out


DIVISION_RE = re.compile(rf"^(?:{'|'.join(sorted(SECTION_WORDS))})\s+(?:\d{{1,3}}|[A-Z]|[IVXLC]{{1,6}})\b", re.I)
APPENDIX_WORD_RE = re.compile(rf"^(?:{'|'.join(sorted(APPENDIX_WORDS))})\s+", re.I)
APPENDIX_RE = re.compile(APPENDIX_WORD_RE.pattern + r"([A-Z]|\d{1,2})(?![.\d]*\d)\b", re.I)


def _next_mark(mark: str) -> str:
    return str(int(mark) + 1) if mark.isdigit() else chr(ord(mark) + 1)


def _appendix_ranks(candidates: list[Candidate], ranks: dict[int, float]) -> dict[int, float]:
    """Appendices in their sequence ("Appendix A", "Appendix B", ...), each numbering its sections after its
    own mark ("A.1", "A.2"): an appendix set below the heading that holds the sections before it (the last
    chapter, over "5.5") takes that heading's rank, so that it stands beside the chapters and over its own
    sections. An appendix heading out of the sequence ("Appendix D" inside Appendix A, before B) belongs to a
    document printed inside the appendix (a sample plan's): it goes under the appendix's sections."""
    ordered = sorted((c for c in candidates if c.order in ranks), key=lambda c: c.order)
    out = dict(ranks)
    style: Style | None = None  # the style of the document's own appendices (the first with sections)
    expected: str | None = None
    inner: float | None = None  # the rank under the current appendix's sections
    for k, head in enumerate(ordered):
        match = APPENDIX_RE.match(head.text)
        if match is None:
            continue
        mark = match.group(1).upper()
        if style is not None and (head.style != style or mark != expected):
            if inner is not None:
                out[head.order] = max(out[head.order], inner)
            continue
        children = []
        for cand in ordered[k + 1:]:
            found = APPENDIX_RE.match(cand.text)
            if found is not None and cand.style == head.style and found.group(1).upper() == _next_mark(mark):
                break
            if re.match(rf"{re.escape(mark)}\.\d", APPENDIX_WORD_RE.sub("", cand.text)):
                children.append(ranks[cand.order])
        if style is None and not children:
            continue
        if style is None:
            child = min(children)
            holders = [ranks[c.order] for c in ordered[:k] if 0 < ranks[c.order] < child]
            level = min(ranks[head.order], holders[-1] if holders else child - 0.5)
        style, expected = head.style, _next_mark(mark)
        out[head.order] = min(ranks[head.order], level)  # (the appendices after it stand beside it)
        inner = min(children) + 0.5 if children else None
    return out


def _embedded_ranks(candidates: list[Candidate], ranks: dict[int, float], covers: set[int]) -> dict[int, float]:
    """A document printed inside this one (a sample plan after "A.1 Sample Template ...", opened by its own
    cover page) goes under the numbered heading that introduces it, up to the heading that continues that
    heading's numbering ("A.2"): its own chapters ("1. Introduction") are no siblings of the appendix's."""
    ordered = sorted((c for c in candidates if c.order in ranks), key=lambda c: c.order)
    out = dict(ranks)
    for page in sorted(covers):
        before = [k for k, c in enumerate(ordered) if c.page <= page and NUMBER_DEPTH_RE.match(c.text)
                  and (numbering_depth(c.text) or 0) >= 2]
        if not before:
            continue
        opener = ordered[before[-1]]
        if opener.page < page - 1:
            continue
        number = NUMBER_DEPTH_RE.match(opener.text).group(0).split()[0].rstrip(".")  # type: ignore[union-attr]
        head, _, last = number.rpartition(".")
        following = f"{head}.{int(last) + 1}" if last.isdigit() else ""
        span = []
        for cand in ordered[before[-1] + 1:]:
            if cand.text.startswith((f"{following} ", f"{following}.")) \
                    or (APPENDIX_RE.match(cand.text) and ranks[cand.order] <= ranks[opener.order]
                        and cand.style != ordered[before[-1] + 1].style):
                break
            span.append(cand)
        else:
            continue  # (nothing continues the numbering: not a document inside this one)
        if any(re.match(r"1\.?\s", c.text) for c in span):  # (with its own chapters, numbered from 1)
            low = min(ranks[c.order] for c in span)
            for cand in span:
                out[cand.order] = ranks[opener.order] + 0.001 + (ranks[cand.order] - low) * 0.0001
    return out


TITLE_WORD_RE = re.compile(r"\w+")
COVER_LIKE = 4  # candidates on a page with no prose under any of them: a cover, not sections
DISPLAY = 1.5  # of the body size: a cover's display lines are set at least this large


def _repeats_title(text: str, title: str) -> bool:
    """Whether a heading's words (three or more, half the title's at least) are all the title's."""
    words = TITLE_WORD_RE.findall(text.lower())
    title_words = TITLE_WORD_RE.findall(title.lower())
    return len(words) >= 3 and 2 * len(words) >= len(title_words) and set(words) <= set(title_words)


def _matter_ranks(kept: dict[Style, list[Candidate]], ranks: dict[int, float]) -> dict[int, float]:
    """Front and back matter beside the chapters: a style ranked above the chapters' (the top depth of the
    document's decimal numbering) whose headings all stand before the first numbered chapter or after the last
    ("Revision History", "Participants", "References") takes the chapters' rank instead of holding them."""
    top: dict[int, list[int]] = {}
    for items in kept.values():
        for cand in items:
            depth = numbering_depth(cand.text)
            if depth is not None and cand.order in ranks:
                top.setdefault(depth, []).append(cand.order)
    found: list[tuple[tuple[float, int, int] | None, bool, bool]] = []
    if len(top.get(1, ())) >= 3:  # chapters numbered 1, 2, 3, ...
        found.append(((Counter(ranks[o] for o in top[1]).most_common(1)[0][0], min(top[1]), max(top[1])), True, False))
    # else (or when the numbers are a list's): the top rank whose headings hold none ranked above theirs
    found.append((_unnumbered_chapters(ranks), False, False))
    # (a contents page's title set in the chapters' style is front matter: without it, when one style alone, set
    # larger, stands before and after the chapters, "Preface" and "Appendix A")
    contents = {c.order for items in kept.values() for c in items if CONTENTS_TITLE_RE.match(c.text.strip(" :"))}
    if contents:
        found.append((_unnumbered_chapters({o: r for o, r in ranks.items() if o not in contents}), False, True))
    for chapters, numbered, single in found:
        if chapters is None:
            continue
        chapter_rank, first, last = chapters
        if any(0 < r < chapter_rank and first < o < last for o, r in ranks.items()):
            continue  # something ranked above the chapters among them (parts, or the numbers are not chapters')
        inside = sum(1 for o in ranks if first <= o <= last)
        if inside < (sum(1 for o in ranks if o < first) if numbered else len(ranks) / 2):
            continue  # numbered: fewer headings among the chapters than before them (a sample's or an appendix's
            # numbers; annexes may follow); unnumbered: the chapters hold less than half the headings
        matter = [orders for orders in ([c.order for c in items if c.order in ranks] for items in kept.values())
                  if orders and all(0 < ranks[o] < chapter_rank for o in orders)
                  and all(o < first or o > last for o in orders)]
        if single and len(matter) != 1:
            continue
        break
    else:
        return ranks
    out = dict(ranks)
    for orders in matter:
        for o in orders:
            out[o] = chapter_rank
    return out


def _unnumbered_chapters(ranks: dict[int, float]) -> tuple[float, int, int] | None:
    """The chapters' rank and the first and last chapter's order when no numbering says which they are: the
    highest rank held by three or more headings with headings ranked above it, none of them between the first
    and the last (front or back matter set larger than the chapters). (The caller leaves out a contents page's
    title: front matter, though set in the chapters' style.)"""
    by_rank: dict[float, list[int]] = {}
    for order, rank in ranks.items():
        if rank > 0:
            by_rank.setdefault(rank, []).append(order)
    for rank in sorted(by_rank):
        orders = by_rank[rank]
        first, last = min(orders), max(orders)
        above = [o for o, r in ranks.items() if 0 < r < rank]
        if len(orders) >= 3 and above and not any(first < o < last for o in above):
            return rank, first, last
    return None


def _named(cand: Candidate, wanted: set[str]) -> int:
    """How many of a candidate's words the document information's title holds (0 unless most of them)."""
    words = set(TITLE_WORD_RE.findall(cand.text.lower()))
    common = len(words & wanted)
    return common if words and common >= max(2, 0.6 * len(words)) else 0


def _key(text: str) -> str:
    return " ".join(text.lower().split())


def _listed_children(candidates: list[Candidate], ranks: dict[int, float]) -> dict[int, float]:
    """A heading followed by a bulleted list that names the headings after it (a module's list of its
    functions, a chapter's "In this chapter") is their parent, even when they share its style."""
    ordered = sorted((c for c in candidates if c.order in ranks), key=lambda c: c.order)
    out = dict(ranks)
    for k, head in enumerate(ordered):
        if len(head.listed) < 2:
            continue
        named = 0
        for cand in ordered[k + 1:]:
            if _key(cand.text) in head.listed:
                out[cand.order] = max(out[cand.order], out[head.order] + 0.5)
                named += 1
            elif out[cand.order] <= out[head.order]:
                break
        if named < 2:  # (not its list after all: undo)
            for cand in ordered[k + 1:]:
                if _key(cand.text) in head.listed:
                    out[cand.order] = ranks[cand.order]
    return out


def _title_candidate(candidates: list[Candidate], known_title: str) -> Candidate | None:
    """The document's title among the first page's candidates: the one the document information's title names
    most (most of its words are the title's), else the largest."""
    first_page = [c for c in candidates if c.page == 1]
    if not first_page:
        return None
    wanted = set(TITLE_WORD_RE.findall(known_title.lower()))
    named = [c for c in first_page if len(wanted) >= 2 and _named(c, wanted)]
    if not named:
        return max(first_page, key=lambda c: (c.style.size, -c.order))
    return max(named, key=lambda c: (_named(c, wanted), c.style.size))


def join_title(candidates: list[Candidate], known_title: str) -> list[Candidate]:
    """The candidates with the title's parts joined: the first page's candidate the document information's
    title names most and the candidates right above or below it that it names too (a title set in two sizes:
    "SITUATIONAL AWARENESS" / "For Electric Utilities"), as one candidate in the largest part's style."""
    best = _title_candidate(candidates, known_title)
    wanted = set(TITLE_WORD_RE.findall(known_title.lower()))
    if best is None or len(wanted) < 2 or not _named(best, wanted):
        return candidates
    first_page = [c for c in candidates if c.page == 1]
    k = first_page.index(best)
    start = end = k
    while start > 0 and _named(first_page[start - 1], wanted) \
            and first_page[start - 1].index + first_page[start - 1].count == first_page[start].index:
        start -= 1
    while end + 1 < len(first_page) and _named(first_page[end + 1], wanted) \
            and first_page[end].index + first_page[end].count == first_page[end + 1].index:
        end += 1
    if start == end:
        return candidates
    parts = first_page[start:end + 1]
    largest = max(parts, key=lambda c: c.style.size)
    title = Candidate(1, parts[0].index, sum(c.count for c in parts), " ".join(c.text for c in parts),
                      largest.style, parts[0].order, under=parts[-1].under, prose=parts[-1].prose)
    out: list[Candidate] = []
    for cand in candidates:
        if cand is parts[0]:
            out.append(title)
        elif not any(cand is part for part in parts):
            out.append(cand)
    return out


def _numbered_items(candidates: list[Candidate]) -> set[int]:
    """ids of plain numbered lines set one right under another ("1. Male" / "2. Female", a form's options), or right
    under or over a plain line numbered alike that is no candidate (`Candidate.item`): the items of a numbered list,
    not headings (a heading has its text under it before the next one)."""
    found: set[int] = set()
    for prev, cand in zip(candidates, candidates[1:]):
        plain = not (cand.style.bold or cand.style.italic or cand.style.caps) and cand.style == prev.style
        if plain and cand.page == prev.page and prev.index + prev.count == cand.index \
                and label_class(prev.text) is not None and label_class(cand.text) is not None:
            found |= {id(prev), id(cand)}
    return found | {id(cand) for cand in candidates if cand.item}


GLOSSARY_RUN = 5  # consecutive unnumbered headings of one style in alphabetical order: a glossary's terms
GLOSSARY_BODY = 4  # lines under a term, at most, for most of the run (a definition, not a section)


def _glossary_terms(candidates: list[Candidate]) -> set[int]:
    """ids of a glossary's terms: five or more unnumbered candidates of one style one after another (nothing
    else between them), in alphabetical order ("CUI categories", "CUI Executive Agent", "CUI program", ...), most
    with a definition of a few lines under them or beside them."""
    found: set[int] = set()
    run: list[Candidate] = []

    def close() -> None:  # (each with a short definition under it: an alphabetical run of sections with more
        # under them is a reference's commands or options, "Column", "Columnhead", "Stringcolumn", ...)
        if len(run) >= GLOSSARY_RUN and (sorted(c.under for c in run)[len(run) // 2] <= GLOSSARY_BODY
                                         or 2 * sum(c.beside for c in run) > len(run)):
            found.update(id(c) for c in run)

    def term(cand: Candidate) -> bool:  # (no number in its first words: "TABLE D-2", "Strategy 1.02" run in order too)
        return not cand.style.numbering and not any(ch.isdigit() for ch in " ".join(cand.text.split()[:2]))

    for cand in candidates:
        if run and cand.style == run[-1].style and term(cand) and cand.text.casefold() > run[-1].text.casefold():
            run.append(cand)
            continue
        close()
        run = [cand] if term(cand) else []
    close()
    return found


SIZE_STEP = 1.25  # a one-off style this much larger than the next recurring style below is not of its rank
TAGLINES_MIN = 2  # occurrences of a style, each right under a larger heading, that make it a tagline's


def _without_taglines(candidates: list[Candidate]) -> list[Candidate]:
    """The candidates without chapters' taglines: an unnumbered style found only on the line right under a
    heading set larger than it ("1. Safety" / "Make our transportation system safer for all people.",
    "INTRODUCTION" / "THE NEED TO PROTECT CONTROLLED UNCLASSIFIED INFORMATION"), at least twice, is the
    chapter's subtitle, not a section of it."""
    by_style: dict[Style, list[int]] = {}
    for k, cand in enumerate(candidates):
        by_style.setdefault(cand.style, []).append(k)
    gone: set[int] = set()
    for style, indexes in by_style.items():
        if len(indexes) < TAGLINES_MIN or style.numbering or any(label_class(candidates[k].text) for k in indexes):
            continue
        if all(k > 0 and candidates[k - 1].page == candidates[k].page
               and candidates[k - 1].index + candidates[k - 1].count == candidates[k].index
               and candidates[k - 1].style.size > style.size and candidates[k - 1].style.numbering != "run_in"
               for k in indexes):
            gone.update(indexes)
    return [c for k, c in enumerate(candidates) if k not in gone]


# the label of an admonition box (DocBook, Sphinx, a word processor's callout): "Tip", "Note", "Warning"
ADMONITION_RE = re.compile(r"^(?:note|tip|hint|warning|caution|important|attention|danger|remark|hinweis|tipp|warnung|"
                           r"achtung|remarque|astuce|avertissement|nota|consejo|aviso|suggerimento|"
                           r"avvertenza)s?\s*:?$", re.I)
ADMONITIONS_MIN = 3  # times one such label heads a box in a document


def _without_admonitions(candidates: list[Candidate]) -> list[Candidate]:
    """The candidates without the labels of admonition boxes: one word that names the kind of note ("Tip",
    "Warning") heading three or more boxes in the document labels them, it is no section of its own."""
    counts = Counter(c.text.strip().casefold() for c in candidates if ADMONITION_RE.match(c.text.strip()))
    return [c for c in candidates
            if not (ADMONITION_RE.match(c.text.strip()) and counts[c.text.strip().casefold()] >= ADMONITIONS_MIN)]


CALLOUT_WORDS = 3  # words at most of a callout's label
CALLOUTS_MIN = 3  # times one such label stands in a document


def _callouts(candidates: list[Candidate], body: float) -> set[int]:
    """ids of callout labels: a short bold line at the text's size, indented from the text's left edge, whose
    words stand so three times or more in the document ("Important!", "See also", "Siehe auch", "Важно!" over a
    note's text, in any language) labels its notes; it is no section of its own. (A side head at the left edge,
    "SYNOPSIS" on every reference page, is one.)"""
    counts: Counter[str] = Counter()

    def callout(cand: Candidate) -> bool:
        return cand.indented and cand.style.bold and cand.style.size < body * HEADING_SIZE \
            and len(cand.text.split()) <= CALLOUT_WORDS and label_class(cand.text) is None \
            and cand.style.numbering != "run_in"

    for cand in candidates:
        if callout(cand):
            counts[_key(cand.text)] += 1
    return {id(c) for c in candidates if callout(c) and counts[_key(c.text)] >= CALLOUTS_MIN}


def _stacked_over_prose(candidates: list[Candidate], cand: Candidate) -> bool:
    """A heading set right over a smaller one, no line and at most two line heights between them (a section's
    title over its first sub-section's), and so on down to one with prose under it: a section that opens with its
    sub-section, not a title block's line (short lines under it, or a slide's title far above its text)."""
    at = next((k for k, c in enumerate(candidates) if c is cand), None)
    if at is None:
        return False
    for nxt in candidates[at + 1:]:
        if not cand.over or nxt.page != cand.page or nxt.index != cand.index + cand.count:
            return False
        if nxt.prose:
            return True
        cand = nxt
    return False


def _opens_numbered(candidates: list[Candidate], cand: Candidate) -> bool:
    """A numbered heading whose number the next numbered heading carries on ("6 SECTIONS AND LISTS" before
    "6.1 Sections"): a section whose sub-sections follow, though its own text is a line or two, not a title
    block's line."""
    own = NUMBER_DEPTH_RE.match(cand.text)
    if own is None or "." in own.group(1):
        return False
    at = next((k for k, c in enumerate(candidates) if c is cand), None)
    if at is None:
        return False
    for nxt in candidates[at + 1:]:
        found = NUMBER_DEPTH_RE.match(nxt.text)
        if found is not None:
            return found.group(1).startswith(own.group(1) + ".")
    return False


PAGE_LABEL_RE = re.compile(r"^(?:[Pp]age|PAGE)\s+(?:\d{1,4}|[ivxlc]{1,6}|[IVXLC]{1,6})$")  # "Page ii", "Page 12"
SECTIONS_ON_A_PAGE = 2  # candidates over prose on one page: a page of sections, no title block's
FIRST_CHAPTER_RE = re.compile(r"^1\.?\s+\S")  # "1 Overview", "1. Introduction"


def _cover_before_first_chapter(candidates: list[Candidate], cover: int) -> int:
    """The title block ends before the page that opens with the first chapter ("1 Overview" first on page 3 of a
    short document with no contents page), when that chapter's style heads later pages too."""
    first_on_page: dict[int, Candidate] = {}
    sections: Counter[int] = Counter()  # candidates over prose on each page
    for cand in candidates:
        first_on_page.setdefault(cand.page, cand)
        sections[cand.page] += cand.prose
    for page in range(2, cover + 1):
        first = first_on_page.get(page)
        if first is not None and FIRST_CHAPTER_RE.match(first.text) and _heads_later(candidates, first, cover):
            return page - 1
        if sections[page] >= SECTIONS_ON_A_PAGE:  # (a page of two sections or more, each over its text: the
            return page - 1  # body has begun)
    return cover


def _heads_later(candidates: list[Candidate], cand: Candidate, cover: int) -> bool:
    """Whether the candidate's style heads sections after the title block's pages too."""
    return any(o.style == cand.style and o.page > cover for o in candidates)


def assign_levels(candidates: list[Candidate], body: float, pages: int, *, cover: int = 0,
                  known_title: str = "") -> dict[int, int]:
    """One level per style for the whole document: {candidate order: level (1 = top)}. `cover`: the pages of
    the title block, where only the title and styles that recur after them are headings; `known_title`: the
    document information's title."""
    candidates = _merge_unlabelled(candidates)
    # four or more body-size "headings" of one style on one page with a line or three under each are a list of
    # labels (names, terms), not sections; numbered ones a numbered list when nothing stands under them
    per_page: dict[tuple[int, Style], list[Candidate]] = {}
    for cand in candidates:
        per_page.setdefault((cand.page, cand.style), []).append(cand)
    listed = {id(c) for group in per_page.values() if _label_list(group) and not _heading_face_over_prose(group)
              and not _heading_style_elsewhere(group, per_page) and not _counts_on(group, candidates)
              for c in group} | _numbered_items(candidates) \
        | _glossary_terms(candidates)
    listed -= {id(c) for c in candidates if DIVISION_RE.match(c.text) or NAMED_LABEL_RE.match(c.text)}
    # (a heading that names its division or carries a named number, "Appendix H—Acronyms" over its terms,
    # "Strategy 6.04: ..." over a short table, is no label of a list)
    candidates = [c for c in candidates
                  if c.style.size >= body * HEADING_SIZE or c.identifier or c.regular or id(c) not in listed]
    candidates = _without_admonitions(_without_taglines(candidates))
    callouts = _callouts(candidates, body)  # (taken out last: the cover pages are told with them)
    # a contents list further on belongs to a document printed inside this one (a sample plan's): its title is
    # no section of this one
    # (one titled as the document's own contents is: a title in another word, "Índice" after "Sumário", is the
    # document's index)
    contents = [c for c in candidates if CONTENTS_TITLE_RE.match(c.text.strip(" :"))]
    candidates = [c for c in candidates
                  if not (contents and c.page > contents[0].page + 3 and CONTENTS_TITLE_RE.match(c.text.strip(" :"))
                          and _key(c.text.strip(" :")) == _key(contents[0].text.strip(" :")))]
    # a cover page's one-off styles are not structure: keep only its title; on the title block's pages, only
    # styles that recur after them (a front matter's "Abstract", "Authority") are headings
    cover = _cover_before_first_chapter(candidates, cover)
    title = _title_candidate(candidates, known_title)
    first_page = [c for c in candidates if c.page == 1]
    by_style: dict[Style, list[Candidate]] = {}
    for cand in candidates:
        by_style.setdefault(cand.style, []).append(cand)
    if title is not None and pages > 3:
        for cand in first_page:
            if cand is not title and len(by_style[cand.style]) == 1:
                del by_style[cand.style]
    if title is not None and cover:
        # the body has begun at the first section over its text on the title's own page, in a style that heads
        # sections after the title block too (a short report's first section right under its title): what follows
        # it is no title block ("Abstract" over its text is no such section: its style heads nothing later)
        begun = next((c.order for c in candidates if c.page == title.page and c.order > title.order and c.prose
                      and _heads_later(candidates, c, cover)), None)

        def in_block(c: Candidate) -> bool:
            return c.page <= cover and (begun is None or c.order < begun)

        for style in list(by_style):
            if style != title.style and all(in_block(c) for c in by_style[style]):
                del by_style[style]
            else:  # (a line of the title block in a style used later: a name, an agency, a series)
                by_style[style] = [c for c in by_style[style]
                                   if c is title or not in_block(c) or c.prose or label_class(c.text)
                                   or _stacked_over_prose(candidates, c) or _opens_numbered(candidates, c)]
                if not by_style[style]:
                    del by_style[style]
    # a cover inside the document (a sample form's title page): a page with four or more candidates that have no
    # prose under them; styles found only there, and never over prose, are no structure
    on_page: dict[int, list[Candidate]] = {}
    for cand in candidates:
        on_page.setdefault(cand.page, []).append(cand)
    covers = {page for page, cands in on_page.items()
              if page > cover and sum(1 for c in cands if not c.prose) >= COVER_LIKE}
    display: dict[int, int] = {}  # each such page's first line in a style found only on such pages
    for style in list(by_style):
        if (title is None or style != title.style) \
                and all(c.page in covers and not c.prose for c in by_style[style]):
            for c in by_style.pop(style):
                if c.style.size >= DISPLAY * body:  # (a cover's display lines are set large)
                    display[c.page] = min(display.get(c.page, c.order), c.order)
    for style in list(by_style):  # (the rest of such a cover is its title block: "Prepared by", an address)
        by_style[style] = [c for c in by_style[style] if c.prose or c.order < display.get(c.page, c.order + 1)]
        if not by_style[style]:
            del by_style[style]
    if title is not None:  # the title printed again over the text (a standard's first clause) is no section
        for style in list(by_style):
            by_style[style] = [c for c in by_style[style]
                               if c is title or c.page == 1 or not _repeats_title(c.text, title.text)]
            if not by_style[style]:
                del by_style[style]
    kept: dict[Style, list[Candidate]] = {}
    for style, items in by_style.items():
        items = [c for c in items if id(c) not in callouts]
        if not items:
            continue
        each_page = len(items) / max(1, pages)
        if style.size < body * HEADING_SIZE and len(items) > 30 and each_page > 1.5 and not style.numbering \
                and 2 * sum(c.prose for c in items) < len(items):
            continue  # bold body-size text used everywhere: labels or table cells, not structure (most of a
            # manual's side heads, "SYNOPSIS", "OPTIONS" on every page, have a paragraph under them)
        kept[style] = items

    def rank(style: Style) -> tuple[float, float, int]:
        first = kept[style][0].order
        label = label_class(kept[style][0].text) if style.numbering else None
        if style.numbering == "run_in":
            sub = 6.0  # below every heading of its size that stands on its own line
        elif label:
            sub = label[1]
        else:
            sub = (0.0 if style.bold and style.caps else 1.0 if style.bold else 2.5 if style.caps else
                   3.5 if style.italic else 4.5)
        return (-heading_size(style.size), sub, first)

    ordered = sorted(kept, key=rank)
    major = [st for st in ordered if len(kept[st]) >= 2]
    style_level: dict[Style, int] = {st: n for n, st in enumerate(major, start=1)}
    for st in ordered:
        if st not in style_level:  # a one-off style shares the level of the next major style below it
            below = [style_level[m] for m in major if rank(m) > rank(st)]
            if major and rank(st) < rank(major[0]):
                # above every recurring style: the cover title, or one-off display text (a big number)
                style_level[st] = 0 if title is not None and st == title.style else 1
            else:  # (but when one above is set in its size and the next below is a size step smaller, that one's:
                # the size tells the level, a chapter's title in another face beside the chapters)
                size = heading_size(st.size)
                lower = [m for m in major if rank(m) > rank(st)]
                same_above = [style_level[m] for m in major if rank(m) < rank(st) and heading_size(m.size) == size]
                if same_above and (not lower or lower[0].size * SIZE_STEP <= st.size):
                    style_level[st] = same_above[-1]
                else:
                    style_level[st] = below[0] if below else len(major) + 1
    ranks: dict[int, float] = {cand.order: style_level[style] for style, items in kept.items() for cand in items}
    if title is not None and title.order in ranks:  # the title above everything, alone
        ranks = {order: 0 if order == title.order else max(rank, 1) for order, rank in ranks.items()}
    structure = [c for items in kept.values() for c in items]
    ranks = _numbered_ranks(structure, ranks)
    ranks = _counted_chapters(structure, ranks, body)
    ranks = _named_ranks(structure, ranks)
    ranks = _matter_ranks(kept, ranks)
    ranks = _appendix_ranks(structure, ranks)
    ranks = _embedded_ranks(structure, ranks, set(display))
    ranks = _listed_children(structure, ranks)
    ranks = _chapter_ranks(structure, ranks)
    ranks = _mixed_case_under_capitals(kept, ranks)
    # compress in document order so that an unused style leaves no gap (depth capped at Markdown's 6)
    levels: dict[int, int] = {}
    stack: list[float] = []
    for order in sorted(ranks):
        while stack and stack[-1] >= ranks[order]:
            stack.pop()
        stack.append(ranks[order])
        levels[order] = min(len(stack), 6)
    return levels
