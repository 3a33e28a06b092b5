"""Heading rules found on blind set 9 (two-column journal papers, Portuguese, Italian and French manuals, a report
and a thesis), each on synthetic lines: a running head set larger than the text that alternates between left-
and right-hand pages."""

from __future__ import annotations

from engine.readers.furniture import find_furniture, strip_furniture
from engine.readers.layout import PageLayout
from engine.readers.offline import compose
from tests.readers.test_heading_rules import headings, line, prose


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
