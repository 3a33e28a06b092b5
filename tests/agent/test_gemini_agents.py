"""Gemini answering against the local fake Gemini: routing to a document agent, the compare tool, the trace."""

from __future__ import annotations

import pytest

from engine.agent import ask
from engine.index import load_corpus
from engine.workspace import Workspace
from tests.fakes import gemini as g

pytest.importorskip("llama_index.core")

GUIDE, DECK = "pdfrag-field-guide.pdf", "pdfrag-product-deck.pdf"
DOC_TOOLS = {"search", "summary", "get_document_structure", "get_page_content"}


def declared(request) -> set[str]:
    return {d["name"] for d in g.function_declarations(request)}


def router(request) -> bool:
    return "compare_documents" in declared(request)


def reader(file_name: str | None = None):
    def match(request) -> bool:
        return DOC_TOOLS <= declared(request) and (file_name is None or file_name in g.system_text(request))
    return match


def first(match):
    return lambda request: match(request) and not g.function_responses(request)


def then(match):
    return lambda request: match(request) and bool(g.function_responses(request))


@pytest.fixture(scope="module")
def pages(samples_workspace):
    corpus = load_corpus(Workspace(samples_workspace))
    return {(d.info.file_name, n + 1): text for d in corpus.docs for n, text in enumerate(d.pages)}


def test_routes_to_the_document_agent_and_cites_the_page(samples_workspace, pages, fake_gemini, llm_settings):
    question = "How many volunteer surveyors does the Upper Vale Catchment Trust have?"
    fake_gemini.script(g.function_call("ask_pdfrag_product_deck_pdf", {"question": question}), match=first(router))
    fake_gemini.script(g.function_call("search", {"query": "Upper Vale Catchment Trust volunteer surveyors"}),
                       match=first(reader(DECK)))
    fake_gemini.script(g.text(f"The trust has 42 volunteer surveyors across 18 reaches [{DECK}, p. 7]."),
                       match=then(reader(DECK)))
    fake_gemini.script(g.text(f"The Upper Vale Catchment Trust has 42 volunteer surveyors [{DECK}, p. 7]."),
                       match=then(router))
    answer = ask(samples_workspace, question, provider="gemini", settings=llm_settings)

    assert answer.covered and "42 volunteer surveyors" in answer.answer
    assert [(c.doc, c.page) for c in answer.citations] == [(DECK, 7)]
    assert answer.citations[0].quote in pages[(DECK, 7)] and "42 volunteer surveyors" in answer.citations[0].quote
    assert (answer.retrieved[0].doc, answer.retrieved[0].page) == (DECK, 7)
    requests = fake_gemini.generate_requests
    top = [r for r in requests if router(r)]
    assert declared(top[0]) == {"compare_documents", "ask_pdfrag_product_deck_pdf", "ask_pdfrag_field_guide_pdf"}
    assert all(llm_settings.gemini_key not in str(r.body) for r in requests)
    # the search result reached the document agent, and the agent's answer reached the router
    search_result = g.function_responses([r for r in requests if then(reader(DECK))(r)][0])[0]
    assert search_result["name"] == "search" and "p. 7" in str(search_result["response"])
    assert "42 volunteer surveyors" in str(g.function_responses(top[-1])[0]["response"])
    tools = [(s.tool, s.doc) for s in answer.trace if s.kind == "tool"]
    assert tools == [("ask_pdfrag_product_deck_pdf", DECK), ("search", DECK)]
    assert answer.trace[0].kind == "route"


def test_a_comparison_uses_the_compare_tool_on_sub_questions(samples_workspace, pages, fake_gemini, llm_settings):
    question = "Compare how the field guide and the Riverline deck treat the six-tenths reading."
    fake_gemini.script(g.function_call("compare_documents", {
        "documents": [GUIDE, DECK],
        "sub_questions": ["What is the six-tenths method?", "What does the deck say about the six-tenths reading?"],
    }), match=first(router))
    fake_gemini.script(g.function_call("get_page_content", {"pages": [9]}), match=first(reader(GUIDE)))
    fake_gemini.script(g.function_call("search", {"query": "six-tenths reading"}), match=first(reader(DECK)))
    fake_gemini.script(g.text(f"A single velocity reading at six tenths of the depth estimates the mean "
                              f"velocity [{GUIDE}, p. 9]."), match=then(reader(GUIDE)))
    fake_gemini.script(g.text(f"The form does not let anyone skip the six-tenths reading [{DECK}, p. 8]."),
                       match=then(reader(DECK)))
    fake_gemini.script(g.text(f"The guide explains the method [{GUIDE}, p. 9]; the deck says its form enforces "
                              f"the reading [{DECK}, p. 8]."), match=then(router))
    answer = ask(samples_workspace, question, provider="gemini", settings=llm_settings)

    assert answer.covered
    assert {(c.doc, c.page) for c in answer.citations} == {(GUIDE, 9), (DECK, 8)}
    assert all(c.quote in pages[(c.doc, c.page)] for c in answer.citations)
    steps = [s for s in answer.trace if s.kind == "tool"]
    assert steps[0].tool == "compare_documents"
    assert {(s.tool, s.doc) for s in steps[1:]} == {("get_page_content", GUIDE), ("search", DECK)}
    final = [r for r in fake_gemini.generate_requests if then(router)(r)][0]
    response = str(g.function_responses(final)[0]["response"])
    assert GUIDE in response and DECK in response


def test_a_not_covered_answer_has_no_citations(samples_workspace, fake_gemini, llm_settings):
    fake_gemini.script(g.text("The corpus does not cover this question."), match=first(router))
    answer = ask(samples_workspace, "What GPU does Riverline require?", provider="gemini", settings=llm_settings)
    assert not answer.covered and answer.citations == []


def test_gemini_errors_surface_as_llm_errors(samples_workspace, fake_gemini, llm_settings):
    from engine.llm import LlmError

    fake_gemini.script(g.error(403, "key rejected"), match=first(router))
    with pytest.raises(LlmError):
        ask(samples_workspace, "Anything?", provider="gemini", settings=llm_settings)


def test_cli_ask_with_the_gemini_provider(samples_workspace, fake_gemini, llm_env, monkeypatch, capsys):
    import json

    from engine.cli import main

    for name, value in llm_env.items():
        monkeypatch.setenv(name, value)
    question = "How many volunteer surveyors does the Upper Vale Catchment Trust have?"
    fake_gemini.script(g.function_call("ask_pdfrag_product_deck_pdf", {"question": question}), match=first(router))
    fake_gemini.script(g.function_call("search", {"query": "volunteer surveyors"}), match=first(reader(DECK)))
    fake_gemini.script(g.text(f"42 volunteer surveyors [{DECK}, p. 7]."), match=then(reader(DECK)))
    fake_gemini.script(g.text(f"It has 42 volunteer surveyors [{DECK}, p. 7]."), match=then(router))
    code = main(["ask", question, "--provider", "gemini", "--json", "--data-dir", str(samples_workspace)])
    out, err = capsys.readouterr()
    assert code == 0, err
    payload = json.loads(out)
    assert set(payload) == {"answer", "citations", "passages", "retrieved", "trace"}
    assert [(c["doc"], c["page"]) for c in payload["citations"]] == [(DECK, 7)]
    assert llm_env["GEMINI_API_KEY"] not in out + err


def test_llama_index_stays_off_the_offline_path():
    import subprocess
    import sys

    code = "import sys, engine.agent, engine.cli; print(any(m.startswith('llama_index') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
