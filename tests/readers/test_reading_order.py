"""XY-cut reading order: columns left first, tables row by row, title blocks beside prose."""

from __future__ import annotations

from engine.readers.layout import Line
from engine.readers.reading_order import xy_cut


def _line(text: str, x0: float, y0: float, x1: float, size: float = 10.0) -> Line:
    return Line(text=text, x0=x0, y0=y0, x1=x1, y1=y0 + size, size=size, bold=False, italic=False, block=0)


PROSE = "a line of ordinary prose that fills the column"


def test_two_columns_under_a_full_width_title():
    lines = [_line("A title that spans the whole width of the page here", 50, 40, 550, 16)]
    lines += [_line(f"L{k} {PROSE}", 50, 80 + 14 * k, 290) for k in range(5)]
    lines += [_line(f"R{k} {PROSE}", 310, 80 + 14 * k, 550) for k in range(5)]
    ordered, split = xy_cut(lines)
    assert split
    assert [l.text.split()[0] for l in ordered] == ["A"] + [f"L{k}" for k in range(5)] + [f"R{k}" for k in range(5)]


def test_table_is_read_row_by_row():
    lines = []
    for row in range(4):
        lines += [_line(f"Label {row}", 50, 100 + 14 * row, 120), _line(f"{row}1.5", 300, 100 + 14 * row, 330),
                  _line(f"{row}2.5", 400, 100 + 14 * row, 430)]
    ordered, split = xy_cut(lines)
    assert not split
    assert [l.text for l in ordered[:3]] == ["Label 0", "01.5", "02.5"]


def test_big_title_beside_a_quote_is_read_before_it():
    lines = [_line("Data and new regulations", 43, 232, 388, 30), _line("drive tax transformation", 43, 268, 361, 30)]
    lines += [_line(f"Q{k} a quotation set in a narrower column", 504, 217 + 18 * k, 800, 14) for k in range(4)]
    ordered, _ = xy_cut(lines)
    assert [l.text.split()[0] for l in ordered[:2]] == ["Data", "drive"]


def test_row_cells_with_baselines_apart_stay_in_their_row():
    """A financial table whose figures sit half a point above their labels (as in Disney's balance
    sheet): each label is followed by its own figures, not by the next row's."""
    lines = []
    for row, label in enumerate(["Cash and cash equivalents", "Receivables, net", "Inventories", "Total assets"]):
        top = 130 + 12.7 * row
        lines += [_line(label, 71, top + 0.5, 180, 9.8), _line(f"{row},486", 464, top, 490, 9.8),
                  _line(f"{row},002", 537, top, 563, 9.8)]
    ordered, _ = xy_cut(lines)
    assert [l.text for l in ordered] == [l.text for l in lines]
