"""Find the document's own printed contents page in its first pages and map its entries to physical pages."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from engine.schemas.pdf import OutlineEntry
from engine.schemas.toc import ExtractedToc, TocEntry
from engine.text import roman_value

VERSION = 5  # bump when the output changes: the pipeline re-runs the stage (contents pages and outlines)

CONTENTS_TITLES = {
    "contents", "table of contents", "content", "contents page", "inhalt", "inhaltsverzeichnis",
    "sommaire", "table des matieres", "table des matières", "índice", "indice", "contenido", "contenidos",
    "sumario", "sommario", "inhoud", "inhoudsopgave", "innehåll", "indholdsfortegnelse", "spis treści",
}
TITLE_KEYS = {" ".join(re.sub(r"[\W_]+", " ", t).split()) for t in CONTENTS_TITLES}
BACK_PAGES = 25  # the last pages searched for a contents titled so, when the first pages hold none
LIST_OF_RE = re.compile(r"^list of (figures|tables|illustrations|charts|exhibits|boxes)\b", re.I)

# a line that ends in a printed page number: "12", "iv", "A-3"
TOKEN = r"(?:\d{1,4}|[ivxlcdm]{1,7}|[A-Z]{1,3}-\d{1,4})"
LEADER = r"[ \t]*(?:(?:[.·_][ \t]*){2,}|(?:…[ \t]*)+)"
LEADER_RE = re.compile(rf"^(?P<title>.*?){LEADER}(?P<page>{TOKEN}|[IVXLCDM]{{1,7}})$")
GAP_RE = re.compile(rf"^(?P<title>.*?\S)(?:\t+|[ \t]{{2,}})(?P<page>{TOKEN})$")
WEAK_RE = re.compile(r"^(?P<title>.*[A-Za-z].*?[^\s\d.,$%]) (?P<page>\d{1,4})$")
NUMBER_ONLY_RE = re.compile(rf"^(?:{LEADER})?[ \t]*(?P<page>{TOKEN})$")
PAGE_END = "ivxlcdmIVXLCDM"  # the last character of a page number that is no digit (a roman numeral's)
ROMAN_RE = re.compile(r"^m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")

# what tables look like
AMOUNT_RE = re.compile(r"[$€£¥%]|\d,\d{3}")
TABLE_ROW_RE = re.compile(r"^(total|subtotal|net|sum|gesamt|summe)\b", re.I)
NUMERIC_END_RE = re.compile(r"[\d.,%$()]+$")

# numbering of entries: "1.2.3", "Chapter 4", "II.", "A", "(a)"
LABEL_ONLY_RE = re.compile(r"^(?:\d{1,3}(?:\.\d{1,3})*\.|[IVXLC]{1,6}\.|[A-Za-z][.)]|\(?[A-Za-z0-9]{1,4}\))$")
DOTTED_RE = re.compile(r"^((?:\d{1,3}|[A-Z])(?:\.\d{1,3})+)\.?\s+")
LABEL_RE = re.compile(
    r"^(?:\((?P<paren>[A-Za-z]|\d{1,3}|[ivx]{1,5})\)"
    r"|(?P<tok>\d{1,3}|[IVXLC]{1,6}|[ivx]{1,5}|[A-Za-z])(?P<punct>[.)])?)\s+(?=\S)"
)
LABEL_WORDS = r"chapter|part|section|appendix|annex|kapitel|teil|chapitre|partie|anexo"
WORD_LABEL_RE = re.compile(rf"^({LABEL_WORDS})\s+(?:\d+|[IVXLCivxlc]+|[A-Z])\b[.:]?", re.I)
BACK_MATTER = re.compile(
    r"^(appendix|appendixes|appendices|annex|annexes|references|bibliography|index|glossary|notes|endnotes|acknowledg)",
    re.I,
)
CONNECTORS = {"and", "or", "of", "the", "for", "in", "on", "to", "with", "a", "an", "by", "und", "der", "et", "de", "y"}


Kind = Literal["leader", "gap", "own-line", "weak", "heading"]  # how the page number was attached


@dataclass
class _Raw:
    """An entry as read from the page, before numbering, levels and pages are settled."""

    title: str
    printed: str = ""
    kind: Kind = "heading"
    indent: int = 0


@dataclass
class _PageParse:
    """What one page holds: its entries and the counts that tell contents from prose or tables."""

    titled: bool = False
    entries: list[_Raw] = field(default_factory=list)
    lines: int = 0  # non-empty lines considered (after the contents title, if any)
    used: int = 0  # of which lines that belong to entries
    figures: int = 0  # lines with amounts (currency, percentages, thousands separators): a table, not contents
    tail: str = ""  # the text after the last entry (where the body may start)


CELL_BAR_RE = re.compile(r"\|(?=\s*(?:[.·_]\s*){2,})")  # a cell's bar before an entry's leaders


def _clean(line: str) -> str:
    """A line without surrounding blanks, Markdown heading or emphasis marks and table cells' bars (a contents
    page the reader set as a table: "| 1.6 Items Changed | ........ 18 |")."""
    line = line.replace("**", "").strip()
    line = line.replace("|", " ") if line.startswith("|") and line.endswith("|") else CELL_BAR_RE.sub(" ", line)
    return line.strip().lstrip("#").strip()


NON_WORD_RE = re.compile(r"[\W_]+")


def _norm(text: str) -> str:
    """Lower case words separated by single spaces, punctuation dropped."""
    return " ".join(NON_WORD_RE.sub(" ", text.lower()).split())


@lru_cache(maxsize=4096)
def _norm_page(text: str) -> str:
    """A page's text with each line normalised (`_norm`); both readings of a contents page search the same pages."""
    return "\n".join(_norm(line) for line in text.split("\n"))


def _title_end(lines: list[str]) -> int:
    """Index of the line after a contents title near the top of the page, 0 when there is none."""
    top = max(15, int(len(lines) * 0.4))
    return next((i + 1 for i, line in enumerate(lines[:top]) if _norm(line) in TITLE_KEYS), 0)


def _heading_like(text: str) -> bool:
    """Short, with letters, not ending like a sentence."""
    return 2 <= len(text) <= 90 and sum(c.isalpha() for c in text) >= 2 and not text.endswith((".", ",", ";"))


def _continues(before: str, after: str) -> bool:
    """Whether `after` reads as the second line of a title that wraps after `before`."""
    last = before.split()[-1].lower() if before.split() else ""
    return before.endswith((",", "-", "–", ":", "&")) or last in CONNECTORS or after[:1].islower()


def _match(line: str) -> tuple[str | None, str, Kind] | None:
    """(title or None for a bare page number, printed page, kind) for a line that ends in a page number."""
    if len(line) > 300:  # prose, and too long for the regular expressions below
        return None
    end = line[-2:-1] if line.endswith("\n") else line[-1:]  # (where "$" matches: the end, or before a last "\n")
    if not end or not (end.isdecimal() or end in PAGE_END):
        return None  # (each pattern below ends in a page number: a digit or a roman numeral's letter)
    if m := NUMBER_ONLY_RE.match(line):
        return None, m["page"], "own-line"
    if m := LEADER_RE.match(line):
        return (m["title"].strip() or None), m["page"], "leader"
    if (m := GAP_RE.match(line)) and not NUMERIC_END_RE.search(m["title"]):
        return m["title"].strip(), m["page"], "gap"
    if m := WEAK_RE.match(line):
        return m["title"].strip(), m["page"], "weak"
    return None


def _valid_page(token: str) -> bool:
    """Digits, or letters that make a valid roman numeral ("mix" is one, "civil" is not)."""
    return not token.isalpha() or bool(ROMAN_RE.match(token.lower()))


def _wraps(before: str, after: str, first: bool) -> bool:
    """Whether `after` continues the title that `before` starts (not trusted for a page's first entry)."""
    if _numbering(after)[0] is not None:
        return False
    opens = _numbering(before)[0] is not None or len(before) >= 45
    return _continues(before, after) or (opens and not first)


def _compose(label: str | None, texts: list[str], title: str | None, first: bool) -> tuple[list[str], str, int]:
    """Split pending lines into stand-alone headings and this entry's title; also count the lines used."""
    if label is not None:
        return [], " ".join([label, *texts, title or ""]).strip(), len(texts) + 1
    parts = texts + ([title] if title else [])
    k = 1  # pieces, from the end, that make up the title
    while k < len(parts) and _wraps(parts[-k - 1], parts[-k], first):
        k += 1
    return ([] if first else parts[:-k]), " ".join(parts[-k:]), k - (1 if title else 0)


def _numbers_last(lines: list[str], start: int) -> list[str]:
    """Page numbers printed above their titles ("03", "Foreword") moved below them, where the parser expects them."""
    numbers = [bool(NUMBER_ONLY_RE.match(_clean(line))) for line in lines[start:start + 4]]
    if not start or numbers != [True, False, True, False]:
        return lines
    moved, held = lines[:start], None
    for line in lines[start:]:
        if held is None and NUMBER_ONLY_RE.match(_clean(line)):
            held = line
            continue
        moved.append(line)
        if held is not None:
            moved, held = moved + [held], None
    return moved + ([held] if held else [])


def _parse_page(text: str) -> _PageParse:
    """Entries of one page: lines ending in a page number, with wrapped titles and labels joined."""
    raw = [line for line in text.split("\n") if _clean(line)]
    start = _title_end([_clean(line) for line in raw])
    raw = _numbers_last(raw, start)
    lines = [_clean(line) for line in raw]
    result = _PageParse(titled=start > 0)
    label: int | None = None  # index of a pending numbering label ("II.") on its own line
    texts: list[int] = []  # indices of pending text lines (a wrapped title, or stand-alone headings)
    last = start
    for index in range(start, len(lines)):
        line = lines[index]
        result.lines += 1
        result.figures += bool(AMOUNT_RE.search(line))
        if LABEL_ONLY_RE.match(line):
            label, texts = index, []
            continue
        found = _match(line)
        if found is None or not _valid_page(found[1]):
            texts = (texts + [index])[-3:]
            continue
        title, printed, kind = found
        kind = "leader" if title is None and kind == "own-line" and LEADER_RE.match(line) else kind
        if title is None and not texts and label is None:
            continue  # a page number alone: the page's own folio
        pending = [lines[i] for i in texts]
        headers, title, used = _compose(
            None if label is None else lines[label], pending, title, not result.entries and not result.titled
        )
        first = label if label is not None else texts[len(texts) - used] if used else index
        label, texts = None, []
        if sum(c.isalpha() for c in title) < 2 or len(title) > 300:
            continue
        result.entries += [_Raw(h) for h in headers if _heading_like(h)]
        indent = len(raw[first].expandtabs(4)) - len(raw[first].expandtabs(4).lstrip())
        result.entries.append(_Raw(re.sub(r"\s+", " ", title), printed, kind, indent))
        result.used += used + 1 + len(headers)
        last = index + 1
    result.tail = "\n".join(lines[last:])
    return result


def _page_key(printed: str) -> tuple[str, int] | None:
    """Numbering scheme and value of a printed page: ("", 12), ("roman", 4), ("A-", 3)."""
    if printed.isdigit():
        return "", int(printed)
    if ROMAN_RE.match(printed.lower()) and printed.isalpha() and (value := roman_value(printed)) is not None:
        return "roman", value
    if m := re.match(r"^([A-Z]{1,3}-)(\d+)$", printed):
        return m[1], int(m[2])
    return None


def _increasing(entries: list[_Raw]) -> float:
    """Share of consecutive numbered entries (same scheme) whose page does not go down."""
    last: dict[str, int] = {}
    ups = pairs = 0
    for entry in entries:
        key = _page_key(entry.printed)
        if key is None:
            continue
        if key[0] in last:
            pairs += 1
            ups += key[1] >= last[key[0]]
        last[key[0]] = key[1]
    return ups / pairs if pairs else 0.0


def _is_contents(page: _PageParse, before: list[_Raw]) -> bool:
    """Enough entry-like lines with pages that go up; `before` holds the entries of the pages before it.

    Without a title, only the ways of attaching page numbers already seen count (on a first page:
    leaders or a gap, never a number on its own line, which is how footnotes look), and the page must
    not look like a table (amounts, "Total" rows, one-word labels).
    """
    numbered = [e for e in page.entries if e.kind in ("leader", "gap", "own-line")]
    if page.titled and not before:
        return len(numbered) >= 3 and _increasing(page.entries) >= 0.7
    kinds = {e.kind for e in before if e.printed} or {"leader", "gap"}
    numbered = [e for e in numbered if e.kind in kinds]
    if page.figures > 0.2 * page.lines or any(TABLE_ROW_RE.match(e.title) for e in numbered):
        return False
    if len(numbered) < (3 if before else 5) or page.used < (0.4 if before else 0.5) * page.lines:
        return False
    if _increasing(before[-1:] + page.entries if before else page.entries) < 0.8:
        return False
    return bool(before) or sorted(len(e.title.split()) for e in numbered)[len(numbered) // 2] >= 2


def _unnumbered_contents(text: str) -> _PageParse:
    """A titled list of headings without page numbers, up to the first prose line or repeated heading."""
    lines = [line for line in (_clean(x) for x in text.split("\n")) if line]
    start = _title_end(lines)
    result = _PageParse(titled=start > 0)
    label, seen, last = None, set(), start
    for index in range(start if start else len(lines), len(lines)):
        line = lines[index]
        if LABEL_ONLY_RE.match(line):
            label = line
            continue
        found = _match(line)
        if not _heading_like(line) or _norm(line) in seen or (found and found[2] != "weak"):
            break
        seen.add(_norm(line))
        result.entries.append(_Raw(f"{label} {line}" if label else line))
        label, last = None, index + 1
    result.tail = "\n".join(lines[last:])
    leading = [re.match(r"^(\d{1,3})\s+(\S.*)$", e.title) for e in result.entries]
    values = [int(m[1]) for m in leading if m]
    if values and len(values) == len(leading) and values == sorted(values) and values[-1] - values[0] >= len(values):
        result.entries = [_Raw(m[2], m[1], "gap") for m in leading if m]  # "03 Foreword": page number first
    return result if len(result.entries) >= 3 else _PageParse()


def _numbering(title: str) -> tuple[str | None, str, str]:
    """(style, token, title without its numbering); style None when the title is not numbered."""
    if m := DOTTED_RE.match(title):
        return f"dotted{m[1].count('.') + 1}", m[1], title[m.end():]
    if m := WORD_LABEL_RE.match(title):
        return m[1].lower(), m[0], title[m.end():].lstrip(" .:–-")
    if m := LABEL_RE.match(title):
        token = m["paren"] or m["tok"]
        kind = "paren-" if m["paren"] else ("" if m["punct"] else "bare-")
        if token.isdigit():
            style = "arabic"
        elif len(token) == 1 and token.upper() in "IVXLC":
            style = "letter?"  # the letter C or the roman hundred: decided in context
        else:
            style = "roman" if ROMAN_RE.match(token.lower()) and len(token) > 1 else "alpha"
        case = "upper" if token.isupper() else "lower" if token.islower() else ""
        return f"{kind}{style}{case}", token, title[m.end():]
    return None, "", title


def _levels(raws: list[_Raw]) -> list[int]:
    """Levels from numbering (dotted depth, else a stack of styles in nesting order), else from indentation."""
    titles = [raw.title for raw in raws]
    parsed = [_numbering(t) for t in titles]
    indents = sorted({raw.indent for raw in raws})
    if all(style is None for style, _, _ in parsed) and len(indents) > 1:
        return [indents.index(raw.indent) + 1 for raw in raws]
    last_value: dict[str, str] = {}
    styles: list[str | None] = []
    for style, token, _ in parsed:
        if style and "letter?" in style:  # "I." after "H." is a letter, otherwise a roman numeral
            alpha, roman = style.replace("letter?", "alpha"), style.replace("letter?", "roman")
            previous = last_value.get(alpha, "")
            style = alpha if previous and ord(token.upper()) == ord(previous.upper()) + 1 else roman
        if style:
            last_value[style] = token
        styles.append(style)
    bare = Counter(style for style in styles if style and style.startswith("bare-"))
    dotted = any(style and style.startswith("dotted") for style in styles)
    stack: list[str] = []
    levels: list[int] = []
    for style, title in zip(styles, titles):
        if style and style.startswith("bare-") and bare[style] < 2:
            style = None
        if dotted and style and (style.startswith("dotted") or "arabic" in style):
            levels.append(int(style[6:]) if style.startswith("dotted") else 1)
        elif style is None:
            if BACK_MATTER.match(title):
                stack = []
            levels.append(len(stack) + 1 if stack and not BACK_MATTER.match(title) else 1)
        else:
            if style in ("appendix", "annex", "anexo"):
                stack = []
            if style in stack:
                del stack[stack.index(style) + 1:]
            else:
                stack.append(style)
            levels.append(len(stack))
    return levels


@lru_cache(maxsize=4096)
def _title_pattern(title: str) -> tuple[tuple[str, ...], re.Pattern[str]] | None:
    """A title, without its numbering, as a line start of a normalised page (a short title: the whole line), with
    the words the pattern needs a page to hold (a cheap test before the search)."""
    words = _norm(_numbering(title)[2]).split()
    if not words:
        return None
    body = r"[ \n]".join(re.escape(w) for w in words[:8])
    end = r"(?=\n|$)" if len(words) <= 8 else ""
    label = rf"(?:(?:{LABEL_WORDS}) )?(?:(?:\d+|[ivxlc]+|[a-z]) ){{0,2}}"
    return tuple(words[:8]), re.compile(rf"(?:^|\n){label}{body}{end}")


def _pages_holding(needed: tuple[str, ...], holding: dict[str, set[int]], texts: list[str]) -> list[int]:
    """The pages (1-based, in order) where a title's pattern may match: every word of it but the last as a word,
    the last at least as the start of one (a title of more than eight words is matched by its first eight)."""
    pages: set[int] | None = None
    for word in needed[:-1]:
        found = holding.get(word, set())
        pages = found if pages is None else pages & found
        if not pages:
            return []
    last = needed[-1]
    ordered = sorted(pages) if pages is not None else range(1, len(texts) + 1)
    return [n for n in ordered if last in texts[n - 1]]


@lru_cache(maxsize=2)  # (both readings of a contents page search the same pages, mostly)
def _holding(texts: tuple[str, ...]) -> dict[str, set[int]]:
    """word -> the pages (1-based) of normalised page texts that hold it as a word (read only by its callers)."""
    holding: dict[str, set[int]] = {}
    for n, text in enumerate(texts, 1):
        for word in set(text.split()):
            holding.setdefault(word, set()).add(n)
    return holding


def _map_pages(entries: list[_Raw], search: list[str], labels: list[str], pages: int | None) -> list[int | None]:
    """Physical page of each entry: page labels, else the most common title offset, else none."""
    texts = [_norm_page(text) for text in search]
    holding = _holding(tuple(texts))
    candidates: list[list[int]] = []
    for entry in entries:
        pattern = _title_pattern(entry.title)
        if pattern is None:
            candidates.append([])
            continue
        needed, regex = pattern
        candidates.append([n for n in _pages_holding(needed, holding, texts) if regex.search(texts[n - 1])])
    votes: dict[str, dict[int, float]] = {}  # per numbering: offset -> votes (an entry's pages share one)
    for entry, found in zip(entries, candidates):
        if (key := _page_key(entry.printed)) and found:
            for hit in found:
                counts = votes.setdefault(key[0], {})
                counts[hit - key[1]] = counts.get(hit - key[1], 0.0) + 1 / len(found)
    offsets = {k: max(c.items(), key=lambda kv: (kv[1], -abs(kv[0])))[0] for k, c in votes.items()}
    offsets.setdefault("", 0)
    by_label: list[int | None] = []
    by_offset: list[int | None] = []
    for entry in entries:
        key = _page_key(entry.printed)
        label = entry.printed.lstrip("0") if entry.printed.isdigit() else entry.printed
        by_label.append(labels.index(label) + 1 if any(labels) and label in labels else None)
        by_offset.append(key[1] + offsets[key[0]] if key and key[0] in offsets else None)

    def seen(mapped: list[int | None]) -> int:  # entries whose title is on the page (or one off) they map to
        return sum(1 for page, found in zip(mapped, candidates) if page and any(abs(page - hit) <= 1 for hit in found))
    # (page labels that number the sheets, not the printed pages, map fewer titles to their pages than the
    # printed numbers' offset: the text decides)
    labelled = seen(by_label) >= seen(by_offset)
    result: list[int | None] = []
    for from_label, from_offset in zip(by_label, by_offset):
        page = from_label if labelled and from_label is not None else from_offset
        result.append(page if page is not None and pages and 1 <= page <= pages else None)
    schemes = Counter(key[0] for entry in entries if (key := _page_key(entry.printed)) is not None)
    for index, entry in enumerate(entries):  # entries without a page number, or alone in their numbering
        key = _page_key(entry.printed)  # ("I-1", an appendix's own): first sighting between neighbours
        if entry.printed and not (key and key[1] and schemes[key[0]] == 1 and len(candidates[index]) > 1):
            continue
        low = max([p for p in result[:index] if p] or [1])
        high = min([p for p in result[index + 1:] if p] or [pages or len(texts)])
        mapped = result[index]
        if entry.printed and mapped is not None and low <= mapped <= high:
            continue
        result[index] = next((p for p in candidates[index] if low <= p <= high), None)
    return result


def _locate(first_pages: list[str], max_pages: int) -> tuple[list[int], list[_Raw], str]:
    """Physical pages of the contents block, its raw entries and the text after it on its last page."""
    pages: list[int] = []
    entries: list[_Raw] = []
    tail = ""
    for number, text in enumerate(first_pages[:max_pages], start=1):
        if pages and (pages[-1] != number - 1 or any(LIST_OF_RE.match(_clean(x)) for x in text.split("\n")[:10])):
            break
        parsed = _parse_page(text)
        if _is_contents(parsed, [e for e in entries if e.printed]):
            pages.append(number)
            entries += parsed.entries
            tail = parsed.tail
        elif not pages and (bare := _unnumbered_contents(text)).entries:
            return [number], bare.entries, bare.tail
    return pages, entries, tail


def _keeps_weak(entries: list[_Raw], index: int) -> bool:
    """A weak entry (single space before the number) is kept when its page fits between its neighbours."""
    before = [k[1] for e in entries[:index] if e.kind != "weak" and (k := _page_key(e.printed)) and not k[0]]
    after = [k[1] for e in entries[index + 1:] if e.kind != "weak" and (k := _page_key(e.printed)) and not k[0]]
    value = int(entries[index].printed)
    return bool(after) and (not before or before[-1] <= value) and value <= after[0]


def find_contents(
    first_pages: list[str],
    all_pages: list[str] | None = None,
    page_labels: list[str] | None = None,
    max_pages: int = 10,
) -> tuple[list[int], list[TocEntry]]:
    """Physical pages of the printed contents page(s) among the first pages, and its entries.

    Pages are text (or page-marked Markdown blocks), one string per page, lines preserved. Printed page
    numbers are mapped by `page_labels` when the PDF defines them, else by the offset most often seen
    between printed numbers and the pages of `all_pages` where the entry titles appear.
    """
    pages, raws, tail = _locate(first_pages, max_pages)
    if not pages and all_pages and len(all_pages) > max_pages:  # a contents printed at the end (groff's -mm,
        start = max(max_pages, len(all_pages) - BACK_PAGES)  # some word processors): its last pages, titled so
        back, raws, tail = _locate(all_pages[start:], BACK_PAGES)
        titled = bool(back) and _title_end(all_pages[start + back[0] - 1].split("\n")) > 0
        pages = [start + page for page in back] if titled else []
    if not pages:
        return [], []
    raws = [raw for index, raw in enumerate(raws) if raw.kind != "weak" or _keeps_weak(raws, index)]
    labels = [label or "" for label in (page_labels or [])]
    count = len(all_pages) if all_pages is not None else (len(labels) or None)
    search = [("" if n in pages else text) for n, text in enumerate(all_pages or [], start=1)]
    if len(search) >= pages[-1]:
        search[pages[-1] - 1] = tail
    physical = _map_pages(raws, search, labels, count)
    levels = _levels(raws)
    entries = [
        TocEntry(title=raw.title, level=level, printed_page=raw.printed, page=page)
        for raw, level, page in zip(raws, levels, physical)
    ]
    return pages, entries


def extract_toc(
    first_pages: list[str],
    all_pages: list[str] | None,
    page_labels: list[str] | None,
    outline: list[OutlineEntry],
) -> ExtractedToc:
    """The document's contents page (if any) with mapped entries, and its outline kept apart, untouched.

    `first_pages` is the text of the first pages as the PDF lays it out line by line; a contents page set in
    two columns reads there as rows of two entries, which the reader's Markdown (`all_pages`, column by column)
    keeps apart. The contents page is read from both, and the reading that maps more entries to pages wins
    (the line-by-line one on a tie: its lines keep a wrapped entry's parts, which the Markdown may join)."""
    pages, entries = find_contents(first_pages, all_pages, page_labels)
    if all_pages:
        by_column = find_contents(all_pages[:len(first_pages) or 10], all_pages, page_labels)
        if _mapped(by_column[1]) > _mapped(entries):
            pages, entries = by_column
    return ExtractedToc(contents_pages=pages, contents=entries, outline=list(outline))


def _mapped(entries: list[TocEntry]) -> int:
    return sum(1 for entry in entries if entry.page is not None)
