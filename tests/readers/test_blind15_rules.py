"""Rules found on blind set 15 (datasheets, standards and reports made with Word, FrameMaker and InDesign), each on
synthetic lines."""

from __future__ import annotations

from engine.readers.layout import PageLayout
from engine.readers.offline import compose
from tests.readers.test_heading_rules import headings, line, prose


def _datasheet(second_row=True, pages=8):
    # a FrameMaker datasheet's running header in two rows: the maker and the document's status in the top margin,
    # then the short title and the part number set large (14 pt) just under it, above the text's first heading
    out = []
    for n in range(1, pages + 1):
        lines = [line("Acme Semiconductors", 50, 66, size=9), line("Product specification", 458, 66, size=9)]
        if second_row:
            lines += [line("48 x 84 pixels matrix LCD controller", 60, 104, size=14),
                      line("XK8544", 473, 104, size=14)]
        lines += [line(f"{n} SECTION NUMBER {n}", 50, 145, bold=True)] + prose(165, 30, x0=50)
        out.append(PageLayout(n, 595, 842, lines, []))
    return out


def test_a_running_headers_second_row_under_the_top_margin_is_furniture():
    titles = [t for t, _ in headings(compose(_datasheet()))]
    assert "XK8544" not in titles
    assert "48 x 84 pixels matrix LCD controller" not in titles[1:]  # (the first page's may be the title)
    assert "3 SECTION NUMBER 3" in titles


def test_a_large_first_heading_under_the_margin_that_changes_from_page_to_page_stays_a_heading():
    # each page opens, right under the running header's one row, with its own section set large
    pages = _datasheet(second_row=False)
    for n, page in enumerate(pages, start=1):
        page.lines.insert(2, line(f"Chapter {n} of the datasheet", 60, 104, size=14))
    titles = [t for t, _ in headings(compose(pages))]
    assert all(f"Chapter {n} of the datasheet" in titles for n in range(4, 9))  # (pages 1-3: the title block)
