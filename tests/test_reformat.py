"""The offline normaliser: one H1, no skipped levels, words and markers untouched."""

from __future__ import annotations

import re

from engine.markdown import iter_headings, join_pages
from engine.reformat import normalize_document


def _levels(md: str) -> list[int]:
    return [h.level for h in iter_headings(md)]


def test_unique_first_heading_becomes_the_title():
    md = join_pages(["# Report\n\ntext", "## A\n\nbody\n\n#### A.1\n\nmore", "## B"])
    out, warnings = normalize_document(md, doc_format="portrait", fallback_title="file")
    assert _levels(out) == [1, 2, 3, 2]
    assert warnings == []


def test_missing_title_is_added_and_levels_shift():
    md = join_pages(["intro text", "# One\n\nx", "### Deep\n\ny", "# Two"])
    out, warnings = normalize_document(md, doc_format="portrait", fallback_title="My File")
    assert out.startswith("# My File\n")
    assert _levels(out) == [1, 2, 3, 2]
    assert warnings and "added" in warnings[0]


def test_fenced_code_headings_are_untouched():
    md = join_pages(["# T\n\n```\n# not a heading\n```\n\n### Real"])
    out, _ = normalize_document(md, doc_format="portrait", fallback_title="x")
    assert "# not a heading" in out
    assert _levels(out) == [1, 2]


def test_a_fence_closes_only_with_its_own_kind_as_commonmark_reads_it():
    # a program's output printed in a code block ("~~~Simple example;") neither closes it nor hides what follows
    md = "# T\n\n```\n#message Simple example;\n~~~Simple example;\n```\n\n## After\n\n~~~~\n```\n## code\n~~~~\n\n## Last"
    assert [h.title for h in iter_headings(md)] == ["T", "After", "Last"]
    assert [h.title for h in iter_headings("# T\n\n````\n```\n## code\n````\n## Out")] == ["T", "Out"]


def test_depth_is_capped_at_six_and_words_survive():
    md = join_pages(["# T\n\n" + "\n\n".join(f"{'#' * min(n, 6)} Level {n} words here" for n in range(2, 9))])
    out, _ = normalize_document(md, doc_format="portrait", fallback_title="x")
    assert max(_levels(out)) == 6
    assert re.findall(r"\w+", md.replace("#", "")) == re.findall(r"\w+", out.replace("#", ""))


def test_deck_markers_checked():
    md = "slide\n\n--- end page 1\n\nslide\n\n--- end page 3\n"
    _, warnings = normalize_document(md, doc_format="landscape", fallback_title="x")
    assert any("markers" in w for w in warnings)
