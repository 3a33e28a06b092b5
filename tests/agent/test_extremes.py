"""Questions for the most or least of something read against a table (engine.agent.extremes)."""

from __future__ import annotations

import pytest

from engine.agent.extremes import Extreme, cell_number, direction, extremes_over, tables
from engine.agent.sentences import asked_kinds, best_sentences, candidates, pick
from engine.index.evidence import Window, analyse
from engine.text import query_terms

SURVEY = ("## Outsourcing\n\n"
          "Many companies now hand whole activities to outside providers, and the survey asked about this.\n\n"
          "Figure 4. Benefit a company has received from outsourcing an activity of its tax department\n\n"
          "100%\n\n50%\n\n0%\n\n"
          "|  | Major | Minor |\n| --- | --- | --- |\n"
          "| Reduced operating costs | 51% | 27% |\n"
          "| Access to the latest technology capabilities | 54% | 26% |\n"
          "| Transfer of risk to one or more third parties | 43% | 35% |\n"
          "| Reallocation of the current team | 40% | 30% |\n\n"
          "Outsourcing partners are often chosen for their reach across many countries.")


def extreme_rows(text: str, sign: int, question: str) -> list[Extreme]:
    """The extreme rows of one page's tables."""
    return list(extremes_over([(0, text)], sign, question)[0].values())


def whole(text: str) -> list[tuple[int, Window]]:
    return [(3, Window(0, len(text), 0, 1.0, 1.0, frozenset(), False, text, ()))]


def answer(question: str, text: str = SURVEY, chosen: list[tuple[int, Window]] | None = None) -> list[str]:
    analysis = analyse(text)
    weights = {t: 1.0 for t in query_terms(question)}
    return [s.text for s in best_sentences(chosen or whole(text), lambda page: (analysis, text), weights, question)]


def picked(question: str, text: str = SURVEY) -> list[str]:
    """The sentences the greedy choice picks (engine.agent.sentences.pick), without what they bring along."""
    analysis = analyse(text)
    pool = candidates(whole(text), lambda page: (analysis, text), asked_kinds(question), question)
    return [s.text for s in pick(pool, {t: 1.0 for t in query_terms(question)}, asked_kinds(question))]


@pytest.mark.parametrize("question, sign", [
    ("Which benefit did the largest share of respondents name?", 1),
    ("What was the top challenge over the next three years?", 1),
    ("Which line of business was reported most often?", 1),
    ("Which region had the fewest offices?", -1),
    ("How many digits must a PIN have at least?", 0),  # "at least" is a bound, not the least of something
    ("What is the maximum message size at most?", 0),
    ("Which top-tier holding companies report?", 0),
    ("Which rate was lowest and which highest?", 0),  # both: no one direction
    ("When was the plant opened?", 0),
])
def test_the_direction_a_question_asks_for(question, sign):
    assert direction(question) == sign


def test_a_cell_states_one_number():
    assert cell_number("61.4%") == 61.4 and cell_number("1,755") == 1755 and cell_number("$2,717 bil.") == 2717e9
    assert cell_number("$.4 bil.") == 0.4e9 and cell_number("(3.5)") == 3.5
    assert cell_number("3M") == 3e6 > cell_number("680K") == 680e3 > cell_number("3932")
    assert cell_number("2021: 45%") is None and cell_number("Reduced costs") is None and cell_number("") is None


def test_the_largest_row_of_the_first_value_column_with_its_caption_over_the_axis_numbers():
    found = extreme_rows(SURVEY, 1, "Which benefit was named most?")
    lines = SURVEY.split("\n")
    assert [lines[row.line] for row in found] == ["| Access to the latest technology capabilities | 54% | 26% |"]
    assert {"benefit", "outsourc", "major", "minor"} <= found[0].context  # the caption over "100%", "50%", "0%"
    smallest = extreme_rows(SURVEY, -1, "Which benefit was named least?")
    assert [lines[row.line] for row in smallest] == ["| Reallocation of the current team | 40% | 30% |"]


def test_the_column_the_question_names_is_compared():
    found = extreme_rows(SURVEY, 1, "Which benefit did most name as a minor benefit?")
    assert [SURVEY.split("\n")[row.line] for row in found] \
        == ["| Transfer of risk to one or more third parties | 43% | 35% |"]


def test_a_total_row_is_no_candidate():
    text = ("| Size | Firms |\n| --- | --- |\n| Small | 2,055 |\n| Medium | 1,035 |\n| Large | 482 |\n"
            "| Total | 3,572 |")
    assert [text.split("\n")[row.line] for row in extreme_rows(text, 1, "Which size has the most firms?")] \
        == ["| Small | 2,055 |"]
    # a last row larger than all the others together is no total unless it is their sum
    sizes = "| Name | Objects |\n| --- | --- |\n| Retina | 3932 |\n| Irma | 10K |\n| Flickr | 680K |\n| World | 3M |"
    assert [row.line for row in extreme_rows(sizes, 1, "Which dataset is largest?")] == [5]


def test_a_header_of_years_is_no_row_but_a_pieces_first_row_of_data_is():
    years = "|  | 2021 | 2023 |\n| --- | --- | --- |\n| Data analytics | 45% | 44% |\n| Tax skills | 40% | 36% |"
    assert [row.line for row in extreme_rows(years, 1, "What was the greatest need?")] == [2]
    piece = "| Private placements | 1,755 | 61.4% |\n| --- | --- | --- |\n| Mutual funds | 1,549 | 54.2% |"
    assert [row.line for row in extreme_rows(piece, 1, "Which business was most common?")] == [0]


def test_tables_are_runs_of_table_lines_a_wrapped_cells_line_between_pieces_of_one_table_included():
    wrapped = ["intro", "| a | 1 |", "| --- | --- |", "", "| b | 2 |", "Receivables", "| c | 3 |"]
    assert tables(wrapped) == [(1, 6)]
    prose = ["| a | 1 |", "A paragraph of text between two tables is longer than a wrapped cell.", "| c | 3 |"]
    assert tables(prose) == [(0, 0), (2, 2)]
    assert tables(["| a | 1 |", "Note", "| c | 3 | 4 |"]) == [(0, 0), (2, 2)]  # (not as many cells)
    assert tables(["| a | 1 |", "### Totals", "| c | 3 |"]) == [(0, 0), (2, 2)]  # (a heading starts another)


def test_the_largest_row_of_a_table_split_into_pieces():
    text = ("Table 2: Lines of business\n\n| Line | Firms | Percent |\n| --- | --- | --- |\n"
            "| Private placements | 1,755 | 61.4% |\n| Mutual funds | 1,549 | 54.2% |\n\n"
            "Broker or dealer retailing:\n\n"
            "| Equity securities | 1,462 | 51.2% |\n| --- | --- | --- |\n| Debt securities | 1,331 | 46.6% |")
    found = extreme_rows(text, 1, "Which line of business was most common?")
    assert [text.split("\n")[row.line] for row in found] == ["| Private placements | 1,755 | 61.4% |"]
    assert found[0].table == (2, 11)


def test_a_superlative_question_picks_the_tables_largest_row_first_whatever_words_it_shares():
    # the row of the third parties shares "third parties" with the question; the largest row shares none of its words
    assert picked("What did the executives see as the greatest benefit of outsourcing to third parties?")[0] \
        == "Access to the latest technology capabilities | 54% | 26%"
    # without the superlative the rows are read by their words as before
    plain = picked("What benefit of outsourcing to third parties did the executives see?")
    assert plain[0] == "Transfer of risk to one or more third parties | 43% | 35%"
    assert "Access to the latest technology capabilities | 54% | 26%" not in plain
    assert "Access to the latest technology capabilities | 54% | 26%" \
        in answer("What did the executives see as the greatest benefit of outsourcing to third parties?")


def test_the_largest_row_joins_a_passage_holding_another_part_of_its_table():
    start = SURVEY.index("| Transfer")
    part = [(3, Window(start, len(SURVEY), 0, 1.0, 1.0, frozenset(), False, SURVEY[start:], ()))]
    texts = answer("What is the greatest benefit of outsourcing?", chosen=part)
    assert "Access to the latest technology capabilities | 54% | 26%" in texts
