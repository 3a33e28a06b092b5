"""Layout lines: fragments on one baseline merge; overlapping glyph runs are one word."""

from __future__ import annotations

from engine.readers.layout import Line, _merge_baseline


def _line(text: str, x0: float, x1: float, y1: float = 100.0, size: float = 10.0) -> Line:
    return Line(text=text, x0=x0, y0=y1 - size, x1=x1, y1=y1, size=size, bold=False, italic=False, block=0)


def test_overlapping_runs_join_without_a_space():
    # TeX fonts kerned into separate runs: "argumen" and "ts," overlap by 0.4 pt
    merged = _merge_baseline([_line("argumen", 205.8, 250.1), _line("ts,", 249.7, 262.1),
                              _line("nor", 267.0, 283.9)])
    assert [l.text for l in merged] == ["arguments, nor"]


def test_runs_with_a_gap_keep_their_space():
    merged = _merge_baseline([_line("1.", 50.0, 58.0), _line("Introduction", 62.0, 120.0)])
    assert [l.text for l in merged] == ["1. Introduction"]

