"""Heading rules found on blind set 10 (Word instructions and record layouts in Spanish, a Word policy briefing, a
two-column conference paper, a Chinese thesis), each on synthetic lines: a paper's title over its authors and a
teaser figure set under them."""

from __future__ import annotations

from engine.readers.layout import PageLayout
from engine.readers.offline import compose
from tests.readers.test_heading_rules import headings, line, prose


def test_a_papers_title_over_its_authors_and_a_teaser_figure_is_the_title_not_a_label_of_the_figure():
    # the title block (title, centred author names and affiliations) stands right above a figure and its caption:
    # walking up from the caption over short lines set apart from the left edge took the title for a label drawn
    # inside the figure, and the first section heading became the document's top heading over all the others
    first = [line("The Name of the Title of the Paper", 180, 80, size=18, bold=True),
             line("Ann Author", 110, 110, size=12), line("First Institute", 100, 124),
             line("Bea Writer", 270, 110, size=12), line("Second Institute", 260, 124),
             line("Figure 1: A picture under the title block.", 200, 300, size=9, bold=True),
             line("ABSTRACT", 54, 330, size=11, bold=True), *prose(345, 6, x0=54)]
    pages = [PageLayout(1, 612, 792, first, [])]
    for n in range(2, 6):
        pages.append(PageLayout(n, 612, 792, [line(f"{n} SECTION NUMBER {n}", 54, 80, size=11, bold=True),
                                              *prose(95, 20, x0=54)], []))
    found = dict(headings(compose(pages)))
    assert found.get("The Name of the Title of the Paper") == 1
    assert found["ABSTRACT"] == found["2 SECTION NUMBER 2"] == 2
