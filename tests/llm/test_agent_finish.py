"""Why Gemini stopped is honoured by the answering agents: a clear answer, and no citation it did not use."""

from __future__ import annotations

import pytest

pytest.importorskip("llama_index.core")

from engine.agent import ask  # noqa: E402
from engine.agent.gemini_llm import STOPPED_PREFIX, TRUNCATED_NOTE  # noqa: E402
from tests.fakes import gemini as g  # noqa: E402

DECK = "pdfrag-product-deck.pdf"
QUESTION = "How many volunteer surveyors does the Upper Vale Catchment Trust have?"


def router(request) -> bool:
    return "compare_documents" in {d["name"] for d in g.function_declarations(request)}


def reader(request) -> bool:
    return "search" in {d["name"] for d in g.function_declarations(request)}


def first(match):
    return lambda request: match(request) and not g.function_responses(request)


def then(match):
    return lambda request: match(request) and bool(g.function_responses(request))


def via_the_deck(fake, final):
    """The router asks the deck's agent, which searches, then answers; the router's last turn is `final`."""
    fake.script(g.function_call("ask_pdfrag_product_deck_pdf", {"question": QUESTION}), match=first(router))
    fake.script(g.function_call("search", {"query": "volunteer surveyors"}), match=first(reader))
    fake.script(g.text(f"The trust has 42 volunteer surveyors [{DECK}, p. 7]."), match=then(reader))
    fake.script(final, match=then(router))


@pytest.mark.parametrize("reason", ["SAFETY", "RECITATION", "PROHIBITED_CONTENT"])
def test_a_stopped_answer_says_why_and_cites_nothing(samples_workspace, fake_gemini, llm_settings, reason):
    via_the_deck(fake_gemini, g.finish(reason))
    answer = ask(samples_workspace, QUESTION, provider="gemini", settings=llm_settings)
    assert answer.answer.startswith(STOPPED_PREFIX) and f"({reason})" in answer.answer
    assert answer.citations == [] and not answer.covered
    assert answer.retrieved  # what the agents read is still shown


def test_a_malformed_function_call_is_asked_again_once(samples_workspace, fake_gemini, llm_settings):
    malformed = g.parts([{"text": "From the library:"}], "MALFORMED_FUNCTION_CALL")
    fake_gemini.script(malformed, malformed, match=first(router))
    answer = ask(samples_workspace, QUESTION, provider="gemini", settings=llm_settings)
    assert len([r for r in fake_gemini.generate_requests if first(router)(r)]) == 2
    assert "From the library" not in answer.answer and "(MALFORMED_FUNCTION_CALL)" in answer.answer
    assert answer.citations == []
    fake_gemini.clear()
    fake_gemini.script(malformed, match=first(router))  # once only: the second try answers
    via_the_deck(fake_gemini, g.text(f"It has 42 volunteer surveyors [{DECK}, p. 7]."))
    answer = ask(samples_workspace, QUESTION, provider="gemini", settings=llm_settings)
    assert answer.covered and [(c.doc, c.page) for c in answer.citations] == [(DECK, 7)]


def test_an_empty_answer_is_not_dressed_with_citations(samples_workspace, fake_gemini, llm_settings):
    via_the_deck(fake_gemini, g.text(""))
    answer = ask(samples_workspace, QUESTION, provider="gemini", settings=llm_settings)
    assert answer.answer.startswith(STOPPED_PREFIX) and answer.citations == []


def test_a_cut_off_answer_keeps_its_text_and_only_the_pages_it_names(samples_workspace, fake_gemini, llm_settings):
    via_the_deck(fake_gemini, g.text(f"It has 42 volunteer surveyors [{DECK}, p. 7] and also", finish="MAX_TOKENS"))
    answer = ask(samples_workspace, QUESTION, provider="gemini", settings=llm_settings)
    assert answer.answer.endswith(TRUNCATED_NOTE) and "42 volunteer surveyors" in answer.answer
    assert [(c.doc, c.page) for c in answer.citations] == [(DECK, 7)]
    fake_gemini.clear()
    via_the_deck(fake_gemini, g.text("It has several volunteer", finish="MAX_TOKENS"))
    answer = ask(samples_workspace, QUESTION, provider="gemini", settings=llm_settings)
    assert answer.citations == []  # it names no page: none is guessed for it


def test_a_stopped_document_agent_lets_the_router_answer_from_the_rest(samples_workspace, fake_gemini, llm_settings):
    fake_gemini.script(g.function_call("ask_pdfrag_product_deck_pdf", {"question": QUESTION}), match=first(router))
    fake_gemini.script(g.finish("SAFETY"), match=first(reader))
    fake_gemini.script(g.text("The corpus does not cover this question."), match=then(router))
    answer = ask(samples_workspace, QUESTION, provider="gemini", settings=llm_settings)
    told = str(g.function_responses([r for r in fake_gemini.generate_requests if then(router)(r)][0])[0])
    assert STOPPED_PREFIX in told and "(SAFETY)" in told
    assert not answer.covered and answer.citations == []
