"""Sections a question names by number or title: the document's tree says which pages they cover, and retrieval
puts those pages first."""

from __future__ import annotations

import pytest

from engine.index import Retriever, load_corpus
from engine.index.sections import NamedSection, bare_title, is_part, named_sections, shallowest, title_number
from engine.workspace import Workspace

GUIDE, DECK = "pdfrag-field-guide.pdf", "pdfrag-product-deck.pdf"


@pytest.mark.parametrize(("title", "number"), [
    ("4.3. GraphQL Improvements", "4.3"),
    ("1 Introduction", "1"),
    ("Appendix C Acronyms", "C"),
    ("B. The Equivocation Game", "B"),
    ("II.B. Scope", "II.B"),
    ("A.2 Datums & Ellipsoids", "A.2"),  # (a lettered number with parts needs no closing dot)
    ("B.12 Glossary", "B.12"),
    ("4.5 hours", None),  # a slide's figure, not a section number
    ("2023 Annual Report", None),
    ("A Brief History", None),
])
def test_a_titles_own_number(title, number):
    assert title_number(title) == number


def test_a_bare_title_drops_the_number():
    assert bare_title("2.3 Equipment checklist") == ("equipment", "checklist")


@pytest.fixture(scope="module")
def retriever(samples_workspace) -> Retriever:
    workspace = Workspace(samples_workspace)
    return Retriever(load_corpus(workspace), workspace=workspace)


def guide_sections(retriever: Retriever, question: str) -> list[tuple[str, int, int]]:
    """The (title, first page, last page) of the field guide's sections a question names."""
    guide = retriever.corpus.doc_position(GUIDE)
    assert guide is not None
    return [(s.title, s.first_page, s.last_page) for s in named_sections(retriever.corpus, question, [guide])]


def test_sections_named_by_number_title_in_quotes_and_title_before_the_word(retriever):
    def named(question: str) -> list[tuple[str, int, int]]:
        return guide_sections(retriever, question)

    assert named("What does section 4.2 of the field guide say?") == [("4.2 Depth and velocity", 8, 9)]
    assert named("Summarise the 'Seasonal timing' section.") == [("Seasonal timing", 4, 4)]
    assert named("What does the equipment checklist section list?") == [("2.3 Equipment checklist", 4, 5)]
    assert named("What does chapter 5 cover?") == [("5 Recording and Checking Data", 10, 11)]
    assert named("What does the section on defining the question in the guide say?") == [
        ("2.1 Defining the question", 4, 4)]
    assert named("What does the chapter Recording and Checking Data cover?") == [
        ("5 Recording and Checking Data", 10, 11)]  # (the title right after the kind word)
    assert named("What does the section titled Defining the question say?") == [("2.1 Defining the question", 4, 4)]
    # the words before the kind word held by one section's title alone (not its whole title, not in its order)
    assert named("What does the checklist section list?") == [("2.3 Equipment checklist", 4, 5)]
    assert named("What does the Equipment checklist part of the guide list?") == [("2.3 Equipment checklist", 4, 5)]
    assert named("Summarize the archiving appendix.") == [("5.3 Archiving and sharing", 11, 11)]
    # … in another form of the same words ("archived" of "Archiving")
    assert named("Summarize the archived data appendix.") == []  # ("data": a word no title of it holds with it)
    assert named("What does the archived sharing appendix say?") == [
        ("5.3 Archiving and sharing", 11, 11)]
    assert named("What does the survey chapter say?") == []  # (two titles hold "survey")
    # a section the tree does not hold, or a document's own title in quotes, names nothing
    assert named("What does section 9.9 say about Section 913 of the Act?") == []
    assert named("What does 'River Survey Methods: A Field Guide' say about safety?") == []
    assert named("What does \"---\" mean in the field guide?") == []  # (quotes around no word name no title)


def test_a_part_most_documents_have_is_named_without_the_word_section(retriever):
    # "the introduction of …", "its introduction": the section so titled; "the summary table" names no part
    corpus = retriever.corpus
    guide = corpus.doc_position(GUIDE)
    assert [(s.title, s.first_page) for s in named_sections(
        corpus, "What does the introduction of the field guide say about safety?", [guide])] == [("1 Introduction", 3)]
    assert [s.title for s in named_sections(corpus, "Who is the guide for, according to its introduction?",
                                            [guide])] == ["1 Introduction"]
    assert named_sections(corpus, "What does the summary table of the guide show?", [guide]) == []
    assert named_sections(corpus, "What does the conclusion of the guide say?", [guide]) == []  # (it has none)
    assert is_part("1 Introduction") and is_part("Executive Summary") and not is_part("2.1 Defining the question")


def test_a_slides_figure_is_no_section_number(retriever):
    deck = retriever.corpus.doc_position(DECK)
    assert named_sections(retriever.corpus, "What does section 4.5 say?", [deck]) == []


@pytest.mark.parametrize("method", ["bm25", "hybrid"])
def test_the_named_sections_pages_come_first_and_the_trace_says_so(retriever, method):
    question = "What does section 5.3 of the River Survey field guide recommend?"
    found = retriever.search(question, method=method, k=5)
    assert (found.hits[0].doc, found.hits[0].page) == (GUIDE, 11)
    assert any("5.3 Archiving and sharing" in note and "11-11" in note for note in found.notes)
    plain = retriever.search("What does the River Survey field guide recommend?", method=method, k=5)
    assert not plain.notes and (plain.hits[0].doc, plain.hits[0].page) != (GUIDE, 11)


def test_the_answer_reads_the_named_section_alone(retriever):
    from engine.agent.offline import answer_offline

    found = retriever.search("Summarise section 5.3 of the field guide", method="hybrid", k=10)
    answer = answer_offline(retriever.corpus, found, k=5)
    assert answer.covered and answer.citations
    assert {(c.doc, c.page) for c in answer.citations} == {(GUIDE, 11)}
    assert "shared archive" in answer.answer  # 5.3 Archiving and sharing, not the guide's own account of itself


def test_the_answer_stays_inside_a_section_that_shares_its_last_page(retriever):
    """4.2 (pp. 8-9) ends on the page where 4.3 begins: words of 4.3 in the question do not pull its text in."""
    from engine.agent.offline import answer_offline

    question = "What does section 4.2 of the field guide say about bed material and shading by trees?"
    found = retriever.search(question, method="hybrid", k=10)
    (section,) = found.sections
    assert (section.title, section.next_title) == ("4.2 Depth and velocity", "4.3 Substrate and habitat notes")
    page = retriever.corpus.page_text(section.doc, 9)
    start, end = section.bounds(9, page)
    assert start == 0 and page[end:].startswith("#") and "4.3 Substrate" in page[end:].split("\n")[0]
    answer = answer_offline(retriever.corpus, found, k=5)
    assert answer.covered and "4.3 Substrate" not in answer.answer and "dominant bed material" not in answer.answer


def test_pages_and_slides_a_question_names(retriever):
    """"page 6", "slides 3-4", "p. 7": the page's place in the PDF, as the answers' citations count it; only in a
    question about one document, and never past its last page."""
    corpus = retriever.corpus
    guide, deck = corpus.doc_position(GUIDE), corpus.doc_position(DECK)

    def named(question: str, doc: int) -> list[tuple[str, int, int]]:
        return [(s.title, s.first_page, s.last_page) for s in named_sections(corpus, question, [doc])]

    assert named("What does page 6 of the field guide say?", guide) == [("page 6", 6, 6)]
    assert named("What is on slides 3-4 of the deck?", deck) == [("slides 3-4", 3, 4)]
    assert named("Which safety rules are on p. 7?", guide) == [("page 7", 7, 7)]
    assert named("What does page 99 of the field guide say?", guide) == []
    last = len(corpus.docs[deck].pages)
    assert named("What does the last slide of the deck say?", deck) == [(f"the last slide ({last})", last, last)]
    assert named("What is on the first page of the field guide?", guide) == [("the first page (1)", 1, 1)]
    assert named("What does the 11-page field guide say about safety?", guide) == []
    assert named_sections(corpus, "Compare page 2 of the guide with page 3 of the deck", [guide, deck]) == []


def test_a_named_page_comes_first_and_answers(retriever):
    from engine.agent.offline import answer_offline

    question = "What does page 6 of the field guide say?"
    found = retriever.search(question, method="hybrid", k=5)
    assert (found.hits[0].doc, found.hits[0].page) == (GUIDE, 6)
    assert any(note.startswith("names page 6 of") for note in found.notes)
    answer = answer_offline(retriever.corpus, found, k=5)
    assert answer.covered and {(c.doc, c.page) for c in answer.citations} == {(GUIDE, 6)}
    plain = retriever.search("What does the field guide say?", method="hybrid", k=5)
    assert (plain.hits[0].doc, plain.hits[0].page) != (GUIDE, 6)


def test_a_page_past_the_documents_end_is_said_so(retriever):
    from engine.agent.offline import answer_offline

    found = retriever.search("What does page 99 of the field guide say?", method="hybrid", k=5)
    answer = answer_offline(retriever.corpus, found, k=5)
    pages = len(retriever.corpus.docs[retriever.corpus.doc_position(GUIDE)].pages)
    assert not answer.covered and f"{GUIDE} has {pages} pages, no page 99" in answer.answer
    found = retriever.search(f"What do pages {pages - 1}-{pages + 2} of the field guide say?", method="hybrid", k=5)
    answer = answer_offline(retriever.corpus, found, k=5)
    assert not answer.covered and f"no page {pages + 2}" in answer.answer  # (a range that runs past the end)


def test_a_part_named_by_its_place_among_the_numbered_ones(retriever):
    # "the second chapter", "the first of its five chapters", "the last chapter", "lecture 3": the section so numbered
    corpus = retriever.corpus
    guide = corpus.doc_position(GUIDE)

    def named(question: str) -> list[str]:
        return [s.title for s in named_sections(corpus, question, [guide])]

    assert named("What does the second chapter of the field guide cover?") == ["2 Planning a Survey"]
    assert named("What does the first of the guide's five chapters say about safety?") == ["1 Introduction"]
    assert named("Summarise the last chapter of the field guide.") == ["5 Recording and Checking Data"]
    assert named("What does lecture 3 of the guide cover?") == [named("What does chapter 3 cover?")[0]]
    assert named("What does the tenth chapter of the field guide say?") == []  # (it has five)
    assert named("What is the first step of a survey?") == []  # (a place, but among no parts)


def test_a_titles_part_after_its_dash_or_colon_names_it_too():
    from engine.index.sections import subtitle

    assert subtitle("Yosys by example – Advanced Synthesis") == ("advanced", "synthesis")
    assert subtitle("Part Two: Tools of the Trade") == ("tools", "of", "the", "trade")
    assert subtitle("Advanced Synthesis") == () and subtitle("Client-side caching") == ()


def test_a_chapter_is_the_shallowest_of_the_sections_its_title_names():
    chapter = NamedSection(0, 40, "8 Rollouts", 40, 42)
    setting = NamedSection(0, 55, "9.1.7 Rollouts:", 43, 43)
    other = NamedSection(1, 7, "2.1 Rollouts", 5, 6)
    depths = {0: {40: 1, 55: 3}, 1: {7: 2}}
    assert shallowest([setting, chapter, other], depths) == [chapter, other]  # (each document's own shallowest)
    page = NamedSection(0, -1, "page 3", 3, 3)
    assert shallowest([page, setting], depths) == [page, setting]


def tree_nodes(titles: list[tuple[str, int, int, int | None]]) -> list:
    """A document's tree from (title, first page, last page, parent) rows, one node each, in order."""
    from engine.schemas.index import IndexNode

    return [IndexNode(doc_id="d", node=n, kind="section", title=title, path=[title], line=None, start_page=first,
                      end_page=last, parent=parent) for n, (title, first, last, parent) in enumerate(titles)]


def tree_corpus(titles: list[tuple[str, int, int, int | None]], title: str):
    """A one-document corpus holding only what named_sections reads: its tree and its title."""
    from types import SimpleNamespace

    return SimpleNamespace(docs=[SimpleNamespace(nodes=tree_nodes(titles), info=SimpleNamespace(title=title))],
                           extras={})


def test_a_title_before_the_kind_word_names_whole_words_not_a_part_of_a_hyphenated_one():
    titles = [("Sequence Clustering Guide", 1, 1, None), ("CD-HIT", 2, 5, 0), ("PSI-CD-HIT clustering", 6, 9, 0)]
    corpus = tree_corpus(titles, "Sequence Clustering Guide")

    def named(question: str) -> list[str]:
        return [s.title for s in named_sections(corpus, question, [0])]

    # "CD-HIT" is only the end of the token "PSI-CD-HIT": the section whose title holds all of it is named
    assert named("What does the PSI-CD-HIT section of the guide say about clustering?") == ["PSI-CD-HIT clustering"]
    assert named("What does the CD-HIT section of the guide say?") == ["CD-HIT"]


def test_a_section_named_with_the_chapter_it_is_in_is_the_one_asked_about():
    titles = [("User's Guide", 1, 1, None), ("Chapter 5. Common problems", 29, 31, 0),
              ("1. Namespaces and default namespace", 29, 30, 1), ("2. Special characters", 30, 30, 1),
              ("Chapter 2. Errors/Warnings/Messages", 36, 41, 0), ("2.1 Errors", 37, 39, 4),
              ("2.2 Warnings", 39, 41, 4)]
    corpus = tree_corpus(titles, "User's Guide")

    def named(question: str) -> list[str]:
        return [s.title for s in named_sections(corpus, question, [0])]

    # the chapter only places the section: the section is asked about, "chapter" in the question or not
    assert named("What does the 'Special characters' section of the guide's 'Common problems' chapter explain?") \
        == ["2. Special characters"]
    assert named("What does the 'Special characters' section under 'Common problems' explain?") \
        == ["2. Special characters"]
    assert named("What does the 'Common problems' chapter cover?") == ["Chapter 5. Common problems"]
    # a section whose title holds its subsection's words is named by them: it stays
    assert named("What does the 'Errors/Warnings/Messages' chapter cover, and its 'Errors' part?")[0] \
        == "Chapter 2. Errors/Warnings/Messages"


def test_a_title_after_the_kind_word_may_follow_an_article_or_a_possessive():
    titles = [("User Manual", 1, 1, None), ("6 Viewer", 13, 50, 0), ("7 Process Log", 51, 52, 0)]
    corpus = tree_corpus(titles, "User Manual")
    named = [s.title for s in named_sections(corpus, "Summarise the manual's chapter on its Process Log component.",
                                             [0])]
    assert named == ["7 Process Log"]
    assert [s.title for s in named_sections(corpus, "What does the chapter on the Viewer say?", [0])] == ["6 Viewer"]


def test_sibling_titles_lettered_in_order_are_numbered_by_their_letters():
    from engine.index.sections import lettered, read_titles

    titles = [("User Manual", 1, 1, None), ("A Introduction", 2, 3, 0), ("B Installation", 4, 6, 0),
              ("D Viewer", 7, 50, 0), ("F Process Log", 51, 52, 0), ("A Guide to Menus", 8, 9, 3)]
    assert lettered(tree_nodes(titles)) == [1, 2, 3, 4]  # (not "A Guide to Menus", alone among its siblings)
    corpus = tree_corpus(titles, "User Manual")
    assert read_titles(corpus, 0)[4] == ("F", ("process", "log"))
    assert read_titles(corpus, 0)[5] == (None, ("a", "guide", "to", "menus"))
    assert [s.title for s in named_sections(corpus, "What does the Process Log chapter describe?", [0])] \
        == ["F Process Log"]
    # out of order, or not starting at A: titles, not numbers
    assert lettered(tree_nodes([("B Bee", 1, 1, None), ("A Ant", 2, 2, None), ("C Cat", 3, 3, None)])) == []


def test_a_title_said_before_a_colon_that_the_question_points_back_to_names_its_section():
    titles = [("RasMol Manual", 1, 1, None), ("2 Commands", 3, 40, 0), ("2.1 Atom Expressions", 41, 44, 0),
              ("2.2 Predefined Sets", 45, 47, 0), ("2.3 Sets", 48, 49, 0), ("3 Usage", 50, 60, 0),
              ("3.4 Realtime tracking", 55, 56, 5)]
    corpus = tree_corpus(titles, "RasMol Manual")

    def named(question: str) -> list[str]:
        return [s.title for s in named_sections(corpus, question, [0])]

    # the longest title among the words before the colon ("Predefined Sets", not "Sets")
    assert named("RasMol manual, Predefined Sets: overview of what the section contains.") == ["2.2 Predefined Sets"]
    # the chapter named beside it only places it
    assert named("RasMol manual, Usage chapter, realtime tracking: what does that section cover?") \
        == ["3.4 Realtime tracking"]
    # no pointing back: the words before a colon name no section
    assert named("Predefined Sets: how many does RasMol have?") == []


def test_a_sections_title_set_as_a_bold_line_bounds_it_on_its_page():
    # a glossary whose entries the tree holds as sections, the page setting each title as a bold line
    from engine.index.sections import heading_at

    page = ("## 3. Terms\n\n**3.2.4 Read:**\n\nA sequence of nucleic acids.\n\n**3.2.5 Flow traces:**\n\n"
            "Sequence read information from some machines.\n\n**3.2.6 ZTR:**\n\nA block based format.\n")
    start = heading_at(page, "3.2.5 Flow traces:", 0)
    end = heading_at(page, "3.2.6 ZTR:", (start or 0) + 1)
    assert start is not None and end is not None
    assert page[start:end].strip() == "**3.2.5 Flow traces:**\n\nSequence read information from some machines."
    assert heading_at(page, "3. Terms", 0) == 0
    # a line only partly bold, or bold words inside a sentence, set no title
    assert heading_at("**Flow traces:** are what some machines write.\n", "Flow traces:", 0) is None


def test_a_title_set_beside_the_parts_number_names_it_where_the_number_names_none(retriever):
    # "Appendix D, Performance Considerations, of the guide": a document may set "Appendix D:" on a line of its own
    # over the title, so the tree's title holds no number; the title beside it still names the section
    corpus = retriever.corpus

    def named(question: str) -> list[tuple[str, int, int]]:
        return guide_sections(retriever, question)

    assert named("What does Appendix D, Seasonal timing, of the field guide cover?") == [("Seasonal timing", 4, 4)]
    assert named("What does section 9: 'Seasonal timing' say?") == [("Seasonal timing", 4, 4)]
    assert named("What does section 9, and the guide's last page, say?") == []  # (no title follows the number)
    # and the answer is the section's, "appendix" being a word that names a part, not something asked about
    from engine.agent.offline import answer_offline

    found = retriever.search("What does Appendix D, Seasonal timing, of the field guide cover?", method="hybrid", k=10)
    answer = answer_offline(corpus, found, k=5)
    assert answer.covered and {(c.doc, c.page) for c in answer.citations} == {(GUIDE, 4)}
