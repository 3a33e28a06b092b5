"""The answering agents' turns sent back to Gemini as they came: thought signatures kept (Gemini 3 refuses
a function call sent back without its signature)."""

from __future__ import annotations

import pytest

pytest.importorskip("llama_index.core")

from google.genai import types  # noqa: E402
from llama_index.core.base.llms.types import ChatMessage, MessageRole  # noqa: E402

from engine.agent import ask  # noqa: E402
from engine.agent.gemini_llm import CONTENT_KEY, GeminiAgentLLM, GeminiToolClient, _message  # noqa: E402
from engine.llm.usage import Usage  # noqa: E402
from tests.fakes import gemini as g  # noqa: E402

DECK = "pdfrag-product-deck.pdf"


def response_with(parts: list[types.Part]) -> types.GenerateContentResponse:
    return types.GenerateContentResponse(candidates=[types.Candidate(
        content=types.Content(role="model", parts=parts), finish_reason=types.FinishReason.STOP)])


def test_a_turn_goes_back_with_its_signature_and_every_part(llm_settings):
    signature = b"\x00\x01opaque-signature\xff"
    response = response_with([
        types.Part(text="Let me look.", thought_signature=b"text-signature"),
        types.Part(function_call=types.FunctionCall(name="search", args={"query": "flow"}),
                   thought_signature=signature),
        types.Part(function_call=types.FunctionCall(name="summary", args={})),
    ])
    message = _message(response)
    assert [block.tool_name for block in message.blocks if hasattr(block, "tool_name")] == ["search", "summary"]
    llm = GeminiAgentLLM(GeminiToolClient(llm_settings, Usage()))
    tool_answer = ChatMessage(role=MessageRole.TOOL, content="p. 3: flow is measured weekly",
                              additional_kwargs={"tool_call_id": message.blocks[1].tool_call_id})
    contents, _ = llm._contents([ChatMessage(role=MessageRole.USER, content="How is flow measured?"), message,
                                 tool_answer])
    sent = contents[1]
    assert sent == response.candidates[0].content  # unchanged: the signatures are bytes again, parts in order
    assert sent.parts[1].thought_signature == signature and sent.parts[0].thought_signature == b"text-signature"
    assert contents[2].parts[0].function_response.name == "search"
    assert CONTENT_KEY in message.additional_kwargs  # JSON, so the agents' memory may serialise it


def test_ask_on_a_gemini_3_model_answers_without_a_400(samples_workspace, fake_gemini, llm_settings):
    question = "How many volunteer surveyors does the Upper Vale Catchment Trust have?"
    router = lambda r: "compare_documents" in {d["name"] for d in g.function_declarations(r)}  # noqa: E731
    reader = lambda r: "search" in {d["name"] for d in g.function_declarations(r)}  # noqa: E731
    fake_gemini.script(g.function_call("ask_pdfrag_product_deck_pdf", {"question": question}),
                       match=lambda r: router(r) and not g.function_responses(r))
    fake_gemini.script(g.function_call("search", {"query": "volunteer surveyors"}),
                       match=lambda r: reader(r) and not g.function_responses(r))
    fake_gemini.script(g.text(f"The trust has 42 volunteer surveyors [{DECK}, p. 7]."),
                       match=lambda r: reader(r) and bool(g.function_responses(r)))
    fake_gemini.script(g.text(f"It has 42 volunteer surveyors [{DECK}, p. 7]."),
                       match=lambda r: router(r) and bool(g.function_responses(r)))
    assert llm_settings.gemini_model.startswith("gemini-3")
    answer = ask(samples_workspace, question, provider="gemini", settings=llm_settings)
    assert answer.covered and [(c.doc, c.page) for c in answer.citations] == [(DECK, 7)]
    assert fake_gemini.signature_refusals == 0
    sent_back = [p for r in fake_gemini.generate_requests for c in r.body["contents"] if c["role"] == "model"
                 for p in c["parts"] if "functionCall" in p]
    assert len(sent_back) == 2 and all(p.get("thoughtSignature") for p in sent_back)


def test_the_fake_refuses_a_dropped_signature(fake_gemini, llm_settings):
    """The control: what the agents did before (rebuilding the turn from its blocks) is refused."""
    from engine.llm.clients import LlmClients
    from engine.llm.errors import LlmError

    fake_gemini.script(g.function_call("search", {"query": "flow"}))

    async def work(session):
        client = session.gemini._client
        first = await client.models.generate_content(model="gemini-3.8-flash", contents="How is flow measured?")
        call = first.function_calls[0]
        rebuilt = types.Content(role="model", parts=[types.Part(function_call=call)])  # signature dropped
        history = [types.Content(role="user", parts=[types.Part(text="How is flow measured?")]), rebuilt,
                   types.Content(role="user", parts=[types.Part.from_function_response(name="search",
                                                                                       response={"r": 1})])]
        await session.gemini.generate_content(history, types.GenerateContentConfig())

    with pytest.raises(LlmError, match="HTTP 400: Function call is missing a thought_signature"):
        LlmClients(llm_settings.model_copy(update={"max_attempts": 1})).run(work, Usage())
    assert fake_gemini.signature_refusals == 1
