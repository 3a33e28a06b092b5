"""Heading rules found on blind set 16 (an API reference whose pages are headed by function names in camel case),
on synthetic lines."""

from __future__ import annotations

from engine.readers.layout import PageLayout
from tests.readers.test_heading_rules import heading_titles, line, prose

NAMES = ["spssGetVarCount", "spssSetVarName", "spssOpenRead", "spssCloseWrite"]


def _reference(names: list[str]):
    # a reference chapter: each page headed by a name set large in bold, over prose and a "Description" label
    pages = [PageLayout(1, 595, 842, [line("Procedure reference", 72, 60, size=20, bold=True)] + prose(90, 10), [])]
    for n, name in enumerate(names, start=2):
        lines = [line(name, 72, 60, size=16, bold=True)] + prose(90, 4) \
            + [line("Description", 72, 200, size=11, bold=True)] + prose(220, 6)
        pages.append(PageLayout(n, 595, 842, lines, []))
    return pages


def test_a_function_name_in_camel_case_set_large_heads_its_page():
    titles = heading_titles(_reference(NAMES))
    assert set(NAMES) <= set(titles), titles


def test_a_large_line_of_lower_case_words_is_no_heading():
    # a large bold line of ordinary lower-case words opens no heading by this rule
    titles = heading_titles(_reference([f"see the table on page {n}" for n in range(4)]))
    assert not any(t.startswith("see the table") for t in titles)
