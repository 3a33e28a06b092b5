"""The Gemini embedder behind its HTTP seam, and when vectors exist at all."""

from __future__ import annotations

import numpy as np
import pytest

from engine.index.vectors import EmbeddingError, GeminiEmbedder, embedder_from_env


class Recorder:
    """Answers batchEmbedContents calls in process and keeps the requests."""

    def __init__(self, dims: int = 4, broken: bool = False) -> None:
        self.calls: list[tuple[str, dict, dict]] = []
        self.dims, self.broken = dims, broken

    def __call__(self, url: str, headers: dict, body: dict) -> dict:
        self.calls.append((url, headers, body))
        if self.broken:
            return {"embeddings": []}
        return {"embeddings": [{"values": [float(len(r["content"]["parts"][0]["text"]))] + [1.0] * (self.dims - 1)}
                               for r in body["requests"]]}


def test_no_embedder_unless_configured():
    assert embedder_from_env({}) is None
    assert embedder_from_env({"PDFRAG_EMBEDDINGS": "gemini"}) is None  # no key
    assert embedder_from_env({"GEMINI_API_KEY": "k"}) is None  # not asked for
    embedder = embedder_from_env({"PDFRAG_EMBEDDINGS": "gemini", "GEMINI_API_KEY": "k",
                                  "GEMINI_BASE_URL": "http://127.0.0.1:9/", "PDFRAG_EMBED_MODEL": "m-1"})
    assert isinstance(embedder, GeminiEmbedder) and embedder.model == "m-1"
    assert embedder.base_url == "http://127.0.0.1:9"
    session = embedder_from_env({"PDFRAG_EMBEDDINGS": "gemini"}, key="session-key")  # a session's key
    assert isinstance(session, GeminiEmbedder) and session._key == "session-key"


def test_requests_batches_and_unit_vectors():
    post = Recorder()
    embedder = GeminiEmbedder("secret", model="gemini-embedding-001", base_url="http://fake", post=post)
    vectors = embedder.embed([f"text {i}" for i in range(150)], kind="document")
    assert vectors.shape == (150, 4)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    assert [len(body["requests"]) for _, _, body in post.calls] == [100, 50]
    url, headers, body = post.calls[0]
    assert url == "http://fake/v1beta/models/gemini-embedding-001:batchEmbedContents"
    assert headers == {"x-goog-api-key": "secret"}
    assert body["requests"][0]["taskType"] == "RETRIEVAL_DOCUMENT"
    embedder.embed(["a question"], kind="query")
    assert post.calls[-1][2]["requests"][0]["taskType"] == "RETRIEVAL_QUERY"


def test_a_bad_answer_is_an_embedding_error():
    embedder = GeminiEmbedder("k", post=Recorder(broken=True))
    with pytest.raises(EmbeddingError):
        embedder.embed(["x"], kind="document")


def test_hybrid_leaves_failing_vectors_out(samples_workspace, tmp_path):
    import shutil

    from engine.agent import ask
    from engine.index import Retriever, load_corpus
    from engine.workspace import Workspace

    root = tmp_path / "ws"
    shutil.copytree(samples_workspace, root)
    workspace = Workspace(root)
    failing = GeminiEmbedder("k", post=Recorder(broken=True))
    retriever = Retriever(load_corpus(workspace), workspace=workspace, embedder=failing)
    answer = ask(workspace, "How many volunteer surveyors does the Upper Vale Catchment Trust have?",
                 retriever=retriever)
    assert answer.covered and answer.retrieved[0].page == 7
    assert any(step.kind == "note" and "vectors left out" in step.detail for step in answer.trace)
    with pytest.raises(EmbeddingError):
        retriever.search("six-tenths", method="vector")
