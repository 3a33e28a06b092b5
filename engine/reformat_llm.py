"""LLM reformatting in page windows, the outline decided so far as context, guarded against lost content.

Each window of pages goes to the model with a bounded outline of the headings decided before it, so input
tokens grow linearly with the document. A window whose answer loses words (token recall below the
threshold), adds many, or whose page markers cannot be repaired, keeps its raw text. The offline normaliser
then runs over the whole result, so the rules (one H1, no skipped levels) hold whatever the model did.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.guard import repair_markers, token_precision, token_recall
from engine.llm.clients import LlmSession
from engine.llm.errors import LlmError
from engine.llm.prompts import render
from engine.markdown import iter_headings, join_pages, marker, split_pages
from engine.readers.vision import strip_fence
from engine.reformat import normalize_document

VERSION = 1
WINDOW_CHARS = 24_000  # a window closes early when its pages are this long
OUTLINE_HEAD, OUTLINE_TAIL = 10, 25  # outline entries sent: the first ones, the open path and the last ones
MIN_PRECISION = 0.9


@dataclass
class ReformatReport:
    """The reformatted Markdown and what happened on the way."""

    markdown: str
    warnings: list[str] = field(default_factory=list)
    fallbacks: int = 0  # windows that kept their raw text
    windows: int = 0
    failed: bool = False  # some call failed for good (an error or a finish reason other than STOP)


def windows(blocks: list[str], pages: int, max_chars: int = WINDOW_CHARS) -> list[list[int]]:
    """Consecutive 1-based page numbers, at most `pages` per window and about `max_chars` of text."""
    out: list[list[int]] = []
    size = 0
    for number, block in enumerate(blocks, start=1):
        if not out or len(out[-1]) >= pages or (size + len(block) > max_chars and out[-1]):
            out.append([])
            size = 0
        out[-1].append(number)
        size += len(block)
    return out


def window_text(blocks: list[str], numbers: list[int]) -> str:
    return "\n\n".join(f"{blocks[n - 1]}\n\n{marker(n)}" if blocks[n - 1] else marker(n) for n in numbers)


def outline_context(outline: list[tuple[int, str]]) -> list[str]:
    """A bounded view of the outline so far: its first entries, the open heading path, and the latest ones."""
    if len(outline) <= OUTLINE_HEAD + OUTLINE_TAIL:
        chosen = list(range(len(outline)))
    else:
        path: list[int] = []
        for index, (level, _) in enumerate(outline[:-OUTLINE_TAIL]):
            while path and outline[path[-1]][0] >= level:
                path.pop()
            path.append(index)
        chosen = sorted(set(range(OUTLINE_HEAD)) | set(path) | set(range(len(outline) - OUTLINE_TAIL, len(outline))))
    lines, previous = [], -1
    for index in chosen:
        if index != previous + 1:
            lines.append("...")
        level, title = outline[index]
        lines.append(f"{'#' * level} {title}")
        previous = index
    return lines


async def reformat_document(session: LlmSession, raw: str, *, doc_format: str, title: str) -> ReformatReport:
    """The reformatted document: windows in order, each checked, then the offline normaliser over all of it."""
    settings = session.settings
    blocks = split_pages(raw)
    deck = doc_format == "landscape"
    report = ReformatReport(markdown="")
    outline: list[tuple[int, str]] = []
    result: list[str] = list(blocks)
    system = render("reformat_rules", deck=deck)
    for numbers in windows(blocks, settings.reformat_window_pages):
        report.windows += 1
        original = window_text(blocks, numbers)
        context = render("reformat_window", title=title, total_pages=len(blocks), deck=deck,
                         first_page=numbers[0], last_page=numbers[-1], outline=outline_context(outline))
        accepted, problem, failed = await _reformat_window(session, system, context, original, numbers)
        report.failed = report.failed or failed
        span = f"pages {numbers[0]}-{numbers[-1]}" if len(numbers) > 1 else f"page {numbers[0]}"
        if accepted is None:
            report.fallbacks += 1
            report.warnings.append(f"reformat {span}: {problem}; kept the transcription for the offline normaliser")
            accepted = original
        elif problem:
            report.warnings.append(f"reformat {span}: {problem}")
        for number, block in zip(numbers, split_pages(accepted)):
            result[number - 1] = block
        outline += [(h.level, h.title) for h in iter_headings(accepted)]
    text, warnings = normalize_document(join_pages(result), doc_format=doc_format, fallback_title=title)
    report.markdown, report.warnings = text, report.warnings + warnings
    return report


async def _reformat_window(session: LlmSession, system: str, context: str, original: str,
                           numbers: list[int]) -> tuple[str | None, str, bool]:
    """(accepted window text or None, the problem or the repairs made, whether the call failed for good)."""
    try:
        reply = await session.gemini.generate([context, original], system=system, purpose="reformat")
    except LlmError as exc:
        return None, str(exc), True
    if reply.finish_reason != "STOP":
        return None, f"Gemini stopped with {reply.finish_reason}", True
    repaired = repair_markers(strip_fence(reply.text), numbers)
    if not repaired.complete:
        return None, "; ".join(repaired.repairs), False
    recall = token_recall(original, repaired.text)
    if recall < session.settings.reformat_min_recall:
        return None, f"content recall {recall:.2f} below {session.settings.reformat_min_recall:.2f}", False
    precision = token_precision(original, repaired.text)
    if precision < MIN_PRECISION:
        return None, f"{1 - precision:.0%} of the words are not in the transcription", False
    return repaired.text, "; ".join(repaired.repairs), False
