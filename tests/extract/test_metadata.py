"""Context metadata: one test group per field function, then the corpus read through PyMuPDF."""

from __future__ import annotations

import re
import time
from functools import lru_cache
from pathlib import Path

import pytest

from engine.extract.metadata.document import written_name
from engine.extract.metadata import (
    body_paragraphs,
    docinfo_date,
    extract_author,
    extract_document_type,
    extract_entities,
    extract_keywords,
    extract_language,
    extract_metadata,
    extract_publication_date,
    extract_summary,
    extract_themes,
    extract_time_periods,
    extract_title,
    find_dates,
    find_periods,
    is_meaningful_title,
    shown_title,
    resolve_hyphens,
)
from engine.extract.kind import document_kind, runs_on_from_markdown
from engine.markdown import join_pages, split_pages
from engine.schemas.base import Provenance
from engine.schemas.metadata import Entity, Theme, TimePeriod
from engine.schemas.pdf import DocKind, PageInfo, PdfInfo
from engine.schemas.toc import Heading
from engine.text import split_sentences


def info(**kwargs) -> PdfInfo:
    base = {"file_name": "doc.pdf", "pages": 3, "format": "portrait", "width": 612.0, "height": 792.0}
    return PdfInfo(**(base | kwargs))


# --- text helpers


def test_body_paragraphs_joins_wrapped_lines_and_drops_non_body():
    block = (
        "# Heading\n"
        "INTRODUCTION\n"
        "The broker-dealer exclusion is con-\n"
        "junctive and applies to every firm\n"
        "that gives advice.\n"
        "\n"
        "[IMAGE: img_001]\n"
        "> **Warning:** something\n"
        "| a | b |\n"
        "- First item of a list\n"
        "- Second item\n"
        "```\n# not a heading\ncode line\n```\n"
        "Last paragraph."
    )
    assert body_paragraphs(block) == [
        "The broker-dealer exclusion is con\u00adjunctive and applies to every firm that gives advice.",
        "First item of a list",
        "Second item",
        "Last paragraph.",
    ]


def test_resolve_hyphens_uses_the_document_vocabulary():
    text = "The rule is con\u00adjunctive. A broker\u00addealer is conjunctive."
    assert resolve_hyphens(text) == "The rule is conjunctive. A broker-dealer is conjunctive."


# --- title


@pytest.mark.parametrize(
    ("title", "file_name", "expected"),
    [
        ("Annual Report, 2023", "2023-annual-report.pdf", True),
        ("Microsoft Word - draft_v3.docx", "x.pdf", False),
        ("four-lectures.dvi", "four-lectures.pdf", False),
        ("q1-fy25-earnings", "other.pdf", False),
        ("Annual report", "annual_report.pdf", False),
        ("Untitled", "x.pdf", False),
        ("12345", "x.pdf", False),
        ("", "x.pdf", False),
        ("C:\\Users\\me\\report.pdf", "x.pdf", False),
        ("The =1=LaTeX document preparation system", "course.pdf", False),  # a TeX macro the PDF string lost
        ("Contents", "ref_en.pdf", False),  # the first heading, set as docinfo title by a converter
        ("Table of Contents", "ref_en.pdf", False),
        ("Contents of the Annual Report", "x.pdf", True),
    ],
)
def test_is_meaningful_title(title, file_name, expected):
    assert is_meaningful_title(title, file_name) is expected


def test_a_docinfo_title_of_markup_debris_gives_way_to_the_printed_h1():
    md = join_pages(["# The LATEX document preparation system\n\nText."])
    docinfo = {"title": "The =1=LaTeX document preparation system"}
    assert extract_title(info(docinfo=docinfo), md, []) == ("The LATEX document preparation system", Provenance.LAYOUT)
    assert is_meaningful_title("E = mc2 for Beginners", "x.pdf", printed=True)  # a printed title may hold "="


def test_the_shown_title_is_the_extracted_one_else_a_meaningful_docinfo_title_else_the_file_stem():
    assert shown_title("Printed Title", "gputils.dvi", "gputils.pdf") == "Printed Title"
    assert shown_title("", "gputils.dvi", "gputils.pdf") == "gputils"
    assert shown_title("", "Contents", "xfig_ref_en.pdf") == "xfig_ref_en"
    assert shown_title("", "Fonts in X11R7.7", "fonts.pdf") == "Fonts in X11R7.7"


def test_title_docinfo_wins_when_meaningful():
    md = join_pages(["# Layout Title\n\nText."])
    assert extract_title(info(docinfo={"title": " Proposed Rule:  Regulation X "}), md, []) == (
        "Proposed Rule: Regulation X",
        Provenance.PDF_INFO,
    )


def test_title_the_printed_h1_when_the_docinfo_title_stops_before_its_end():
    md = join_pages(["# Protecting Information in Nonfederal Systems and Organizations\n\nText."])
    docinfo = {"title": "Protecting Information in Nonfederal Systems"}
    assert extract_title(info(docinfo=docinfo), md, []) == (
        "Protecting Information in Nonfederal Systems and Organizations", Provenance.LAYOUT)
    other = join_pages(["# Systems and Organizations\n\nText."])  # an H1 that does not extend it: docinfo
    assert extract_title(info(docinfo=docinfo), other, []) == (docinfo["title"], Provenance.PDF_INFO)


def test_an_h1_that_goes_on_past_the_docinfo_title_only_with_its_author_is_no_fuller_title():
    # the title block's byline run into the printed title: the docinfo title stands
    md = join_pages(["# River Survey Methods A Field Guide The Survey Group\n\nText."])
    docinfo = {"title": "River Survey Methods - A Field Guide", "author": "The Survey Group"}
    assert extract_title(info(docinfo=docinfo), md, []) == (docinfo["title"], Provenance.PDF_INFO)
    other = {"title": "River Survey Methods", "author": "The Survey Group"}  # (more than the author: the title's rest)
    assert extract_title(info(docinfo=other), md, [])[1] == Provenance.LAYOUT


def test_a_file_name_h1_that_reads_like_the_docinfo_title_and_more_is_no_printed_title():
    # the reformatter's fallback H1 (the file's name) is not printed text: the docinfo title stands
    md = join_pages(["# intermediate-rust-book\n\nText."])
    got = extract_title(info(file_name="intermediate-rust-book.pdf", docinfo={"title": "Intermediate Rust"}), md, [])
    assert got == ("Intermediate Rust", Provenance.PDF_INFO)


def test_title_falls_back_to_the_h1():
    md = join_pages(["# Layout Title\n\nText.", "## Section\n\nMore."])
    got = extract_title(info(docinfo={"title": "Microsoft Word - x.docx"}), md, [])
    assert got == ("Layout Title", Provenance.LAYOUT)


def test_title_skips_a_file_name_h1_for_the_first_page_heading():
    md = join_pages(["# q1-report\n\n## Quarterly Results of the Company\n\nText.", "## Later Section Here\n\nx"])
    assert extract_title(info(file_name="q1-report.pdf"), md, []) == (
        "Quarterly Results of the Company",
        Provenance.LAYOUT,
    )


def test_a_press_releases_dateline_label_is_no_title_its_headline_is():
    md = join_pages(["# FOR IMMEDIATE RELEASE\n\nFebruary 5, 2025\n\n"
                     "## THE COMPANY REPORTS FIRST QUARTER EARNINGS FOR FISCAL 2025\n\nBURBANK, Calif. – The company."])
    assert extract_title(info(file_name="q1-earnings.pdf"), md, []) == (
        "THE COMPANY REPORTS FIRST QUARTER EARNINGS FOR FISCAL 2025", Provenance.LAYOUT)


def test_a_printed_one_word_title_with_digits_is_a_title_where_a_docinfo_slug_is_not():
    assert extract_title(info(file_name="blake3_spec.pdf", docinfo={"title": "x.pdf"}), join_pages(["# BLAKE3\n\nText."]),
                         []) == ("BLAKE3", Provenance.LAYOUT)
    assert not is_meaningful_title("DOT2022", "plan.pdf")  # a docinfo code, not a title


def test_a_title_that_only_names_the_kind_gives_way_to_the_title_printed_under_it():
    cover = ("Fakultät Informatik\n\n# Bachelorarbeit\n\n## Cover\n\nUntersuchung von Decentralized Identiﬁern, deren"
             "\n\nAuswirkung auf den Datenschutz\n\nGeldbeutels\n\n| Vorgelegt von: | Veronika Sedlackova |\n")
    pdf = info(docinfo={"title": "Bachelorarbeit"})
    assert extract_title(pdf, join_pages([cover, "Text."]), []) == (
        "Untersuchung von Decentralized Identifiern, deren Auswirkung auf den Datenschutz Geldbeutels",
        Provenance.LAYOUT)
    # a meaningful docinfo title wins; nothing printed under the kind (a label, then prose) leaves the kind
    assert extract_title(info(docinfo={"title": "Digital Wallets"}), join_pages([cover]), [])[0] == "Digital Wallets"
    bare = "# Master's Thesis\n\nSubmitted by:\n\nAda Quill\n"
    assert extract_title(info(), join_pages([bare]), [])[0] == "Master's Thesis"
    # a title that is more than its kind stays
    assert extract_title(info(), join_pages(["# A Thesis on Rivers\n\nAda Quill\n"]), [])[0] == "A Thesis on Rivers"


def test_an_h1_without_a_latin_letter_gives_way_to_the_latin_title_block_under_it():
    # a font guide titled in the script it serves, its title in English under it
    cover = "# ᦟᦲᧅᦷᦎᦺᦑ\n\nDai Banna SIL Fonts\n\nUser Guide\n"
    assert extract_title(info(), join_pages([cover, "Text."]), []) == ("Dai Banna SIL Fonts User Guide",
                                                                       Provenance.LAYOUT)
    # nothing in Latin letters under it (a document written in that script), or a docinfo title: the title stays
    assert extract_title(info(), join_pages(["# Привет мир\n\nКраткое руководство пользователя\n"]), [])[0] \
        == "Привет мир"
    assert extract_title(info(docinfo={"title": "Dai Banna Guide"}), join_pages([cover]), [])[0] == "Dai Banna Guide"


def test_a_sections_numbered_heading_on_the_title_page_is_no_title():
    # a manual's title page sets its name as the file's ("PSTOEDIT") and goes on with its first section
    md = join_pages(["# PSTOEDIT\n\nAbstract\n\n## 1 Synopsis\n\n### 1.1 From the command shell\n\npstoedit [-v]",
                     "## 1.2 From Gsview\n\nText."])
    assert extract_title(info(file_name="pstoedit.pdf"), md, []) == ("", None)
    assert not is_meaningful_title("3.2 Text and font handling related options", printed=True)
    assert is_meaningful_title("2023 Annual Report", printed=True)  # (a year leads a title; a section number does not)


def test_title_empty_when_nothing_fits():
    assert extract_title(info(docinfo={"title": "doc.pdf"}), join_pages(["just text"]), []) == ("", None)


# --- author


def test_author_docinfo_then_byline_then_nothing():
    assert extract_author(info(docinfo={"author": "Jane Doe"}), "") == ("Jane Doe", Provenance.PDF_INFO)
    first = "Annual review\nPrepared by Acme Research Group\nJune 2024\n"
    assert extract_author(info(docinfo={"author": "Administrator"}), first) == (
        "Acme Research Group",
        Provenance.HEURISTIC,
    )
    assert extract_author(info(), "Author: M. Tofte\n") == ("M. Tofte", Provenance.HEURISTIC)
    assert extract_author(info(), "Nothing here\nby the way, no names") == ("", None)


def test_author_from_a_label_and_value_cell_and_a_docinfo_list_that_lost_its_spaces_or_holds_contacts():
    # a thesis's title page set as label and value cells (Markdown's "Author: | …")
    thesis = "Westfälische Wilhelms-Universität\nMünster\nMaster of Science\nAuthor: | Michael Josef Paul Beckemeyer\n"
    assert extract_author(info(), thesis) == ("Michael Josef Paul Beckemeyer", Provenance.HEURISTIC)
    assert extract_author(info(), "Bachelorarbeit\nAutor: | Erika Mustermann\n") == ("Erika Mustermann",
                                                                                     Provenance.HEURISTIC)
    # a character the docinfo string could not keep, after each separator (NIST's "Boyens, Jon M.;?Paulsen, …")
    lost = info(docinfo={"author": "Boyens, Jon M.;?Paulsen, Celia;?Moorthy, Rama"})
    assert extract_author(lost, "") == ("Boyens, Jon M.; Paulsen, Celia; Moorthy, Rama", Provenance.PDF_INFO)
    assert extract_author(info(docinfo={"author": "Who? Research Group"}), "")[0] == "Who? Research Group"
    # a contact after the name is no part of it
    assert extract_author(info(docinfo={"author": "Trevor Perrin (noise@trevp.net)"}), "")[0] == "Trevor Perrin"
    listed = info(docinfo={"author": "Jane Doe <jane@example.org>, Max Roe"})
    assert extract_author(listed, "")[0] == "Jane Doe, Max Roe"


def test_a_docinfo_user_name_gives_way_to_the_name_the_opening_pages_write():
    # a user name as the docinfo author: the person's name as the title page writes it, or its line of names
    deck = "# Introduction to Tokyo Products\n\nMikio Hirabayashi\n\n<hirarin@gmail.com>\n"
    assert extract_author(info(docinfo={"author": "hirabayashi"}), deck) == ("Mikio Hirabayashi", Provenance.HEURISTIC)
    names = "Graphite Description Language\nM. Hosken, B. Hallissy, W. Cleveland, S. Correll, A. Ward\n"
    assert extract_author(info(docinfo={"author": "correll"}), names)[0] == \
        "M. Hosken, B. Hallissy, W. Cleveland, S. Correll, A. Ward"
    assert extract_author(info(docinfo={"author": "evansl"}), "Feature chart\nLorna Evans\n")[0] == "Lorna Evans"
    # a user name the pages never write as a name, or a name of two words, stays as docinfo gives it
    assert extract_author(info(docinfo={"author": "cheuka"}), deck) == ("cheuka", Provenance.PDF_INFO)
    assert extract_author(info(docinfo={"author": "Jane Hirabayashi"}), deck)[0] == "Jane Hirabayashi"
    assert written_name("hirabayashi", "The Hirabayashi method is fast.\n") == ""


def test_author_from_a_title_block_author_line():
    paper = ("Earth Mover's Distance based Similarity Search at Scale\n"
             "Yu Tang†, Leong Hou U‡, Yilun Cai†, Nikos Mamoulis†, Reynold Cheng†\n"
             "†The University of Hong Kong | ‡University of Macau\n†{ytang}@cs.hku.hk\nABSTRACT\n")
    assert extract_author(info(), paper) == ("Yu Tang, Leong Hou U, Yilun Cai, Nikos Mamoulis, Reynold Cheng",
                                             Provenance.HEURISTIC)
    notes = ("Mads Tofte, March 1, 1989 Laboratory for Foundations of Computer Science Edinburgh University\n"
             "Four Lectures on Standard ML\n")
    assert extract_author(info(), notes) == ("Mads Tofte", Provenance.HEURISTIC)
    # footnote marks the reader sets apart from the names (engine.readers.layout.raised_number) are no names
    marked = ("Semantic bSDD\nVladimir Alexiev 1,*, Mihail Radkov 1 and Nataliya Keberle 1\n"
              "1Ontotext, 79, Nikola Gabrovski Str. Twins Centre, fl.3, Sofia 1700, Bulgaria\n")
    assert extract_author(info(), marked) == ("Vladimir Alexiev, Mihail Radkov, Nataliya Keberle", Provenance.HEURISTIC)
    # a line of several names right under the title, without an affiliation: a paper's over its date, a manual's
    # names set apart by a bar, an affiliation's mark glued to its first word after the names
    gasper = ("Combining GHOST and Casper\nVitalik Buterin, Diego Hernandez, Thor Kamphefner, Khiem Pham, Zhi Qiao, "
              "Danny Ryan, Juhyeok Sin, Ying Wang, Yan X Zhang\nOctober 31, 2019\nWe present a protocol.\n")
    names = extract_author(info(), gasper, "Combining GHOST and Casper")[0]
    assert names.startswith("Vitalik Buterin, Diego Hernandez") and names.endswith("Ying Wang, Yan X Zhang")
    assert extract_author(info(), gasper) == ("", None)  # (without the title, no affiliation: nobody)
    menhir = "Menhir Reference Manual\n(version 20231231)\nFrançois Pottier | Yann Régis-Gianas\nINRIA\n"
    assert extract_author(info(), menhir, "Menhir Reference Manual") == ("François Pottier, Yann Régis-Gianas",
                                                                         Provenance.HEURISTIC)
    rare = "RARE\nMasoud Ebrahimi 1, Qamar Alfalouji 2 1Mälardalen University, Sweden 2TU Graz, Austria\n"
    assert extract_author(info(), rare) == ("Masoud Ebrahimi, Qamar Alfalouji", Provenance.HEURISTIC)
    # a subtitle of capitalised phrases under the title, whose words the text writes in lower case, names nobody
    subtitle = "Open Data Report\nData Sharing, Open Finance\nHow data sharing and open finance meet.\n"
    assert extract_author(info(), subtitle, "Open Data Report") == ("", None)
    # capitalised title lines with no affiliation after them, or lines that are not all names, name nobody
    assert extract_author(info(), "Four Lectures\nField Data Without Paperwork\nMarch 2025\n") == ("", None)
    title = "River Survey Methods\nA field guide\nDepartment of Rivers\nHow a river survey measures its methods"
    assert extract_author(info(), title) == ("", None)
    topics = "Banking Risk, Digital Assets\nCenter for Banking\nrisk in digital assets and banking"
    assert extract_author(info(), topics) == ("", None)
    # a title block set in columns, each author (a name with a capital inside: "McKay") over an affiliation; the
    # second affiliation's first words, capitalised, name nobody
    columns = ("heronry and Tracks User's Guide\nBrendan D. McKay∗\nResearch School of Computer Science Australian "
               "National University\nbrendan@example.org\nAda Quill\nDipartimento di Informatica Sapienza Università "
               "di Roma\nNovember 17, 2022\nThe programs count heronries.\n")
    assert extract_author(info(), columns) == ("Brendan D. McKay, Ada Quill", Provenance.HEURISTIC)


# --- publication date


def test_find_dates_formats_and_validation():
    text = "March 2025 | June 5, 2019 | 2023-01-24 | 18 April 2018 | February 30, 2020 | may 2020 | Sept. 3, 2021"
    assert [d for _, _, d in find_dates(text)] == [
        "2025-03-01",
        "2019-06-05",
        "2023-01-24",
        "2018-04-18",
        "2021-09-03",
    ]


def test_printed_date_wins_over_creation_date():
    pdf = info(docinfo={"creationDate": "D:20240812133835-04'00'"})
    assert extract_publication_date(pdf, "Quarterly note\nMarch 2025\n") == ("2025-03-01", Provenance.HEURISTIC)


def test_deadlines_and_effective_dates_are_not_publication_dates():
    pdf = info(docinfo={"creationDate": "D:20180418184659-04'00'"})
    front = "DATES: Comments should be received on or before August 7, 2018.\nDATES: Effective July 12, 2019.\n"
    assert extract_publication_date(pdf, front) == ("2018-04-18", Provenance.PDF_INFO)


def test_a_cued_date_wins_over_an_earlier_one():
    front = "Conference held May 2, 2020\nPublished: June 1, 2021\n"
    assert extract_publication_date(info(), front) == ("2021-06-01", Provenance.HEURISTIC)


def test_no_date_at_all():
    assert extract_publication_date(info(), "no date here") == ("", None)


def test_docinfo_date():
    assert docinfo_date("D:20240812133835-04'00'") == "2024-08-12"
    assert docinfo_date("D:2024") == "2024-01-01"
    assert docinfo_date("D:20241340") == ""
    assert docinfo_date("garbage") == ""


def test_a_reproducible_builds_placeholder_creation_date_is_no_date():
    # SOURCE_DATE_EPOCH=315532800 (LuaTeX, the Rosenpass whitepaper) or 0: every file of the build stamped alike
    for stamp in ("D:19800101000000Z", "D:19700101000000Z", "D:19800101000000+00'00'", "D:19700101"):
        assert docinfo_date(stamp) == "", stamp
        assert extract_publication_date(info(docinfo={"creationDate": stamp}), "no date here") == ("", None)
    # a real date on those days (a time of day, another year) still counts
    assert docinfo_date("D:19800101093000Z") == "1980-01-01"
    assert docinfo_date("D:20240101000000Z") == "2024-01-01"


# --- language


def test_language():
    english = ["The committee raised interest rates and the economy continued to grow during the year."]
    french = ["Le comité a relevé les taux d'intérêt et l'économie a continué de croître pendant l'année."]
    german = ["Der Ausschuss hat die Zinsen erhöht und die Wirtschaft ist im Laufe des Jahres weiter gewachsen."]
    assert extract_language(english) == "en"
    assert extract_language(french) == "fr"
    assert extract_language(german) == "de"
    assert extract_language(["12 34"]) == ""


# --- document type


@pytest.mark.parametrize(
    ("kwargs", "title", "front", "expected"),
    [
        ({}, "Proposed Rule: Regulation X", "ACTION: Proposed rule.", "proposed rule"),
        ({}, "Commission Interpretation", "AGENCY: SEC\nACTION:  Interpretation.", "interpretive release"),
        ({}, "", "ACME CORP REPORTS FIRST QUARTER 2025 FINANCIAL RESULTS\nRevenue rose.", "earnings release"),
        ({}, "Market notes", "This report presents the results of the fourth quarter survey.", ""),
        ({}, "Annual Report, 2023", "", "annual report"),
        ({}, "XC9500 CPLD Family Data Sheet", "", "datasheet"),
        ({}, "EMD at scale", "ABSTRACT\nWe study things.\n1.\nINTRODUCTION\nText", "research paper"),
        ({}, "Four Lectures on Standard ML", "", "lecture notes"),
        ({}, "The ecosystem imperative", "Contents\nExecutive summary\t3\n", "report"),
        ({"format": "landscape", "docinfo": {"creator": "PowerPoint"}}, "Market update", "", "presentation"),
        ({"format": "landscape", "docinfo": {"creator": "Adobe InDesign"}}, "Tax technology report", "", "report"),
        ({"format": "landscape"}, "Quarterly update", "", "presentation"),
        ({}, "Pushing through undercurrents", "Risks emerge. Learn more in the full report.", ""),
        ({}, "Effiziente Konstruktion", "Abschlussarbeit zur Erlangung des akademischen Grades\nMaster of Science",
         "thesis"),
        ({}, "Bachelorarbeit", "Fakultät Informatik\nBachelorarbeit", "thesis"),
        ({}, "Graph indexes", "A thesis submitted in partial fulfillment of the requirements for the degree", "thesis"),
        ({}, "Rosenpass", "**Abstract**\nRosenpass is a protocol.\n## 1 Introduction\nText", "research paper"),
        ({}, "Open Document Format", "Version 1.3. Part 2\n**OASIS Standard**\n27 April 2021", "standard"),
        ({}, "PIV", "Series/Number | Federal Information Processing Standards Publication (FIPS) 201-2", "standard"),
        ({}, "SISO-STD-018-2020 Standard for Space Reference FOM", "", "standard"),
        # (a series' name, "Special Publication", is no type: its words would name the document to any question
        # asking about something "special" or "public")
        ({}, "Supply Chain Risk Management Practices", "NIST Special Publication 800-161", ""),
        ({}, "EduMIPS64 Documentation", "Release 0.5.3", "manual"),
        ({}, "U.S. Department of Transportation Strategic Plan FY 2022-2026", "", "strategic plan"),
        ({}, "DOE Budget in Brief", "", "budget"),
        # "Standard ML" is a language's name, not a standard; a page that mentions a standard is none
        ({}, "Four Lectures on Standard ML", "", "lecture notes"),
        ({}, "Market notes", "The bank applied the standard for risk weights.", ""),
        ({}, "Market notes", "Standard\nand poor results", ""),
        ({}, "Web API", "W3C Standard\n2 May 2024", "standard"),
    ],
)
def test_document_type(kwargs, title, front, expected):
    deck = kwargs.get("format") == "landscape"  # engine.extract.kind: a landscape deck
    assert extract_document_type(info(**kwargs), title, front, front, deck=deck) == expected


# --- keywords

KEYWORD_TEXT = [
    "Regulation Best Interest would require a broker-dealer to act in the best interest of the retail customer.",
    "The retail customer receives a recommendation, and the broker-dealer must disclose conflicts of interest.",
    "Conflicts of interest arise when the broker-dealer is paid more for one product than another product.",
    "The best interest obligation applies to every recommendation made to a retail customer.",
    "Under Regulation Best Interest, the broker-dealer must mitigate conflicts of interest tied to compensation.",
    "See https://www.sec.gov/rules for 2018 and 2019 releases; email rule-comments@sec.gov.",
]


def test_keywords_phrases_lowercase_no_junk():
    assert extract_keywords(KEYWORD_TEXT) == [
        "conflicts of interest",
        "retail customer",
        "regulation best interest",
        "broker-dealer",
        "recommendation",
        "product",
    ]


def test_keywords_deduplicate_by_stem_and_cap_at_top():
    paragraphs = [f"Stablecoin issuers and stablecoin issuer risks matter to topic{n % 20} holders." for n in range(60)]
    keywords = extract_keywords(paragraphs, top=8)
    assert len(keywords) == 8
    assert sum(k.startswith("stablecoin issuer") for k in keywords) == 1
    assert all(k == k.lower() and not k.isdigit() for k in keywords)


# --- summary

SUMMARY_TEXT = [
    "Copyright © 2024 Acme Corp. All rights reserved.",
    "The central bank raised interest rates three times during the year to bring inflation back toward its target.",
    "Figure 1: Interest rates and inflation rates by month, showing how inflation fell.",
    "Inflation fell from six percent in January to three percent in December as interest rates rose.",
    "Short line.",
    "Growth slowed but remained positive, and unemployment stayed low throughout the year despite higher rates.",
    "The bank also reduced its balance sheet, which further tightened financial conditions for households.",
    "Table 2 | Rates | 2023 | 2024 | and some more words here to be long enough.",
    "Higher interest rates raised borrowing costs for households, and inflation expectations stayed anchored.",
    "Our staff enjoyed the annual picnic, which was held in the park near the river in the summer.",
]


def test_summary_extractive_verbatim_in_order_without_boilerplate():
    summary = extract_summary(SUMMARY_TEXT)
    assert summary == (
        "The central bank raised interest rates three times during the year to bring inflation back toward its "
        "target. Inflation fell from six percent in January to three percent in December as interest rates rose. "
        "Growth slowed but remained positive, and unemployment stayed low throughout the year despite higher rates. "
        "The bank also reduced its balance sheet, which further tightened financial conditions for households. "
        "Higher interest rates raised borrowing costs for households, and inflation expectations stayed anchored."
    )


def test_summary_strips_labels_and_datelines():
    text = [
        "SUMMARY: We are proposing a new rule that sets a standard of conduct for brokers and their customers.",
        "BURBANK, Calif. – The Walt Disney Company today reported earnings for its first fiscal quarter.",
        "The standard of conduct for brokers would apply when brokers make recommendations to customers.",
    ]
    assert extract_summary(text) == (
        "We are proposing a new rule that sets a standard of conduct for brokers and their customers. "
        "The Walt Disney Company today reported earnings for its first fiscal quarter. "
        "The standard of conduct for brokers would apply when brokers make recommendations to customers."
    )


def test_summary_empty_without_prose():
    assert extract_summary(["Table 1", "A | B", "Revenue 2023 2024 12.5 13.1 14.0 15.2 16.3 17.4"]) == ""


# --- themes

THEMES_MD = join_pages(
    [
        "# Annual Review 2023\n\nA review of the year.",
        "## Contents\n\nOverview 3\n\nMarkets 5",
        "## 1. Overview\n\nThis review covers the activities of the year. It has two parts.\n\n"
        "## 2. Markets\n\n### Equity\n\nEquity markets rose sharply during the year, led by technology shares.\n\n"
        "## Tables only\n\n| a | b |\n\n## References\n\nSmith, J. (2020). A book about the subject at hand.",
    ]
)


def test_themes_from_level_two_sections():
    assert extract_themes(THEMES_MD, [], "Annual Review 2023") == [
        Theme(name="Overview", description="This review covers the activities of the year."),
        Theme(name="Markets", description="Equity markets rose sharply during the year, led by technology shares."),
    ]


def test_themes_go_one_level_down_under_a_title_heading():
    md = join_pages(
        [
            "# paper-slug\n\n## A Study of Things\n\n### Abstract\n\nWe study many things in this paper.",
            "### 1. Introduction\n\nThings are everywhere in the world today.\n\n"
            "### 2. Method\n\nWe count the things with a new method.\n\n## Fig. 3\n\n### 3. Results\n\n"
            "The counts are large and they grow.",
        ]
    )
    names = [t.name for t in extract_themes(md, [], "A Study of Things")]
    assert names == ["Abstract", "Introduction", "Method", "Results"]


def test_themes_at_most_eight_and_descriptions_shortened():
    long = "This section explains " + "a very long point " * 20 + "in detail."
    md = join_pages(["# T\n\n" + "\n\n".join(f"## Part {n}\n\n{long}" for n in range(1, 11))])
    themes = extract_themes(md, [])
    assert [t.name for t in themes] == [f"Part {n}" for n in range(1, 9)]
    assert all(len(t.description) <= 200 and t.description.endswith("…") for t in themes)


def test_themes_use_given_headings_when_markdown_has_none():
    md = "Title line\nOverview\nThis review covers the activities of the year.\n--- end page 1\n"

    headings = [
        Heading(title="Title line", level=1, page=1, line=0),
        Heading(title="Overview", level=2, page=1, line=1),
    ]
    expected = Theme(name="Overview", description="This review covers the activities of the year.")
    assert extract_themes(md, headings) == [expected]


# --- entities

ENTITY_TEXT = """The Securities and Exchange Commission (SEC) adopted the rule. The SEC said the
Commission staff would review it; the SEC will report. Acme Holdings, Inc. objected, and Acme Holdings,
Inc. appealed. The Bank of England and the Bank of England's staff commented. The World Economic Forum spoke once.
The Commission Interpretation is not an organisation. Each Committee met."""


def test_entities_author_then_organisations_seen_twice_by_frequency():
    assert extract_entities(ENTITY_TEXT, "Jane Doe") == [
        Entity(name="Jane Doe", role="author"),
        Entity(name="Securities and Exchange Commission", role="mentioned"),
        Entity(name="Acme Holdings, Inc.", role="mentioned"),
        Entity(name="Bank of England", role="mentioned"),
    ]


def test_entities_author_organisation_is_publisher_and_not_repeated():
    entities = extract_entities(ENTITY_TEXT, "U.S. Securities and Exchange Commission")
    assert entities[0] == Entity(name="U.S. Securities and Exchange Commission", role="publisher")
    assert [e.name for e in entities[1:]] == ["Acme Holdings, Inc.", "Bank of England"]


def test_entities_capped():
    text = " ".join(f"The Alpha{chr(65 + n)} Institute met. The Alpha{chr(65 + n)} Institute ate." for n in range(20))
    assert len(extract_entities(text)) == 15


# --- time periods

PERIOD_TEXT = (
    "For the year ended December 31, 2023 and the three months ended March 31, 2024. Revenue in Q1 FY25 rose; "
    "FY2024 was flat. In fiscal 2025, Q2 fiscal year 2024, the first quarter of fiscal 2023 and Q3 2022. "
    "From 2018–2023, then 2019-20 and between 2010 and 2012. From January 2020 to March 2021, and "
    "January–March 2021. In calendar year 2019. © 1998–2007 Acme. The first fiscal quarter ended "
    "December 28, 2024. Release 2019-06-05."
)


def test_find_periods():
    assert [(s, e, d, a) for _, s, e, d, a in sorted(find_periods(PERIOD_TEXT))] == [
        ("2023-01-01", "2023-12-31", "year ended December 31, 2023", False),
        ("2024-01-01", "2024-03-31", "quarter ended March 31, 2024", False),
        ("2025-01-01", "2025-03-31", "Q1 fiscal year 2025", True),
        ("2024-01-01", "2024-12-31", "fiscal year 2024", True),
        ("2025-01-01", "2025-12-31", "fiscal year 2025", True),
        ("2024-04-01", "2024-06-30", "Q2 fiscal year 2024", True),
        ("2023-01-01", "2023-03-31", "Q1 fiscal year 2023", True),
        ("2022-07-01", "2022-09-30", "Q3 2022", False),
        ("2018-01-01", "2023-12-31", "2018–2023", False),
        ("2019-01-01", "2020-12-31", "2019–2020", False),
        ("2010-01-01", "2012-12-31", "2010–2012", False),
        ("2020-01-01", "2021-03-31", "January 2020 – March 2021", False),
        ("2021-01-01", "2021-03-31", "January 2021 – March 2021", False),
        ("2019-01-01", "2019-12-31", "calendar year 2019", False),
        ("2024-09-29", "2024-12-28", "quarter ended December 28, 2024", True),
    ]


def test_time_periods_title_year_first_then_most_frequent():
    text = "Sales in Q1 FY25 grew. Q1 FY25 was strong. Costs in 2018-2020 fell. Later, Q1 FY25 again."
    assert extract_time_periods("2023 Annual Report", text) == [
        TimePeriod(start_date="2023-01-01", end_date="2023-12-31", period_description="2023", is_approximate=True),
        TimePeriod(start_date="2025-01-01", end_date="2025-03-31", period_description="Q1 fiscal year 2025",
                   is_approximate=True),
        TimePeriod(start_date="2018-01-01", end_date="2020-12-31", period_description="2018–2020",
                   is_approximate=False),
    ]


def test_time_periods_exact_mention_makes_the_title_year_exact_and_at_most_five():
    periods = extract_time_periods("Annual Report, 2023", PERIOD_TEXT)
    assert len(periods) == 5
    assert periods[0] == TimePeriod(start_date="2023-01-01", end_date="2023-12-31", period_description="2023",
                                    is_approximate=False)


# --- the whole record

DOC = join_pages(
    [
        "# Acme Annual Report 2023\n\nPrepared by Acme Research Group\n\nMarch 2024",
        "## Overview\n\nThe Acme Research Group reviews the markets of the year ended December 31, 2023 for "
        "the Acme Foundation. The Acme Foundation funds the review every year.\n\n"
        "## Markets\n\nEquity markets rose sharply during the year while bond markets fell back slightly.",
        "## Outlook\n\nThe review expects equity markets to keep rising while inflation eases further next year. "
        "Bond markets should recover as inflation eases and rates stabilise over the coming year.",
    ]
)


def test_extract_metadata_fields_and_provenance():
    meta = extract_metadata(info(docinfo={"title": "Microsoft Word - report.docx"}), DOC, [])
    assert meta.title == "Acme Annual Report 2023"
    assert meta.author == "Acme Research Group"
    assert meta.publication_date == "2024-03-01"
    assert meta.language == "en"
    assert meta.document_type == "annual report"
    assert [t.name for t in meta.themes] == ["Overview", "Markets", "Outlook"]
    assert Entity(name="Acme Research Group", role="publisher") in meta.entities
    assert Entity(name="Acme Foundation", role="mentioned") in meta.entities
    assert meta.time_periods[0] == TimePeriod(start_date="2023-01-01", end_date="2023-12-31",
                                              period_description="2023", is_approximate=False)
    assert "equity markets" in meta.keywords
    assert meta.summary.startswith("The Acme Research Group reviews the markets")
    assert meta.provenance == {
        "title": Provenance.LAYOUT,
        "author": Provenance.HEURISTIC,
        "publication_date": Provenance.HEURISTIC,
        "language": Provenance.HEURISTIC,
        "document_type": Provenance.HEURISTIC,
        "keywords": Provenance.HEURISTIC,
        "summary": Provenance.HEURISTIC,
        "themes": Provenance.LAYOUT,
        "entities": Provenance.HEURISTIC,
        "time_periods": Provenance.HEURISTIC,
    }


def test_a_titles_ligatures_are_spelled_out():
    markdown = join_pages(["# Eﬃziente Konstruktion von Datenstrukturen\n\nText.", "More text."])
    assert extract_metadata(info(), markdown, []).title == "Effiziente Konstruktion von Datenstrukturen"


def test_extract_metadata_empty_document_has_no_provenance():
    meta = extract_metadata(info(), join_pages(["", ""]), [])
    assert meta.model_dump(exclude={"provenance"}) == type(meta)().model_dump(exclude={"provenance"})
    assert meta.provenance == {}


def _synthetic_long_document(pages: int = 400) -> str:
    words = ("market rate bank policy credit risk capital broker customer dealer interest rule firm "
             "advice conflict disclosure fee account product price cost growth data system").split()
    blocks = []
    for n in range(pages):
        sentences = []
        for k in range(32):
            picked = [words[(n * 7 + k * 3 + j * 5) % len(words)] for j in range(10)]
            sentences.append(f"The {' '.join(picked)} in 20{10 + n % 14} by the Acme Bank of Testing.")
        blocks.append(f"## Section {n}\n\n" + " ".join(sentences[:16]) + "\n\n" + " ".join(sentences[16:]))
    blocks[0] = "# Synthetic Report\n\n" + blocks[0]
    return join_pages(blocks)


def test_speed_on_a_400_page_document():
    markdown = _synthetic_long_document()
    assert len(markdown) > 1_400_000
    pdf = info(pages=400, docinfo={"title": "Synthetic Report", "author": "Acme Bank of Testing"})
    extract_metadata(pdf, markdown, [])  # loads the language model once
    best = min(_timed(lambda: extract_metadata(pdf, markdown, [])) for _ in range(5))
    assert best < 0.5, f"{best:.3f} s"


def _timed(call) -> float:
    """CPU seconds of the call: what it costs, whatever else the machine is running (tests run in parallel)."""
    start = time.process_time()
    call()
    return time.process_time() - start


# --- corpus: page-marked Markdown built straight from PyMuPDF (page.get_text per page), with an H1 and,
# when the PDF has an outline, its top-level entries as `##` headings at the top of their page -- what the
# reader and reformatter produce, in a simpler form.

H1 = {  # titles as printed, for the PDFs whose docinfo title is missing or a file name
    "q1-fy25-earnings.pdf": "The Walt Disney Company Reports First Quarter Earnings for Fiscal 2025",
    "gx-iif-open-data.pdf": "The ecosystem imperative",
    "earthmover.pdf": "Earth Mover’s Distance based Similarity Search at Scale",
    "deloitte-tech-risk-sector-banking.pdf": "Pushing through undercurrents",
    "four-lectures.pdf": "Four Lectures on Standard ML",
}


def _kind(pdf: PdfInfo, markdown: str) -> DocKind:
    """The kind the pipeline decides, from this Markdown (no blocks here)."""
    texts = split_pages(markdown)
    runs_on = runs_on_from_markdown(markdown)
    return document_kind(pdf.format, [PageInfo(page=n, chars=len(t), runs_on=r)
                                      for n, (t, r) in enumerate(zip(texts, runs_on), start=1)])


@lru_cache(maxsize=None)
def _corpus_input(path: Path) -> tuple[PdfInfo, str, str]:
    """(PdfInfo, page-marked Markdown, plain text of all pages) of a corpus PDF."""
    import pymupdf

    with pymupdf.open(path) as doc:
        rect = doc[0].rect
        pdf = PdfInfo(
            file_name=path.name,
            pages=doc.page_count,
            format="landscape" if rect.width > rect.height else "portrait",
            width=rect.width,
            height=rect.height,
            docinfo={k: v for k, v in doc.metadata.items() if v},
        )
        pages = [page.get_text() for page in doc]
        outline = [(title.strip(), page) for level, title, page in doc.get_toc() if level == 1 and page >= 1]
    blocks = [page.split("\n") for page in pages]
    for title, page in reversed(outline):  # the heading replaces its printed line, else tops the page
        lines = blocks[page - 1]
        at = next((i for i, line in enumerate(lines) if " ".join(line.split()).lower() == title.lower()), None)
        if at is None:
            lines.insert(0, f"## {title}")
        else:
            lines[at] = f"## {title}"
    blocks = ["\n".join(lines) for lines in blocks]
    title = H1.get(path.name) or pdf.docinfo.get("title", "").strip() or path.stem
    blocks[0] = f"# {title}\n\n{blocks[0]}"
    return pdf, join_pages(blocks), "\n".join(pages)


@pytest.fixture
def corpus(corpus_pdf):
    def get(name: str):
        pdf, markdown, text = _corpus_input(corpus_pdf(name))
        return extract_metadata(pdf, markdown, [], kind=_kind(pdf, markdown)), text

    return get


def _squash(text: str) -> str:
    for ligature, letters in {"ﬁ": "fi", "ﬂ": "fl", "ﬀ": "ff", "ﬃ": "ffi", "ﬄ": "ffl"}.items():
        text = text.replace(ligature, letters)
    return re.sub(r"[\s\-\u00ad]+", "", text)


CORPUS = [
    "2023-annual-report.pdf",
    "Regulation_Best_Interest_Interpretive_release.pdf",
    "Regulation_Best_Interest_proposed_rule.pdf",
    "XC9500_CPLD_Family.pdf",
    "deloitte-tech-risk-sector-banking.pdf",
    "dttl-tax-technology-report-2023.pdf",
    "earthmover.pdf",
    "four-lectures.pdf",
    "gx-iif-open-data.pdf",
    "life-sciences-smart-manufacturing-services-peak-matrix-assessment-2023.pdf",
    "q1-fy25-earnings.pdf",
]


@pytest.mark.corpus
@pytest.mark.parametrize("name", CORPUS)
def test_corpus_invariants(corpus, name):
    meta, text = corpus(name)
    assert meta.language == "en"
    assert 8 <= len(meta.keywords) <= 15
    assert len(set(meta.keywords)) == len(meta.keywords)
    assert all(k == k.lower() and not k.replace(" ", "").isdigit() for k in meta.keywords)
    sentences = split_sentences(meta.summary)
    assert 1 <= len(sentences) <= 6
    squashed = _squash(text)
    assert all(_squash(s) in squashed for s in sentences), "summary sentences come verbatim from the text"
    assert all(_squash(t.description.rstrip("…")) in squashed for t in meta.themes)
    assert len(meta.themes) <= 8 and len(meta.entities) <= 15 and len(meta.time_periods) <= 5
    filled = {k for k, v in meta.model_dump(exclude={"provenance"}).items() if v}
    assert set(meta.provenance) == filled
    if meta.publication_date:
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", meta.publication_date)


@pytest.mark.corpus
def test_corpus_federal_reserve_annual_report(corpus):
    meta, _ = corpus("2023-annual-report.pdf")
    assert (meta.title, meta.provenance["title"]) == ("Annual Report, 2023", Provenance.PDF_INFO)
    assert meta.author == "Federal Reserve Board"
    assert meta.entities[0] == Entity(name="Federal Reserve Board", role="publisher")
    assert meta.document_type == "annual report"
    assert (meta.publication_date, meta.provenance["publication_date"]) == ("2024-08-12", Provenance.PDF_INFO)
    assert TimePeriod(start_date="2023-01-01", end_date="2023-12-31", period_description="2023",
                      is_approximate=True) == meta.time_periods[0]
    names = [t.name for t in meta.themes]
    assert names[:3] == ["About the Federal Reserve", "Overview", "Monetary Policy and Economic Developments"]
    assert "Contents" not in names
    names = {e.name for e in meta.entities}
    assert {"Federal Open Market Committee", "Federal Deposit Insurance Corporation"} <= names
    assert {"federal reserve", "monetary policy"} <= set(meta.keywords)


@pytest.mark.corpus
def test_corpus_regulation_best_interest_proposed_rule(corpus, corpus_pdf):
    meta, _ = corpus("Regulation_Best_Interest_proposed_rule.pdf")
    assert meta.title == "Proposed Rule: Regulation Best Interest"
    assert meta.document_type == "proposed rule"
    assert any("Securities and Exchange Commission" in e.name for e in meta.entities)
    assert Entity(name="Financial Industry Regulatory Authority", role="mentioned") in meta.entities
    # "Comments should be received on or before August 7, 2018" is a deadline: the creation date stands
    assert (meta.publication_date, meta.provenance["publication_date"]) == ("2018-04-18", Provenance.PDF_INFO)
    assert {"best interest", "retail customer", "conflicts of interest"} <= set(meta.keywords)
    assert meta.summary.startswith("We are proposing a new rule under the Securities Exchange Act of 1934")
    assert [t.name for t in meta.themes][:3] == ["Introduction", "Discussion of Regulation Best Interest",
                                                 "Request for Comment"]
    pdf, markdown, _ = _corpus_input(corpus_pdf("Regulation_Best_Interest_proposed_rule.pdf"))
    assert len(split_pages(markdown)) == 408
    best = min(_timed(lambda: extract_metadata(pdf, markdown, [])) for _ in range(5))
    assert best < 0.5, f"{best:.3f} s on 408 pages"


@pytest.mark.corpus
def test_corpus_interpretive_release(corpus):
    meta, _ = corpus("Regulation_Best_Interest_Interpretive_release.pdf")
    assert meta.document_type == "interpretive release"
    assert meta.author == "U.S. Securities and Exchange Commission"
    assert meta.entities[0].role == "publisher"
    assert meta.publication_date == "2019-06-05"  # not "Effective July 12, 2019"
    assert [t.name for t in meta.themes] == [
        "Introduction", "Interpretation and Application", "Economic Considerations"
    ]
    assert "solely incidental prong" in meta.keywords


@pytest.mark.corpus
def test_corpus_disney_earnings_release(corpus):
    meta, _ = corpus("q1-fy25-earnings.pdf")
    assert meta.document_type == "earnings release"
    assert (meta.publication_date, meta.provenance["publication_date"]) == ("2025-02-05", Provenance.HEURISTIC)
    # no docinfo author nor byline: the release's dateline says who issued it ("BURBANK, Calif. – The Walt Disney
    # Company today reported …")
    assert (meta.author, meta.provenance["author"]) == ("Walt Disney Company", Provenance.HEURISTIC)
    descriptions = {p.period_description: p for p in meta.time_periods}
    assert descriptions["Q1 fiscal year 2025"].is_approximate
    assert descriptions["fiscal year 2025"] == meta.time_periods[0]  # "Fiscal 2025" is in the title
    assert descriptions["quarter ended December 28, 2024"].start_date == "2024-09-29"
    assert Entity(name="Walt Disney Company", role="publisher") in meta.entities  # (its author, by the dateline)
    assert meta.summary.startswith("The Walt Disney Company today reported earnings for its first fiscal quarter")


@pytest.mark.corpus
def test_corpus_xilinx_datasheet(corpus):
    meta, _ = corpus("XC9500_CPLD_Family.pdf")
    assert meta.document_type == "datasheet"
    assert (meta.publication_date, meta.provenance["publication_date"]) == ("2013-05-17", Provenance.HEURISTIC)
    assert meta.entities[0] == Entity(name="Xilinx, Inc.", role="publisher")
    assert [t.name for t in meta.themes][:3] == ["Features", "Family Overview", "Architecture Description"]
    assert {"macrocell", "product term"} <= set(meta.keywords)


@pytest.mark.corpus
def test_corpus_others(corpus):
    paper, _ = corpus("earthmover.pdf")
    assert (paper.document_type, paper.title, paper.provenance["title"]) == (
        "research paper", "Earth Mover’s Distance based Similarity Search at Scale", Provenance.LAYOUT)
    assert "emd" in paper.keywords
    lectures, _ = corpus("four-lectures.pdf")  # docinfo title "four-lectures.dvi" is a file name
    assert (lectures.document_type, lectures.provenance["title"]) == ("lecture notes", Provenance.LAYOUT)
    deck, _ = corpus("life-sciences-smart-manufacturing-services-peak-matrix-assessment-2023.pdf")
    assert (deck.document_type, deck.publication_date, deck.author) == ("presentation", "2023-08-01", "Everest Group")
    assert deck.time_periods[0].start_date == "2023-01-01" and not deck.time_periods[0].is_approximate
    tax, _ = corpus("dttl-tax-technology-report-2023.pdf")
    assert (tax.document_type, tax.entities[0]) == ("report", Entity(name="Deloitte", role="publisher"))
    open_data, _ = corpus("gx-iif-open-data.pdf")
    assert open_data.document_type == "report"
    assert Entity(name="Institute of International Finance", role="mentioned") in open_data.entities
    assert [t.name for t in open_data.themes][:2] == ["Executive summary", "Context and overview"]
    flyer, _ = corpus("deloitte-tech-risk-sector-banking.pdf")
    assert (flyer.document_type, flyer.author, flyer.publication_date) == ("", "", "2023-07-24")


def test_a_letters_mojibake_is_no_copyright_line_for_the_summary_and_themes():
    from engine.extract.metadata.summary import is_summary_sentence
    from engine.extract.metadata.themes import first_sentence

    mojibake = "El programa permite leer el correo y gestionar las cuentas de forma sencilla y rÃ¡pida tambiÃ©n."
    notice = "Copyright © 2023 by the authors of this manual, who keep every right to the text."
    assert is_summary_sentence(mojibake)
    assert not is_summary_sentence(notice)
    assert first_sentence([notice, mojibake]) == mojibake


@pytest.mark.parametrize(("pages", "maker"), [
    (["Lake data sheet", "© 1998-2007, 2013 Tarn Devices, Inc. All rights reserved."], "Tarn Devices, Inc."),
    (["Copyright © 2020 by the River Standards Organization, Inc.", "text"], "River Standards Organization, Inc."),
    (["Copyright © Lake Open 2021. All Rights Reserved."], "Lake Open"),
    (["DUNMORE, Tex. – The Tarn Company today reported earnings for its first quarter."], "Tarn Company"),
    (["© 2023. For information, contact Acme Global."], ""),  # a contact, not a holder
    (["© 2023 Copyright for this paper by its authors."], ""),
    (["This report from the Institute of Lakes and Acme studies open data."], ""),  # (left to the answers)
])
def test_the_author_a_notice_names(pages, maker):
    from engine.extract.metadata.document import stated_maker

    assert stated_maker(pages) == maker
