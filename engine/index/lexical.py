"""Lexical retrieval: route the question to documents, then rank their pages by BM25 over passages.

Routing reads how each document names itself, its profile (keywords, themes, headings, summary) and
the best passage it holds. Within a routed document, term weights use the document's own statistics
(a word on every page of it tells no page apart) and the words that name a routed document count
less (they chose the document; they do not locate the answer in it). Passages are the block model's
paragraphs, list runs, table rows and code blocks, each with its section path (engine/index/passages.py);
a page scores by its best passages.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from engine.index.corpus import CorpusIndex
from engine.index.evidence import QUOTED_TITLE_RE, definition_context
from engine.text import DOCUMENT_KINDS, DOCUMENT_NOUNS, STOP_WORDS, stem, words

COMPARE_RE = re.compile(
    r"\b(compare[sd]?|comparison|comparing|versus|vs\.?|both|differ|differs|difference|differences|contrast|"
    r"whereas|respectively|each of|in each|between)\b", re.I,
)
# "the two documents", "these two reports": a question about two documents as one ("going by the two documents")
TWO_DOCUMENTS_RE = re.compile(rf"\b(?:the|these|those)\s+two\s+(?:(?!of\b)[\w'’-]+\s+){{0,3}}?"
                              rf"(?:{'|'.join(DOCUMENT_KINDS)}|source|text|file|pdf|sheet)s?\b", re.I)
AND_RE = re.compile(r"\b(?:and|or)\b|;", re.I)  # (a semicolon joins two clauses as "and" does)
TWO_RE = re.compile(r"\b(?:the|these|those)\s+two\b", re.I)  # "the two … reports": two documents by the same words
BOTH_RE = re.compile(r"both\s+[^,;:?.]{1,80}?\s+and\s+[^,;:?.]{1,80}", re.I)  # "both X and Y": what it joins
# a title or term in quotes: its "and" joins no two documents ("section 2.7, 'Synchronising Output and pdfmark
# Contexts', of the groff manual"), its "versus" compares none
DISTINCT_SHARE = 0.2  # a name word used by at most this share of the documents (at least one) names its own
NAME_DISCOUNT = 0.2  # weight of a word that names a routed document, within it
ROUTE_KEEP = 0.6  # documents scoring at least this share of the best one are searched as well
MAX_ROUTED = 3
NAMED_KEEP = 0.4  # a compared document scores at least this share of the best one
OTHERS_SHARE = 0.05
PAGE_DECAY = (1.0, 0.3, 0.1)  # a page's score: its best passage, and a little of its next two


@dataclass
class DocScore:
    doc: int
    score: float
    names: float
    profile: float
    evidence: float


@dataclass
class Routing:
    scores: list[DocScore]  # every document, best first
    chosen: list[int]  # document positions searched in depth
    comparison: bool
    # terms that place what is asked in a document rather than name it ("What is a checkpoint *in Casper FFG*?",
    # engine.index.evidence.definition_context): they route, and within a document count as its name words do
    context: frozenset[str] = frozenset()


def _share(values: np.ndarray) -> np.ndarray:
    top = float(values.max()) if values.size else 0.0
    return values / top if top > 0 else np.zeros_like(values)


def is_comparison(question: str, names: Sequence[set[str]] = ()) -> bool:
    """Whether the question asks to compare, by its words; with `names` (the name terms of the documents it may be
    about), a "both X and Y" whose X and Y name none of them compares two things within a document ("with both the
    page-miniature sidebar and the headings-navigation sidebar visible"), not documents."""
    found = list(COMPARE_RE.finditer(question))
    if names and found and all(m.group(0).lower() == "both" for m in found):
        named = set().union(*names)
        joins = [BOTH_RE.match(question, m.start()) for m in found]
        return any(join is None or {stem(w) for w in words(join.group(0))} & named for join in joins)
    return bool(found) or bool(TWO_DOCUMENTS_RE.search(question))


def route(corpus: CorpusIndex, question: str, terms: Sequence[str], docs: Sequence[int] | None = None) -> Routing:
    """Score every document for the question and choose the ones to search in depth."""
    n = len(corpus.docs)
    allowed = np.zeros(n, dtype=bool)
    allowed[list(docs) if docs is not None else slice(None)] = True
    names = corpus.names.scores(terms) if n else np.zeros(0)
    profile = corpus.profiles.scores(terms) if n else np.zeros(0)
    evidence = np.zeros(n, dtype=np.float32)
    passages = corpus.bm25["passage"].scores(terms)
    np.maximum.at(evidence, corpus.unit_doc["passage"], passages)
    total = _share(evidence) + 0.5 * _share(profile) + 0.5 * _share(names)
    total = np.where(allowed, total, 0.0)
    order = [int(i) for i in np.argsort(-total, kind="stable") if allowed[i]]
    scores = [DocScore(i, float(total[i]), float(names[i]), float(profile[i]), float(evidence[i])) for i in order]
    context = frozenset(stem(w) for w in definition_context(question)) & frozenset(terms)
    if not order or total[order[0]] <= 0:
        return Routing(scores, order[:1] if docs is not None else [], False, context)
    best = total[order[0]]
    chosen = [i for i in order if total[i] >= ROUTE_KEEP * best][:MAX_ROUTED]
    candidates = [i for i in order if total[i] >= NAMED_KEEP * best][:MAX_ROUTED + 1]
    named = named_documents(corpus, terms, candidates)
    asked = QUOTED_TITLE_RE.sub(" ", question)  # (the question's own words, outside what it quotes)
    comparison = is_comparison(asked, [corpus.name_terms[d] for d in candidates]) and len(named) >= 2
    if not comparison and AND_RE.search(asked):  # "… in X and in Y": both named outright (one named by a single rare
        # word, "the BLAKE3 specification and the Monero Research Lab bulletin", may score low beside the other)
        strict = named_documents(corpus, terms, candidates, strict=True)
        if len(strict) < 2:
            strict = named_documents(corpus, terms, order[:MAX_ROUTED + 1], strict=True)
        if len(strict) >= 2:
            named, comparison = strict, True
    if not comparison and (is_comparison(asked) or TWO_RE.search(asked)):
        shared = shared_names(corpus, terms, candidates)  # "the two Regulation Best Interest documents"
        if len(shared) == 2:
            named, comparison = shared, True
    if comparison:  # the compared documents first, then the others that scored well
        chosen = named + [i for i in chosen if i not in named]
    return Routing(scores, chosen, comparison, context)


def shared_names(corpus: CorpusIndex, terms: Sequence[str], candidates: Sequence[int]) -> list[int]:
    """The two best candidates when the question names them by words they share and no other candidate has ("the
    two Regulation Best Interest documents": two words or more of both documents' names), else none."""
    if len(candidates) < 2:
        return []
    first, second = candidates[:2]
    common = set(terms) & corpus.name_terms[first] & corpus.name_terms[second]
    if len(common) < 2 or any(common <= corpus.name_terms[d] for d in candidates[2:]):
        return []
    return [first, second]


def named_documents(corpus: CorpusIndex, terms: Sequence[str], candidates: Sequence[int], *,
                    strict: bool = False) -> list[int]:
    """Candidates that the question names by a word naming none of the other candidates; `strict`:
    by two such words, or by one that few documents' text uses ("Disney", "XC9500"), not by a
    common word that happens to be in a title ("department", "proposed") nor by a kind of document ("the ODF
    package spec" names no document whose file name says "spec")."""
    query = set(terms)
    rare = max(1, int(DISTINCT_SHARE * len(corpus.docs)))
    named = []
    for d in candidates:
        others = set().union(*(corpus.name_terms[e] for e in candidates if e != d))
        own = (query & corpus.name_terms[d]) - others
        if own and (not strict or len(own) >= 2
                    or any(docs_using(corpus, t) <= rare for t in own - DOCUMENT_NOUNS)):
            named.append(d)
    return named


def docs_using(corpus: CorpusIndex, term: str) -> int:
    """How many documents' text use the term (cached on the corpus index)."""
    cache: dict[str, int] = corpus.extras.setdefault("docs_using", {})
    if term not in cache:
        bm = corpus.bm25["page"]
        tid = bm.vocab.get(term)
        units: np.ndarray | list[int] = bm.post_units[bm.term_ptr[tid]:bm.term_ptr[tid + 1]] if tid is not None else []
        cache[term] = len(set(corpus.unit_doc["page"][units].tolist()))
    return cache[term]


def terms_language(corpus: CorpusIndex, terms: Sequence[str]) -> str:
    """The language (ISO 639-1) whose documents use most of the terms: what a question without stop words is
    asked in (English on a tie, or when no document of another language uses more of them)."""
    languages = corpus.languages - {"en"}
    if not languages:
        return "en"
    bm = corpus.bm25["page"]
    held: dict[str, int] = {}
    for term in terms:
        tid = bm.vocab.get(term)
        if tid is None:
            continue
        units = bm.post_units[bm.term_ptr[tid]:bm.term_ptr[tid + 1]]
        for lang in {corpus.docs[doc].info.language or "en" for doc in set(corpus.unit_doc["page"][units].tolist())}:
            held[lang] = held.get(lang, 0) + 1
    best = max(sorted(languages), key=lambda lang: held.get(lang, 0))
    return best if held.get(best, 0) > held.get("en", 0) else "en"


# A question asked in one language about a document written in another shares few of its words, but often their
# roots: cognates and inflections the English stemmer does not fold ("trajectory" ~ "Trajektorien", "implemented" ~
# "implementiert", "algorithm" ~ "Algorithmen"). Spelled alike (accents dropped, these spellings taken as one), a
# document's word that begins as a question's word does, or the other way round, over COGNATE_LETTERS letters or
# more, is searched too (measured: README, How questions are answered).
COGNATE_LETTERS = 5
SPELLINGS = (("ph", "f"), ("th", "t"), ("c", "k"), ("z", "s"), ("y", "i"))


def spelled_alike(term: str) -> str:
    """A term as cognates of another language spell it ("trajectori" -> "trajektori", "präsentat" -> "prasentat")."""
    term = unicodedata.normalize("NFKD", term).encode("ascii", "ignore").decode()
    for a, b in SPELLINGS:
        term = term.replace(a, b)
    return term


def cognate_terms(corpus: CorpusIndex, docs: Sequence[int], terms: Sequence[str], language: str) -> list[str]:
    """The words of the documents `docs` written in another language than `language` (the question's) that begin as
    one of the terms does, or that one of the terms begins as, spelled alike (see COGNATE_LETTERS); none for a
    document in the question's language."""
    cache: dict[int, tuple[list[str], dict[str, list[str]]]] = corpus.extras.setdefault("alike", {})
    out: list[str] = []
    for doc in docs:
        if not language or (corpus.docs[doc].info.language or "en") == language:
            continue
        if doc not in cache:  # the document's words by their spelling alike, sorted (a prefix's words are a run)
            spelled: dict[str, list[str]] = {}
            for word in corpus.docs[doc].terms["page"].terms:
                alike = spelled_alike(word)
                if len(alike) >= COGNATE_LETTERS:
                    spelled.setdefault(alike, []).append(word)
            cache[doc] = (sorted(spelled), spelled)
        keys, spelled = cache[doc]
        for term in terms:
            asked = spelled_alike(term)
            if len(asked) < COGNATE_LETTERS:
                continue
            found = keys[bisect.bisect_left(keys, asked):bisect.bisect_left(keys, asked + "\uffff")]
            found += [asked[:n] for n in range(COGNATE_LETTERS, len(asked)) if asked[:n] in spelled]
            out += [w for key in found for w in spelled[key] if w not in terms and w not in out]
    return out


HYPHENATED_RE = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)+")  # a compound of letters: "multi-factor" (not "FY-2025")
PART_LETTERS = 3  # the shortest part of a closed compound the corpus writes apart


def compound_terms(corpus: CorpusIndex, question: str, terms: Sequence[str], lang: str = "en") -> list[str]:
    """The question's terms with compounds written as the corpus writes them: a hyphenated one also closed
    ("multi-factor": "multifactor" too, when the corpus uses it), and, in a question asked in English, a closed one
    the corpus never uses split into two words it does ("cyberattacks": "cyber", "attack"; a language that writes
    its compounds closed, German's "Arbeitsspeicher", is not split: its parts are words of their own elsewhere)."""
    vocab = corpus.bm25["page"].vocab
    out = list(terms)
    for match in HYPHENATED_RE.finditer(question):
        joined = stem("".join(words(match.group(0))))
        if joined in vocab and joined not in out:
            out.append(joined)
    for word in words(question) if lang in ("", "en") else []:
        term = stem(word)
        if term not in out or term in vocab or not word.isalpha() or len(word) < 2 * PART_LETTERS:
            continue
        parts = next(([stem(word[:i]), stem(word[i:])] for i in range(len(word) - PART_LETTERS, PART_LETTERS - 1, -1)
                      if word[:i] not in STOP_WORDS and word[i:] not in STOP_WORDS
                      and stem(word[:i]) in vocab and stem(word[i:]) in vocab), None)
        if parts is not None:  # (the longest first part the corpus uses: "cyber|attacks", not "cy|berattacks")
            at = out.index(term)
            out[at:at + 1] = [p for p in parts if p not in out]
    return out


def term_weights(corpus: CorpusIndex, terms: Sequence[str], doc: int, routing: Routing, *,
                 cover: bool = False) -> list[float]:
    """Within `doc`: words naming it, or placing a term asked to be defined (`Routing.context`), count little; in a
    comparison, words that name only another compared document do not count at all. `cover`: a cover page's words
    name it too (for ranking its pages: the cover that holds them is no answer; not for judging sentences)."""
    own = corpus.name_terms[doc] | corpus.cover_terms[doc] if cover else corpus.name_terms[doc]
    others = set()
    if routing.comparison:
        others = set().union(*(corpus.name_terms[d] for d in routing.chosen[:2] if d != doc)) - own
    return [NAME_DISCOUNT if t in own or t in routing.context else 0.0 if t in others else 1.0 for t in terms]


def evidence_weights(corpus: CorpusIndex, terms: Sequence[str], doc: int, routing: Routing, *,
                     cover: bool = False) -> list[float]:
    """Weights of the question's terms for judging passages of `doc`: term_weights × the document's own
    idf. A word the document never uses weighs as much as the question's rarest word it does use: a
    passage lacking it lacks something asked for. `cover`: as term_weights' (for ranking pages)."""
    names = term_weights(corpus, terms, doc, routing, cover=cover)
    bm = corpus.bm25["page"]
    mask = corpus.unit_doc["page"] == doc
    idfs = [bm.idf(term, within=mask) for term in terms]
    present = [i for i in idfs if i > 0]
    unseen = max(present) if present else 1.0
    return [weight * (idf if idf > 0 else unseen) for weight, idf in zip(names, idfs)]


def passage_scores(corpus: CorpusIndex, terms: Sequence[str], doc: int, weights: Sequence[float]) -> np.ndarray:
    """Scores of every passage (non-zero only in `doc`): BM25 with the document's own idf."""
    bm = corpus.bm25["passage"]
    mask = corpus.unit_doc["passage"] == doc
    idfs = [bm.idf(t, within=mask) for t in terms]
    scores = bm.scores(terms, weights=weights, idfs=idfs)
    scores[~mask] = 0.0
    return scores


def page_scores(corpus: CorpusIndex, terms: Sequence[str], doc: int, weights: Sequence[float]) -> np.ndarray:
    """Scores of every global page (non-zero only in `doc`): its passages' (`passage_scores`), expanded to their
    pages."""
    return expand_pages(passage_scores(corpus, terms, doc, weights), corpus.unit_page["passage"], corpus.pages)


def expand_pages(scores: np.ndarray, unit_page: np.ndarray, pages: int) -> np.ndarray:
    """Page scores from unit scores: each page's best units, weighted by PAGE_DECAY."""
    out = np.zeros(pages, dtype=np.float32)
    hit = np.flatnonzero(scores > 0)
    if not hit.size:
        return out
    page, value = unit_page[hit], scores[hit]
    order = np.lexsort((-value, page))  # by page, best first within it
    page, value = page[order], value[order]
    position = np.arange(len(page))
    first = np.maximum.accumulate(np.where(np.r_[True, page[1:] != page[:-1]], position, 0))
    rank = position - first
    keep = rank < len(PAGE_DECAY)
    np.add.at(out, page[keep], value[keep] * np.asarray(PAGE_DECAY, dtype=np.float32)[rank[keep]])
    return out


def routed_scores(corpus: CorpusIndex, routing: Routing, terms: Sequence[str]) -> np.ndarray:
    """Global page scores: each routed document's pages scaled to its routing score (every routed
    document counts fully in a comparison), other documents' pages far below."""
    out = np.zeros(corpus.pages, dtype=np.float32)
    if not routing.chosen:
        return out
    by_doc = {s.doc: s.score for s in routing.scores}
    best = max(by_doc[d] for d in routing.chosen) or 1.0
    for d in routing.chosen:
        scores = page_scores(corpus, terms, d, term_weights(corpus, terms, d, routing, cover=True))
        top = float(scores.max())
        if top <= 0:
            continue
        factor = 1.0 if routing.comparison and d in routing.chosen[:2] else by_doc[d] / best
        out += scores / top * factor
    rest = flat_scores(corpus, terms)  # the other documents, below every routed page
    rest[corpus.page_mask(routing.chosen)] = 0.0
    if rest.max() > 0:
        out += OTHERS_SHARE * rest / rest.max()
    return out


def flat_scores(corpus: CorpusIndex, terms: Sequence[str], docs: Sequence[int] | None = None) -> np.ndarray:
    """Plain BM25 over all passages, expanded to pages (no routing)."""
    scores = corpus.bm25["passage"].scores(terms)
    if docs is not None:
        scores[~corpus.unit_mask("passage", docs)] = 0.0
    return expand_pages(scores, corpus.unit_page["passage"], corpus.pages)
