"""Chat page: questions to the corpus through engine.agent.ask, streamed answers with citations that open Inspect."""

from __future__ import annotations

import asyncio
import importlib.util
from collections.abc import AsyncIterator, Callable
from dataclasses import replace

from htmltools import TagChild
from shiny import module, reactive, ui

from app.safe_html import markdown_blocks
from app.settings_model import SessionSettings
from app.state import doc_choices, open_link, page_link_requests
from app.workspaces import SessionWorkspace
from engine.schemas import Answer, DocumentRecord
from engine.workspace import Workspace

UNAVAILABLE = ("Question answering is not available in this build: the engine's answering module "
               "(engine.agent) is not part of it yet. Every other page works without it.")
GREETING = ("Ask a question about your documents. Answers cite the pages they rest on; click a citation "
            "to open that page in Inspect. Pick two or more documents on the left to compare them.")


def agent_available() -> bool:
    """Whether this build of the engine can answer questions (engine.agent exists)."""
    try:
        return importlib.util.find_spec("engine.agent") is not None
    except (ImportError, ValueError):
        return False


@module.ui
def chat_ui_page():
    if not agent_available():
        return ui.div(
            ui.card(ui.card_header("Chat"), ui.p(UNAVAILABLE, class_="mb-0 pdfrag-chat-unavailable")),
            class_="pdfrag-page",
        )
    from shinychat import chat_ui

    return ui.layout_sidebar(
        ui.sidebar(
            ui.input_selectize("docs", "Documents", choices={}, multiple=True,
                               options={"placeholder": "all documents"}),
            ui.p("Leave empty to ask the whole corpus; choose several to compare them.",
                 class_="text-muted small"),
            width="18rem",
        ),
        chat_ui("chat", placeholder="Ask about your documents…", width="100%", height="calc(100vh - 9rem)"),
        class_="pdfrag-page pdfrag-chat",
    )


def ask_with_session(workspace: Workspace, question: str, docs: list[str] | None, current: SessionSettings) -> Answer:
    """engine.agent.ask with this session's Settings: provider, retrieval method, k and, for gemini, the
    keys and model entered in Settings over the environment's (kept in memory, passed as LlmSettings)."""
    from engine.agent import ask

    if current.method == "agent":  # the agents are how the gemini provider answers
        current = replace(current, provider="gemini", method="hybrid")
    settings = current.llm_settings()
    if settings is None and current.method in ("vector", "hybrid") and current.api_keys.get("gemini"):
        settings = replace(current, provider="gemini").llm_settings()  # the session's key for embeddings
    return ask(workspace, question, docs=docs, provider=current.provider, method=current.method, k=current.k,
               settings=settings)


def answer_chunks(answer: Answer, records: list[DocumentRecord], open_id: str) -> list[TagChild]:
    """The answer as message chunks of HTML (so it streams a block at a time): its text as sanitised
    Markdown, the citations as links with their quotes, the trace. Answers and quotes come from the
    documents, so nothing here reaches shinychat as Markdown (which passes raw HTML through)."""
    chunks: list[TagChild] = list(markdown_blocks(answer.answer))
    if not answer.covered:
        chunks.append(ui.p(ui.em("The documents do not support an answer to this question.")))
    by_name: dict[str, DocumentRecord] = {}
    for record in records:
        for name in (record.file_name, record.rel_path, *record.aliases):
            by_name.setdefault(name, record)
    if answer.citations:
        items = []
        for cite in answer.citations:
            record = by_name.get(cite.doc)
            label = f"{cite.doc}, p. {cite.page}"
            link = open_link(open_id, record.doc_id, cite.page, label) if record else label
            quote = " ".join(cite.quote.split())
            items.append(ui.tags.li(link, f" — “{quote[:240]}”" if quote else None))
        chunks.append(ui.div(ui.p(ui.strong("Sources"), class_="mb-1"), ui.tags.ol(*items), class_="pdfrag-sources"))
    if answer.trace:
        steps = [ui.tags.li(ui.tags.b(step.kind), f" · {step.tool}" if step.tool else None,
                            f" · {step.doc}" if step.doc else None, f": {step.detail}" if step.detail else None)
                 for step in answer.trace]
        chunks.append(ui.tags.details(ui.tags.summary(f"Trace ({len(answer.trace)} steps)"), ui.tags.ol(*steps),
                                      class_="pdfrag-trace"))
    return chunks


@module.server
def chat_server(input, output, session, *, space: SessionWorkspace, records: Callable[[], list[DocumentRecord]],
                settings: Callable[[], SessionSettings]):
    """Returns a reactive value of requests to open a cited page in Inspect."""
    open_id, open_request = page_link_requests(input, session)
    if not agent_available():
        return open_request
    from shinychat import Chat

    chat = Chat("chat", greeting=GREETING, history=False)

    @reactive.effect
    def _choices():
        choices = {r.file_name: label for r, label in zip(records(), doc_choices(records()).values())}
        with reactive.isolate():
            kept = [d for d in (input.docs() or ()) if d in choices]
        ui.update_selectize("docs", choices=choices, selected=kept)

    @chat.on_user_submit
    async def _answer(user_input: str):
        question = user_input.strip()
        if not question:
            return
        docs = list(input.docs() or ()) or None
        current = settings()
        recs = records()
        try:
            answer = await asyncio.to_thread(ask_with_session, space.workspace, question, docs, current)
        except Exception as exc:
            await chat.append_message(ui.p(ui.strong("The question could not be answered: "),
                                           f"{type(exc).__name__}: {exc}"))  # a tag: the error may quote the text
            return
        chunks = answer_chunks(answer, recs, open_id)

        async def stream() -> AsyncIterator:
            for chunk in chunks:
                yield chunk
                await asyncio.sleep(0.01)

        await chat.append_message_stream(stream())

    return open_request
