"""The general evidence test (engine.agent.support): its signals and the fitted decision."""

from __future__ import annotations

import pytest

from engine.agent.support import THRESHOLD, WEIGHTS, Signals, focus_share, focus_terms, support, supported
from engine.index.evidence import analyse
from engine.text import stem


@pytest.mark.parametrize(("question", "names", "focus"), [
    ("How many employees did the Walt Disney Company have?", {"disney"}, ["employe", "walt"]),
    ("What royalty rate does Deloitte charge for its platform?", {"deloitt"}, ["royalti", "charg"]),  # "rate": a kind
    ("What is the number of employees at Disney?", {"disney"}, ["employe"]),  # "number" says only the kind of value
    ("According to the 2023 report, how many counterfeit banknotes were found?", set(), ["counterfeit", "banknot"]),
    ("Disney's headcount, what was it?", set(), []),  # nothing after the question word
])
def test_focus_terms_are_the_words_after_the_question_word(question, names, focus):
    assert focus_terms(question, names) == focus


def test_focus_share_wants_the_focus_words_together_with_the_value_asked_for():
    page = ("The company employs staff in many countries.\n\nIt had 225,000 staff at year end.\n\n"
            "## Parks\n\nAttendance at domestic parks rose.")
    analysis = analyse(page)
    staff = [stem("staff")]
    assert focus_share(analysis, staff, "number", "How many staff does it have?") == 1.0
    assert focus_share(analysis, staff, None, "Which staff?") == 1.0
    # the words are on the page, but never in a run of sentences with a number
    parks = [stem("domestic"), stem("attendance")]
    assert focus_share(analysis, parks, "number", "By what number did attendance at domestic parks fall?") == 0.0
    assert focus_share(analysis, parks, None, "What happened to attendance at domestic parks?") == 1.0
    assert focus_share(analysis, [], "number", "How many?") == 1.0  # no focus: nothing to miss


def test_the_fitted_test_answers_strong_evidence_and_refuses_none():
    assert list(WEIGHTS) == ["cover", "typed", "focus"] and 0.0 < THRESHOLD < 1.0
    assert supported(Signals(cover=0.8, typed=0.8, focus=1.0))
    assert not supported(Signals(cover=0.0, typed=0.0, focus=0.0))
    # the value asked for and what is asked for, named together, raise the support
    assert support(Signals(0.5, 0.5, 1.0)) > support(Signals(0.5, 0.5, 0.5)) > support(Signals(0.5, 0.5, 0.0))
    assert support(Signals(0.5, 0.5, 0.5)) > support(Signals(0.5, 0.1, 0.5))


def test_a_document_naming_what_is_asked_without_the_value_is_weaker_evidence(samples_workspace):
    from engine.agent import retriever_for
    from engine.agent.support import signals

    retriever = retriever_for(samples_workspace)
    corpus = retriever.corpus

    def found(question: str) -> Signals:
        retrieval = retriever.search(question, k=10)
        return signals(corpus, retrieval, corpus.doc_position(retrieval.hits[0].doc))

    counted = found("How many reaches do the Upper Vale volunteer surveyors cover?")  # "18 reaches"
    never = found("How many coordinators does the Upper Vale Catchment Trust have?")  # no coordinator is counted
    assert counted.focus > never.focus and support(counted) > support(never)
    assert supported(counted) and not supported(never)
