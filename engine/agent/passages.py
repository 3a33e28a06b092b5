"""How a chosen window of a page becomes the passage an answer quotes: trimmed of idle ends, given
the sentence that says what its "it" is, read on to the end of the list it introduces, quoted with its
table's header row, and joined to a passage of the same page that lies just beside it.

Every function keeps a passage a literal span of its page (`Window.text == page[start:end]`), so its
parts can be cited as quotes.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.index.evidence import HANGING_RE, NAMING_RE, PageUnits, Unit, Window, answer_type, has_type
from engine.index.sections import bare_title
from engine.text import leads_in, query_terms

LIST_PASSAGE_CHARS = 1200  # a passage ending in ":" reads on through the list it introduces, up to this length
SECTION_CHARS = 1200  # a passage that opens with a heading reads its section on, up to this length
PageOf = Callable[[int], tuple[PageUnits, str]]  # a page number -> that page's (analysis, text)
GAP_UNITS, GAP_CHARS = 1, 400  # passages of a page this close are quoted as one
NAMED_BACK_CHARS = 400  # a passage opening with a naming sentence reads its paragraph back, up to this far
ANAPHOR_RE = re.compile(r"(?:It|Its|This|These|That|Those|They|Their|Such|He|She|His|Her|The latter|The former|"
                        r"Both|Each|Thus|Therefore|However|In (?:this|that|addition)|As a result)\b")
# … and the connectives that open a sentence going on from the one before it ("For example, a file of 25 lines holds …"
# after the rule it illustrates)
LEANING_RE = re.compile(r"(?:In (?:other words|particular)|For (?:example|instance)|Otherwise|Similarly|Likewise|Hence|"
                        r"Consequently|Moreover|Furthermore|Instead|Conversely|Nevertheless|Nonetheless|Accordingly)\b")


def trim(analysis: PageUnits, text: str, window: Window, wanted: set[str], question: str) -> Window:
    """Drop the units at either end of a passage that hold no question word and no asked-for value
    (a heading or a "…:" line that introduces what follows is kept)."""
    kind = answer_type(question)
    inside = [(i, u) for i, u in enumerate(analysis.units) if u.start >= window.start and u.end <= window.end]
    if len(inside) <= 1:
        return window

    def useful(i: int, unit) -> bool:
        return bool(analysis.stems[i] & wanted) or has_type(kind, unit.text, question)

    first, last = 0, len(inside) - 1
    while first < last and not useful(*inside[first]) and not inside[first][1].heading:
        first += 1
    while last > first and not useful(*inside[last]) and not leads_in(inside[last][1].text):
        last -= 1
    if (first, last) == (0, len(inside) - 1):
        return window
    start, end = inside[first][1].start, inside[last][1].end
    return Window(start, end, last - first + 1, window.score, window.coverage, window.matched, window.typed,
                  text[start:end], tuple(u.text for _, u in inside[first:last + 1]))


def read_back(analysis: PageUnits, text: str, window: Window, others: list[Window]) -> Window:
    """The passage with what its first sentence leans on before it, within its paragraph and not into another chosen
    passage: the sentence before when it opens by pointing back ("It is…", "This approach…", "They…": what "it" is
    was said just before) or with a connective going on from it ("For example, …", "Otherwise, …": `LEANING_RE`);
    its paragraph before it, up to NAMED_BACK_CHARS, when it names a term the question asks about after what that is
    ("The sets of equivalent vertices are called orbits", `NAMING_RE`): a naming sentence closes the description that
    says what the thing is."""
    found = analysis.units
    first = next((i for i, u in enumerate(found) if u.start == window.start), None)
    if not first:
        return window
    opening = found[first].text
    naming = NAMING_RE.search(opening)
    wanted = first if naming is not None and set(query_terms(naming.group("named"))) & window.matched \
        else 1 if ANAPHOR_RE.match(opening) or LEANING_RE.match(opening) else 0
    start = first
    while start > first - wanted:
        before = found[start - 1]
        if before.heading or before.line != found[first].line \
                or any(o.start <= before.start < o.end for o in others) \
                or (start < first and window.start - before.start > NAMED_BACK_CHARS):
            break
        start -= 1
    if start == first:
        return window
    return Window(found[start].start, window.end, window.units + first - start, window.score, window.coverage,
                  window.matched, window.typed, text[found[start].start:window.end],
                  tuple(u.text for u in found[start:first]) + window.parts)


def read_on(analysis: PageUnits, text: str, window: Window, chars: int, others: list[Window]) -> Window:
    """The passage extended by the units that follow it, up to `chars` more characters, stopping at a
    heading or at another chosen passage; a passage that introduces a list ("…:") reads the list to its
    end (up to LIST_PASSAGE_CHARS), through the headings of its groups, and stops where it ends or another begins."""
    after = [u for u in analysis.units if u.start >= window.end]
    end, added = window.end, list[Unit]()
    introduces = any(leads_in(part) for part in window.parts)  # a list: read it to its end
    if introduces:
        chars = max(chars, LIST_PASSAGE_CHARS)
    first = next((i for i, u in enumerate(analysis.units) if u.start == window.start), None)
    if first is not None and analysis.units[first].heading and analysis.stems[first] & window.matched:
        chars = max(chars, SECTION_CHARS)  # a section whose heading names what is asked: its text, to the next heading
    # "… including:" over headed groups of items ("### Technology", "- …"): the headings belong to the list
    grouped = introduces and bool(after) and after[0].heading and leads_in(window.parts[-1])
    for n, unit in enumerate(after):
        group = grouped and unit.heading and (not added or is_item(text, added[-1])) \
            and n + 1 < len(after) and is_item(text, after[n + 1])  # a group's heading: items follow it
        # a heading right after the passage repeating its title (a page printed from the web: its title, then as a
        # heading) opens the same section: read on through it, as under a section's heading
        repeated = unit.heading and not group and not added \
            and bare_title(unit.text) in {bare_title(part) for part in window.parts}
        if repeated:
            chars = max(chars, SECTION_CHARS)
        over = sum(len(u.text) for u in added) + len(unit.text) > chars
        if (unit.heading and not group and not repeated) or over \
                or any(o.start <= unit.start < o.end or o.start < unit.end <= o.end for o in others):
            break
        if introduces and ((added and is_item(text, added[-1]) and not is_item(text, unit) and not group
                            and not HANGING_RE.search(added[-1].text))
                           or (leads_in(unit.text) and not is_item(text, unit))):
            break  # the list is over, or another begins (an item introducing sub-items is still an item)
        added.append(unit)
        end = unit.end
    if not added:
        return window
    return Window(window.start, end, window.units + len(added), window.score, window.coverage, window.matched,
                  window.typed, text[window.start:end], window.parts + tuple(u.text for u in added))


def is_item(text: str, unit) -> bool:
    """The unit is (the start of) a list item: its Markdown line starts with "- "."""
    line_start = text.rfind("\n", 0, unit.start) + 1
    return text[line_start:unit.start].lstrip().startswith("- ")


def item_continues(text: str, unit) -> bool:
    """The unit opens an indented line that is no list item: a list item's further paragraph, set under it."""
    line_start = text.rfind("\n", 0, unit.start) + 1
    before = text[line_start:unit.start]
    return before.startswith("  ") and not before.strip()


def merge(analysis: PageUnits, text: str, a: Window, b: Window) -> Window:
    """One passage covering two overlapping or adjacent ones (all the units between them)."""
    start, end = min(a.start, b.start), max(a.end, b.end)
    parts = tuple(u.text for u in analysis.units if u.start >= start and u.end <= end)
    return Window(start, end, len(parts), max(a.score, b.score), max(a.coverage, b.coverage),
                  a.matched | b.matched, a.typed or b.typed, text[start:end], parts)


def table_header(analysis: PageUnits, text: str, window: Window):
    """The header row of the table a passage quotes rows of (the first of the "a | b | c" lines
    around it), when the passage does not hold it; else None."""
    lines = text.split("\n")
    first = next((u for u in analysis.units if u.start >= window.start), None)
    if first is None or " | " not in lines[first.line]:
        return None
    top = first.line
    line = top - 1
    while line >= 0:
        if not lines[line].strip():
            line -= 1
            continue
        if " | " not in lines[line]:
            break
        top = line
        line -= 1
    if top == first.line:
        return None
    return next((u for u in analysis.units if u.line == top), None)


def with_table_headers(chosen: list[tuple[int, Window]], page_of: PageOf) -> list[tuple[int, Window]]:
    """Each quoted run of table rows gets its table's header row (which names the columns), quoted
    as a passage of its own just before it. `page_of(page)` is that page's (analysis, text)."""
    out = list(chosen)
    for page, window in chosen:
        header = table_header(*page_of(page), window)
        if header is None or any(p == page and w.start <= header.start < w.end for p, w in out):
            continue
        out.append((page, Window(header.start, header.end, 1, 0.0, 0.0, frozenset(), False, header.text,
                                 (header.text,))))
    return out


def close_gaps(chosen: list[tuple[int, Window]], page_of: PageOf) -> list[tuple[int, Window]]:
    """Passages of one page with at most GAP_UNITS units between them become one passage (the row
    between two quoted rows of a table, the sentence between two quoted sentences), in the place of the
    better one. `page_of(page)` is that page's (analysis, text)."""
    chosen = list(chosen)
    merged = True
    while merged:
        merged = False
        for i, (page, a) in enumerate(chosen):
            for j in range(i + 1, len(chosen)):
                other_page, b = chosen[j]
                if other_page != page:
                    continue
                first, second = (a, b) if a.start <= b.start else (b, a)
                analysis, text = page_of(page)
                between = [u for u in analysis.units if u.start >= first.end and u.end <= second.start]
                if len(between) <= GAP_UNITS and sum(len(u.text) for u in between) <= GAP_CHARS \
                        and not any(u.heading for u in between):
                    chosen[i] = (page, merge(analysis, text, a, b))
                    del chosen[j]
                    merged = True
                    break
            if merged:
                break
    return chosen


def runs_over(analysis: PageUnits, text: str, window: Window) -> bool:
    """Whether a passage ends with its page's last unit and that unit goes on over the page break: a sentence
    cut off without closing punctuation, or a "…:" line whose list follows on the next page (a heading or a
    table row goes on with nothing; the notes at the page's foot are passed over: `body_end`)."""
    last_index = body_end(analysis)
    if last_index is None:
        return False
    last = analysis.units[last_index]
    if last.end != window.end or last.heading:
        return False
    line = text.split("\n")[last.line]
    if "|" in line:
        return False
    body = last.text.rstrip()
    return leads_in(body) or not body.endswith(CLOSED) or ends_list(analysis, text, window)


def ends_list(analysis: PageUnits, text: str, window: Window) -> bool:
    """Whether a passage ends in a run of list items (two or more) with its page's last unit: the list may go on
    over the page break."""
    inside = [u for u in analysis.units if window.start <= u.start and u.end <= window.end]
    last = body_end(analysis)
    return bool(inside) and last is not None and inside[-1] is analysis.units[last] \
        and sum(is_item(text, u) for u in inside) >= 2 and is_item(text, inside[-1])


def body_end(analysis: PageUnits) -> int | None:
    """The index of a page's last unit that is no note: its text ends there, the footnotes under it aside (a
    sentence the page break cuts goes on on the next page, past them); None for a page of notes only."""
    return next((i for i in reversed(range(len(analysis.units))) if i not in analysis.notes), None)


CLOSED = (".", "!", "?", ";", ")", "]", "\"", "”", "’", "'", "…")
CARRY_CHARS = 600  # what a passage running over its page break reads on the next page, at most


def carried(analysis: PageUnits, text: str, introduces: bool, chars: int = CARRY_CHARS,
            items: bool = False) -> Window | None:
    """The opening of the next page that goes on with a passage running over the page break (`runs_over`):
    its first unit when it opens in lower case and is no table row (the rest of the cut sentence), or, after a "…:"
    line (`introduces`), its units up to `chars` characters, to the first heading, or, after a run of list items
    (`items`), the list items it opens with, as far; None when the page opens with a heading, with no list item
    after items, or has no units."""
    found = analysis.units
    introduces = introduces or (items and bool(found) and is_item(text, found[0]))  # a list going on: as after "…:"
    if not found or found[0].heading or not (introduces or (found[0].text[:1].islower()
                                                             and "|" not in text.split("\n")[found[0].line])):
        return None  # (the rest of a cut sentence goes on in lower case, and is no table row)
    taken = [found[0]]
    if introduces:
        for unit in found[1:]:
            if unit.heading or sum(len(u.text) for u in taken) + len(unit.text) > chars \
                    or (items and unit.line != taken[-1].line and not is_item(text, unit)):
                break
            taken.append(unit)
    start, end = taken[0].start, taken[-1].end
    return Window(start, end, len(taken), 0.0, 0.0, frozenset(), False, text[start:end], tuple(u.text for u in taken))
