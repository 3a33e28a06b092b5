"""Created TOC: headings with lines and pages, the root-entry rule, fenced code ignored, deck TOC."""

from engine.extract.landscape import Section
from engine.extract.toc_create import create_deck_toc, create_report_toc, headings_from_markdown
from engine.markdown import join_pages
from engine.schemas.toc import Heading

REPORT = join_pages([
    "# Annual Report\n\nIntro text.",
    "## Methods\n\n```python\n# not a heading\n```\n\n### Sampling\ntext",
    "more\n\n## Results",
])
# line 0 "# Annual Report", 6 "## Methods", 12 "### Sampling", 19 "## Results"


def test_headings_from_markdown_lines_and_pages():
    assert headings_from_markdown(REPORT) == [
        Heading(title="Annual Report", level=1, line=0, page=1),
        Heading(title="Methods", level=2, line=6, page=2),
        Heading(title="Sampling", level=3, line=12, page=2),
        Heading(title="Results", level=2, line=19, page=3),
    ]


def test_report_toc_without_preamble_keeps_levels():
    assert create_report_toc(REPORT, "annual-report") == (
        "# Annual Report [line 0]\n"
        "## Methods [line 6]\n"
        "### Sampling [line 12]\n"
        "## Results [line 19]"
    )


def test_report_toc_with_preamble_adds_root_entry_and_pushes_levels_down():
    markdown = join_pages(["Cover page\nACME Corp", "# Annual Report\n\n## Methods\ntext"])
    assert create_report_toc(markdown, "acme-2024") == (
        "# acme-2024 [line 0]\n"
        "## Annual Report [line 5]\n"
        "### Methods [line 7]"
    )


def test_report_toc_without_headings_is_the_root_entry():
    assert create_report_toc(join_pages(["just text", "more"]), "notes") == "# notes [line 0]"


def test_report_toc_ignores_fenced_code_even_first():
    markdown = "```\n# fake\n```\n# Real\n\n--- end page 1\n"
    assert create_report_toc(markdown, "doc") == "# doc [line 0]\n## Real [line 3]"


def test_deck_toc_one_entry_per_section_with_first_page():
    sections = [Section(title="Intro", pages=[1, 2]), Section(title="Results", pages=[3, 4, 5])]
    assert create_deck_toc(sections) == "# Intro [page 1]\n# Results [page 3]"


def test_report_toc_from_reconciled_headings_tags_their_source_and_keeps_deep_levels():
    from engine.schemas.toc import StructureHeading

    headings = [StructureHeading(title="Annual Report", level=1, line=0),
                StructureHeading(title="Methods", level=2, line=6, source="outline"),
                StructureHeading(title="Deep", level=7, line=12, source="outline")]
    assert create_report_toc(REPORT, "annual-report", headings) == (
        "# Annual Report [line 0]\n"
        "## Methods [line 6] [outline]\n"
        "####### Deep [line 12] [outline]"
    )
