"""Questions about what a document is about as a whole, answered from its own account of itself."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from engine.agent import ask
from engine.agent.overview import asked_whole, titled_section
from engine.agent.pieces import answer_units
from engine.agent.sentences import Sentence, unit_sentence
from engine.index.corpus import load_corpus
from engine.pipeline import Pipeline
from engine.workspace import Workspace
from tests.conftest import written_pdf


@pytest.mark.parametrize(("question", "about"), [
    ("What is this report about?", ["report"]),
    ("Summarize the River Survey Methods field guide.", ["river", "survey", "methods", "field", "guide"]),
    ("Give me a brief overview of the Menhir manual", ["menhir", "manual"]),
    ("What does the white paper cover?", ["white", "paper"]),
])
def test_a_question_about_a_whole_document_names_what_it_asks_about(question, about):
    assert asked_whole(question) == about


@pytest.mark.parametrize("question", [
    "What is the purpose of the attestation delay in the Gasper paper?",  # a thing of the content
    "How is the discharge of a river measured?",
    "Which rivers does the guide survey?",
])
def test_other_questions_are_not_about_a_whole_document(question):
    assert asked_whole(question) is None


def test_a_term_asked_about_within_what_a_document_is_named_by_is_not_the_whole_document():
    assert asked_whole("What is the XC9500?", defining=True) == ["xc9500"]
    assert asked_whole("What is a federate in SpaceFOM?", defining=True) is None  # (a thing within it)


def test_what_a_document_is_about_is_answered_from_its_own_account(samples_workspace):
    answer = ask(Workspace(samples_workspace), "What is the River Survey Methods field guide about?")
    assert answer.covered and "This guide describes a practical method for surveying small rivers" in answer.answer
    assert [c.doc for c in answer.citations] == ["pdfrag-field-guide.pdf"]
    assert answer.answer.endswith(f"(p. {answer.citations[0].page})")
    assert any(step.detail.startswith("asks what a document is about") for step in answer.trace)


def test_a_deck_is_about_what_its_title_slide_says_first(samples_workspace):
    # the deck's account was its first prose, a step of slide 5, without what the deck is: its title slide says it
    answer = ask(Workspace(samples_workspace), "What is this about?", docs=["pdfrag-product-deck.pdf"])
    assert answer.covered and answer.answer.startswith(
        "Riverline\n\nField data without the paperwork\n\nProduct overview for river and catchment teams")
    assert [c.page for c in answer.citations] == [1, 5]
    # then the slide its account is on, from the slide's opening: a step's label over the step's text
    assert "\n\nHow it works\n\n1 Capture\n\nCrews record depths" in answer.answer


def test_a_part_of_a_document_is_not_answered_with_its_account(samples_workspace):
    # "gauging" and "section" name no document: a question about a part gets the usual answer
    answer = ask(Workspace(samples_workspace), "Summarize the gauging section of the field guide.")
    assert not any(step.detail.startswith("asks what a document is about") for step in answer.trace)



def test_what_a_chosen_document_is_about_needs_no_word_naming_it(samples_workspace):
    # "What is this about?" holds no word to search for: of the one document a user chose, its own account answers
    answer = ask(Workspace(samples_workspace), "What is this about?", docs=["pdfrag-field-guide.pdf"])
    assert answer.covered and "This guide describes a practical method for surveying small rivers" in answer.answer


def test_what_the_only_document_is_about_needs_no_word_naming_it(tmp_path):
    # a workspace of one document (the workbench's first upload): "What is this about?" is about that one
    from tests.conftest import SAMPLES

    Pipeline(tmp_path, workers=1).ingest([SAMPLES / "pdfrag-field-guide.pdf"])
    answer = ask(Workspace(tmp_path), "What is this about?")
    assert answer.covered and "This guide describes a practical method for surveying small rivers" in answer.answer


def test_what_a_named_page_holds_is_answered_from_its_opening(samples_workspace):
    # "What is on slide 4?" holds no word of the slide's content to rank its passages by: the slide's opening answers
    workspace = Workspace(samples_workspace)
    answer = ask(workspace, "What is on slide 4 of the product deck?")
    assert answer.covered and [(c.doc, c.page) for c in answer.citations] == [("pdfrag-product-deck.pdf", 4)]
    assert answer.answer.startswith("4.5 hours spent re-typing")
    assert any(step.detail.startswith("asks what a page it names holds") for step in answer.trace)
    answer = ask(workspace, "Summarize slides 3-4 of the deck")  # a range: each page's opening, in turn
    assert [c.page for c in answer.citations] == [3, 4] and answer.answer.startswith("Why Riverline")
    answer = ask(workspace, "What is on the first page of the field guide?")
    assert [(c.doc, c.page) for c in answer.citations] == [("pdfrag-field-guide.pdf", 1)]
    assert answer.answer.startswith("River Survey Methods")


def test_a_slide_named_without_a_document_is_a_decks(samples_workspace):
    # of a report and a deck, "slide" names the deck's pages, whichever document the question's words route to first
    workspace = Workspace(samples_workspace)
    answer = ask(workspace, "What is on the last slide?")
    assert [(c.doc, c.page) for c in answer.citations] == [("pdfrag-product-deck.pdf", 12)]
    answer = ask(workspace, "What is on the last page of the field guide?")  # a document named: its own pages
    assert [(c.doc, c.page) for c in answer.citations] == [("pdfrag-field-guide.pdf", 11)]


def test_a_question_about_a_thing_on_a_named_page_is_answered_as_usual(samples_workspace):
    answer = ask(Workspace(samples_workspace), "What does page 6 of the field guide say about accidents?")
    assert not any(step.detail.startswith("asks what a page it names holds") for step in answer.trace)
    assert answer.covered and "accidents" in answer.answer


@pytest.mark.parametrize(("question", "doc", "page", "opening"), [
    ("What are the wading limits?", "pdfrag-field-guide.pdf", 6, "Wading limits\n\nA useful rule is that nobody wades"),
    ("Who is this guide for?", "pdfrag-field-guide.pdf", 3, "1.2 Who this guide is for\n\nThe guide is written for"),
    ("How does Riverline work?", "pdfrag-product-deck.pdf", 5, "How it works\n\n1 Capture\n\nCrews record depths"),
    ("How does the field guide handle wading limits?", "pdfrag-field-guide.pdf", 6,  # (how the text treats it)
     "Wading limits\n\nA useful rule is that nobody wades"),
])
def test_a_question_restating_a_sections_title_is_answered_by_its_opening(samples_workspace, question, doc, page,
                                                                        opening):
    answer = ask(Workspace(samples_workspace), question)
    assert answer.covered and (answer.citations[0].doc, answer.citations[0].page) == (doc, page)
    assert answer.answer.startswith(opening)
    assert any(step.detail.startswith("restates a section's title") for step in answer.trace)


def test_a_question_about_a_thing_within_a_section_is_answered_as_usual(samples_workspace):
    answer = ask(Workspace(samples_workspace), "What are the wading limits for fast water?")  # a word more
    assert not any(step.detail.startswith("restates a section's title") for step in answer.trace)



def _lines(page, lines: list[str], top: float) -> None:
    for k, text in enumerate(lines):
        page.insert_text((72, top + 15 * k), text, fontsize=11)


def _headed(page, top: float, title: str, lines: list[str], size: float = 14, gap: float = 25) -> None:
    """A heading of `size` points at `top` on a page and these lines of text `gap` points under it."""
    page.insert_text((72, top), title, fontsize=size)
    _lines(page, lines, top + gap)


def _titled_page(doc, title: str, lines: list[str] | None = None, top: float = 120):
    """A new A4 page with a 16-point title at its top and these lines of text under it."""
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 80), title, fontsize=16)
    if lines:
        _lines(page, lines, top)
    return page


def _ingested(tmp_path: Path, make, name: str) -> Workspace:
    """A workspace holding the one PDF `make(path)` writes."""
    (tmp_path / "pdfs").mkdir()
    Pipeline(tmp_path / "ws", workers=1).ingest([make(tmp_path / "pdfs" / name)])
    return Workspace(tmp_path / "ws")


def manual(path: Path) -> Path:
    """A five-page manual: a cover, two contents pages, then "1 Foreword" and "2 Usage" in prose."""
    with written_pdf(path) as doc:
        cover = doc.new_page(width=595, height=842)
        cover.insert_text((72, 120), "Tarn Reference Manual", fontsize=24)
        cover.insert_text((72, 160), "(version 2024)", fontsize=12)
        cover.insert_text((72, 190), "Ada Quill | Ben Marsh", fontsize=12)
        entries = [("1 Foreword", 4), ("2 Usage", 5)] + [(f"2.{n} Option {n}", 5) for n in range(1, 61)]
        for part in (entries[:31], entries[31:]):  # two pages of contents
            contents = doc.new_page(width=595, height=842)
            contents.insert_text((72, 60), "Contents", fontsize=16)
            for n, (title, page) in enumerate(part):
                contents.insert_text((72, 90 + 22 * n), f"{title} {'.' * 60} {page}", fontsize=11)
        prose = {"1 Foreword": ["Tarn is a parser generator for small languages. It turns grammar specifications into",
                                "parsers and reports every conflict it finds in plain words, with an example input."],
                 "2 Usage": ["Run the tool with the name of a grammar file as its only argument, and it writes the",
                             "parser next to the grammar in a file of the same name with a different extension."]}
        for title, lines in prose.items():
            _titled_page(doc, title, lines)
    return path


def test_a_documents_account_past_its_cover_and_contents_is_its_first_sections_prose(tmp_path):
    workspace = _ingested(tmp_path, manual, "tarn-manual.pdf")
    for question in ("What is Tarn?", "Summarize the Tarn manual"):
        answer = ask(workspace, question)
        assert answer.covered and [c.page for c in answer.citations] == [4], question
        assert answer.answer.startswith("Tarn is a parser generator for small languages."), question


def test_a_restated_title_answers_only_when_the_search_finds_its_section(samples_workspace):
    # (an appendix titled "Business Impact Analysis" that only says where a template goes is no answer to "What is a
    # business impact analysis?" when the search ranks the text that explains it first)
    from dataclasses import replace

    from engine.agent import retriever_for
    from engine.agent.overview import section_overview

    retriever = retriever_for(samples_workspace)
    found = retriever.search("What are the wading limits?")
    assert section_overview(retriever.corpus, found) is not None and found.hits[0].page == 6
    elsewhere = replace(found, hits=[h for h in found.hits if h.page != 6])
    assert section_overview(retriever.corpus, elsewhere) is None


def paper(path: Path) -> Path:
    """One page: a title, authors, "Abstract" as a plain line over its paragraph, then a numbered introduction."""
    with written_pdf(path) as doc:
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 80), "Gorse: Faster Heathland Surveys", fontsize=20)
        page.insert_text((72, 110), "Ann Heath, Bo Ling", fontsize=11)
        _headed(page, 150, "Abstract",
                ["Gorse is a method for surveying heathland from short transects that walkers can repeat",
                 "each spring, and we show that it halves the time a survey takes without losing any",
                 "species that the full method records on the same sites."], size=11, gap=20)
        _headed(page, 250, "1. Introduction",
                ["Heathland surveys are slow because every quadrat is walked and recorded in full by two",
                 "people, and the records are kept on paper sheets that are typed up later on."])
    return path


def test_an_abstract_set_as_a_plain_line_is_the_papers_account_before_its_introduction(tmp_path):
    answer = ask(_ingested(tmp_path, paper, "gorse.pdf"), "What is the Gorse paper about?")
    assert answer.answer.startswith("Gorse is a method for surveying heathland"), answer.answer


PROSE = ("The guide sets out how a small volunteer group can survey the rivers of its catchment every spring and keep "
         "the records in one place.")


def _account(text: str, *, headed: bool) -> list[str]:
    from engine.agent.overview import ACCOUNT, account_units
    from engine.index.evidence import analyse

    analysis = analyse(text)
    return [analysis.units[i].text for i in account_units(analysis, text, ACCOUNT if headed else None)]


def test_an_account_is_prose_not_a_contents_entry_code_or_a_table_row():
    contents = ("Contents\n\nSurveying the rivers of the catchment in the spring and the autumn . . . . . . . 4\n\n"
                "Keeping the records of the survey in one place that every member of the group can reach and\n\n"
                "Training the new volunteers before their first day on the water with the group . . . . . 9\n\n"
                "```\nlet the survey run over every reach of the river and keep the records in one place now\n```\n\n"
                "| the survey runs over every reach of the river and keeps all the records in one place | 2 |\n\n"
                + PROSE)
    assert _account(contents, headed=False) == [PROSE]  # (the middle contents line lost its leader and page)


def test_an_account_heading_in_a_contents_list_is_not_the_account():
    text = ("TABLE OF CONTENTS\n\nI. Introduction\n\n**II. Interpretation**\n\nA. Background\n\n## I. INTRODUCTION\n\n"
            + PROSE)
    assert _account(text, headed=True) == [PROSE]


def test_a_question_asking_for_a_documents_parts_gets_its_trees_top_level_sections(samples_workspace):
    answer = ask(Workspace(samples_workspace), "How is the field guide organised?")
    assert answer.answer.split("\n") == [
        "- 1 Introduction (p. 3)", "- 2 Planning a Survey (p. 4)",
        "- 3 Working on the Water: Safety and the Practical Logistics of a Field Day (p. 6)",
        "- 4 Measuring the Channel (p. 8)", "- 5 Recording and Checking Data (p. 10)"]  # (its contents page left out)
    assert [(c.page, c.quote) for c in answer.citations][:2] == [(3, "1 Introduction"), (4, "2 Planning a Survey")]
    assert any(step.detail.startswith("asks for a document's parts") for step in answer.trace)
    # parts of a thing in the document, not of the document: the usual answer
    answer = ask(Workspace(samples_workspace), "What sections does a field sheet have?")
    assert not any(step.detail.startswith("asks for a document's parts") for step in answer.trace)
    # what a kind of thing is, named "structure": not the document's structure
    answer = ask(Workspace(samples_workspace), "What is a structure in the field guide?")
    assert not any(step.detail.startswith("asks for a document's parts") for step in answer.trace)


def front_and_introduction(path: Path, front: list[tuple[str, float]], lines: list[str], introduction: str) -> Path:
    """Two pages: a front page of (text, font size) lines, then a section `introduction` (in the outline) whose
    first paragraph is background."""
    with written_pdf(path) as doc:
        page = doc.new_page(width=595, height=842)
        top = 80
        for text, size in front:
            page.insert_text((72, top), text, fontsize=size)
            top += 30
        _lines(page, lines, top + 20)
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 80), introduction, fontsize=14)
        _lines(page, ["Heathland surveys are slow because every quadrat is walked and recorded in full by two",
                      "people, and the records are kept on paper sheets that are typed up later on."], 110)
        doc.set_toc([[1, introduction, 2]])
    return path


def release(path: Path) -> Path:
    """A notice whose summary is run into its first sentence ("SUMMARY: …"), then "I. Introduction"."""
    return front_and_introduction(path, [("Heathland Survey Standards", 20)], [
        "SUMMARY: The Board is proposing a standard for surveys of heathland that sets how often a",
        "site is walked, how species are recorded and how the records are kept for later review."], "I. Introduction")


def test_a_summary_run_into_its_first_sentence_is_the_account_before_an_introduction(tmp_path):
    answer = ask(_ingested(tmp_path, release, "standards.pdf"), "Summarize the heathland survey standards")
    assert answer.answer.startswith("SUMMARY: The Board is proposing a standard"), answer.answer
    assert [c.page for c in answer.citations] == [1]


def test_an_abstract_run_into_its_first_sentence_is_an_account_an_introduction_is_not_a_summary():
    from engine.agent.overview import SUMMARY

    text = "Abstract— " + PROSE + "\n\n## 1 Introduction\n\nThe rivers were surveyed by volunteers in the past.\n"
    assert _account(text, headed=True) == ["Abstract— " + PROSE]
    from engine.agent.overview import account_units
    from engine.index.evidence import analyse

    later = "## 1 Introduction\n\n" + PROSE
    assert account_units(analyse(later), later, SUMMARY) == []  # (an introduction: only when no summary is found)
    assert _account("The abstract — of the survey — is " + PROSE.lower(), headed=True) == []


def bare_paper(path: Path) -> Path:
    """A title, authors and an abstract with no name over it, then "1 Introduction"."""
    return front_and_introduction(path, [("Gorse: Faster Heathland Surveys", 20), ("Ann Heath, Bo Ling", 11)], [
        "We present Gorse, a method for surveying heathland from short transects that walkers can",
        "repeat each spring. It halves the time a survey takes without losing any species that the",
        "full method records on the same sites, and it needs no equipment beyond a notebook, a",
        "compass and a watch, so that volunteer groups can adopt it within a single season."], "1 Introduction")


def test_an_abstract_with_no_name_under_the_title_block_is_the_account_before_the_introduction(tmp_path):
    answer = ask(_ingested(tmp_path, bare_paper, "gorse.pdf"), "Summarize the Gorse paper")
    assert answer.answer.startswith("We present Gorse, a method for surveying heathland"), answer.answer


def test_a_short_notice_under_a_title_block_is_no_abstract():
    from engine.agent.overview import abstract_units
    from engine.index.evidence import analyse

    notice = ("# Bachelor Thesis\n\nAda Quill, Ben Marsh\n\n© 2021\n\n"
              "This work, including its parts, is protected by copyright. Any use outside the limits of copyright "
              "law without the author's consent is not permitted.\n")
    assert abstract_units(analyse(notice), notice) == []
    longer = notice.replace("not permitted.", "not permitted. " + "It may be read and cited freely. " * 8)
    assert abstract_units(analyse(longer), longer)  # (as long as an abstract: read as one)


def spec(path: Path) -> Path:
    """Two pages, an outline: "1 Introduction", then "2 Tally Sheets" whose first subsection is "2.1 Introduction"."""
    with written_pdf(path) as doc:
        _titled_page(doc, "1 Introduction", [
            "This standard says how bird surveys on heathland are walked, recorded and filed by the",
            "volunteer groups of the survey, season after season."])
        page = _titled_page(doc, "2 Tally Sheets")
        _headed(page, 120, "2.1 Introduction",
                ["A tally sheet is the printed form on which a surveyor records every bird seen on a transect",
                 "and which is handed in to the survey group at the end of the day."], size=13, gap=30)
        _headed(page, 220, "2.2 Storage",
                ["The tally sheets of a season are scanned and filed in the office of the survey group."],
                size=13, gap=30)
        doc.set_toc([[1, "1 Introduction", 1], [1, "2 Tally Sheets", 2], [2, "2.1 Introduction", 2],
                     [2, "2.2 Storage", 2]])
    return path


def test_a_sections_opening_reads_past_a_subsection_titled_like_a_section_outside_it(tmp_path):
    answer = ask(_ingested(tmp_path, spec, "tally-standard.pdf"), "What are tally sheets?")
    assert any(step.detail.startswith("restates a section's title") for step in answer.trace)
    assert "A tally sheet is the printed form on which a surveyor records every bird" in answer.answer


def survey_manual(path: Path) -> Path:
    """Two pages with an outline: "1 Surveys" in prose that mentions outcomes, then "2 Outcomes" whose first list
    (under a lead-in on another thing) is of tools, its second (under "An outcome is one of the following:") of
    outcomes."""
    with written_pdf(path) as doc:
        _titled_page(doc, "1 Surveys", ["A survey walks a transect at dawn, and the surveyor records every outcome "
                                        "of the walk on", "a tally sheet that the survey group files at the end of the "
                                        "season."])
        page = _titled_page(doc, "2 Outcomes",
                            ["After each walk the surveyor checks the kit, using the following tools:"])
        _lines(page, ["- a tally sheet and pencil", "- a pair of binoculars"], 140)
        _lines(page, ["Every walk ends with one record. An outcome is one of the following:"], 190)
        _lines(page, ["- COMPLETE: the transect was walked to its end in the time allowed",
                      "- PARTIAL: the walk stopped early because of weather or access",
                      "- VOID: the walk could not start at all"], 210)
        doc.set_toc([[1, "1 Surveys", 1], [1, "2 Outcomes", 2]])
    return path


def test_things_asked_for_that_a_section_is_titled_by_are_answered_by_its_list_of_them(tmp_path):
    answer = ask(_ingested(tmp_path, survey_manual, "survey-manual.pdf"),
                 "What outcomes can a surveyor record for a walk?")
    assert any(step.detail.startswith("asks for things a section is titled by") for step in answer.trace)
    assert "An outcome is one of the following:" in answer.answer
    assert all(f"{label}:" in answer.answer for label in ("COMPLETE", "PARTIAL", "VOID"))
    assert "binoculars" not in answer.answer  # (the section's other list, of tools, is no list of outcomes)
    assert [(c.doc, c.page) for c in answer.citations] == [("survey-manual.pdf", 2)]


def test_one_thing_asked_for_is_no_list_a_section_answers(tmp_path):
    answer = ask(_ingested(tmp_path, survey_manual, "survey-manual.pdf"),
                 "What outcome ends a walk that stopped early?")
    assert not any(step.detail.startswith("asks for things a section is titled by") for step in answer.trace)


def methods_manual(path: Path) -> Path:
    """Two pages with an outline: "1 Scope", then "2 Survey Methods" whose subsections 2.1-2.3 are the methods."""
    with written_pdf(path) as doc:
        _titled_page(doc, "1 Scope", ["This manual tells volunteers how the heathland bird survey is walked and "
                                      "recorded."])
        page = _titled_page(doc, "2 Survey Methods", ["The survey group uses three methods, each suited to a kind of "
                                                      "ground."], 110)
        for k, (title, text) in enumerate([
                ("2.1 Line Transects", "A surveyor walks a fixed line and counts every bird seen or heard."),
                ("2.2 Point Counts", "A surveyor stands at a marked point for ten minutes and counts birds."),
                ("2.3 Mist Netting", "Trained ringers catch birds in fine nets, ring them and release them.")]):
            page.insert_text((72, 160 + 80 * k), title, fontsize=13)
            _lines(page, [text], 185 + 80 * k)
        doc.set_toc([[1, "1 Scope", 1], [1, "2 Survey Methods", 2], [2, "2.1 Line Transects", 2],
                     [2, "2.2 Point Counts", 2], [2, "2.3 Mist Netting", 2]])
    return path


def test_things_asked_for_of_a_named_section_are_its_subsections_when_it_lists_none(tmp_path):
    # a section this short answers with all of it: its subsections' titles with what each says
    answer = ask(_ingested(tmp_path, methods_manual, "methods-manual.pdf"), "Which methods does section 2 describe?")
    assert any(step.detail.startswith("asks for things of a section it names") for step in answer.trace)
    titles = ["2.1 Line Transects", "2.2 Point Counts", "2.3 Mist Netting"]
    assert [answer.answer.find(title) for title in titles] == sorted(answer.answer.find(title) for title in titles)
    assert all(title in answer.answer for title in titles) and "counts every bird seen or heard" in answer.answer
    assert [(c.doc, c.page) for c in answer.citations] == [("methods-manual.pdf", 2)]


def long_methods(path: Path) -> Path:
    """The bird survey manual with each method described at length."""
    with written_pdf(path) as doc:
        _titled_page(doc, "1 Scope", ["This manual tells volunteers how the heathland bird survey is walked."])
        page = _titled_page(doc, "2 Survey Methods", ["The survey group uses three methods."], 110)
        for k, title in enumerate(["2.1 Line Transects", "2.2 Point Counts", "2.3 Mist Netting"]):
            page.insert_text((72, 150 + 170 * k), title, fontsize=13)
            _lines(page, ["A surveyor keeps to the method's written protocol, notes the weather, the time and "
                          "the place,"] * 8, 175 + 170 * k)
        doc.set_toc([[1, "1 Scope", 1], [1, "2 Survey Methods", 2], [2, "2.1 Line Transects", 2],
                     [2, "2.2 Point Counts", 2], [2, "2.3 Mist Netting", 2]])
    return path


def test_a_long_sections_things_are_its_subsections_titles(tmp_path):
    workspace = _ingested(tmp_path, long_methods, "methods-manual.pdf")
    answer = ask(workspace, "Which methods does section 2 describe?")
    assert answer.answer.splitlines() == ["2 Survey Methods:", "- 2.1 Line Transects (p. 2)",
                                          "- 2.2 Point Counts (p. 2)", "- 2.3 Mist Netting (p. 2)"]
    # (the question counts them too: as many as its subsections, they answer; another count, they are not what it asks)
    counted = ask(workspace, "Which three methods does section 2 describe?")
    assert counted.answer.splitlines()[1:] == answer.answer.splitlines()[1:]
    other = ask(workspace, "Which two methods does section 2 describe?")
    assert not any(step.detail.startswith("asks for things of a section it names") for step in other.trace)
    # (the things asked for title one of its subsections: they are told in it, the subsections are not what it asks)
    within = ask(workspace, "Which transects does section 2 describe?")
    assert not any(step.detail.startswith("asks for things of a section it names") for step in within.trace)


SURVEY_SAID = ["Surveyors walk the heath at dawn in spring.", "Each bird seen or heard goes on the survey form.",
               "Rain or strong wind stops the survey for the day.", "Volunteers learn the common calls before walking."]


def _survey_manual(path: Path, title: str, opening: list[str], subsections: list[str], first: float,
                   step: float) -> Path:
    """A two-page manual: "1 Scope", then the section `title` opening with `opening`'s lines over its subsections,
    each told in SURVEY_SAID's sentences three times (more than fits whole), `step` points apart from `first` down;
    its outline names them all."""
    with written_pdf(path) as doc:
        _titled_page(doc, "1 Scope", ["This manual tells volunteers how the heathland bird survey is walked."])
        page = _titled_page(doc, title, opening, 110)
        for k, subsection in enumerate(subsections):
            page.insert_text((72, first + step * k), subsection, fontsize=13)
            _lines(page, SURVEY_SAID * 3, first + 25 + step * k)
        doc.set_toc([[1, "1 Scope", 1], [1, title, 2], *[[2, subsection, 2] for subsection in subsections]])
    return path


def test_what_a_long_section_with_subsections_holds_is_its_opening_its_subsections_titles_and_what_it_says(tmp_path):
    """"What does section 2, 'Survey Methods', cover?" of a section too long to give whole: its first sentence, then
    its subsections' titles (what its tree says it holds), one a line in order, then what it says most."""
    def described(path: Path) -> Path:  # each method told in a few sentences, more than fits whole
        return _survey_manual(path, "2 Survey Methods", ["The survey group uses three methods."],
                              ["2.1 Line Transects", "2.2 Point Counts", "2.3 Mist Netting"], 150, 200)

    workspace = _ingested(tmp_path, described, "methods-manual.pdf")
    # (a word pointing to the title, "titled", asks nothing of its own)
    titled = ask(workspace, "What's in the part of the methods manual titled 'Survey Methods'?")
    assert any(step.detail.startswith("asks what a section it names holds") for step in titled.trace)
    answer = ask(workspace, "What does section 2, 'Survey Methods', cover?")
    assert answer.answer == titled.answer
    assert any(step.detail.startswith("asks what a section it names holds") for step in answer.trace)
    lines = answer.answer.splitlines()
    titles = ["- 2.1 Line Transects (p. 2)", "- 2.2 Point Counts (p. 2)", "- 2.3 Mist Netting (p. 2)"]
    at = lines.index(titles[0])
    assert lines[at:at + 3] == titles and "The survey group uses three methods." in "\n".join(lines[:at])
    assert any(sentence in "\n".join(lines[at + 3:]) for sentence in SURVEY_SAID)
    assert [c.page for c in answer.citations] == [2] and "2.2 Point Counts" in answer.citations[0].quote


def guidance(path: Path) -> Path:
    """A guide titled "… in Partner Systems and Organizations" whose glossary defines a partner organization."""
    with written_pdf(path) as doc:
        _titled_page(doc, "Protecting Shared Records in Partner Systems and Organizations",
                     ["This guidance helps agencies protect the shared records that partner systems and",
                      "organizations keep, and sets out the requirements those partners must meet."])
        _titled_page(doc, "Glossary",
                     ["partner organization: An entity that owns, operates, or maintains a partner system.",
                      "partner system: A system that does not meet the criteria for an agency system."])
    return path


def test_a_term_whose_words_the_title_holds_apart_is_answered_by_its_definition(tmp_path):
    """"What is a partner organization?" holds only words of the guide's title ("Partner Systems and Organizations"),
    but the glossary defines the term: its entry answers, not the guide's account of itself."""
    workspace = _ingested(tmp_path, guidance, "partner-guidance.pdf")
    answer = ask(workspace, "What is a partner organization?")
    assert answer.covered and [c.page for c in answer.citations] == [2]
    assert "An entity that owns, operates, or maintains a partner system." in answer.answer


def assessment(path: Path) -> Path:
    """A market assessment with a section titled "Quill Matrix" (the chart's labels) and a page defining the term."""
    with written_pdf(path) as doc:
        _titled_page(doc, "Harbour Services Market Assessment 2024",
                     ["This assessment rates twelve providers of harbour services on their market impact and",
                      "on their vision and capability, and names the leaders of the market."])
        _titled_page(doc, "Quill Matrix", ["Leaders  Major Contenders  Aspirants", "High", "Low",
                                           "Market impact", "Vision and capability"])
        _titled_page(doc, "Research methodology",
                     ["The Quill Matrix® is a proprietary framework for the assessment of market impact and",
                      "vision and capability, built from provider briefings and buyer interviews."])
    return path


def test_a_term_a_section_is_titled_by_is_answered_by_the_page_defining_it(tmp_path):
    """"What is the Quill Matrix?" restates a section's title, but a page says what the Quill Matrix is (after a
    trademark sign): that page answers, not the section's opening of chart labels."""
    workspace = _ingested(tmp_path, assessment, "harbour-assessment.pdf")
    answer = ask(workspace, "What is the Quill Matrix?")
    assert answer.covered and [c.page for c in answer.citations] == [3]
    assert "is a proprietary framework for the assessment of market impact" in answer.answer


TERN_INTRODUCTION = ["Tern is a small simulator of a teaching processor with a console and",
                     "a window of registers, and it runs programs written for it step by step."]


def simulator_manual(path: Path) -> Path:
    """A manual whose section "2 The CALL instruction" says it makes three system calls available, one subsection
    each ("2.1 CALL 0 - exit()" …)."""
    with written_pdf(path) as doc:
        _titled_page(doc, "1 Introduction", TERN_INTRODUCTION)
        page = _titled_page(doc, "2 The CALL instruction",
                            ["The CALL instruction gives programs an interface to the host system, making available",
                             "three different system calls. Their parameters are passed in register R14."])
        calls = [("2.1 CALL 0 - exit()", "CALL 0 stops the simulator and expects no parameter at all."),
                 ("2.2 CALL 1 - open()", "CALL 1 opens the file whose name register R14 points to."),
                 ("2.3 CALL 2 - close()", "CALL 2 closes the file whose descriptor register R14 holds.")]
        for n, (title, line) in enumerate(calls):
            page.insert_text((72, 200 + 90 * n), title, fontsize=13, fontname="hebo")
            page.insert_text((72, 225 + 90 * n), line, fontsize=11)
    return path


def test_things_a_section_counts_and_gives_a_subsection_each_are_answered_by_their_titles(tmp_path):
    workspace = _ingested(tmp_path, simulator_manual, "tern-manual.pdf")
    answer = ask(workspace, "Which system calls does the Tern simulator make available through the CALL instruction?")
    assert answer.covered and [c.page for c in answer.citations] == [2]
    assert answer.answer.splitlines()[1:] == ["- 2.1 CALL 0 - exit() (p. 2)", "- 2.2 CALL 1 - open() (p. 2)",
                                              "- 2.3 CALL 2 - close() (p. 2)"]
    assert "making available three different system calls" in answer.answer.splitlines()[0]
    # a question counting other than the section does is answered as usual
    other = ask(workspace, "Which four system calls does the Tern simulator make available?")
    assert "- 2.1 CALL 0 - exit() (p. 2)" not in other.answer.splitlines()


FLAGS = [("START", "1", "first block"), ("END", "2", "last block"), ("PARENT", "4", "inner node"),
         ("ROOT", "8", "the root"), ("KEYED", "16", "keyed mode")]


def flag_table(path: Path) -> Path:
    """A one-page specification: prose on the compression function, then "Table 3" of its flags (a head "Flag name |
    Value | Meaning" over five rows) and "Table 4" of one more."""
    with written_pdf(path) as doc:
        page = _titled_page(doc, "Tarn Hash Specification", [
            "The compression function takes a chaining value, a block of message words, a counter and an input d.",
            "The input d is a bitfield: each flag is a power of 2, and d is the sum of the flags set for one block."])
        page.insert_text((72, 180), "Table 3: Admissible values for input d in the Tarn compression function.",
                         fontsize=11)
        for k, row in enumerate([("Flag name", "Value", "Meaning"), *FLAGS]):
            for x, cell in zip((72, 240, 340), row):
                page.insert_text((x, 210 + 16 * k), cell, fontsize=11)
        page.insert_text((72, 340), "Table 4: Flags of input d reserved for the Tarn compression function.", fontsize=11)
        for k, row in enumerate([("Flag name", "Value", "Meaning"), ("RESERVED", "32", "kept back")]):
            for x, cell in zip((72, 240, 340), row):
                page.insert_text((x, 370 + 16 * k), cell, fontsize=11)
    return path


def test_things_asked_for_that_a_tables_column_names_are_answered_by_its_rows(tmp_path):
    """"What flags does Tarn define for the compression function?": the table whose head names the flags ("Flag
    name") and whose caption holds the question's words answers with its caption and its rows, as a list."""
    workspace = _ingested(tmp_path, flag_table, "tarn-spec.pdf")
    answer = ask(workspace, "What flags does Tarn define for the compression function?")
    assert any(step.detail.startswith("asks for things a table's column names") for step in answer.trace)
    assert answer.answer.startswith("Table 3: Admissible values for input d")
    assert all(name in answer.answer for name, _, _ in FLAGS) and [c.page for c in answer.citations] == [1]
    assert "RESERVED" in answer.answer  # (a second such table on the page, of one row, goes on with the first)
    # "What names …" asks for names whatever they name: no table is the answer for being headed "Flag name"
    other = ask(workspace, "What names does the Tarn compression function use for its inputs?")
    assert not any(step.detail.startswith("asks for things a table's column names") for step in other.trace)


DIALECTS = [("Northern", "nth", "Dialect set to Northern"), ("Coastal", "cst", "Dialect set to Coastal"),
            ("Highland", "hgh", "Dialect set to Highland")]


def dialect_table(path: Path) -> Path:
    """A font's features document: a line leading into a table (no "Table n" caption) whose head carries a remark in
    brackets, "Setting (the first in each group is the default)", over the dialects' rows."""
    with written_pdf(path) as doc:
        page = _titled_page(doc, "Tarn Font Features", ["The Tarn font draws the letters of several related scripts."])
        page.insert_text((72, 180), "The dialects the font supports are shown below:", fontsize=11)
        head = ("Dialect", "Code", "Setting (the first in each group is the default)")
        for k, row in enumerate([head, *DIALECTS]):
            for x, cell in zip((72, 180, 260), row):
                page.insert_text((x, 210 + 16 * k), cell, fontsize=11)
    return path


def test_a_tables_column_answers_under_a_line_leading_into_it_and_a_head_with_a_remark(tmp_path):
    """"Which dialects does the Tarn font support?": the table whose head names the dialects answers, though its head
    carries a remark in brackets and no caption names it: the line leading into it holds the question's word."""
    workspace = _ingested(tmp_path, dialect_table, "tarn-features.pdf")
    answer = ask(workspace, "Which dialects does the Tarn font support?")
    assert any(step.detail.startswith("asks for things a table's column names") for step in answer.trace)
    assert answer.answer.startswith("The dialects the font supports are shown below:")
    assert all(name in answer.answer for name, _, _ in DIALECTS)


def layout_guide(path: Path) -> Path:
    """A user guide whose chapter on its layout library opens with what the library's name stands for, and whose
    later pages use the name more often than that page does."""
    with written_pdf(path) as doc:
        _titled_page(doc, "1 Getting started",
                     ["This guide shows how to draw pages with the toolkit, from a first canvas to whole documents,",
                      "and how to install the toolkit on the common operating systems."])
        _titled_page(doc, "5 Page layout",
                     ["Quillpad stands for Quick Layout and Print Assembly Design. It is a high level page layout",
                      "library which lets you build complex documents from paragraphs, tables and images."])
        for title in ("6 Quillpad examples", "7 Quillpad templates"):
            _titled_page(doc, title,
                         ["The Quillpad example below builds a Quillpad story from a list of Quillpad flowables,",
                          "then asks the Quillpad template to lay the Quillpad story out on its Quillpad frames."])
    return path


def test_a_name_is_answered_by_the_sentence_saying_what_it_stands_for(tmp_path):
    """"What is Quillpad?": the page saying what the name stands for (and what it is) answers, not the pages that
    use the name most."""
    workspace = _ingested(tmp_path, layout_guide, "layout-guide.pdf")
    answer = ask(workspace, "What is Quillpad?")
    assert answer.covered and answer.citations[0].page == 2
    assert answer.answer.startswith("Quillpad stands for Quick Layout and Print Assembly Design.")


def release_notes(path: Path) -> Path:
    """A manual whose section "2 Release notes" runs over two pages: an opening sentence, caveats each on a thing
    of its own, and three about what the section says most, the stubs and the outputs they leave (the last two on
    its second page)."""
    with written_pdf(path) as doc:
        _titled_page(doc, "1 Introduction", ["Quarry turns interface files into the stub code that joins a small",
                                             "scripting language to libraries written in C, with no code by hand."])
        _titled_page(doc, "2 Release notes", [
            "Here are some caveats that apply to the current release.",
            "The stubs leave the outputs of every function where the function put them.",
            "Fonts of the generated documentation follow the system settings of each machine.",
            "Installation on older systems needs the compiler that shipped with them, not a newer one.",
            "Colours of the console messages cannot be changed in this release of the tool.",
            "Paths to the interface files are read relative to the folder the tool is started in.",
            "Long names of types are cut at sixty characters in the listings the tool prints.",
            "Comments in the interface files are copied into the generated code unchanged.",
            "Tabs in the interface files count as eight spaces when the tool reports a column.",
            "Unicode names are accepted in comments only, never in the names of types."])
        page = doc.new_page(width=595, height=842)
        _lines(page, ["Network drives may slow the first run down, while the cache of parsed files fills.",
                      "Warnings about unused declarations can be silenced with a switch on the command line.",
                      "Very large interface files take a while to parse on machines with little memory.",
                      "Outputs the function allocates are never freed by the stubs themselves.",
                      "Such outputs must be freed by a dealloc clause that the stubs call after the outputs."], 100)
        _titled_page(doc, "3 Index", ["Entries of the index point to the pages of the manual."])
        doc.set_toc([[1, "1 Introduction", 1], [1, "2 Release notes", 2], [1, "3 Index", 4]])
    return path


def test_a_long_section_a_question_names_is_answered_by_its_title_its_opening_and_what_it_says_most(tmp_path):
    """"What does section 2, 'Release notes', of the Quarry manual cover?": its title, its first sentence and the
    sentences that say most of what the section says, from both its pages, within SUMMARY_CHARS (not only its
    opening, nor all of it); a question asking about a thing within it is answered as before."""
    from engine.agent.overview import SUMMARY_CHARS

    workspace = _ingested(tmp_path, release_notes, "quarry-manual.pdf")
    answer = ask(workspace, "What does section 2, 'Release notes', of the Quarry manual cover?")
    assert answer.covered and answer.answer.startswith("2 Release notes\n\nHere are some caveats that apply")
    assert [c.page for c in answer.citations] == [2, 3]
    assert any(step.detail.startswith("asks what a section it names holds") for step in answer.trace)
    quoted = sum(len(c.quote) for c in answer.citations)
    assert quoted <= SUMMARY_CHARS + len("2 Release notes") + 10
    assert sum(line in answer.answer for line in ("Fonts of the", "Installation on", "Colours of the", "Paths to the",
                                                   "Long names", "Comments in", "Tabs in", "Unicode names",
                                                   "Network drives", "Warnings about", "Very large", "Outputs the",
                                                   "Such outputs", "The stubs leave")) < 14
    other = ask(workspace, "What does section 2 of the Quarry manual say about compilers?")
    assert not any(step.detail.startswith("asks what a section it names holds") for step in other.trace)
    assert "compiler that shipped with them" in other.answer


def mapped_deck(path: Path) -> Path:
    """A landscape deck whose outline has two sections, each opened by the same outline slide; the second section's
    slides are a title over a map each (no sentences)."""
    with written_pdf(path) as doc:
        def slide(title: str, lines: list[str] | None = None):
            page = doc.new_page(width=842, height=595)
            page.insert_text((60, 70), title, fontsize=24)
            for k, text in enumerate(lines or []):
                page.insert_text((60, 140 + 24 * k), text, fontsize=16)

        slide("Heathland Birds", ["A lecture on the birds of the lowland heaths"])
        slide("Lecture outline", ["Breeding birds", "Flooded heaths"])
        slide("Breeding birds", ["Nightjars nest on the bare ground of the open heath in summer.",
                                 "Woodlarks sing from the scattered pines along the heath's edge."])
        slide("Lecture outline", ["Breeding birds", "Flooded heaths"])
        for region in ("Dorset", "Surrey", "Suffolk"):
            slide(f"Flooded heaths: {region}", ["[map]"])
        doc.set_toc([[1, "Breeding birds", 2], [1, "Flooded heaths", 4]])
    return path


def test_a_deck_section_of_slides_without_sentences_is_answered_by_its_slides_titles(tmp_path):
    """"What does the 'Flooded heaths' section contain?" of slides that are a title and a map each: their titles, one
    a line, not the outline slide that opens every section (the deck's navigation), not the section's title alone."""
    workspace = _ingested(tmp_path, mapped_deck, "heath-lecture.pdf")
    answer = ask(workspace, "What does the 'Flooded heaths' section of the lecture contain?")
    lines = answer.answer.splitlines()
    assert [line for line in lines if line.startswith("- ")] == [
        "- Flooded heaths: Dorset (p. 5)", "- Flooded heaths: Surrey (p. 6)", "- Flooded heaths: Suffolk (p. 7)"]
    assert "Lecture outline" not in answer.answer


def test_a_sections_first_sentence_leading_into_a_list_comes_with_its_items(tmp_path):
    """"What does section 2, 'Survey Records', cover?" of a long section opening "… in two places:" over two items:
    the sentence with its items, then its subsections' titles (not the sentence cut from what it leads into)."""
    def recorded(path: Path) -> Path:
        return _survey_manual(path, "2 Survey Records", ["The survey group keeps every record in two places:",
                                                         "- the paper field book", "- the trust's online register"],
                              ["2.1 Field Books", "2.2 Online Register", "2.3 Yearly Report"], 180, 190)

    answer = ask(_ingested(tmp_path, recorded, "records-manual.pdf"), "What does section 2, 'Survey Records', cover?")
    lines = answer.answer.splitlines()
    at = lines.index("- 2.1 Field Books (p. 2)")
    opening = "\n".join(lines[:at])
    assert "The survey group keeps every record in two places:" in opening
    assert "the paper field book" in opening and "the trust's online register" in opening


def test_a_decks_section_opens_past_its_agenda_slide_and_reads_its_continued_slides():
    from engine.agent.overview import continues_title, is_agenda
    from engine.index.evidence import analyse

    own = ("transform", "pass")
    assert continues_title(("transform", "pass", "1", "2"), own)  # "Transform pass (1/2)"
    assert continues_title(("transform", "pass", "cont"), own) and continues_title(own, own)
    assert not continues_title(("transform", "pass", "examples"), own) and not continues_title(("outline",), own)
    titles = {("parsing",), ("check", "pass"), ("transform", "pass"), ("computing", "pass")}
    agenda = analyse("## Outline\n\n1 Parsing\n\n2 Check pass\n\n3 Transform pass\n\n4 Computing pass")
    assert is_agenda(agenda, titles, own)
    assert not is_agenda(agenda, titles, ("writing", "outputs"))  # (the section is not among its entries)
    slide = analyse("## Transform pass\n\nThe transform pass prepares the model.\n\n1 Parsing\n\n2 Check pass")
    assert not is_agenda(slide, titles, own)  # (a sentence besides the entries: no agenda)


def test_a_sections_summary_may_pick_a_tables_short_rows_but_not_rows_of_figures_or_short_fragments():
    """A row of a table is a record however short ("Engravers | Aaaa_aaa_engraver"): a summary picking the table's
    rows does not leave out its shortest ones; a row of figures ("11 | 9") or a fragment of three words is no summary's
    sentence."""
    from engine.agent.overview import summarisable

    assert summarisable("Engravers | Aaaa_aaa_engraver")
    assert summarisable("| Interfaces | aaa-aaa-interface |")
    assert not summarisable("11 | 9")
    assert not summarisable("See Figure 2.")
    assert summarisable("The stubs leave the outputs.")


def monitor_manual(path: Path) -> Path:
    """A five-page manual: a cover, the monitor's roles on page 3 ("2.1 Primary", "2.2 Secondary", "2.3 Operation
    Controls", "2.4 SECONDARY_DELAY"), and two pages that say "secondary monitor system" often without saying what one
    is ("system", as in most manuals, a word of every page but the third)."""
    with written_pdf(path) as doc:
        cover = doc.new_page(width=595, height=842)
        cover.insert_text((72, 120), "Vale Reference Manual", fontsize=24)
        _titled_page(doc, "1 Introduction", [
            "Vale is a monitor: it watches a power supply and shuts the computers it feeds down in time.",
            "Each system it protects runs the same program; the system's role decides what the program does."])
        page = _titled_page(doc, "2 Monitor Roles")
        _headed(page, 130, "2.1 Primary",
                ["The computer wired to the supply's serial port reads its state and tells the others when",
                 "to shut down; it goes down last of all, once every other computer has disconnected."])
        _headed(page, 215, "2.2 Secondary",
                ["Every other computer fed by the same supply cannot talk to it directly: it only listens",
                 "to the primary over the network and shuts itself down as soon as it is told to."])
        _headed(page, 300, "2.3 Operation Controls",
                ["Two switches on the front panel start and stop the watch by hand."])
        _headed(page, 370, "2.4 SECONDARY_DELAY",
                ["Seconds a secondary waits before it shuts down once told to; the default value is 15."])
        for n in (3, 4):  # (pages 4 and 5)
            _titled_page(doc, f"{n} Notes on setup", [
                "A secondary monitor system needs the primary's address. A secondary monitor system logs",
                "each message of the primary. Start the secondary monitor system after the primary one.",
                "On a secondary monitor system the log file grows with every message it receives."])
    return path


def test_a_term_no_sentence_defines_is_answered_by_the_section_it_titles(tmp_path):
    # no sentence says what a secondary monitor system is ("… is", "… means"): the section titled "2.2 Secondary"
    # does, and it comes first and answers, though other pages say "secondary monitor system" more often
    workspace = _ingested(tmp_path, monitor_manual, "vale-manual.pdf")
    answer = ask(workspace, "In the Vale manual, what is a secondary monitor system?")
    assert answer.covered and [c.page for c in answer.citations][:1] == [3]
    assert answer.answer.startswith("2.2 Secondary\n\nEvery other computer fed by the same supply cannot talk to it")
    assert "Two switches" not in answer.answer  # (its opening, up to the next section's title)
    assert any(step.detail.startswith("asks what a term is that a section is titled by") for step in answer.trace)


def test_only_a_section_titled_by_the_term_as_written_stands_for_its_definition(tmp_path):
    from engine.agent import retriever_for
    from engine.index.sections import titled_sections

    workspace = _ingested(tmp_path, monitor_manual, "vale-manual.pdf")
    corpus = retriever_for(workspace.root).corpus
    titles = [node.title for node in corpus.docs[0].nodes]

    def titled(term: str) -> list[str]:
        return [titles[n] for n in titled_sections(corpus, term, 0)]

    assert titled("secondary monitor system") == ["2.2 Secondary"]
    assert titled("secondary monitor systems") == ["2.2 Secondary"]  # (a plural as written)
    assert titled("control operator") == []  # ("Operation Controls" stems so, but is not written so)
    # a name in code titles itself alone ("SECONDARY_DELAY" is no "secondary delay value"), and only itself titles it
    assert titled("secondary_delay") == ["2.4 SECONDARY_DELAY"] and titled("secondary delay value") == []
    assert titled("secondary storage unit") == []  # (a word the document never writes: no section is titled by it)


STEPS_SAID = SURVEY_SAID + ["Field notes name the observer, the date and the transect walked.",
                            "A second observer checks every tenth form against the recording.",
                            "Forms are scanned each evening and kept for ten years.",
                            "Doubtful records go to the county recorder with a photograph.",
                            "The season closes with a count of forms per transect."]


def stepped_manual(path: Path) -> Path:
    """A manual whose section "2 Field Notes" is shown in steps over four pages: each repeats the one before's
    sentences and adds one or two (as a slide built up page by page does); "3 Maps" after it."""
    with written_pdf(path) as doc:
        _titled_page(doc, "1 Scope", ["This manual tells volunteers how the heathland bird survey is walked."])
        _titled_page(doc, "2 Field Notes", STEPS_SAID[:4])
        for shown in (6, 8, 9):
            _lines(doc.new_page(width=595, height=842), STEPS_SAID[:shown], 120)
        _titled_page(doc, "3 Maps", ["Each transect has its own map at a scale of one to ten thousand."])
        doc.set_toc([[1, "1 Scope", 1], [1, "2 Field Notes", 2], [1, "3 Maps", 6]])
    return path


def test_a_sections_summary_says_each_sentence_once_though_its_pages_repeat_them(tmp_path):
    workspace = _ingested(tmp_path, stepped_manual, "stepped-manual.pdf")
    answer = ask(workspace, "What does section 2, 'Field Notes', cover?")
    assert any(step.detail.startswith("asks what a section it names holds") for step in answer.trace)
    said = [sentence for sentence in STEPS_SAID if sentence in answer.answer]
    assert all(answer.answer.count(sentence) == 1 for sentence in said)
    assert any(sentence in said for sentence in STEPS_SAID[4:])  # (the room goes to what later steps add)


def error_reference(path: Path) -> Path:
    """A manual whose section "2 Error code reference" says in a line that its ranges group the codes, then gives a
    subsection to each range of error codes ("2.1 Parser errors (100-199)" …), each numbered entries of its codes."""
    ranges = [("2.1 Parser errors (100-199)", ["101. Unbalanced bracket.", "102. Unknown directive."]),
              ("2.2 Linker errors (200-299)", ["201. Duplicate symbol.", "202. Missing library."]),
              ("2.3 Runtime errors (300-399)", ["301. Stack exhausted.", "302. Division by zero."])]
    with written_pdf(path) as doc:
        _titled_page(doc, "1 Introduction", TERN_INTRODUCTION)
        page = _titled_page(doc, "2 Error code reference",
                            ["Tern reports every problem with a number; the ranges below group them."], 110)
        for n, (title, entries) in enumerate(ranges):
            page.insert_text((72, 150 + 90 * n), title, fontsize=14, fontname="hebo")
            _lines(page, entries, 175 + 90 * n)
        doc.set_toc([[1, "1 Introduction", 1], [1, "2 Error code reference", 2],
                     *[[2, title, 2] for title, _ in ranges]])
    return path


def test_an_answer_whose_picked_sentences_are_a_title_alone_is_the_section_it_titles(tmp_path):
    """A title alone says nothing ("2 Error code reference" for the ranges of error codes): the titles of the
    subsections of the section it titles answer, one a line with its page; a sentence of text is no title."""
    workspace = _ingested(tmp_path, error_reference, "tern-manual.pdf")
    corpus = load_corpus(workspace)

    def page_of(number: int):
        return answer_units(corpus, 0, number)

    analysis, _ = page_of(2)
    at = {unit.text: i for i, unit in enumerate(analysis.units)}

    def picked(text: str) -> Sentence:  # (as an answer's pick marks a heading)
        return replace(unit_sentence(2, at[text], page_of, 0), heading=analysis.units[at[text]].heading)

    title = picked("2 Error code reference")
    text, citations, _ = titled_section(corpus, 0, [title])
    assert text.splitlines() == ["2 Error code reference:", "- 2.1 Parser errors (100-199) (p. 2)",
                                 "- 2.2 Linker errors (200-299) (p. 2)", "- 2.3 Runtime errors (300-399) (p. 2)"]
    assert [c.page for c in citations] == [2]
    said = picked("Tern reports every problem with a number; the ranges below group them.")
    assert titled_section(corpus, 0, [said]) is None and titled_section(corpus, 0, [title, said]) is None
    # a title without subsections: the section's opening, its text with it
    first = picked("2.1 Parser errors (100-199)")
    opening, _, _ = titled_section(corpus, 0, [first])
    assert "2.1 Parser errors (100-199)" in opening and "101. Unbalanced bracket." in opening


def problem_guide(path: Path) -> Path:
    """A manual whose section "2 Reporting Problems" opens with a long paragraph, then a line leading into five
    numbered things to send, with more sections after it."""
    with written_pdf(path) as doc:
        _titled_page(doc, "1 Introduction", TERN_INTRODUCTION)
        page = _titled_page(doc, "2 Reporting Problems", [
            "Problems go to the developers' mailing list, where a maintainer reads them every week and answers in",
            "the order they arrive. A report that repeats an earlier one is closed with a link to the earlier one,",
            "so search the list before you write. Reports with a small program that shows the problem are fixed far",
            "more often than reports without one, and a maintainer may ask you for one before looking any further.",
            "The mailing list keeps every report, so the whole discussion stays readable for later users as well.",
            "When reporting a problem please make sure you:"], 110)
        things = ["1. Attach the program you are running.", "2. Give the exact command line.",
                  "3. State the version and your platform.", "4. Copy the complete error message.",
                  "5. Put a meaningful subject on your message."]
        _lines(page, things, 230)
        _titled_page(doc, "3 Licence", ["Tern is free software under the terms of the GNU General Public License."])
        doc.set_toc([[1, "1 Introduction", 1], [1, "2 Reporting Problems", 2], [1, "3 Licence", 3]])
    return path


def test_a_sections_opening_that_ends_on_a_lists_lead_in_goes_on_with_its_items(tmp_path):
    workspace = _ingested(tmp_path, problem_guide, "tern-guide.pdf")
    answer = ask(workspace, "What should I include when I report a problem in Tern?")
    assert any(step.detail.startswith("restates a section's title") for step in answer.trace)
    assert "When reporting a problem please make sure you:" in answer.answer
    assert all(thing in answer.answer for thing in ["Attach the program you are running.",
                                                    "Put a meaningful subject on your message."])
