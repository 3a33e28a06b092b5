"""Pytest fixtures: started fake servers and LlmSettings pointing at them (tiny backoff, fake keys)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.llm.settings import LlmSettings
from tests.fakes.gemini import FakeGemini
from tests.fakes.mistral import FakeMistral

GEMINI_TEST_KEY = "fake-gemini-key-7f3a9c"  # not a real key; tests grep outputs for it
MISTRAL_TEST_KEY = "fake-mistral-key-51be02"


@pytest.fixture
def fake_gemini() -> Iterator[FakeGemini]:
    with FakeGemini() as server:
        yield server


@pytest.fixture
def fake_mistral() -> Iterator[FakeMistral]:
    with FakeMistral() as server:
        yield server


@pytest.fixture
def llm_settings(fake_gemini: FakeGemini, fake_mistral: FakeMistral) -> LlmSettings:
    return LlmSettings(gemini_api_key=GEMINI_TEST_KEY, mistral_api_key=MISTRAL_TEST_KEY,
                       gemini_base_url=fake_gemini.url, mistral_server_url=fake_mistral.url,
                       backoff_s=0.001, backoff_max_s=0.01, timeout_s=20)


@pytest.fixture
def llm_env(fake_gemini: FakeGemini, fake_mistral: FakeMistral) -> dict[str, str]:
    """Environment variables that point the CLI at the fakes."""
    return {"GEMINI_API_KEY": GEMINI_TEST_KEY, "MISTRAL_API_KEY": MISTRAL_TEST_KEY,
            "GEMINI_BASE_URL": fake_gemini.url, "MISTRAL_SERVER_URL": fake_mistral.url, "PDFRAG_LLM_BACKOFF": "0.001"}
