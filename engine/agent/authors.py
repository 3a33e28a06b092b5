"""Questions about who made a document (its authors, their affiliations, the organisation that produced it) and
the place a document says so: its title block, the short lines under its title (names, affiliations, a date).

The words of such a question name the document and the making ("who wrote the Menhir reference manual"); no
passage of the body holds them together with the answer, which the title block states without repeating the
question's words. So the question is routed by the words that name the document and the answer is the title block
itself, quoted from its page (`who_made`).
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet

from engine.agent.pieces import answer_units
from engine.agent.sentences import quote, unit_sentence
from engine.extract.metadata.document import BYLINE_RE, NOTICE_RE
from engine.index import lexical
from engine.index.corpus import CorpusIndex
from engine.index.evidence import DATE_RE, PageUnits, readable
from engine.index.retrieve import Retrieval
from engine.markdown import IMAGE_RE, MARKER_RE, is_heading
from engine.schemas import Citation
from engine.schemas.answer import Passage
from engine.text import DOCUMENT_KINDS, DOCUMENT_NOUNS, stem, tokenize, words

# the making of a document, by a question word ("who wrote …") or by what is asked ("which organisations
# produced …", "which authors are credited on …"), or as a sentence says it (MADE_BY_RE); a talk's speakers gave,
# presented or delivered it
MAKER_VERBS = (r"wrote|written|authored|prepared|produced|published|issued|compiled|edited|credited"
               r"|gave|given|presented|delivered")
# a sentence that says who made the document it stands in, when its title block names no one (a cover of logos):
# "This report from the Institute of International Finance (IIF) and Deloitte studies …", "This paper was prepared
# by the Staff of …", "This study, produced in collaboration with Accenture, …" (the document itself its subject)
MADE_BY_RE = re.compile(rf"\b(?i:this|the\s+present)\s+(?:\w+\s+){{0,2}}?(?:{'|'.join(DOCUMENT_KINDS)}|survey)s?,?\s+"
                        rf"(?:(?:is|was|has\s+been|were)\s+)?(?:(?:jointly\s+)?(?:{MAKER_VERBS}|developed|"
                        rf"commissioned)\s+)?(?:from|by|in\s+(?:collaboration|partnership|cooperation)\s+with)\s+"
                        rf"(?:the\s+)?[A-Z]")
WHO_MADE_RE = re.compile(rf"\bwho\s+(?:{MAKER_VERBS})\s+(?P<made>.+)"
                         rf"|\b(?:who\s+(?:is|are|was|were)|name|list|identify)\s+"
                         rf"(?:the\s+)?authors?\s+(?:of|behind)\s+(?P<of>.+)", re.I)
# when a document was made ("When was the DOT strategic plan published?", "When was the Menhir manual released?")
WHEN_MADE_RE = re.compile(rf"\bwhen\s+(?:was|were|is|did)\s+(?P<made>.+?)\s+(?:{MAKER_VERBS}|released|issued|dated|"
                          rf"publish|release|write|issue)\b", re.I)
DATED_RE = re.compile(rf"{DATE_RE.pattern}|\b(?:19|20)\d\d\b")  # a title block's date, or at least its year
MAKERS = r"authors?|organi[sz]ations?|institutions?|agenc(?:y|ies)|compan(?:y|ies)|universit(?:y|ies)"
ASKED_MAKERS_RE = re.compile(rf"\b(?:what|which|name|list|identify)\s+(?:the\s+)?(?:\w+\s+)?(?:{MAKERS})\s+"
                             rf"(?:\w+\s+){{0,2}}?(?:{MAKER_VERBS}|behind)\s+(?P<made>.+)", re.I)
# the authors' places ("affiliated with", "author affiliations") or the authors as the thing asked without a
# question word ("Menhir manual: authors and version")
AFFILIATION_RE = re.compile(r"\baffiliat(?:ed|ions?)\b", re.I)  # (with AUTHOR_RE: not firms' "affiliated" companies)
AUTHOR_RE = re.compile(r"\bauthors?\b", re.I)
QUESTION_WORD_RE = re.compile(r"\b(?:what|which|who|how|why|when|where|do|does|did)\b", re.I)
TERSE_RE = re.compile(r"(?:^|:\s*)authors?\b", re.I)
# the words of such a question that ask for the making, not name the document: left out when it is routed
MAKING_TERMS = DOCUMENT_NOUNS | frozenset(stem(w) for w in MAKER_VERBS.split("|")) | frozenset(
    stem(w) for w in "author authors affiliated affiliation affiliations".split())
LABEL_CELL_RE = re.compile(r":\s*\|\s*")  # a label's cell and its value's: "Author: | Ada Quill"
TITLE_PAGES = 3  # opening pages searched for a document's title block (a cover may come first)
BLOCK_LINES = 24  # lines of text under a title that its title block may hold
BLOCK_WORDS = 16  # a longer line, most of its words in lower case, is the body's prose: the title block ends there
LOWER_SHARE = 0.3  # … (a longer line of capitalised names is a list of authors)


def asks_for_authors(question: str, names: AbstractSet[str] = frozenset(), *, dated: bool = False) -> bool:
    """True when the question asks who made a document, not something of its content: "who wrote" or "which
    organisations produced" a thing named as a document (by a kind of document, "the … paper", or by the words
    that name one, `names`), its authors' affiliations, or its authors without a question word. `dated`: instead,
    when it was made ("When was the … plan published?")."""
    text = " ".join(question.split())
    if dated:
        match = WHEN_MADE_RE.search(text)
        return match is not None and names_a_document(match.group("made"), names)
    if AFFILIATION_RE.search(text) and AUTHOR_RE.search(text):
        return True
    if TERSE_RE.search(text) and not QUESTION_WORD_RE.search(text):
        return True
    for pattern in (WHO_MADE_RE, ASKED_MAKERS_RE):
        match = pattern.search(text)
        if match:
            return names_a_document(match.group("made") or match.group("of"), names)
    return False


def names_a_document(phrase: str, names: AbstractSet[str]) -> bool:
    """Whether the phrase a question makes its object names a document: a kind of document ("the … paper"), or two
    of the words that name one (`names`), among its first eight words."""
    made = [stem(w) for w in words(phrase)][:8]
    return bool(DOCUMENT_NOUNS & set(made)) or (bool(made) and sum(w in names for w in made) >= 2)


def naming_terms(terms: list[str], names: AbstractSet[str] = frozenset()) -> list[str]:
    """The terms of a question about who made a document that name the document ("who wrote the Gasper paper"
    -> gasper): its words of making and of kinds of documents would route it to whichever document says who
    "wrote" what (an acknowledgement, a contributions note), unless a kind is one a document goes by (`names`: the
    words that name the corpus's documents, their types among them: "the master's thesis" of the one thesis)."""
    return [t for t in terms if t not in MAKING_TERMS or (t in DOCUMENT_NOUNS and t in names)] or terms


def title_block(page: str) -> tuple[int, int] | None:
    """(start, end) in the page's Markdown of its title block: the short lines set over its first heading (the
    title), if there are no more than BLOCK_LINES, and those after it up to the body's first prose line or next
    heading (a short line just before the prose, its label, "Abstract", left out), the title itself not quoted when
    nothing stands over it; None when the page has no heading or the block names no one (a subtitle)."""
    lines = page.split("\n")
    offsets, at = [], 0
    for line in lines:
        offsets.append(at)
        at += len(line) + 1
    title = next((i for i, line in enumerate(lines) if line.startswith("# ")), None)
    if title is None:
        return None
    texts = [i for i, line in enumerate(lines) if line.strip() and not IMAGE_RE.match(line.strip())
             and not MARKER_RE.match(line.strip())]
    above = [i for i in texts if i < title]  # lines set over the title ("Mads Tofte, March 1, 1989")
    kept = above if len(above) <= BLOCK_LINES and not any(prose(lines[i]) for i in above) else []
    under: list[int] = []
    for i in (i for i in texts if i > title):
        line = lines[i].strip()
        if len(under) == BLOCK_LINES:
            break
        if is_heading(line) or prose(line) or line.startswith(("- ", "* ", "```")):
            if under and len(lines[under[-1]].split()) <= 2:  # the label of what follows ("Abstract")
                under.pop()
            break
        under.append(i)
    kept += under
    if not any(names_line(lines[i]) for i in kept):  # a subtitle, not who made it
        return None
    return offsets[kept[0]], offsets[kept[-1]] + len(lines[kept[-1]].rstrip())


PARTICLES = frozenset("and und et y e of de der den van von da di du la le dr prof".split())


# a name's contact details: an e-mail address, a handle ("@ada"), a URL, or any of them in brackets
CONTACT_RE = re.compile(r"[(<\[][^)>\]]*(?:@|://)[^)>\]]*[)>\]]|\S*@\S*|\S+://\S+")


def names_line(line: str) -> bool:
    """A line of names (people or an organisation): a byline ("Prepared by …", "Author: …"), or two words or more,
    each word of letters capitalised but for particles ("and", "van", "de"), their contact details aside ("Ada Quill
    (@ada)", "Ben Marsh <ben@tarn.org>"). (A byline as the metadata's author reads one:
    engine.extract.metadata.document.BYLINE_RE.)"""
    if BYLINE_RE.match(line):
        return True
    found = [w for w in re.findall(r"[^\W\d_][\w'’.-]*", CONTACT_RE.sub(" ", line)) if w.lower() not in PARTICLES]
    return len(found) >= 2 and all(w[:1].isupper() for w in found)


def prose(line: str) -> bool:
    """A line of the body's prose: longer than BLOCK_WORDS words, LOWER_SHARE of them starting in lower case (an
    author list is a long line of capitalised names)."""
    found = line.split()
    return len(found) > BLOCK_WORDS and sum(w[:1].islower() for w in found) >= LOWER_SHARE * len(found)


Made = tuple[str, list[Citation], list[Passage]]  # an answer's text, its citations and its passages


def who_made(corpus: CorpusIndex, retrieval: Retrieval, *, dated: bool = False) -> Made | None:
    """The answer to a question asking who made a document (`asks_for_authors`): routed again by its words that
    name the document (among the documents the search was allowed), the title block of each document it names
    (`names_it`); None for any other question, or when no such document has a title block that names someone.
    `dated`: a question asking when a document was made, answered by title blocks that state a date."""
    names = corpus.name_words
    if not asks_for_authors(retrieval.question, names, dated=dated):
        return None
    about = naming_terms(retrieval.terms, names)
    named = lexical.route(corpus, retrieval.question, about, [s.doc for s in retrieval.routing.scores])
    # (a document written in another language than the question's shares few of its words: one of them names it)
    chosen = [d for d in (named.chosen[:2] if named.comparison else named.chosen[:1])
              if names_it(corpus, d, about, named.comparison or corpus.docs[d].info.language not in (
                  "", retrieval.language))]
    return title_blocks(corpus, chosen, named.comparison, dated=dated) or (
        None if dated else made_by_sentences(corpus, chosen, named.comparison)
        or made_by_sentences(corpus, chosen, named.comparison, NOTICE_RE, last=True))


def names_it(corpus: CorpusIndex, doc: int, terms: list[str], compared: bool = False) -> bool:
    """Whether at least half of the terms (one, for a document compared with another: the other's name is the rest;
    `compared` also for one written in another language than the question) are words the document goes by or writes
    on its opening pages (where a document says what it is): the document the question asks about, not one routed by
    a word it happens to use."""
    opening = set(tokenize(" ".join(corpus.page_text(doc, n) for n in range(1, min(TITLE_PAGES, len(
        corpus.docs[doc].pages)) + 1))))
    held = sum(t in corpus.name_terms[doc] or t in opening for t in terms)
    return bool(terms) and (held >= 1 if compared else 2 * held >= len(terms))


def label_and_value(line: str) -> str:
    """A title block's line as prose: a row of a label's cell and its value's read "Author: Ada Quill" (the page's
    "| Author: | Ada Quill |"); any other line as it is ("Ada Quill | Ben Marsh")."""
    if not LABEL_CELL_RE.search(line):
        return line
    return LABEL_CELL_RE.sub(": ", line.strip().strip("|").strip())


def title_blocks(corpus: CorpusIndex, docs: list[int], comparison: bool, *, dated: bool = False) -> Made | None:
    """The title block of each document (`title_block`), on the first of its opening pages that has one, its lines
    read apart ("; "), quoted and cited (a comparison gives each document its line); None when none has one.
    `dated`: only a block that states a date or a year."""
    parts: list[str] = []
    citations: list[Citation] = []
    passages: list[Passage] = []
    for d in docs:
        index = corpus.docs[d]
        for page in range(1, min(TITLE_PAGES, len(index.pages)) + 1):
            span = title_block(corpus.page_text(d, page))
            if span is None or (dated and not DATED_RE.search(corpus.page_text(d, page)[span[0]:span[1]])):
                continue

            def page_of(number: int, doc: int = d) -> tuple[PageUnits, str]:
                return answer_units(corpus, doc, number)

            analysis, text = page_of(page)
            picked = [unit_sentence(page, i, page_of, 0) for i, unit in enumerate(analysis.units)
                      if span[0] <= unit.start and unit.end <= span[1]
                      and any(c.isalnum() for c in unit.text)]  # (no rule drawn in characters: "___", "* * *")
            if not picked:
                continue
            lines: dict[int, list[str]] = {}  # the block's lines, each line's units together, lines apart by "; "
            for s in picked:
                lines.setdefault(s.line, []).append(readable(s.text))
            said = ""
            for pieces in lines.values():
                line = label_and_value(" ".join(pieces))
                said += (" " if not said or said.endswith(":") else "; ") + line
            said = said.strip() + f" (p. {page})"
            parts.append(f"{index.info.title}: {said}" if comparison else said)
            citations.append(Citation(doc=index.info.file_name, page=page, quote=quote(picked, text)))
            passages.append(Passage(doc=index.info.file_name, page=page, text=readable(text[span[0]:span[1]])))
            break
    return ("\n\n".join(parts), citations, passages) if parts else None


def made_by_sentences(corpus: CorpusIndex, docs: list[int], comparison: bool,
                      pattern: re.Pattern[str] = MADE_BY_RE, *, last: bool = False) -> Made | None:
    """For documents whose title block names no one: the first sentence of each one's opening pages that says who
    made it (MADE_BY_RE: "This report from the Institute of International Finance and Deloitte …"), quoted and
    cited; None when none says so. `pattern`: another pattern of such a sentence (NOTICE_RE, a copyright holder or a
    dateline); `last`: the document's last page read too (where a copyright notice often stands)."""
    parts: list[str] = []
    citations: list[Citation] = []
    passages: list[Passage] = []
    for d in docs:
        index = corpus.docs[d]
        found = None
        pages = list(range(1, min(TITLE_PAGES, len(index.pages)) + 1))
        for page in pages + ([len(index.pages)] if last and len(index.pages) not in pages else []):
            analysis, text = answer_units(corpus, d, page)
            found = next(((page, i, text) for i, unit in enumerate(analysis.units)
                          if not unit.heading and pattern.search(unit.text)), None)
            if found:
                break
        if found is None:
            continue
        page, i, text = found

        def page_of(number: int, doc: int = d) -> tuple[PageUnits, str]:
            return answer_units(corpus, doc, number)

        sentence = unit_sentence(page, i, page_of, 0)
        said = f"{readable(sentence.text)} (p. {page})"
        parts.append(f"{index.info.title}: {said}" if comparison else said)
        citations.append(Citation(doc=index.info.file_name, page=page, quote=quote([sentence], text)))
        passages.append(Passage(doc=index.info.file_name, page=page, text=readable(sentence.text)))
    return ("\n\n".join(parts), citations, passages) if parts else None
