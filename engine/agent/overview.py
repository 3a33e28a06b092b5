"""Questions about what a document is about as a whole ("What is this report about?", "Summarize the Menhir
manual", "Give me an overview of the Four Lectures on Standard ML") and the place a document says so itself: the
text under its abstract, summary, overview or introduction heading (a section of its tree, or a heading on its
opening pages), else its first prose on those pages. Likewise a question about what a page or slide it names holds
("What is on slide 4?", "What does page 2 of the data sheet list?"): the page's opening answers (`page_overview`);
and a question that restates a section's title ("How does Riverline work?" of a slide group "How it works", "Who
is this guide for?" of "1.2 Who this guide is for"): the section's opening answers (`section_overview`).

Such a question names the document and asks nothing of its content: the passages that hold its words best are
wherever the document repeats its own name (a "Regulatory Reports" section for "this report"). So the answer is
the document's own opening account, quoted from its page (`overview`). A question that asks about a part ("Summarize
the economic analysis of …") is not one: every content word of what it asks about must name the document.
"""

from __future__ import annotations

import math
import re
from collections.abc import Set as AbstractSet

import numpy as np

from engine.agent.authors import TITLE_PAGES, Made, prose, title_block
from engine.index.focus import KIND_WORDS, listed_head
from engine.agent.lists import COUNT_NAMES, COUNTS, item_runs
from engine.agent.passages import ANAPHOR_RE
from engine.agent.pieces import answer_units
from engine.agent.rows import SEPARATOR_RE, cell_texts, is_row
from engine.agent.support import GENERIC
from engine.agent.sentences import Sentence, answer_text, enumeration, quote, unit_sentence
from engine.index import lexical
from engine.index.corpus import CorpusIndex
from engine.index.evidence import PageUnits, answer_type, defined_term, definition_context, \
    definition_pages, readable
from engine.index.retrieve import Retrieval
from engine.index.passages import AGENDA_ENTRIES
from engine.index.sections import END_PAGE_RE, PAGE_RE, NamedSection, bare_title, is_deck, is_part, next_outside, \
    read_titles, section_of, titled_sections
from engine.schemas import Citation
from engine.schemas.answer import Passage
from engine.schemas.index import IndexNode
from engine.markdown import Fences
from engine.readers.headings import CAPTION_RE
from engine.text import DOCUMENT_KINDS, DOCUMENT_NOUNS, LETTER_WORD_RE, REQUEST_VERBS, STOP_WORDS, has_leader, \
    leads_in, query_terms, stem, tokenize, words

# what the question asks about, as a whole ("what is X about", "summarize X", "an overview of X", "what does X cover")
ABOUT_RE = re.compile(
    r"^\s*(?:(?:please\s+)?(?:summari[sz]e|outline)\s+(?P<a>.+?)"
    r"|what\s+(?:is|are)\s+(?P<b>.+?)\s+(?:all\s+)?about"
    r"|(?:(?:please\s+)?(?:give|provide|write)\s+(?:me\s+|us\s+)?)?(?:an?\s+|the\s+)?(?:short\s+|brief\s+)?"
    r"(?:overview|summary|gist)\s+of\s+(?P<c>.+?)"
    r"|what\s+(?:does|do)\s+(?P<d>.+?)\s+(?:cover|discuss|deal\s+with)"
    r"|what\s+(?:is|are)\s+the\s+(?:main\s+)?(?:topics?|subject|gist)\s+of\s+(?P<e>.+?))"
    r"\s*[?.!]*\s*$", re.I)
# what a question asking what a thing is names ("What is the XC9500?", "What are Noise protocols?")
DEFINING_RE = re.compile(r"^\s*what\s+(?:is|are)\s+(?P<a>.+?)\s*[?.!]*\s*$", re.I)
# a heading over a document's own account of itself, on its opening pages: a summary of it (an abstract, an executive
# summary) before an introduction to it
SUMMARY_NAMES = r"abstract|summary|executive summary|kurzfassung|zusammenfassung|kurzdarstellung|résumé|resumen"
INTRODUCTION_NAMES = r"overview|introduction|about this (?:report|document|paper|guide)|einleitung"
ACCOUNT_NUMBER = r"(?:[\dIVX]{1,4}[.)]?\s+)?"
SUMMARY_HEADING_RE = re.compile(rf"^{ACCOUNT_NUMBER}(?:{SUMMARY_NAMES})\s*:?$", re.I)
ACCOUNT_HEADING_RE = re.compile(rf"^{ACCOUNT_NUMBER}(?:{SUMMARY_NAMES}|{INTRODUCTION_NAMES})\s*:?$", re.I)
# the same names run into the account's first sentence ("Abstract— We …", "SUMMARY: The Commission …")
SUMMARY_RUN_IN_RE = re.compile(rf"^(?:{SUMMARY_NAMES})\s*[—–:.]\s*\S", re.I)
ACCOUNT_RUN_IN_RE = re.compile(rf"^(?:{SUMMARY_NAMES}|{INTRODUCTION_NAMES})\s*[—–:.]\s*\S", re.I)
AccountNames = tuple[re.Pattern[str], re.Pattern[str]]  # an account's heading and its name run in, of one kind
SUMMARY: AccountNames = (SUMMARY_HEADING_RE, SUMMARY_RUN_IN_RE)
ACCOUNT: AccountNames = (ACCOUNT_HEADING_RE, ACCOUNT_RUN_IN_RE)
ACCOUNT_CHARS = 700  # the account quoted: its prose up to this length (whole units)
COVER_CHARS = 300  # a deck's title slide read before its account, up to this length (whole units)
DETERMINERS = frozenset("this that these those the a an its their our your my whole entire".split())
# the words of a question about a named page that ask what the page holds, not about a thing on it ("What does page 2
# list?", "Summarize slide 4", "What is on the last slide?", "the contents of pages 3-4")
HOLDS_WORDS = frozenset(stem(w) for w in """list lists listed contain contains content contents include includes
present presents presented summary overview feature features state states stated write writes written text
treat treats treated handle handles handled deal deals dealt consist consists comprise comprises""".split())
# (… and how it treats a thing: "How does the TrickHLA User Guide handle federation restore?" restates "Federation
# Restore"; what it consists of)
PAGE_OPENINGS = 3  # pages of a named range whose openings answer (ACCOUNT_CHARS shared between them)
# a question asking for a document's parts ("What are the chapters of …", "How is … organised?"), and the words
# that ask for them rather than name the document
ASKS_PARTS_RE = re.compile(r"\b(?:chapters|sections|parts|contents|structure[sd]?|organi[sz]ed|outline)\b", re.I)
STRUCTURE_WORDS = frozenset(stem(w) for w in """chapter chapters section sections part parts appendix appendices annex
annexes contents table structure structured organized organised outline main top level major""".split())
# words that ask what a text holds or where ("What does section 3 cover?"), not what it is about
ASKING_WORDS = HOLDS_WORDS | STRUCTURE_WORDS | frozenset(stem(w) for w in """cover covers covered say says said
describe describes described mention mentions mentioned discuss discusses discussed explain explains explained
page pages slide slides titled entitled""".split()) | frozenset(stem(w) for w in REQUEST_VERBS)
CONTENTS_ENTRIES = 30  # top-level sections listed at most
# a count of things ("six different system calls", "3 modes"): the number, then up to four words naming them
COUNTED_RE = re.compile(rf"\b(\d{{1,2}}|{'|'.join(COUNT_NAMES)})\s+((?:[\w-]+\s+){{0,3}}[\w-]+)", re.I)
KIND_ASKED_RE = re.compile(r"\s*what\s+(?:is|are)\s+an?\s", re.I)  # "What is a structure …?" asks what a kind of thing
# is, not how a document is structured
# a section whose title a question restates answers when one of its pages is among the search's best this many (an
# appendix that only says where a template goes, "Appendix K Business Impact Analysis", is no answer to "What is a
# business impact analysis?")
RESTATED_PAGES = 5


def asked_whole(question: str, *, defining: bool = False) -> list[str] | None:
    """The words naming what a question about a whole document asks about ("What is this report about?" ->
    [report]); None for any other question. `defining`: instead, those of a question asking what a thing is ("What
    is the XC9500?" -> [xc9500]), which asks about a whole document when they all name it."""
    match = (DEFINING_RE if defining else ABOUT_RE).match(" ".join(question.split()))
    if match is None or (defining and definition_context(question)):
        return None  # ("What is a federate in SpaceFOM?" asks about a thing within what the document is named by)
    about = next(group for group in match.groups() if group)
    return [w for w in words(about) if w not in DETERMINERS]


def overview(corpus: CorpusIndex, retrieval: Retrieval, *, defining: bool = False) -> Made | None:
    """The answer to a question about what a document is about (`asked_whole`): the document its words name
    (among those the search was allowed; "this report" alone: the one routing put first, or the only one searched),
    answered with its own account of itself (`account`); None for any other question, or when a word of what it
    asks about is none the document goes by (its title, file name, kind, author: a part of it, "the separate
    compilation section of …"). `defining`: a question asking what a thing is that the document names itself by
    ("What is the XC9500?" of the XC9500 data sheet), asked when no section restates it (`section_overview`) and no
    page defines it (`definition_pages`: a glossary's entry, a sentence saying what it is)."""
    asked = asked_whole(retrieval.question, defining=defining)
    if retrieval.sections:  # "Summarize section 4.3 of …" asks about a part its tree names
        return None
    routing = retrieval.routing
    # (nothing named, "What is this about?": the document routing put first, or the only one searched)
    first = routing.chosen or ([routing.scores[0].doc] if len(routing.scores) == 1 else [])
    if asked is None or not first:
        return None
    terms = [t for t in (stem(w) for w in asked if w not in STOP_WORDS) if t]
    naming = [t for t in terms if t not in DOCUMENT_NOUNS]
    allowed = [s.doc for s in routing.scores]
    if defining and not naming:
        return None  # ("What is this?" names nothing)
    if naming:
        routed = lexical.route(corpus, retrieval.question, naming, allowed)
        if not routed.chosen:
            return None
        doc = routed.chosen[0]
        if not all(t in corpus.name_terms[doc] for t in naming):
            return None  # a part of the document, or something it does not name itself by
        if defining and definition_pages(corpus, retrieval.question, doc):
            return None  # its words name the document but a page defines the term ("What is a nonfederal
            # organization?" of "… in Nonfederal Systems and Organizations", whose glossary defines it)
    else:
        doc = first[0]
    return account(corpus, doc)


def account(corpus: CorpusIndex, doc: int) -> Made | None:
    """The document's account of itself: the prose under the first summary of it (an abstract, a summary, an executive
    summary: `SUMMARY_HEADING_RE`) on its front pages (its opening pages, or up to the one its tree's first section
    starts on), else an abstract with no name over it under a title block (`abstract_units`), else under the first
    account heading (those, or an overview or introduction: `ACCOUNT_HEADING_RE`) of
    its tree's sections or of its opening pages, else its first prose on its front pages (a manual's "1. Foreword"
    after a cover and contents pages), up to ACCOUNT_CHARS, quoted and cited. An account heading may be a line of its
    own in plain text (a paper's "Abstract") or run into the account's first sentence ("Abstract— We …", "SUMMARY:
    The Commission …"). A deck's title slide (its title, subtitle, audience and date, up to COVER_CHARS) comes before
    an account found on a later slide, and that slide is read from its opening (its title, a step's label over the
    step's text), each line a line of the answer."""
    index = corpus.docs[doc]
    opening = list(range(1, min(TITLE_PAGES, len(index.pages)) + 1))
    # the page of the first section the document's tree (its outline or contents) titles as an account of it
    section = next((node.start_page for node in index.nodes if titles_account(node.title)), None)

    def page_of(number: int) -> tuple[PageUnits, str]:
        return answer_units(corpus, doc, number)

    headed = list(dict.fromkeys(([section] if section else []) + opening))  # (the section's page first, once)
    # past a cover and contents pages: the pages up to the one the tree's first section starts on ("1. Foreword", p. 4)
    first = next((node.start_page for node in index.nodes if node.kind == "section" and node.start_page not in opening),
                 0)
    front = list(range(1, max(len(opening), min(first, len(index.pages))) + 1))
    def headed_by(tries: list[tuple[int, AccountNames | None]]) -> tuple[int, list[int]] | None:
        return next(((page, hit) for page, titled in tries if (hit := account_units(*page_of(page), titled))), None)

    found = headed_by([(page, SUMMARY) for page in front]) \
        or next(((page, hit) for page in opening if (hit := abstract_units(*page_of(page)))), None) \
        or headed_by([(page, ACCOUNT) for page in headed] + [(page, None) for page in front])
    if found is None:
        return None
    page, units = found
    _, text = page_of(page)
    picked = [unit_sentence(page, i, page_of, 0) for i in units]
    if page != 1 and is_deck(corpus, doc):  # a deck says what it is on its title slide: its lines come first,
        cover = [unit_sentence(1, i, page_of, 0) for i in opening_units(page_of(1)[0], COVER_CHARS)]
        if cover:  # then the slide of its first prose from its opening (a step's label over the step's text)
            slide = [unit_sentence(page, i, page_of, 0) for i in opening_units(page_of(page)[0], ACCOUNT_CHARS)]
            return quoted(index.info.file_name, cover + slide, page_of)
    said = answer_text(picked, page_of)  # (list items as a list, "(p. N)" after the page's run)
    start, end = picked[0].start, picked[-1].end
    return (said, [Citation(doc=index.info.file_name, page=page, quote=quote(picked, text))],
            [Passage(doc=index.info.file_name, page=page, text=readable(text[start:end]))])


def titles_account(title: str, names: AccountNames | None = None) -> bool:
    """Whether a heading titles a document's account of itself ("Abstract", "1 Overview", "**Executive Summary**"; of
    `names`' kind: ACCOUNT, any; SUMMARY, a summary of it)."""
    return (names or ACCOUNT)[0].match(" ".join(title.replace("*", "").split())) is not None


def account_units(analysis: PageUnits, text: str, titled: AccountNames | None) -> list[int]:
    """The units of a page's account of its document: when `titled`, the text units after its first heading (or line
    of its own) that names an account of that kind, or from its first prose sentence that opens with such a name run
    in ("Abstract— …"), up to the next heading; else those of its first prose line; whole units up to ACCOUNT_CHARS
    (at least one)."""
    lines = text.split("\n")
    fences = Fences()
    code = [fences.fence(line) or fences.inside for line in lines]  # (a fenced block's lines are code, not prose)
    units = analysis.units

    filled = [n for n, line in enumerate(lines) if line.strip()]
    led = {n for n in filled if has_leader(lines[n])}
    # a line between two contents lines is one too (its leader and page number lost: "… their families, and")
    among = {b for a, b, c in zip(filled, filled[1:], filled[2:]) if a in led and c in led}

    def body(i: int) -> bool:  # the body's prose: no heading, code, table row or contents line
        line = units[i].line if i < len(units) else -1
        return i < len(units) and not units[i].heading and not code[line] and prose(lines[line]) \
            and line not in led and line not in among and not is_row(lines[line])

    def opens(i: int) -> int | None:  # where the account starts when unit i opens it
        unit = units[i]
        # a heading, or a line of its own over prose: a paper's "Abstract" is often set as plain text, and a contents
        # page lists "I. Introduction" over more titles
        if titles_account(unit.text, titled) and (unit.heading or (
                lines[unit.line].strip().strip("*_") == unit.text.strip("*_") and body(i + 1))):
            return i + 1
        # the name run into the first sentence of a paragraph of prose
        if titled and titled[1].match(unit.text) and body(i) and (i == 0 or units[i - 1].line != unit.line):
            return i
        return None

    if titled:
        start = next((at for i in range(len(units)) if (at := opens(i)) is not None), None)
    else:
        start = next((i for i in range(len(units)) if body(i)), None)
    if start is None:
        return []
    out: list[int] = []
    chars = 0
    for i in range(start, len(units)):
        unit = units[i]
        if unit.heading or i in analysis.notes or (out and chars + len(unit.text) > ACCOUNT_CHARS):
            break
        out.append(i)
        chars += len(unit.text)
    return out


ABSTRACT_WORDS = 50  # prose under a title block, before any heading, this long or longer is an abstract (a paper's
# is 100 to 250 words; a notice under a thesis's title block, "© 2021 … is protected by copyright …", is shorter)


def abstract_units(analysis: PageUnits, text: str) -> list[int]:
    """The units of an abstract set with no name over it: the prose right under a title block that names people
    (engine.agent.authors.title_block), up to the next heading, ABSTRACT_WORDS long or longer; whole units up to
    ACCOUNT_CHARS. None on a page without such a block."""
    span = title_block(text)
    if span is None:
        return []
    units = analysis.units
    after = [i for i, u in enumerate(units) if u.start >= span[1]]
    run: list[int] = []
    for i in after:
        if units[i].heading:
            break
        if prose(text.split("\n")[units[i].line]):
            run.append(i)
        elif run:
            break
    if sum(len(units[i].text.split()) for i in run) < ABSTRACT_WORDS:
        return []
    out: list[int] = []
    chars = 0
    for i in run:
        if i in analysis.notes or (out and chars + len(units[i].text) > ACCOUNT_CHARS):
            break
        out.append(i)
        chars += len(units[i].text)
    return out


def page_overview(corpus: CorpusIndex, retrieval: Retrieval) -> Made | None:
    """The answer to a question about what a page or slide it names holds (engine.index.sections.named_pages) and
    nothing else: besides the page, its words only name the document or ask what the page holds (HOLDS_WORDS). The
    named page's opening answers, quoted up to ACCOUNT_CHARS (a range: its first PAGE_OPENINGS pages, sharing that
    room); None for any other question ("What does page 6 say about gauging?" asks about a thing on the page)."""
    named = retrieval.sections
    if not named or any(section.node >= 0 for section in named):
        return None
    doc = named[0].doc
    rest = END_PAGE_RE.sub(" ", PAGE_RE.sub(" ", retrieval.question))
    own = corpus.name_terms[doc]
    if any(t not in own and t not in DOCUMENT_NOUNS and t not in HOLDS_WORDS
           for t in query_terms(rest, retrieval.language)):
        return None
    pages = sorted({p for s in named for p in range(s.first_page, s.last_page + 1)})[:PAGE_OPENINGS]

    def page_of(number: int) -> tuple[PageUnits, str]:
        return answer_units(corpus, doc, number)

    picked = []
    for page in pages:
        picked += [unit_sentence(page, i, page_of, 0) for i in opening_units(page_of(page)[0],
                                                                             ACCOUNT_CHARS // len(pages))]
    if not picked:
        return None  # (named pages without text: the usual answer says what it finds)
    return quoted(corpus.docs[doc].info.file_name, picked, page_of)


def quoted(file_name: str, picked: list[Sentence], page_of) -> Made:
    """Units read in order as the answer: its text (each line of the page a paragraph), one citation a page (quoting
    the units used from it) and the passage they span on each page."""
    citations, passages = [], []
    for page in dict.fromkeys(s.page for s in picked):
        on_page = [s for s in picked if s.page == page]
        _, text = page_of(page)
        citations.append(Citation(doc=file_name, page=page, quote=quote(on_page, text)))
        passages.append(Passage(doc=file_name, page=page, text=readable(text[on_page[0].start:on_page[-1].end])))
    return answer_text(picked, page_of, by_line=True), citations, passages


def opening_units(analysis: PageUnits, limit: int) -> list[int]:
    """The units a page opens with, its headings among them and its notes (footnotes) left out, whole units up to
    `limit` characters (at least one); a heading the room ends on (over text left out) is left out too."""
    out: list[int] = []
    chars = 0
    for i, unit in enumerate(analysis.units):
        if i in analysis.notes:
            continue
        if out and chars + len(unit.text) > limit:
            break
        out.append(i)
        chars += len(unit.text)
    while len(out) > 1 and analysis.units[out[-1]].heading:
        out.pop()
    return out


def section_overview(corpus: CorpusIndex, retrieval: Retrieval) -> Made | None:
    """The answer to a question that restates the title of a section of the document routing put first ("How does
    Riverline work?" of a deck's "How it works", "What are the wading limits?" of "Wading limits"): its content words,
    those asking what a text holds (HOLDS_WORDS) aside, are exactly the title's, or are once the words naming the
    document are left out of both ("Who is this guide for?" of "1.2 Who this guide is for"). The
    section's opening answers, quoted up to ACCOUNT_CHARS over its first PAGE_OPENINGS pages; None for any other
    question (one word more, "What are the wading limits in winter?", asks about a thing within it), when none of
    the section's pages is among the search's RESTATED_PAGES best, or when the question asks what the title's term is
    and a page defines it (`definition_pages`)."""
    asked = asked_words(retrieval)
    if not asked:
        return None
    doc = retrieval.routing.chosen[0]
    own = corpus.name_terms[doc]

    def restates(title: set[str]) -> bool:  # (a title of the document's own name words: "Who this guide is for")
        return title == asked or (bool(asked - own) and title - own == asked - own)

    for node, title in searched_sections(corpus, retrieval, doc):
        if restates(title):
            if definition_pages(corpus, retrieval.question, doc):
                return None  # a page defines the term the title is ("What is the Everest Group PEAK Matrix?" of a
                # section so titled, when a page says "Everest Group PEAK Matrix® is a proprietary framework …")
            return section_opening(corpus, section_of(corpus, doc, node))
    return None


def titled_definition(corpus: CorpusIndex, retrieval: Retrieval) -> Made | None:
    """The answer to a question asking what a term is ("In NUT, what is a secondary upsmon system?", "idn2_free: what
    is it and when is it needed?") that no sentence of the document routing put first defines (`definition_pages`),
    when one of its sections is titled by the term ("2.10.2 Secondary", engine.index.sections.titled_sections; the
    search put its pages first): the first such section's opening (`section_opening`); None for any other question,
    a comparison or one that names a section."""
    routing = retrieval.routing
    if routing.comparison or not routing.chosen or retrieval.sections \
            or answer_type(retrieval.question) != "definition":
        return None
    doc = routing.chosen[0]
    if definition_pages(corpus, retrieval.question, doc):
        return None
    nodes = titled_sections(corpus, defined_term(retrieval.question), doc)
    return section_opening(corpus, section_of(corpus, doc, nodes[0])) if nodes else None


def asked_words(retrieval: Retrieval) -> set[str]:
    """The content words of a question about one document (those asking what a text holds, HOLDS_WORDS, aside) as a
    section title's would be read (no compound the search adds, "brokerdeal" for "broker-dealers"); empty for a
    comparison, a question routed nowhere or one that names a section."""
    routing = retrieval.routing
    if routing.comparison or not routing.chosen or retrieval.sections:
        return set()
    return set(query_terms(retrieval.question, retrieval.language)) - HOLDS_WORDS


def searched_sections(corpus: CorpusIndex, retrieval: Retrieval, doc: int) -> list[tuple[int, set[str]]]:
    """(node, title words) of the document's sections, in its order, that hold one of the search's RESTATED_PAGES
    best pages."""
    file_name = corpus.docs[doc].info.file_name
    return [(node.node, set(tokenize(" ".join(title))))
            for node, (_, title) in zip(corpus.docs[doc].nodes, read_titles(corpus, doc))
            if node.kind == "section" and any(h.doc == file_name and node.start_page <= h.page <= node.end_page
                                              for h in retrieval.hits[:RESTATED_PAGES])]


def section_list_overview(corpus: CorpusIndex, retrieval: Retrieval) -> Made | None:
    """The answer to a question asking for several things (engine.agent.focus.listed_head) that a section of the
    document routing put first is titled by ("What outcomes can Menhir's interpreter display?" of "8.2 Outcomes",
    "What one-way handshake patterns does Noise define?" of "7.4 One-way handshake patterns"): the title's words, the
    document's name words aside, hold the head noun of the things asked for and are all among the question's. The
    section's enumeration that names them answers (`section_list`), the most specific such section's first (the
    most title words); None for any other question, or when no such section among the search's RESTATED_PAGES best
    pages lists them."""
    listed = listed_head(retrieval.question)
    asked = asked_words(retrieval) if listed else set()
    if not asked:
        return None
    doc = retrieval.routing.chosen[0]
    own = corpus.name_terms[doc]
    head = stem(listed or "")
    titled = [(len(title - own), node) for node, title in searched_sections(corpus, retrieval, doc)
              if head in title - own - HOLDS_WORDS and title - own - HOLDS_WORDS <= asked]
    for _, node in sorted(titled, key=lambda found: -found[0]):  # (stable: the document's order among equals)
        made = section_list(corpus, section_of(corpus, doc, node), head, asked)
        if made is not None:
            return made
    return None


COLUMN_ROWS = 2, 30  # rows under a table's head, at least and at most, that answer as a list (a longer one is data)
COLUMN_CELL = 60  # characters at most of a cell that names a thing (a longer one is prose)
HEAD_WORDS = 6  # words at most of a column head (a longer first cell is a record's value, not a head)
REMARK_RE = re.compile(r"\([^()]*\)")  # a remark in brackets that a column head may carry ("Time (s)")
NAMING = frozenset({stem("name")})  # "what names …": a column headed "Name" names whatever its rows are
# kinds asked for ("what kinds of …", "which types …"): a column headed "Type" or "Kind" lists them
KIND_NOUNS = frozenset(stem(w) for w in KIND_WORDS)  # ("types" and "type" alike)


def table_column_overview(corpus: CorpusIndex, retrieval: Retrieval) -> Made | None:
    """The answer to a question asking for several things (engine.agent.focus.listed_head) that a table on one of
    the search's RESTATED_PAGES best pages of the document routing put first names in a column ("What domain
    separation flags does BLAKE3 define …?" of a table headed "Flag name | Value"): a column head holds the head noun
    of the things asked for (not a word that only says what kind of value, support.GENERIC, or "name"; but kinds
    asked for, "Which types of attacks does … list?", are a column headed "Type" or "Kind"; every cell of the head a
    few words, bracketed remarks aside, not a contents entry's page number nor a record's value), and the table's head
    or its caption (or the line leading into it) another of the question's words (the document's name words aside).
    The caption and the rows of each such table on the first page that has one ("the namespace tables": Table 1, 2 and
    3 of a page) answer, as a list; None for any other question, or when no such table holds COLUMN_ROWS rows of short
    cells."""
    listed = listed_head(retrieval.question)
    asked = asked_words(retrieval) if listed else set()
    head = stem(listed or "")
    heads = KIND_NOUNS if head in KIND_NOUNS else {head}
    if not asked or (head in GENERIC | NAMING and head not in KIND_NOUNS):
        return None
    doc = retrieval.routing.chosen[0]
    index = corpus.docs[doc]
    others = asked - corpus.name_terms[doc] - heads

    def page_of(number: int) -> tuple[PageUnits, str]:
        return answer_units(corpus, doc, number)

    for page in dict.fromkeys(h.page for h in retrieval.hits[:RESTATED_PAGES] if h.doc == index.info.file_name):
        analysis, text = page_of(page)
        lines = text.split("\n")
        picked: list[int] = []
        for at in range(len(lines) - 1):
            found = listed_rows(lines, at, heads, others, analysis, least=1 if picked else COLUMN_ROWS[0])
            if found and len(picked) + len(found) <= COLUMN_ROWS[1] + 1:
                picked += found
        if picked:
            return quoted(index.info.file_name, [unit_sentence(page, i, page_of, 0) for i in sorted(set(picked))],
                          page_of)
    return None


def listed_rows(lines: list[str], at: int, heads: AbstractSet[str], others: AbstractSet[str], analysis: PageUnits,
                *, least: int) -> list[int] | None:
    """The units (indexes of `analysis`) of a table whose head is line `at` (`table_column_overview`), its caption
    first: a column head holds one of `heads`, the head or the caption over it (a "Table 3 …" line, or a line leading
    into the table: "The features … are demonstrated below:") one of `others`, `least` to COLUMN_ROWS rows of short
    cells in that column; None for any other line."""
    line = lines[at]
    if not is_row(line) or SEPARATOR_RE.match(lines[at + 1]) is None:
        return None
    cells = cell_texts(line)
    if not all(any(c.isalpha() for c in cell) and len(REMARK_RE.sub(" ", cell).split()) <= HEAD_WORDS
               for cell in cells):
        return None  # a first row with a number in a cell of its own ("13. Application … | 44", a contents entry) or a
        # cell that says more than a head does ("Performance Measure | Revolving Fund net income (three year rolling
        # average)", a record's first field) heads no column; a head's remark in brackets is no part of its name
        # ("Feature Setting (top-most in each section is default)")
    column = next((k for k, cell in enumerate(cells) if heads & set(tokenize(cell))), None)
    rows = list(range(at + 2, next((j for j in range(at + 2, len(lines)) if not is_row(lines[j])), len(lines))))
    if column is None or not least <= len(rows) <= COLUMN_ROWS[1]:
        return None
    named = [(cell_texts(lines[j]) + [""] * (column + 1))[column] for j in rows]
    if not all(0 < len(cell) <= COLUMN_CELL for cell in named):
        return None
    caption = [i for i, u in enumerate(analysis.units)
               if u.line in (at - 1, at - 2) and (CAPTION_RE.match(u.text) or leads_in(u.text))]
    if not others & set(tokenize(" ".join([line] + [analysis.units[i].text for i in caption]))):
        return None
    return caption + [i for i, u in enumerate(analysis.units) if u.line in rows]


def section_list(corpus: CorpusIndex, section: NamedSection, head: str, asked: AbstractSet[str] = frozenset()
                 ) -> Made | None:
    """The first enumeration of a section (engine.agent.lists: a run of items under the line leading into it) over
    its first PAGE_OPENINGS pages whose lead-in names the things listed (`head`, a stem: "An *outcome* is one of the
    following:"; a lead-in that points back, "Their purposes are:", with the sentence before it), as a list answer
    gives it: the section's title, the lead-in and each item's lead; None when those pages hold none."""
    doc = section.doc

    def page_of(number: int) -> tuple[PageUnits, str]:
        return answer_units(corpus, doc, number)

    for page in range(section.first_page, min(section.last_page, section.first_page + PAGE_OPENINGS - 1) + 1):
        analysis, text = page_of(page)
        start, end = section.bounds(page, text)
        first_line, last_line = text.count("\n", 0, start), text.count("\n", 0, end)
        for run in item_runs(text):
            if run.lead_in is None or not first_line <= run.lead_in <= run.lines[-1] <= last_line:
                continue
            at = next((i for i, u in enumerate(analysis.units) if u.line == run.lead_in), None)
            listed = None if at is None else enumeration(unit_sentence(page, at, page_of, 0), page_of, asked,
                                                              read_on=True)
            if listed is None:
                continue
            lead_in, leads, _ = listed
            before = analysis.units[lead_in.index - 1] if lead_in.index else None
            back = [unit_sentence(page, lead_in.index - 1, page_of, 0)] if ANAPHOR_RE.match(lead_in.text) \
                and before is not None and before.line == lead_in.line else []
            if head not in set(tokenize(" ".join(s.text for s in [*back, lead_in]))):
                continue
            titled = [unit_sentence(page, i, page_of, 0) for i, u in enumerate(analysis.units)
                      if page == section.first_page and u.heading and start <= u.start < lead_in.start][:1]
            return quoted(corpus.docs[doc].info.file_name, titled + back + [lead_in, *leads], page_of)
    return None


def section_opening(corpus: CorpusIndex, section: NamedSection) -> Made | None:
    """A section's opening: its units in order from its title (notes left out) up to the title of a section outside
    it, whole units up to ACCOUNT_CHARS (its first unit of text whatever its length) over its first PAGE_OPENINGS
    pages (on a deck, up to a slide titled otherwise), a heading the room ends on left out, a list it ends within, its
    lead-in given, given whole (its items' leads: `enumeration`); quoted and cited page by page. Titles are found as
    the tree's (a heading, or a line in bold the outline lists)."""
    doc = section.doc
    nodes = corpus.docs[doc].nodes

    def page_of(number: int) -> tuple[PageUnits, str]:
        return answer_units(corpus, doc, number)

    own = bare_title(section.title)
    beyond = next_outside(nodes, section.node)  # (the section and its subsections: the nodes up to it)
    within = [section.node <= n.node < (len(nodes) if beyond is None else beyond) for n in nodes]
    # (a title outside it that one of its subsections shares, "1 Introduction" and "4.1 Introduction", ends nothing)
    outside = {bare_title(n.title) for n, w in zip(nodes, within) if not w} \
        - {bare_title(n.title) for n, w in zip(nodes, within) if w} - {own}
    # a slide of the section that its deck titles otherwise ("Thank you" in a group "Getting started") is its own
    slides = {n.start_page: bare_title(n.title) for n in nodes if n.kind == "page"}
    first = section.first_page
    if first < section.last_page and first in slides and not continues_title(slides[first], own) \
            and is_agenda(page_of(first)[0], {words for _, words in read_titles(corpus, doc)}, own):
        first += 1  # (a deck's agenda slide opening each of its sections, the section's title among the others')
    picked: list[Sentence] = []
    chars, texts = 0, 0
    for page in range(first, min(section.last_page, first + PAGE_OPENINGS - 1) + 1):
        if page > first and not continues_title(slides.get(page, own), own):
            break
        analysis, text = page_of(page)
        start, end = section.bounds(page, text)
        units = [(i, u) for i, u in enumerate(analysis.units) if start <= u.start and u.end <= end
                 and i not in analysis.notes]
        if page == first:  # (from its title, where the page sets it as a line of its own)
            at = next((n for n, (_, u) in enumerate(units) if bare_title(u.text) == own), 0)
            units = units[at:]
        done = False
        for i, unit in units:
            titled = bare_title(unit.text)
            if picked and (titled in outside or (texts and chars + len(unit.text) > ACCOUNT_CHARS)):
                done = True
                break
            picked.append(unit_sentence(page, i, page_of, 0))
            chars += len(unit.text)
            texts += not (unit.heading or titled == own)
        if done:
            break
    while len(picked) > 1 and page_of(picked[-1].page)[0].units[picked[-1].index].heading:
        picked.pop()
    # an opening the room ends within a list whose lead-in it holds ("When reporting a bug please make sure you:") goes
    # on with the list's items
    listed = enumeration(picked[-1], page_of) if picked else None
    had = {(s.page, s.index) for s in picked}
    if listed is not None and (listed[0].page, listed[0].index) in had:
        picked += [s for s in listed[1] if (s.page, s.index) not in had]
    return quoted(corpus.docs[doc].info.file_name, picked, page_of) if picked else None


CONTINUED_WORDS = frozenset({"cont", "contd", "continued", "ctd"})  # a slide's title going on with the slide before's


def continues_title(title: tuple[str, ...], own: tuple[str, ...]) -> bool:
    """Whether a slide's title (bare: `bare_title`) is a section's own, or that title continued over slides: "Transform
    pass (1/2)", "Results (cont.)"."""
    return title[:len(own)] == own and all(w.isdigit() or w in CONTINUED_WORDS for w in title[len(own):])


def is_agenda(analysis: PageUnits, titles: set[tuple[str, ...]], own: tuple[str, ...]) -> bool:
    """Whether a page is an agenda listing the document's sections (a deck's "Outline" slide, shown again before each
    section): every unit after its first (its title) is the title of a section of the document (`titles`: bare),
    AGENDA_ENTRIES or more, `own` among them. (engine.index.passages.agenda_entries reads the agenda that opens a deck,
    whose entries all start later, to keep it out of the passages; this one, read for an answer, may come again
    before any section.)"""
    entries = [bare_title(u.text) for i, u in enumerate(analysis.units) if i and i not in analysis.notes]
    return own in entries and len(entries) >= AGENDA_ENTRIES and all(t in titles for t in entries)


def contents_overview(corpus: CorpusIndex, retrieval: Retrieval) -> Made | None:
    """The answer to a question asking for a document's parts ("What are the chapters of the Menhir manual?", "What
    are the main sections of the NIST contingency planning guide?", "How is the field guide organised?"): besides
    the words asking for parts (STRUCTURE_WORDS), its content words only name the document routing put first. Its
    tree's top-level sections answer, one a line with its page, each title quoted on the page it starts on, in order
    (a contents page's own section, whose lines lead to page numbers, left out); None for any other question, or a
    tree of fewer than two sections whose titles its pages show."""
    routing = retrieval.routing
    if routing.comparison or not routing.chosen or retrieval.sections or not ASKS_PARTS_RE.search(retrieval.question) \
            or KIND_ASKED_RE.match(retrieval.question):
        return None
    doc = routing.chosen[0]
    rest = set(query_terms(retrieval.question, retrieval.language)) - STRUCTURE_WORDS - HOLDS_WORDS
    if not rest <= corpus.name_terms[doc] | DOCUMENT_NOUNS:
        return None
    return titles_listed(corpus, doc, None)


def titles_listed(corpus: CorpusIndex, doc: int, parent: int | None, lead: str = "",
                  opening: Sentence | None = None) -> Made | None:
    """The sections directly under `parent` (None: the top level), one a line with the page it starts on, each title
    quoted on that page, in order (a contents page's own section, whose lines lead to page numbers, left out; at
    most CONTENTS_ENTRIES), after `lead`'s line (or the `opening` sentence's, quoted too); None when fewer than two
    titles are found on their pages."""

    def page_of(number: int) -> tuple[PageUnits, str]:
        return answer_units(corpus, doc, number)

    picked = section_titles(corpus, doc, parent)
    if len(picked) < 2:
        return None
    _, citations, passages = quoted(corpus.docs[doc].info.file_name, ([] if opening is None else [opening]) + picked,
                                    page_of)
    if opening is not None:
        lead = f"{readable(opening.text)} (p. {opening.page})"
    return "\n".join([lead] * bool(lead) + [item_line(s) for s in picked]), citations, passages


def item_line(s: Sentence) -> str:
    """A sentence as a line of a listed answer, with its page: "- 2.1 Line Transects (p. 2)"."""
    return f"- {readable(s.text)} (p. {s.page})"


def section_titles(corpus: CorpusIndex, doc: int, parent: int | None) -> list[Sentence]:
    """The titles of the sections directly under `parent` (None: the top level) as the pages they start on set them,
    in order (a contents page's own section, whose lines lead to page numbers, left out; at most CONTENTS_ENTRIES).
    A deck's section holds slides: their titles are its parts, each once (builds of one slide repeat it), but for a
    slide titled as its section and a title that slides of other sections bear too (an outline slide opening every
    section, "Biogeography of the World": the deck's navigation)."""

    def page_of(number: int) -> tuple[PageUnits, str]:
        return answer_units(corpus, doc, number)

    nodes = corpus.docs[doc].nodes
    under: dict[tuple[str, ...], set[int | None]] = {}  # a slide's title -> the sections its slides stand in
    for node in nodes:
        if node.kind == "page":
            under.setdefault(bare_title(node.title), set()).add(node.parent)
    own = bare_title(nodes[parent].title) if parent is not None else ()
    picked: list[Sentence] = []
    seen: set[tuple[str, ...]] = set()
    for node in nodes:
        if node.parent != parent or node.kind not in ("section", "page"):
            continue
        if node.kind == "page" and (parent is None or len(under[bare_title(node.title)]) > 1
                                    or bare_title(node.title) in seen | {own}):
            continue
        seen.add(bare_title(node.title))
        analysis, text = page_of(node.start_page)
        filled = [line for line in text.split("\n") if line.strip()]
        if filled and 2 * sum(has_leader(line) for line in filled) >= len(filled):
            continue  # (the contents page's own section)
        title = bare_title(node.title)  # (as the page sets it, or opening a slide's "Customer stories (1 of 3)")
        at = next((i for i, u in enumerate(analysis.units) if title and bare_title(u.text)[:len(title)] == title),
                  None)
        if at is not None:
            picked.append(unit_sentence(node.start_page, at, page_of, 0))
        if len(picked) == CONTENTS_ENTRIES:
            break
    return picked


def titled_section(corpus: CorpusIndex, doc: int, picked: list[Sentence]) -> Made | None:
    """What answers when every sentence an answer picked is a heading, a title saying nothing of its own ("19.9
    Warning number reference" for the ranges of warning numbers its subsections are titled by): the section of the
    tree it titles (starting on its page), by the titles of its subsections, two or more, one a line with its page
    (`titles_listed`), else by its opening (`section_opening`); None for other picks, or a heading the tree has no
    section for."""
    first = picked[0] if picked and all(s.heading for s in picked) else None
    title = bare_title(first.text) if first is not None else ()
    if first is None or not title:
        return None
    for node, (_, own) in zip(corpus.docs[doc].nodes, read_titles(corpus, doc)):  # (bare titles, read once)
        if node.kind == "section" and node.start_page == first.page and own == title:
            if len(subsections(corpus, doc, node.node)) >= 2:
                listed = titles_listed(corpus, doc, node.node, f"{readable(node.title)}:")
                if listed is not None:
                    return listed
            return section_opening(corpus, section_of(corpus, doc, node.node))
    return None


def count_of(match: re.Match, wanted: str) -> int:
    """The number a count (COUNTED_RE) gives of the things `wanted` (a stem) names, 0 when it counts other things
    ("six different system calls": 6 of "call")."""
    return COUNTS.get(match.group(1).lower(), 0) if wanted in {stem(w) for w in words(match.group(2))} else 0


def counts_asked(question: str, wanted: str) -> set[int]:
    """The counts a question gives of the things it asks for (`wanted`: their head noun's stem): "Which three
    depreciation schemes …" -> {3}; empty when it counts none."""
    return {counted for counted in (count_of(m, wanted) for m in COUNTED_RE.finditer(question)) if counted}


def subsections(corpus: CorpusIndex, doc: int, node: int) -> list[IndexNode]:
    """The sections of a document's tree right under `node`, in order."""
    return [n for n in corpus.docs[doc].nodes if n.kind == "section" and n.parent == node]


def counted_parts_overview(corpus: CorpusIndex, retrieval: Retrieval) -> Made | None:
    """The answer to a question asking for several things (engine.agent.focus.listed_head) that a section holding one
    of the search's RESTATED_PAGES best pages of the document routing put first counts in its opening and gives a
    subsection each ("The SYSCALL instruction … making available six different system calls", then "2.4.1 SYSCALL 0 -
    exit()" … "2.4.6"): the sentence counting them (the count, then the head noun of the things asked for within a few
    words) and its subsections' titles answer (`titles_listed`); the count must be the number of its subsections (and
    the question's, when it counts them too), and the sentence or the section's title must hold another word of the
    question's (the document's name words aside). None for any other question, a section whose opening counts no
    such thing, or a count that leads into its own list ("Three steps are involved:", then its items).
    """
    head = listed_head(retrieval.question)
    routing = retrieval.routing
    if not head or routing.comparison or not routing.chosen or retrieval.sections:
        return None
    doc = routing.chosen[0]
    wanted = stem(head)
    said = counts_asked(retrieval.question, wanted)
    others = set(query_terms(retrieval.question, retrieval.language)) - {wanted} - corpus.name_terms[doc]

    def page_of(number: int) -> tuple[PageUnits, str]:
        return answer_units(corpus, doc, number)

    for node, _ in searched_sections(corpus, retrieval, doc):
        parts = subsections(corpus, doc, node)
        if len(parts) < 2 or (said and said != {len(parts)}):
            continue
        section = section_of(corpus, doc, node)
        analysis, text = page_of(section.first_page)
        start, _ = section.bounds(section.first_page, text)
        first = bare_title(parts[0].title) if parts[0].start_page == section.first_page else ()
        for i, unit in enumerate(analysis.units):
            if unit.start < start or unit.heading:
                continue
            if first and bare_title(unit.text)[:len(first)] == first:
                break  # (its first subsection: the opening ends)
            if leads_in(unit.text) or not others & (analysis.stems[i] | set(tokenize(section.title))):
                continue
            if any(count_of(m, wanted) == len(parts) for m in COUNTED_RE.finditer(unit.text)):
                return titles_listed(corpus, doc, node, opening=unit_sentence(section.first_page, i, page_of, 0))
    return None


def section_parts_overview(corpus: CorpusIndex, retrieval: Retrieval) -> Made | None:
    """The answer to a question asking for several things (engine.agent.focus.listed_head) of the one section it
    names ("In which areas does the RARE paper's related-work section place itself?" of "A. Related Work", "Which
    types of plans does section 2.2 describe?"): the section's enumeration whose lead-in names them (`section_list`),
    else the titles of its subsections, two or more, one a line with its page (`titles_listed`); None for any other
    question."""
    head = listed_head(retrieval.question)
    named = [s for s in retrieval.sections if s.node >= 0]
    if not head or len(named) != 1 or retrieval.routing.comparison:
        return None
    section = named[0]
    wanted = stem(head)
    listed = section_list(corpus, section, wanted, set(query_terms(retrieval.question, retrieval.language)))
    if listed is not None or is_part(section.title):  # (an introduction's subsections are no things it lists)
        return listed
    if fits_whole(corpus, section):  # (its subsections' titles say less than its whole text: "Scans conversion" and
        return section_opening(corpus, section)  # "Detection parameters" over the default values asked for)
    parts = subsections(corpus, section.doc, section.node)
    said = counts_asked(retrieval.question, wanted)
    if said and said != {len(parts)}:
        return None  # ("Which three depreciation schemes does the chapter present?" of a chapter with four
        # subsections: they are not the three things asked for)
    if sum(wanted in tokenize(p.title) for p in parts) == 1:
        return None  # (one of its subsections is titled by the things asked for: they are listed in it, "List the
        # valves of the pumps chapter" of "4.1 Motors", "4.2 Valves and seals", "4.3 Maintenance")
    return titles_listed(corpus, section.doc, section.node, f"{readable(section.title)}:")


# the words a question calls a document by: "the groff PDF publishing manual", "the Camlidl user's manual"
DOCUMENT_PHRASE_RE = re.compile(rf"\b(?:the|this|its|that)\s+(?:[\w'’.-]+\s+){{0,4}}(?:{'|'.join(DOCUMENT_KINDS)})s?\b",
                                re.I)
SUMMARY_PAGES = 6  # pages of a named section read for its summary
SUMMARY_CHARS = 800  # a section's summary: its title, its first sentence, then its most telling ones, up to this


def section_summary(corpus: CorpusIndex, retrieval: Retrieval) -> Made | None:
    """The answer to a question asking only what the one section it names holds ("What does section 7, 'Release
    notes', of the manual cover?", "What does chapter 3 explain?"): besides words asking what a text holds and the
    document's name, its content words are all the section's title's. A section that fits whole answers with all of
    it (`section_opening`); a longer one with its title, its first sentence, then the sentences that say most of what
    the section says (SumBasic over its pages' words: a sentence scores its words' mean weight, a word weighs its
    count in the section times how few of the document's pages use it, and its weight is squared down once a picked
    sentence says it), in page order, up to SUMMARY_CHARS; a section with two or more subsections gives their titles
    (its tree's, as its pages set them) after its first sentence, one a line, and the sentences in what is left of
    SUMMARY_CHARS after them; None for any other question."""
    named = [s for s in retrieval.sections if s.node >= 0]
    if len(named) != 1 or retrieval.routing.comparison:
        return None
    section = named[0]
    doc = section.doc
    question = DOCUMENT_PHRASE_RE.sub(" ", retrieval.question)  # ("… of the groff PDF publishing manual": its name)
    rest = set(query_terms(question, retrieval.language)) - ASKING_WORDS - corpus.name_terms[doc] \
        - set(tokenize(section.title))
    if any(not t.isdigit() for t in rest):
        return None
    if fits_whole(corpus, section):
        return section_opening(corpus, section)

    def page_of(number: int) -> tuple[PageUnits, str]:
        return answer_units(corpus, doc, number)

    own = bare_title(section.title)  # (its title first, where the page sets it as a line of its own)
    titled = [(section.first_page, i) for i, u in enumerate(page_of(section.first_page)[0].units)
              if bare_title(u.text) == own][:1]
    parts = section_titles(corpus, doc, section.node)  # (its subsections' titles say what it holds, when it has some)
    if len(parts) < 2:
        parts = []
    listed = set(titled) | {(p.page, p.index) for p in parts}  # (a title set as a bold line is no heading: once)
    found: list[tuple[int, int]] = []  # (page, unit) of the section's sentences, in order
    said: set[str] = set()  # … each once: a slide shown in steps repeats its title and its sentences page after page
    for page in range(section.first_page, min(section.last_page, section.first_page + SUMMARY_PAGES - 1) + 1):
        analysis, text = page_of(page)
        start, end = section.bounds(page, text)
        for i, u in enumerate(analysis.units):
            flat = " ".join(u.text.split())
            if start <= u.start and u.end <= end and i not in analysis.notes and not u.heading \
                    and summarisable(u.text) and (page, i) not in listed and flat not in said \
                    and not (titled and bare_title(u.text) == own):
                found.append((page, i))
                said.add(flat)
    if not found and not parts:
        return None  # (a section of slides without sentences, a title and maps each, is listed by their titles)

    def stems_of(key: tuple[int, int]) -> frozenset[str]:
        return page_of(key[0])[0].stems[key[1]]

    def length(key: tuple[int, int]) -> int:
        return len(page_of(key[0])[0].units[key[1]].text)

    counts: dict[str, int] = {}
    for key in found:
        for t in stems_of(key):
            counts[t] = counts.get(t, 0) + 1
    pages, used = page_spread(corpus, doc)
    weight = {t: c * math.log(1 + pages / used.get(t, 1)) for t, c in counts.items() if t not in STOP_WORDS}
    led = opening_list(found[0], page_of) if found else []  # (a first sentence leading into a list: its items)
    found = found[:1] + [key for key in found[1:] if key not in led]
    picked: list[tuple[int, int]] = []
    chars = sum(len(p.text) for p in parts) + sum(length(key) for key in led)
    best: tuple[int, int] | None = found[0] if found else None  # (its first sentence, whatever it says)
    while best is not None:
        picked.append(best)
        chars += length(best)
        top = max(weight.values(), default=1.0)
        for t in stems_of(best) & weight.keys():  # (what it says is said: squared down)
            weight[t] = weight[t] ** 2 / top
        best, best_score = None, 0.0
        for key in found:
            if key in picked or chars + length(key) > SUMMARY_CHARS:
                continue
            stems = stems_of(key) & weight.keys()
            score = math.fsum(weight[t] for t in stems) / (len(stems) + 1)  # (exact: a set's order sums alike)
            if score > best_score:
                best, best_score = key, score
    sentences = [unit_sentence(page, i, page_of, 0) for page, i in titled + sorted(picked + led)]
    if not parts:
        return quoted(corpus.docs[doc].info.file_name, sentences, page_of)
    # its first sentence (with the items it leads into), its subsections' titles (one a line), then the other
    # sentences picked
    opening, further = sentences[:len(titled) + 1 + len(led)], sentences[len(titled) + 1 + len(led):]
    every = sorted(opening + parts + further, key=lambda s: (s.page, s.start))
    _, citations, passages = quoted(corpus.docs[doc].info.file_name, every, page_of)
    lines = ([answer_text(opening, page_of, by_line=True)] if opening else []) + [item_line(p) for p in parts]
    text = "\n".join(lines) + ("\n\n" + answer_text(further, page_of, by_line=True) if further else "")
    return text, citations, passages


SUMMARY_WORDS = 4  # words a sentence of a section's summary has at the least


def summarisable(text: str) -> bool:
    """Whether a unit may stand in a section's summary: a sentence of SUMMARY_WORDS words or more, or a table row that
    names things in words, however short (a record of the table: "Engravers | Aaaa_aaa_engraver"; not one of figures,
    "11 | 9"): a table summarised in full, not without its shortest rows."""
    return len(text.split()) >= SUMMARY_WORDS or (is_row(text) and len(LETTER_WORD_RE.findall(text)) >= 2)


def opening_list(first: tuple[int, int], page_of) -> list[tuple[int, int]]:
    """(page, unit) of the leads of the list items a section's first sentence leads into ("gpasm writes every error
    message to two locations:" over "- the standard error output", "- the list file"), in order; [] when it leads
    into none: what the section opens with is the sentence and its items together."""
    sentence = unit_sentence(first[0], first[1], page_of, 0)
    if not leads_in(sentence.text):
        return []
    listed = enumeration(sentence, page_of)
    return [] if listed is None else [(s.page, s.index) for s in listed[1] if (s.page, s.index) != first]


def page_spread(corpus: CorpusIndex, doc: int) -> tuple[int, dict[str, int]]:
    """A document's page count and, for each word, how many of its pages use it (cached on the corpus index)."""
    cache: dict[int, tuple[int, dict[str, int]]] = corpus.extras.setdefault("page_spread", {})
    if doc not in cache:
        counts = corpus.docs[doc].terms["page"]
        used = np.bincount(counts.ids, minlength=len(counts.terms)) if len(counts.ids) else np.zeros(0)
        cache[doc] = (len(counts.ptr) - 1, {t: int(n) for t, n in zip(counts.terms, used)})
    return cache[doc]


def fits_whole(corpus: CorpusIndex, section: NamedSection) -> bool:
    """Whether a section's whole text (its subsections' too, notes aside) is ACCOUNT_CHARS long or less, on
    PAGE_OPENINGS pages at most: its opening (`section_opening`) is all of it."""
    if section.last_page - section.first_page >= PAGE_OPENINGS:
        return False
    chars = 0
    for page in range(section.first_page, section.last_page + 1):
        analysis, text = answer_units(corpus, section.doc, page)
        start, end = section.bounds(page, text)
        chars += sum(len(u.text) for i, u in enumerate(analysis.units)
                     if start <= u.start and u.end <= end and i not in analysis.notes)
    return chars <= ACCOUNT_CHARS

