"""Offline reformatting: one H1 title, coherent heading levels with no skips, markers kept.

Only heading prefixes change (and a title line may be added), so every word of the input survives.
"""

from __future__ import annotations

from engine.markdown import HEADING_RE, MARKER_RE, count_markers, iter_headings

VERSION = 2  # 2: a fence closes only with its own kind (engine.markdown.Fences)
MAX_LEVEL = 6


def normalize_document(markdown: str, *, doc_format: str, fallback_title: str) -> tuple[str, list[str]]:
    """Return (reformatted markdown, warnings) for a page-marked document."""
    lines = markdown.split("\n")
    warnings: list[str] = []
    heads = _heading_lines(lines)
    title_index = _title_heading(lines, heads)
    if title_index is None:
        title = fallback_title.strip() or "Untitled document"
        lines.insert(0, "")
        lines.insert(0, f"# {title}")
        heads = [(i + 2, level) for i, level in heads]
        title_index = 0
        warnings.append(f"no title heading found: added '# {title}'")
    # every other heading sits below the title, levels compressed so none is skipped
    stack: list[int] = []  # original levels of the open headings
    for index, level in heads:
        if index == title_index:
            continue
        while stack and stack[-1] >= level:
            stack.pop()
        stack.append(level)
        new_level = min(len(stack) + 1, MAX_LEVEL)
        heading = HEADING_RE.match(lines[index])
        assert heading is not None  # heads are the heading lines
        text = heading.group(2)
        lines[index] = f"{'#' * new_level} {text}"
    if doc_format == "landscape":
        _check_markers(markdown, warnings)
    return "\n".join(lines), warnings


def _heading_lines(lines: list[str]) -> list[tuple[int, int]]:
    return [(heading.line, heading.level) for heading in iter_headings("\n".join(lines))]


def _title_heading(lines: list[str], heads: list[tuple[int, int]]) -> int | None:
    """The line of the document's title: the first heading, on page 1, at the top level, used once."""
    if not heads:
        return None
    first_index, first_level = heads[0]
    if any(MARKER_RE.match(line) for line in lines[:first_index]):
        return None  # the first heading is not on page 1
    top = min(level for _, level in heads)
    same = sum(1 for _, level in heads if level == first_level)
    return first_index if first_level == top and same == 1 else None


def _check_markers(markdown: str, warnings: list[str]) -> None:
    numbers = [int(m.group(1)) for l in markdown.split("\n") if (m := MARKER_RE.match(l))]
    if numbers != list(range(1, len(numbers) + 1)):
        warnings.append(f"page markers out of order: {count_markers(markdown)} markers")
