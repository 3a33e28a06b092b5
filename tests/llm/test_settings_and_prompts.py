"""LlmSettings from the environment (keys kept secret), the retry policy, the prompt templates."""

from __future__ import annotations

import pickle
import random

import pytest

from engine.llm.clients import LlmClients, run_sync
from engine.llm.errors import LlmError, scrub
from engine.llm.prompts import PROMPTS_DIR, names, render
from engine.llm.retry import RetryPolicy
from engine.llm.settings import LlmSettings, LlmSettingsError
from engine.llm.usage import Usage


def test_settings_from_env_and_overrides():
    settings = LlmSettings.from_env({"GEMINI_API_KEY": "secret-one", "GEMINI_BASE_URL": "http://127.0.0.1:9",
                                     "PDFRAG_VISION_PAGES": "needs_ocr", "PDFRAG_GEMINI_MODEL": "gemini-x"},
                                    page_workers=16, mistral_api_key="secret-two")
    assert settings.gemini_key == "secret-one" and settings.mistral_key == "secret-two"
    assert settings.gemini_base_url == "http://127.0.0.1:9" and settings.vision_pages == "needs_ocr"
    assert settings.gemini_model == "gemini-x" and settings.page_workers == 16
    shown = repr(settings) + str(settings.model_dump()) + settings.model_dump_json() + repr(LlmClients(settings))
    assert "secret-one" not in shown and "secret-two" not in shown
    assert pickle.loads(pickle.dumps(LlmClients(settings))).settings.gemini_key == "secret-one"


def test_bad_settings_name_the_variable():
    with pytest.raises(LlmSettingsError, match="PDFRAG_LLM_READER"):
        LlmSettings.from_env({"PDFRAG_LLM_READER": "tesseract"})


def test_defaults_are_documented_models():
    settings = LlmSettings()
    assert (settings.gemini_model, settings.mistral_vision_model) == ("gemini-3.8-flash", "mistral-medium-3.5")
    assert settings.page_workers == 4 and settings.gemini_key == ""


def test_the_gemini_client_needs_a_key():
    async def work(session):
        return session.gemini

    with pytest.raises(LlmError, match="GEMINI_API_KEY"):
        LlmClients(LlmSettings()).run(work, usage=Usage())


def test_backoff_is_exponential_jittered_and_bounded():
    policy, rng = RetryPolicy(attempts=5, base_s=1.0, max_s=3.0), random.Random(1)
    delays = [[policy.delay(n, rng) for _ in range(200)] for n in (1, 2, 3, 4)]
    assert [round(max(d), 1) for d in delays] == [1.0, 2.0, 3.0, 3.0]
    assert min(delays[0]) < 0.1  # full jitter


def test_scrub_removes_keys():
    assert scrub("bad key secret-one in\n  header", ["secret-one"]) == "bad key *** in header"


def test_run_sync_works_inside_a_running_loop():
    import asyncio

    async def outer():
        async def inner():
            return 42

        return run_sync(inner())

    assert asyncio.run(outer()) == 42


def test_every_prompt_renders_and_is_ours():
    assert set(names()) == {"transcribe_page", "reformat_rules", "reformat_window", "metadata", "toc_extract",
                            "deck_titles", "deck_sections", "agent_router", "agent_document"}
    values = dict(medium="PDF page", deck=True, title="T", total_pages=3, first_page=1, last_page=2,
                  outline=["# T"], file_name="f.pdf", docinfo="", headings=[], max_themes=8, max_entities=15,
                  max_periods=5, pages=3, titles=["Page 1 : T"], agenda=[], problem="",
                  documents=[{"tool": "ask_f_pdf", "file_name": "f.pdf", "title": "T", "summary": "S"}])
    for name in names():
        text = render(name, **values)
        assert text.strip() and "{{" not in text and "{%" not in text
    assert PROMPTS_DIR.name == "prompts" and PROMPTS_DIR.joinpath("transcribe_page.j2").is_file()  # package data


def test_check_describes_the_model_or_fails_cleanly(fake_gemini, llm_settings):
    assert LlmClients(llm_settings).check()["name"] == "models/gemini-3.8-flash"
    last = fake_gemini.requests[-1]
    assert last.method == "GET" and last.path.endswith("/models/gemini-3.8-flash")
    with pytest.raises(LlmError, match="unreachable|HTTP"):
        LlmClients(llm_settings.model_copy(update={"gemini_base_url": "http://127.0.0.1:9", "max_attempts": 1})).check()


def test_the_fake_speaks_function_calling_with_the_real_sdk(fake_gemini, llm_settings):
    """The fake serves agent tests too: tools offered, functionCall parts back, functionResponse recorded."""
    from google.genai import types

    from tests.fakes import gemini as g

    fake_gemini.script(g.function_call("search_pages", {"query": "flow"}), g.text("Flow is measured weekly."))
    tool = types.Tool(function_declarations=[types.FunctionDeclaration(
        name="search_pages", description="search", parameters_json_schema={"type": "object", "properties": {
            "query": {"type": "string"}}})])

    async def work(session):
        client = session.gemini._client
        config = types.GenerateContentConfig(tools=[tool])
        first = await client.models.generate_content(model="gemini-3.8-flash", contents="How is flow measured?",
                                                     config=config)
        call = first.function_calls[0]
        history = [types.Content(role="user", parts=[types.Part(text="How is flow measured?")]),
                   first.candidates[0].content,
                   types.Content(role="user", parts=[types.Part.from_function_response(
                       name=call.name, response={"pages": [3]})])]
        second = await client.models.generate_content(model="gemini-3.8-flash", contents=history, config=config)
        return call, second.text

    call, answer = LlmClients(llm_settings).run(work, Usage())
    assert (call.name, call.args) == ("search_pages", {"query": "flow"}) and answer == "Flow is measured weekly."
    first, second = fake_gemini.generate_requests
    assert g.function_declarations(first)[0]["name"] == "search_pages"
    assert g.function_responses(second)[0]["response"] == {"pages": [3]}
