"""Dense vectors for chunks, only when an embedding provider is configured (Gemini embeddings).

Nothing here runs offline: without `PDFRAG_EMBEDDINGS=gemini` and `GEMINI_API_KEY` there is no
embedder, no vector index and the `vector` method reports itself unavailable. The HTTP call goes
through an injectable `post` function, so tests can answer it in process or from a local server.
Vectors are stored per document and model under `index/vectors/<model>/<doc_id>.npz`.
"""

from __future__ import annotations

import json
import os
import re
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

import numpy as np

from engine.index.corpus import CorpusIndex
from engine.workspace import Workspace

Kind = Literal["document", "query"]
Post = Callable[[str, dict, dict], dict]  # (url, headers, json body) -> json response
DEFAULT_MODEL = "gemini-embedding-001"
DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com"
BATCH = 100
DIMENSIONS = 768


class EmbeddingError(RuntimeError):
    """The embedding provider failed or answered something unusable."""


class Embedder(Protocol):
    model: str

    def embed(self, texts: Sequence[str], *, kind: Kind) -> np.ndarray: ...


@dataclass(frozen=True)
class EmbeddingSettings:
    """Which embedding provider to use, from the environment (the key's value is never kept here)."""

    provider: str = ""  # "" (none) or "gemini": PDFRAG_EMBEDDINGS
    model: str = DEFAULT_MODEL  # PDFRAG_EMBED_MODEL
    base_url: str = DEFAULT_BASE_URL  # GEMINI_BASE_URL (a local fake server in tests)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> EmbeddingSettings:
        env = os.environ if env is None else env
        return cls(
            provider=env.get("PDFRAG_EMBEDDINGS", "").strip().lower(),
            model=env.get("PDFRAG_EMBED_MODEL", "").strip() or DEFAULT_MODEL,
            base_url=(env.get("GEMINI_BASE_URL", "").strip() or DEFAULT_BASE_URL).rstrip("/"),
        )


def embedder_from_env(env: Mapping[str, str] | None = None, post: Post | None = None, *,
                      key: str | None = None) -> Embedder | None:
    """The configured embedder, or None (offline: no vectors). `key` (a session's Gemini key) takes the
    place of GEMINI_API_KEY; the provider must still be switched on with PDFRAG_EMBEDDINGS."""
    env = os.environ if env is None else env
    settings = EmbeddingSettings.from_env(env)
    key = (key or env.get("GEMINI_API_KEY", "")).strip()
    if settings.provider != "gemini" or not key:
        return None
    return GeminiEmbedder(key, model=settings.model, base_url=settings.base_url, post=post)


def _urllib_post(url: str, headers: dict, body: dict, timeout: float = 60.0) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 (configured URL)
            return json.loads(response.read().decode("utf-8"))
    except Exception as exc:  # network, HTTP status, JSON: one error type for the caller
        raise EmbeddingError(f"embedding request failed: {type(exc).__name__}: {exc}") from None


class GeminiEmbedder:
    """Gemini `batchEmbedContents`, unit-normalised vectors."""

    def __init__(self, api_key: str, *, model: str = DEFAULT_MODEL, base_url: str = DEFAULT_BASE_URL,
                 post: Post | None = None, dimensions: int = DIMENSIONS) -> None:
        self._key = api_key
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.dimensions = dimensions
        self._post = post or _urllib_post
        self.calls = 0

    def embed(self, texts: Sequence[str], *, kind: Kind) -> np.ndarray:
        task = "RETRIEVAL_QUERY" if kind == "query" else "RETRIEVAL_DOCUMENT"
        url = f"{self.base_url}/v1beta/models/{self.model}:batchEmbedContents"
        rows: list[list[float]] = []
        for start in range(0, len(texts), BATCH):
            batch = texts[start:start + BATCH]
            body = {"requests": [
                {"model": f"models/{self.model}", "content": {"parts": [{"text": text[:8000]}]},
                 "taskType": task, "outputDimensionality": self.dimensions}
                for text in batch
            ]}
            self.calls += 1
            answer = self._post(url, {"x-goog-api-key": self._key}, body)
            embeddings = answer.get("embeddings") if isinstance(answer, dict) else None
            if not isinstance(embeddings, list) or len(embeddings) != len(batch):
                raise EmbeddingError("the embedding response does not hold one vector per text")
            rows += [e.get("values", []) for e in embeddings]
        if not rows:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        matrix = np.asarray(rows, dtype=np.float32)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return matrix / np.where(norms > 0, norms, 1.0)


def _folder(workspace: Workspace, model: str):
    return workspace.index / "vectors" / re.sub(r"[^A-Za-z0-9_.-]+", "_", model)


def chunk_texts(corpus: CorpusIndex, doc: int) -> list[str]:
    """What is embedded for each chunk: title and section path, then the chunk's text."""
    index = corpus.docs[doc]
    texts = []
    for chunk in range(len(index.chunk_node)):
        node = index.nodes[int(index.chunk_node[chunk])]
        texts.append(" / ".join([index.info.title, *node.path]) + "\n\n" + index.chunk_text(chunk))
    return texts


def ensure_vectors(workspace: Workspace, corpus: CorpusIndex, embedder: Embedder) -> np.ndarray:
    """Unit vectors of every chunk of the corpus (embedding only documents whose vectors are missing
    or stale), in the corpus's chunk order."""
    key = f"vectors:{embedder.model}"
    cached = corpus.extras.get(key)
    if cached is not None:
        return cached  # type: ignore[return-value]
    folder = _folder(workspace, embedder.model)
    parts = []
    for position, index in enumerate(corpus.docs):
        path = folder / f"{index.info.doc_id}.npz"
        matrix = None
        if path.exists():
            try:
                with np.load(path, allow_pickle=False) as stored:
                    if str(stored["source_key"]) == index.info.source_key:
                        matrix = stored["vectors"]
            except (OSError, ValueError, KeyError):
                matrix = None
        if matrix is None or len(matrix) != len(index.chunk_node):
            matrix = embedder.embed(chunk_texts(corpus, position), kind="document")
            folder.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp.npz")
            np.savez(tmp, vectors=matrix, source_key=np.asarray(index.info.source_key))
            tmp.replace(path)
        parts.append(matrix.astype(np.float32))
    vectors = np.concatenate(parts) if parts else np.zeros((0, 1), dtype=np.float32)
    corpus.extras[key] = vectors
    return vectors


def vector_scores(corpus: CorpusIndex, vectors: np.ndarray, query: np.ndarray,
                  docs: Sequence[int] | None = None) -> np.ndarray:
    """Cosine similarity of the query to every chunk, page = its best chunk (only positive values)."""
    sims = vectors @ query.reshape(-1).astype(np.float32) if len(vectors) else np.zeros(0, np.float32)
    sims = np.clip(sims, 0.0, None)
    if docs is not None:
        sims[~corpus.unit_mask("chunk", docs)] = 0.0
    out = np.zeros(corpus.pages, dtype=np.float32)
    np.maximum.at(out, corpus.unit_page["chunk"], sims)
    return out
