"""What a gemini run will cost before it starts: calls, tokens and dollars per document (`--dry-run`).

Counts follow what the stages send: one call per page to read (a one-page PDF, 258 tokens, and the prompt),
reformat windows of `reformat_window_pages`, one call for the contents page, one for metadata, and for
slide decks the titles (40 slides a call) and sections. Output is taken as the text layer's length (a page
without one as OCR_PAGE_TOKENS); thinking as THINKING_PER_CALL by level, a rough assumption until a run
shows the real counts (`pdfrag show DOC --what record`). Nothing is sent and nothing is written.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any
from pathlib import Path

from engine.llm.prices import cost
from engine.llm.settings import LlmSettings

PAGE_TOKENS = 258  # one PDF page as input
PROMPT_TOKENS = 400  # a prompt's own words
OCR_PAGE_TOKENS = 500  # the transcription of a page without a text layer
THINKING_PER_CALL = {"off": 0, "low": 150, "medium": 600, "high": 2_000, "default": 2_000}
TOC_PAGES, META_TOKENS, TITLE_BATCH = 10, 5_000, 40


@dataclass
class Estimate:
    """One document's (or a run's) estimated calls and tokens; `usd` is None when a price is unknown."""

    name: str
    pages: int = 0
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0  # thinking included
    thought_tokens: int = 0
    usd: float | None = 0.0
    notes: list[str] = field(default_factory=list)

    def add(self, model: str, calls: int, input_tokens: int, output_tokens: int, thinking: int) -> None:
        self.calls += calls
        self.input_tokens += input_tokens
        self.output_tokens += output_tokens + thinking
        self.thought_tokens += thinking
        price = cost(model, input_tokens, output_tokens + thinking)
        self.usd = None if price is None or self.usd is None else self.usd + price


def effective_level(model: str, level: str) -> str:
    """The level a model really thinks at: Gemini 3 cannot switch thinking off (it thinks LOW)."""
    from engine.llm.model_config import generation

    version = generation(model)
    return "low" if level == "off" and version is not None and version >= (3, 0) else level


def page_text_tokens(path: Path) -> tuple[list[int], bool]:
    """Tokens of each page's text layer (4 characters a token) and whether the first page is landscape."""
    from engine.pdf import open_document

    with open_document(path) as doc:
        tokens = [math.ceil(len(page.get_text()) / 4) for page in doc.pages()]
        landscape = doc.page_count > 0 and doc[0].rect.width > doc[0].rect.height
    return tokens, landscape


def estimate_document(path: Path, settings: LlmSettings) -> Estimate:
    """The calls and tokens of the gemini stages for one PDF."""
    tokens, deck = page_text_tokens(path)
    return estimate_pages(path.name, tokens, deck, settings)


def estimate_pages(name: str, tokens: list[int], deck: bool, settings: LlmSettings) -> Estimate:
    """The calls and tokens of the gemini stages for a document whose pages hold `tokens` of text each."""
    est = Estimate(name, pages=len(tokens))
    model = settings.gemini_model
    think = {stage: THINKING_PER_CALL[effective_level(model, getattr(settings, f"thinking_{stage}"))]
             for stage in ("read", "reformat", "extract")}
    pages = len(tokens)
    text = [t or OCR_PAGE_TOKENS for t in tokens]
    if settings.reader == "mistral-ocr":
        batches = math.ceil(pages / settings.ocr_batch_pages)
        est.calls += batches
        est.usd = None  # OCR is priced per page, not listed in engine.llm.prices
        est.notes.append(f"Mistral OCR: {pages} pages in {batches} request(s), priced per page (not estimated)")
    else:
        read = [t for t, raw in zip(text, tokens) if raw == 0] if settings.vision_pages == "needs_ocr" else text
        est.add(model, len(read), len(read) * (PAGE_TOKENS + PROMPT_TOKENS), sum(read), len(read) * think["read"])
    windows = math.ceil(pages / settings.reformat_window_pages) if pages else 0
    est.add(model, windows, sum(text) + windows * 2 * PROMPT_TOKENS, sum(text), windows * think["reformat"])
    extract = [sum(text[:TOC_PAGES]) + PROMPT_TOKENS, min(sum(text), META_TOKENS) + PROMPT_TOKENS]
    if deck:
        titles = math.ceil(pages / TITLE_BATCH)
        extract += [min(sum(text), 175 * pages) // titles + PROMPT_TOKENS] * titles + [pages * 20 + PROMPT_TOKENS]
    est.add(model, len(extract), sum(extract), 600 * len(extract), len(extract) * think["extract"])
    return est


def estimate_records(records: list[Any], settings: LlmSettings) -> Estimate:
    """A run over documents already in a workspace, from their records' characters per page (no PDF is
    opened, so the app can show it at once); a document not read yet counts as pages without a text layer."""
    parts = []
    for record in records:
        tokens = [math.ceil(page.chars / 4) for page in record.page_info] or [0] * record.pages
        if tokens:
            parts.append(estimate_pages(record.file_name, tokens, record.format == "landscape", settings))
    return total(parts)


def total(estimates: list[Estimate]) -> Estimate:
    whole = Estimate("total")
    for est in estimates:
        whole.pages += est.pages
        whole.calls += est.calls
        whole.input_tokens += est.input_tokens
        whole.output_tokens += est.output_tokens
        whole.thought_tokens += est.thought_tokens
        whole.usd = None if est.usd is None or whole.usd is None else whole.usd + est.usd
    return whole


def describe(est: Estimate) -> str:
    """One line: "field-guide.pdf: 11 pages, 16 calls, 9,876 in / 5,432 out tokens (2,400 thinking), ~$0.03"."""
    usd = f"~${est.usd:.2f}" if est.usd is not None else "price unknown"
    return (f"{est.name}: {est.pages} pages, {est.calls} calls, {est.input_tokens:,} in / {est.output_tokens:,} out "
            f"tokens ({est.thought_tokens:,} thinking), {usd}")
