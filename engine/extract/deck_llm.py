"""Deck titles and sections from Gemini, each answer checked; the offline titles and grouping as fallback."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.extract import landscape
from engine.llm.clients import LlmSession
from engine.llm.errors import LlmError
from engine.llm.prompts import render
from engine.llm.reply import LlmAnswer
from engine.markdown import split_pages

VERSION = 1
TITLE_BATCH = 40  # slides per titles call
SLIDE_CHARS = 700
MAX_TITLE_WORDS = 20


class LlmSlideTitle(LlmAnswer):
    page: int
    title: str = ""


class LlmSlideTitles(LlmAnswer):
    titles: list[LlmSlideTitle]


class LlmSection(LlmAnswer):
    title: str
    first_page: int


class LlmSections(LlmAnswer):
    sections: list[LlmSection]


@dataclass
class DeckReport:
    """Slide titles (None: untitled), sections, and what was kept from the offline reading."""

    titles: list[str | None]
    sections: list[landscape.Section]
    warnings: list[str] = field(default_factory=list)
    fallbacks: int = 0
    failed: bool = False


def check_title(title: str) -> str | None:
    """A usable slide title: one line of letters, not a sentence-long paragraph."""
    title = " ".join(title.split()).strip("*_` #").strip()
    if not title or not any(ch.isalpha() for ch in title) or len(title.split()) > MAX_TITLE_WORDS:
        return None
    return title


def check_sections(answer: LlmSections, pages: int) -> tuple[list[landscape.Section] | None, str]:
    """Sections covering pages 1..pages in order, or None and what is wrong with the draft."""
    drafts = [(s.title.strip(), s.first_page) for s in answer.sections]
    if not drafts:
        return None, "no sections"
    keys = [landscape.title_stem(t).casefold() for t, _ in drafts]
    duplicates = sorted({t for t, k in zip((t for t, _ in drafts), keys) if keys.count(k) > 1})
    if duplicates:
        return None, f"duplicate section titles {duplicates}"
    if any(not title for title, _ in drafts):
        return None, "a section without a title"
    starts = [first for _, first in drafts]
    if starts[0] != 1 or any(b <= a for a, b in zip(starts, starts[1:])) or starts[-1] > pages:
        return None, f"first pages {starts} do not start at 1 and go up within 1..{pages}"
    bounds = starts + [pages + 1]
    return [landscape.Section(title=title, pages=list(range(bounds[i], bounds[i + 1])))
            for i, (title, _) in enumerate(drafts)], ""


async def deck_titles(session: LlmSession, blocks: list[str],
                      offline: list[str | None]) -> tuple[list[str | None], int, bool]:
    """(titles, pages that kept the offline title, whether a call failed for good)."""
    titles = list(offline)
    model_titles: dict[int, str | None] = {}
    failed = False
    for start in range(0, len(blocks), TITLE_BATCH):
        batch = range(start + 1, min(len(blocks), start + TITLE_BATCH) + 1)
        text = "\n\n".join(f"=== page {n} ===\n{blocks[n - 1][:SLIDE_CHARS]}" for n in batch)
        prompt = render("deck_titles", first_page=batch[0], last_page=batch[-1])
        try:
            answer = await session.gemini.generate_json([prompt, text], LlmSlideTitles)
        except LlmError:
            failed = True
            continue
        for item in answer.titles:
            if item.page in batch and item.page not in model_titles:
                model_titles[item.page] = check_title(item.title) if item.title.strip() else None
    kept = 0
    for page in range(1, len(blocks) + 1):
        if page in model_titles and (model_titles[page] is not None or offline[page - 1] is None):
            titles[page - 1] = model_titles[page]
        else:
            kept += 1
    return titles, kept, failed


async def deck_sections(session: LlmSession, titles: list[str | None],
                        agenda: list[str] | None) -> tuple[list[landscape.Section] | None, list[str]]:
    """A section draft, checked; one retry with the problem stated; None when both are rejected."""
    listed = [f"Page {n} : {t}" for n, t in enumerate(landscape.fill_titles(titles), start=1)]
    problems: list[str] = []
    for _ in range(2):
        prompt = render("deck_sections", pages=len(titles), titles=listed, agenda=agenda or [],
                        problem=problems[-1] if problems else "")
        answer = await session.gemini.generate_json([prompt], LlmSections)
        sections, problem = check_sections(answer, len(titles))
        if sections is not None:
            return sections, problems
        problems.append(problem)
    return None, problems


async def analyse_deck(session: LlmSession, markdown: str) -> DeckReport:
    """Titles per slide and sections, each from the model when its answer passes the checks."""
    blocks = split_pages(markdown)
    offline_titles = landscape.slide_titles(markdown)
    titles, kept, failed = await deck_titles(session, blocks, offline_titles)
    report = DeckReport(titles=titles, sections=[], failed=failed)
    if kept:
        report.fallbacks += 1
        report.warnings.append(f"deck titles: {kept} slide(s) kept the title read from the page")
    agenda = landscape.find_agenda(markdown, titles)
    try:
        sections, problems = await deck_sections(session, titles, agenda)
    except LlmError as exc:
        sections, problems, report.failed = None, [str(exc)], True
    if sections is None:
        report.fallbacks += 1
        report.warnings.append(f"deck sections: the model's grouping was rejected ({'; '.join(problems)}); "
                               "grouped by agenda and title instead")
        sections = landscape.group_sections(titles, agenda)
    elif problems:
        report.warnings.append(f"deck sections: first draft rejected ({problems[0]}); the retry passed")
    report.sections = sections
    return report
