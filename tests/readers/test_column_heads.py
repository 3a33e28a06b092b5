"""Column heads set over a table's columns in lines of their own (engine.readers.column_heads): read as the heads of
those columns, not as paragraphs over the table."""

from __future__ import annotations

import pymupdf
import pytest

from engine.readers.column_heads import head_text, pieces
from engine.readers.offline import OfflineReader
from tests.readers.test_heading_rules import line


def _right(page, x1: float, y: float, text: str, size: float = 11) -> None:
    page.insert_text((x1 - pymupdf.get_text_length(text, "helv", size), y), text, fontsize=size, fontname="helv")


def _tables(path) -> list:
    return [b for p in OfflineReader().read(path).blocks for b in p.blocks if b.kind == "table"]


def _paragraphs(path) -> list[str]:
    return [b.text for p in OfflineReader().read(path).blocks for b in p.blocks if b.kind == "paragraph"]


def _release(tmp_path, above: list[list[tuple[float, str]]]):
    """A results table whose first row names its columns ("($ in millions) | 2024 | 2023 | Change") under the lines
    `above` (each its pieces as (x, text) on one baseline) set 14 pt apart over it, the last just over the row."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((52, 60), "The following table summarizes first quarter results:", fontsize=11, fontname="helv")
    for k, pieces_of_line in enumerate(above):
        for x, text in pieces_of_line:
            page.insert_text((x, 120 - 14 * (len(above) - k)), text, fontsize=11, fontname="helv")
    page.insert_text((52, 120), "($ in millions)", fontsize=9, fontname="helv")
    for x1, text in ((392, "2024"), (465, "2023"), (544, "Change")):
        _right(page, x1, 120, text)
    for k, (label, this, last, change) in enumerate([("Revenues", "24,690", "23,549", "5 %"),
                                                     ("Income before income taxes", "3,660", "2,871", "27 %"),
                                                     ("Free cash flow", "739", "886", "(17) %")]):
        y = 137 + 17 * k
        page.insert_text((52, y), label, fontsize=11, fontname="helv")
        _right(page, 409, y, this)
        _right(page, 482.5, y, last)
        _right(page, 549, y, change)
    doc.save(tmp_path / "release.pdf")
    return tmp_path / "release.pdf"


def test_heads_over_the_names_of_the_columns_go_before_those_names(tmp_path):
    # "December 28," and "December 30," are set 10 pt apart, closer than a column gap: read as one line, then cut
    path = _release(tmp_path, [[(384.4, "Quarter Ended")], [(349.3, "December 28,"), (429, "December 30,")]])
    [table] = _tables(path)
    assert table.cells[0] == ["($ in millions)", "December 28, 2024", "December 30, 2023", "Change"]
    assert table.cells[1] == ["Revenues", "24,690", "23,549", "5 %"]
    # what both dates share stays over the table, as a caption would
    assert _paragraphs(path)[-1] == "Quarter Ended" and not any("December" in text for text in _paragraphs(path))


def test_heads_over_a_row_of_values_make_a_row_of_their_own_with_the_label_under_them(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((200, 60), "(unaudited; $ in millions)", fontsize=8, fontname="helv")
    page.insert_text((489, 90), "Quarter Ended", fontsize=8, fontname="helv")  # (centred over both columns)
    page.insert_text((434, 103), "December 28,", fontsize=8, fontname="helv")
    page.insert_text((507, 103), "December 30,", fontsize=8, fontname="helv")
    _right(page, 465, 111, "2024", 8)
    _right(page, 538, 111, "2023", 8)
    page.insert_text((52, 124), "OPERATING ACTIVITIES", fontsize=8, fontname="helv")
    for k, (label, this, last) in enumerate([("Net income", "2,644", "2,151"), ("Deferred income taxes", "25", "(51)"),
                                             ("Income taxes", "577", "(1,104)")]):
        y = 136 + 11 * k
        page.insert_text((70, y), label, fontsize=8, fontname="helv")
        _right(page, 488, y, this, 8)
        _right(page, 560, y, last, 8)
    doc.save(tmp_path / "flows.pdf")
    [table] = _tables(tmp_path / "flows.pdf")
    assert table.cells[:3] == [["", "December 28, 2024", "December 30, 2023"], ["OPERATING ACTIVITIES", "", ""],
                               ["Net income", "2,644", "2,151"]]
    # (a note of the unit is no head; what the columns share stays over the table)
    assert _paragraphs(tmp_path / "flows.pdf") == ["(unaudited; $ in millions)", "Quarter Ended"]


@pytest.mark.parametrize("text, x", [
    ("Accounts 397", 400),  # a lone line over one column: a wrapped cell's rest, not the columns' heads
    ("Figure 2: Results by quarter", 360),  # a caption
    ("these results were restated.", 350),  # a sentence's end
])
def test_what_heads_no_columns_stays_over_the_table(tmp_path, text, x):
    path = _release(tmp_path, [[(x, text)]])
    [table] = _tables(path)
    assert table.cells[0] == ["($ in millions)", "2024", "2023", "Change"]
    assert text in _paragraphs(path)


def test_a_line_joined_from_pieces_reads_piece_by_piece_and_what_may_head_a_column():
    joined = line("December 28, December 30,", 349.3, 100, x1=485.5)
    joined.pieces = (("December 28,", 349.3, 412.0), ("December 30,", 422.8, 485.5))
    assert [(p.text, p.x0, p.x1) for p in pieces(joined)] == [("December 28,", 349.3, 412.0),
                                                              ("December 30,", 422.8, 485.5)]
    joined.text = "December 28, December 30, 2024"  # (text no longer the pieces': read whole)
    assert pieces(joined) == [joined]
    assert head_text("Quarter Ended") and head_text("2024") and head_text("FY 2025")
    assert not head_text("39") and not head_text("($K)") and not head_text("Table 3: Sites") \
        and not head_text("as of year end.") and not head_text("One two three four five six seven")


def _statement(tmp_path, heads: list[tuple[float, float, str]], labels: list[str]):
    """A statement of two columns of values (8 pt): `heads` (x, baseline, text) over them, `labels` (lines at the
    left margin) between the heads and the first row."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((200, 60), "(unaudited; $ in millions)", fontsize=8, fontname="helv")
    for x, y, text in heads:
        page.insert_text((x, y), text, fontsize=8, fontname="helv")
    y = 114
    for text in labels:
        y += 11
        page.insert_text((52, y), text, fontsize=8, fontname="helv")
    for k, (label, this, last) in enumerate([("Cash and cash equivalents", "5,486", "6,002"),
                                             ("Receivables, net", "13,767", "12,729"), ("Inventories", "2,018", "2,022")]):
        page.insert_text((70, y + 12 + 11 * k), label, fontsize=8, fontname="helv")
        _right(page, 488, y + 12 + 11 * k, this, 8)
        _right(page, 560, y + 12 + 11 * k, last, 8)
    doc.save(tmp_path / "statement.pdf")
    return tmp_path / "statement.pdf"


def test_label_lines_under_the_heads_are_rows_of_one_cell(tmp_path):
    dates = [(440, 103, "December 28,"), (507, 103, "September 28,"), (452, 111, "2024"), (524, 111, "2024")]
    [table] = _tables(_statement(tmp_path, dates, ["ASSETS", "Current assets"]))
    assert table.cells[:4] == [["", "December 28, 2024", "September 28, 2024"], ["ASSETS", "", ""],
                               ["Current assets", "", ""], ["Cash and cash equivalents", "5,486", "6,002"]]


def test_heads_over_names_of_the_value_columns_alone_go_before_those_names(tmp_path):
    # the first row names the two columns of values only (no cell in the first column), "Quarter Ended" over both
    heads = [(489, 92, "Quarter Ended"), (440, 103, "December 28,"), (507, 103, "December 30,"), (452, 111, "2024"),
             (524, 111, "2023")]
    path = _statement(tmp_path, heads, [])
    [table] = _tables(path)
    assert table.cells[:2] == [["", "December 28, 2024", "December 30, 2023"],
                               ["Cash and cash equivalents", "5,486", "6,002"]]
    assert _paragraphs(path) == ["(unaudited; $ in millions)", "Quarter Ended"]
