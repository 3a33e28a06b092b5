"""Table rows as evidence (engine.agent.rows): the row whose labels name what is asked and that holds a value."""

from __future__ import annotations

from engine.agent.rows import (as_labels, cell_spans, cells, definitions, is_label, is_row, label_stems, labelled,
                               lent_stems, row_nearness)
from engine.index.evidence import analyse
from engine.text import stem

DATASHEET = ("| | PartA | PartB |\n| --- | --- | --- |\n| Macrocells | 36 | 288 |\n"
             "| fCNT (MHz)(1) | 100 | 92.2 |\n\n1. fCNT = Operating frequency for 16-bit counters.\n\n"
             "Speed = not defined here either.")


def test_a_row_is_a_line_of_cells():
    assert is_row("| Net income | 40.1 | 4.0 |") and is_row("Net income | 40.1 | 4.0")
    assert not is_row("Net income was 40.1 million.")
    assert cells("| Net income | 40.1 | 4.0 |") == ["Net income", "40.1", "4.0"]


def test_a_note_defining_a_label_lends_its_words_to_the_rows_carrying_it():
    defined = definitions(analyse(DATASHEET))
    assert {stem("operating"), stem("frequency"), "counter"} <= defined["fcnt"]
    assert {stem("operating"), stem("frequency")} <= lent_stems("fCNT (MHz)(1) | 100 | 92.2", defined)
    assert lent_stems("Macrocells | 36 | 288", defined) == frozenset()


def test_label_cells_name_rather_than_state():
    question = "What is the net income for 2023?"
    assert label_stems("Net income | 40.1 | 2023", "number", question, {}) == {"net", stem("income")}
    assert is_label("fCNT (MHz)(1)", "number", question) and is_label("Net income", "number", question)
    assert not any(is_label(cell, "number", question) for cell in ("40.1", "$3.1 billion", "12%", "(93) 304"))


def test_the_row_naming_what_is_asked_and_holding_a_value_is_near_however_far_its_cells():
    question = "What is the maximum operating frequency of PartB?"
    focus = {stem("operating"), stem("frequency")}
    defined = definitions(analyse(DATASHEET))
    assert row_nearness("fCNT (MHz)(1) | 100 | 92.2", focus, "number", question, defined) == 1.0
    assert row_nearness("Macrocells | 36 | 288", focus, "number", question, defined) == 0.0  # names something else
    assert row_nearness("Operating frequency | - | -", focus, "number", question, defined) == 0.0  # no value
    assert row_nearness("fCNT (MHz)(1) | 100 | 92.2", focus, None, question, defined) == 0.0  # no value asked for


def test_a_window_of_table_rows_stating_a_number_is_a_valued_row():
    from engine.agent.offline import valued_row
    from engine.index.evidence import Window

    text = "Intro line.\n\n| fCNT (MHz) | 100 | 92.2 |\n| Notes | none | none |"
    start = text.index("fCNT")
    end = text.index(" |\n| Notes")
    row = Window(start, end, 1, 1.0, 1.0, frozenset({"fcnt"}), False, text[start:end], ())
    assert valued_row(text, row)
    notes = Window(text.index("Notes"), len(text) - 2, 1, 1.0, 1.0, frozenset(), False, "Notes | none | none", ())
    assert not valued_row(text, notes)  # a row without a number
    prose = Window(0, 11, 1, 1.0, 1.0, frozenset(), False, "Intro line.", ())
    assert not valued_row(text, prose)


HEADER = "| Description | Type | Status | Start Date | End Date | Percentage Reduction |"
ROW = "| Reduce 66% of fatalities by 2040. | Target | Target Met |  | 2039-12-31 | 66 |"


def test_cell_spans_are_the_cells_text_without_pipes_or_padding():
    assert [ROW[a:b] for a, b in cell_spans(ROW)] == cells(ROW)
    assert [line[a:b] for line in ["a | b \\| c | d"] for a, b in cell_spans(line)] == ["a", "b \\| c", "d"]


def test_a_row_reads_as_its_columns_names_with_their_values():
    parts = labelled(ROW, HEADER)
    assert parts is not None and [c for c, _ in parts] == [0, 1, 2, 4, 5]  # (no empty Start Date)
    assert as_labels(parts, HEADER) == ("Reduce 66% of fatalities by 2040. Type: Target, Status: Target Met, End Date: "
                                        "2039-12-31, Percentage Reduction: 66")  # (a cell of prose reads alone)
    revenue = "| Revenues | $24.7 | 5% |"
    assert as_labels(labelled(revenue, "| | Q1 2025 | Change |") or [], "| | Q1 2025 | Change |") == \
        "Revenues, Q1 2025: $24.7, Change: 5%"
    assert labelled(revenue, "| | 2025 | 2024 |") is not None  # years name columns
    status = ROW.index("Target Met")
    assert labelled(ROW, HEADER, used=[(status, status + 6)]) == [(2, "Target")]  # only the parts used
    assert labelled(ROW, "| Description | Type |") is None  # the header names other columns
    assert labelled("| a | 1 |", "| | Value |") is None  # one column named: nothing to label
    assert labelled("| Net income | 40.1 |", "| Investment income | 2.0 |") is None  # a row of data on top
    assert labelled(ROW, "| A sentence of prose set in the top cell of a table | b | c | d | e | f |") is None


def test_a_unit_note_over_the_first_column_names_no_column():
    header = "| ($ in millions) | 2024 | 2023 | Change |"
    row = "| Domestic | $ 2,206 | $ 2,210 | — % |"
    assert as_labels(labelled(row, header) or [], header) == "Domestic, 2024: $ 2,206, 2023: $ 2,210, Change: — %"


def test_a_first_row_coded_as_the_rows_under_it_is_data_not_a_header():
    # a chart of characters without a header row: Markdown sets its first row as the header, and an answer labelled
    # every row with it ("U+19B5: U+19B6, …") and left its first character out
    from engine.agent.rows import first_row_of_data

    first, row = "| U+19B5 | ᦵ◌ | NEW TAI LUE VOWEL SIGN E |", "| U+19B6 | ᦶ◌ | NEW TAI LUE VOWEL SIGN AE |"
    assert first_row_of_data(first, row)
    assert not first_row_of_data("| Year | Sales |", "| 2023 | 5.1 |")  # (a name over a value)
    assert not first_row_of_data("| 200000 | | 25 |", "| 150000 | | 20 |")  # (a chart's axis numbers: no code)
    assert not first_row_of_data("| Pin | Function |", "| A1 | Clock |")  # (a name over a code)


def test_a_cell_ending_in_a_full_stop_and_a_bracketed_remark_is_a_sentence():
    # an option table without a header row ('"a" | Compute the (ordinary) arithmetic mean. [default]' over '"g" | …'):
    # its first row is data, not the columns' names every other row was labelled with ('"a": "g", …')
    from engine.agent.rows import sentence_cell
    from engine.agent.sentences import table_header_of

    assert sentence_cell("Compute the (ordinary) arithmetic mean. [default]")
    assert sentence_cell("The routine returns zero on success. (See Section 2.)")
    assert not sentence_cell("Total revenue of the segment (in millions)")  # (a column's name with its unit)
    assert not sentence_cell("Compute the mean.")  # (too short to tell)
    page = ('| "a" | Compute the (ordinary) arithmetic mean. [default] |\n| --- | --- |\n'
            '| "g" | Compute the geometric mean. |\n| "h" | Compute the harmonic mean. |')
    analysis = analyse(page)
    row = next(i for i, u in enumerate(analysis.units) if "geometric" in u.text)
    assert table_header_of(analysis, page, row) is None
    named = '| Option | Meaning of the option in words |\n| --- | --- |\n| "g" | Compute the geometric mean. |'
    analysis = analyse(named)
    row = next(i for i, u in enumerate(analysis.units) if "geometric" in u.text)
    assert table_header_of(analysis, named, row) is not None
