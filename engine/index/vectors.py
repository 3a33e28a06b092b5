"""Dense vectors for chunks, only when an embedding provider is configured (Gemini embeddings).

Nothing here runs offline: without `PDFRAG_EMBEDDINGS=gemini` and `GEMINI_API_KEY` there is no
embedder, no vector index and the `vector` method reports itself unavailable. Embeddings go through
google-genai's `embed_content` on the gemini provider's client (`engine.llm.gemini`), so they share its
pacer, its retries (a 429 waits what RetryInfo asks) and its error scrubbing; the endpoint is
GEMINI_BASE_URL (a local fake server in tests). Vectors are stored per document and model under
`index/vectors/<model>/<doc_id>.npz` by the index stage (`update_index` with an embedder); a question
over documents without stored vectors embeds them in memory.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

import numpy as np

from engine.index.corpus import CorpusIndex
from engine.settings import DEFAULT_EMBED_MODEL, EnvSettings
from engine.workspace import Workspace

Kind = Literal["document", "query"]
DEFAULT_MODEL = DEFAULT_EMBED_MODEL
DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com"
BATCH = 100
DIMENSIONS = 768
TEXT_CHARS = 8000  # about the model's 2,048-token input limit


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
        return cls.of(EnvSettings.from_env(env))

    @classmethod
    def of(cls, env: EnvSettings) -> EmbeddingSettings:
        return cls(provider="" if env.embeddings == "none" else env.embeddings, model=env.embed_model,
                   base_url=(env.gemini_base_url or DEFAULT_BASE_URL).rstrip("/"))


def embedder_from_env(env: Mapping[str, str] | None = None, *, key: str | None = None) -> Embedder | None:
    """The configured embedder, or None (offline: no vectors). `key` (a session's Gemini key) takes the
    place of GEMINI_API_KEY; the provider must still be switched on with PDFRAG_EMBEDDINGS."""
    environment = EnvSettings.from_env(env)
    settings = EmbeddingSettings.of(environment)
    key = (key or environment.gemini_key).strip()
    if settings.provider != "gemini" or not key:
        return None
    return GeminiEmbedder(key, model=settings.model, base_url=settings.base_url, env=env)


class GeminiEmbedder:
    """google-genai `embed_content` in batches of BATCH texts, unit-normalised vectors."""

    def __init__(self, api_key: str, *, model: str = DEFAULT_MODEL, base_url: str = DEFAULT_BASE_URL,
                 dimensions: int = DIMENSIONS, env: Mapping[str, str] | None = None) -> None:
        from engine.llm.settings import LlmSettings, LlmSettingsError

        self._key = api_key
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.dimensions = dimensions
        try:  # the provider's limits, retries and timeouts; never its key from the environment
            base = LlmSettings.from_env(env)
        except LlmSettingsError:
            base = LlmSettings()
        from pydantic import SecretStr

        self.settings = base.model_copy(update={
            "gemini_api_key": SecretStr(api_key), "embed_model": model,
            "gemini_base_url": None if self.base_url == DEFAULT_BASE_URL else self.base_url})
        self.calls = 0

    def embed(self, texts: Sequence[str], *, kind: Kind) -> np.ndarray:
        from engine.llm.clients import run_sync
        from engine.llm.errors import LlmError

        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        task = "RETRIEVAL_QUERY" if kind == "query" else "RETRIEVAL_DOCUMENT"
        try:
            rows = run_sync(self._embed_all([text[:TEXT_CHARS] for text in texts], task))
        except LlmError as exc:
            raise EmbeddingError(f"embedding request failed: {exc}") from None
        matrix = np.asarray(rows, dtype=np.float32)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return matrix / np.where(norms > 0, norms, 1.0)

    async def _embed_all(self, texts: list[str], task: str) -> list[list[float]]:
        from engine.llm.gemini import GeminiClient
        from engine.llm.usage import Usage

        usage = Usage()
        client = GeminiClient(self.settings, usage)
        rows: list[list[float]] = []
        try:
            for start in range(0, len(texts), BATCH):
                batch = texts[start:start + BATCH]
                vectors = await client.embed(batch, task_type=task, dimensions=self.dimensions)
                if len(vectors) != len(batch):
                    raise EmbeddingError("the embedding response does not hold one vector per text")
                rows += vectors
        finally:
            self.calls += usage.calls
            await client.aclose()
        return rows


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


def ensure_vectors(workspace: Workspace, corpus: CorpusIndex, embedder: Embedder, *,
                   save: bool = False) -> np.ndarray:
    """Unit vectors of every chunk of the corpus (embedding only documents whose vectors are missing
    or stale), in the corpus's chunk order. `save` (the index stage) stores what it embeds; a question
    keeps it in memory only (answering never writes)."""
    key = f"vectors:{embedder.model}"
    cached = corpus.extras.get(key)
    if cached is not None and not save:
        return cached
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
            if save:
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
