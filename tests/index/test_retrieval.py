"""Retrieval methods on the sample PDFs: exact pages, routing, document filters, vectors through a seam."""

from __future__ import annotations

import hashlib
import re

import numpy as np
import pytest

from engine.index import METHODS, MethodUnavailable, Retriever, load_corpus
from engine.index.lexical import is_comparison
from engine.index.store import title_acronyms
from engine.index.tree import tree_scores
from engine.text import query_terms
from engine.workspace import Workspace

GUIDE, DECK = "pdfrag-field-guide.pdf", "pdfrag-product-deck.pdf"

# question -> (document, page that answers it)
EXPECTED = {
    "How many verticals should be used across the channel?": (GUIDE, 9),
    "What is the six-tenths method for measuring velocity?": (GUIDE, 9),
    "Which steps must be completed before a crew leaves the office?": (GUIDE, 6),
    "What should a crew do if the water rises or becomes cloudy?": (GUIDE, 7),
    "Within how long should cleaned data be copied into the shared archive?": (GUIDE, 11),
    "How should a survey question be defined?": (GUIDE, 4),
    "How much archive storage does the Team plan include?": (DECK, 10),
    "How many volunteer surveyors does the Upper Vale Catchment Trust have?": (DECK, 7),
    "How many hours are spent re-typing and checking field sheets per crew day?": (DECK, 4),
    "What is the email address for support?": (DECK, 12),
}


@pytest.fixture(scope="module")
def retriever(samples_workspace) -> Retriever:
    workspace = Workspace(samples_workspace)
    return Retriever(load_corpus(workspace), workspace=workspace)


@pytest.mark.parametrize("method", ["bm25", "hybrid"])
@pytest.mark.parametrize("question", list(EXPECTED))
def test_top_page_is_the_answer_page(retriever, method, question):
    hits = retriever.search(question, method=method, k=5).hits
    assert (hits[0].doc, hits[0].page) == EXPECTED[question]


def test_hits_are_distinct_pages_with_their_section(retriever):
    hits = retriever.search("six-tenths velocity reading", method="hybrid", k=8).hits
    assert len({(h.doc, h.page) for h in hits}) == len(hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    top = hits[0]
    assert (top.doc, top.page, top.title) == (GUIDE, 9, "The six-tenths method")
    assert top.path[-1] == "The six-tenths method"


def test_routing_picks_the_named_document(retriever):
    found = retriever.search("Which customer stories does Riverline tell?", method="bm25")
    assert found.routed_files(retriever.corpus)[0] == DECK


def test_a_comparison_routes_to_both_documents(retriever):
    question = "Compare how the field guide and the Riverline product deck treat the six-tenths reading."
    assert is_comparison(question)
    found = retriever.search(question, method="hybrid", k=5)
    assert found.routing.comparison
    assert set(found.routed_files(retriever.corpus)[:2]) == {GUIDE, DECK}
    assert {(h.doc, h.page) for h in found.hits[:2]} == {(GUIDE, 9), (DECK, 8)}


def test_both_things_within_a_document_are_no_comparison_of_documents():
    names = [{"field", "guid"}, {"riverlin", "product", "deck"}]
    # "both X and Y" whose X and Y name no document: two things one document is asked about
    assert not is_comparison("Can a crew carry both the wading staff and the flow meter across the ford?", names)
    assert is_comparison("Do both the field guide and the product deck give the six-tenths reading?", names)
    assert is_comparison("Can a crew carry both the wading staff and the flow meter across the ford?")  # (no names)
    assert is_comparison("Compare both the wading staff and the flow meter.", names)  # (another compare word)


def test_a_question_about_the_two_documents_compares_them(retriever):
    # "going by the two documents": a question about two documents as one, without a compare word
    assert is_comparison("Would the six-tenths reading suit the Riverline meter, going by the two documents?")
    assert is_comparison("Do these two field guides give the same reading?")
    found = retriever.search("Is the Riverline meter read at six tenths of the depth, going by the two documents?",
                             method="hybrid", k=5)
    assert found.routing.comparison and set(found.routed_files(retriever.corpus)[:2]) == {GUIDE, DECK}
    # two things that are no documents ("the two halves of Standard ML") ask about one
    assert not is_comparison("Describe the two halves of the standard, and what each contains.")
    assert not is_comparison("What do the two sensors of the meter measure?")


def test_docs_filter_restricts_every_method(retriever):
    deck = retriever.resolve_docs([DECK])
    for method in ("bm25", "hybrid"):
        hits = retriever.search("six-tenths reading", method=method, k=5, docs=deck).hits
        assert hits and {h.doc for h in hits} == {DECK}
    with pytest.raises(KeyError):
        retriever.resolve_docs(["missing.pdf"])


def test_tree_search_descends_to_pages_under_the_best_section(retriever):
    corpus = retriever.corpus
    found = retriever.search("Before leaving the office", method="hybrid", k=3)
    scores = tree_scores(corpus, found.routing, found.terms)
    guide = corpus.doc_position(GUIDE)
    assert corpus.page_address(int(np.argmax(scores))) == (guide, 6)
    # pruning: with a narrow beam, pages under unopened sections are never reached
    narrow = tree_scores(corpus, found.routing, found.terms, beam=1)
    assert (narrow > 0).sum() < (scores > 0).sum()
    # the `tree` method (named by the command-line contract) ranks by the descent alone
    hits = retriever.search("Before leaving the office", method="tree", k=3).hits
    assert (hits[0].doc, hits[0].page) == (GUIDE, 6)


def test_nothing_matches_nothing(retriever):
    assert retriever.search("zzzz qqqq", method="hybrid").hits == []


def test_vector_method_needs_an_embedding_provider(retriever):
    assert "vector" not in retriever.methods
    with pytest.raises(MethodUnavailable):
        retriever.search("six-tenths", method="vector")
    with pytest.raises(ValueError):
        retriever.search("six-tenths", method="semantic")


class BagOfWordsEmbedder:
    """A deterministic stand-in behind the embedder seam: hashed word counts (tests only)."""

    model = "test-bag-of-words"

    def __init__(self) -> None:
        self.texts = 0

    def embed(self, texts, *, kind):
        self.texts += len(texts)
        rows = np.zeros((len(texts), 256), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in re.findall(r"[a-z]+", text.lower()):
                rows[i, int(hashlib.md5(word.encode()).hexdigest(), 16) % 256] += 1
        return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-9)


def test_vectors_are_stored_per_document_by_the_index_stage_and_reused(samples_workspace, tmp_path):
    import shutil

    from engine.index import update_index

    root = tmp_path / "ws"
    shutil.copytree(samples_workspace, root)
    workspace = Workspace(root)
    embedder = BagOfWordsEmbedder()
    retriever = Retriever(load_corpus(workspace), workspace=workspace, embedder=embedder)
    assert retriever.methods == list(METHODS)
    hits = retriever.search("volunteer surveyors Upper Vale Catchment Trust", method="vector", k=3).hits
    assert (hits[0].doc, hits[0].page) == (DECK, 7)
    chunks = embedder.texts - 1  # every chunk once, plus the question
    assert not (workspace.index / "vectors").exists()  # a question embeds in memory and writes nothing
    update_index(workspace, embedder=embedder)  # the index stage (ingest) stores them
    assert embedder.texts == 2 * chunks + 1
    assert len(list((workspace.index / "vectors" / embedder.model).glob("*.npz"))) == 2
    chunks = embedder.texts - 1
    again = Retriever(load_corpus(workspace), workspace=workspace, embedder=embedder)
    again.corpus.extras.clear()
    again.search("six-tenths", method="hybrid")
    assert embedder.texts == chunks + 2  # vectors came from disk: only the new question was embedded


def test_two_documents_named_outright_are_a_comparison_without_compare_words(retriever):
    question = "What does the Riverline product deck say about the six-tenths reading, and what does the field guide say?"
    assert not is_comparison(question)
    found = retriever.search(question, method="hybrid", k=5)
    assert found.routing.comparison
    assert set(found.routed_files(retriever.corpus)[:2]) == {GUIDE, DECK}


def test_two_documents_named_in_clauses_joined_by_a_semicolon_are_a_comparison(retriever):
    question = "The Riverline product deck pitches the six-tenths reading; what does the field guide say of it?"
    found = retriever.search(question, method="hybrid", k=5)
    assert found.routing.comparison
    assert set(found.routed_files(retriever.corpus)[:2]) == {GUIDE, DECK}


def test_an_and_within_a_quoted_title_joins_no_two_documents(retriever):
    """The field guide's section is quoted by a title that names the deck: its "and" does not make the question a
    comparison of the guide and the deck, as the same words unquoted do."""
    question = ("What does the field guide's section 'Riverline product deck and field sheets' say about the "
                "six-tenths reading?")
    found = retriever.search(question, method="hybrid", k=5)
    assert not found.routing.comparison
    unquoted = question.replace("'Riverline product deck and field sheets'", "Riverline product deck and field sheets")
    assert retriever.search(unquoted, method="hybrid", k=5).routing.comparison  # (unquoted, the "and" joins both)


def test_a_common_title_word_does_not_make_a_comparison(retriever):
    # "methods" is in the guide's title (River Survey Methods) and a common word of the deck's text
    found = retriever.search("How many volunteer surveyors does Riverline have, and what methods do they use?",
                             method="hybrid", k=5)
    assert not found.routing.comparison


def test_window_scores_do_not_depend_on_the_hash_seed():
    """Coverage sums float weights; summed over a set, the rounding follows the process's hash seed and
    ties between passages broke differently from run to run."""
    import os
    import subprocess
    import sys

    script = (
        "from engine.index.evidence import score_windows\n"
        "page = 'Alpha beta gamma delta epsilon. Zeta eta theta alpha beta. Gamma iota kappa delta lambda.'\n"
        "terms = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'kappa']\n"
        "weights = [0.1, 0.7, 0.3, 1.1, 0.9, 0.2, 1.3]\n"
        "print([repr(w.score) for w in score_windows(page, terms, weights, 'q')])\n"
    )
    outputs = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout for seed in range(1, 9)}
    assert len(outputs) == 1


def test_british_and_american_spellings_are_one_term():
    from engine.text import query_terms, tokenize

    assert tokenize("the organisation prioritised") == tokenize("the organization prioritized")
    assert query_terms("Which organisations?") == query_terms("Which organizations?")
    assert tokenize("this basis of crisis analysis") == ["basi", "crisi", "analysi"]  # "-is" words stay


def test_a_comparisons_first_pages_take_turns_between_its_documents():
    from types import SimpleNamespace

    from engine.index.retrieve import alternate

    corpus = SimpleNamespace(page_doc=np.asarray([0, 0, 0, 1, 1, 2]))  # pages 0-2 of doc 0, 3-4 of doc 1, 5 of doc 2
    scores = np.asarray([0.9, 0.8, 0.7, 0.5, 0.4, 0.95], dtype=np.float32)
    # doc 0's best page beats doc 1's, so doc 0 starts; doc 2 is no compared document and comes after them
    assert alternate(corpus, scores, [1, 0])[:6] == [0, 3, 1, 4, 2, 5]
    # each compared document's pages scaled to its best (a tie): the one routing put first starts
    tied = np.asarray([1.0, 0.8, 0.0, 1.0, 0.6, 0.0], dtype=np.float32)
    assert alternate(corpus, tied, [1, 0])[:4] == [3, 0, 4, 1]
    assert alternate(corpus, tied, [0, 1])[:4] == [0, 3, 1, 4]


def test_windows_hold_the_kind_of_value_they_are_told_is_asked_for():
    from engine.index.evidence import score_windows

    page = "| Metric | Value |\n| --- | --- |\n| Recall | 0.2412 |\n| F1 Score | 0.3320 |"
    question = "What recall and F1 score did the model achieve?"  # (no question word that asks for an amount)
    terms, weights = ["recal", "f1", "score"], [1.0, 1.0, 1.0]
    assert not any(w.typed for w in score_windows(page, terms, weights, question))
    told = score_windows(page, terms, weights, question, kind="number")
    assert any(w.typed and "0.3320" in w.text for w in told)


def test_a_document_named_by_its_titles_acronym_is_named(retriever):
    # the guide's title "River Survey Methods: A Field Guide" goes by RSM; no other word of the question names it
    assert title_acronyms("River Survey Methods: A Field Guide") == "RSM FG"
    question = "What does RSM say about the six-tenths reading, and what does Riverline say?"
    found = retriever.search(question, method="hybrid", k=5)
    assert found.routing.comparison
    assert set(found.routed_files(retriever.corpus)[:2]) == {GUIDE, DECK}
    assert title_acronyms("Ring Confidential Transactions") == "RCT" and title_acronyms("fletcher") == ""


def test_a_document_in_another_language_is_named_by_it():
    # an English question calls a German thesis "the German master's thesis": the word names the document
    from engine.index.store import name_text
    from engine.schemas import DocumentRecord

    record = DocumentRecord(doc_id="0123456789abcdef", file_name="arbeit.pdf", rel_path="arbeit.pdf", sha256="0" * 64,
                            size_bytes=1, pages=1)
    record.metadata.title = "Indexstrukturen für Trajektorien"
    record.metadata.language = "de"
    assert {"German", "Deutsch"} <= set(name_text(record, "").split())
    record.metadata.language = "en"  # (English, the language nearly every document is in, names none)
    assert "English" not in name_text(record, "").split()


def test_a_title_without_a_latin_letter_leaves_the_title_block_to_name_the_document():
    # a font guide titled in the script it serves: a question names it by the cover's title in Latin letters
    from engine.index.store import name_text
    from engine.schemas import DocumentRecord

    record = DocumentRecord(doc_id="0123456789abcdef", file_name="DaiBannaSIL.pdf", rel_path="DaiBannaSIL.pdf",
                            sha256="0" * 64, size_bytes=1, pages=1)
    cover = "# ᦟᦲᧅᦷᦎᦺᦑ\n\nDai Banna SIL Fonts\n\nUser Guide\n"
    record.metadata.title = "ᦟᦲᧅᦷᦎᦺᦑ"
    assert "Dai Banna SIL Fonts User Guide" in name_text(record, cover)
    record.metadata.title = "Dai Banna SIL Fonts"  # (a title in Latin letters names it alone)
    assert "User" not in name_text(record, cover).split()


def test_a_cover_pages_words_name_the_document_for_ranking_its_pages_not_for_judging_sentences():
    # a talk's cover names it by its authors and venue ("EuroTEX ’99"): a question naming the talk so ranks its pages
    # as if those words were its title's, and the cover holding them no longer wins; sentences are judged as before
    from types import SimpleNamespace

    from engine.index.lexical import NAME_DISCOUNT, Routing, term_weights
    from engine.index.store import cover_text

    cover = "# Surviving the TEX font encoding mess\n\nUlrik Vieth · Taco Hoekwater\n\nEuroTEX ’99 · Heidelberg\n"
    assert "Hoekwater" in cover_text(cover) and "Heidelberg" in cover_text(cover)
    assert cover_text(cover + "\n" + " ".join(["text"] * 60)) == ""  # (a first page that goes on is no cover)
    corpus = SimpleNamespace(name_terms=[{"font"}], cover_terms=[{"eurotex", "heidelberg"}])
    routing = Routing([], [0], False)
    terms = ["eurotex", "font", "task"]
    assert term_weights(corpus, terms, 0, routing, cover=True) == [NAME_DISCOUNT, NAME_DISCOUNT, 1.0]
    assert term_weights(corpus, terms, 0, routing) == [1.0, NAME_DISCOUNT, 1.0]


def test_a_name_written_with_its_number_in_one_word_is_named_by_the_words_apart():
    from engine.index.corpus import name_terms
    terms = name_terms("docbook5-howto DocBook V5.0 NIST.SP.800-171r2")
    assert {"docbook", "5", "171", "2", "docbook5", "171r2"} <= terms  # "DocBook 5", "SP 800-171 Rev. 2"
    assert "v" not in terms and "r" not in terms  # a single letter names nothing
    assert name_terms("Annual Report") == {"annual", "report"}
    assert "x11" in name_terms("Fonts in X11R7.7")  # (a name before its release: "X11" of "X11R7.7")
    assert "xc9500" not in name_terms("XC9500XL")  # (no release number after its letters: one name)


def test_a_window_of_questions_put_to_the_reader_scores_below_the_same_words_stated():
    from engine.index.evidence import score_windows

    page = ("Should the care obligation require a reasonable basis? Do commenters agree?\n\n"
            "The care obligation requires a reasonable basis.")
    terms = query_terms("What does the care obligation require, a reasonable basis?")
    found = score_windows(page, terms, [1.0] * len(terms), "What does the care obligation require?", singles=True)
    assert found[0].text == "The care obligation requires a reasonable basis."
    assert found[0].coverage == next(w for w in found if w.text.startswith("Should")).coverage  # same words held


@pytest.mark.parametrize(("acronym", "text", "spelled"), [
    ("CESOP", "the introduction of CESOP (Central Electronic System of Payment information)", True),  # "of" gives O
    ("ViDA", "ViDA rules (VAT in a Digital Age) in the EU", True),  # "a" passed over
    ("GHOST", "the Greediest Heaviest Observed SubTree (GHOST) rule", True),  # a capital inside a word
    ("IRWI", "the IR-With-Identifiers tree", True),
    ("NFO", "| NFO | Nonfederal Organization |", True),  # a glossary row
    ("RARE", "results are reported early", False),  # the first word is no capital
    ("NFO", "The NFO must comply", False),  # the acronym alone spells nothing out
    ("WEF", "World Trade and Economic Forum", False),  # a word that gives no letter is not passed over
    ("EMD", "similarity queries using Earth Mover’s Distance (EMD)", True),  # (a possessive's "s" gives no letter)
    ("TaxML", "Taxation Markup Language (TaxML) is a format", True),  # a capital and small letters: a word's first
    ("TaxML", "Trade Xylem Markup Language", False),  # (… letters: "Tra" gives no "Tax")
])
def test_an_acronym_is_spelled_out_by_the_initials_of_words_in_a_row_or_a_glossary_row(acronym, text, spelled):
    from engine.index.evidence import spells_out

    assert spells_out(acronym, text) is spelled


def test_a_question_asking_what_an_acronym_stands_for_asks_for_its_expansion():
    from engine.index.evidence import answer_type

    assert answer_type("What does RARE stand for?") == "expansion"
    assert answer_type("Expand GHOST and IRWI.") == "expansion"
    assert answer_type("What is an acronym?") == "definition"  # no acronym to expand: a term to define
    assert answer_type("What does the name TaxML stand for?") == "expansion"  # (small letters after a capital)


@pytest.mark.parametrize(("question", "acronyms"), [
    ("In Appendix E of NIST SP 800-171, what does the symbol NFO stand for?", ["NFO"]),  # (not those naming where)
    ("What do the acronyms GHOST in the Gasper paper and IRWI in the thesis stand for?", ["GHOST", "IRWI"]),
    ("Define TaxML: expand its name.", ["TaxML"]),
    ("What abbreviations are explained in the glossary of the NUT user manual?", []),  # (a list of them)
])
def test_the_acronym_asked_to_be_spelled_out_stands_beside_the_words_asking_it(question, acronyms):
    from engine.index.evidence import to_expand

    assert to_expand(question) == acronyms


def test_an_expansion_questions_best_window_spells_the_acronym_out_also_where_it_names_the_document():
    from engine.index.evidence import score_windows

    page = ("The program writes a report for each name in the list of records.\n\n"
            "Taxation Markup Language (TaxML) is a format for exchanging tax records.")
    question = "What does the name TaxML stand for, and what kind of program is it?"
    terms = ["name", "taxml", "stand", "program"]
    found = score_windows(page, terms, [1.3, 0.02, 2.2, 2.2], question, singles=True)  # (the acronym names the
    assert found[0].text.startswith("Taxation Markup Language")  # document: it weighs little; "name", "stand" ask)


def test_an_acronym_asked_to_be_spelled_out_puts_the_page_spelling_it_first(tmp_path):
    pages = [["Options", "The TaxML program reads a file of records and the TaxML writer checks each record",
              "against the TaxML schema before the TaxML program writes its report."],
             ["Introduction", "Taxation Markup Language (TaxML) is a format for exchanging tax records between",
              "agencies; it is kept by a working group of the agencies."],
             ["Output", "The TaxML report lists each record the TaxML program could not read, with its line."]]
    found = _retriever_of_pages(tmp_path, "taxml.pdf", pages).search("What does the name TaxML stand for?", k=3)
    assert found.hits[0].page == 2 and any("spells out 'TaxML'" in note for note in found.notes)


@pytest.mark.parametrize("question, kind", [
    ("Which severity levels does the manual define for its messages?", None),  # several things it lists
    ("What maturity stages are defined in the survey standard?", None),
    ("How does the manual define a severity level?", "definition"),  # one term's meaning
    ("What does the manual define as a critical event?", "definition"),
])
def test_a_question_asking_for_several_things_a_text_defines_asks_for_a_list_not_a_meaning(question, kind):
    from engine.index.evidence import answer_type

    assert answer_type(question) == kind


def test_compounds_are_searched_as_the_corpus_writes_them(retriever):
    """A hyphenated compound is also searched closed where the corpus writes it so ("water-proof": the guide's
    "waterproof"); a closed one the corpus never uses, apart ("crosssections": the guide's "cross-sections"); not
    in a question asked in German, whose compounds are closed by rule."""
    from engine.index import lexical

    corpus = retriever.corpus

    def terms(question: str, lang: str = "en") -> list[str]:
        return lexical.compound_terms(corpus, question, query_terms(question), lang)

    assert "waterproof" in terms("Which water-proof items should the crew carry?")
    assert terms("How are the crosssections laid out?")[:2] == ["cross", "section"]
    assert terms("How are the crosssections laid out?", "de") == query_terms("How are the crosssections laid out?")
    assert terms("How is the crew briefed?") == query_terms("How is the crew briefed?")  # nothing to change
    found = retriever.search("How are the crosssections laid out?", method="hybrid", k=3)
    assert found.hits and "cross-section" in corpus.page_text(corpus.doc_position(found.hits[0].doc),
                                                               found.hits[0].page)
    # (Retriever.terms: what the search and the Gemini agent's routing both read)
    assert found.terms == retriever.terms("How are the crosssections laid out?") == \
        terms("How are the crosssections laid out?")


def _retriever_of_pages(tmp_path, name: str, pages: list[list[str]]) -> Retriever:
    """A retriever over one PDF ingested offline: a page for each list, its title set large over its lines."""
    from engine.pipeline import Pipeline
    from tests.conftest import written_pdf

    (tmp_path / "pdfs").mkdir()
    path = tmp_path / "pdfs" / name
    with written_pdf(path) as doc:
        for lines in pages:
            page = doc.new_page(width=595, height=842)
            page.insert_text((72, 80), lines[0], fontsize=16)
            for k, text in enumerate(lines[1:]):
                page.insert_text((72, 120 + 15 * k), text, fontsize=11)
    Pipeline(tmp_path / "ws", workers=1).ingest([path])
    workspace = Workspace(tmp_path / "ws")
    return Retriever(load_corpus(workspace), workspace=workspace)


GERMAN_PAGES = [
    ["Einleitung", "Diese Arbeit beschreibt Indexstrukturen für große Datenmengen und deren Aktualisierung im",
     "Hauptspeicher. Die Daten werden in Blöcken gespeichert, und jeder Block wird einzeln gelesen.",
     "Die Auswertung vergleicht die Verfahren miteinander und mit den bekannten Ergebnissen."],
    ["Umsetzung", "Die Implementierung der Verfahren für Trajektorien wurde in C++ geschrieben und umfasst",
     "etwa zehntausend Zeilen. Sie verwendet eine Bibliothek für den externen Speicher."],
]


def test_an_english_question_about_a_german_document_finds_its_words_of_the_same_root(tmp_path):
    # "trajectories" / "implemented" share no stem with "Trajektorien" / "Implementierung", but their roots
    from engine.index.lexical import cognate_terms

    retriever = _retriever_of_pages(tmp_path, "arbeit.pdf", GERMAN_PAGES)
    corpus = retriever.corpus
    assert corpus.docs[0].info.language == "de"
    found = retriever.search("How were the trajectories implemented, and in which language?", k=2)
    assert found.hits and found.hits[0].page == 2
    cognates = cognate_terms(corpus, [0], query_terms("How were the trajectories implemented?"), "en")
    assert {"trajektorien", "implementierung"} <= set(cognates)
    assert cognate_terms(corpus, [0], query_terms("How were the trajectories implemented?"), "de") == []


@pytest.mark.parametrize(("question", "term"), [
    ("What is a PIV card?", "PIV card"), ("What are smart contracts?", "smart contracts"),
    ("What is the Care Obligation?", "Care Obligation"),
    ("What is the mission of the agency?", ""),  # (a thing of the content, not a term)
    ("What is the total revenue?", "total revenue"),  # (a term, but an amount is asked for: answer_type says so)
    ("What is a tally sheet in the survey standard?", "tally sheet"),  # (where it is used named after it)
    ("What is ICT SCRM according to NIST SP 800-161?", "ICT SCRM"),
    ("What is the deadline in the proposal?", ""),  # ("the": one particular thing, a value asked for)
    ("What is a tally sheet in the standard, and who fills it in?", "tally sheet"),  # (asked first, then more)
    ("What is DOT's strategy in its plan?", ""),  # (whose: a thing of the content)
    ("Define tally sheet.", "tally sheet"), ("What does 'tally sheet' mean in the standard?", "tally sheet"),
    ("What is meant by a transect?", "transect"),
    ("Explain what a tally sheet is in the survey standard.", "tally sheet"),
    ("Tally sheet: what is it, per the survey standard?", "Tally sheet"),  # (the term put first, then asked about)
    ("Transect (survey) - what is it?", "Transect"),
    ("Transect - what is it, and who walks it?", "Transect"),  # (a second question after it: asked first)
    ("Tally sheet: what is it now, and what was it before?", ""),  # (a value of it, then and now)
    ("In the survey standard, what is a transect?", "transect"), ("Meaning of transect in the standard?", "transect"),
    ("How does the survey standard define a tally sheet?", "tally sheet"),
    ("How does the survey group define a tally sheet in its 2024 standard?", "tally sheet"),
    ("What is the TSR-N, as defined in the survey standard?", "TSR-N"),  # (what the place defines, "the" or not)
    ("What is the deadline, as set in the proposal?", ""),
    ("What is a transect, as explained at the start of the survey standard?", "transect"),
    ("What is the TSR-N, as introduced in the standard?", "TSR-N"),
    ("What does the survey standard mean by a transect?", "transect"),
    ("How does the survey standard define coverage for a transect?", "coverage"),  # (of what it defines it)
    # a term in quotes, its function words and brackets and all
    ("How does the survey standard define 'on behalf of (a survey group)'?", "on behalf of (a survey group)"),
    ("What does “out of scope” mean in the standard?", "out of scope"),
    ("What is a transect, according to the survey standard?", "transect"),  # (where, after a comma)
    # (where it is used, then which text defines it)
    ("What is a transect in river work, as the survey standard defines it?", "transect"),
    ("What is a tally sheet, as the survey standard describes it?", "tally sheet"),
    ("What is the deadline, as the proposal explains it?", ""),  # ("the": a value asked for)
    ("What is covered in section 7 of the survey standard?", ""),  # (a passive: what the section covers)
    ("What is explained in the standard's chapter on transects?", ""),
    # the term named a term ("the term", "the notion of"), or put first and then asked how a text defines it
    ("How does the survey standard define the term tally sheet?", "tally sheet"),
    ("Define the notion of a transect.", "transect"),
    ("Tally sheet: how does the survey standard define it?", "Tally sheet"),
    ("Tally sheet: how does the survey standard define the term?", "Tally sheet"),
    # … or defined as a text does ("Define intmods as the PARI/GP tutorial does.")
    ("Define a transect as the survey standard does.", "transect"),
    ("Define 'tally sheet' as the survey standard uses the term.", "tally sheet"),
    ("Define transects as the field guide explains them.", "transects"),
    # a term qualified by what it is of, where the question asks for its meaning in so many words
    ("What does the survey standard mean by the length of a transect?", "length"),
    ("Define the bearing of a transect in the survey standard.", "bearing"),
    ("What is the length of a transect?", ""),  # (no word asking for a meaning: a value of it)
    ("What is the purpose of a tally sheet?", ""),
    # a name in code: an option, a macro, a name joined by underscores; the word after it says what kind of name
    ("What does the --tally option mean in the survey tool?", "--tally"), ("What is -q?", "-q"),
    ("What is \\tallyrule?", "\\tallyrule"), ("What does the tally_sheet output file mean?", "tally_sheet"),
    ("What does the tally sheet mean?", "tally sheet"),  # (words, not code: both are the term)
    # … and asked about by its effect or what it does: what the manual says of a name in code defines it
    ("What is the effect of the survey tool option --tally?", "--tally"),
    ("What does the tally_free function do?", "tally_free"), ("What does the survey group do?", ""),
    ("-debug: what does this compiler option enable?", "-debug"),
    ("tally_free: what is it and when is it needed, per the manual?", "tally_free"),
    # … asked first, something more after it ("…, and how …"): the first part asks for the term
    ("What is a tally sheet in the survey standard, and how is it filled in?", "tally sheet"),
    ("In the field guide, what are transects and why are they walked at dawn?", "transects"),
    # … named by what it is called: the name is the term
    ("What is the field called Observer Code, and which rules must its value follow?", "Observer Code"),
    ("What is the so-called dawn chorus?", "so-called dawn chorus"),
])
def test_a_question_asking_what_a_term_is_names_the_term(question, term):
    from engine.index.evidence import answer_type, defined_term

    assert defined_term(question) == term
    assert answer_type(question) == ("number" if "revenue" in question else "definition" if term else None)


@pytest.mark.parametrize(("text", "defined"), [
    ("Personal Identity Verification (PIV) Card: A physical artifact issued to an individual.", True),
    ("The PIV Card is the primary component of the PIV system.", True),
    ("- **PIV Card**: the card the standard describes", True),
    ("PIV Card | A physical artifact issued to an individual", True),
    ("A PIV card is terminated when the agency determines that the holder left.", False),  # (says what happens)
    ("The PIV Card itself is revoked:", False),
    ("The requirements for the PIV Card reader are provided in a separate publication.", False),
    ("PIV Card | 1.0", False),  # (a chart's label and a number: no words say what it is)
    ("PIV Card | holder authentication, access", False),  # (a figure's two cells: a phrase, not what it is)
    ("PIV card is used in this standard for the physical artifact issued to an individual.", True),
    ("PIV card is used to open doors in most agencies.", False),  # (what it is for, not what it is)
    ("- PIV card, if it holds the four keys and the holder's photograph.", True),  # (a property, "safety, if …")
    ("PIV card stands for a card of Personal Identity Verification.", True),  # (a name spelled out says what it is)
    ("The PIV card stands at the desk.", False),
    ("A PIV card, in agency terms, is a card of Personal Identity Verification.", True),  # (an aside in commas)
    ("A PIV card, in agency terms and in the terms of every contractor of the agency, is a card.", False),  # (long)
    ("Here, a PIV card is deﬁned as a card of Personal Identity Verification.", True),  # (framed; a ligature)
    ("In most agencies of the federal government, a PIV card is a card.", False),  # (a long opening: no frame)
])
def test_a_text_defines_a_term_when_it_opens_with_it_and_says_what_it_is(text, defined):
    from engine.index.evidence import defines

    assert defines(text, "What is a PIV card?") is defined


@pytest.mark.parametrize(("text", "question", "defined"), [
    ("Kernel probe debugging information entries (PDIEs) are the records a compiler writes for each variable.",
     "What is a PDIE?", True),  # (the acronym in its plural, its words before it, what qualifies them before those)
    ("Probe debugging information entries (PDIEs) are the records a compiler writes for each variable.",
     "What are PDIEs?", True),
    ("Kernel probe debugging information entry (PDIE) is the record a compiler writes for a variable.",
     "What is a PDIE?", True),
    ("Probe debugging information entries (PDIEs) are the records a compiler writes for each variable.",
     "What is a PDIE calculation?", False),  # (another term, which only starts with the acronym)
    ("Probe debugging information entries (PDIEs) in the table are kept for each variable.",
     "What is a PDIE?", False),  # (what they are in, not what they are)
    ("Entries (PDIEs) are the records a compiler writes.", "What is a PDIE?", False),  # (no words spell it out)
])
def test_a_text_defines_an_acronym_it_spells_out_in_its_subject_whatever_qualifies_it(text, question, defined):
    from engine.index.evidence import defines

    assert defines(text, question) is defined


@pytest.mark.parametrize(("text", "defined"), [
    ("Such a printed form is called a tally sheet in the survey.", True),
    ("We define tally sheets to be the printed forms a surveyor fills in on a transect.", True),
    ("We define the tally sheet archive count as the number of sheets filed.", False),  # (another thing)
    ("The so-called tally sheet is kept in the office.", False),
    ("Tally sheets: the printed forms of the survey", True),
    ("Tally: the count of birds seen", False),  # (another term)
    ("If the tally sheet is a copy, the original is kept in the office.", False),
    ("tally_sheet: sheet_ctr, kept", False),  # (a name in code)
    ("Each count is written on a printed form known as the tally sheet.", True),
    ("Each count is written on a shared form (known as the tally sheet) of the season.", False),  # (an aside)
    ("We say that a printed form is a tally sheet if a surveyor signs it on the transect.", True),  # (a condition)
    ("A form is said to be a tally sheet when it carries the transect's number.", True),
    ("We say that the office keeps a tally sheet.", False),  # (no condition: a statement about it)
    ("The form is said to be a tally sheet of the old kind.", False),
    ("We will call the printed form a surveyor fills in a tally sheet, because it holds the counts.", True),
    ("We call each printed form of the survey the tally sheet.", True),
    ("We call the tally sheet archive every week.", False),  # (what is called on, not a name given)
    ("We call the office when a tally sheet is lost.", False),
])
def test_a_text_defines_a_term_when_it_names_it_after_saying_what_it_is(text, defined):
    from engine.index.evidence import defines

    assert defines(text, "What is a tally sheet?") is defined


@pytest.mark.parametrize(("text", "defined"), [
    ("The group uses the tally sheet (the printed form a surveyor fills in on a transect) to count birds.", True),
    ("Counts go on the tally sheets (printed forms, one a transect) of the season.", True),
    ("Counts go on the tally sheet (see Section 4) of the season.", False),  # (a pointer elsewhere)
    ("Counts go on the tally sheet (as defined below) of the season.", False),
    ("Counts go on the tally sheet (or on a copy made of it) of the season.", False),  # (an alternative)
    ("Counts go on the tally sheet (e.g., the blue form) of the season.", False),  # (an example)
    ("Counts go on the tally sheet (TS) of the season.", False),  # (an acronym says nothing of what it is)
    ("Tally sheet (2019) | printed form used on transects", False),  # (a table's cells)
    # (an aside opening with a conjunction, a preposition or a pronoun: no noun phrase saying what the thing is)
    ("Counts go on the tally sheet (since the birds are not ringed, this is easily done) of the season.", False),
    ("Counts go on the tally sheet (in our present survey a blue one) of the season.", False),
])
def test_a_text_defines_a_term_when_it_glosses_it_in_brackets(text, defined):
    from engine.index.evidence import defines

    assert defines(text, "What is a tally sheet?") is defined


def test_a_sentence_announcing_a_definition_defines_the_term_it_gives_after_a_colon():
    from engine.index.evidence import defines

    assert defines("Thus, the survey's definition of a tally sheet might be: a tally sheet is a printed form a "
                   "surveyor fills in on a transect.", "What is a tally sheet?")
    assert not defines("Note: the tally sheet goes to the office each evening.", "What is a tally sheet?")
    # a gloss in passing counts only where no sentence says outright what the term is
    assert defines("Counts go on the tally sheet (the printed form a surveyor fills in) of the season.",
                   "What is a tally sheet?", glossed=False) is False


def test_a_term_and_its_acronym_in_brackets_are_one_term_whichever_is_asked_about():
    from engine.index.evidence import defines

    # named after saying what it is, by its words with the acronym asked about after them
    assert defines("Counts are kept in a notation known as the Tally Sheet Record (TSR), one line a bird.",
                   "What is a TSR in the survey?")
    assert not defines("Counts are kept in a notation known as the Tally Sheet Record (TSR).", "What is a TS?")

    assert defines("The Tally Sheet Record (in short, TSR) is the form a surveyor fills in.", "What is the TSR?")
    assert defines("The Tally Sheet Record (TSR) is the form a surveyor fills in.", "What is the tally sheet record?")
    assert not defines("The TSR is the form a surveyor fills in.", "What is the tally sheet record?")
    # an acronym with a hyphen stands for the words its letters open ("FASC-N": Federal Agency Smart Credential Number)
    assert defines("Tally Sheet Record Number (TSR-N): the number a surveyor writes on the form.", "What is the TSR-N?")


def test_a_term_asked_about_in_the_plural_is_defined_by_saying_what_things_they_are_without_an_article():
    from engine.index.evidence import defines

    said = "Pragmas are tokens that may occur anywhere in the input stream, such as compiler directives."
    assert defines(said, "What are pragmas in the grammar language?")
    assert defines("Pragmas are special tokens which the scanner hands to no parser.", "What are pragmas?")
    assert not defines("Pragmas are ignored in the grammar.", "What are pragmas?")  # (what is done to them)
    # asked in the singular, a sentence about the things in the plural gives way to one saying what one of them is
    assert not defines("Warm sites are locations that have the infrastructure of cold sites.", "What is a warm site?")
    assert defines("Warm Site: An environmentally conditioned work space partly equipped.", "What is a warm site?")


def test_a_definition_questions_words_of_defining_name_nothing_and_its_passage_opens_with_the_definition():
    """"What is the TSR-N, as defined in the standard?": "defined" counts for nothing, and of the glossary's entries
    the window that opens with the one defining the term scores best, not a longer one that only holds it."""
    from engine.index.evidence import analyse, score_windows

    page = ("Survey Area: A region defined in the plan, in these levels:\n\n- Level 1: a plot\n\n- Level 2: a field\n\n"
            "Tally Sheet Record Number (TSR-N): the number a surveyor writes on the form of the standard.\n")
    question = "What is the TSR-N, as defined in the standard?"
    terms, weights = ["tsr", "defin", "standard"], [1.8, 1.1, 0.3]
    best = score_windows(analyse(page), terms, weights, question, [], text=page)[0]
    assert best.text.startswith("Tally Sheet Record Number (TSR-N)")


def test_a_numbered_or_quoted_definition_defines_its_term():
    from engine.index.evidence import defines

    assert defines("- (1) Tally Sheet means a printed form, or a copy of such form, that:", "What is a tally sheet?")
    assert defines("Tally Sheet (TS) is “the printed form a surveyor fills in”.", "What is a tally sheet?")
    assert not defines("(2) Tally Sheet Archive includes the sheets of a season", "What is a tally sheet?")


def test_a_request_to_define_a_term_searches_for_the_term_not_for_the_word_define():
    assert query_terms("Define tally sheet.") == query_terms("tally sheet")
    assert "defin" in query_terms("How does the standard define a tally sheet?")  # (not a request: the word counts)


def test_other_questions_name_no_term_to_define():
    from engine.index.evidence import defined_term

    assert defined_term("What does the standard mean for volunteers?") == ""  # (what follows from it)
    assert defined_term("In 2023, what were the counts?") == ""  # (when, not where)


def test_where_a_definition_question_places_its_term_routes_but_counts_little_within_the_document():
    from engine.index.evidence import definition_context

    assert definition_context("What is a checkpoint in Casper FFG?") == ["casper", "ffg"]
    assert definition_context("In the Menhir manual, what is a start symbol?") == ["the", "menhir", "manual"]
    assert definition_context("How does the RARE paper define a noise model?") == ["the", "rare", "paper"]
    assert definition_context("How does Tarn define a tally sheet in its survey standard?") == [
        "tarn", "its", "survey", "standard"]  # (who defines it and where: both place it)
    assert definition_context("What is a checkpoint?") == []
    assert definition_context("What is the deadline in the proposal?") == []
    assert definition_context("In fiscal 2023, what was the revenue?") == []  # (an amount is asked for)


def test_a_term_asked_to_be_defined_puts_the_page_defining_it_first(tmp_path):
    pages = [["Issuance", "A tally sheet is checked by the crew before each survey, and the tally sheet is kept",
              "with the other tally sheets of the season in the office of the survey group."],
             ["Storage", "Each tally sheet is scanned at the end of the week and the tally sheet itself is filed."],
             ["Glossary", "Tally sheet: A printed form on which a surveyor records each bird seen on a transect.",
              "Transect: A fixed line across a site that a surveyor walks at a steady pace."]]
    retriever = _retriever_of_pages(tmp_path, "standard.pdf", pages)
    found = retriever.search("What is a tally sheet?", k=3)
    assert found.hits[0].page == 3 and any("defines 'tally sheet'" in note for note in found.notes)
    # the same where the question names where it is used, and by a sentence naming the term after what it is
    found = retriever.search("What is a transect in the survey standard?", k=3)
    assert found.hits[0].page == 3 and any("defines 'transect'" in note for note in found.notes)
    assert {"survey", "standard"} <= found.routing.context


def test_a_term_named_after_what_it_is_puts_that_page_first(tmp_path):
    pages = [["Issuance", "Every tally sheet is checked by the crew before each survey, and each tally sheet is kept",
              "with the other tally sheets of the season in the office of the survey group."],
             ["Forms", "Each surveyor carries a printed form on which every bird seen on a transect is recorded;",
              "such a form is called a tally sheet and it is handed in at the end of the day."],
             ["Storage", "Each tally sheet is scanned at the end of the week and the tally sheet itself is filed."]]
    found = _retriever_of_pages(tmp_path, "standard.pdf", pages).search("What is a tally sheet in the standard?", k=3)
    assert found.hits[0].page == 2 and any("defines 'tally sheet'" in note for note in found.notes)


def test_two_documents_a_question_names_by_the_words_they_share_are_compared(tmp_path):
    from engine.pipeline import Pipeline
    from tests.conftest import written_pdf

    (tmp_path / "pdfs").mkdir()
    paths = []
    for season, count in (("Spring", "twelve"), ("Autumn", "thirty")):
        path = tmp_path / "pdfs" / f"heron-count-{season.lower()}.pdf"
        with written_pdf(path) as doc:
            page = doc.new_page(width=595, height=842)
            page.insert_text((72, 80), f"Heron Count Survey: {season} Report", fontsize=20)
            page.insert_text((72, 130), f"The volunteers counted {count} herons along the upper river this season,",
                             fontsize=11)
            page.insert_text((72, 145), "walking the same transects as in every earlier year of the survey.", fontsize=11)
        paths.append(path)
    Pipeline(tmp_path / "ws", workers=1).ingest(paths)
    workspace = Workspace(tmp_path / "ws")
    retriever = Retriever(load_corpus(workspace), workspace=workspace)
    found = retriever.search("What do the two Heron Count Survey reports say about herons?", k=4)
    assert found.routing.comparison and len(set(found.routed_files(retriever.corpus)[:2])) == 2
    one = retriever.search("What does the Heron Count Survey report say about herons?", k=4)
    assert not one.routing.comparison  # (no "two", "both", "compare": one document is asked about)


def test_a_document_named_outright_by_one_rare_word_beside_one_named_by_many_is_compared(tmp_path):
    # "the Kestrel specification and the Marsh Research Lab bulletin on Ring Ledger Transactions": the bulletin
    # matches many of the question's words and the specification one, which names it all the same; "spec", a kind
    # of document, names none ("the bulletin's ring spec")
    from engine.pipeline import Pipeline
    from tests.conftest import written_pdf

    (tmp_path / "pdfs").mkdir()
    texts = {"kestrel_spec.pdf": ("Kestrel: one hash function, fast on every processor",
                                  ["Kestrel is a cryptographic hash function built from a compression function",
                                   "that processes chunks of one kilobyte in a binary tree, by Ada Quill and Ben Marsh."]),
             "marsh_lab_bulletin.pdf": ("Marsh Research Lab Bulletin: Ring Ledger Transactions",
                                        ["Ring ledger transactions hide the amounts of a transaction inside ring",
                                         "signatures; this research bulletin of the lab describes them and their",
                                         "transactions, by Cy Fenn and the Marsh Research Lab team."]),
             "harbour_report.pdf": ("Harbour Services Annual Report",
                                    ["The harbour handled more ships this year than in any earlier year, and its",
                                     "transactions with shipping lines grew by a third over the year."])}
    for name, (title, lines) in texts.items():
        with written_pdf(tmp_path / "pdfs" / name) as doc:
            page = doc.new_page(width=595, height=842)
            page.insert_text((72, 80), title, fontsize=20)
            for k, line in enumerate(lines):
                page.insert_text((72, 130 + 15 * k), line, fontsize=11)
    Pipeline(tmp_path / "ws", workers=1).ingest(sorted((tmp_path / "pdfs").glob("*.pdf")))
    workspace = Workspace(tmp_path / "ws")
    retriever = Retriever(load_corpus(workspace), workspace=workspace)
    found = retriever.search("Who are the authors of the Kestrel specification and of the Marsh Research Lab "
                             "bulletin on Ring Ledger Transactions?", k=4)
    assert found.routing.comparison
    assert set(found.routed_files(retriever.corpus)[:2]) == {"kestrel_spec.pdf", "marsh_lab_bulletin.pdf"}
    one = retriever.search("Why does the Marsh Research Lab bulletin's ring spec hide amounts, and where are the "
                           "ring signatures kept?", k=4)
    assert not one.routing.comparison



def test_a_glossary_entry_set_as_its_term_over_its_definition_puts_its_page_first(shared_dir, tmp_path):
    # NIST SP 800-171's glossary sets some terms with their source under them; the reader gives such an entry as its
    # term, its source and its definition, paragraph by paragraph: the term on a line of its own over them defines it
    import pymupdf

    from engine.pipeline import Pipeline

    source = shared_dir / "corpus_wide" / "NIST.SP.800-171r2.pdf"
    if not source.is_file():
        pytest.skip("NIST.SP.800-171r2.pdf is not in ../shared/corpus_wide")
    (tmp_path / "pdfs").mkdir()
    path = tmp_path / "pdfs" / "glossary.pdf"
    with pymupdf.open(source) as whole, pymupdf.open() as part:
        part.insert_pdf(whole, from_page=63, to_page=68)  # (pages 64-69: the glossary)
        part.save(path)
    Pipeline(tmp_path / "ws", workers=1).ingest([path])
    workspace = Workspace(tmp_path / "ws")
    retriever = Retriever(load_corpus(workspace), workspace=workspace)
    assert "on behalf of (an agency)\n\n[32 CFR 2002]\n\nA situation" in retriever.corpus.page_text(0, 6)
    found = retriever.search("How does the glossary define 'on behalf of (an agency)'?", k=3)
    assert found.hits[0].page == 6 and any("defines 'on behalf of (an agency)'" in note for note in found.notes)


def test_a_file_names_glued_word_names_the_document_by_the_words_it_is_glued_from():
    # "the Beamer talk" of beamerexample-conference-talk.pdf, whose slides say "example" but never "beamer"; "the
    # uantwerpen beamer theme" of beamerthemeuantwerpenuserguide.pdf, whose slides never say "guide"
    from engine.index.store import glued_words, name_text
    from engine.schemas import DocumentRecord
    from engine.text import tokenize

    vocab = set(tokenize("An example of a perfect phylogeny; the Arbeit of the thesis; rivers and lines; a theme for "
                         "beamer slides, uantwerpen, in the user's words"))
    assert glued_words("beamerexample", vocab) == "beamer example"
    assert glued_words("masterarbeit", vocab) == "master arbeit"
    assert glued_words("beamerthemeuantwerpenuserguide", vocab) == "beamer theme uantwerpen user guide"
    assert glued_words("riverline", vocab) == ""  # (a coined name: too short to be read as glued)
    assert glued_words("masterguide", vocab) == ""  # (two words the text never writes: no glue of its words)
    assert glued_words("conference", vocab) == "" and glued_words("phylogeny", vocab) == ""  # (one word)
    record = DocumentRecord(doc_id="0123456789abcdef", file_name="beamerexample-conference-talk.pdf",
                            rel_path="beamerexample-conference-talk.pdf", sha256="0" * 64, size_bytes=1, pages=1)
    assert "beamer" in name_text(record, "", vocab).split()
    assert "beamer" not in name_text(record, "").split()  # (without the text's words, no split is known)


def test_an_untitled_document_is_named_by_its_title_block_not_by_its_contents_page():
    # a docinfo title that is no title ("Contents", "gputils.dvi") does not name the document; its file name does, and
    # the opening lines of its first page up to a contents heading (a contents page's entries name no document)
    from engine.index.store import doc_title, name_text
    from engine.schemas import DocumentRecord
    from engine.schemas.pdf import PdfInfo

    record = DocumentRecord(doc_id="0123456789abcdef", file_name="ref_en.pdf", rel_path="ref_en.pdf", sha256="0" * 64,
                            size_bytes=1, pages=1)
    record.pdf = PdfInfo(file_name="ref_en.pdf", pages=1, format="portrait", width=612, height=792, docinfo={"title": "Contents"})
    assert doc_title(record) == "ref_en"
    names = name_text(record, "# Xfig User Manual\n\nVersion 3.2\n\n## Table of Contents\n\n- Main Menus\n- File menu")
    assert "Xfig User Manual Version 3.2" in names and "Menus" not in names
    record.pdf = PdfInfo(file_name="ref_en.pdf", pages=1, format="portrait", width=612, height=792, docinfo={"title": "Fonts in X11R7.7"})
    assert doc_title(record) == "Fonts in X11R7.7"
