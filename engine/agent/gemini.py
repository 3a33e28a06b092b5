"""Gemini answering: an agent per document, a top-level agent that is given the document tools whose
summaries match the question (top-k), and a compare tool that asks each document its own sub-question.

Document agents read through four tools: `search`, `summary`, `get_document_structure` (titles, page
ranges and summaries, no text) and `get_page_content`. Every tool call is kept in the trace. The
answer's citations are the pages it names, each with a quote taken from that page, so that a quote
always occurs on its page. Imported only in gemini mode (llama-index stays off the offline path).
"""

import asyncio
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from llama_index.core.agent.workflow import AgentOutput, FunctionAgent
from llama_index.core.tools import BaseTool, FunctionTool

from engine.agent.gemini_llm import STOPPED_PREFIX, TRUNCATED_NOTE, GeminiAgentLLM, GeminiToolClient
from engine.index import lexical
from engine.index.evidence import page_units, readable, score_windows
from engine.index.retrieve import Retriever
from engine.text import query_pairs, query_terms, question_language, tokenize
from engine.llm.check import preflight
from engine.llm.clients import run_sync
from engine.llm.prompts import render
from engine.llm.settings import LlmSettings
from engine.llm.usage import Usage
from engine.schemas import Answer, Citation, RetrievedPage, TraceStep

TOP_DOCS = 3  # document tools offered to the top-level agent
PAGE_CHARS = 6000  # text returned per page by get_page_content
MAX_PAGES = 4  # pages per get_page_content call
CLAIM_WEIGHT = 2.0  # of a quote's words that the answer adds to the question (see _quote)
AgentTools = list[BaseTool | Callable[..., Any]]  # what FunctionAgent takes
CITE_RE = re.compile(r"\[([^\[\]\n]+?),\s*p(?:age|\.)?\s*(\d+)\]", re.I)
NOT_COVERED_RE = re.compile(r"\b(does not cover|do not cover|not covered|no information|does not (?:say|mention|"
                            r"contain|state)|cannot find|could not find|not (?:found|mentioned|stated))\b", re.I)


def tool_name(text: str, prefix: str = "") -> str:
    """A function name Gemini accepts: letters, digits and underscores, starting with a letter, <= 64."""
    name = re.sub(r"[^A-Za-z0-9_]+", "_", f"{prefix}{text}").strip("_").lower()
    if not name or not name[0].isalpha():
        name = f"t_{name}"
    return name[:64]


@dataclass
class AgentRun:
    """What the agents did: the trace, and the pages they saw with the best score each got."""

    trace: list[TraceStep] = field(default_factory=list)
    seen: dict[tuple[int, int], float] = field(default_factory=dict)

    def saw(self, doc: int, page: int, score: float) -> None:
        self.seen[(doc, page)] = max(score, self.seen.get((doc, page), 0.0))


class DocumentTools:
    """The four reading tools of one document, recording what they return."""

    def __init__(self, retriever: Retriever, doc: int, run: AgentRun) -> None:
        self.retriever, self.doc, self.run = retriever, doc, run
        self.index = retriever.corpus.docs[doc]
        self.file = self.index.info.file_name

    def _record(self, tool: str, detail: str) -> None:
        self.run.trace.append(TraceStep(kind="tool", tool=tool, doc=self.file, detail=detail[:300]))

    async def search(self, query: str) -> str:
        """Find the pages of this document that match a query; returns page numbers with their best sentence."""
        found = self.retriever.search(query, method="hybrid", k=5, docs=[self.doc])
        corpus, lines = self.retriever.corpus, []
        weights = lexical.evidence_weights(corpus, found.terms, self.doc, found.routing)
        for hit in found.hits:
            self.run.saw(self.doc, hit.page, hit.score)
            windows = score_windows(page_units(corpus, self.doc, hit.page), found.terms, weights, query,
                                    found.phrases, singles=True, text=corpus.page_text(self.doc, hit.page))
            best = readable(windows[0].text)[:300] if windows else ""
            lines.append(f"p. {hit.page} ({' > '.join(hit.path) or hit.title}): {best}")
        self._record("search", f"{query!r} -> pages {', '.join(str(h.page) for h in found.hits) or 'none'}")
        return "\n".join(lines) or "No page matches."

    async def summary(self) -> str:
        """What the whole document is: title, type, page count, summary and keywords."""
        info = self.index.info
        self._record("summary", "")
        return f"{info.title} ({info.pages} pages). {info.summary}\nProfile: {' '.join(info.profile.split())[:600]}"

    async def get_document_structure(self) -> str:
        """The sections of the document with their page ranges and summaries (no text), like a contents page."""
        lines = []
        for node in self.index.nodes[:200]:
            if node.kind == "front":
                continue
            depth = max(0, len(node.path) - 1)
            summary = f": {node.summary[:120]}" if node.summary else ""
            lines.append(f"{'  ' * depth}- {node.title} (pp. {node.start_page}-{node.end_page}){summary}")
        self._record("get_document_structure", f"{len(lines)} sections")
        return "\n".join(lines) or "No sections."

    async def get_page_content(self, pages: list[int]) -> str:
        """The text of the given pages (1-based page numbers, at most four)."""
        wanted = [p for p in dict.fromkeys(int(p) for p in pages) if 1 <= p <= len(self.index.pages)][:MAX_PAGES]
        for page in wanted:
            self.run.saw(self.doc, page, 0.0)
        self._record("get_page_content", f"pages {', '.join(map(str, wanted)) or 'none'}")
        return "\n\n".join(f"--- page {p} ---\n{self.index.pages[p - 1][:PAGE_CHARS]}" for p in wanted) \
            or "No such page."

    def tools(self) -> AgentTools:
        return [FunctionTool.from_defaults(async_fn=fn, name=fn.__name__, description=fn.__doc__)
                for fn in (self.search, self.summary, self.get_document_structure, self.get_page_content)]


def document_agent(retriever: Retriever, doc: int, llm: GeminiAgentLLM, run: AgentRun) -> FunctionAgent:
    info = retriever.corpus.docs[doc].info
    prompt = render("agent_document", title=info.title, file_name=info.file_name, pages=info.pages)
    return FunctionAgent(name=tool_name(info.file_name, "reader_"), description=f"Reads {info.file_name}",
                         tools=DocumentTools(retriever, doc, run).tools(), llm=llm, system_prompt=prompt,
                         streaming=False)


async def _run_agent(agent: FunctionAgent, question: str) -> str:
    result = cast(AgentOutput, await agent.run(user_msg=question))  # what a FunctionAgent's run returns
    return str(result.response.content or "")


def top_tools(retriever: Retriever, docs: list[int], llm: GeminiAgentLLM, run: AgentRun) -> AgentTools:
    """One tool per document (its agent) and `compare_documents`."""
    corpus = retriever.corpus
    agents = {d: document_agent(retriever, d, llm, run) for d in docs}
    by_file = {corpus.docs[d].info.file_name: d for d in docs}
    tools: AgentTools = []
    for d in docs:
        info = corpus.docs[d].info
        tools.append(FunctionTool.from_defaults(
            async_fn=_document_tool(agents[d], info.file_name, run), name=tool_name(info.file_name, "ask_"),
            description=f"Answers a question from {info.file_name} ({info.title}): {info.summary[:300]}"))

    async def compare_documents(documents: list[str], sub_questions: list[str]) -> str:
        """Ask several documents their own sub-question at once (documents[i] gets sub_questions[i]); use it
        for questions that compare or combine documents. Documents are file names."""
        named = [(by_file.get(doc) if doc in by_file else _match(doc, by_file), q)
                 for doc, q in zip(documents, sub_questions)]
        pairs = [(d, q) for d, q in named if d is not None]
        run.trace.append(TraceStep(kind="tool", tool="compare_documents", detail="; ".join(
            f"{corpus.docs[d].info.file_name}: {q}" for d, q in pairs)[:300]))
        answers = await asyncio.gather(*(_run_agent(agents[d], q) for d, q in pairs))
        return "\n\n".join(f"{corpus.docs[d].info.file_name}: {a}" for (d, _), a in zip(pairs, answers)) \
            or "No known document was named."

    tools.append(FunctionTool.from_defaults(async_fn=compare_documents, name="compare_documents",
                                            description=compare_documents.__doc__))
    return tools


def _document_tool(agent: FunctionAgent, file_name: str, run: AgentRun):
    async def ask_document(question: str) -> str:
        """Ask this document a question."""
        run.trace.append(TraceStep(kind="tool", tool=tool_name(file_name, "ask_"), doc=file_name,
                                   detail=question[:300]))
        return await _run_agent(agent, question)

    return ask_document


def _match(name: str, by_file: dict[str, int]) -> int | None:
    """A document by a loose name (its tool name or part of its file name)."""
    lowered = name.lower()
    for file, doc in by_file.items():
        if lowered in (tool_name(file, "ask_"), file.lower()) or lowered in file.lower():
            return doc
    return None


def ask_gemini(retriever: Retriever, question: str, *, docs: list[int] | None = None, k: int = 5,
               settings: LlmSettings | None = None, top_docs: int = TOP_DOCS) -> Answer:
    """Answer with the agents (see the module docstring)."""
    settings = settings or LlmSettings.from_env()
    preflight(settings)  # the key and model, once per few minutes (raises LlmUnavailable, one line)
    return run_sync(_ask(retriever, question, docs, k, settings, top_docs))


async def _ask(retriever: Retriever, question: str, docs: list[int] | None, k: int, settings: LlmSettings,
               top_docs: int) -> Answer:
    corpus = retriever.corpus
    run = AgentRun()
    usage = Usage()
    routing = lexical.route(corpus, question, retriever.terms(question), docs)  # (as the offline search routes)
    chosen = [s.doc for s in routing.scores if s.score > 0][:top_docs] or [s.doc for s in routing.scores[:1]]
    run.trace.append(TraceStep(kind="route", detail="document tools by summary: " + ", ".join(
        f"{corpus.docs[d].info.file_name}" for d in chosen)))
    if not chosen:
        return Answer(answer="The corpus does not cover this question: there are no documents.", covered=False,
                      trace=run.trace)
    client = GeminiToolClient(settings, usage)
    try:
        llm = GeminiAgentLLM(client)
        tools = top_tools(retriever, chosen, llm, run)
        listed = [{"tool": tool_name(corpus.docs[d].info.file_name, "ask_"), "file_name": corpus.docs[d].info.file_name,
                   "title": corpus.docs[d].info.title, "summary": corpus.docs[d].info.summary[:300]} for d in chosen]
        router = FunctionAgent(name="router", description="Answers from the library", tools=tools, llm=llm,
                               system_prompt=render("agent_router", documents=listed), streaming=False)
        text = await _run_agent(router, question)
    finally:
        await client.aclose()
    run.trace.append(TraceStep(kind="usage", detail=f"{usage.calls} Gemini call(s), {usage.input_tokens} input and "
                               f"{usage.output_tokens} output tokens ({usage.thought_tokens} of them thinking)"))
    return compose(retriever, question, text, run, k)


def compose(retriever: Retriever, question: str, text: str, run: AgentRun, k: int) -> Answer:
    """The final Answer: citations from the pages the text names (quotes taken from those pages).

    An answer Gemini stopped (safety, recitation, a malformed tool call, an empty answer) says so and cites
    nothing; one cut off at the output limit cites only the pages it names."""
    corpus = retriever.corpus
    ranked = sorted(run.seen.items(), key=lambda item: -item[1])
    retrieved = [RetrievedPage(doc=corpus.docs[d].info.file_name, page=p, score=round(s, 4))
                 for (d, p), s in ranked[:k]]
    if text.strip().startswith(STOPPED_PREFIX):
        run.trace.append(TraceStep(kind="decision", detail=f"no answer: {text.strip()[:200]}"))
        return Answer(answer=text.strip(), retrieved=retrieved, trace=run.trace, covered=False)
    cited: list[tuple[int, int, str]] = []
    for match in CITE_RE.finditer(text):
        doc = corpus.doc_position(match.group(1).strip())
        page = int(match.group(2))
        if doc is not None and 1 <= page <= len(corpus.docs[doc].pages):
            sentence = text[:match.start()].rsplit("]", 1)[-1].rsplit("\n", 1)[-1]
            cited.append((doc, page, sentence))
    if not cited and NOT_COVERED_RE.search(text):
        run.trace.append(TraceStep(kind="decision", detail="the agents found no answer: not covered"))
        return Answer(answer=text.strip() or "The corpus does not cover this question.", retrieved=retrieved,
                      trace=run.trace, covered=False)
    named = bool(cited)
    if not cited and TRUNCATED_NOTE not in text:  # no page named: the pages the agents saw that best match it
        cited = [(d, p, text) for (d, p), _ in ranked[:2]]
    citations = []
    for doc, page, sentence in dict.fromkeys(cited):
        quote = _quote(retriever, doc, page, sentence or question, question)
        if quote and (named or used_by(quote, text)):
            citations.append(Citation(doc=corpus.docs[doc].info.file_name, page=page, quote=quote))
    run.trace.append(TraceStep(kind="decision", detail=f"answered with {len(citations)} citation(s)"))
    return Answer(answer=text.strip(), citations=citations, retrieved=retrieved, trace=run.trace,
                  covered=bool(citations))


def used_by(quote: str, answer: str, least: int = 3) -> bool:
    """The answer uses the quote: they share at least `least` distinct words (all of a shorter quote's)."""
    quoted = set(tokenize(quote))
    shared = quoted & set(tokenize(answer))
    return bool(shared) and len(shared) >= min(least, len(quoted))


def _quote(retriever: Retriever, doc: int, page: int, sentence: str, question: str) -> str:
    """The sentence of the page that best matches the answer's sentence (a literal span of the page). The
    words the answer's sentence adds to the question (its claim: "42" in "The trust has 42 volunteer
    surveyors") weigh twice: the quote must back what the answer says, not only restate what was asked."""
    corpus = retriever.corpus
    asked = query_terms(question, question_language(question, corpus.languages))
    terms = list(dict.fromkeys(tokenize(sentence) + asked))
    if not terms:
        return ""
    weights = [1.0 if term in asked else CLAIM_WEIGHT for term in terms]
    windows = score_windows(page_units(corpus, doc, page), terms, weights, question,
                            query_pairs(sentence), singles=True, text=corpus.page_text(doc, page))
    return windows[0].text if windows else ""
