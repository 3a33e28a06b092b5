"""A table row whose first cell wraps to two lines and whose other cells are printed between those lines (level
with the middle of the row): the second line is the cell's rest, not a line of its own that splits the table."""

from __future__ import annotations

import pymupdf
import pytest

from engine.readers.offline import OfflineReader
from engine.readers.tables import Table
from tests.readers.test_heading_rules import line

ROWS = [("Private Placements of Securities", None, "1,755", "61.4%"),
        ("Non-Exchange Member Arranging For Transactions in Listed", "Securities by Exchange Member", "797", "27.9%"),
        ("Investment Advisory Services", None, "691", "24.2%"),
        ("Broker or Dealer Selling Interests in Mortgages or Other", "Receivables", "232", "8.1%"),
        ("Trading Securities for Own Account", None, "613", "21.5%")]


def _row(values_at: float) -> Table:
    table = Table()
    table.add_row([line("Non-Exchange Member Arranging For Transactions in Listed", 82, 327, size=12, x1=382),
                   line("797", 431, values_at, size=12, x1=452), line("27.9%", 490, values_at, size=12, x1=524)])
    return table


def test_a_line_under_the_first_cell_with_the_rows_values_printed_between_is_that_cells_rest():
    table = _row(values_at=334)
    assert table.absorb([line("Securities by Exchange Member", 93, 341, size=12, x1=252)], 18.0)
    assert table.rows[0][0].text == "Non-Exchange Member Arranging For Transactions in Listed Securities by Exchange Member"


def test_a_line_under_a_row_whose_values_stand_level_with_its_first_line_may_start_the_next_row():
    table = _row(values_at=327)  # (values on the first line: nothing says the line below is not a row of its own)
    assert not table.absorb([line("Securities by Exchange Member", 93, 341, size=12, x1=252)], 18.0)


def test_figures_alone_between_are_no_cells_rest():
    table = Table()  # a chart's axis: its title level between two tick numbers
    table.add_row([line("600000", 60, 300, size=8, x1=84), line("I/Os", 40, 307, size=8, x1=56)])
    assert not table.absorb([line("400000", 60, 314, size=8, x1=84)], 12.0)


def test_a_table_with_wrapped_first_cells_reads_as_one_table(tmp_path):
    path = tmp_path / "lines.pdf"
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((82, 80), "Table 2: Lines of business as of December 2017", fontsize=12, fontname="tibo")
    page.insert_text((82, 110), "Line of Business", fontsize=12, fontname="tibo")
    page.insert_text((420, 110), "Number", fontsize=12, fontname="tibo")
    page.insert_text((486, 110), "Percent", fontsize=12, fontname="tibo")
    y = 130.0
    for first, rest, number, share in ROWS:
        middle = y + 7 if rest else y
        page.insert_text((82, y), first, fontsize=12, fontname="tiro")
        if rest:
            page.insert_text((93, y + 14), rest, fontsize=12, fontname="tiro")
        page.insert_text((431, middle), number, fontsize=12, fontname="tiro")
        page.insert_text((490, middle), share, fontsize=12, fontname="tiro")
        y += 30 if rest else 16
    doc.save(path)
    result = OfflineReader().read(path)
    tables = [b for p in result.blocks for b in p.blocks if b.kind == "table"]
    assert len(tables) == 1
    assert [row[0] for row in tables[0].cells] == ["Line of Business"] + [
        f"{first} {rest}" if rest else first for first, rest, _, _ in ROWS]


def _statement(path, groups, *, title_between=False, header_size=8, group_gap=0.0):
    """A borderless statement: a header row, then groups of rows each under a label line of its own, rows 14 pt
    apart (a label after the first `group_gap` more under the row before it); with `title_between`, each group under
    its own title line and a repeat of the header instead."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 60), "Pro forma balance sheet, December 31, 2023 and 2022", fontsize=11, fontname="hebo")
    page.insert_text((72, 100), "Pro forma balance sheet text above the table, a sentence long enough to read as "
                     "prose.", fontsize=8, fontname="helv")
    y = 130.0

    def row(cells, size=8):
        nonlocal y
        for x, text in zip((97, 300, 380), cells):
            page.insert_text((x, y), text, fontsize=size, fontname="helv")
        y += 14

    row(("Item", "2023", "2022"), header_size)
    for k, (label, rows) in enumerate(groups):
        y += group_gap if k else 0.0
        page.insert_text((97, y), label, fontsize=8, fontname="helv")
        y += 14
        if title_between:
            row(("Item", "2023", "2022"))
        for cells in rows:
            row(cells)
    doc.save(path)


GROUPS = [("Short-term assets (note 1)", [("Imputed investments", "556.3", "539.0"), ("Receivables", "47.2", "44.0")]),
          ("Long-term assets (note 2)", [("Premises", "94.7", "103.2"), ("Total long-term assets", "447.6", "429.5")])]


@pytest.mark.parametrize("header_size", [8, 6.5])  # (a header row often set smaller than the rows)
def test_a_label_line_between_a_tables_rows_is_a_row_of_the_table(tmp_path, header_size):
    _statement(tmp_path / "s.pdf", GROUPS, header_size=header_size)
    tables = [b for p in OfflineReader().read(tmp_path / "s.pdf").blocks for b in p.blocks if b.kind == "table"]
    assert len(tables) == 1
    assert tables[0].cells == [["Item", "2023", "2022"], ["Short-term assets (note 1)", "", ""],
                               ["Imputed investments", "556.3", "539.0"], ["Receivables", "47.2", "44.0"],
                               ["Long-term assets (note 2)", "", ""], ["Premises", "94.7", "103.2"],
                               ["Total long-term assets", "447.6", "429.5"]]


@pytest.mark.parametrize("gap, tables", [(8.0, 1), (30.0, 2)])
def test_a_label_over_a_groups_rows_set_further_apart_is_a_row_of_the_table_within_two_row_pitches(tmp_path, gap,
                                                                                                   tables):
    _statement(tmp_path / "s.pdf", GROUPS, group_gap=gap)  # (22 pt under the row before it: one table; 44 pt: two)
    found = [b for p in OfflineReader().read(tmp_path / "s.pdf").blocks for b in p.blocks if b.kind == "table"]
    assert len(found) == tables
    assert ["Long-term assets (note 2)", "", ""] in found[0].cells if tables == 1 else \
        "Long-term assets (note 2)" not in found[0].text


def test_a_title_over_a_repeated_header_starts_another_table(tmp_path):
    _statement(tmp_path / "s.pdf", GROUPS, title_between=True)
    blocks = [b for p in OfflineReader().read(tmp_path / "s.pdf").blocks for b in p.blocks]
    assert [b.text for b in blocks if b.kind == "paragraph" and "note" in b.text] == \
        ["Short-term assets (note 1)", "Long-term assets (note 2)"]


def test_a_first_cell_begun_on_the_line_above_its_row_is_one_cell(tmp_path):
    groups = [("Long-term assets (note 2)", [("Premises", "94.7", "103.2")])]
    path = tmp_path / "s.pdf"
    _statement(path, groups)
    doc = pymupdf.open(path)
    page = doc[0]
    page.insert_text((97, 130 + 14 * 3), "Leases, leasehold improvements, and long-term", fontsize=8, fontname="helv")
    for x, text in zip((105, 300, 380), ("prepayments", "72.5", "80.3")):
        page.insert_text((x, 130 + 14 * 3 + 10), text, fontsize=8, fontname="helv")
    doc.save(tmp_path / "t.pdf")
    tables = [b for p in OfflineReader().read(tmp_path / "t.pdf").blocks for b in p.blocks if b.kind == "table"]
    assert len(tables) == 1
    assert tables[0].cells[-1] == ["Leases, leasehold improvements, and long-term prepayments", "72.5", "80.3"]


def test_a_currency_sign_opening_the_next_columns_amount_goes_with_that_amount(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((52, 100), "($ in millions)", fontsize=11, fontname="helv")
    for x, text in ((385, "2024"), (455, "2023"), (525, "Change")):
        page.insert_text((x, 100), text, fontsize=11, fontname="helv")
    for k, (label, this, last, change) in enumerate([("Revenues", "24,690", "23,549", "5 %"),
                                                     ("Income before income taxes", "3,660", "2,871", "27 %")]):
        y = 117 + 17 * k
        page.insert_text((52, y), label, fontsize=11, fontname="helv")
        page.insert_text((348.4, y), "$", fontsize=11, fontname="helv")
        page.insert_text((409 - pymupdf.get_text_length(this, "helv", 11), y), this, fontsize=11, fontname="helv")
        page.insert_text((421.9, y), "$", fontsize=11, fontname="helv")  # (12.9 pt after the amount: a word's reach)
        page.insert_text((482.5 - pymupdf.get_text_length(last, "helv", 11), y), last, fontsize=11, fontname="helv")
        page.insert_text((530, y), change, fontsize=11, fontname="helv")
    doc.save(tmp_path / "f.pdf")
    tables = [b for p in OfflineReader().read(tmp_path / "f.pdf").blocks for b in p.blocks if b.kind == "table"]
    assert [row[:3] for row in tables[0].cells[1:]] == [["Revenues", "$ 24,690", "$ 23,549"],
                                                        ["Income before income taxes", "$ 3,660", "$ 2,871"]]


def _earnings_table(tmp_path, rows) -> list[list[str]]:
    """Rows of (label, this year, last year, change) set as an earnings release sets them: the amount and the
    currency sign of the next column's amount in one text run ("24,690   $ "), the change a column further on."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for x, text in ((52, "($ in millions)"), (385, "2024"), (455, "2023"), (525, "Change")):
        page.insert_text((x, 100), text, fontsize=11, fontname="helv")
    for k, (label, this, last, change) in enumerate(rows):
        y = 117 + 17 * k
        page.insert_text((52, y), label, fontsize=11, fontname="helv")
        page.insert_text((348.4, y), "$", fontsize=11, fontname="helv")
        run = f"{this}   $ "  # (one run: no piece ends between the amount and the sign)
        page.insert_text((409 - pymupdf.get_text_length(this, "helv", 11), y), run, fontsize=11, fontname="helv")
        page.insert_text((482.5 - pymupdf.get_text_length(last, "helv", 11), y), last, fontsize=11, fontname="helv")
        page.insert_text((520, y), change, fontsize=11, fontname="helv")  # (3.4 ems after the amount before it)
    doc.save(tmp_path / "r.pdf")
    tables = [b for p in OfflineReader().read(tmp_path / "r.pdf").blocks for b in p.blocks if b.kind == "table"]
    assert len(tables) == 1
    return tables[0].cells[1:]


def test_a_currency_sign_set_in_one_run_with_the_amount_before_it_goes_with_the_next_amount(tmp_path):
    cells = _earnings_table(tmp_path, [("Revenues", "24,690", "23,549", "5 %"),
                                       ("Income before income taxes", "3,660", "2,871", "27 %")])
    assert cells == [["Revenues", "$ 24,690", "$ 23,549", "5 %"],
                     ["Income before income taxes", "$ 3,660", "$ 2,871", "27 %"]]


def test_a_number_a_columns_gap_before_a_percentage_set_apart_from_its_sign_is_its_own_cell(tmp_path):
    cells = _earnings_table(tmp_path, [("Revenues", "24,690", "23,549", "5 %"), ("Diluted EPS", "1.40", "1.04", "35 %")])
    assert cells[1] == ["Diluted EPS", "$ 1.40", "$ 1.04", "35 %"]


def test_amounts_and_the_signs_of_the_next_columns_in_one_run_are_cut_at_each_sign(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for x, text in ((52, "($ in millions)"), (300, "Pre-Tax"), (370, "Tax"), (430, "After-Tax")):
        page.insert_text((x, 100), text, fontsize=11, fontname="helv")
    for k, (label, run) in enumerate([("As reported", "3,660   $ (1,016)   $ 2,644"),
                                      ("Excluding certain items", "4,200   $ (896)   $ 3,304")]):
        y = 117 + 17 * k
        page.insert_text((52, y), label, fontsize=11, fontname="helv")
        page.insert_text((280, y), "$", fontsize=11, fontname="helv")
        page.insert_text((300, y), run, fontsize=11, fontname="helv")  # (one run: amounts and the signs between)
    doc.save(tmp_path / "eps.pdf")
    tables = [b for p in OfflineReader().read(tmp_path / "eps.pdf").blocks for b in p.blocks if b.kind == "table"]
    assert [row for t in tables for row in t.cells if row[0] != "($ in millions)"] == [
        ["As reported", "$ 3,660", "$ (1,016)", "$ 2,644"], ["Excluding certain items", "$ 4,200", "$ (896)", "$ 3,304"]]
