"""The Gemini embedder (google-genai embed_content against the fake Gemini), and when vectors exist at all."""

from __future__ import annotations

import numpy as np
import pytest

from engine.index.vectors import EmbeddingError, GeminiEmbedder, embedder_from_env
from tests.fakes import gemini as g
from tests.fakes.fixtures import GEMINI_TEST_KEY


def embedder(server, **changes) -> GeminiEmbedder:
    env = {"PDFRAG_LLM_BACKOFF": "0.001", **changes.pop("env", {})}
    return GeminiEmbedder(GEMINI_TEST_KEY, base_url=server.url, env=env, **changes)


def embed_bodies(server) -> list[dict]:
    return [r.body for r in server.embed_requests]


def test_no_embedder_unless_configured():
    assert embedder_from_env({}) is None
    assert embedder_from_env({"PDFRAG_EMBEDDINGS": "gemini"}) is None  # no key
    assert embedder_from_env({"GEMINI_API_KEY": "k"}) is None  # not asked for
    found = embedder_from_env({"PDFRAG_EMBEDDINGS": "gemini", "GEMINI_API_KEY": "k",
                               "GEMINI_BASE_URL": "http://127.0.0.1:9/", "PDFRAG_EMBED_MODEL": "m-1"})
    assert isinstance(found, GeminiEmbedder) and found.model == "m-1"
    assert found.base_url == "http://127.0.0.1:9" and found.settings.gemini_base_url == "http://127.0.0.1:9"
    session = embedder_from_env({"PDFRAG_EMBEDDINGS": "gemini"}, key="session-key")  # a session's key
    assert isinstance(session, GeminiEmbedder) and session.settings.gemini_key == "session-key"
    assert "session-key" not in repr(session.settings)


def test_batches_task_types_and_unit_vectors(fake_gemini):
    found = embedder(fake_gemini, model="gemini-embedding-001")
    vectors = found.embed([f"text number {i}" for i in range(150)], kind="document")
    assert vectors.shape == (150, g.EMBED_DIMS) and np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    requests = fake_gemini.embed_requests
    assert [len(body["requests"]) for body in embed_bodies(fake_gemini)] == [100, 50] and found.calls == 2
    assert requests[0].path.endswith("/models/gemini-embedding-001:batchEmbedContents")
    assert all(r.header("x-goog-api-key") == GEMINI_TEST_KEY for r in requests)
    first = embed_bodies(fake_gemini)[0]["requests"][0]
    assert first["taskType"] == "RETRIEVAL_DOCUMENT" and first["outputDimensionality"] == 768
    found.embed(["a question"], kind="query")
    assert embed_bodies(fake_gemini)[-1]["requests"][0]["taskType"] == "RETRIEVAL_QUERY"


def test_a_429_is_waited_out_with_its_retry_delay(fake_gemini):
    fake_gemini.script(g.Reply(429, {"error": {"code": 429, "status": "RESOURCE_EXHAUSTED", "message": "quota",
                                               "details": [g.retry_info(0.05)]}}),
                       match=lambda r: g.EMBED_RE.match(r.path) is not None)
    vectors = embedder(fake_gemini).embed(["x", "y"], kind="document")
    assert vectors.shape == (2, g.EMBED_DIMS) and len(fake_gemini.embed_requests) == 2


def test_failures_are_embedding_errors(fake_gemini):
    fake_gemini.script(*[g.error(500)] * 2, match=lambda r: g.EMBED_RE.match(r.path) is not None)
    with pytest.raises(EmbeddingError, match="HTTP 500"):
        embedder(fake_gemini, env={"PDFRAG_LLM_ATTEMPTS": "2"}).embed(["x"], kind="document")
    fake_gemini.models.remove("gemini-embedding-001")
    with pytest.raises(EmbeddingError, match="HTTP 404"):
        embedder(fake_gemini).embed(["x"], kind="document")


def test_hybrid_leaves_failing_vectors_out(samples_workspace, tmp_path, fake_gemini):
    import shutil

    from engine.agent import ask
    from engine.index import Retriever, load_corpus
    from engine.workspace import Workspace

    root = tmp_path / "ws"
    shutil.copytree(samples_workspace, root)
    workspace = Workspace(root)
    fake_gemini.models.remove("gemini-embedding-001")  # every embedding call fails
    retriever = Retriever(load_corpus(workspace), workspace=workspace, embedder=embedder(fake_gemini))
    answer = ask(workspace, "How many volunteer surveyors does the Upper Vale Catchment Trust have?",
                 retriever=retriever)
    assert answer.covered and answer.retrieved[0].page == 7
    assert any(step.kind == "note" and "vectors left out" in step.detail for step in answer.trace)
    with pytest.raises(EmbeddingError):
        retriever.search("six-tenths", method="vector")
