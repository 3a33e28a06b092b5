"""What the LLM readers share: cleaning a model's page answer and merging pages into the offline reading."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.llm.clients import LlmClients
from engine.markdown import MARKER_RE, join_pages, split_pages
from engine.readers.offline import OfflineReader
from engine.schemas import PageInfo, ReadResult

FENCE_OPEN_RE = re.compile(r"^\s*(```|~~~)\s*(markdown|md|mdx|text)?\s*$", re.I)
NEEDS_OCR_WARNING_RE = re.compile(r"^page (\d+): no text layer \(needs OCR\)$")
KEPT = "kept the text-layer transcription"  # how a page no model could transcribe is marked
KEPT_WARNING_RE = re.compile(rf"^page (\d+): {KEPT}\b")
OCR_SUMMARY_RE = re.compile(r"^\d+ page\(s\) without a text layer need OCR")


def strip_fence(text: str) -> str:
    """A model's answer without the code fence (```markdown ... ```) it may have wrapped it in."""
    lines = text.strip().split("\n")
    if len(lines) >= 2 and FENCE_OPEN_RE.match(lines[0]):
        closing = next((i for i in range(len(lines) - 1, 0, -1) if lines[i].strip() in ("```", "~~~")), None)
        lines = lines[1:closing] if closing else lines[1:]
    return "\n".join(lines).strip()


def clean_page_text(text: str) -> str:
    """A model's page answer without a surrounding code fence and without any page-marker lines."""
    return "\n".join(line for line in strip_fence(text).split("\n") if not MARKER_RE.match(line)).strip()


class LlmReader:
    """What an LLM reader is built from: its clients, and the offline reader whose transcription it
    starts from or falls back to (both injectable, so tests need no patching)."""

    def __init__(self, clients: LlmClients | None = None, offline: OfflineReader | None = None) -> None:
        self.clients = clients or LlmClients()
        self.offline = offline or OfflineReader()


@dataclass(frozen=True)
class PageText:
    """A page transcribed by a model: its text and who wrote it ("gemini", "mistral", "mistral-ocr")."""

    page: int
    text: str
    source: str
    note: str = ""  # why a fallback transcribed it, e.g. "gemini: RECITATION"


@dataclass(frozen=True)
class PageFailure:
    """A page no model could transcribe: it keeps the offline text; `reason` says why."""

    page: int
    reason: str


def merge_pages(base: ReadResult, done: list[PageText], failed: list[PageFailure]) -> ReadResult:
    """The offline reading with `done` pages replaced; each failure warned about, with its offline text kept."""
    blocks = split_pages(base.markdown)
    infos = [info.model_copy(deep=True) for info in base.pages]
    by_page = {info.page: info for info in infos}
    replaced = {item.page for item in done}
    for item in done:
        blocks[item.page - 1] = item.text or "_(blank page)_"
        info = by_page[item.page]
        info.needs_ocr, info.chars = False, len(item.text)
        info.warnings = [w for w in info.warnings if "needs OCR" not in w]
        if item.note:
            info.warnings.append(f"transcribed by {item.source} ({item.note})")
    warnings = [w for w in base.warnings
                if not ((m := NEEDS_OCR_WARNING_RE.match(w)) and int(m.group(1)) in replaced)]
    for failure in failed:
        by_page[failure.page].warnings.append(f"{KEPT}: {failure.reason}")
        warnings.append(f"page {failure.page}: {KEPT} ({failure.reason})")
    return ReadResult(markdown=join_pages(blocks), pages=infos, images=base.images, warnings=warnings)


def failed_pages(pages: list[PageInfo]) -> list[int]:
    """The pages a previous reading kept offline because no model could transcribe them."""
    return [info.page for info in pages if any(w.startswith(KEPT) for w in info.warnings)]


def resume_base(markdown: str, pages: list[PageInfo], images: list, warnings: list[str],
                retry: list[int]) -> ReadResult:
    """A previous reading as the base to retry `retry` pages on: their failure notes removed (a page that
    fails again gets a new one), and the stage's own summary of pages needing OCR dropped (it is redone)."""
    again = set(retry)
    infos = [info.model_copy(deep=True) for info in pages]
    for info in infos:
        if info.page in again:
            info.warnings = [w for w in info.warnings if not w.startswith(KEPT)]
    kept = [w for w in warnings if not OCR_SUMMARY_RE.match(w)
            and not ((m := KEPT_WARNING_RE.match(w)) and int(m.group(1)) in again)]
    return ReadResult(markdown=markdown, pages=infos, images=list(images), warnings=kept)
