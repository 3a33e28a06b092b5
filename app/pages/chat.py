"""Chat page: questions to the corpus through engine.agent.ask, answered off the event loop and streamed into
shinychat (Stop cancels), one source per cited page; a source opens Inspect with its quote highlighted."""

from __future__ import annotations

import asyncio
import importlib.util
from collections.abc import AsyncIterator, Callable
from typing import Any
from dataclasses import dataclass, field, replace

from htmltools import TagChild
from shiny import module, reactive, render, ui

from app.safe_html import markdown_blocks
from app.settings_model import SessionSettings
from app.state import Highlight, OpenRequest, doc_choices, open_link, open_request_from
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
        chat_ui("chat", placeholder="Ask about your documents…", width="100%", height="calc(100vh - 10.5rem)",
                enable_cancel=True),
        ui.output_ui("status"),
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


@dataclass
class CitationIndex:
    """This session's citations, by the id their links carry: what Inspect highlights when one is opened."""

    items: dict[str, Highlight] = field(default_factory=dict)
    limit: int = 2000

    def add(self, highlight: Highlight) -> str:
        key = f"c{len(self.items) + 1}"
        self.items[key] = highlight
        if len(self.items) > self.limit:  # the oldest answers' links then open their page unmarked
            self.items.pop(next(iter(self.items)))
        return key

    def get(self, key: object) -> Highlight | None:
        return self.items.get(key) if isinstance(key, str) else None


def sources_by_page(answer: Answer) -> list[tuple[str, int, str, list[list[float]]]]:
    """(doc, page, quote, boxes) once per cited page, in the answer's order (quotes of one page joined)."""
    pages: dict[tuple[str, int], tuple[list[str], list[list[float]]]] = {}
    for cite in answer.citations:
        quotes, boxes = pages.setdefault((cite.doc, cite.page), ([], []))
        quote = " ".join(cite.quote.split())
        if quote and quote not in quotes:
            quotes.append(quote)
        boxes += [list(b) for b in cite.boxes if list(b) not in boxes]
    return [(doc, page, " … ".join(quotes), boxes) for (doc, page), (quotes, boxes) in pages.items()]


def answer_chunks(answer: Answer, records: list[DocumentRecord], open_id: str,
                  citations: CitationIndex | None = None) -> list[TagChild]:
    """The answer as message chunks of HTML: its text as sanitised Markdown, one source per cited page
    (a link that opens the page in Inspect, its quote highlighted, and the quote), then the longer
    passages and the trace folded away. Answers and quotes come from the documents, so nothing here
    reaches shinychat as Markdown (which passes raw HTML through)."""
    chunks: list[TagChild] = list(markdown_blocks(answer.answer))
    if not answer.covered:
        chunks.append(ui.p(ui.em("The documents do not support an answer to this question."),
                           class_="pdfrag-not-covered"))
    by_name: dict[str, DocumentRecord] = {}
    for record in records:
        for name in (record.file_name, record.rel_path, *record.aliases):
            by_name.setdefault(name, record)
    sources = sources_by_page(answer)
    if sources:
        items = []
        for doc, page, quote, boxes in sources:
            cited = by_name.get(doc)
            label = f"{doc}, p. {page}"
            if cited is None:
                link = label
            else:
                cite = None
                if citations is not None:
                    rects = tuple((b[0], b[1], b[2], b[3]) for b in boxes if len(b) == 4)
                    cite = citations.add(Highlight(cited.doc_id, page, rects,
                                                   label=f"quoted in the answer ({doc}, p. {page})"))
                link = open_link(open_id, cited.doc_id, page, label, cite=cite,
                                 title="Open this page in Inspect" + (" with the quote highlighted" if boxes else ""))
            items.append(ui.tags.li(link, ui.div(f"“{quote}”", class_="pdfrag-quote") if quote else None))
        title = "Source" if len(sources) == 1 else f"Sources ({len(sources)} pages)"
        chunks.append(ui.div(ui.p(ui.strong(title), class_="mb-1"), ui.tags.ol(*items), class_="pdfrag-sources"))
    details = []
    if answer.passages:
        details.append(ui.div(ui.p(ui.strong("Passages"), class_="mb-1"), ui.tags.ol(*[
            ui.tags.li(ui.span(f"{p.doc}, p. {p.page}", class_="text-muted"), ui.div(p.text, class_="pdfrag-passage"))
            for p in answer.passages]), class_="pdfrag-passages"))
    if answer.trace:
        steps = [ui.tags.li(ui.tags.b(step.kind), f" · {step.tool}" if step.tool else None,
                            f" · {step.doc}" if step.doc else None, f": {step.detail}" if step.detail else None)
                 for step in answer.trace]
        details.append(ui.div(ui.p(ui.strong(f"Trace ({len(answer.trace)} steps)"), class_="mb-1"),
                              ui.tags.ol(*steps), class_="pdfrag-trace-steps"))
    if details:
        parts = [f"{len(answer.passages)} passage{'s' if len(answer.passages) != 1 else ''}"] if answer.passages else []
        parts += [f"trace of {len(answer.trace)} steps"] if answer.trace else []
        chunks.append(ui.tags.details(ui.tags.summary("Context: " + " and ".join(parts)), *details,
                                      class_="pdfrag-trace"))
    return chunks


async def answer_stream(answer: Callable[[], Answer], chunks: Callable[[Answer], list[TagChild]],
                        pending: Callable[[], Any] | None = None) -> AsyncIterator[TagChild]:
    """The message of one question: the answer computed off the event loop (a thread), then its chunks as
    soon as it is there. Cancelling the stream (Stop) abandons the computation; the thread's result is dropped.

    `pending`: an async context manager whose stream shows a note while the answer is computed and is
    emptied before the answer (shinychat's `message_stream_context`)."""
    work = asyncio.ensure_future(asyncio.to_thread(answer))
    try:
        if pending is None:
            await asyncio.wait({work})
        else:
            async with pending() as note:
                await note.append(ui.span(ui.span(class_="spinner-border spinner-border-sm me-2"),
                                          "Searching the documents…", class_="pdfrag-chat-pending text-muted"))
                await asyncio.wait({work})
                await note.replace(ui.TagList())
        result = work.result()
    except asyncio.CancelledError:
        work.cancel()
        raise
    except Exception as exc:  # noqa: BLE001 - shown to the user; the text may quote the document, so a tag
        yield ui.p(ui.strong("The question could not be answered: "), f"{type(exc).__name__}: {exc}",
                   class_="pdfrag-chat-error")
        return
    for chunk in chunks(result):
        yield chunk


@module.server
def chat_server(input, output, session, *, space: SessionWorkspace, records: Callable[[], list[DocumentRecord]],
                settings: Callable[[], SessionSettings]):
    """Returns a reactive value of requests to open a cited page in Inspect (with the quote to highlight)."""
    open_request = reactive.value[OpenRequest | None](None)
    citations = CitationIndex()

    @reactive.effect
    @reactive.event(input.open)
    def _open():
        value = input.open() or {}
        request = open_request_from(value)
        if request is None:
            return
        highlight = citations.get(value.get("cite") if isinstance(value, dict) else None)
        if highlight is not None and (highlight.doc, highlight.page) == (request.doc, request.page):
            request = replace(request, highlight=highlight)
        open_request.set(request)

    if not agent_available():
        return open_request
    from shinychat import Chat

    chat = Chat("chat", greeting=GREETING, history=False)
    open_id = session.ns("open")

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
        workspace = space.workspace
        # returns at once: shinychat streams in an extended task, so the session stays responsive
        await chat.append_message_stream(answer_stream(
            lambda: ask_with_session(workspace, question, docs, current),
            lambda answer: answer_chunks(answer, recs, open_id, citations), pending=chat.message_stream_context))

    @reactive.effect
    @reactive.event(input.chat_cancel)
    def _stop():  # the Stop button shinychat shows while an answer is under way
        chat.latest_message_stream.cancel()

    @render.ui
    def status():
        task = chat.latest_message_stream
        state = task.status()
        if state == "running":
            return ui.div(ui.span(class_="spinner-border spinner-border-sm me-2", role="status"),
                          "Searching the documents… (Stop ■ cancels)", class_="pdfrag-chat-status text-muted small",
                          **{"data-state": "running"})
        if state == "cancelled":
            return ui.div("Stopped: the last question was not answered.", class_="pdfrag-chat-status text-muted small",
                          **{"data-state": "cancelled"})
        return ui.div(class_="pdfrag-chat-status", **{"data-state": state})

    return open_request
