"""Things a document says the same of, each under its own heading ("Which of Andika's features cannot be set through
TypeTuner Web?" of a font's feature chart in which a feature's section says "This feature is not supported in
TypeTuner Web."): the sentence said under two or more headings answers, by those headings, one a line.

A reference work (a feature chart, a command reference, a list of options) gives each thing a section of its own and
states a property of it in the same words each time; the answer to "which things have the property" is the set of
sections saying it, which no single passage holds. The sentence must hold most of what the question asks about (its
weight, the document's name words discounted) and be found on the document's best pages; every place the document says
it word for word is then read, and each is named by the heading over it on its page.
"""

from __future__ import annotations

import re

import numpy as np

from engine.agent.authors import Made
from engine.index.focus import listed_head
from engine.agent.pieces import answer_units
from engine.agent.overview import quoted
from engine.agent.sentences import Sentence, unit_sentence
from engine.index import lexical
from engine.index.corpus import CorpusIndex
from engine.index.evidence import PageUnits, readable
from engine.index.retrieve import Retrieval
from engine.text import words

SEARCHED_PAGES = 10  # the document's best pages whose sentences may be the one said again
MIN_PLACES = 2  # headings the sentence must stand under, at the least
MAX_PLACES = 20  # places listed at most
HELD_SHARE = 0.5  # of the question's weight the sentence holds, at the least
MIN_WORDS = 4  # a sentence this short ("See below.") says nothing of a thing
# "which of Andika's features …", "what options …", "which commands …": the things asked for, in the plural
WHICH_RE = re.compile(r"\b(?:which|what)\s+(?:of\s+)?(?:the\s+|its\s+|their\s+|[\w’'.-]+['’]s\s+)?"
                      r"(?:[\w’'+-]+\s+){0,2}?(?!(?:does|has|was|is|its|this|thus)\b)(?P<head>[a-z][\w-]*[^s\W]s)\b",
                      re.I)


def asks_which_things(question: str) -> bool:
    """Whether a question asks which things (a plural noun after "which"/"what", within a few words) are so, or asks
    to list them ("List the Andika features that …": engine.agent.focus.listed_head)."""
    return WHICH_RE.search(question) is not None or listed_head(question) is not None


def recurring_overview(corpus: CorpusIndex, retrieval: Retrieval) -> Made | None:
    """The answer to a question asking which things are so, when the document routing put first says so of each
    thing in the same sentence under its own heading (two or more): each heading's title with that sentence, one a
    line, in page order; None for any other question or document."""
    routing = retrieval.routing
    if routing.comparison or not routing.chosen or retrieval.sections or not asks_which_things(retrieval.question):
        return None
    doc = routing.chosen[0]
    terms = list(retrieval.terms)
    weights = lexical.evidence_weights(corpus, terms, doc, routing)
    total = sum(weights)
    if total <= 0:
        return None
    start, count = int(corpus.page_base[doc]), len(corpus.docs[doc].pages)
    scores = retrieval.scores[start:start + count]
    best: tuple[float, str] | None = None
    for offset in np.argsort(-scores, kind="stable")[:SEARCHED_PAGES]:
        if scores[offset] <= 0:
            break
        analysis, _ = answer_units(corpus, doc, int(offset) + 1)
        for i, unit in enumerate(analysis.units):
            if unit.heading or i in analysis.notes or len(words(unit.text)) < MIN_WORDS:
                continue
            held = sum(w for t, w in zip(terms, weights) if t in analysis.stems[i]) / total
            if held >= HELD_SHARE and (best is None or held > best[0]):
                best = (held, unit.text)
    if best is None:
        return None
    places = said_under_headings(corpus, doc, best[1])
    if len({heading.text for heading, _ in places}) < MIN_PLACES:
        return None
    return listed(corpus.docs[doc].info.file_name, places[:MAX_PLACES], lambda page: answer_units(corpus, doc, page))


def said_under_headings(corpus: CorpusIndex, doc: int, said: str) -> list[tuple[Sentence, Sentence]]:
    """Every place of the document that says `said` word for word with a heading above it on its page: (the heading,
    the sentence), in page order."""
    def page_of(number: int) -> tuple[PageUnits, str]:
        return answer_units(corpus, doc, number)

    wanted = " ".join(said.split())
    found: list[tuple[Sentence, Sentence]] = []
    for page in range(1, len(corpus.docs[doc].pages) + 1):
        if wanted not in " ".join(corpus.page_text(doc, page).split()):
            continue
        analysis, _ = page_of(page)
        heading: int | None = None
        for i, unit in enumerate(analysis.units):
            if unit.heading:
                heading = i
            elif heading is not None and " ".join(unit.text.split()) == wanted:
                found.append((unit_sentence(page, heading, page_of, 0), unit_sentence(page, i, page_of, 0)))
    return found


def listed(file_name: str, places: list[tuple[Sentence, Sentence]], page_of) -> Made:
    """Each heading with its sentence, one a line ("- Kayan diacritics: This feature is not … (p. 8)"), one citation a
    page quoting what was used of it (engine.agent.overview.quoted)."""
    _, citations, passages = quoted(file_name, [s for pair in places for s in pair], page_of)
    lines = [f"- {readable(heading.text)}: {readable(said.text)} (p. {heading.page})" for heading, said in places]
    return "\n".join(lines), citations, passages
