"""Questions about who made a document, answered from its title block."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.agent import ask
from engine.agent.authors import MADE_BY_RE, NOTICE_RE, asks_for_authors, label_and_value, naming_terms, title_block
from engine.agent.offline import cited_first
from engine.pipeline import Pipeline
from engine.schemas import Citation, RetrievedPage
from engine.workspace import Workspace
from tests.conftest import SAMPLES, written_pdf

NAMES = frozenset({"river", "survey", "method", "field", "guid"})  # stems naming a document ("River Survey Methods")


@pytest.mark.parametrize("question", [
    "Who wrote the river survey paper?",
    "Who are the authors of the River Survey Methods guide?",
    "Which organisations produced the annual report?",
    "Which authors are credited on the reference manual, and which version does it document?",
    "Which universities are the authors of the two papers affiliated with?",
    "Field guide: authors and date.",
    "Which institutions are behind the river survey report?",
    "Name the organisations that published the field guide.",
    "Who gave the talk \"River Survey Methods\" (Den Haag, April 2006), and from which institution?",  # a talk's
    "Who presented the river survey slides?",  # speakers made it
])
def test_a_question_asking_who_made_a_document(question):
    assert asks_for_authors(question, NAMES)


@pytest.mark.parametrize("question", [
    "Who wrote the parser used in the interpreter project?",  # a thing the document describes, not the document
    "What future work do the authors of the survey paper discuss?",  # the authors as the subject of its content
    "How many advisers reported an affiliated broker-dealer?",  # firms' affiliates, not authors'
    "Did the author receive any payment for the work?",
    "Who presented the parser at the workshop?",  # a thing the document describes, presented
])
def test_a_question_about_the_content_is_not_one(question):
    assert not asks_for_authors(question, NAMES)


def test_the_words_of_making_do_not_route_the_question():
    assert naming_terms(["wrote", "gasper", "paper"]) == ["gasper"]
    assert naming_terms(["author", "paper"]) == ["author", "paper"]  # (nothing else left: all of them)
    # a kind of document that a document goes by (its type, "thesis") names it
    assert naming_terms(["wrote", "master", "thesi", "trajectori"], frozenset({"thesi"})) == [
        "master", "thesi", "trajectori"]


GERMAN_PROSE = [
    "Die Arbeit untersucht, wie sich Indexstrukturen für Trajektorien effizient aufbauen und aktualisieren lassen.",
    "Dabei werden die Daten in einem Baum gespeichert, dessen Knoten die räumliche Ausdehnung der Einträge kennen.",
    "Für jede Anfrage wird der Baum von der Wurzel bis zu den Blättern durchlaufen, und nur passende Knoten werden",
    "weiter betrachtet. Die Experimente zeigen, dass das gebündelte Einfügen deutlich weniger Zugriffe benötigt als",
    "das Einfügen einzelner Elemente, und dass die Kosten mit der Größe des Arbeitsspeichers sinken.",
]


def title_page(page, lines: list[tuple[float, float, str, float]]) -> None:
    """Write a title page's lines, each (x, baseline y, text, type size)."""
    for x, y, text, size in lines:
        page.insert_text((x, y), text, fontsize=size)


def german_thesis(path: Path) -> Path:
    """A thesis written in German: a title page with its degree and its author in a label cell, then prose."""
    with written_pdf(path) as doc:
        title_page(doc.new_page(width=595, height=842), [
            (72, 100, "Universität Musterstadt", 12), (72, 160, "Effiziente Indexstrukturen für Trajektorien", 22),
            (72, 200, "Abschlussarbeit zur Erlangung des akademischen Grades", 12),
            (72, 220, "Master of Science (M.Sc.)", 12), (72, 260, "Autor:", 12), (200, 260, "Erika Mustermann", 12),
            (72, 300, "Musterstadt, 5. Juni 2017", 12)])
        for number in (1, 2):
            page = doc.new_page(width=595, height=842)
            page.insert_text((72, 80), f"{number} Kapitel {number}", fontsize=16)
            for k, line in enumerate(GERMAN_PROSE * 4):
                page.insert_text((72, 120 + 15 * k), line, fontsize=11)
    return path


def test_who_wrote_a_document_in_another_language_is_answered_from_its_title_block(tmp_path):
    # an English question about a German thesis shares few of its words: "thesis" (its type) and "master" name it
    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    sources = [german_thesis(pdfs / "masterarbeit.pdf"), *sorted(SAMPLES.glob("*.pdf"))]
    assert len(sources) == 3
    Pipeline(tmp_path / "ws", workers=1).ingest(sources)
    workspace = Workspace(tmp_path / "ws")
    thesis = next(r for r in workspace.records() if r.file_name == "masterarbeit.pdf")
    assert (thesis.metadata.language, thesis.metadata.document_type) == ("de", "thesis")
    answer = ask(workspace, "Who wrote the master's thesis on trajectory data structures?")
    assert any(step.detail.startswith("asks who made the document") for step in answer.trace)
    assert "Erika Mustermann" in answer.answer and [(c.doc, c.page) for c in answer.citations] == [
        ("masterarbeit.pdf", 1)]
    assert "|" not in answer.answer  # (a label's cell and its value's read as prose)


def talk_slides(path: Path) -> Path:
    """A talk's slides: a title slide with its speakers, a rule drawn in underscores and their institution, then
    slides of text."""
    with written_pdf(path) as doc:
        title_page(doc.new_page(width=842, height=595), [
            (120, 160, "Wading Surveys of Small Rivers", 30), (120, 230, "Ada Quill, Ben Marsh", 16),
            (120, 260, "___", 16), (120, 290, "Riverine Institute, Lakeside", 14)])
        for number, title in enumerate(("Why wade", "Gauging the flow", "Counting the fish"), start=2):
            page = doc.new_page(width=842, height=595)
            page.insert_text((80, 80), title, fontsize=26)
            for k in range(4):
                page.insert_text((80, 160 + 40 * k), f"Point {k + 1} of slide {number} on wading surveys.",
                                 fontsize=18)
    return path


def test_who_gave_a_talk_is_answered_from_its_title_slide_without_its_rule(tmp_path):
    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    Pipeline(tmp_path / "ws", workers=1).ingest([talk_slides(pdfs / "wading-talk.pdf"), *sorted(SAMPLES.glob("*.pdf"))])
    answer = ask(Workspace(tmp_path / "ws"), "Who gave the talk on wading surveys of small rivers?")
    assert any(step.detail.startswith("asks who made the document") for step in answer.trace)
    assert "Ada Quill, Ben Marsh" in answer.answer and "Riverine Institute" in answer.answer
    assert "___" not in answer.answer and "___" not in answer.citations[0].quote
    assert [(c.doc, c.page) for c in answer.citations] == [("wading-talk.pdf", 1)]


def test_a_title_blocks_label_and_value_cells_read_as_prose():
    assert label_and_value("Author: | Michael Beckemeyer") == "Author: Michael Beckemeyer"
    assert label_and_value("| Gutachter: | Prof. Dr. Jan Vahrenhold |") == "Gutachter: Prof. Dr. Jan Vahrenhold"
    assert label_and_value("Ada Quill | Ben Marsh") == "Ada Quill | Ben Marsh"  # (names apart, no label)


def test_a_title_block_is_the_short_lines_under_the_title_up_to_the_prose():
    page = ("# Indexing Trajectories\n\nAda Lovelace, Charles Babbage\n\nAnalytical Engine Society, London\n\n"
            "Abstract\n\nWe present an index for trajectories that answers range queries on large data sets faster "
            "than any earlier structure we know of, and we measure it.\n")
    start, end = title_block(page)
    assert page[start:end] == "Ada Lovelace, Charles Babbage\n\nAnalytical Engine Society, London"  # ("Abstract" left out)


def test_names_set_over_the_title_belong_to_its_block():
    page = "Ada Lovelace, March 1, 1843\n\nAnalytical Engine Society\n\n# Notes on the Engine\n\n" + "word " * 30
    start, end = title_block(page)
    assert page[start:end] == "Ada Lovelace, March 1, 1843\n\nAnalytical Engine Society"


def test_a_subtitle_that_names_no_one_is_no_title_block():
    page = "# Open Data\n\nDigital transformation of financial services and moving to open data\n\n" + "word " * 30
    assert title_block(page) is None
    assert title_block("No heading on this page.\n\nAda Lovelace\n") is None


def test_who_prepared_a_document_is_answered_from_its_title_block(samples_workspace):
    answer = ask(Workspace(samples_workspace), "Who prepared the River Survey Methods field guide?")
    assert answer.covered and answer.answer.endswith("Prepared by the pdfrag Documentation Team; March 2025 (p. 1)")
    assert [(c.doc, c.page) for c in answer.citations] == [("pdfrag-field-guide.pdf", 1)]
    assert "Prepared by the pdfrag Documentation Team" in answer.citations[0].quote
    assert any(step.detail.startswith("asks who made the document") for step in answer.trace)
    assert (answer.retrieved[0].doc, answer.retrieved[0].page) == ("pdfrag-field-guide.pdf", 1)  # (what it read)


def test_the_pages_an_answer_from_a_documents_own_place_cites_lead_the_retrieved_pages():
    hits = [RetrievedPage(doc="a.pdf", page=7, score=3.0), RetrievedPage(doc="a.pdf", page=2, score=2.0),
            RetrievedPage(doc="b.pdf", page=4, score=1.0)]
    title_page = Citation(doc="a.pdf", page=1, quote="Ada Quill")
    assert [(r.doc, r.page, r.score) for r in cited_first(hits, [title_page], k=3)] == [
        ("a.pdf", 1, 3.0), ("a.pdf", 7, 3.0), ("a.pdf", 2, 2.0)]  # k pages, the cited one scored as the best
    cited = [Citation(doc="a.pdf", page=2, quote="x"), Citation(doc="a.pdf", page=2, quote="y")]
    assert [(r.page, r.score) for r in cited_first(hits, cited, k=5)] == [(2, 3.0), (7, 3.0), (4, 1.0)]
    assert cited_first(hits, [], k=5) == hits


def test_when_a_document_was_made_is_answered_from_a_title_block_that_states_a_date(samples_workspace):
    answer = ask(Workspace(samples_workspace), "When was the field guide published?")
    assert answer.covered and answer.answer.endswith("March 2025 (p. 1)")
    assert any(step.detail.startswith("asks when the document was made") for step in answer.trace)
    assert asks_for_authors("When was the Menhir manual released?", dated=True)
    assert not asks_for_authors("When was the Menhir manual released?")  # (who, not when)
    assert not asks_for_authors("When was the Fed's discount rate raised?", dated=True)  # no document named


def test_a_document_the_question_does_not_name_is_not_answered_by_its_title_block(samples_workspace):
    # no sample document goes by "annual" nor says it on its opening pages: the usual answer, not a title block
    answer = ask(Workspace(samples_workspace), "Who wrote the annual report?")
    assert not any(step.detail.startswith("asks who made the document") for step in answer.trace)


def test_names_with_their_handles_or_addresses_are_a_title_block():
    page = ("# Quill\n\none hash, fast everywhere\n\nAda Quill (@adaq) Ben Marsh (@bmarsh)\n\n"
            "Cai Lloyd-Jones <cai@tarn.example.org>\n\n```\nhttps://quill.example.org\n```\n\n" + "word " * 30)
    start, end = title_block(page)
    assert page[start:end] == ("one hash, fast everywhere\n\nAda Quill (@adaq) Ben Marsh (@bmarsh)\n\n"
                               "Cai Lloyd-Jones <cai@tarn.example.org>")
    assert title_block("# Quill\n\none hash (see quill.example.org)\n\n" + "word " * 30) is None


@pytest.mark.parametrize(("sentence", "says"), [
    ("This report from the Institute of Lakes and Acme Consulting studies open data.", True),
    ("This paper was prepared by the Staff of the River Board.", True),
    ("The present study, jointly produced by Tarn University, reviews ten rivers.", True),
    ("This survey was developed in collaboration with the Ministry of Water.", True),
    ("The survey was developed in collaboration with the Ministry of Water.", False),  # (which survey?)
    ("Figures compiled by the Bureau of Statistics show a fall.", False),  # a source, not the document's maker
    ("This report from 2019 shows how rivers changed.", False),  # a year, not a maker
    ("The paper by Smith et al. [4] measured the flow.", False),  # another paper, not this one
    ("Rivers are surveyed by boat twice a year.", False),
])
def test_a_sentence_saying_who_made_the_document_it_stands_in(sentence, says):
    assert bool(MADE_BY_RE.search(sentence)) is says


def test_who_made_a_document_whose_cover_names_no_one_is_answered_by_the_sentence_that_says_so(tmp_path):
    # a cover of a title and a subtitle (the makers' logos are pictures): the opening prose says who made it
    with written_pdf(tmp_path / "lakes.pdf") as doc:
        cover = doc.new_page(width=595, height=842)
        cover.insert_text((72, 160), "The lake imperative", fontsize=24)
        cover.insert_text((72, 200), "moving from open water to open data", fontsize=12)
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 80), "Executive summary", fontsize=16)
        lines = ["Lakes hold most of the fresh water that cities draw on, and their data is scattered.",
                 "This report from the Institute of Lakes and Acme Consulting studies open water data and shares",
                 "insights on how agencies could pool their measurements.",
                 "Pooled measurements let agencies compare lakes across borders and seasons."]
        for k, line in enumerate(lines):
            page.insert_text((72, 120 + 15 * k), line, fontsize=11)
    Pipeline(tmp_path / "ws", workers=1).ingest([tmp_path / "lakes.pdf"])
    answer = ask(Workspace(tmp_path / "ws"), "Which organisations produced the lake imperative report?")
    assert any(step.detail.startswith("asks who made the document") for step in answer.trace)
    assert "Institute of Lakes and Acme Consulting" in answer.answer
    assert [(c.doc, c.page) for c in answer.citations] == [("lakes.pdf", 2)]


@pytest.mark.parametrize(("sentence", "says"), [
    ("© 1998–2007, 2013 Tarn Devices, Inc. All rights reserved.", True),
    ("Copyright © 2020 by the River Standards Organization, Inc.", True),
    ("Copyright © Lake Open 2021. All Rights Reserved.", True),
    ("DUNMORE, Tex. – The Tarn Company today reported earnings for its first fiscal quarter.", True),
    ("© 2023. For information, contact Acme Global.", False),  # a contact, not a holder
    ("The copyright of the data stays with the agencies that measured it.", False),
    ("Analysts said the company today reported weaker earnings.", False),  # no dateline opens it
])
def test_a_notice_naming_who_holds_or_issues_the_document(sentence, says):
    assert bool(NOTICE_RE.search(sentence)) is says


def test_who_made_a_document_that_names_its_maker_only_in_a_notice_is_answered_by_the_notice(tmp_path):
    """A data sheet whose first page has a title, prose and, at its foot, a copyright notice: neither a title block
    nor a sentence of its prose says who made it; the notice names the holder."""
    with written_pdf(tmp_path / "tx100.pdf") as doc:
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 80), "TX100 Programmable Logic Family Data Sheet", fontsize=18)
        lines = ["The TX100 devices are programmable logic parts for small control systems and their",
                 "boards. Each part holds eight blocks of macrocells joined by one switch matrix that routes",
                 "every signal between blocks, and each part keeps its program when the power is off."]
        for k, line in enumerate(lines):
            page.insert_text((72, 140 + 15 * k), line, fontsize=11)
        page.insert_text((72, 800), "© 2004-2013 Tarn Devices, Inc. All rights reserved.", fontsize=7)
        more = doc.new_page(width=595, height=842)
        more.insert_text((72, 80), "Switch matrix", fontsize=14)
        more.insert_text((72, 120), "The switch matrix routes every signal between the macrocell blocks.", fontsize=11)
    Pipeline(tmp_path / "ws", workers=1).ingest([tmp_path / "tx100.pdf"])
    answer = ask(Workspace(tmp_path / "ws"), "Who wrote the TX100 data sheet?")
    assert any(step.detail.startswith("asks who made the document") for step in answer.trace)
    assert "Tarn Devices, Inc." in answer.answer
    assert [(c.doc, c.page) for c in answer.citations] == [("tx100.pdf", 1)]


def test_a_question_asking_who_made_a_document_and_more_gets_both_answers(samples_workspace):
    # the title block says who prepared the guide; its pages answer the rest, after it
    workspace = Workspace(samples_workspace)
    answer = ask(workspace, "Who prepared the River Survey Methods field guide, and what are the wading limits?")
    assert answer.covered
    assert answer.answer.split("\n\n")[0].endswith("Prepared by the pdfrag Documentation Team; March 2025 (p. 1)")
    assert [(c.doc, c.page) for c in answer.citations][0] == ("pdfrag-field-guide.pdf", 1)
    assert 6 in {c.page for c in answer.citations}  # (the wading limits' page)
    # a part asking of the makers, or one the title block answers itself, is no other part
    only = ask(workspace, "Who prepared the River Survey Methods field guide, and where are they based?")
    assert [(c.doc, c.page) for c in only.citations] == [("pdfrag-field-guide.pdf", 1)]
