"""The structure from the best source: the outline when consistent, else the contents page, else the layout;
the Markdown rewritten so that its headings, the created TOC, the structure string and the tree agree."""

import re
from collections import Counter

import pytest

from engine.extract.locate import SourceEntry, locate
from engine.extract.reconcile import MIN_FOUND_SHARE, best_structure, contents_entries, level_map, outline_entries
from engine.extract.toc_create import create_report_toc
from engine.markdown import iter_headings, join_pages, page_of_lines
from engine.schemas.pdf import OutlineEntry
from engine.schemas.toc import TocEntry
from engine.structure import build_tree

# page 1 title page; 2: a heading the outline lacks; 3: a run-in heading; 4: a title wrapped on two lines and
# a draft's line number before a label; 5: a heading whose bookmark points to the foot of page 4
MARKDOWN = join_pages([
    "# Field Guide\n\n## Jane Doe\n\nA cover line.",
    "## Introduction\n\nRivers carry water.\n\n## Author notes\n\nSome notes.",
    "Scope of work: this guide covers rivers.\n\nMore text.",
    "## Field Methods and\n\n## Equipment\n\nWe sample.\n\n85 2.1 Sampling Design\n\nDesign text.",
    "## Results\n\nFindings.",
])
OUTLINE = [
    OutlineEntry(title="Introduction", level=1, page=2),
    OutlineEntry(title="Scope of work", level=2, page=3),
    OutlineEntry(title="Field Methods and Equipment", level=1, page=4),
    OutlineEntry(title="2.1 Sampling Design", level=2, page=4),
    OutlineEntry(title="Results", level=1, page=4),
    OutlineEntry(title="Discussion", level=1, page=5),  # not in the text: added at the top of its page
    OutlineEntry(title="Unresolved", level=1, page=None),  # no destination: cannot be placed
]


def words(text: str) -> Counter:
    return Counter(re.findall(r"\w+", text))


def agree(result) -> None:
    """The Markdown's headings are the structure's, line for line, level for level."""
    assert [(h.line, h.level, h.title) for h in iter_headings(result.markdown)] == [
        (h.line, min(h.level, 6), h.title) for h in result.headings
    ]


@pytest.fixture(scope="module")
def outlined():
    return best_structure(MARKDOWN, OUTLINE, [], fallback_title="field-guide")


def test_outline_entries_become_the_headings_below_the_title(outlined):
    assert outlined.source == "outline"
    page_of = page_of_lines(outlined.markdown)
    assert [(h.title, h.level, h.source, page_of[h.line]) for h in outlined.headings] == [
        ("Field Guide", 1, "layout", 1),
        ("Introduction", 2, "outline", 2),
        ("Scope of work:", 3, "outline", 3),
        ("Field Methods and Equipment", 2, "outline", 4),
        ("2.1 Sampling Design", 3, "outline", 4),
        ("Results", 2, "outline", 5),  # its bookmark points to page 4: found at the top of page 5
        ("Discussion", 2, "outline", 5),
    ]
    agree(outlined)
    assert outlined.found == 5 and outlined.entries == 6


def test_outline_rewrite_keeps_every_word_and_sets_apart_what_is_not_a_heading(outlined):
    assert not words(MARKDOWN) - words(outlined.markdown)
    md = outlined.markdown
    assert "**Author notes**" in md and "**Jane Doe**" in md  # headings the outline lacks: bold lines
    assert "## Scope of work: this guide" not in md and "\nthis guide covers rivers." in md  # run-in split
    assert "\n85\n\n### 2.1 Sampling Design\n" in md  # the line number kept apart from the heading


def test_reconciling_twice_changes_nothing(outlined):
    again = best_structure(outlined.markdown, OUTLINE, [], fallback_title="field-guide")
    assert again.markdown == outlined.markdown and again.headings == outlined.headings


def test_structure_string_and_tree_agree_with_the_markdown(outlined):
    structure = create_report_toc(outlined.markdown, "field-guide", outlined.headings)
    line = outlined.markdown.split("\n").index("## Introduction")
    assert structure.splitlines()[:2] == ["# Field Guide [line 0]", f"## Introduction [line {line}] [outline]"]
    tree = build_tree(structure, kind="report", pages=5, doc_title="Field Guide", markdown=outlined.markdown)
    nodes = [(n.title, n.level, n.start_page, n.source) for n in tree.root.walk() if n.kind == "heading"]
    assert outlined.headings[0].title == tree.root.title  # the H1, merged into the root: its sections a level up
    assert nodes == [(h.title, h.level - 1, page_of_lines(outlined.markdown)[h.line], h.source)
                     for h in outlined.headings[1:]]
    assert tree.root.source == "outline"


def test_an_outline_whose_titles_are_not_in_the_text_is_not_used():
    bookmarks = [OutlineEntry(title=f"Bookmark {n}", level=1, page=n) for n in range(1, 6)]
    result = best_structure(MARKDOWN, bookmarks, [], fallback_title="field-guide")
    assert result.source == "layout" and result.markdown == MARKDOWN
    # (pages 1 and 5 hold under THIN_PAGE_WORDS words: too few to speak for or against an entry)
    assert result.warnings == ["the outline was not used: only 0 of its 3 entries on pages with text are found "
                               "in the text of their pages"]
    assert [h.title for h in result.headings] == [h.title for h in iter_headings(MARKDOWN)]


def test_the_share_found_decides_consistency():
    assert MIN_FOUND_SHARE == 0.5
    half = OUTLINE[:2] + [OutlineEntry(title=f"Bookmark {n}", level=1, page=n) for n in (3, 4)]
    assert best_structure(MARKDOWN, half, []).source == "outline"
    less = OUTLINE[:1] + [OutlineEntry(title=f"Bookmark {n}", level=1, page=n) for n in (2, 3, 4)]
    assert best_structure(MARKDOWN, less, []).source == "layout"


def test_an_outline_over_pages_without_text_is_used_when_the_pages_with_text_confirm_it_or_there_are_none():
    from engine.markdown import BLANK_PAGE, needs_ocr_note
    scanned = join_pages(["# Field Guide\n\nA cover line that says what the guide is for and who wrote it.",
                          needs_ocr_note(2), BLANK_PAGE, needs_ocr_note(4)])
    bookmarks = [OutlineEntry(title="Field Guide", level=1, page=1)] + \
        [OutlineEntry(title=f"Chapter {n}", level=1, page=n) for n in (2, 3, 4)]
    result = best_structure(scanned, bookmarks, [], fallback_title="field-guide")
    assert result.source == "outline"  # (1 of the 1 entry on a page with text is found; 3 cannot be checked)
    pages = page_of_lines(result.markdown)
    assert [(h.title, pages[h.line]) for h in iter_headings(result.markdown)][-3:] == [
        ("Chapter 2", 2), ("Chapter 3", 3), ("Chapter 4", 4)]
    wrong = [OutlineEntry(title="Bookmark", level=1, page=1)] + bookmarks[1:]
    assert best_structure(scanned, wrong, []).source == "layout"  # (the page with text speaks against it)


def test_pages_with_a_few_words_of_text_neither_confirm_nor_refute_an_outline():
    """A page whose body is drawn as shapes keeps a link or a page number in its text layer: too little to hold
    a heading, so the outline's titles missing from it say nothing against the outline."""
    drawn = join_pages(["# Field Guide\n\nA cover line that says what the guide is for and who wrote it.",
                        "https://example.org/guide/", "12", "https://example.org/guide/rivers 13"])
    bookmarks = [OutlineEntry(title="Field Guide", level=1, page=1)] + \
        [OutlineEntry(title=f"Chapter {n}", level=1, page=n) for n in (2, 3, 4)]
    result = best_structure(drawn, bookmarks, [], fallback_title="field-guide")
    assert result.source == "outline"
    pages = page_of_lines(result.markdown)
    assert [(h.title, pages[h.line]) for h in iter_headings(result.markdown)][-3:] == [
        ("Chapter 2", 2), ("Chapter 3", 3), ("Chapter 4", 4)]
    # a page of prose is evidence: an outline none of whose titles it prints is not used
    prose = join_pages(["# Field Guide\n\nA cover line that says what the guide is for and who wrote it."] +
                       [f"Rivers carry water and sediment downstream, page {n} of the guide says." for n in (2, 3, 4)])
    assert best_structure(prose, bookmarks, []).source == "layout"


def test_a_one_entry_outline_is_no_structure():
    assert best_structure(MARKDOWN, OUTLINE[:1], []).source == "layout"


def test_the_fallback_source_is_recorded_for_a_model_s_headings():
    result = best_structure(MARKDOWN, [], [], fallback="llm")
    assert {h.source for h in result.headings} == {"llm"}
    assert create_report_toc(result.markdown, "x", result.headings).splitlines()[0] == "# Field Guide [line 0] [llm]"


def test_the_document_title_replaces_the_fallback_h1_once_the_title_page_headings_go():
    markdown = join_pages(["# field-guide\n\nCover\n\n## A Guide to Rivers\n\ntext", "## Introduction\n\nx",
                           "## Methods\n\ny"])
    outline = [OutlineEntry(title="Introduction", level=1, page=2), OutlineEntry(title="Methods", level=1, page=3)]
    result = best_structure(markdown, outline, [], fallback_title="field-guide", title="A Guide to Rivers")
    assert [(h.title, h.level) for h in result.headings] == [
        ("A Guide to Rivers", 1), ("Introduction", 2), ("Methods", 2)]
    assert "**field-guide**" in result.markdown  # the old H1 stays as text
    agree(result)


def test_a_bookmark_on_the_title_line_that_alone_tops_the_outline_is_the_title():
    outline = [OutlineEntry(title="Field Guide", level=1, page=1), *[e.model_copy(update={"level": e.level + 1})
                                                                    for e in OUTLINE[:2]]]
    result = best_structure(MARKDOWN, outline, [])
    assert [(h.title, h.level, h.source) for h in result.headings] == [
        ("Field Guide", 1, "outline"), ("Introduction", 2, "outline"), ("Scope of work:", 3, "outline")]


def test_an_entry_before_the_title_puts_a_title_on_top():
    markdown = join_pages(["Cover\n\n# Field Guide\n\ntext", "## Introduction\n\nx"])
    outline = [OutlineEntry(title="Cover", level=1, page=1), OutlineEntry(title="Introduction", level=1, page=2)]
    result = best_structure(markdown, outline, [], fallback_title="field-guide")
    assert [(h.title, h.level) for h in result.headings] == [("field-guide", 1), ("Cover", 2), ("Introduction", 2)]
    agree(result)


def test_an_outline_that_goes_back_places_entries_on_their_own_pages():
    entries = [SourceEntry(title="Results", level=1, page=5), SourceEntry(title="Introduction", level=1, page=2)]
    page_of = page_of_lines(MARKDOWN)
    assert [page_of[p.start] for p in locate(entries, MARKDOWN)] == [5, 2]


def test_label_mismatch_is_no_match():
    markdown = join_pages(["# T", "## 3.1 Scope\n\ntext\n\n## 4.1 Scope\n\nmore"])
    [placement] = locate([SourceEntry(title="4.1 Scope", level=2, page=2)], markdown)
    assert markdown.split("\n")[placement.start] == "## 4.1 Scope"


def test_chapter_label_on_the_line_above_joins_the_heading():
    markdown = join_pages(["# T\n\n## Preface\n\nx", "## Chapter 4\n\n## Joining a Federation\n\ntext"])
    result = best_structure(markdown, [OutlineEntry(title="Preface", level=1, page=1),
                                       OutlineEntry(title="Joining a Federation", level=1, page=2)], [])
    assert [h.title for h in result.headings] == ["T", "Preface", "Chapter 4 Joining a Federation"]
    agree(result)


def test_a_plain_chapter_label_above_an_outline_title_without_it_stays_text():
    # the layout left "Kapitel 1" a line of text over its heading; the outline names the chapter "Einleitung"
    markdown = join_pages(["# T\n\n## Vorwort\n\nx", "Kapitel 1\n\n## Einleitung\n\ntext"])
    result = best_structure(markdown, [OutlineEntry(title="Vorwort", level=1, page=1),
                                       OutlineEntry(title="Einleitung", level=1, page=2)], [])
    assert [h.title for h in result.headings] == ["T", "Vorwort", "Einleitung"]
    assert "Kapitel 1" in result.markdown.split("## Einleitung")[0]  # (the label stays, above its heading)
    agree(result)


def test_an_appendix_label_above_its_heading_joins_it_when_the_contents_entry_opens_with_its_letter():
    # LaTeX prints "Appendix A" over the appendix's title; its contents page lists "A Differences …" (a letter without
    # a stop: no label, as "A Brief History" may open) under the numbered chapters
    markdown = join_pages(["# Manual\n\nx", "Chapter 1\n\n## Usage\n\ntext",
                           "Appendix A\n\n## Differences between the two\n\ntext",
                           "Appendix B\n\n## A Brief Glossary\n\ntext"])
    contents = [TocEntry(title="1 Usage", level=1, page=2),
                TocEntry(title="A Differences between the two", level=1, page=3),
                TocEntry(title="A Brief Glossary", level=1, page=4)]
    result = best_structure(markdown, [], contents)
    assert [h.title for h in result.headings] == ["Manual", "Chapter 1 Usage",
                                                  "Appendix A Differences between the two", "A Brief Glossary"]
    agree(result)


# --- the contents page

LAYOUT = join_pages([
    "# Manual\n\n## Contents\n\n1 Usage ..... 2",
    "## 1 Usage\n\ntext\n\n### 1.1 Options\n\ntext\n\n## Note on options\n\ntext",
    "### 1.2 Output\n\ntext\n\n2 Errors\n\ntext\n\n### 2.1 Codes\n\ntext",
    "## Index\n\nterms",
])
CONTENTS = [
    TocEntry(title="1 Usage", level=1, page=2), TocEntry(title="1.1 Options", level=2, page=2),
    TocEntry(title="1.2 Output", level=2, page=3), TocEntry(title="2 Errors", level=1, page=3),
    TocEntry(title="2.1 Codes", level=2, page=3),
]


def test_contents_page_adds_missing_headings_and_nests_the_unlisted_ones():
    result = best_structure(LAYOUT, [], CONTENTS)
    assert result.source == "contents"
    assert [(h.title, h.level, h.source) for h in result.headings] == [
        ("Manual", 1, "layout"),
        ("Contents", 2, "layout"),
        ("1 Usage", 2, "contents"),
        ("1.1 Options", 3, "contents"),
        ("Note on options", 4, "layout"),  # within the span the contents covers: under the entry before it
        ("1.2 Output", 3, "contents"),
        ("2 Errors", 2, "contents"),  # a plain line made a heading at its contents level
        ("2.1 Codes", 3, "contents"),
        ("Index", 2, "layout"),  # after the last entry: the layout's own level
    ]
    agree(result)
    assert not words(LAYOUT) - words(result.markdown)


def test_contents_levels_that_disagree_with_the_layout_are_not_used():
    flat = [entry.model_copy(update={"level": 3 - entry.level}) for entry in CONTENTS]  # 1.1 above 1
    result = best_structure(LAYOUT, [], flat)
    assert result.source == "layout" and result.markdown == LAYOUT
    assert result.warnings == ["the contents page was not used: its levels disagree with the layout's"]


def test_level_map_takes_the_most_common_layout_level_and_needs_order():
    assert level_map([(1, 2), (1, 2), (1, 3), (2, 3), (2, 3)]) == {1: 2, 2: 3}
    assert level_map([(1, 3), (2, 3)]) is None
    assert level_map([]) is None
    # levels the contents' own numbering gives ("2." over "2.1"), which the layout sets alike: read apart
    assert level_map([(1, 2), (2, 2), (3, 3)], numbered=True) == {1: 2, 2: 3, 3: 4}
    assert level_map([(1, 3), (2, 2)], numbered=True) is None  # (inverted: still no use)


# groff's -mm: chapters set like their sections, the contents printed after the text
BACK = join_pages([
    "# Library Interface\n\n1. Introduction\n\ntext",
    "## 1.1 Scope\n\ntext\n\n## 2. Usage\n\ntext",
    "## 2.1 Options\n\ntext\n\n### 2.1.1 Flags\n\ntext",
    "#### CONTENTS\n\n1. Introduction ..... 1\n\n1.1 Scope ..... 2",
])
BACK_CONTENTS = [
    TocEntry(title="1. Introduction", level=1, page=1), TocEntry(title="1.1 Scope", level=2, page=2),
    TocEntry(title="2. Usage", level=1, page=2), TocEntry(title="2.1 Options", level=2, page=3),
    TocEntry(title="2.1.1 Flags", level=3, page=3),
]


def test_a_numbered_contents_page_orders_chapters_the_layout_set_alike_and_its_own_title_stands_at_the_top():
    result = best_structure(BACK, [], BACK_CONTENTS, contents_pages=[4])
    assert result.source == "contents"
    assert [(h.title, h.level) for h in result.headings] == [
        ("Library Interface", 1), ("1. Introduction", 2), ("1.1 Scope", 3), ("2. Usage", 2), ("2.1 Options", 3),
        ("2.1.1 Flags", 4), ("CONTENTS", 2)]  # (not under the last section it follows)
    agree(result)


def test_contents_entries_whose_page_goes_back_were_misread():
    contents = [TocEntry(title=t, page=p) for t, p in [("A", 3), ("B", 40), ("C", 5), ("D", 7), ("E", None)]]
    assert [e.title for e in contents_entries(contents)] == ["A", "C", "D", "E"]


def test_outline_entries_without_a_page_are_left_out():
    assert [e.title for e in outline_entries(OUTLINE)] == [e.title for e in OUTLINE[:-1]]


def test_a_contents_entry_not_in_the_text_is_left_out():
    misread = [*CONTENTS[:2], TocEntry(title="Considerations", level=1, page=2), *CONTENTS[2:]]
    result = best_structure(LAYOUT, [], misread)
    assert result.source == "contents" and "Considerations" not in [h.title for h in result.headings]
    assert result.headings == best_structure(LAYOUT, [], CONTENTS).headings


def test_every_line_is_followed_to_its_new_place(outlined):
    old, new = MARKDOWN.split("\n"), outlined.markdown.split("\n")
    for index, text in enumerate(old):
        words_there = set(re.findall(r"\w+", new[outlined.line(index)]))
        if re.findall(r"\w+", text) and not text.startswith("--- end page"):
            assert words_there & set(re.findall(r"\w+", text)), (text, new[outlined.line(index)])
    assert best_structure(MARKDOWN, [], []).line(7) == 7  # unchanged Markdown: the same lines


def test_an_outline_whose_numbers_are_glued_to_their_titles_is_used():
    markdown = join_pages(["# Manual\n\nCover.", "## 1. Overview\n\nText.\n\n### 1.1 Sample Production\n\nMore.",
                           "### 1.2 Parsing\n\nEnd."])
    glued = [OutlineEntry(title="1.Overview", level=1, page=2), OutlineEntry(title="1.1Sample Production", level=2,
             page=2), OutlineEntry(title="1.2Parsing", level=2, page=3)]
    result = best_structure(markdown, glued, [], fallback_title="manual")
    assert result.source == "outline" and result.found == 3


# a book whose chapter titles are printed letter-spaced (the text layer cuts them into pieces), each under its
# number set large on the line above; the outline names them "2: FOUNDATIONS"
SPACED = join_pages([
    "# A Book\n\nBy its author.",
    "2\n\n## FO U N DAT ION S\n\nAs you dive into the corners of the language.",
    "3\n\n## T Y PE S\n\nEvery value has a type.\n\n## Summary\n\nIn short.",
    "4\n\nDE S IG N ING IN T E R FACE S\n\nAn interface is a promise.",
])
SPACED_OUTLINE = [OutlineEntry(title="2: FOUNDATIONS", level=1, page=2),
                  OutlineEntry(title="3: TYPES", level=1, page=3),
                  OutlineEntry(title="4: DESIGNING INTERFACES", level=1, page=4)]


def letters(text: str) -> Counter:
    return Counter("".join(re.findall(r"\w+", text)))


def test_an_outline_whose_titles_are_printed_letter_spaced_is_found_and_reads_as_its_words():
    result = best_structure(SPACED, SPACED_OUTLINE, [], fallback_title="a-book")
    assert result.source == "outline" and result.found == 3
    assert [(h.title, h.level) for h in result.headings if h.source == "outline"] == [
        ("2 FOUNDATIONS", 2), ("3 TYPES", 2), ("4 DESIGNING INTERFACES", 2)]  # (each number's line joined)
    assert letters(result.markdown) == letters(SPACED)  # only spaces moved: no letter lost or added
    agree(result)


# two documents bound in one: the second's bookmarks (its file name, its "Overview") left pointing at page 1,
# over its sections further on; page 1 prints an "Overview" of its own, page 3 prints the second's over its sections
BOUND = join_pages([
    "# Guide\n\n## Overview\n\nWhat the guide covers.",
    "## Nodule Evaluation\n\nSteps.",
    "**Overview**\n\n## Epidemiology\n\nNodules are common.",
    "## Prognosis\n\nMostly good.",
])
BOUND_OUTLINE = [
    OutlineEntry(title="Nodule Evaluation", level=1, page=2),
    OutlineEntry(title="discussion.pdf", level=1, page=1),
    OutlineEntry(title="Overview", level=2, page=1),
    OutlineEntry(title="Epidemiology", level=3, page=3),
    OutlineEntry(title="Prognosis", level=3, page=4),
]


def test_bookmarks_sent_back_to_page_one_stand_over_the_sections_they_open_with_the_outlines_levels():
    result = best_structure(BOUND, BOUND_OUTLINE, [], fallback_title="guide")
    page_of = page_of_lines(result.markdown)
    assert [(h.title, h.level, page_of[h.line]) for h in result.headings if h.source == "outline"] == [
        ("Nodule Evaluation", 2, 2), ("discussion.pdf", 2, 3), ("Overview", 3, 3), ("Epidemiology", 4, 3),
        ("Prognosis", 4, 4)]
    assert not words(BOUND) - words(result.markdown)
    agree(result)


def test_a_contents_line_is_never_where_an_outline_entry_stands():
    """A cover's bookmarks whose titles the cover does not print (a decorative title) are listed on the contents
    page after it, with leader dots: those lines refer to the headings; the entries go to the top of their page."""
    pages = ["A cover drawn with the guide's title in a picture, and the name of the institute below it.",
             "**Table of contents**\n\nField Guide.................................\n\n1\n\n"
             "Introduction...............................2\n\nRivers......................................3",
             "## Introduction\n\nRivers carry water downstream and this guide says how to sample them well.",
             "## Rivers\n\nRivers carry water and sediment downstream; their flow is measured at gauges."]
    bookmarks = [OutlineEntry(title="Field Guide", level=1, page=1), OutlineEntry(title="Introduction", level=1, page=3),
                 OutlineEntry(title="Rivers", level=1, page=4)]
    result = best_structure(join_pages(pages), bookmarks, [], fallback_title="field-guide")
    assert result.source == "outline"
    where = page_of_lines(result.markdown)
    assert [(h.title, where[h.line]) for h in iter_headings(result.markdown)][-3:] == [
        ("Field Guide", 1), ("Introduction", 3), ("Rivers", 4)]
