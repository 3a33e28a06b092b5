"""Whether a question asks for a list."""

from __future__ import annotations

import pytest

from engine.index.focus import asks_for_list, listed_head
from engine.index.evidence import asks_for_notes


@pytest.mark.parametrize(("question", "expected"), [
    ("Which four vulnerabilities does the staff assess?", True),
    ("Around which core functional areas do the Reserve Banks structure their budgets?", True),
    ("What practices does the proposal suggest?", True),
    ("What is the largest dataset used?", False),
    ("How many checks were processed?", False),
    ("What were Disney's total assets at December 28, 2024?", False),  # a possessive phrase is not a list
    ("What volume of checks did the Reserve Banks handle?", False),  # the head is "volume", not "checks"
    ("What types of risk does the brief name?", True),
    ("What kinds of requirements and controls did the tailoring remove?", True),  # a noun phrase of five words
    ("What share of the total budget of the program did it spend?", False),  # … whose head is no plural
    ("List the mitigation practices the proposal suggests.", True),  # a request naming plural things
    ("Name the AI-based solution highlighted in the report.", False),
    ("Compare the two definitions: what are the three differences?", True),
    ("What kinds of attacks appear in the specification's summary table?", True),  # kinds of things, no auxiliary
    ("Which categories of activities fall within the program's scope?", True),
    ("What type of licence covers the library?", False),  # one type
    ("Harbour manual, chapter on ferries: list the routes the board runs.", True),  # a request after the topic
    ("Ferry timetable: name of the first boat?", False),  # (a name asked for, not a request to name things)
])
def test_asks_for_list(question, expected):
    assert asks_for_list(question) is expected


@pytest.mark.parametrize(("question", "head"), [
    ("What outcomes can Menhir's reference interpreter display for a sentence?", "outcomes"),
    ("Which four vulnerabilities does the staff assess?", "vulnerabilities"),
    ("What types of risk does the brief name?", "types"),  # (the head before "of")
    ("List the mitigation practices the proposal suggests.", "practices"),
    ("Compare the two definitions: what are the three differences?", "differences"),
    ("What is the largest dataset used?", None),
])
def test_the_head_noun_of_the_things_a_question_asks_for(question, head):
    assert listed_head(question) == head


def test_a_question_about_what_a_document_cites_asks_for_its_notes():
    assert asks_for_notes("Which works does the paper cite on symbolic regression?")
    assert asks_for_notes("What does footnote 12 say about dual registrants?")
    assert asks_for_notes("What reference does the report give for the stress test?")
    assert not asks_for_notes("What are functors in Standard ML?")
    assert not asks_for_notes("What is the pin-to-pin delay?")
