"""Chat asks with the session's Settings: a Gemini key entered there is used (never logged or written)."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest

from app.pages.chat import ask_with_session
from app.settings_model import SessionSettings
from engine.index import MethodUnavailable
from engine.workspace import Workspace
from tests.fakes import gemini as g

pytest.importorskip("llama_index.core")

DECK = "pdfrag-product-deck.pdf"
SESSION_KEY = "session-only-gemini-key-3c81d0"  # not a real key; the test greps for it
QUESTION = "How many volunteer surveyors does the Upper Vale Catchment Trust have?"


@pytest.fixture
def server_without_key(monkeypatch, fake_gemini):
    """The server's environment: the fake Gemini as endpoint, but no GEMINI_API_KEY."""
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.setenv("GEMINI_BASE_URL", fake_gemini.url)
    monkeypatch.setenv("PDFRAG_LLM_BACKOFF", "0.001")
    return fake_gemini


@pytest.fixture
def workspace(samples_workspace, tmp_path) -> Workspace:
    copy = tmp_path / "workspace"
    shutil.copytree(samples_workspace, copy)
    return Workspace(copy)


def test_gemini_chat_uses_the_key_from_settings(server_without_key, workspace, caplog):
    fake = server_without_key
    fake.models.append("gemini-session-model")  # a model the service lists (ask checks it first)
    fake.script(g.text(f"The Upper Vale Catchment Trust has 42 volunteer surveyors [{DECK}, p. 7]."))
    current = SessionSettings(provider="gemini", model="gemini-session-model", api_keys={"gemini": SESSION_KEY})
    with caplog.at_level(logging.DEBUG):
        answer = ask_with_session(workspace, QUESTION, None, current)

    assert answer.covered and [(c.doc, c.page) for c in answer.citations] == [(DECK, 7)]
    requests = fake.generate_requests
    assert requests and all(r.header("x-goog-api-key") == SESSION_KEY for r in requests)
    assert all("gemini-session-model" in r.path for r in requests)  # the session's model too
    # the key went only into the request headers: not into the answer, the logs or the workspace
    assert SESSION_KEY not in answer.model_dump_json() and SESSION_KEY not in caplog.text
    assert SESSION_KEY not in repr(current)
    for path in Path(workspace.root).rglob("*"):
        if path.is_file():
            assert SESSION_KEY.encode() not in path.read_bytes(), path


def test_without_a_key_anywhere_gemini_chat_says_what_is_missing(server_without_key, workspace):
    with pytest.raises(MethodUnavailable, match="GEMINI_API_KEY"):
        ask_with_session(workspace, QUESTION, None, SessionSettings(provider="gemini"))
    assert not server_without_key.requests


def test_offline_chat_sends_no_settings_and_no_request(server_without_key, workspace):
    current = SessionSettings(provider="offline", method="bm25", k=3, api_keys={"gemini": SESSION_KEY})
    answer = ask_with_session(workspace, QUESTION, [DECK], current)
    assert answer.citations and all(c.doc == DECK for c in answer.citations)
    assert any(step.tool == "bm25" for step in answer.trace)
    assert not server_without_key.requests


def test_the_agent_method_asks_the_gemini_agents_whatever_the_provider(server_without_key, workspace):
    fake = server_without_key
    fake.script(g.text(f"The Upper Vale Catchment Trust has 42 volunteer surveyors [{DECK}, p. 7]."))
    current = SessionSettings(provider="offline", method="agent", api_keys={"gemini": SESSION_KEY})
    answer = ask_with_session(workspace, QUESTION, None, current)
    assert [(c.doc, c.page) for c in answer.citations] == [(DECK, 7)]
    assert fake.generate_requests  # not "unknown retrieval method 'agent'"


def test_vector_search_embeds_with_the_session_key(server_without_key, workspace, monkeypatch):
    monkeypatch.setenv("PDFRAG_EMBEDDINGS", "gemini")  # the server allows embeddings; the key is the session's
    current = SessionSettings(provider="offline", method="vector", api_keys={"gemini": SESSION_KEY})
    answer = ask_with_session(workspace, QUESTION, None, current)
    requests = server_without_key.embed_requests
    assert requests and all(r.header("x-goog-api-key") == SESSION_KEY for r in requests)
    assert answer.retrieved and any(step.tool == "vector" for step in answer.trace)
    assert not server_without_key.generate_requests  # offline answering: no generation call
    for path in Path(workspace.root).rglob("*"):
        if path.is_file():
            assert SESSION_KEY.encode() not in path.read_bytes(), path
