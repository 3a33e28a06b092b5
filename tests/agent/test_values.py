"""A question's own numbers are never the value it asks for (engine.agent.values)."""

from __future__ import annotations

import pytest

from engine.agent.sentences import values_of
from engine.agent.support import focus_share, nearness
from engine.agent.values import holds_value, is_own, new_values, numerals
from engine.index.evidence import analyse, has_type
from engine.text import stem


def test_numerals_are_whole_numbers_with_thousands_commas_dropped():
    assert numerals("1,411 banks in 2023, up 5.1 percent") == {"1411", "2023", "5.1"}


@pytest.mark.parametrize(("value", "question", "own"), [
    ("1998", "Who won the 1998 world cup?", True),
    ("June 1998", "Who won the 1998 world cup?", True),  # the question's year with a month is still its year
    ("June 18, 1998", "Who won the 1998 world cup?", False),  # a day the question does not state
    ("20", "How many banks joined in 2023?", False),  # not a substring match: 20 is not 2023
    ("1,411", "Were there 1411 member banks?", True),
    ("three", "Which three risks are named?", True),
    ("four", "Which three risks are named?", False),
])
def test_a_value_is_the_questions_own_when_it_states_only_the_questions_numbers(value, question, own):
    assert is_own(value, question) is own


def test_new_values_leave_out_the_questions_own_numbers():
    question = "How many teams played in the 1998 world cup?"
    text = "The June 1998 world cup had 32 teams in 10 stadiums."
    assert [m.group(0) for m in new_values("number", text, question)] == ["32", "10"]
    assert not new_values("date", text, question)  # "June 1998" is the question's own year
    assert not holds_value("number", "The world cup of 1998.", question)
    assert holds_value("name", "Zinedine Zidane scored twice.", "Who scored in the final?")  # as has_type reads it


def test_the_questions_year_beside_the_focus_is_not_the_value_near_it():
    question = "When was the 2019 interpretation adopted?"
    year_only = analyse("The interpretation of June 2019 applies to advisers.")
    assert nearness(year_only, [stem("interpretation")], "date", question) == 0.0
    assert focus_share(year_only, [stem("interpretation")], "date", question) == 0.0
    dated = analyse("The interpretation of June 5, 2019 applies to advisers.")
    assert nearness(dated, [stem("interpretation")], "date", question) > 0.5
    assert focus_share(dated, [stem("interpretation")], "date", question) == 1.0


def test_a_sentence_offers_only_values_the_question_does_not_state():
    question = "How many member banks were there at year-end 2023?"
    assert values_of(frozenset({"number"}), "At year-end 2023, 1,411 banks were members.", question) \
        == {("number", "1,411")}
    assert values_of(frozenset({"number"}), "At year-end 2023, banks were members.", question) == frozenset()


def test_a_question_asking_how_long_takes_a_span_written_with_an_article():
    text = "Within a week of the survey, copy the data."
    assert [m.group(0) for m in new_values("number", text, "Within how long should the data be copied?")] \
        == ["a week"]
    assert not new_values("number", text, "How many surveys are copied?")  # no span of time asked for


def test_the_day_and_year_of_a_date_are_no_amount():
    question = "How many employees did the company have at the end of the quarter?"
    text = "The company reported earnings for its quarter ended December 28, 2024, with 225,000 employees."
    assert [m.group(0) for m in new_values("number", text, question)] == ["225,000"]
    assert [m.group(0) for m in new_values("date", text, "When did the quarter end?")] == ["December 28, 2024"]



def test_a_year_alone_is_no_amount_but_is_a_date():
    # (a caption over a table of two years' results states no amount: "for fiscal 2025 and 2024:")
    question = "What were the company's revenues in the first quarter of fiscal 2025?"
    text = "The following table summarizes first quarter revenue and operating income for fiscal 2025 and 2024:"
    assert new_values("number", text, question) == []
    assert [m.group(0) for m in new_values("number", "Revenues rose to $24.7 billion in 2024.", question)] \
        == ["$24.7"]
    assert [m.group(0) for m in new_values("date", text, "When was the plan adopted?")] == ["2025", "2024"]

@pytest.mark.parametrize("text, values", [
    ("REJECT_AFTER_TIME = 180s", ["180s"]),  # a unit set close to its number
    ("a delay of 500ms, then 10s", ["500ms", "10s"]),
    ("a 3.5GHz core and 64KiB of cache", ["3.5GHz", "64KiB"]),
    ("the 1st and the 22nd entry", []),  # an ordinal is no amount
])
def test_a_number_with_its_unit_set_close_is_a_value(text, values):
    assert [m.group(0) for m in new_values("number", text, "After how long is a key rejected?")] == values


def test_a_headings_own_number_states_no_value():
    from engine.index.evidence import units

    heading, text = units("## 2.12.1 Rekeying\n\nThe key is rejected after 180 seconds.")
    assert heading.heading and heading.value_text == "Rekeying"
    assert not holds_value("number", heading.value_text, "After how long is the key rejected?")
    assert text.value_text == text.text  # (prose keeps its numbers)
    assert units("## 4 Results")[0].value_text == "Results"
    assert units("2.1 million people attended.")[0].value_text.startswith("2.1 million")
    assert units("## 4.5 hours")[0].value_text == "4.5 hours"  # a slide's figure set as its heading


@pytest.mark.parametrize("text, values", [
    ("the Consumer Data Right (CDR)59 empowers consumers", []),  # a footnote's number after a bracket
    ("as the Commission explained in its advice.55 It was 4.5", ["4.5"]),  # … after a word's full stop
    ("more than 250 comment letters in response to the Request.41", ["250"]),
    ("the report (p.26) counts 12 firms", ["12"]),
    ("the implementation [11] runs 4 nodes; see [7, 12, 15] and [3,4]", ["4"]),  # a numbered citation in brackets
    ("version 4.5 and rate 4.1% in Q4, 17 of them", ["4.5", "4.1%", "17"]),  # a decimal, a number after a space
    ("the formula (1.2) is satisfiable, and (3) needs 40 (12%) of them", ["40", "12%"]),  # a label alone in brackets
    ("it reached (1.2 million) users", ["1.2 million"]),  # (an amount in brackets stays one)
])
def test_a_footnotes_or_citations_number_states_no_amount(text, values):
    assert [m.group(0) for m in new_values("number", text, "How many?")] == values
    assert has_type("number", text, "How many?") == bool(values)


@pytest.mark.parametrize("text, values", [
    ("consumers share their data with accredited third parties", []),  # an ordinal, not a fraction
    ("in the first quarter of fiscal 2025", []),  # (the question's own year)
    ("about a third of respondents; two-thirds of banks; three quarters of firms", ["a third", "two-thirds",
                                                                                   "three quarters"]),
    ("half of them", ["half"]),
])
def test_a_fraction_written_in_words_is_an_amount_but_an_ordinal_is_not(text, values):
    assert [m.group(0) for m in new_values("number", text, "How many in fiscal 2025?")] == values
