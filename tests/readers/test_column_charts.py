"""Column charts drawn as vectors that print their bars' values, read as tables (engine.readers.charts): a category
a row, a series (or a panel) a column; charts without printed values and shaded tables stay as
they were."""

from __future__ import annotations

import pymupdf

from engine.markdown import render_table
from engine.readers.charts import number
from engine.readers.offline import OfflineReader

GREEN, BLUE = (0.5, 0.76, 0.26), (0.57, 0.85, 0.97)
BASE = 400.0  # the plots' baseline
SCALE = 2.0  # points a unit of value


def _bar(page, x, bottom, value, fill=GREEN, width=24.0):
    page.draw_rect(pymupdf.Rect(x, bottom - value * SCALE, x + width, bottom), color=None, fill=fill)
    return bottom - value * SCALE


def _centred(page, text, middle, baseline, size=7.0):
    width = pymupdf.get_text_length(text, fontname="helv", fontsize=size)
    page.insert_text((middle - width / 2, baseline), text, fontname="helv", fontsize=size)


def _ticks(page, x1, bottom, step, count):
    for k in range(count):
        text = f"{k * step}%"
        width = pymupdf.get_text_length(text, fontname="helv", fontsize=7)
        page.insert_text((x1 - width, bottom - k * step * SCALE + 2), text, fontname="helv", fontsize=7)


def _legend(page, keys, y=BASE + 40):
    """A legend under the plot: a small key of each series' colour, its name beside it."""
    for x, fill, name in keys:
        page.draw_rect(pymupdf.Rect(x, y, x + 5, y + 5), color=None, fill=fill)
        page.insert_text((x + 8, y + 5), name, fontname="helv", fontsize=7)


def _caption_and_body(page, caption):
    page.insert_text((72, 72), "The survey asked every firm which of these it had already done in full this year.",
                     fontname="helv", fontsize=10)
    page.insert_text((72, 200), caption, fontname="helv", fontsize=10)


def _tables(tmp_path, doc):
    path = tmp_path / "chart.pdf"
    doc.save(path)
    result = OfflineReader().read(path)
    return [b for b in result.blocks[0].blocks if b.kind == "table"], result.markdown


def test_a_column_chart_with_its_values_over_the_bars_reads_as_a_table_of_categories_and_values(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    _caption_and_body(page, "Figure 2. Challenges over the next three years")
    _ticks(page, 90, BASE, 25, 3)
    labels = [["Complying with", "tax laws"], ["Integrating", "tax data"], ["Limited", "expertise"],
              ["Obtaining", "budget"]]
    for k, (value, label) in enumerate(zip([43, 36, 23, 18], labels)):
        x = 110 + 60 * k
        top = _bar(page, x, BASE, value)
        _centred(page, f"{value}%", x + 12, top - 3)
        for j, text in enumerate(label):
            _centred(page, text, x + 12, BASE + 12 + 9 * j)
    tables, markdown = _tables(tmp_path, doc)
    assert [row for row in tables[0].cells[1:]] == [["Complying with tax laws", "43%"], ["Integrating tax data", "36%"],
                                                    ["Limited expertise", "23%"], ["Obtaining budget", "18%"]]
    assert "25%" in markdown.split("Figure 2.")[1]  # (the axis's scale stays, as text)
    assert markdown.index("Figure 2.") < markdown.index("| Complying with tax laws | 43% |")
    assert tables[0].lines and all(line.bbox[1] > 200 for line in tables[0].lines)  # (boxes to highlight)


def test_stacked_bars_take_their_series_names_from_the_legend_keys_of_their_colours(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    _caption_and_body(page, "Figure 4. Benefit of outsourcing")
    for k, (major, some) in enumerate([(54, 26), (51, 27), (46, 34)]):
        x = 110 + 80 * k
        middle = _bar(page, x, BASE, major, GREEN, 30)
        top = _bar(page, x, middle, some, BLUE, 30)
        _centred(page, f"{major}%", x + 15, (BASE + middle) / 2 + 3)
        _centred(page, f"{some}%", x + 15, (middle + top) / 2 + 3)
        _centred(page, ["Access to technology", "Reduced costs", "Expertise"][k], x + 15, BASE + 12)
    _legend(page, [(150, GREEN, "Major/significant"), (260, BLUE, "Some")])
    tables, _ = _tables(tmp_path, doc)
    assert tables[0].cells == [["", "Major/significant", "Some"], ["Access to technology", "54%", "26%"],
                               ["Reduced costs", "51%", "27%"], ["Expertise", "46%", "34%"]]
    assert render_table(tables[0]).startswith("|  | Major/significant | Some |")


def test_bars_of_two_colours_side_by_side_are_one_category_with_a_value_for_each_series(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    _caption_and_body(page, "Figure 7. Greatest needs for skills, 2021 vs. 2023")
    for k, (old, new) in enumerate([(45, 44), (40, 36), (43, 29)]):
        x = 110 + 90 * k
        for j, (value, fill) in enumerate([(old, GREEN), (new, BLUE)]):
            top = _bar(page, x + 20 * j, BASE, value, fill, 20)
            _centred(page, f"{value}%", x + 20 * j + 10, top - 3)
        _centred(page, ["Data analytics", "Tax technical", "Transformation"][k], x + 20, BASE + 12)
    _legend(page, [(150, GREEN, "2021"), (220, BLUE, "2023")])
    tables, _ = _tables(tmp_path, doc)
    assert tables[0].cells == [["", "2021", "2023"], ["Data analytics", "45%", "44%"], ["Tax technical", "40%", "36%"],
                               ["Transformation", "43%", "29%"]]


def test_panels_stacked_under_one_row_of_categories_are_one_table_and_a_zero_bar_drawn_as_nothing_counts(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    _caption_and_body(page, "Figure 3. Actions fully implemented, by company size")
    names = [["Reducing", "headcount"], ["Integrated", "processes"], ["ERP system"], ["Training", "programs"]]
    for k, label in enumerate(names):
        for j, text in enumerate(label):
            _centred(page, text, 122 + 60 * k, 230 + 9 * j)
    for base, values, key in [(400.0, [0, 34, 46, 55], "US$5B+"), (520.0, [2, 27, 14, 39], "US$1B - $5B")]:
        page.draw_rect(pymupdf.Rect(60, base - 45, 65, base - 40), color=None, fill=GREEN)
        page.insert_text((68, base - 40), key, fontname="helv", fontsize=7)
        for k, value in enumerate(values):
            x = 110 + 60 * k
            top = _bar(page, x, base, value) if value else base
            _centred(page, f"{value}%", x + 12, top - 3)
    tables, _ = _tables(tmp_path, doc)
    assert [t.cells for t in tables] == [
        [["", "US$5B+", "US$1B - $5B"], ["Reducing headcount", "0%", "2%"], ["Integrated processes", "34%", "27%"],
         ["ERP system", "46%", "14%"], ["Training programs", "55%", "39%"]]]


def test_a_table_of_shaded_cells_and_a_chart_without_printed_values_are_not_read_as_charts(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    _caption_and_body(page, "Table 1. Filings by year")
    for k, (year, count) in enumerate([("2019", "7,588"), ("2020", "361"), ("2021", "34,146")]):
        x = 110 + 80 * k
        page.draw_rect(pymupdf.Rect(x, 300, x + 60, 316), color=None, fill=BLUE)  # (shaded cells, one height)
        _centred(page, count, x + 30, 311)
        _centred(page, year, x + 30, 330)
    for k, value in enumerate([40, 20, 30]):  # (bars, but no values printed on them)
        _bar(page, 110 + 60 * k, 560, value)
        _centred(page, ["North", "South", "East"][k], 122 + 60 * k, 572)
    path = tmp_path / "plain.pdf"
    doc.save(path)
    result = OfflineReader().read(path)
    assert not any(b.kind == "table" and b.cells and b.cells[0] and b.cells[0][0] == "" for b in result.blocks[0].blocks)
    assert "7,588" in result.markdown and "North" in result.markdown


def test_printed_values_read_as_numbers():
    assert [number(t) for t in ["43%", "(1.2)", "$1,250", "−4", "2.5x", "n/a"]] == [43, -1.2, 1250, -4, 2.5, None]
