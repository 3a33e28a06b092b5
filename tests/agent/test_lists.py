"""Enumerations (engine.agent.lists): a question asking for the items of a list gets every item's lead."""

from __future__ import annotations

from pathlib import Path

from engine.agent import ask
from engine.agent.lists import Run, counted_back, item_runs, lead_units
from engine.agent.pieces import answer_units
from engine.agent.sentences import counted_list, unit_sentence
from engine.evaluate import _quote_on_page
from engine.index import load_corpus
from engine.pipeline import Pipeline
from engine.workspace import Workspace
from tests.conftest import written_pdf

STEPS = ["Draft the survey charter", "Map the river reaches", "Train the volunteer crews", "Calibrate the flow meters",
         "Measure the discharge", "Review the field sheets", "Publish the annual atlas"]
# each step's explanation holds words of the question, as real ones do, and fills a concise answer by itself
EXPLAINED = ("The survey process at this step is recorded in the survey log with the names of the people who did "
             "the work")


class Lines:
    """Lines of text written down a new A4 page, each `spacing` times its size below the one before."""

    def __init__(self, doc, size: float, spacing: float) -> None:
        self.page, self.size, self.spacing, self.y = doc.new_page(width=595, height=842), size, spacing, 72.0

    def line(self, text: str, size: float | None = None, x: float = 72) -> None:
        size = size or self.size
        self.page.insert_text((x, self.y), text, fontsize=size)
        self.y += size * self.spacing

    def skip(self, points: float) -> None:
        self.y += points


def ingested(tmp_path: Path, write, name: str) -> Workspace:
    """A workspace of the one PDF `write` draws (at tmp_path/pdfs/name), ingested offline."""
    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    root = tmp_path / "ws"
    results = Pipeline(root, workers=1).ingest([write(pdfs / name)])
    assert all(r.status.value == "ok" for r in results), results
    return Workspace(root)


def handbook(path: Path) -> Path:
    """A one-page PDF: a lead-in sentence, then seven numbered steps, each a short lead and a long explanation."""
    with written_pdf(path) as doc:
        page = Lines(doc, 10, 1.6)
        page.line("Catchment Survey Handbook", 16)
        page.skip(8)
        page.line("The handbook sets out the following seven-step survey process that a river trust may follow")
        page.line("to plan and run its yearly catchment survey.")
        page.skip(6)
        for n, step in enumerate(STEPS, 1):
            page.line(f"{n}. {step}. {EXPLAINED},")
            page.line(f"the dates on which step {n} of the survey process was done, and any problems that came up.",
                      x=86)
            page.skip(6)
        page.line("Each survey ends with a public meeting at which the results are presented.")
    return path


def test_a_question_asking_for_the_steps_gets_every_step_and_not_their_explanations(tmp_path):
    workspace = ingested(tmp_path, handbook, "handbook.pdf")
    answer = ask(workspace, "What are the steps of the survey process?")
    assert answer.covered
    assert answer.answer.startswith("The handbook sets out the following seven-step survey process")
    assert [step for step in STEPS if f"{step}." not in answer.answer] == []  # all seven, not the first three
    assert EXPLAINED not in answer.answer  # the leads, not what each step involves
    assert len(answer.answer) <= 600
    corpus = load_corpus(workspace)
    assert len(answer.citations) == 1  # one citation a page, its quote found on the page
    assert all(_quote_on_page(c.quote, corpus.page_text(0, c.page)) for c in answer.citations)


def test_item_runs_and_their_lead_ins():
    text = ("# Title\n\nIntro sentence. It leads in:\n\n- one\n\n- two\n\nA paragraph.\n\n"
            "1. First step. Why.\n2. Second step.\n\n(a) lettered\n\nLone text\n\n- only one item")
    # bulleted, numbered and lettered lines with only blank lines between them are one run; a lone item is none
    assert item_runs(text) == [Run(2, ((4,), (6,))), Run(8, ((10,), (11,), (13,)))]
    assert item_runs("1. opens the page\n\n2. b") == [Run(None, ((0,), (2,)))]


def test_groups_of_items_under_labels_after_one_lead_in_are_one_run():
    # "… capabilities, including:" over "**Technology**" and its items, then "**Strategy**" and its items: one run led
    # into by the "including:" line, each label an item before its group's items
    text = ("Winners will share a set of capabilities, including:\n\n**Technology**\n\n- Modern data architecture.\n\n"
            "- Advanced analytics.\n\n**Strategy**\n\n- A base of proprietary data.\n\n- Permission to advise.\n\n"
            "A closing paragraph.")
    assert item_runs(text) == [Run(0, ((2,), (4,), (6,), (8,), (10,), (12,)))]
    # without a line leading into them all, or with one group only, each run keeps its label as its lead-in
    alone = text.replace("including:", "shown below.")
    assert item_runs(alone) == [Run(2, ((4,), (6,))), Run(8, ((10,), (12,)))]
    one = "Winners will share these, including:\n\n**Technology**\n\n- Modern data architecture.\n\n- Analytics."
    assert item_runs(one) == [Run(2, ((4,), (6,)))]


def test_an_items_lead_is_its_first_sentence_with_its_number():
    assert lead_units([3, 4, 5], ["1.", "Develop the policy.", "A formal policy …"]) == [3, 4]
    assert lead_units([7, 8], ["Data gateway services (e.g., UPI)", "More."]) == [7]
    assert lead_units([], []) == []


def test_labelled_items_are_a_run_and_labelled_sections_are_not():
    items = ("Each quarter the staff assess four vulnerabilities.\n\nAsset valuations\n\nWhy it matters:\n\n"
             "High prices can unwind.\n\nBorrowing by households\n\nWhy it matters:\n\nDebt leaves them exposed.\n\n"
             "Funding risk\n\nWhy it matters:\n\nInvestors may run.\n\n### Next section\n\nMore text.")
    assert item_runs(items) == [Run(0, ((2, 4, 6), (8, 10, 12), (14, 16, 18)))]
    long_body = "A paragraph that goes on at length about this topic, " * 8
    sections = "\n\n".join(f"**Topic {n}**\n\n{long_body}" for n in range(3))
    assert item_runs(sections) == []  # a label over a long paragraph heads a section, not an item


def test_a_list_question_over_labelled_items_gets_the_labels_not_the_explanations():
    from engine.agent.sentences import answer_text, best_sentences
    from engine.index.evidence import Window, analyse
    from engine.text import query_terms

    text = ("Each quarter, staff assess a set of four vulnerabilities for financial stability.\n\n"
            "Asset valuations\n\nWhy it matters:\n\nOvervalued assets are a vulnerability to financial stability.\n\n"
            "Borrowing by businesses\n\nWhy it matters:\n\nExcessive borrowing is a vulnerability for stability.\n\n"
            "Leverage in the financial sector\n\nWhy it matters:\n\nLeverage is a vulnerability of the sector.\n\n"
            "Funding risk\n\nWhy it matters:\n\nFunding risks are a vulnerability: investors may run.")
    analysis = analyse(text)
    question = "Which four vulnerabilities do staff assess for financial stability?"
    picked = best_sentences([(3, Window(0, len(text), 0, 1.0, 1.0, frozenset(), False, text, ()))],
                            lambda page: (analysis, text), {t: 1.0 for t in query_terms(question)}, question)
    answer = answer_text(picked, lambda page: (analysis, text))
    assert answer.startswith("Each quarter, staff assess a set of four vulnerabilities")
    assert "Asset valuations; Borrowing by businesses; Leverage in the financial sector; Funding risk" in answer
    assert "Why it matters" not in answer and "investors may run" not in answer


def test_a_line_of_code_starting_with_a_hash_is_no_heading_and_may_head_what_follows():
    from engine.agent.lists import is_label_line
    from engine.markdown import is_heading

    assert is_heading("## Results") and is_heading("  # Title") and not is_heading("#import fletcher: shapes")
    assert not is_label_line("## Results")  # a heading is no label line
    assert is_label_line("Results") and not is_label_line("#Results")  # ("#…" is no capitalised word either)


FORMATS = ["the choice between two aspect ratios, 4:3 or 16:9", "type is centred on the page by default",
           "headers and footers must be set up by the author", "page numbering is switched off by default"]


def slide_notes(path: Path) -> Path:
    """A one-page PDF: a paragraph, a lead-in ("… include:") and four bulleted items, the first with a further
    paragraph indented under it."""
    with written_pdf(path) as doc:
        page = Lines(doc, 11, 1.7)
        page.line("Presentation Mode", 18)
        page.skip(10)
        page.line("Slides are a subset of the document macros formatted for presentation when viewed on a screen.")
        page.line("In most respects they behave like the default document type described in the manual.")
        page.skip(8)
        page.line("Differences in the formatting include:")
        page.skip(6)
        for n, item in enumerate(FORMATS):
            page.line(f"-  {item}", x=90)
            if n == 0:  # (under the item's text, after a line that ends in a figure short of the column's edge)
                page.line("both shapes fit on A4 or letter paper when they are printed", x=101)
            page.skip(6)
    return path


def test_a_lead_in_brings_all_its_items_past_an_items_further_paragraph(tmp_path):
    workspace = ingested(tmp_path, slide_notes, "slides.pdf")
    answer = ask(workspace, "How does the formatting of slides differ from the default document type?")
    assert answer.covered
    assert [item for item in FORMATS if item not in answer.answer] == []  # every item, not the first alone
    # the first item's further paragraph goes on in its item's line, the list unbroken
    assert "- the choice between two aspect ratios, 4:3 or 16:9 both shapes fit" in answer.answer


def test_a_groups_label_whose_items_do_not_fit_is_left_out():
    # three long items under "**Technology**" fill the room; "**Strategy**" would come alone, without its items
    from engine.agent.sentences import ENUM_CHARS, enumeration, unit_sentence
    from engine.index.evidence import analyse

    item = "A platform that lets every member of the team {} share and reuse data across the whole organisation " \
           "without copying it into yet another silo that nobody maintains over the years to come and that the auditors " \
           "never see."
    text = ("Winners will share a set of capabilities, including:\n\n**Technology**\n\n"
            + "\n\n".join(f"- {item.format(n)}" for n in ("first", "second", "third"))
            + "\n\n**Strategy**\n\n" + "\n\n".join(f"- {item.format(n)}" for n in ("fourth", "fifth")))
    analysis = analyse(text)

    def page_of(page: int):
        return analysis, text

    assert 3 * len(item) + 30 < ENUM_CHARS < 4 * len(item)
    listed = enumeration(unit_sentence(1, 0, page_of, 0), page_of)
    assert listed is not None
    lead_in, leads, _ = listed
    assert lead_in.text.startswith("Winners will share")
    assert [s.text.split(" share")[0] for s in leads] == ["Technology"] + [
        f"A platform that lets every member of the team {n}" for n in ("first", "second", "third")]


def enumerated(text: str, unit: int = 0):
    """engine.agent.sentences.enumeration of the page `text` from its `unit`, and the page reader it used."""
    from engine.agent.sentences import enumeration, unit_sentence
    from engine.index.evidence import analyse

    analysis = analyse(text)

    def page_of(page: int):
        return analysis, text

    return enumeration(unit_sentence(1, unit, page_of, 0), page_of), page_of


def test_a_groups_label_after_the_line_leading_into_the_groups_is_set_on_a_line_of_its_own():
    from engine.agent.sentences import answer_text

    text = ("Winners will share a set of capabilities, including:\n\n**Technology**\n\n- Modern data architecture.\n\n"
            "- Advanced analytics.\n\n**Strategy**\n\n- A base of proprietary data.\n\n- Permission to advise.")
    listed, page_of = enumerated(text)
    assert listed is not None
    lead_in, leads, _ = listed
    answer = answer_text([lead_in, *leads], page_of)
    assert answer.startswith("Winners will share a set of capabilities, including:\n\nTechnology\n- Modern data")
    assert "Advanced analytics.\n\nStrategy\n- A base" in answer


def test_items_whose_explanations_are_short_are_given_whole_when_they_all_fit():
    # a glossary set as terms over their expansions (DBLaTeX's): the expansions are what "which acronyms …" wants
    from engine.agent.sentences import WHOLE_ITEMS_CHARS

    terms = {"ATS": "Automatic Transfer Switch.", "PDU": "Power Distribution Unit.", "UPS": "Uninterruptible Power "
             "Supply."}
    head = "## A Glossary\n\nThis section documents the various acronyms used throughout the present documentation."
    listed, _ = enumerated("\n\n".join([head] + [f"{term}\n\n{meaning}" for term, meaning in terms.items()]), 1)
    assert listed is not None
    _, leads, explained = listed
    assert [s.text for s in leads] == [part for pair in terms.items() for part in pair] and not explained
    # items whose explanations would not all fit: their leads stand for them
    long = {term: f"{meaning[:-1]}, {'which is explained at length here ' * 6}." for term, meaning in terms.items()}
    assert sum(map(len, long.values())) > WHOLE_ITEMS_CHARS
    listed, _ = enumerated("\n\n".join([head] + [f"{term}\n\n{meaning}" for term, meaning in long.items()]), 1)
    assert listed is not None and [s.text for s in listed[1]] == list(terms)


def test_a_sentence_counting_back_the_items_just_above_it_names_their_run():
    text = ("When reporting a bug please make sure you:\n\n1. Attach the code.\n\n2. Name the version.\n\n"
            "3. Copy the error message.\n\nPlease attempt to include these 3 important parts in every report.")
    runs = item_runs(text)
    last = len(text.split("\n")) - 1
    assert counted_back(runs, text, last, text.split("\n")[last]) == Run(0, ((2,), (4,), (6,)))
    # in words too; another count, or no count back, names none
    assert counted_back(runs, text, last, "Send those three things with it.") == runs[0]
    assert counted_back(runs, text, last, "Please attempt to include these 4 important parts.") is None
    assert counted_back(runs, text, last, "Please attempt to include them all.") is None
    # only the run right before the sentence's line (blank lines aside)
    later = text + "\n\nA paragraph between.\n\nThese 3 parts matter."
    assert counted_back(item_runs(later), later, len(later.split("\n")) - 1, "These 3 parts matter.") is None


def bug_guide(path: Path) -> Path:
    """A one-page guide: prose on reporting bugs, a lead-in and four numbered things to send, then a sentence
    counting them back and prose on support requests."""
    with written_pdf(path) as doc:
        page = Lines(doc, 10, 1.6)
        page.line("Reporting Bugs in Tern", 16)
        page.skip(8)
        page.line("Problems go to the developers' mailing list and are looked at every week by a maintainer.")
        page.line("Please make sure you:")
        page.skip(6)
        for n, thing in enumerate(["Attach the program you are running.", "Give the exact command line.",
                                   "State the version and your platform.", "Copy the complete error message."], 1):
            page.line(f"{n}. {thing}")
            page.skip(6)
        page.line("Please include these 4 important parts in all support requests you send us,")
        page.line("even when they make the report long, since reports with them are fixed far more often.")
        for _ in range(3):
            page.line("Support requests to the developers are answered in the order they arrive; a request that")
            page.line("repeats an earlier one is closed with a link to it, so search the list before you write.")
    return path


def test_the_enumeration_a_sentence_counts_back_is_the_lead_in_and_the_items_above_it(tmp_path):
    """"Please include these 4 important parts …" after four numbered things: the list's lead-in and its four
    items, as a lead-in picked itself would bring them (engine.agent.sentences.counted_list)."""
    corpus = load_corpus(ingested(tmp_path, bug_guide, "bugs.pdf"))

    def page_of(number: int):
        return answer_units(corpus, 0, number)

    analysis, _ = page_of(1)
    back = next(i for i, u in enumerate(analysis.units) if u.text.startswith("Please include these 4"))
    lead_in, leads, _ = counted_list(unit_sentence(1, back, page_of, 0), page_of)
    assert lead_in.text == "Please make sure you:"
    assert [s.text for s in leads] == ["1. Attach the program you are running.", "2. Give the exact command line.",
                                       "3. State the version and your platform.", "4. Copy the complete error message."]
    # a sentence counting nothing back brings no list
    other = next(i for i, u in enumerate(analysis.units) if u.text.startswith("Support requests"))
    assert counted_list(unit_sentence(1, other, page_of, 0), page_of) is None
