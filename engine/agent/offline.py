"""Offline answering: an extractive answer from the best sentences of the retrieved pages, one
citation per sentence (its quote is a literal span of the cited page), documents side by side for a
comparison, and "not covered" when the question names something the corpus never mentions or the
fitted evidence test (`engine.agent.support`) finds too little of it. (How a chosen window grows into
the passage that is quoted is `engine.agent.passages`.)
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial

import numpy as np

from engine.agent.authors import Made, asks_for_authors, who_made
from engine.agent.extremes import direction, extremes_over, pages_around
from engine.agent.overview import ASKING_WORDS, contents_overview, counted_parts_overview, overview, page_overview, \
    section_list_overview, section_overview, section_parts_overview, section_summary, table_column_overview, \
    titled_definition, titled_section
from engine.index.focus import asks_for_list
from engine.agent.recurring import recurring_overview
from engine.agent.rows import is_row
from engine.agent.pieces import answer_units
from engine.agent.passages import carried, close_gaps, ends_list, merge, read_back, read_on, runs_over, trim, \
    with_table_headers
from engine.agent.sentences import answer_text, best_sentences, quote
from engine.agent.support import SIGNAL_PAGES, THRESHOLD, asked_kind, combined, focus_terms, nearness, signals, \
    support, value_parts
from engine.index import lexical
from engine.index.bm25 import rsj_idf
from engine.index.corpus import CorpusIndex
from engine.index.evidence import ACRONYM_RE, NUMBER_RE, PageUnits, Window, answer_type, defined_term, expansion, \
    note_weight, page_units, question_parts, readable, score_windows
from engine.index.retrieve import Retrieval
from engine.index.sections import is_deck, pages_past_end
from engine.text import STOP_WORDS, leads_in, query_pairs, query_terms, tokenize, unaccented, words
from engine.schemas import Answer, Citation, RetrievedPage, TraceStep
from engine.schemas.answer import Passage

NOT_COVERED = "The corpus does not cover this question"
LIST_READ_ON = 2  # a question asking for several things reads on this many times further
PAGE_PRIOR = 0.6  # a passage's score gains this share of its page's retrieval score (best page: all of it)
GLUED_CODE_RE = re.compile(r"([A-Z]{2,6})(\d{2,4})")  # letters and a number written as one: "FY2025", "Q42023"
MONTH_NAMES = tuple(name for name in calendar.month_name if name)
MIXED_CASE_RE = re.compile(r"([a-z]+)([A-Z][A-Za-z]*)")  # a lower-case start, then a capital: "macOS", "iPhone", "eBay"
# an acronym's plural ("FTEs", "APIs"; "OSes", "BIOSes" after a final S, X or Z): group 1 is the acronym
PLURAL_ACRONYM_RE = re.compile(r"([A-Z]{2,6})(?:s|(?<=[SXZ])es)")
DECADE_RE = re.compile(r"\d{4}s")
MAKER_PRONOUN_RE = re.compile(r"\b(?:they|their|them)\b", re.I)  # a part asking of the makers ("where are they based?")
NAMEISH_RE = re.compile(r"[^\W_][\w-]*", re.UNICODE)
ALIAS_AFTER_RE = re.compile(r"\s*\(([^()]{1,60})\)")  # a bracket right after a name: another name for it
NOUN_CAPITALS = frozenset({"de", "lb"})  # languages that write every noun with a capital (German, Luxembourgish)


@dataclass(frozen=True)
class AnswerOptions:
    """How much evidence an extractive answer takes."""

    pages_per_doc: int = 2  # pages of a document whose windows compete
    compare_pages_per_doc: int = 3  # the same in a comparison, where each document has fewer pages in the ranking
    max_windows: int = 3  # passages quoted in a single-document answer
    per_doc_windows: int = 2  # passages per document in a comparison
    keep_share: float = 0.6  # further passages score at least this share of the best one (benchmarks/fit_keep.py)
    passage_chars: int = 800  # a passage grows by its neighbours up to this length
    read_on: int = 800  # the best passage reads on this many characters, the others half (0: not at all)


@dataclass
class Evidence:
    """The passages chosen from one document."""

    doc: int
    chosen: list[tuple[int, Window]] = field(default_factory=list)  # (page, window)


def unknown_names(corpus: CorpusIndex, question: str, lang: str = "en") -> list[str]:
    """Names, acronyms and codes the question asks about that occur nowhere in the corpus: a proper
    noun or an acronym (capitalised inside the sentence, all capitals, or with digits) that no page
    holds means the corpus does not discuss that thing. (Ordinary words missing from the corpus are
    often just paraphrases and are not counted; in a question asked in a language that capitalises every
    noun, `lang`, a capital tells no name: only acronyms and codes count there.)"""
    # (a question too terse to tell its language ("") may be asked in one that capitalises its nouns, when some
    # document of the corpus is written in one)
    capitals_tell_nothing = lang in NOUN_CAPITALS or (
        not lang and any(index.info.language in NOUN_CAPITALS for index in corpus.docs))
    unknown = []
    for position, match in enumerate(NAMEISH_RE.finditer(question)):
        word = match.group(0)
        if position == 0 and match.start() == 0 and word[1:].islower():
            continue  # the question's first word
        inner = MIXED_CASE_RE.fullmatch(word)  # a capital inside a lower-case word: a brand's or a system's name
        if not (word[0].isupper() or inner or any(c.isdigit() for c in word)) or len(word) < 2:
            continue
        if word.lower() in STOP_WORDS:  # a stop word in capitals: a line of them ("VERY HIGH"), which a page may
            continue                    # write so too, or stress ("thumbnails AND the outline"), not a name
        if capitals_tell_nothing and not (word.isupper() or inner or any(c.isdigit() for c in word)):
            continue
        plural = PLURAL_ACRONYM_RE.fullmatch(word)
        bare = plural.group(1) if plural else word  # ("FTEs": the corpus may say "FTE" …
        month = next((m for m in MONTH_NAMES if len(bare) >= 3 and m.startswith(bare)), None)
        bare = month or bare  # a month's abbreviation ("Sept"): the corpus may write the month out
        missing = all(unheard(corpus, form) for form in dict.fromkeys((bare, word)))  # (… or "FTEs")
        if not missing or (ACRONYM_RE.fullmatch(bare) and spelled_out(corpus, bare)):
            continue
        if any(not unheard(corpus, alias) for alias in aliases(question, match.start(), match.end())):
            continue  # the question names it another way too, one the corpus knows: "the GDPR (DSGVO)"
        glued = GLUED_CODE_RE.fullmatch(bare)
        if glued and written_apart(corpus, glued.group(1), glued.group(2)):
            continue  # "FY2025": a page writes "FY 2025" or spells the letters out, "Fiscal Year 2025"
        if inner and on_some_page(corpus, rf"(?i)\b{re.escape(inner.group(1))}[\s-]?{re.escape(inner.group(2))}\b"):
            continue  # "macOS", "iPhone": a page writes its parts apart ("Mac OS X", "i-Phone")
        if written_within(corpus, bare):
            continue  # "Antwerp" of a corpus writing "UAntwerpen"
        unknown.append(word)
    return list(dict.fromkeys(unknown))


UNWRITTEN_MIN = 3  # content words a question needs for most of them unwritten to tell


def unwritten_words(corpus: CorpusIndex, question: str) -> list[str]:
    """The question's words that no page of the corpus writes (their stems), when they are more than half of its
    content words, or two of them at least that carry more than half of its weight (idf over the corpus's pages; a
    word no page writes weighs as one on a single page) (words asking what a text holds and numbers aside,
    UNWRITTEN_MIN of them at least; a word some document goes by counts as written): a question most of whose words
    the corpus never uses asks about something it does not discuss ("the recommended daily intake of vitamin C" of
    manuals; "the boiling point of ethanol at sea level", where "point", "sea" and "level" are common words of a GPS
    manual). A paraphrase misses some of the corpus's words, not most, nor the rarest of what it asks: [] then."""
    named, index = corpus.name_words, corpus.bm25["page"]
    asked: dict[str, str] = {}  # stem -> the question's word
    for word in words(question):
        for token in tokenize(word):
            if token not in ASKING_WORDS and not token.isdigit():
                asked.setdefault(token, word)
    missing = {token: word for token, word in asked.items() if token not in index.vocab and token not in named}
    if len(asked) < UNWRITTEN_MIN or not missing:
        return []
    unseen = rsj_idf(index.units, 1.0)  # (as rare as the corpus can tell: the idf of one page's word)
    weight = {t: unseen if t in missing else index.idf(t) for t in asked}
    heavy = len(missing) >= 2 and 2 * sum(weight[t] for t in missing) > sum(weight.values())
    return list(missing.values()) if 2 * len(missing) > len(asked) or heavy else []


def undefined_words(corpus: CorpusIndex, retrieval: Retrieval, doc: int) -> list[str]:
    """The words of a term the question asks to be defined (engine.index.evidence.defined_term) that the document
    never writes, in any form (its stems): a document that never uses a word of a term does not define it. None for
    another question, one asking more than the definition ("What is a hook, and how do I free the table?": its other
    part may be answered), or one asked in another language than the document's (it may name the term otherwise)."""
    if answer_type(retrieval.question) != "definition" or len(question_parts(retrieval.question)) > 1 \
            or corpus.docs[doc].info.language not in ("", retrieval.language):
        return []
    term = defined_term(retrieval.question)
    said = words(term)
    if len(said) > 1 and said[0].endswith("ing"):
        return []  # "what is making BaaS offerings riskier?" may ask what does something (a verb's -ing form, its
        # object after it), not for a term: a word of that object the document never writes says nothing
    vocab: dict[int, frozenset[str]] = corpus.extras.setdefault("doc_vocab", {})
    if doc not in vocab:
        vocab[doc] = frozenset(corpus.docs[doc].terms["page"].terms)
    return [w for w in said if all(any(t not in vocab[doc] for t in tokenize(form)) for form in spellings(w))]


def spellings(word: str) -> list[str]:
    """A word and its other English spelling ("organisation" / "organization", "analyse" / "analyze", "colour" /
    "color"): either may be the document's."""
    other = re.sub(r"(?<=[iy])s(?=(?:e|es|ed|ing|ation|ations|er|ers)$)", "z", word)
    other = re.sub(r"(?<=[iy])z(?=(?:e|es|ed|ing|ation|ations|er|ers)$)", "s", word) if other == word else other
    other = re.sub(r"our(?=s?$)", "or", other) if other == word else other
    return [word] if other == word else [word, other]


def aliases(question: str, start: int, end: int) -> list[str]:
    """The names a question gives in brackets for the word at [start, end), or the name it brackets: "GDPR
    (DSGVO)" -> "DSGVO"; "Regulation (GDPR)" -> "Regulation" (the run of capitalised words before the bracket)."""
    after = ALIAS_AFTER_RE.match(question, end)
    if after:
        return [w for w in NAMEISH_RE.findall(after.group(1)) if w[0].isupper() or any(c.isdigit() for c in w)]
    opened, closed = question.rfind("(", 0, start), question.find(")", end)
    if opened < 0 or closed < 0 or ")" in question[opened:start] or "(" in question[end:closed]:
        return []
    before = NAMEISH_RE.findall(question[:opened])
    run: list[str] = []
    for word in reversed(before):
        if not (word[0].isupper() or any(c.isdigit() for c in word)):
            break
        run.append(word)
    return run


def unheard(corpus: CorpusIndex, word: str) -> bool:
    """Whether some word of `word` (its tokens) is in no page's vocabulary, names no document and stands in no
    document's running headers and footers (a number aside; a decade, "1930s", counts as its year: the corpus may say
    "1930"), accents aside ("Angstroms" for a page's "Ångstroms", "Zurich" for "Zürich")."""
    if "unaccented" not in corpus.extras:  # (the pages', the documents' names' and furniture's words, read once)
        vocab = corpus.bm25["page"].vocab
        corpus.extras["unaccented"] = {unaccented(t) for t in vocab} \
            | {u for t in vocab if not t.isascii() for u in tokenize(unaccented(t))} \
            | {unaccented(n) for n in corpus.name_words} \
            | {unaccented(t) for index in corpus.docs for t in tokenize(index.info.furniture)}
    known: set[str] = corpus.extras["unaccented"]
    # (a word's stem may differ with its accents, "Hervé" -> "hervé", "Herve" -> "herv": each side is read unaccented
    # before it is stemmed too)
    return all(any(not t.isdigit() and unaccented(t) not in known
                   for t in (t[:4] if DECADE_RE.fullmatch(t) else t for t in tokenize(form)))
               for form in dict.fromkeys((word, unaccented(word))))


def on_some_page(corpus: CorpusIndex, pattern: str) -> bool:
    """Whether some page of the corpus holds the pattern; cached per corpus."""
    cache: dict[str, bool] = corpus.extras.setdefault("on_some_page", {})
    if pattern not in cache:
        found = re.compile(pattern)
        cache[pattern] = any(found.search(corpus.page_text(d, n + 1))
                             for d, index in enumerate(corpus.docs) for n in range(len(index.pages)))
    return cache[pattern]


def spelled_out(corpus: CorpusIndex, acronym: str) -> bool:
    """Whether some page spells the acronym out ("WEF": "World Economic Forum")."""
    return on_some_page(corpus, expansion(acronym))


WITHIN_MIN = 5  # letters a name needs to be found inside a longer word of the corpus


def written_within(corpus: CorpusIndex, word: str) -> bool:
    """Whether each word of `word` (its tokens) of WITHIN_MIN letters or more stands inside a longer word of some page,
    accents aside: the name in a compound, a brand or a code ("Antwerp" in "UAntwerpen", "Kubernetes" in
    "kubernetescluster")."""
    if "written" not in corpus.extras:  # (the pages' words, one a line, read once)
        corpus.extras["written"] = "\n".join(sorted({unaccented(t) for t in corpus.bm25["page"].vocab}))
    written: str = corpus.extras["written"]
    tokens = [unaccented(t) for t in tokenize(word) if not t.isdigit()]
    return bool(tokens) and all(len(t) >= WITHIN_MIN and t in written for t in tokens)


def written_apart(corpus: CorpusIndex, letters: str, number: str) -> bool:
    """Whether some page writes a code glued as one word ("FY2025") with its letters and number apart, the letters
    as they are or spelled out: "FY 2025", "Fiscal Year 2025"."""
    return on_some_page(corpus, rf"(?:\b{re.escape(letters)}|{expansion(letters)})[\s-]+{number}\b")


def own_parts(corpus: CorpusIndex, retrieval: Retrieval, docs: list[int]) -> dict[int, Retrieval]:
    """For a comparison asked in two parts, each naming one of its two documents and not the other ("How do you get
    coloured rules with booktabs, and how do you colour the answer boxes in AMC?"): each document's part as the
    retrieval its passages and sentences are chosen by (its words only); {} for any other question."""
    parts = question_parts(retrieval.question)
    if len(parts) != 2 or len(docs) != 2:
        return {}
    first, second = docs
    names = {first: corpus.name_terms[first] - corpus.name_terms[second],  # (the words naming it, not the other)
             second: corpus.name_terms[second] - corpus.name_terms[first]}
    asked = [set(query_terms(part, retrieval.language)) for part in parts]
    # which part names which document: one each, crosswise none
    found = {}
    for d, own in names.items():
        naming = [k for k, words in enumerate(asked) if own & words]
        if len(naming) != 1:
            return {}
        found[d] = naming[0]
    if len(set(found.values())) != 2:
        return {}
    return {d: replace(retrieval, question=parts[k], phrases=query_pairs(parts[k], retrieval.language),
                       terms=[t for t in retrieval.terms if t in asked[k]] or retrieval.terms)
            for d, k in found.items()}


def gather(corpus: CorpusIndex, retrieval: Retrieval, doc: int, options: AnswerOptions, limit: int) -> Evidence:
    """The best non-overlapping passages of a document's best pages."""
    weights = lexical.evidence_weights(corpus, retrieval.terms, doc, retrieval.routing)
    evidence = Evidence(doc)
    scores = retrieval.scores
    start = int(corpus.page_base[doc])
    count = len(corpus.docs[doc].pages)
    ranked = np.argsort(-scores[start:start + count], kind="stable")
    named = [s for s in retrieval.sections if s.doc == doc]
    if named:  # a section the question names: its pages alone compete (engine.index.sections)
        ranked = np.asarray([o for o in ranked if any(s.first_page <= o + 1 <= s.last_page for s in named)],
                            dtype=np.int64)
    # (and the page past them that holds the value asked for nearest what is asked, when the evidence test read it)
    beyond = SIGNAL_PAGES if nearer_beyond(corpus, retrieval, doc, ranked, options.pages_per_doc) else 0
    ranked = np.concatenate([ranked[: options.pages_per_doc], ranked[options.pages_per_doc:beyond]])
    pool: list[tuple[float, int, Window]] = []
    # the value asked for as the evidence test reads it: also an amount named without a question word for it
    # ("what recall and F1 score did … achieve")
    kind = answer_type(retrieval.question) or asked_kind(retrieval.question)
    notes = note_weight(retrieval.question)
    extremes = {} if named else extreme_windows(corpus, doc, [int(o) + 1 for o in ranked if scores[start + o] > 0],
                                                retrieval.question, retrieval.terms, weights)
    for offset in ranked:
        if scores[start + offset] <= 0:
            continue
        page = int(offset) + 1
        prior = PAGE_PRIOR * float(scores[start + offset] / scores[start + ranked[0]])
        analysis = page_units(corpus, doc, page)
        text = corpus.page_text(doc, page)
        # (a named section's own text: not the sections before or after it on its first and last pages)
        bounds = [s.bounds(page, text) for s in named if s.first_page <= page <= s.last_page]
        for window in score_windows(analysis, retrieval.terms, weights, retrieval.question,
                                    retrieval.phrases, text=text, kind=kind):
            if bounds and not any(lo <= window.start and window.end <= hi for lo, hi in bounds):
                continue
            # a passage of notes only (footnotes, reference entries) ranks as its sentences do (best_sentences):
            # lower, unless it holds the value asked for
            pool.append((analysis.weighed(window, notes) + prior, page, window))
        pool += [(window.score + prior, at, window) for at, window in extremes.get(page, [])
                 if not any(p == at and w.start == window.start for _, p, w in pool)]
    if not pool:
        return evidence
    pool.sort(key=lambda item: -item[0])
    best = pool[0][0]
    seen_terms: set[str] = set()
    for score, page, window in pool:
        if score < options.keep_share * best:
            break
        adds = bool(window.matched - seen_terms) or window.typed
        touching = [i for i, (p, w) in enumerate(evidence.chosen)
                    if p == page and window.start <= w.end + 2 and w.start <= window.end + 2]
        if touching:  # a passage overlapping or next to a chosen one grows it, within bounds
            i = touching[0]
            grown = merge(page_units(corpus, doc, page), corpus.page_text(doc, page), evidence.chosen[i][1], window)
            # a row of the same table that holds words of the question and a value joins the rows chosen
            adds = adds or (bool(window.matched) and valued_row(corpus.page_text(doc, page), window))
            if adds and grown.end - grown.start <= options.passage_chars:
                evidence.chosen[i] = (page, grown)
                seen_terms |= window.matched
            continue
        if len(evidence.chosen) >= limit:
            continue
        if evidence.chosen and not adds:
            continue  # nothing new
        evidence.chosen.append((page, window))
        seen_terms |= window.matched
    names = lexical.term_weights(corpus, retrieval.terms, doc, retrieval.routing)
    wanted = {t for t, w in zip(retrieval.terms, names) if w >= 1.0}  # words that do not just name a document
    evidence.chosen = [(page, trim(page_units(corpus, doc, page), corpus.page_text(doc, page), window, wanted,
                                   retrieval.question)) for page, window in evidence.chosen]
    evidence.chosen = [(page, read_back(page_units(corpus, doc, page), corpus.page_text(doc, page), window,
                                        [w for p, w in evidence.chosen if p == page and w is not window]))
                       for page, window in evidence.chosen]
    for i, (page, window) in enumerate(evidence.chosen):
        # the best passage reads on `read_on` characters, the others half that, within their paragraph run
        others = [w for j, (p, w) in enumerate(evidence.chosen) if p == page and j != i]
        evidence.chosen[i] = (page, read_on(page_units(corpus, doc, page), corpus.page_text(doc, page), window,
                                            options.read_on if i == 0 else options.read_on // 2, others))

    def page_of(page: int) -> tuple[PageUnits, str]:
        return page_units(corpus, doc, page), corpus.page_text(doc, page)

    for page, window in list(evidence.chosen):  # a passage running over its page break reads on the next page
        if page < count and runs_over(*page_of(page), window):
            opening = carried(*page_of(page + 1), leads_in(window.text),
                              items=ends_list(*page_of(page), window))
            if opening is not None and not any(p == page + 1 and w.start <= opening.start < w.end
                                               for p, w in evidence.chosen):
                evidence.chosen.append((page + 1, opening))
    evidence.chosen = close_gaps(with_table_headers(evidence.chosen, page_of), page_of)
    return evidence


def nearer_beyond(corpus: CorpusIndex, retrieval: Retrieval, doc: int, ranked: np.ndarray, first: int) -> bool:
    """Whether a page the evidence test reads (its SIGNAL_PAGES best) past the `first` the answer reads holds the value
    asked for nearer what is asked than they do: the value that let the question be answered belongs in the answer."""
    if len(ranked) <= first or first >= SIGNAL_PAGES:
        return False
    parts = value_parts(retrieval.question, corpus.name_terms[doc])
    if not parts:
        return False

    def near(offset: int) -> float:
        analysis = page_units(corpus, doc, int(offset) + 1)
        return max(nearness(analysis, focus, kind, retrieval.question) for focus, kind in parts)

    beyond = max(near(o) for o in ranked[first:SIGNAL_PAGES])
    return beyond > 0 and beyond > max(near(o) for o in ranked[:first])


def extreme_windows(corpus: CorpusIndex, doc: int, pages: list[int], question: str, terms: list[str],
                    weights: list[float]) -> dict[int, list[tuple[int, Window]]]:
    """For a question for the most or the least of something, by each of `pages`: a passage of each row that holds
    the extreme value of a table on that page (read whole over the pages it runs on: engine.agent.extremes; the
    tables of all the pages read once), on the row's own page, scored as the share of the question's weight the row
    holds with its table's caption and header row."""
    sign = direction(question)
    if not sign or not pages:
        return {}
    count = len(corpus.docs[doc].pages)
    found = extremes_over([(p, corpus.page_text(doc, p)) for p in sorted({n for page in pages
                                                                          for n in pages_around(page, count)})],
                          sign, question)
    total = sum(w for w in weights if w > 0) or 1.0
    windows: list[tuple[int, Window, tuple[int, int]]] = []  # (its page, the passage, its table's first and last page)
    for at, rows in found.items():
        if not rows:
            continue
        analysis = page_units(corpus, doc, at)
        for row in rows.values():
            for i, unit in enumerate(analysis.units):
                if unit.line != row.line:
                    continue
                stems = analysis.stems[i] | row.context
                matched = frozenset(t for t, w in zip(terms, weights) if w > 0 and t in stems)
                share = sum(w for t, w in zip(terms, weights) if t in matched) / total
                windows.append((at, Window(unit.start, unit.end, 1, share, share, matched, True, unit.text,
                                           (unit.text,)), row.pages))
                break
    return {page: [(at, window) for at, window, (first, last) in windows if first <= page <= last] for page in pages}


def valued_row(text: str, window: Window) -> bool:
    """Whether a window is table rows (engine.agent.rows.is_row) stating a number."""
    first = text.rfind("\n", 0, window.start) + 1
    return is_row(text[first:window.end]) and NUMBER_RE.search(window.text) is not None


# questions the document's own parts answer, tried in this order before a search's passages, and what the trace says
STRUCTURE_ANSWERS: tuple[tuple[Callable[[CorpusIndex, Retrieval], Made | None], str], ...] = (
    # "What is this about?" (of a chosen document it has no word to search for): its own account
    (overview, "asks what a document is about: its own account of itself answers"),
    (page_overview, "asks what a page it names holds: the page's opening answers"),  # "What is on slide 4?"
    # "What are the chapters of the Menhir manual?": its tree's top-level sections
    (contents_overview, "asks for a document's parts: its tree's top-level sections answer"),
    # "Which types of plans does section 2.2 describe?": its list of them, else its subsections' titles
    (section_parts_overview, "asks for things of a section it names: its list of them or its subsections answer"),
    # "What does section 7 cover?": its first sentence and those saying most of what it says
    (section_summary, "asks what a section it names holds: its subsections, else its most telling sentences answer"),
    # "How does Riverline work?" of a section "How it works": its opening
    (section_overview, "restates a section's title: the section's opening answers"),
    # "In NUT, what is a secondary upsmon system?" of "2.10.2 Secondary", where no sentence defines it: its opening
    (titled_definition, "asks what a term is that a section is titled by and no sentence defines: its opening answers"),
    # "What outcomes can the interpreter display?" of "8.2 Outcomes": its list of them
    (section_list_overview, "asks for things a section is titled by: the section's list of them answers"),
    # "Which system calls does … make available?" of "… six different system calls", then a subsection each
    (counted_parts_overview, "asks for things a section counts and gives a subsection each: their titles answer"),
    # "What flags does BLAKE3 define?" of a table headed "Flag name | Value": its rows
    (table_column_overview, "asks for things a table's column names: the table's rows answer"),
    # "Which features cannot be set through TypeTuner Web?" of a chart whose features' sections each say so
    (recurring_overview, "asks which things are so: the sections saying it of each, in the same words, answer"),
    # "What is the XC9500?" of the XC9500 data sheet: its own account
    (partial(overview, defining=True), "asks what the thing a document is named by is: its own account answers"),
)


def asks_more_than_maker(corpus: CorpusIndex, question: str, said: str) -> bool:
    """Whether a question asking who made a document (engine.agent.authors.asks_for_authors) asks something else too
    that what answers it (`said`: its title block, …) does not: a part of it (engine.index.evidence.question_parts) that
    is no such question, asks of no author ("where are they based?" asks of them) and names something `said` does not
    hold ("which version does it document?" of a title block stating its version)."""
    names = corpus.name_words
    held = set(tokenize(said))
    return any(not asks_for_authors(part, names) and not MAKER_PRONOUN_RE.search(part)
               and not set(focus_terms(part, names)) <= held
               for part in parts) if len(parts := question_parts(question)) > 1 else False


def cited_first(retrieved: list[RetrievedPage], citations: list[Citation], k: int) -> list[RetrievedPage]:
    """The retrieved pages with the pages an answer cites first, in its order, scored as the best of them (a title
    block the answer reads ranks before the pages the question's words matched); k pages, or every cited one."""
    top = max((r.score for r in retrieved), default=0.0)
    cited = list(dict.fromkeys((c.doc, c.page) for c in citations))
    lead = [RetrievedPage(doc=doc, page=page, score=top) for doc, page in cited]
    leading = set(cited)
    rest = [r for r in retrieved if (r.doc, r.page) not in leading]
    return (lead + rest)[:max(k, len(lead))]


def answer_offline(corpus: CorpusIndex, retrieval: Retrieval, *, k: int = 5,
                   options: AnswerOptions | None = None, trace: list[TraceStep] | None = None) -> Answer:
    """Compose the extractive answer for a retrieval (see the module docstring)."""
    options = options or AnswerOptions()
    trace = list(trace or [])
    retrieved = [RetrievedPage(doc=h.doc, page=h.page, score=h.score) for h in retrieval.hits[:k]]
    routing = retrieval.routing

    maker: tuple[Made, str] | None = None  # who made the document, when the question asks more than that

    def refused(reason: str) -> Answer:
        if maker is not None:  # (its other part uncovered: who made it still answers)
            trace.append(TraceStep(kind="decision", detail=f"its other part not covered: {reason}"))
            return answered(*maker)
        trace.append(TraceStep(kind="decision", detail=f"not covered: {reason}"))
        return Answer(answer=f"{NOT_COVERED}: {reason}.", retrieved=retrieved, trace=trace, covered=False)

    def answered(made: Made, decision: str) -> Answer:
        """A question a document's own place answers (its title block, its account of itself): the pages it cites
        lead the retrieved pages, whatever rank their words gave them."""
        text, citations, passages = made
        trace.append(TraceStep(kind="decision", detail=decision))
        return Answer(answer=text, citations=citations, retrieved=cited_first(retrieved, citations, k), trace=trace,
                      passages=passages, covered=True)

    # a question about what a document is about ("What is this about?" of a chosen one has no word to search for):
    # its own account answers
    for find, said in STRUCTURE_ANSWERS:
        made = find(corpus, retrieval)
        if made is not None:
            return answered(made, f"{said} (" + ", ".join(f"{c.doc}, p. {c.page}" for c in made[1]) + ")")
    if not retrieval.hits:
        trace.append(TraceStep(kind="decision", detail="no page matches the question"))
        return Answer(answer=f"{NOT_COVERED}: no page matches it.", retrieved=retrieved, trace=trace, covered=False)
    if routing.comparison:
        docs, limit = routing.chosen[:2], options.per_doc_windows
        options = replace(options, pages_per_doc=options.compare_pages_per_doc)
    else:
        top = corpus.doc_position(retrieval.hits[0].doc)
        assert top is not None  # a hit is a page of the corpus
        docs, limit = [top], options.max_windows
    if asks_for_list(retrieval.question):  # a list answer reads on further
        options = replace(options, read_on=options.read_on * LIST_READ_ON)
    unknown = unknown_names(corpus, retrieval.question, retrieval.language)
    if unknown:
        return refused(f"the corpus never mentions {', '.join(unknown)}")
    unused = [] if routing.comparison else undefined_words(corpus, retrieval, docs[0])
    if unused:
        return refused(f"{corpus.docs[docs[0]].info.file_name} never uses {', '.join(unused)}, "
                       f"so it defines no “{defined_term(retrieval.question)}”")
    past = [] if routing.comparison or retrieval.sections else pages_past_end(corpus, retrieval.question, docs[0])
    if past:  # "page 99" of a 12-page document: its other pages do not answer for it
        count = len(corpus.docs[docs[0]].pages)
        return refused(f"{corpus.docs[docs[0]].info.file_name} has {count} page{'s' if count > 1 else ''}, "
                       f"no page {past[0]}")
    made = who_made(corpus, retrieval)  # a question about who made a document: its title block answers
    if made is not None:
        said = "asks who made the document: what " + ", ".join(f"{c.doc} says of it on p. {c.page}" for c in made[1]) \
            + " answers (its title block, a sentence naming who made it, or its copyright notice)"
        if not asks_more_than_maker(corpus, retrieval.question, made[0]):
            return answered(made, said)
        maker = (made, said)  # "Who wrote the guide, and when was revision 1.0 issued?": the pages answer the rest
        trace.append(TraceStep(kind="decision", detail=said + "; its other part is searched for"))
    made = who_made(corpus, retrieval, dated=True)  # … or when: a title block stating a date
    if made is not None:
        return answered(made, "asks when the document was made: the title block of " +
                        ", ".join(c.doc for c in made[1]) + " answers")
    unwritten = unwritten_words(corpus, retrieval.question)  # (who made it is asked in words a corpus may never use)
    if unwritten:
        return refused(f"the corpus never writes most of what it asks about ({', '.join(unwritten)})")
    found = {d: signals(corpus, retrieval, d) for d in docs}
    for d, s in found.items():
        trace.append(TraceStep(kind="evidence", doc=corpus.docs[d].info.file_name, detail=(
            f"support {support(s):.2f} (needs {THRESHOLD:.2f}): the best sentence holds {s.cover:.0%} of the "
            f"question's weight, {s.typed:.0%} with the value asked for; {s.focus:.0%} of what it asks "
            f"for is named together; the value stands near it {s.near:.0%}; the unit asked for {s.unit:.0%}")))
    together = combined(list(found.values()))  # a comparison: its documents together, each holding its part
    if len(found) > 1:
        trace.append(TraceStep(kind="evidence",
                               detail=f"the compared documents together: support {support(together):.2f}"))
    titles = " or ".join(corpus.docs[d].info.title for d in docs)
    if support(together) < THRESHOLD:
        return refused(f"the best pages of {titles} do not hold enough of what it asks for")
    asked_of = own_parts(corpus, retrieval, docs) if routing.comparison else {}  # each document its own part
    evidence = [gather(corpus, asked_of.get(d, retrieval), d, options, limit) for d in docs]
    for ev in evidence:
        pages = sorted({p for p, _ in ev.chosen})
        trace.append(TraceStep(kind="evidence", doc=corpus.docs[ev.doc].info.file_name, detail=(
            f"{len(ev.chosen)} passage(s) from page(s) {', '.join(map(str, pages)) or '-'}")))
    parts, citations, passages = [], [], []
    for ev in evidence:
        index = corpus.docs[ev.doc]
        own = found[ev.doc]
        # a compared document holding none of its part: no question word, or nothing of what is asked and no value
        if not ev.chosen or not own.cover or (len(found) > 1 and own.focus == 0 and own.near == 0):
            trace.append(TraceStep(kind="decision", doc=index.info.file_name, detail=(
                f"does not cover its part: support {support(own):.2f}, nothing of what it asks for named")))
            parts.append(f"{index.info.title}: this document does not cover its part of the question.")
            continue

        def page_of(page: int, doc: int = ev.doc) -> tuple[PageUnits, str]:
            return answer_units(corpus, doc, page)  # (long table rows cut into pieces: engine.agent.pieces)

        its = asked_of.get(ev.doc, retrieval)
        weights = dict(zip(its.terms, lexical.evidence_weights(corpus, its.terms, ev.doc, routing)))
        picked = best_sentences(ev.chosen, page_of, {t: w for t, w in weights.items() if w > 0},
                                its.question, its.phrases, frozenset(corpus.name_terms[ev.doc]))
        if not picked:  # its passages hold no sentence to quote (a heading alone, where a value is asked for)
            trace.append(TraceStep(kind="decision", doc=index.info.file_name,
                                   detail="does not cover its part: its best passages hold no sentence to quote"))
            parts.append(f"{index.info.title}: this document does not cover its part of the question.")
            continue
        titled = None if routing.comparison else titled_section(corpus, ev.doc, picked)
        if titled is not None:  # (a title alone says nothing: the section it titles answers)
            return answered(titled, "its best sentences are titles alone: the section they title answers (" +
                            ", ".join(f"{c.doc}, p. {c.page}" for c in titled[1]) + ")")
        # a deck's slides set each element on a line of its own (a title, a quote and its speaker, a card's lines):
        # its answer keeps them apart rather than running them together as one paragraph of prose
        text = answer_text(picked, page_of, by_line=is_deck(corpus, ev.doc))
        if routing.comparison:  # a document's part opens with its title (on a line of its own over a list)
            text = f"{index.info.title}:" + ("\n" if text.startswith("- ") else " ") + text
        parts.append(text)
        for page in dict.fromkeys(s.page for s in picked):
            on_page = [s for s in picked if s.page == page]
            citations.append(Citation(doc=index.info.file_name, page=page,
                                      quote=quote(on_page, corpus.page_text(ev.doc, page))))
        first = {page: i for i, (page, _) in reversed(list(enumerate(ev.chosen)))}  # a page's best passage rank
        passages += [Passage(doc=index.info.file_name, page=page, text=readable(w.text))
                     for page, w in sorted(ev.chosen, key=lambda item: (first[item[0]], item[1].start))]
    if not citations:  # no document had a sentence to quote
        return refused(f"the best pages of {titles} hold no sentence that answers it")
    trace.append(TraceStep(kind="decision", detail=(
        "compared side by side" if routing.comparison else "answered from one document")))
    if maker is not None:  # who made it first, then what its pages say to the rest
        (text, cited, quoted_passages), _ = maker
        parts, citations, passages = [text, *parts], [*cited, *citations], [*quoted_passages, *passages]
    return Answer(answer="\n\n".join(parts), citations=citations, retrieved=retrieved, trace=trace,
                  passages=passages, covered=True)
