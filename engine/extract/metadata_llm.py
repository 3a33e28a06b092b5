"""Context metadata through Gemini structured output, checked field by field, the offline values as fallback."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from pydantic import Field

from engine.extract.metadata import (
    MAX_ENTITIES, MAX_PERIODS, MAX_THEMES, body_sample, docinfo_date, extract_metadata, is_meaningful_author,
    page_blocks, plain_text,
)
from engine.llm.clients import LlmSession
from engine.llm.errors import LlmError
from engine.llm.prompts import render
from engine.llm.reply import LlmAnswer
from engine.schemas import ContextMetadata, DocKind, Entity, Heading, PdfInfo, Provenance, Theme, TimePeriod

VERSION = 2  # 2: a build's placeholder creation date is not shown to the model
FRONT_CHARS, SAMPLE_CHARS, MAX_HEADINGS = 12_000, 8_000, 80
ISO_DATE_RE = re.compile(r"^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?$")
LANGUAGE_RE = re.compile(r"^[a-z]{2}$")


class LlmTheme(LlmAnswer):
    name: str
    description: str = ""


class LlmEntity(LlmAnswer):
    name: str
    role: str = ""


class LlmPeriod(LlmAnswer):
    start_date: str = Field(default="", description="YYYY-MM-DD")
    end_date: str = Field(default="", description="YYYY-MM-DD")
    period_description: str = ""
    is_approximate: bool = False


class LlmMetadata(LlmAnswer):
    """The fields of ContextMetadata that the model fills (provenance is ours)."""

    title: str = ""
    author: str = ""
    publication_date: str = Field(default="", description="YYYY-MM-DD or empty")
    language: str = Field(default="", description="ISO 639-1 code")
    document_type: str = ""
    themes: list[LlmTheme] = Field(default_factory=list)
    entities: list[LlmEntity] = Field(default_factory=list)
    time_periods: list[LlmPeriod] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    summary: str = ""


@dataclass
class MetadataReport:
    metadata: ContextMetadata
    warnings: list[str] = field(default_factory=list)
    failed: bool = False  # the call failed for good: every field is the offline one


def iso_date(text: str) -> str | None:
    """`YYYY-MM-DD` for a valid date given as YYYY, YYYY-MM or YYYY-MM-DD (first of month/year), else None."""
    match = ISO_DATE_RE.match(text.strip())
    if not match:
        return None
    year, month, day = int(match[1]), int(match[2] or 1), int(match[3] or 1)
    try:
        return date(year, month, day).isoformat() if 1000 <= year <= 2999 else None
    except ValueError:
        return None


def _line(text: str) -> str:
    return " ".join(text.split())


def merge(offline: ContextMetadata, answer: LlmMetadata) -> tuple[ContextMetadata, list[str]]:
    """Each valid, non-empty model value replaces the offline one (provenance llm); invalid ones are reported."""
    values = offline.model_dump()
    provenance = dict(offline.provenance)
    rejected: list[str] = []

    def take(name: str, value: object) -> None:
        if value:
            values[name], provenance[name] = value, Provenance.LLM

    take("title", _line(answer.title))
    author = _line(answer.author)
    take("author", author if is_meaningful_author(author) else "")
    if answer.publication_date.strip():
        published = iso_date(answer.publication_date)
        take("publication_date", published)
        if published is None:
            rejected.append(f"publication_date {answer.publication_date!r}")
    language = answer.language.strip().lower()
    if language and not LANGUAGE_RE.match(language):
        rejected.append(f"language {answer.language!r}")
    take("language", language if LANGUAGE_RE.match(language) else "")
    take("document_type", _line(answer.document_type).lower())
    take("summary", answer.summary.strip())
    take("keywords", list(dict.fromkeys(_line(k) for k in answer.keywords if _line(k)))[:15])
    take("themes", [Theme(name=_line(t.name), description=_line(t.description))
                    for t in answer.themes if _line(t.name)][:MAX_THEMES])
    take("entities", [Entity(name=_line(e.name), role=_line(e.role)) for e in answer.entities if _line(e.name)]
         [:MAX_ENTITIES])
    periods = []
    for period in answer.time_periods:
        start, end = iso_date(period.start_date), iso_date(period.end_date)
        if (period.start_date and not start) or (period.end_date and not end) or (start and end and start > end):
            rejected.append(f"time period {period.start_date!r}..{period.end_date!r}")
            continue
        if start or end:
            periods.append(TimePeriod(start_date=start, end_date=end, is_approximate=period.is_approximate,
                                      period_description=_line(period.period_description)))
    take("time_periods", periods[:MAX_PERIODS])
    values["provenance"] = provenance
    return ContextMetadata.model_validate(values), rejected


def _prompt_inputs(info: PdfInfo, markdown: str, headings: list[Heading]) -> tuple[str, str]:
    blocks = page_blocks(markdown)
    front = plain_text("\n\n".join(blocks[:3]))[:FRONT_CHARS]
    sample = "\n\n".join(body_sample(blocks[3:], SAMPLE_CHARS)) if len(blocks) > 3 else ""
    docinfo = "; ".join(f"{k}: {v}" for k, v in info.docinfo.items() if k in ("title", "author", "subject", "keywords")
                        or (k == "creationDate" and docinfo_date(v)))  # (not a build's placeholder for no date)
    listed = [f"{'  ' * (h.level - 1)}{h.title} (p. {h.page})" for h in headings[:MAX_HEADINGS]]
    prompt = render("metadata", file_name=info.file_name, docinfo=docinfo, headings=listed, max_themes=MAX_THEMES,
                    max_entities=MAX_ENTITIES, max_periods=MAX_PERIODS)
    return prompt, f"{front}\n\n[...]\n\n{sample}" if sample else front


async def extract_metadata_llm(session: LlmSession, info: PdfInfo, markdown: str, headings: list[Heading], *,
                               kind: DocKind = "report") -> MetadataReport:
    """Offline metadata first (cheap, and the fallback), then one structured-output call merged over it."""
    offline = extract_metadata(info, markdown, headings, kind=kind)
    prompt, text = _prompt_inputs(info, markdown, headings)
    try:
        answer = await session.gemini.generate_json([prompt, text], LlmMetadata)
    except LlmError as exc:
        return MetadataReport(offline, [f"metadata: {exc}; kept the offline values"], failed=True)
    merged, rejected = merge(offline, answer)
    warnings = [f"metadata: ignored the model's invalid {', '.join(rejected)}"] if rejected else []
    return MetadataReport(merged, warnings)
