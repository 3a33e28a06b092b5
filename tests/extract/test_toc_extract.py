"""Printed contents pages: detection, entry parsing, levels, printed-to-physical page mapping, corpus checks."""

import re
from functools import cache
from pathlib import Path

import pytest

from engine.extract.toc_extract import extract_toc, find_contents
from engine.schemas.pdf import OutlineEntry
from engine.schemas.toc import TocEntry

CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus"

PROSE = (
    "The committee met four times during the year and reviewed the budget.\n"
    "Its members discussed the outlook for growth in 2024 and the risks to it,\n"
    "including the effect of higher rates on households and small firms in 12\n"
    "districts. A summary of the discussion is published on the website.\n"
)
COVER = "Annual Review\n2024\nACME Corporation"


def body(pages: dict[int, str], count: int) -> list[str]:
    """`count` page texts: the given pages, prose elsewhere."""
    return [pages.get(n, PROSE) for n in range(1, count + 1)]


def titles(entries: list[TocEntry]) -> list[str]:
    return [e.title for e in entries]


# --- dotted leaders, roman front matter, offset inferred from where the titles appear

DOTTED = "\n".join([
    "ACME Annual Review 2024",
    "Contents",
    "Foreword ........................................ iii",
    "1 Introduction .................................. 1",
    "1.1 Scope ....................................... 2",
    "1.2 Method . . . . . . . . . . . . . . . . . . . 4",
    "2 Results ....................................... 7",
    "2.1 Findings …………… 9",
    "3 Outlook ....................................... 12",
    "ii",
])
DOTTED_BODY = {
    3: "Foreword\nThis year was a good year.",
    4: "1\nIntroduction\nWe introduce the review.",
    5: "1.1 Scope\nThe scope is wide.",
    7: "1.2 Method\nWe used a method.",
    10: "2\nResults\nThe results are in.",
    12: "2.1 Findings\nWe found things.",
    15: "3 Outlook\nThe outlook is bright.",
}


def test_dotted_leaders_levels_and_offsets():
    pages = body({1: COVER, 2: DOTTED, **DOTTED_BODY}, 16)
    found, entries = find_contents(pages[:10], pages)
    assert found == [2]
    assert [(e.title, e.level, e.printed_page, e.page) for e in entries] == [
        ("Foreword", 1, "iii", 3),
        ("1 Introduction", 1, "1", 4),
        ("1.1 Scope", 2, "2", 5),
        ("1.2 Method", 2, "4", 7),
        ("2 Results", 1, "7", 10),
        ("2.1 Findings", 2, "9", 12),
        ("3 Outlook", 1, "12", 15),
    ]


def test_page_labels_win_over_title_search():
    labels = ["", "ii", "iii", "iv"] + [str(n) for n in range(1, 13)]  # page 5 is printed "1"
    pages = body({1: COVER, 2: DOTTED}, 16)  # titles appear nowhere: only the labels can help
    _, entries = find_contents(pages[:10], pages, labels)
    assert [(e.printed_page, e.page) for e in entries] == [
        ("iii", 3), ("1", 5), ("2", 6), ("4", 8), ("7", 11), ("9", 13), ("12", 16)
    ]


def test_page_labels_that_number_the_sheets_lose_to_the_printed_numbers_where_the_titles_are():
    labels = [str(n) for n in range(1, 17)]  # (labels "1".."16": the sheets, not the printed pages)
    pages = body({1: COVER, 2: DOTTED, **DOTTED_BODY}, 16)
    _, entries = find_contents(pages[:10], pages, labels)
    assert [(e.printed_page, e.page) for e in entries] == [
        ("iii", 3), ("1", 4), ("2", 5), ("4", 7), ("7", 10), ("9", 12), ("12", 15)
    ]


def test_an_appendix_alone_in_its_page_numbering_goes_to_its_sighting_after_the_entry_before_it():
    contents = "\n".join(["Contents", "1 Introduction ........ 1", "2 Methods ........ 3", "3 Results ........ 5",
                          "Appendix A Glossary ........ A-1", "Appendix B Resources ........ B-1", "ii"])
    pages = body({1: COVER, 2: contents, 3: "1 Introduction\nWe begin.", 5: "2 Methods\nResources\nWe used these.",
                  7: "3 Results\nThey are in.", 9: "Appendix A Glossary\nTerms.", 11: "Appendix B Resources\nLinks."},
                 12)
    _, entries = find_contents(pages[:10], pages)
    assert [(e.printed_page, e.page) for e in entries][-2:] == [("A-1", 9), ("B-1", 11)]


def test_no_sighting_falls_back_to_offset_zero_and_never_guesses_out_of_range():
    pages = body({1: COVER, 2: DOTTED}, 9)
    _, entries = find_contents(pages[:10], pages)
    assert [(e.printed_page, e.page) for e in entries] == [
        ("iii", None), ("1", 1), ("2", 2), ("4", 4), ("7", 7), ("9", 9), ("12", None)
    ]


def test_without_page_count_nothing_is_guessed():
    _, entries = find_contents([COVER, DOTTED])
    assert len(entries) == 7 and all(e.page is None for e in entries)


# --- wide gaps, title variants, Markdown input

GAPS = "\n".join([
    "Table of Contents",
    "Introduction            1",
    "Background              3",
    "Methods and data        8",
    "Results\t15",
    "Discussion              21",
    "References              30",
])


def test_wide_gaps():
    pages = body({3: "Introduction\ntext", 5: "Background\ntext", 10: "Methods and data", 17: "Results",
                  23: "Discussion", 32: "References"}, 34)
    found, entries = find_contents([COVER, GAPS] + pages[2:10], [COVER, GAPS] + pages[2:])
    assert found == [2]
    assert [(e.title, e.printed_page, e.page) for e in entries] == [
        ("Introduction", "1", 3), ("Background", "3", 5), ("Methods and data", "8", 10),
        ("Results", "15", 17), ("Discussion", "21", 23), ("References", "30", 32),
    ]
    assert {e.level for e in entries} == {1}


@pytest.mark.parametrize("title", ["CONTENTS", "Inhalt", "Sommaire", "Índice", "## Contents", "**Contents**"])
def test_contents_title_variants(title):
    text = "\n".join([title, "Einleitung .......... 1", "Methoden .......... 4", "Ergebnisse .......... 9"])
    found, entries = find_contents([COVER, text])
    assert found == [2]
    assert titles(entries) == ["Einleitung", "Methoden", "Ergebnisse"]


def test_markdown_blocks_are_searched_for_titles():
    md_pages = body({1: COVER, 2: "## Contents\n\n" + GAPS.split("\n", 1)[1]}, 34)
    md_pages[2] = "# Introduction\n\nSome **text**."
    md_pages[4] = "## Background"
    _, entries = find_contents(md_pages[:10], md_pages)
    assert [e.page for e in entries][:2] == [3, 5]


# --- wrapped entries, numbering labels on their own line, page number on its own line

WRAPPED = "\n".join([
    "Contents",
    "1. A Study of Things That Go On and",
    "   On Across Two Lines ............................ 5",
    "2. Short ........................................ 9",
    "3. Another Long Title About Markets, Banks",
    "Insurers and Funds",
    "................................................. 12",
    "II.",
    "  DISCUSSION OF THE RULE ......................... 20",
    "A.",
    "Request for Comment on Key Terms and Scope of Best Interest",
    "Obligation ...................................... 24",
    "B.",
    "Projected Compliance Requirements for Small Entities",
    " 26",
])


def test_wrapped_entries_are_merged():
    found, entries = find_contents([WRAPPED])
    assert found == [1]
    assert [(e.title, e.printed_page) for e in entries] == [
        ("1. A Study of Things That Go On and On Across Two Lines", "5"),
        ("2. Short", "9"),
        ("3. Another Long Title About Markets, Banks Insurers and Funds", "12"),
        ("II. DISCUSSION OF THE RULE", "20"),
        ("A. Request for Comment on Key Terms and Scope of Best Interest Obligation", "24"),
        ("B. Projected Compliance Requirements for Small Entities", "26"),
    ]


def test_page_number_on_the_next_line():
    text = "Contents\nExecutive summary\t\n3\nContext and overview\n5\nOpen Data ecosystem\n8\nContacts\n29\n"
    assert [(e.title, e.printed_page) for e in find_contents([COVER, text])[1]] == [
        ("Executive summary", "3"), ("Context and overview", "5"), ("Open Data ecosystem", "8"), ("Contacts", "29")
    ]


@pytest.mark.parametrize("text", [
    "Contents\n03\nForeword\n05\nIntroduction to the topic\n09\nMarkets\n14\nOutlook",
    "Contents\n03 Foreword\n05 Introduction to the topic\n09 Markets\n14 Outlook",
], ids=["line-above", "same-line"])
def test_page_number_before_its_title(text):
    labels = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15"]
    found, entries = find_contents([COVER, text], None, labels)
    assert found == [2]
    assert [(e.title, e.printed_page, e.page) for e in entries] == [
        ("Foreword", "03", 3), ("Introduction to the topic", "05", 5), ("Markets", "09", 9), ("Outlook", "14", 14)
    ]


def test_chapter_numbers_are_not_page_numbers():
    text = "Contents\n1 Foreword\n2 Introduction to the topic\n3 Markets\n4 Outlook"
    assert [e.printed_page for e in find_contents([COVER, text])[1]] == ["", "", "", ""]


def test_prefixed_page_numbers_get_their_own_offset():
    text = "Contents\nIntroduction ........ 1\nMethods ........ 4\nAnnex on data ........ A-1\nAnnex on code ........ A-3"
    pages = body({1: COVER, 2: text, 3: "Introduction", 6: "Methods", 8: "Annex on data", 10: "Annex on code"}, 10)
    assert [e.page for e in find_contents(pages, pages)[1]] == [3, 6, 8, 10]


def test_section_heading_without_page_is_kept_and_single_space_entry_between_neighbours():
    text = "\n".join([
        "Contents",
        "1 Overview ............ 1",
        "2 Policy .............. 3",
        "When Making a Recommendation, At Time Recommendation is Made 5",
        "3 Stability ........... 9",
        "Appendixes",
        "A Organization ........ 20",
        "Board of Governors .... 20",
        "B Minutes ............. 41",
        "110th Annual Report | 2023",
    ])
    pages = body({3: "1\nOverview", 5: "2\nPolicy", 21: "Appendixes"}, 50)
    pages[:2] = [COVER, text]
    _, entries = find_contents(pages[:10], pages)
    assert [(e.title, e.level, e.printed_page, e.page) for e in entries] == [
        ("1 Overview", 1, "1", 3),
        ("2 Policy", 1, "3", 5),
        ("When Making a Recommendation, At Time Recommendation is Made", 2, "5", 7),
        ("3 Stability", 1, "9", 11),
        ("Appendixes", 1, "", 21),  # no page number: found by its title between its neighbours
        ("A Organization", 1, "20", 22),
        ("Board of Governors", 2, "20", 22),
        ("B Minutes", 1, "41", 43),
    ]


# --- levels from numbering styles and from indentation

def test_levels_from_numbering_styles():
    text = "\n".join([
        "Table of Contents",
        "I. Introduction .......... 1",
        "A. Background .......... 2",
        "1. History .......... 3",
        "(a) Early days .......... 3",
        "(b) Later .......... 4",
        "2. Today .......... 5",
        "B. Goals .......... 6",
        "II. Discussion .......... 7",
        "C. Not a roman one hundred .......... 8",
        "References .......... 9",
    ])
    assert [e.level for e in find_contents([text])[1]] == [1, 2, 3, 4, 4, 3, 2, 1, 2, 1]


def test_levels_from_indentation_when_unnumbered():
    text = "Contents\nMarkets ..... 1\n    Equities ..... 2\n    Bonds ..... 5\nBanks ..... 9\n\tLending ..... 11"
    assert [e.level for e in find_contents([text])[1]] == [1, 2, 2, 1, 2]


# --- continuation pages

def test_contents_continue_on_the_next_page_without_title():
    first = "Contents\n" + "\n".join(f"Chapter title number {n} .......... {n * 4}" for n in range(1, 11))
    second = "\n".join(f"Chapter title number {n} .......... {n * 4}" for n in range(11, 16)) + "\niv"
    third = "Chapter title number 1\n" + PROSE
    found, entries = find_contents([COVER, first, second, third, PROSE])
    assert found == [2, 3]
    assert len(entries) == 15 and entries[-1].printed_page == "60"


def test_list_of_figures_is_not_a_continuation():
    first = "Contents\n" + "\n".join(f"Chapter {n} title .......... {n * 4}" for n in range(1, 8))
    figures = "List of Figures\n" + "\n".join(f"Figure {n} caption text .......... {n * 5}" for n in range(1, 8))
    assert find_contents([first, figures])[0] == [1]


def test_untitled_contents_page_is_found_by_its_entries():
    text = "\n".join(f"Section about topic {n} .......... {n * 3}" for n in range(1, 9))
    assert find_contents([COVER, text, PROSE])[0] == [2]


def test_contents_without_page_numbers_mapped_by_title():
    text = "\n".join([
        "Advisers Act [15 U.S.C. 80b].1", "TABLE OF CONTENTS", "I.", "Introduction", "II.",
        "Interpretation and Application", "A.", "Historical Context", "III.", "Economic Considerations",
        "I.", "INTRODUCTION", "The Advisers Act regulates the activities of certain investment advisers, who are",
    ])
    pages = body({
        2: text, 6: "II.\nINTERPRETATION AND APPLICATION\nA. Historical Context", 9: "III.\nECONOMIC CONSIDERATIONS"
    }, 10)
    found, entries = find_contents(pages, pages)
    assert found == [2]
    assert [(e.title, e.level, e.page) for e in entries] == [
        ("I. Introduction", 1, 2),  # the body starts on the contents page itself
        ("II. Interpretation and Application", 1, 6),
        ("A. Historical Context", 2, 6),
        ("III. Economic Considerations", 1, 9),
    ]


# --- pages that are not contents

FINANCIAL_CELLS = "\n".join([
    "SUMMARIZED FINANCIAL RESULTS", "Quarter Ended", "($ in millions, except per share amounts)",
    "December 28,", "2024", "December 30,", "2023", "Change", "Revenues", "$", "24,690", "$", "23,549", "5 %",
    "Sports", "247", "(103)", "nm", "Experiences", "3,110", "3,105", "— %", "Eliminations(1)", "(447)", "(399)",
    "Segment 1", "12", "Segment 2", "15", "Segment 3", "18", "Segment 4", "21", "Segment 5", "30",
])
FINANCIAL_ROWS = "\n".join([
    "Consolidated statement of income (in millions)      2024      2023",
    "Revenue                                           24,690    23,549",
    "Cost of revenue                                   15,120    14,870",
    "Operating income                                   5,060     3,876",
    "Interest expense                                     412       380",
    "Income taxes                                         650       590",
    "Net income                                         2,551     1,911",
])
BRANCHES = "\n".join([
    "Branches by region", "North      12", "South      15", "East       18", "West       21", "Central    25",
    "Islands    27", "Total      118",
])
SMALL_TABLE = "\n".join([
    "Staff by office", "Paris      12", "Berlin     15", "Madrid     18", "Rome       21", "Vienna     25",
    "Prague     27", "Oslo       30",
])
FOOTNOTES = "\n".join(
    f"body text of the release that discusses the rule in some detail, line {n}\n{n}\nSee the comment letter of"
    f" a firm (Aug. {n}, 2018)." for n in range(20, 30)
)


@pytest.mark.parametrize(
    "page", [FINANCIAL_CELLS, FINANCIAL_ROWS, BRANCHES, SMALL_TABLE, FOOTNOTES, PROSE, ""],
    ids=["financial-cells", "financial-rows", "total-row", "one-word-labels", "footnotes", "prose", "empty"],
)
def test_not_contents(page):
    assert find_contents([COVER, page, PROSE], [COVER, page, PROSE]) == ([], [])


def test_only_first_max_pages_are_searched():
    pages = [PROSE] * 11 + [DOTTED]
    assert find_contents(pages) == ([], [])
    assert find_contents(pages, max_pages=12)[0] == [12]


def test_extract_toc_keeps_the_outline_apart():
    outline = [OutlineEntry(title="Bookmark", level=1, page=4)]
    pages = body({1: COVER, 2: DOTTED, **DOTTED_BODY}, 16)
    toc = extract_toc(pages[:10], pages, [], outline)
    assert toc.contents_pages == [2] and len(toc.contents) == 7
    assert toc.outline == outline
    assert extract_toc([PROSE], [PROSE], None, outline).contents == []


def test_a_contents_page_in_two_columns_is_read_column_by_column_from_the_markdown():
    left = [("1 Purpose", 3), ("2 Goals", 3), ("2.1 Speed", 4), ("2.2 Accuracy", 5), ("3 Design", 6)]
    right = [("6 Linear algebra", 9), ("6.1 Vectors", 9), ("6.2 Storage", 10), ("7 Summary", 11), ("8 Thanks", 12)]

    def entry(title, page):
        return f"{title} {'.' * 20} {page}"

    rows = "\n".join(f"{entry(*a)} {entry(*b)}" for a, b in zip(left, right))  # (the PDF's lines: two entries each)
    columns = "\n\n".join(entry(*e) for e in left + right)  # (the reader's Markdown: column by column)
    headings = {page: f"## {title}\n\nText." for title, page in left + right}
    pages = body({1: f"# Matrix guide\n\n{columns}", **headings}, 12)
    first = [f"Matrix guide\n{rows}", *pages[1:10]]
    toc = extract_toc(first, pages, [], [])
    assert [(e.title, e.page) for e in toc.contents] == left + right
    assert len(find_contents(first, pages)[1]) < len(toc.contents)  # (read line by line, rows merge)


# --- corpus

def _norm(title: str) -> str:
    """Outline and contents titles compared without numbering, case or punctuation."""
    title = re.sub(r"^\s*(?:[IVXLC]+\.|[A-Z]\.?|\d+(?:\.\d+)*\.?|\([a-z0-9]+\))\s+", "", title.strip())
    return " ".join(re.sub(r"[\W_]+", " ", title.lower()).split())


@cache
def _read(name: str):
    pymupdf = pytest.importorskip("pymupdf")
    path = CORPUS / name
    if not path.exists():
        pytest.skip("shared corpus absent")
    with pymupdf.open(path) as doc:
        texts = [page.get_text() for page in doc]
        labels = [page.get_label() for page in doc]
        outline = doc.get_toc()
    return texts, labels, outline


# name: (contents pages, at least this many entries, at least this share agreeing with the outline)
EXPECTED = {
    "2023-annual-report.pdf": ([3, 4], 45, 0.95),
    "Regulation_Best_Interest_Interpretive_release.pdf": ([2], 8, 1.0),  # titled, without page numbers
    "Regulation_Best_Interest_proposed_rule.pdf": ([3, 4, 5], 70, 0.95),
    "gx-iif-open-data.pdf": ([2], 10, 1.0),  # page numbers on the line after each title
    "XC9500_CPLD_Family.pdf": ([], 0, None),  # data sheet: tables of pin counts, no contents
    "deloitte-tech-risk-sector-banking.pdf": ([], 0, None),
    "dttl-tax-technology-report-2023.pdf": ([], 0, None),  # survey charts full of percentages
    "earthmover.pdf": ([], 0, None),  # research paper
    "four-lectures.pdf": ([], 0, None),  # lecture notes with a broken text layer
    "life-sciences-smart-manufacturing-services-peak-matrix-assessment-2023.pdf": ([], 0, None),
    "q1-fy25-earnings.pdf": ([], 0, None),  # earnings release: financial tables
}


@pytest.mark.corpus
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_contents_pages(name):
    texts, labels, outline = _read(name)
    pages, least, share = EXPECTED[name]
    found, entries = find_contents(texts[:10], texts, labels)
    assert found == pages
    assert len(entries) >= least
    if share is not None:
        by_title = {}
        for _, title, page in outline:
            by_title.setdefault(_norm(title), set()).add(page)
        agree = sum(1 for e in entries if e.page is not None and e.page in by_title.get(_norm(e.title), ()))
        assert agree / len(entries) >= share


@pytest.mark.corpus
def test_annual_report_level_one_outline_entries_are_found_with_their_physical_page():
    texts, labels, outline = _read("2023-annual-report.pdf")
    _, entries = find_contents(texts[:10], texts, labels)
    found = {(_norm(e.title), e.page) for e in entries}
    level_one = [(_norm(t), p) for level, t, p in outline if level == 1 and _norm(t) != "contents"]
    matched = sum(1 for item in level_one if item in found)
    assert len(level_one) == 15 and matched / len(level_one) >= 0.9  # measured: 15 of 15
    assert {e.printed_page: e.page for e in entries}["iii"] == 5  # roman front matter: its own offset


def test_only_pages_that_may_hold_contents_get_the_slow_layout_text():
    from engine.pdf import may_hold_contents

    assert may_hold_contents("Contents\nIntroduction\nMethods")  # titled, even without numbers
    assert may_hold_contents("Introduction 3\nMethods 7\nResults 12\nDiscussion 20")
    assert may_hold_contents("Introduction\n3\nMethods\n7\nResults\n12")  # numbers on their own lines
    prose = "\n".join(["A line of ordinary prose that runs on for a while"] * 20 + ["Figure 1", "Table 2", "page 3"])
    assert not may_hold_contents(prose)  # a few numbered lines among much prose


def test_a_contents_printed_at_the_end_and_titled_so_is_found_there_with_its_entries_mapped():
    # (groff's -mm prints the contents after the text; the reader may set its lines as table rows)
    contents = "\n".join(["CONTENTS", "1. Introduction ........................ 16",
                          "1.1 Scope | ........................ 16",
                          "| 2. Usage | ........................ 18 |",
                          "2.1 Options ............................ 19", "3. Limits ............................... 20"])
    pages = body({1: "1. Introduction\n1.1 Scope", 3: "2. Usage", 4: "2.1 Options", 5: "3. Limits"}, 40)
    pages.append(contents)
    found, entries = find_contents(pages[:10], pages)
    assert found == [41]
    assert [(e.title, e.printed_page, e.page) for e in entries] == [
        ("1. Introduction", "16", 1), ("1.1 Scope", "16", 1), ("2. Usage", "18", 3), ("2.1 Options", "19", 4),
        ("3. Limits", "20", 5)]
    untitled = pages[:-1] + [contents.replace("CONTENTS", "Chapter 3 at a glance")]
    assert find_contents(untitled[:10], untitled) == ([], [])  # (at the end, only a page titled as the contents)
