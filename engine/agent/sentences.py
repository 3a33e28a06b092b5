"""The concise answer: the few best sentences of the chosen passages, and one citation per page.

Sentences are picked greedily: first the one holding most of the question's weight (and the value
asked for, when one is), then more that each add question words not yet held, or the value asked for
when none holds it yet, within ANSWER_CHARS; then the room left within FILL_CHARS goes to the
sentences nearest the first one in its passage (what the passage says around it), and a sentence or two left out
between two picked ones of a page are read in (close_gaps; not for a list, whose items need the room). A sentence that
opens by pointing back ("It…", "This…") brings the sentence before it; one that introduces a list
("…:") brings the list's items that follow it in its passage (a label in a long table row cut into
pieces, "Impact • …", the pieces after it in its row: engine.agent.pieces); a question the page asks
brings its answer (the sentences after it in their paragraph, up to the next question); a table's header
row picked alone brings the rows under it when no picked sentence holds the value asked for; a sentence the page
break cuts brings its rest from the next page, or its start from the page before. A question for the most or the
least of something weighs the row holding its table's extreme value (engine.agent.extremes). The page's citation
quotes exactly the sentences used from it.
"""

from __future__ import annotations

import math
import itertools
import re
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace

from engine.agent.extremes import direction, extremes_over, pages_around
from engine.index.focus import asks_for_list
from engine.agent.lists import COUNTS, LABEL_END, NUMBERED_LINE_RE, counted_back, is_label_line, item_runs, \
    lead_units, run_of
from engine.agent.passages import ANAPHOR_RE, CLOSED, body_end, is_item, item_continues
from engine.agent.rows import as_labels, cell_texts, definitions, first_row_of_data, is_row, labelled, lent_stems, \
    named_table, row_nearness, sentence_cell
from engine.agent.support import VALUE_KINDS, asked_kind, sentence_nearness, value_parts
from engine.agent.values import holds_value, new_values
from engine.readers.headings import CAPTION_RE
from engine.readers.sentences import sentence_goes_on
from engine.index.evidence import NAME_RE, NOTE_WEIGHT, NUMBER_WORDS, POSED_WEIGHT, PageUnits, Window, answer_type, \
    asked_definition, defines, expanded, expansion_weights, note_weight, question_parts, readable
from engine.markdown import NEST_INDENT, is_heading, list_depth
from engine.text import LETTER_WORD_RE, fix_ligatures, leads_in, sentence_spans, tokenize, words

MAX_SENTENCES = 8
ANSWER_CHARS = 750  # later sentences are taken while the answer stays within this length
LIST_PICK_CHARS = 1100  # … this length when the question asks for several things
# the items a picked "…:" line, label or count of things ("three refinements") brings with it, up to this length
LIST_ANSWER_CHARS = 600
LONG_CHARS = 250  # a longer sentence counts its words at sqrt(LONG_CHARS / length): a run-on footnote is no answer
TYPE_BONUS = 0.15  # a sentence holding a value of the kind asked for that the answer does not hold yet
VALUE_SHARE = 0.5  # … plus this share of the question's weight it holds
PHRASE_BONUS = 0.3  # … holding all of the question's adjacent word pairs (as windows are scored)
FOLLOW_BONUS = 0.1  # a sentence that goes on from a picked one in its passage
RANK_BONUS = 0.05  # a sentence of the best passage, less for later ones
# a new value standing right beside what the question asks about ("63 enforcement actions", the row "Net income |
# 40.1"), less the farther apart (engine.agent.support.sentence_nearness, engine.agent.rows.row_nearness)
NEAR_BONUS = 0.2
# the row holding its table's largest (smallest) value, for a question asking for the most (least): this weight
# of the question's words it holds with its table's caption and header row (engine.agent.extremes)
EXTREME_BONUS = 1.0
# a sentence that goes on counting ("First, …", "Second, …", "(2) …") after a picked one
ORDINAL_RE = re.compile(r"(?:The (?:first|second|third|fourth|last)|(?:First|Second|Third|Fourth|Fifth)ly|"
                        r"First|Second|Third|Fourth|Fifth|Sixth|Seventh|Finally|Lastly|Next|Also|In addition|"
                        r"\(?\d{1,2}[.)]|\(?[a-h][.)]|\(?(?:i|ii|iii|iv|v|vi|vii)[.)])(?=[\s,])")
# an ordinal that starts a count ("First, …", "1.", "(a)", "(i)"): a later one ("(3) Net of …", a table's third
# note) goes on with a count started before it, and brings no further items of its own
FIRST_RE = re.compile(r"(?:The first|Firstly|First|\(?1[.)]|\(?a[.)]|\(?i[.)])(?=[\s,])")
COUNT_RE = re.compile(rf"\b(?:\d|{NUMBER_WORDS})\s+(?:\w+\s+){{0,2}}?\w+s\b", re.I)  # "four key ways", "3 steps"
HEADINGS = True  # a heading may be picked as the label of what follows it when no value is asked for
COUNT_LOOKAHEAD = 8  # units after a count of things searched for the sentences going on with it
LABEL_WORDS = 6  # a line this short, without a full stop, that heads what follows ("Impact", "Mitigation options")
# the first sentence holds the value asked for when one that does holds this share of the best one's words
VALUE_FIRST = 0.5
BESIDE_UNITS = 4  # the room an answer leaves goes to sentences this close to its best one, nearest first …
RUN_ON_WORDS = 8  # a sentence the page break cuts, read on into the next page, has this many words before the break
FILL_CHARS = 650  # … while the picked sentences stay within this length
# units of a page left out between two of the answer's (at most this many in a row) are read in too, while the answer
# stays within GAP_CHARS: the passage quoted as it runs, not with a sentence or two cut out of it
GAP_UNITS = 2
GAP_CHARS = 900
ENUM_CHARS = 800  # the leads of an enumeration's items a question asking for them gets, up to this length
NAMED_ITEM_CHARS = 400  # an item the question singles out (`singled_out`) is given whole up to this length
WHOLE_ITEMS_CHARS = 400  # … whole items (leads and explanations), when they all fit within this length
CLAUSE_END_RE = re.compile(r"[,;:]\s|\s[(\[—–]")  # where a clause ends: before a comma, semicolon, bracket or dash
CLAUSE_WORDS = 4  # … after this many words at the least (an item's first clause stands for it)
ANSWER_RUN_CHARS = 400  # a question the page asks brings the rest of its answer's paragraph up to this length
FRAME_WORDS = 6  # the opening words two sentences set in one frame share (all but two)
PARALLEL_UNITS = 6  # sentences on either side of a picked one read for its frame
CONTINUATION_ROWS = 8  # rows with an empty first cell under a picked row that go on with it
AXIS_TICKS = 3  # lines of figures alone, one after another, that are a chart's value axis
LEAD_IN_UNITS = 10  # units after a "…:" line ending its passage that may be its items
ELISION = " … "  # between sentences of one page that are not next to each other in its text


@dataclass(frozen=True)
class Sentence:
    """A unit of a page that may go into the answer (a sentence, list item, table row)."""

    page: int
    index: int  # the unit's position among the page's units
    start: int
    end: int
    text: str
    line: int
    stems: frozenset[str]
    pairs: frozenset[str]  # its adjacent word pairs
    typed: bool  # holds a value of a kind the question asks for
    rank: int  # of the passage it comes from (0 = best)
    header: int | None = None  # a table row: its table's header row (whose column names count as its words)
    kinds: frozenset[str] = frozenset()  # the kinds of value asked for that it holds
    own: frozenset[str] | None = None  # a table row's own stems (without its header row's), else None
    values: frozenset[tuple[str, str]] = frozenset()  # the values of the asked kinds it states (values_of)
    near: float = 0.0  # how close a value asked for stands to what is asked about in it (0 to 1)
    heading: bool = False
    note: bool = False  # a footnote or reference-list entry (PageUnits.notes)
    posed: bool = False  # a question put to the reader (PageUnits.posed)
    # a table row holding its table's extreme value when the question asks for the most or least of something
    # (engine.agent.extremes): the stems of its table's caption and header row, else None
    extreme: frozenset[str] | None = None


def candidates(chosen: list[tuple[int, Window]], page_of, kinds: tuple[str, ...], question: str,
               names: frozenset[str] = frozenset()) -> list[Sentence]:
    """The units of the chosen passages, each once (headings only when they hold the value asked for, as
    a slide's large figure does); a table row also holds its header row's words and the meanings the page
    gives the terms it carries. `page_of(page)` gives that page's (analysis, text); `names`: the words that
    name the document (never what a question asks about)."""
    parts = [(frozenset(focus), kind) for focus, kind in value_parts(question, names)]
    sign = direction(question)
    found: dict[tuple[int, int], Sentence] = {}
    # page -> its tables' extreme rows by line (a table over a page break read whole, with the pages before a chosen
    # one that it may go on from)
    read = sorted({near for page, _ in chosen for near in pages_around(page, page)}) if sign else []
    extremes_of = extremes_over([(page, page_of(page)[1]) for page in read], sign, question)
    for rank, (page, window) in enumerate(chosen):
        analysis, text = page_of(page)
        lines = text.split("\n")
        extremes = extremes_of.get(page, {})
        seen = {u.line for u in analysis.units if window.start <= u.start and u.end <= window.end}
        defined: dict[str, frozenset[str]] | None = None
        for i, unit in enumerate(analysis.units):
            if (page, i) in found:
                continue
            if unit.start < window.start or unit.end > window.end:  # (a table's extreme row joins any part of it)
                extreme = extremes.get(unit.line)
                if extreme is None or not any(extreme.table[0] <= line <= extreme.table[1] for line in seen):
                    continue
            note = i in analysis.notes
            value_text = analysis.value_text(i)  # (a note's marker, "12 See …", is no value)
            held = frozenset(k for k in kinds if holds_value(k, value_text, question))
            if unit.heading and not held and (kinds or not HEADINGS):  # a heading when it states the value, or
                continue  # as a label of what follows when no value is asked for
            header = table_header_of(analysis, text, i)
            own = analysis.stems[i]
            row = is_row(lines[unit.line])
            if row:
                defined = definitions(analysis) if defined is None else defined
                own = own | lent_stems(unit.text, defined)
            near = max((max(sentence_nearness(value_text, focus, kind, question),
                            row_nearness(unit.text, focus, kind, question, defined or {}) if row else 0.0)
                        for focus, kind in parts), default=0.0)
            stems = own | (analysis.stems[header] if header is not None else frozenset())
            found[(page, i)] = Sentence(page, i, unit.start, unit.end, unit.text, unit.line, stems,
                                        analysis.pairs[i], bool(held), rank, header, held,
                                        own if header is not None else None,
                                        values_of(held, value_text, question), near, unit.heading, note,
                                        i in analysis.posed,
                                        extremes[unit.line].context if unit.line in extremes else None)
    return list(found.values())


def table_header_of(analysis: PageUnits, text: str, index: int) -> int | None:
    """The index of the header row (the first "a | b" line of the run of table lines) of the table the
    unit `index` is a row of; None for a unit that is no table row, is the header itself, or whose table's first
    row is data like it (rows.first_row_of_data)."""
    lines = text.split("\n")
    line = analysis.units[index].line
    if not is_row(lines[line]):
        return None
    top = line
    while top > 0 and (not lines[top - 1].strip() or "|" in lines[top - 1]):
        top -= 1
    while top < line and "|" not in lines[top]:
        top += 1
    if top == line or first_row_of_data(lines[top], lines[line]) \
            or any(sentence_cell(cell) for cell in cell_texts(lines[top])):
        return None  # (a first row holding a sentence is data: a glossary's first entry, no column's name)
    return next((j for j, u in enumerate(analysis.units) if u.line == top), None)


def pick(pool: list[Sentence], weights: dict[str, float], kinds: tuple[str, ...],
         phrases: frozenset[str] = frozenset(), budget: int = ANSWER_CHARS,
         notes: float = NOTE_WEIGHT, naming: frozenset[str] = frozenset(),
         first: list[Sentence] | None = None) -> list[Sentence]:
    """The greedy choice of the module docstring (without the sentences each one brings along); a note's
    score counts `notes` of itself (1.0 when the question asks for notes); no unit that only names the document
    (`names_only`); the first one picked from `first` when given."""
    total = sum(weights.values()) or 1.0
    picked: list[Sentence] = []
    held: set[str] = set()
    held_pairs: set[str] = set()
    chars = 0

    def damp(s: Sentence) -> float:
        return min(1.0, math.sqrt(LONG_CHARS / max(1, len(s.text))))

    def share(s: Sentence) -> float:
        return damp(s) * sum(w for t, w in weights.items() if t in s.stems) / total

    overall_best = max((share(s) for s in pool), default=0.0)
    typed_best = max((share(s) for s in pool if s.typed), default=0.0)
    while len(picked) < MAX_SENTENCES:
        values = {v for s in picked for v in s.values}
        after = {(s.page, s.index + 1) for s in picked}
        best, best_score = None, 0.0
        for s in pool:
            if s in picked or (picked and chars + len(s.text) > budget) or names_only(s, naming):
                continue
            overlap = share(s)
            # a further row needs words of the question of its own (its header's are every row's)
            own = overlap if s.own is None else damp(s) * sum(w for t, w in weights.items() if t in s.own) / total
            gain = damp(s) * sum(w for t, w in weights.items() if t in s.stems and t not in held) / total
            pairs = len((s.pairs & phrases) - held_pairs) / max(1, len(phrases))
            value = bool(s.values - values)
            # (the next row of a table goes on with nothing; a glossary's next row is another term's entry)
            follows = (s.page, s.index) in after and s.own is None \
                and not (kinds == ("definition",) and is_row(s.text))
            # (a sentence holding words of the question side by side as it writes them, which no picked one holds so,
            # adds what they say together: "… support stylistic sets" after "applications that support … a set of …")
            if picked and gain <= 0 and not pairs and not (value and own > 0) \
                    and not (follows and (own > 0 or value)) and s.extreme is None:
                continue
            if not picked and kinds and not s.typed and s.extreme is None and typed_best >= VALUE_FIRST * overall_best:
                continue
            if not picked and first and s not in first:
                continue  # (a sentence defining the very term asked about opens the answer to what it is)
            score = gain + PHRASE_BONUS * pairs \
                + (TYPE_BONUS + VALUE_SHARE * overlap + NEAR_BONUS * s.near if value else 0.0) \
                + (FOLLOW_BONUS if follows else 0.0) + RANK_BONUS / (1 + s.rank) \
                + (0.001 if s.header is not None else 0.0) \
                + (EXTREME_BONUS * damp(s) * sum(w for t, w in weights.items() if t in s.stems | s.extreme) / total
                   if s.extreme is not None and not any(x.extreme is not None for x in picked) else 0.0)
            if s.note and not value:  # (a note stating a value asked for is as good evidence as the text)
                score *= notes
            if s.posed:  # a question put to the reader asks; it does not state (as windows weigh it)
                score *= POSED_WEIGHT
            if best is None or score > best_score:
                best, best_score = s, score
        if best is None:
            break
        picked.append(best)
        held |= best.stems
        held_pairs |= best.pairs & phrases
        chars += len(best.text)
    return picked


def names_only(s: Sentence, naming: frozenset[str]) -> bool:
    """Whether every word of a unit is a word of the question that names the document (`naming`: the title set on
    its title page, which a question quoting the title repeats): it says nothing the question and the answer's
    citation do not."""
    return bool(naming) and s.stems <= naming


def fill(picked: list[Sentence], pool: list[Sentence], budget: int = FILL_CHARS,
         naming: frozenset[str] = frozenset()) -> list[Sentence]:
    """The picked sentences and, in the room left within `budget` characters, the sentences of the pool nearest
    the first picked one in its passage (at most BESIDE_UNITS units away; no table row), the later one first on a
    tie: what the passage says around the answer's best sentence."""
    if not picked:
        return picked
    first = picked[0]
    out = list(picked)
    room = budget - sum(len(s.text) for s in picked)
    by_key = {(s.page, s.index): s for s in pool}
    near = sorted((s for s in pool if s not in picked and s.own is None and not is_row(s.text) and not s.heading
                   and not on_axis(s, by_key)
                   and not s.note and not names_only(s, naming) and s.page == first.page
                   and s.rank == first.rank and abs(s.index - first.index) <= BESIDE_UNITS),
                  key=lambda s: (abs(s.index - first.index), -s.index))
    for s in near:
        if len(out) >= MAX_SENTENCES:
            break
        if len(s.text) <= room:
            out.append(s)
            room -= len(s.text)
    return out


def close_gaps(sentences: list[Sentence], pool: list[Sentence], budget: int = GAP_CHARS) -> list[Sentence]:
    """The sentences and the units of the pool that stand between two of them on one page, at most GAP_UNITS in a
    row (no heading, no table row), the shortest gaps first, while the whole stays within `budget` characters."""
    by_key = {(s.page, s.index): s for s in pool}
    keys = sorted({(s.page, s.index) for s in sentences})
    gaps = []
    for (page, a), (other, b) in itertools.pairwise(keys):
        if page != other or not 0 < b - a - 1 <= GAP_UNITS:
            continue
        between = [by_key.get((page, i)) for i in range(a + 1, b)]
        if all(s is not None and not s.heading and s.own is None and not is_row(s.text) for s in between):
            gaps.append([s for s in between if s is not None])
    out = list(sentences)
    chars = sum(len(s.text) for s in out)
    for gap in sorted(gaps, key=lambda gap: sum(len(s.text) for s in gap)):
        size = sum(len(s.text) for s in gap)
        if chars + size <= budget:
            out += gap
            chars += size
    return out


def values_of(kinds: frozenset[str], text: str, question: str) -> frozenset[tuple[str, str]]:
    """The values of the asked kinds a text states: (kind, the number, date or name) that the question does
    not state itself; (kind, the text) for a reason, since each sentence giving one gives its own (a change
    explained part by part: "… due to: …", "The decrease in international … was due to …"); (kind, "") for a
    definition (a second one adds no value)."""
    found: list[tuple[str, str]] = []
    for kind in kinds:
        if kind == "name":
            found += [(kind, m.group(0)) for m in NAME_RE.finditer(text) if m.group(0) not in question]
        elif kind == "expansion":
            found += [(kind, acronym) for acronym in expanded(text, question)]
        elif kind in ("number", "date"):
            found += [(kind, m.group(0)) for m in new_values(kind, text, question)]
        elif kind == "reason":
            found.append((kind, " ".join(text.split())))
        else:
            found.append((kind, ""))
    return frozenset(found)


def with_context(picked: list[Sentence], pool: list[Sentence], page_of, listing: bool = False,
                 weights: dict[str, float] | None = None, leading: Sentence | None = None) -> list[Sentence]:
    """The picked sentences with what they need to be read: the sentence before one that points back; the items after
    one that introduces a list ("…:", a short label line, or the best one when the question asks for a list; not a
    table's rows when a picked row states the amount or date asked for: a caption over the table is no list's lead-
    in then; a "…:" line's items also past the end of its passage); the sentences that go on counting ("Second, …")
    after one that counts things ("three refinements") or starts the count; a table row's header row, and a header
    row's rows when none of them is picked and no picked sentence holds the value asked for (when one does, a header
    row without its rows is left out: filler); the rest of a sentence the page break cuts, either way. All within
    the chosen passages (a header row, and a sentence's start on the page before, also outside them), within
    ANSWER_CHARS + LIST_ANSWER_CHARS in all; in page order within each page, the pages in the order of their passages'
    ranks, `leading`'s page first (a sentence defining the very term asked about)."""
    by_key = {(s.page, s.index): s for s in pool}
    out = {(s.page, s.index): s for s in picked}
    room = ANSWER_CHARS + LIST_ANSWER_CHARS - sum(len(s.text) for s in picked)

    def add(s: Sentence) -> bool:
        nonlocal room
        if (s.page, s.index) in out:
            return True
        if len(s.text) > room:
            return False
        out[(s.page, s.index)] = s
        room -= len(s.text)
        return True

    done: set[tuple[int, int]] = set()  # units of an enumeration already given as its lead-in and leads
    valued = any(s.typed for s in picked)  # a picked sentence holds a value of the kind asked for
    counted = any(s.header is not None and s.kinds & set(VALUE_KINDS) for s in picked)  # … a table row, an amount
    # the numbered labels, as many as it counts, that a picked lead-in leads into (each over paragraphs of its own,
    # which a run of list items would end with the first)
    listed = next((found for s in picked if (found := counted_labels(s, page_of)) is not None), None) \
        if listing else None
    if listing and listed is None:
        listed = next((found for s in picked if (found := enumeration(s, page_of, set(weights or ()), read_on=True))
                       is not None), None)
    if listing and listed is None:  # … or the items a picked sentence counts back ("these 5 important parts")
        listed = next((found for s in picked if (found := counted_list(s, page_of, set(weights or ()))) is not None),
                      None)
    if listed is not None:  # the run's leads replace the explanations of its items that were picked
        lead_in, leads, explained = listed
        done = {(x.page, x.index) for x in [lead_in, *leads]} | explained
        out = {key: x for key, x in out.items() if key not in explained}
        room = ANSWER_CHARS + LIST_ANSWER_CHARS - sum(len(x.text) for key, x in out.items() if key not in done)
        out.update({(x.page, x.index): x for x in [lead_in, *leads]})  # the leads have their own room
    for s in picked:
        if (s.page, s.index) not in out:
            continue  # an item's explanation its lead stands for
        before = by_key.get((s.page, s.index - 1))
        if ANAPHOR_RE.match(s.text) and before is not None and before.line == s.line:
            add(before)
        over = following((s.page, s.index), by_key, page_of)
        if over[0] != s.page and over in by_key and not s.text.rstrip().endswith((*CLOSED, ":")):
            add(by_key[over])  # a sentence the page break cuts off: its rest opens the next page
        else:
            rest = page_rest_of(s, page_of)
            if rest is not None and not add(rest):  # (… also where notes the reader did not tell apart stand between)
                add(first_sentence(rest, page_of))  # (a unit too long for the room: the cut sentence's rest alone)
        opening = page_opening_of(s, page_of)
        if opening is not None:
            add(opening)  # … and the other way: a page's opening picked, the sentence's start ends the page before
        after = by_key.get((s.page, s.index + 1))
        if s.text.rstrip().endswith("?") and after is not None and not after.text.rstrip().endswith("?"):
            add(after)  # a question the page asks (a FAQ's): its answer follows it, on to the end of its paragraph
            chars = len(after.text)
            for i in itertools.count(s.index + 2):
                nxt = by_key.get((s.page, i))
                if nxt is None or nxt.line != after.line or nxt.text.rstrip().endswith("?") \
                        or chars + len(nxt.text) > ANSWER_RUN_CHARS or not add(nxt):
                    break
                chars += len(nxt.text)
        if s.header is not None and (s.page, s.header) not in out:
            add(header_sentence(s, page_of))
        analysis, text = page_of(s.page)
        # a table's header row alone gives no value: when no picked sentence holds the value asked for, the rows
        # under it (within the passages) follow it
        for row in rows_under(s, analysis, text, by_key, out) if not valued else []:
            if not add(row):
                break
        for nxt in continuation_rows(s, by_key, text.split("\n")):  # a row the reader split over several lines
            if not add(nxt):
                break
        if (s.page, s.index) in done:
            continue  # its list is given already
        cell_label = is_cell_label(s, by_key.get((s.page, s.index + 1)), text)
        if leads_in(s.text) or is_label(s, text) or cell_label or (listing and s is picked[0]):
            chars, key = 0, following((s.page, s.index), by_key, page_of)  # (on to the next page's opening)
            if key[0] == s.page and leads_in(s.text):  # the passage ends at the lead-in or within its items:
                for i in range(key[1], min(len(analysis.units), key[1] + LEAD_IN_UNITS)):  # they come from the page
                    if analysis.units[i].heading or i in analysis.notes:  # all the same, up to the next heading or
                        break  # note (a picked "…:" line is not left without its items)
                    by_key.setdefault((s.page, i), unit_sentence(s.page, i, page_of, s.rank))
            bulleted = key in by_key and is_item(page_of(key[0])[1], by_key[key])  # then the list ends with its items
            if bulleted and weights:  # a list of lists ("- Q2 Fiscal 2025:", "- Fiscal Year 2025:"): the sub-list
                for item in best_group(s, by_key, text, weights):  # whose label holds most of the question first
                    if chars + len(item.text) > LIST_ANSWER_CHARS or not add(item):
                        break
                    chars += len(item.text)
            while key in by_key and key not in done \
                    and not (counted and by_key[key].header is not None) \
                    and chars + len(by_key[key].text) <= LIST_ANSWER_CHARS \
                    and (not cell_label or (key[0] == s.page and by_key[key].line == s.line)):
                nxt, nxt_text = by_key[key], page_of(key[0])[1]
                further = bulleted and not is_item(nxt_text, nxt)  # (no item of the list: it has ended, unless this
                if further and not item_continues(nxt_text, nxt):  # is an item's indented further paragraph, passed
                    break  # over while the list goes on after it)
                if not further and not on_axis(nxt, by_key):  # (a chart's axis numbers say nothing alone)
                    if not add(nxt):
                        break
                    chars += len(nxt.text)
                key = following(key, by_key, page_of)
        if COUNT_RE.search(s.text) or FIRST_RE.match(s.text):
            chars = 0
            for i in range(s.index + 1, s.index + 1 + COUNT_LOOKAHEAD):
                nxt = by_key.get((s.page, i))
                if nxt is None:
                    break
                if (nxt.page, nxt.index) in done:
                    break  # an enumeration's, given already
                if ORDINAL_RE.match(nxt.text):
                    if chars + len(nxt.text) > LIST_ANSWER_CHARS or not add(nxt):
                        break
                    chars += len(nxt.text)
        chars = 0
        for step in (1, -1):  # sentences set in the same frame beside it ("The XX pattern is used for …", "The IK
            for i in range(s.index + step, s.index + step * (PARALLEL_UNITS + 1), step):  # pattern is used for …")
                nxt = by_key.get((s.page, i))
                if nxt is None or nxt.heading or not parallel(s.text, nxt.text):
                    break
                if (nxt.page, nxt.index) in out:
                    continue  # (picked already: its room is the answer's)
                if chars + len(nxt.text) > LIST_ANSWER_CHARS or not add(nxt):
                    break
                chars += len(nxt.text)
    if valued:  # a header row with none of its rows, beside an answer that states the value: filler (unless it
        kept = {}  # defines the term asked about itself: a glossary's first entry, "split tunneling | The process …")
        for key, x in out.items():
            analysis, text = page_of(x.page)
            if "definition" in x.kinds or not rows_under(x, analysis, text, by_key, out):
                kept[key] = x
        out = kept
    first_rank: dict[int, int] = {}
    for s in out.values():
        first_rank[s.page] = min(first_rank.get(s.page, s.rank), s.rank)
    if leading is not None and leading.page in first_rank:
        first_rank[leading.page] = min(first_rank.values()) - 1
    for s in sorted(out.values(), key=lambda s: s.page):  # a next page's opening read on to follows its page
        if s.index == 0 and s.page - 1 in first_rank:
            first_rank[s.page] = min(first_rank[s.page], first_rank[s.page - 1])
    return sorted(out.values(), key=lambda s: (first_rank[s.page], s.page, s.start))


def figures_only(s: Sentence) -> bool:
    """A unit of figures alone ("50%", "$100"), no table row: a chart's axis tick, or a slide's big number."""
    return not LETTER_WORD_RE.search(s.text) and not is_row(s.text)


def on_axis(s: Sentence, by_key: dict[tuple[int, int], Sentence]) -> bool:
    """A line of figures alone among AXIS_TICKS or more such lines one after another (a chart's value axis, "50%",
    "25%", "0%", set between its caption and its table); a figure alone (a slide's "45%" under its label) is not."""
    if not figures_only(s):
        return False
    run = 1
    for step in (1, -1):
        i = s.index + step
        while (s.page, i) in by_key and figures_only(by_key[(s.page, i)]) \
                and by_key[(s.page, i)].line != by_key[(s.page, i - step)].line:
            run += 1
            i += step
    return run >= AXIS_TICKS


def page_opening_of(s: Sentence, page_of) -> Sentence | None:
    """When `s` opens its page with the rest of a sentence the page break cut ("written agreements, prompt corrective
    action directives, …"): the start of that sentence, the last unit of the page before (its notes and headings
    passed over), as a sentence of the answer; else None. Not for table rows."""
    if s.index != 0 or s.page <= 1 or not s.text[:1].islower():
        return None
    _, text = page_of(s.page)
    if is_row(text.split("\n")[s.line]):
        return None
    before, earlier = page_of(s.page - 1)
    last = next((i for i in reversed(range(len(before.units)))
                 if i not in before.notes and not before.units[i].heading), None)
    if last is None or is_row(earlier.split("\n")[before.units[last].line]) \
            or not sentence_goes_on(before.units[last].text, s.text):
        return None
    return unit_sentence(s.page - 1, last, page_of, s.rank)


def page_rest_of(s: Sentence, page_of) -> Sentence | None:
    """When `s` ends its paragraph with a sentence the page break cut ("… investor harm that can result from the"):
    the rest of that sentence, the first unit of the next page, as a sentence of the answer (the counterpart of
    `page_opening_of`); else None. Not for table rows or headings."""
    cut = s.text.rstrip()
    if not cut[-1:].islower() or len(cut.split()) < RUN_ON_WORDS:
        return None  # (prose cut off mid-sentence, on a word in lower case: not a label, a code line or a citation)
    analysis, text = page_of(s.page)
    lines = text.split("\n")
    nxt = analysis.units[s.index + 1] if s.index + 1 < len(analysis.units) else None
    if nxt is not None and (nxt.line == s.line or is_row(lines[nxt.line]) or sentence_goes_on(s.text, nxt.text)):
        return None  # (the sentence goes on on its page; a table's title line over its rows)
    if s.index in analysis.notes or is_row(lines[s.line]) or is_heading(lines[s.line]) or CAPTION_RE.match(cut):
        return None  # (a note or a caption at the page's foot does not go on with the next page's text)
    try:
        after, later = page_of(s.page + 1)
    except LookupError:
        return None  # (the document's last page)
    if not after.units or after.units[0].heading or is_row(later.split("\n")[after.units[0].line]) \
            or not after.units[0].text[:1].islower() or not sentence_goes_on(s.text, after.units[0].text):
        return None
    return unit_sentence(s.page + 1, 0, page_of, s.rank)


def first_sentence(s: Sentence, page_of) -> Sentence:
    """The unit's first sentence: a unit runs on past a note's number after a full stop ("standard.45 In …")."""
    _, text = page_of(s.page)
    end = sentence_spans(text[s.start:s.end])[0][1]
    return replace(s, text=text[s.start:s.start + end], end=s.start + end)


def following(key: tuple[int, int], by_key: dict[tuple[int, int], Sentence], page_of) -> tuple[int, int]:
    """The key of the unit after `key`: the next unit of its page, or after its page's last unit (its footnotes
    aside: engine.agent.passages.body_end) the next page's first when that is in the pool (a passage read on over
    the page break: engine.agent.passages.carried)."""
    page, index = key
    if (page, index + 1) not in by_key and (page + 1, 0) in by_key and index == body_end(page_of(page)[0]):
        return (page + 1, 0)  # (the notes at the page's foot passed over)
    return (page, index + 1)


def parallel(a: str, b: str) -> bool:
    """Whether two sentences open in the same frame: of their first FRAME_WORDS words, all but one or two
    the same in the same places ("Integrity is focused on ensuring that …", "Resilience is focused on ensuring
    that …")."""
    x, y = words(a)[:FRAME_WORDS], words(b)[:FRAME_WORDS]
    if len(x) < FRAME_WORDS or len(y) < FRAME_WORDS:
        return False
    return sum(p == q for p, q in zip(x, y)) >= FRAME_WORDS - 2


def best_group(s: Sentence, by_key: dict[tuple[int, int], Sentence], text: str,
               weights: dict[str, float]) -> list[Sentence]:
    """Of the list after the "…:" line `s`, when its items are themselves lists under labels ending in ":", the
    label holding most of the question's weight that `s` does not hold, and its items; [] when the list has fewer
    than two labelled sub-lists or no label holds such weight."""
    items: list[Sentence] = []
    for i in itertools.count(s.index + 1):
        nxt = by_key.get((s.page, i))
        if nxt is None or not is_item(text, nxt):
            break
        items.append(nxt)
    labels = [n for n, item in enumerate(items) if item.text.rstrip().endswith(":")]
    if len(labels) < 2:
        return []

    def weight(item: Sentence) -> float:
        return sum(w for t, w in weights.items() if t in item.stems and t not in s.stems)

    best = max(labels, key=lambda n: (weight(items[n]), -n))
    if weight(items[best]) <= 0:
        return []
    end = next((n for n in labels if n > best), len(items))
    return items[best:end]


def rows_under(s: Sentence, analysis: PageUnits, text: str, by_key: dict[tuple[int, int], Sentence],
               out: dict[tuple[int, int], Sentence]) -> list[Sentence]:
    """When `s` is a table's header row proper (engine.agent.rows.named_table: a "| --- |" line under it, names over
    the rows) and none of the rows under it is in `out`: those rows among `by_key`, in order, up to
    LIST_ANSWER_CHARS; else []."""
    lines = text.split("\n")
    if not is_row(lines[s.line]) or table_header_of(analysis, text, s.index) is not None \
            or not named_table(lines, s.line):
        return []
    under = [by_key[(s.page, j)] for j in range(s.index + 1, len(analysis.units))
             if (s.page, j) in by_key and table_header_of(analysis, text, j) == s.index]
    if any((x.page, x.index) in out for x in under):
        return []
    found, chars = [], 0
    for row in under:
        if chars + len(row.text) > LIST_ANSWER_CHARS:
            break
        found.append(row)
        chars += len(row.text)
    return found


def continuation_rows(s: Sentence, by_key: dict[tuple[int, int], Sentence], lines: list[str]) -> list[Sentence]:
    """The rows right under a table row whose first cell is empty, up to CONTINUATION_ROWS: the rest of a row
    whose cells wrap over several lines ("| Deliver malware by … | |", "| | Adversary places removable …")."""
    if not is_row(lines[s.line]) or not (cell_texts(lines[s.line]) or [""])[0]:
        return []
    found: list[Sentence] = []
    line = s.line
    for i in range(s.index + 1, s.index + 1 + CONTINUATION_ROWS):
        nxt = by_key.get((s.page, i))
        if nxt is None or nxt.line != line + 1 or not is_row(lines[nxt.line]) \
                or (cell_texts(lines[nxt.line]) or ["x"])[0]:
            break
        found.append(nxt)
        line = nxt.line
    return found


def enumeration(s: Sentence, page_of, asked: AbstractSet[str] = frozenset(), read_on: bool = False
                ) -> tuple[Sentence, list[Sentence], set[tuple[int, int]]] | None:
    """When a sentence leads into a run of list items or is part of one (engine.agent.lists): the run's
    lead-in sentence (the sentence itself when it is on the lead-in line, else the last of that line), the
    leads of its items in page order (within ENUM_CHARS; whole items explained in a sentence each when they all fit
    within WHOLE_ITEMS_CHARS), and the keys of the other units of those items (their explanations); None when the
    sentence is no part of a run with a lead-in. The lead-in is the last sentence of its line when that ends in ":",
    else the sentence itself when it is on that line. `read_on`: a run that goes on to its page's end (its notes
    aside) goes on with the list items the next page opens with."""
    analysis, text = page_of(s.page)
    run = run_of(item_runs(text), s.line)
    if run is None or run.lead_in is None:
        return None
    on_line = units_by_line(analysis)
    opening = on_line.get(run.lead_in, [])
    if not opening:
        return None
    last = analysis.units[opening[-1]]
    lead_in = s if s.line == run.lead_in and not leads_in(last.text) \
        else unit_sentence(s.page, opening[-1], page_of, s.rank)
    items = [ListItem(s.page, analysis, text, on_line, item, item_lead(on_line, analysis, item)) for item in run.items]
    end = body_end(analysis)
    if read_on and end is not None and analysis.units[end].line in run.lines[-1:]:
        items += opening_items(s.page + 1, page_of)
    # items each explained in one sentence or phrase (a glossary's "ATS" / "Automatic Transfer Switch.", an option and
    # what it does): when every item fits whole, each is given whole (not items explained at more length, "Why it
    # matters: …", whose leads stand for them)
    entire = [[i for line in it.lines for i in it.on_line.get(line, [])] for it in items]
    if len(items) > 1 and all(len(units) - len(it.lead) <= 1 for it, units in zip(items, entire)) \
            and sum(len(it.analysis.units[i].text) + 1 for it, units in zip(items, entire) for i in units) \
            <= WHOLE_ITEMS_CHARS:
        items = [replace(it, lead=units) for it, units in zip(items, entire)]
    # an item whose lead holds a word the question asks about that the lead-in lacks and fewer than half of the leads
    # hold ("Which zoom levels …" of a menu's entries, one of them "Zoom Level. Sets the zoom level. The levels offered
    # are …"): the question names it, and the item whole, when it is short, is the answer's part about it
    held, singled = singled_out(items, asked, lead_in)
    items = [replace(it, lead=units) if stems & singled and len(units) > len(it.lead)
             and sum(len(it.analysis.units[i].text) + 1 for i in units) <= NAMED_ITEM_CHARS else it
             for it, units, stems in zip(items, entire, held)]
    labelled = [[labelled_lead(it.analysis.units[i], it.text) if n == len(it.lead) - 1 else it.analysis.units[i].end
                 for n, i in enumerate(it.lead)] for it in items]
    whole = sum(len(it.analysis.units[i].text) + 1 for it in items for i in it.lead)
    # items that each open with a label ("Choosing crypto functions: The 25519 DH functions are …") and whose leads
    # would not all fit: each item's label stands for it
    by_label = whole > ENUM_CHARS and sum(ends[-1] != it.analysis.units[it.lead[-1]].end
                                          for ends, it in zip(labelled, items) if it.lead) * 2 >= len(items)
    # (an item holding a word singled out keeps its whole lead: "… and name the one relying on exponential backoff";
    # read again, as items given whole above hold their explanations' words too)
    held, singled = singled_out(items, asked, lead_in)
    if whole > ENUM_CHARS and not by_label:  # … else, leads that would not all fit: each item's first clause, when
        clauses = [[first_clause(it.analysis.units[i], it.text) if n == len(it.lead) - 1 else it.analysis.units[i].end
                    for n, i in enumerate(it.lead)] for it in items]  # then they all fit, an item holding a word
        for kept in (singled, set()):  # asked about whole if they still do, else cut as well (every item shown first)
            if sum((it.analysis.units[it.lead[-1]].end if stems & kept else ends[-1])
                   - it.analysis.units[it.lead[0]].start + 1
                   for it, ends, stems in zip(items, clauses, held) if it.lead) <= ENUM_CHARS:
                labelled, by_label, singled = clauses, True, kept
                break
    leads: list[Sentence] = []
    explained: set[tuple[int, int]] = set()
    chars = group = 0  # group: the units of the last lead added when it is a group's label (engine.agent.lists)
    for it, ends, stems in zip(items, labelled, held):
        if not it.lead:
            break
        picked = [s if (it.page, i) == (s.page, s.index) else unit_sentence(it.page, i, page_of, s.rank)
                  for i in it.lead]
        if by_label and not stems & singled:
            picked = [replace(p, end=end, text=it.text[p.start:end]) if end != p.end else p
                      for p, end in zip(picked, ends)]
        size = sum(len(p.text) + 1 for p in picked)
        if chars + size > ENUM_CHARS:
            break
        leads += picked
        explained |= {(it.page, i) for line in it.lines for i in it.on_line.get(line, []) if i not in it.lead}
        chars += size
        group = len(picked) if len(it.lines) == 1 and is_label_line(it.text.split("\n")[it.lines[0]]) else 0
    if leads and group:
        leads = leads[:-group]  # (a group's label whose items did not fit: none of the group)
    if not leads:
        return None
    return lead_in, leads, explained


def singled_out(items: list[ListItem], asked: AbstractSet[str], lead_in: Sentence) -> tuple[list[set[str]], set[str]]:
    """The stems of each item's lead, and the words the question asks about (`asked`) that the lead-in lacks and fewer
    than half of the items' leads hold: what singles an item out."""
    held = [set().union(*(it.analysis.stems[i] for i in it.lead)) for it in items]
    return held, {t for t in set(asked) - lead_in.stems if 2 * sum(t in h for h in held) < len(items)}


def counted_list(s: Sentence, page_of, asked: AbstractSet[str] = frozenset()
                 ) -> tuple[Sentence, list[Sentence], set[tuple[int, int]]] | None:
    """The enumeration (`enumeration`) of the items a sentence counts back, just above it (engine.agent.lists.
    counted_back: "Please attempt to include these 5 important parts" after five numbered items); None when it
    counts back no run of items."""
    analysis, text = page_of(s.page)
    run = counted_back(item_runs(text), text, s.line, s.text)
    first = units_by_line(analysis).get(run.items[0][0], []) if run is not None and run.items else []
    return enumeration(unit_sentence(s.page, first[0], page_of, s.rank), page_of, asked, read_on=True) if first \
        else None


# a numbered label on a line of its own over paragraphs of its own ("1. Client side searching", "(2) Server side
# searching"): a manual's numbered run-in heading (its number in group 1)
NUMBERED_LABEL_RE = re.compile(r"^\(?(\d{1,2})[.)]\s+[^\W\d_]")
LABEL_MAX_CHARS = 80  # … at most this long, not ending a sentence
LABEL_PAGES = 4  # pages after a lead-in's own searched for the labels it counts


def counted_labels(s: Sentence, page_of) -> tuple[Sentence, list[Sentence], set[tuple[int, int]]] | None:
    """The labels a "…:" sentence counting N things leads into ("Doxygen has 7 different ways to add searching to the
    HTML output, each of which has its own advantages and disadvantages:"), when they stand on lines of their own
    numbered 1 to N, each over paragraphs of its own, on its page and the LABEL_PAGES after it: the sentence, the
    labels in order and the keys of the units between them (their explanations, which the labels stand for); None
    when it counts nothing, or the labels are not all there, in order, before a heading."""
    count = COUNT_RE.search(s.text)
    wanted = COUNTS.get(count.group(0).split()[0].lower(), 0) if count and leads_in(s.text) else 0
    if not wanted:
        return None
    labels: list[Sentence] = []
    explained: set[tuple[int, int]] = set()
    for page in range(s.page, s.page + LABEL_PAGES + 1):
        try:
            analysis, _ = page_of(page)
        except IndexError:  # (past the document's end)
            return None
        on_line = units_by_line(analysis)
        for i, unit in enumerate(analysis.units):
            if (page == s.page and i <= s.index) or i in analysis.notes:
                continue
            label = NUMBERED_LABEL_RE.match(unit.text)
            if label and len(on_line[unit.line]) == 1 and len(unit.text) <= LABEL_MAX_CHARS \
                    and not unit.text.rstrip().endswith((".", ":")):
                if int(label.group(1)) != len(labels) + 1:
                    return None  # (numbered otherwise: not the run counted)
                labels.append(unit_sentence(page, i, page_of, s.rank))
                if len(labels) == wanted:
                    return s, labels, explained
            elif unit.heading or not labels:
                return None  # (a heading before the labels end, or anything but a label right after the lead-in)
            else:
                explained.add((page, i))
    return None


@dataclass(frozen=True)
class ListItem:
    """An item of an enumeration as `enumeration` reads it: its page (analysis, text, unit indexes by line), its
    Markdown lines and the units of its lead."""

    page: int
    analysis: PageUnits
    text: str
    on_line: dict[int, list[int]]
    lines: tuple[int, ...]
    lead: list[int]


def units_by_line(analysis: PageUnits) -> dict[int, list[int]]:
    """A page's unit indexes by the Markdown line they are on, in order."""
    on_line: dict[int, list[int]] = {}
    for i, unit in enumerate(analysis.units):
        on_line.setdefault(unit.line, []).append(i)
    return on_line


def item_lead(on_line: dict[int, list[int]], analysis: PageUnits, item: tuple[int, ...]) -> list[int]:
    """The units of an item's lead (engine.agent.lists.lead_units of its first line)."""
    units_on_line = on_line.get(item[0], [])
    return lead_units(units_on_line, [analysis.units[i].text for i in units_on_line])


def opening_items(page: int, page_of) -> list[ListItem]:
    """The items of the run of list items a page opens with (its first unit on its first item's line), in the form
    `enumeration` reads them; none when it opens otherwise, or is past the document's end."""
    try:
        analysis, text = page_of(page)
    except IndexError:  # (the document's last page goes on with nothing)
        return []
    if not analysis.units:
        return []
    first = analysis.units[0].line
    run = next((r for r in item_runs(text) if r.lines[0] == first), None)
    if run is None:
        return []
    on_line = units_by_line(analysis)
    return [ListItem(page, analysis, text, on_line, item, item_lead(on_line, analysis, item)) for item in run.items]


# an item's label before what it says of it: "Choosing crypto functions: The 25519 …", "InitHello – First package …",
# "HIGH Confidence—A strong degree of …" (after the item's mark)
ITEM_LABEL_RE = re.compile(r"^\s*(?:[-*+•]\s+|\(?(?:\d{1,2}|[a-z])[.)]\s+)?\**(?P<label>[^:–—*]{2,60}?)\**"
                           r"(?::\s|\s[–—-]\s|—)")
LABEL_MAX_WORDS = 6


def first_clause(unit, text: str) -> int:
    """Where a unit's first clause ends in the page's text: before its first comma, semicolon, colon or bracket after
    CLAUSE_WORDS words or more ("Place a named destination reference mark at the current output position, in the
    current PDF document, (see …)" -> "… at the current output position"), or the unit's end."""
    for match in CLAUSE_END_RE.finditer(unit.text):
        if len(unit.text[:match.start()].split()) >= CLAUSE_WORDS:
            return unit.start + match.start()
    return unit.end


def labelled_lead(unit, text: str) -> int:
    """Where an item's label ends in the page's text (ITEM_LABEL_RE: up to LABEL_MAX_WORDS words before a colon or a
    dash), or the unit's end when it opens with none."""
    match = ITEM_LABEL_RE.match(unit.text)
    if not match or len(match.group("label").split()) > LABEL_MAX_WORDS:
        return unit.end
    return unit.start + match.end("label")


def unit_sentence(page: int, index: int, page_of, rank: int) -> Sentence:
    """A unit of a page as a sentence of the answer (one outside the chosen passages, as a list's item)."""
    analysis, _ = page_of(page)
    unit = analysis.units[index]
    return Sentence(page, index, unit.start, unit.end, unit.text, unit.line, analysis.stems[index],
                    analysis.pairs[index], False, rank)


def is_label(s: Sentence, text: str) -> bool:
    """A heading, or a short line of its own without a full stop, that heads what follows ("Impact",
    "Mitigation opportunities"); not a table row or a list item."""
    line = text.split("\n")[s.line]
    short = is_heading(line) or len(s.text.split()) <= LABEL_WORDS
    return short and not s.text.rstrip().endswith((".", "!", "?", ";", ",", ":")) and "|" not in line \
        and line.strip().lstrip("#*-+ ").strip() == s.text.strip() and not is_item(text, s)


def is_cell_label(s: Sentence, after: Sentence | None, text: str) -> bool:
    """A piece of a long table row (engine.agent.pieces) that labels the pieces after it in its row, as a label
    line heads the lines under it ("Impact" before "• Benefits worth …"): short, without closing punctuation,
    followed by a piece of the same line."""
    return after is not None and after.line == s.line and s.end <= after.start and is_row(text.split("\n")[s.line]) \
        and len(s.text.split()) <= LABEL_WORDS and not s.text.rstrip().endswith(LABEL_END)


def header_sentence(row: Sentence, page_of) -> Sentence:
    """The header row of a table row's table, as a sentence of the row's passage."""
    analysis, _ = page_of(row.page)
    assert row.header is not None
    unit = analysis.units[row.header]
    return Sentence(row.page, row.header, unit.start, unit.end, unit.text, unit.line, analysis.stems[row.header],
                    analysis.pairs[row.header], False, row.rank)


def quote(sentences: list[Sentence], text: str) -> str:
    """One page's quote: runs of sentences next to each other on one line as the literal span of the
    page, runs apart joined by ELISION."""
    runs: list[list[Sentence]] = []
    for s in sorted(sentences, key=lambda s: s.start):
        if runs and runs[-1][-1].line == s.line and not text[runs[-1][-1].end:s.start].strip():
            runs[-1].append(s)
        else:
            runs.append([s])
    return ELISION.join(text[run[0].start:run[-1].end] for run in runs)


def asked_kinds(question: str) -> tuple[str, ...]:
    """The kinds of value each part of the question asks for ("How many …, and why …?" → number, reason; "what
    is its counter frequency (fCNT)" → number, as the evidence test reads it: engine.agent.support.asked_kind)."""
    return tuple(k for k in dict.fromkeys(answer_type(part) or asked_kind(part) for part in question_parts(question))
                 if k)


def best_sentences(chosen: list[tuple[int, Window]], page_of, weights: dict[str, float], question: str,
                   phrases=(), names: frozenset[str] = frozenset()) -> list[Sentence]:
    """The answer's sentences from a document's chosen passages, best page first (`names`: the words that
    name the document)."""
    kinds = asked_kinds(question)
    pool = candidates(chosen, page_of, kinds, question, names)
    listing = asks_for_list(question)
    budget = LIST_PICK_CHARS if listing else ANSWER_CHARS
    naming = frozenset(names & weights.keys())  # (the question's words that name the document)
    # (a sentence saying what the term is outright comes before one glossing it in brackets in passing)
    defining = ([s for s in pool if defines(s.text, question, glossed=False)]
                or [s for s in pool if defines(s.text, question)]) if kinds == ("definition",) else []
    if defining:  # where the question places the term ("What is a DIE according to the reader's guide?") adds
        context = set(tokenize(asked_definition(question)[1]))  # nothing to a sentence defining it: no pick for it
        weights = {t: w for t, w in weights.items() if t not in context} or weights
    if kinds == ("expansion",):
        weights = dict(zip(weights, expansion_weights(question, list(weights), list(weights.values()))))
    picked = pick(pool, weights, kinds, frozenset(phrases), budget, note_weight(question), naming, defining)
    leading = picked[0] if picked and picked[0] in defining else None  # (its page leads)
    if kinds == ("definition",) and picked and picked[0].typed and is_row(picked[0].text):
        # (a glossary's entry: its neighbours are other terms' entries)
        return with_context(picked, pool, page_of, listing, weights, leading)
    filled = fill(picked, pool, FILL_CHARS, naming)
    if not listing:  # (a list's items, brought along after, need the room)
        filled = close_gaps(filled, pool)
    return with_context(filled, pool, page_of, listing, weights, leading)


def answer_text(sentences: list[Sentence], page_of, *, by_line: bool = False) -> str:
    """The sentences as prose, each page's run followed by its page reference ("… (p. 12)"). List items after
    their introduction, and table rows after one another (a row as its columns' names with its values:
    `with_labels`), each on a line of its own as a Markdown list item ("- …", a nested item indented as on its
    page, relative to the list's first item; a numbered item with its own number, "…" between two numbered items
    whose numbers do not follow on), so the app shows a list and the command line one item a line; a definition
    list's terms over their explanations one item each, "term: explanation" (`glossary_items`);
    labels of items one after another are joined by "; "; a heading without closing punctuation ends its paragraph
    ("3 Working on the Water" over "Rivers are pleasant places …") unless what follows goes on in lower case (a
    slide's figure, "4.5 hours", over "spent re-typing …"). `by_line`: units read in order from a page (its opening),
    or a deck's, each line of the page a paragraph of its own (a slide's "1 Capture" over its text; two labels too)."""
    out: list[str] = []
    listed: list[bool] = []  # each part of `out` ends in a list
    titled: list[bool] = []  # … or is a heading alone, without closing punctuation: what follows it is a paragraph
    fresh: list[bool] = []  # each part of `out` opens a line of its page other than the last part's
    lone = False  # the last part so far is one list element, not yet set as one
    lone_mark = "- "  # … and the mark it takes when the next element makes it a list
    counted: int | None = None  # the number of the numbered list item last set, while its list goes on
    base = shown = 0  # the page depth of the list's outermost item so far, and the depth the last item was shown at
    pieces = with_labels(sentences, page_of)
    terms: set[tuple[int, int]] = set()  # (page, unit) of a definition list's terms, each set as a list item
    if not by_line:
        pieces, terms = glossary_items(pieces, page_of)
    for n, (s, piece) in enumerate(pieces):
        opened = False  # the piece opens a part of its own
        analysis, text = page_of(s.page)
        lines = text.split("\n")
        before = pieces[n - 1][0] if n and pieces[n - 1][0].page == s.page else None  # the one it may join
        bulleted = is_item(text, s) or (s.page, s.index) in terms
        label = None if bulleted else NUMBERED_LINE_RE.match(lines[s.line].lstrip())
        numbered = label is not None
        item, row = bulleted or numbered, is_row(lines[s.line])
        mark = "" if numbered else "- "  # (a numbered item shows its own number)
        if before is not None and (item or row) and s.line == before.line:  # an item goes on, or a row
            out[-1] = out[-1].rstrip(";") + (" " if item else "; ") + piece
        elif before is not None and row and not item and is_row(lines[before.line]) \
                and not LETTER_WORD_RE.search(piece):  # a row of figures only (a chart's values): on the line above
            out[-1] = out[-1].rstrip(";") + "; " + piece
        elif before is not None and listed and listed[-1] and s.line != before.line and item_continues(text, s):
            out[-1] += " " + piece  # an item's indented further paragraph goes on in the item's line
        elif before is not None and (item or (row and is_row(lines[before.line]))):
            gap = "\n"
            if lone:
                out[-1] = lone_mark + out[-1]  # the list's first element opened the part
                base, shown = list_depth(lines[before.line]), 0
            elif not listed[-1]:
                base, shown = list_depth(lines[s.line]), 0
                gap = "\n" if mark else "\n\n"  # (a numbered list, unless it counts from 1, interrupts no paragraph)
            if label is not None and counted is not None and label_number(label) not in (None, counted + 1):
                gap = "\n\n…\n\n"  # items left out between two numbered ones (Markdown would count on past them)
            level = list_depth(lines[s.line])
            base = min(base, level)
            shown = min(level - base, shown + 1)  # (Markdown nests one level at a time)
            out[-1] = out[-1].rstrip(";") + gap + NEST_INDENT * shown + mark + piece
            listed[-1], lone = True, False
        elif not by_line and before is not None and s.line != before.line and is_label_line(lines[s.line]) \
                and is_label_line(lines[before.line]):  # labels of items, one after another (read by line: apart)
            out[-1] = out[-1].rstrip(";") + ("; " if not out[-1].endswith((":", ".", "!", "?")) else " ") + piece
            lone = False
        else:
            # (an item opening the next page goes on with the list the page before ended in)
            continues = item and n > 0 and bool(listed) and listed[-1] and pieces[n - 1][0].page == s.page - 1
            out.append((mark if continues else "") + piece)
            listed.append(continues)
            titled.append(False)
            fresh.append(n > 0 and (s.page, s.line) != (pieces[n - 1][0].page, pieces[n - 1][0].line))
            lone, lone_mark = (item or row) and not continues, mark if item else "- "
            opened = True
        if label is not None and s.line != (before.line if before is not None else None):
            counted = label_number(label)
        elif label is None:
            counted = None
        titled[-1] = opened and analysis.units[s.index].heading and not piece.rstrip().endswith((*CLOSED, ":"))
        if n + 1 == len(pieces) or pieces[n + 1][0].page != s.page:
            out[-1] += f" (p. {s.page})"
    # a list ends its paragraph: what follows it, or a part that opens with one, starts a new one; so does a line of
    # its own after a line leading into it ("… capabilities, including:" over a group's label, "Technology")
    return "".join(("" if i == 0 else "\n\n" if listed[i - 1] or part.startswith("- ") or NUMBERED_LINE_RE.match(part)
                    or ((titled[i - 1] or (by_line and fresh[i])) and not part[:1].islower())
                    or (fresh[i] and out[i - 1].endswith(":")) else " ") + part
                   for i, part in enumerate(out))


GLOSSARY_MIN = 2  # entries of a definition list one after another that an answer sets as list items


def glossary_items(pieces: list[tuple[Sentence, str]], page_of) -> tuple[list[tuple[Sentence, str]],
                                                                        set[tuple[int, int]]]:
    """A definition list's entries as an answer gives them: a term on a line of its own (a label line,
    engine.agent.lists.is_label_line: "ATS") over its explanation on the next line ("Automatic Transfer Switch."),
    GLOSSARY_MIN or more such entries one after another, each one piece "term: explanation" (the explanation's
    sentences on its line joined), rather than prose running terms and explanations together. The pieces, and the
    (page, unit) of each entry's term (its piece is set as a list item)."""
    entries: list[list[int]] = []  # each entry: its term's piece, then its explanation's
    n = 0
    while n + 1 < len(pieces):
        term, explanation = pieces[n][0], pieces[n + 1][0]
        analysis, text = page_of(term.page)
        lines = text.split("\n")
        if explanation.page != term.page or explanation.line <= term.line or analysis.units[term.index].heading \
                or lines[term.line].strip() != term.text.strip() or not is_label_line(lines[term.line]) \
                or is_item(text, term) or any(line.strip() for line in lines[term.line + 1:explanation.line]) \
                or is_label_line(lines[explanation.line]) or is_item(text, explanation) \
                or is_row(lines[explanation.line]) or analysis.units[explanation.index].heading \
                or len(explanation.text) <= len(term.text):  # (an address's lines: "Dallas, TX 75236")
            n += 1
            continue
        entry = [n, n + 1]
        while entry[-1] + 1 < len(pieces) and pieces[entry[-1] + 1][0].page == term.page \
                and pieces[entry[-1] + 1][0].line == explanation.line:
            entry.append(entry[-1] + 1)  # (the explanation's further sentences, on its line)
        entries.append(entry)
        n = entry[-1] + 1
    runs: list[list[list[int]]] = []  # entries one after another
    for entry in entries:
        if runs and runs[-1][-1][-1] + 1 == entry[0]:
            runs[-1].append(entry)
        else:
            runs.append([entry])
    kept = [entry for run in runs if len(run) >= GLOSSARY_MIN for entry in run]
    if not kept:
        return pieces, set()
    joined = {first: f"{pieces[first][1]}: " + " ".join(pieces[k][1] for k in rest) for first, *rest in kept}
    folded = {k for _, *rest in kept for k in rest}
    return ([(s, joined.get(n, piece)) for n, (s, piece) in enumerate(pieces) if n not in folded],
            {(pieces[first][0].page, pieces[first][0].index) for first, *_ in kept})


def label_number(label: re.Match) -> int | None:
    """The count a numbered item's label gives (NUMBERED_LINE_RE: "3." 3, "b)" 2), None for a Roman numeral."""
    mark = label.group(0).strip().strip("().")
    if mark.isdigit():
        return int(mark)
    return ord(mark) - ord("a") + 1 if len(mark) == 1 and mark in "abcdefgh" else None


def with_labels(sentences: list[Sentence], page_of) -> list[tuple[Sentence, str]]:
    """Each sentence with its text for the answer. The rows of a table that reads by its names
    (engine.agent.rows.named_table) read once each, as its columns' names with the parts of the cells the answer
    takes ("Type: Target, Status: Target Met", engine.agent.rows.labelled), the header row then left out; the rows
    of any other table, and every other sentence, read as they are."""
    rows: dict[tuple[int, int], list[Sentence]] = {}
    for s in sentences:
        if s.header is not None:
            rows.setdefault((s.page, s.line), []).append(s)
    named: dict[tuple[int, int], bool] = {}  # header unit -> whether all its rows in the answer read by its names
    found: dict[tuple[int, int], tuple[int, str]] = {}  # row line -> (its header unit, its text by the names)
    for (page, line), group in rows.items():
        analysis, text = page_of(page)
        lines = text.split("\n")
        top = group[0].header
        assert top is not None  # (rows holds rows with a header)
        at = analysis.units[top].line
        if named.setdefault((page, top), named_table(lines, at)):
            start = sum(len(row) + 1 for row in lines[:line])
            parts = labelled(lines[line], lines[at], [(s.start - start, s.end - start) for s in group])
            if parts is None:
                named[(page, top)] = False
            else:
                found[(page, line)] = (top, " ".join(fix_ligatures(as_labels(parts, lines[at])).split()))  # as readable
    labels = {key: label for key, (top, label) in found.items() if named[(key[0], top)]}
    folded = {(page, top) for (page, _), (top, _) in found.items() if named[(page, top)]}
    out: list[tuple[Sentence, str]] = []
    given: set[tuple[int, int]] = set()
    for s in sentences:
        key = (s.page, s.line)
        if s.header is None and (s.page, s.index) in folded:
            continue  # a header row whose names the rows under it now carry
        if s.header is not None and key in labels:
            if key not in given:
                given.add(key)
                out.append((s, labels[key]))
            continue
        out.append((s, readable(s.text)))
    return out
