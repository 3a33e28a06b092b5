"""Rules found on blind set 15 (datasheets, standards and reports made with Word, FrameMaker and InDesign), each on
synthetic lines."""

from __future__ import annotations

from engine.readers.layout import PageLayout
from tests.readers.test_heading_rules import heading_titles, line, prose


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
    titles = heading_titles(_datasheet())
    assert "XK8544" not in titles
    assert "48 x 84 pixels matrix LCD controller" not in titles[1:]  # (the first page's may be the title)
    assert "3 SECTION NUMBER 3" in titles


def test_a_large_first_heading_under_the_margin_that_changes_from_page_to_page_stays_a_heading():
    # each page opens, right under the running header's one row, with its own section set large
    pages = _datasheet(second_row=False)
    for n, page in enumerate(pages, start=1):
        page.lines.insert(2, line(f"Chapter {n} of the datasheet", 60, 104, size=14))
    titles = heading_titles(pages)
    assert all(f"Chapter {n} of the datasheet" in titles for n in range(4, 9))  # (pages 1-3: the title block)


def _band(table_labels):
    # a report's band of three columns at the same baselines: two columns of prose, then a table whose labels
    # stand beside a column of figures far to the right (the band's widest gap lies between labels and figures)
    from engine.readers.reading_order import xy_cut
    cols, labels, figures = [[], []], [], []
    for k in range(8):
        base = 100 + 13 * k
        cols[0].append(line(f"left column prose line {k} that runs on and on", 34, base, size=9, x1=260))
        cols[1].append(line(f"middle column prose line {k} that runs on too", 293, base, size=9, x1=530))
        labels.append(line(table_labels[k % len(table_labels)], 555, base, size=9, x1=705))
        figures.append(line(f"{k + 10}%", 1000, base, size=9, x1=1015))
    ordered, _ = xy_cut(cols[0] + cols[1] + labels + figures)
    return [l.text for l in ordered], cols


def test_columns_of_prose_beside_a_table_of_figures_are_read_column_by_column():
    texts, cols = _band(["Freedom of association, all sites", "Health and safety findings, 2022"])
    assert texts[:8] == [l.text for l in cols[0]]


def test_a_table_of_short_cells_beside_its_figures_stays_in_rows():
    # the same band with no prose: short names, short values, figures: read row by row as before
    from engine.readers.reading_order import xy_cut
    rows = [[line(f"{k}. name_{k}", 72, 100 + 13 * k, size=9, x1=160),
             line(f"{k}.5 info quantity", 200, 100 + 13 * k, size=9, x1=330),
             line(f"{k}.0", 500, 100 + 13 * k, size=9, x1=515)] for k in range(8)]
    ordered, _ = xy_cut([cell for row in rows for cell in row])
    assert [l.text for l in ordered][:3] == [cell.text for cell in rows[0]]
