"""Answering questions over the corpus: `ask(workspace, question, ...) -> Answer`.

The offline provider routes, retrieves and composes an extractive answer with page citations; the
gemini provider runs agents over per-document tools (llama-index, imported only when asked for).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

from engine.agent.boxes import add_boxes
from engine.agent.offline import AnswerOptions, answer_offline
from engine.index import CorpusIndex, MethodUnavailable, Retriever, load_corpus
from engine.schemas import Answer, TraceStep
from engine.workspace import Workspace

__all__ = ["AnswerOptions", "MethodUnavailable", "UnknownDocument", "ask", "pdf_locator", "retriever_for"]


def _ask_gemini(retriever: Retriever, question: str, docs, k: int, settings) -> Answer:
    from engine.llm.settings import LlmSettings

    settings = settings or LlmSettings.from_env()
    if not settings.gemini_key:
        raise MethodUnavailable("the gemini provider needs GEMINI_API_KEY (or a key from the app's settings)")
    try:
        from engine.agent.gemini import ask_gemini
    except ImportError as exc:  # llama-index missing from this installation
        raise MethodUnavailable(f"gemini answering needs llama-index-core: {exc}") from None
    started = time.perf_counter()
    answer = ask_gemini(retriever, question, docs=docs, k=k, settings=settings)
    answer.trace.append(TraceStep(kind="timing", detail=f"{1000 * (time.perf_counter() - started):.0f} ms"))
    return answer


class UnknownDocument(KeyError):
    """A `docs` entry names no document of the workspace."""


def retriever_for(workspace: Workspace | Path | str, *, embedder=None, key: str | None = None) -> Retriever:
    """A retriever over the workspace's (up to date) corpus index; vectors when an embedder is given or
    configured in the environment (`key`: a session's Gemini key instead of GEMINI_API_KEY)."""
    workspace = workspace if isinstance(workspace, Workspace) else Workspace(workspace)
    if embedder is None:
        from engine.index.vectors import embedder_from_env

        embedder = embedder_from_env(key=key)
    return Retriever(load_corpus(workspace), workspace=workspace, embedder=embedder)


def pdf_locator(workspace: Workspace, corpus: CorpusIndex) -> Callable[[str], Path | None]:
    """`locate(file_name)`: the PDF of a corpus document in the workspace (None when unknown); paths are
    remembered on the corpus index, which lives as long as the documents do not change."""
    known: dict[str, Path | None] = corpus.extras.setdefault("pdf_paths", {})

    def locate(file_name: str) -> Path | None:
        if file_name not in known:
            position = corpus.doc_position(file_name)
            record = workspace.load(corpus.docs[position].info.doc_id) if position is not None else None
            known[file_name] = workspace.pdf_path(record) if record is not None else None
        return known[file_name]

    return locate


def _unsaved_note(corpus: CorpusIndex) -> list[TraceStep]:
    """The documents whose index was built in memory for this answer (ask writes nothing; ingest saves it)."""
    if not corpus.unsaved:
        return []
    return [TraceStep(kind="note", detail=f"index built in memory (missing or out of date on disk; the next ingest "
                      f"saves it): {', '.join(corpus.unsaved)}")]


def ask(workspace: Workspace | Path | str, question: str, *, docs: Sequence[str] | None = None,
        provider: str = "offline", method: str = "hybrid", k: int = 5, retriever: Retriever | None = None,
        options: AnswerOptions | None = None, settings=None) -> Answer:
    """Answer a question from the workspace's documents (all of them, or only `docs`: file names or ids).
    Nothing is written to the workspace: indexes missing or out of date are built in memory (the trace
    says so) and saved by the next ingest.

    `settings` (engine.llm.LlmSettings) are the gemini provider's keys and endpoint (default: from the
    environment; the app passes its session's); their Gemini key also serves the embeddings when
    PDFRAG_EMBEDDINGS=gemini. Raises UnknownDocument for a `docs` entry that is not in
    the workspace, MethodUnavailable when the method or provider needs what is not configured,
    ValueError for an unknown method or provider, engine.llm.LlmError when Gemini fails.
    """
    started = time.perf_counter()
    question = " ".join(question.split())
    if not question:
        raise ValueError("the question is empty")
    if provider not in ("offline", "gemini"):
        raise ValueError(f"unknown provider {provider!r} (choose offline or gemini)")
    retriever = retriever or retriever_for(workspace, key=settings.gemini_key if settings is not None else None)
    try:
        positions = retriever.resolve_docs(docs)
    except KeyError as exc:
        raise UnknownDocument(exc.args[0]) from None
    if provider == "gemini":
        answer = _ask_gemini(retriever, question, positions, k, settings)
        answer.trace.extend(_unsaved_note(retriever.corpus))
        if retriever.workspace is not None:
            add_boxes(answer.citations, pdf_locator(retriever.workspace, retriever.corpus))
        return answer
    retrieval = retriever.search(question, method=method, k=max(k, 10), docs=positions)
    corpus = retriever.corpus
    routed = ", ".join(f"{corpus.docs[s.doc].info.file_name} ({s.score:.2f})" for s in retrieval.routing.scores[:3])
    trace = [
        TraceStep(kind="route", detail=f"documents by names, profile and best passage: {routed}"
                  + ("; comparison" if retrieval.routing.comparison else "")),
        TraceStep(kind="retrieve", tool=method, detail="pages " + ", ".join(
            f"{h.doc} p. {h.page} ({h.score:.2f})" for h in retrieval.hits[:k])),
        *(TraceStep(kind="note", detail=note) for note in retrieval.notes),
        *_unsaved_note(corpus),
    ]
    answer = answer_offline(corpus, retrieval, k=k, options=options, trace=trace)
    if retriever.workspace is not None:
        add_boxes(answer.citations, pdf_locator(retriever.workspace, corpus))
    answer.trace.append(TraceStep(kind="timing", detail=f"{1000 * (time.perf_counter() - started):.0f} ms"))
    return answer
