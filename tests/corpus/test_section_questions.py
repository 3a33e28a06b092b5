"""A question that restates a section's title, over the real corpus: the section's opening answers it."""

from __future__ import annotations

from engine.agent import ask
from engine.workspace import Workspace


def test_a_title_set_in_bold_opens_its_section_and_its_long_first_paragraph_is_read_whole(corpus_workspace):
    # the IIF-Deloitte paper sets "What is Open Data?" as a bold line its outline lists, over a 771-character paragraph
    answer = ask(Workspace(corpus_workspace), "What is open data?")
    assert [(c.doc, c.page) for c in answer.citations] == [("gx-iif-open-data.pdf", 6)]
    assert answer.answer.startswith("What is Open Data?\n\nOpen Banking, Open Finance and Open Data do not have legal")
    assert "Open Data goes further to encompass non-financial information" in answer.answer
    assert "How is it manifesting" not in answer.answer  # (the room ends after the long paragraph)
    assert any(step.detail.startswith("restates a section's title") for step in answer.trace)


def test_what_the_thing_a_document_is_named_by_is_is_answered_by_its_own_account(corpus_workspace):
    answer = ask(Workspace(corpus_workspace), "What is the XC9500?")  # no section restates it: the data sheet's account
    assert [(c.doc, c.page) for c in answer.citations] == [("XC9500_CPLD_Family.pdf", 1)]
    assert answer.answer.startswith("The XC9500 CPLD family provides advanced in-system programming")
    assert any(step.detail.startswith("asks what the thing a document is named by is") for step in answer.trace)
