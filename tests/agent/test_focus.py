"""What a question asks about, and the near-miss check built on it."""

from __future__ import annotations

import pytest

from engine.agent.focus import asks_for_list, focus_words, missing_focus
from engine.index.text import stem


@pytest.mark.parametrize(("question", "focus"), [
    ("How many employees did the Walt Disney Company have?", ["employees"]),
    ("What royalty rate does Deloitte charge for its platform?", ["royalty"]),  # "rate" is the kind of value
    ("Which SEC commissioners dissented from the interpretation?", ["sec", "commissioners"]),
    ("What is the maximum counter frequency of the XC95288 in GHz?", ["maximum", "counter", "frequency", "ghz"]),
    ("What budget, in US dollars, did respondents report?", ["dollars"]),
    ("Why did spending double?", []),
    ("On what hardware were the methods evaluated?", []),  # after a lead-in the phrase is often a paraphrase
    ("What was Disney+'s monthly subscriber churn rate in the quarter?", ["monthly", "subscriber", "churn"]),
    ("Which release number of the New Jersey compiler did the author use?", ["release"]),  # "of the" ends it
])
def test_focus_words(question, focus):
    assert focus_words(question) == focus


def test_missing_focus_names_what_the_document_never_uses():
    vocabulary = {stem(w) for w in "disney employee revenue organization".split()}
    known = vocabulary.__contains__
    assert missing_focus("How many employees did Disney have?", known) == []
    assert missing_focus("How many subscribers did Disney have?", known) == ["subscribers"]
    assert missing_focus("Which organisations did Disney name?", known) == []  # British spelling of a known word
    assert missing_focus("Why did revenue fall?", known) == []  # no focus phrase: nothing to miss


@pytest.mark.parametrize(("question", "expected"), [
    ("Which four vulnerabilities does the staff assess?", True),
    ("Around which core functional areas do the Reserve Banks structure their budgets?", True),
    ("What practices does the proposal suggest?", True),
    ("What is the largest dataset used?", False),
    ("How many checks were processed?", False),
    ("What were Disney's total assets at December 28, 2024?", False),  # a possessive phrase is not a list
])
def test_asks_for_list(question, expected):
    assert asks_for_list(question) is expected


def test_focus_apart_wants_one_page_holding_every_focus_word():
    from engine.agent.focus import focus_apart

    question = "What annual salary did the Chair receive in 2023?"
    salaries = frozenset(stem(w) for w in "the president annual salary was".split())
    budget = frozenset(stem(w) for w in "annual budget".split())
    pay = frozenset(stem(w) for w in "the chair salary".split())
    assert focus_apart(question, [salaries]) == []  # one page holds "annual" and "salary" together
    assert focus_apart(question, [budget, pay]) == ["annual", "salary"]  # never on the same page
    # one focus word: one of the best pages must use it
    staff = frozenset(stem(w) for w in "disney had 225,000 employees".split())
    assert focus_apart("How many employees did Disney have?", [budget, staff]) == []
    assert focus_apart("How many employees did Disney have?", [budget, pay]) == ["employees"]
    assert focus_apart("Did Disney grow?", [budget]) == []  # no focus words: nothing to look for


@pytest.mark.parametrize("question, alternatives", [
    ("How many employees did Disney have?", [["employees"]]),
    ("How many counterfeit U.S. banknotes were detected in 2023?", [["counterfeit", "banknotes"]]),
    ("How many inputs and outputs does each XC9500 Function Block provide?", [["inputs"], ["outputs"]]),
    ("What is the largest dataset used in the experiments?", [["dataset"]]),  # no superlative or participle
    ("How long is the delay in nanoseconds?", [["nanoseconds"]]),  # only the unit it asks in
    ("Why did costs rise?", []),
    ("According to the Fed's 2023 annual report, how many counterfeit banknotes were found?",
     [["counterfeit", "banknotes"]]),  # a lead-in naming the source is read past
])
def test_counted_alternatives(question, alternatives):
    from engine.agent.focus import counted_alternatives

    assert counted_alternatives(question) == alternatives
