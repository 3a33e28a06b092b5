"""The printed contents page found and copied by Gemini, then parsed and mapped by the offline TOC parser."""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import Field

from engine.extract.toc_extract import extract_toc, find_contents
from engine.llm.clients import LlmSession
from engine.llm.errors import LlmError
from engine.llm.prompts import render
from engine.llm.reply import LlmAnswer
from engine.markdown import count_markers, split_pages
from engine.schemas import ExtractedToc, OutlineEntry

VERSION = 1
FIRST_PAGES = 10  # where a contents page is looked for
LINE_BUDGET = 600  # without page markers: this many lines from the start instead of the whole document
PAGE_CHARS = 6_000
NONE_ANSWERS = {"", "<none>", "none", "n/a", "<empty>"}


class LlmContents(LlmAnswer):
    contents_pages: list[int] = Field(default_factory=list, description="pages of the contents, [] if none")
    contents: str = Field(default="<none>", description="one `title .... page` line per entry, or <none>")


@dataclass
class TocReport:
    toc: ExtractedToc
    warnings: list[str] = field(default_factory=list)
    failed: bool = False


def first_pages_text(raw: str, first: int = FIRST_PAGES) -> tuple[list[str], str]:
    """The first pages' blocks and the text the model reads (a line budget when the markers are missing)."""
    if count_markers(raw) == 0:
        lines = raw.split("\n")[:LINE_BUDGET]
        return ["\n".join(lines)], "=== page 1 ===\n" + "\n".join(lines)
    blocks = split_pages(raw)[:first]
    return blocks, "\n\n".join(f"=== page {n} ===\n{b[:PAGE_CHARS]}" for n, b in enumerate(blocks, start=1))


def normalise_contents(text: str) -> str:
    """The copied contents, or "" for any spelling of "none"."""
    text = text.strip().strip("`").strip()
    return "" if text.casefold() in NONE_ANSWERS else text


def parse_answer(answer: LlmContents, searched: int, all_pages: list[str], labels: list[str],
                 outline: list[OutlineEntry]) -> ExtractedToc | None:
    """The answer through the offline parser (levels, page mapping, validation); None when it rejects it."""
    contents = normalise_contents(answer.contents)
    if not contents:
        return ExtractedToc(outline=list(outline))
    pages = sorted({p for p in answer.contents_pages if 1 <= p <= searched})
    if not pages or pages != list(range(pages[0], pages[-1] + 1)):
        return None
    synthetic = [""] * searched
    synthetic[pages[0] - 1] = "Contents\n" + contents
    _, entries = find_contents(synthetic, all_pages, labels, max_pages=searched)
    if not entries:
        return None
    return ExtractedToc(contents_pages=pages, contents=entries, outline=list(outline))


async def extract_toc_llm(session: LlmSession, first_texts: list[str], raw: str, labels: list[str],
                          outline: list[OutlineEntry]) -> TocReport:
    """One structured-output call; an answer the offline parser rejects falls back to the offline extraction."""
    all_pages = split_pages(raw)
    offline = extract_toc(first_texts, all_pages, labels, outline)
    blocks, text = first_pages_text(raw)
    try:
        answer = await session.gemini.generate_json([render("toc_extract"), text], LlmContents)
    except LlmError as exc:
        return TocReport(offline, [f"toc: {exc}; kept the offline extraction"], failed=True)
    parsed = parse_answer(answer, len(blocks), all_pages, labels, outline)
    if parsed is None:
        return TocReport(offline, ["toc: the model's contents did not parse as a contents page; kept the offline "
                                   "extraction"])
    return TocReport(parsed)
