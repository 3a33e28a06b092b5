"""Heading rules found on blind set 11 (a two-column guideline laid out in a page-layout program, a short word
processor report, DocBook and pandoc manuals), each on synthetic lines."""

from __future__ import annotations

from engine.readers.layout import PageLayout
from engine.readers.offline import compose
from tests.readers.test_heading_rules import headings, line, prose


def _stacked_header_pages(count):
    # a landscape page (612 high, top margin 61 pt) whose running header is set large over two lines: the first
    # ends inside the top margin, the second starts in it and reaches below it; a section's heading (13 pt bold)
    # and its text under the header
    pages = []
    for n in range(1, count + 1):
        lines = [line("Clinical Guidelines Version 2", 188, 42, size=18, bold=True),
                 line("Disease of the Gland", 188, 63, size=18, bold=True),
                 line(f"Section Number {n} Of The Text", 24, 100, size=13, bold=True), *prose(115, 20, x0=24)]
        pages.append(PageLayout(n, 792, 612, lines, []))
    return pages


def test_a_running_header_stacked_over_two_large_lines_is_furniture_on_every_page():
    found = headings(compose(_stacked_header_pages(6)))
    titles = [t for t, _ in found]
    assert "Disease of the Gland" not in titles  # (it started in the margin and reached below it: kept, a heading
    # over each page's sections)
    assert all(f"Section Number {n} Of The Text" in titles for n in range(1, 7))
    levels = {lvl for t, lvl in found[1:] if t.startswith("Section Number")}  # (the first is taken as the title)
    assert len(levels) == 1


def test_a_large_line_at_the_top_of_a_few_pages_only_is_no_running_header():
    # the same heading at the top of two pages of six is a heading, not furniture
    pages = _stacked_header_pages(6)
    for page in pages:
        page.lines[:] = page.lines[2:]
    for n in (1, 4):
        pages[n].lines.insert(0, line("Disease of the Gland", 188, 63, size=18, bold=True))
    titles = [t for t, _ in headings(compose(pages))]
    assert titles.count("Disease of the Gland") == 2
