"""Heading rules found on blind set 9 (two-column journal papers, Portuguese, Italian and French manuals, a report
and a thesis), each on synthetic lines: a section's title set right over its first sub-section's on the first
pages, a running head set larger than the text that alternates between left- and right-hand pages, a contents
titled in another language after long front lists, an index titled in another word than the contents, a numbered
heading on the first pages whose sub-sections follow, a part's label line in Portuguese."""

from __future__ import annotations

from engine.readers.furniture import find_furniture, strip_furniture
from engine.readers.headings import contents_pages
from engine.readers.layout import PageLayout
from engine.readers.offline import compose
from tests.readers.test_heading_rules import headings, line, prose


def _paper(first_page):
    # a paper whose sections (14 pt) and sub-sections (12 pt) recur on every page, each over its text
    pages = [PageLayout(1, 612, 792, first_page, [])]
    for n in range(2, 7):
        pages.append(PageLayout(n, 612, 792, [
            line(f"Section {n} of the paper", 72, 90, size=14), *prose(110, 5),
            line(f"Sub-section {n} of the paper", 72, 190, size=12), *prose(210, 5)], []))
    return pages


def test_a_sections_title_right_over_its_first_sub_sections_on_a_first_page_is_a_heading():
    # the first page's two headings stand stacked, a line apart, with no text between them: the upper one has no
    # prose under it, which on the title block's pages made it a title block's line
    first = [line("A Title of the Paper", 72, 60, size=20, bold=True), *prose(90, 8),
             line("Stacked section of the paper", 72, 210, size=14),
             line("Stacked sub-section of the paper", 72, 230, size=12), *prose(250, 6)]
    found = dict(headings(compose(_paper(first))))
    assert "Stacked section of the paper" in found and "Stacked sub-section of the paper" in found
    assert found["Stacked section of the paper"] < found["Stacked sub-section of the paper"]


def test_a_title_blocks_line_far_above_a_smaller_heading_stays_out():
    # a slide's title set well above the first heading of its text (a deck's page of ratings): no section of its own
    first = [line("A Title of the Paper", 72, 60, size=20, bold=True), *prose(90, 8),
             line("Characteristics of the groups", 72, 210, size=14),
             line("Leading group of the ratings", 72, 290, size=12), *prose(310, 6)]
    found = dict(headings(compose(_paper(first))))
    assert "Leading group of the ratings" in found
    assert "Characteristics of the groups" not in found


def test_a_larger_running_head_that_alternates_between_left_and_right_pages_is_furniture():
    # a journal's running heads, set larger than the text: the page number and the authors on the left-hand pages,
    # the short title on the right-hand ones; the first page has none. Neither repeats on half the pages.
    pages = []
    for n in range(1, 9):
        lines = prose(100, 30)
        if n > 1:
            head = f"{n} A. N. Author and B. Other" if n % 2 == 0 else "A short title of the paper"
            lines = [line(head, 72, 40, size=12, italic=True)] + lines
        pages.append(PageLayout(n, 612, 792, lines, []))
    furniture = find_furniture(pages, 10.0)
    for page in pages[1:]:
        kept, _ = strip_furniture(page, furniture)
        assert all(l.size == 10.0 for l in kept), [l.text for l in kept if l.size != 10.0]
    found = [text for text, _ in headings(compose(pages))]
    assert not any("Author" in text or "short title" in text for text in found)


def test_a_larger_line_on_a_run_of_pages_in_the_margin_is_no_alternating_head():
    # a slide's title repeated atop three pages in a row is not every other page: it stays
    pages = []
    for n in range(1, 9):
        lines = prose(100, 30)
        if n in (3, 4, 5):
            lines = [line("Results of the survey", 72, 40, size=12, italic=True)] + lines
        pages.append(PageLayout(n, 612, 792, lines, []))
    furniture = find_furniture(pages, 10.0)
    kept, _ = strip_furniture(pages[3], furniture)
    assert any(l.text == "Results of the survey" for l in kept)


def _front(n, title=None):
    # a front page: a list of figures, tables, abbreviations or symbols, each entry with its page number
    head = [line(title or f"List of things {n}", 72, 60, size=16, bold=True)]
    return head + [line(f"Entry {k} of the list {'.' * 30} {k + 3}", 72, 90 + 14 * k, x1=540) for k in range(8)]


def test_a_page_titled_as_the_contents_in_another_language_after_long_front_lists_is_the_contents():
    # a Portuguese report: "Sumário" on page 17, after lists of figures, tables, abbreviations and symbols
    pages = [_front(n) for n in range(16)]
    pages.append([line("Sumário", 72, 60, size=16, bold=True)]
                 + [line(f"{k} CAPÍTULO {k} {'.' * 40} {10 + k}", 72, 90 + 14 * k, x1=540) for k in range(1, 9)])
    pages += [prose(60, 40) for _ in range(10)]
    assert 16 in contents_pages(pages)


def test_a_contents_that_began_on_the_first_pages_does_not_run_on_past_them():
    # a chapter's first page right after a contents that ends on page 10, with the chapter's own short contents
    # (its sections and their pages), is no page of the document's contents
    pages = [prose(60, 40)] + [_front(n, "Contents" if n == 1 else f"Contents {n}") for n in range(1, 10)]
    pages.append([line("1 Summary", 72, 60, size=16, bold=True)]
                 + [line(f"1.{k} Section {k} {'.' * 40} {k}", 72, 90 + 14 * k, x1=540) for k in range(1, 9)])
    assert 10 not in contents_pages(pages)


def test_a_contents_title_in_another_word_further_on_is_the_index_and_stays_a_heading():
    # "Contents" at the front and "Índice" (the index, in Portuguese) at the back: the second is no contents of a
    # document printed inside this one, which would repeat the first one's title
    pages = [PageLayout(1, 612, 792, [line("A Report on Things", 72, 80, size=22, bold=True)] + prose(120, 6), [])]
    pages.append(PageLayout(2, 612, 792, [line("Contents", 72, 60, size=16, bold=True)] + [
        line(f"Chapter number {k} {'.' * 40} {k + 2}", 72, 90 + 14 * k, x1=540) for k in range(1, 9)], []))
    for n in range(3, 11):
        pages.append(PageLayout(n, 612, 792, [line(f"Chapter number {n - 2}", 72, 60, size=16, bold=True)]
                                + prose(90, 30), []))
    pages.append(PageLayout(11, 612, 792, [line("Índice", 72, 60, size=16, bold=True)] + prose(90, 30), []))
    found = [text for text, _ in headings(compose(pages))]
    assert "Chapter number 3" in found and "Índice" in found


def test_a_numbered_heading_on_the_first_pages_whose_sub_sections_follow_is_a_heading():
    # a two-column paper's "6 SECTIONS AND LISTS" on page 3 (of the title block's three), over one sentence that
    # wraps to a short second line, then "6.1 Sections": no prose under it, but its number goes on
    def page(n, first):
        return PageLayout(n, 612, 792, [
            line(f"{first} SECTION NUMBER {first}", 72, 90, bold=True),
            line("The sections of this kind are generally the same as in the usual", 72, 110, x1=540),
            line("classes.", 72, 122, x1=120),
            line(f"{first}.1 The first sub-section", 72, 150, bold=True), *prose(170, 8),
            line(f"{first}.2 The second sub-section", 72, 290, bold=True), *prose(310, 8)], [])
    pages = [PageLayout(1, 612, 792, [line("A Title of the Paper", 72, 60, size=20, bold=True)] + prose(100, 30), [])]
    pages += [page(n, n) for n in range(2, 8)]
    found = [text for text, _ in headings(compose(pages))]
    assert "3 SECTION NUMBER 3" in found and "6 SECTION NUMBER 6" in found


def test_a_parts_label_in_portuguese_spanish_or_italian_is_no_heading_of_its_own():
    # abnTeX2's part pages: "Parte I" over the part's title, both at the chapters' size; the label stays text
    def chapter(n, title):
        return PageLayout(n, 612, 792, [line(title, 72, 90, size=20)] + prose(130, 30), [])
    pages = [PageLayout(1, 612, 792, [line("Um Relatório Técnico", 72, 80, size=26, bold=True)] + prose(140, 6), [])]
    pages += [chapter(2, "Resumo do relatório"), chapter(3, "Agradecimentos"), chapter(4, "Introdução ao relatório")]
    pages.append(PageLayout(5, 612, 792, [line("Parte I", 270, 330, size=20),
                                          line("Preparação do relatório", 200, 390, size=20)], []))
    pages += [chapter(6, "1 Resultados de comandos"), chapter(7, "2 Conclusão do relatório")]
    found = [text for text, _ in headings(compose(pages))]
    assert "Preparação do relatório" in found and "Parte I" not in found


def test_a_page_titled_as_the_contents_among_the_last_pages_is_the_contents_but_a_chapters_list_is_not():
    # (groff's -mm prints the contents after the text: its pages are no part of the last section)
    contents = [line("CONTENTS", 72, 60, size=12, bold=True)] \
        + [line(f"{k}. Chapter {k} {'.' * 40} {10 + 5 * k}", 72, 90 + 14 * k, x1=540) for k in range(1, 9)]
    more = [line(f"{k}.1 Section {k} {'.' * 40} {12 + 5 * k}", 72, 90 + 14 * k, x1=540) for k in range(1, 9)]
    pages = [prose(60, 40) for _ in range(60)] + [contents, more, prose(60, 40)]
    assert contents_pages(pages) == {60, 61}
    listed = [line("Chapter 9", 72, 60, size=16, bold=True)] \
        + [line(f"9.{k} Section {k} {'.' * 40} {k}", 72, 90 + 14 * k, x1=540) for k in range(1, 9)]
    assert contents_pages([prose(60, 40) for _ in range(60)] + [listed, prose(60, 40)]) == set()
