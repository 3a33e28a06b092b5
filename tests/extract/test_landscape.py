"""Decks: slide titles, landscape pages, grouping by stem and by agenda, the deck structure string."""

from engine.extract.landscape import (
    Section,
    deck_structure,
    find_agenda,
    group_sections,
    landscape_pages,
    slide_titles,
    title_stem,
)
from engine.markdown import join_pages


def test_slide_titles_heading_then_title_like_line_else_none():
    deck = join_pages([
        "Some intro line\n# Real Title\nbody",
        "**Key figures**\n- a\n- b",
        "This is a sentence that ends with a period.",
        "42",
        "- a bullet first",
        "```\n# code\n```\nText",
        "",
        "[IMAGE: logo-1]\n\nOur team",
    ])
    assert slide_titles(deck) == ["Real Title", "Key figures", None, None, None, None, None, "Our team"]


def test_landscape_pages_carries_titles_forward():
    assert landscape_pages([None, "Intro", None, "Results"]) == (
        "Page 1 : Untitled\nPage 2 : Intro\nPage 3 : Intro\nPage 4 : Results"
    )


def test_title_stem_continuation_marks():
    assert title_stem("Deloitte profile (page 2 of 6)") == "Deloitte profile"
    assert title_stem("Customer stories (1 of 3)") == "Customer stories"
    assert title_stem("Results — continued") == "Results"
    assert title_stem("Results (cont.)") == "Results"
    assert title_stem("Agenda 2/3") == "Agenda"
    assert title_stem("Results continued (2/3)") == "Results"
    assert title_stem("Top 10 risks") == "Top 10 risks"
    assert title_stem("2/3") == "2/3"


def test_group_by_title_stem():
    titles = [
        "Acme", "Deloitte profile (page 1 of 6)", "Deloitte profile (page 2 of 6)", None,
        "Customer stories (1 of 3)", "Customer stories (2 of 3)", "Results", "Results — continued",
        "Results (cont.)", "Agenda 2/3", "Agenda 3/3",
    ]
    assert group_sections(titles) == [
        Section(title="Acme", pages=[1]),
        Section(title="Deloitte profile", pages=[2, 3, 4]),
        Section(title="Customer stories", pages=[5, 6]),
        Section(title="Results", pages=[7, 8, 9]),
        Section(title="Agenda", pages=[10, 11]),
    ]


def test_group_untitled_first_pages():
    assert group_sections([None, None, "Intro"]) == [
        Section(title="Untitled", pages=[1, 2]), Section(title="Intro", pages=[3])
    ]
    assert group_sections([]) == []


DECK = join_pages([
    "# Acme Strategy 2024",
    "## Agenda\n\n1. Market\n2. Our offer ........ 7\n- **Next steps**\n\nThank you",
    "# Market size",
    "# Competitors",
    "# Our offer: pricing",
    "",
    "# Next steps",
    "# Q&A",
])


def test_find_agenda_reads_items():
    titles = slide_titles(DECK)
    assert find_agenda(DECK, titles) == ["Market", "Our offer", "Next steps", "Thank you"]


def test_find_agenda_table_and_none():
    deck = join_pages(["Cover", "# Contents\n| 1 | Introduction |\n|---|---|\n| 2 | Findings |"])
    assert find_agenda(deck, slide_titles(deck)) == ["Introduction", "Findings"]
    plain = join_pages(["# Cover", "# Market\n- a\n- b"])
    assert find_agenda(plain, slide_titles(plain)) is None
    today = join_pages(["# Today's agenda\n- Market\n- Offer"])
    assert find_agenda(today, slide_titles(today)) == ["Market", "Offer"]
    late = join_pages(["# A", "# B", "# C", "# D", "# Agenda\n- x\n- y"])
    assert find_agenda(late, slide_titles(late)) is None


def test_group_by_agenda():
    titles = slide_titles(DECK)
    agenda = find_agenda(DECK, titles)
    assert group_sections(titles, agenda) == [
        Section(title="Acme Strategy 2024", pages=[1]),
        Section(title="Agenda", pages=[2]),
        Section(title="Market", pages=[3, 4]),
        Section(title="Our offer", pages=[5, 6]),
        Section(title="Next steps", pages=[7, 8]),
    ]
    # an agenda nothing matches falls back to title stems
    assert group_sections(["A", "B"], ["Zebra", "Yak"]) == [
        Section(title="A", pages=[1]), Section(title="B", pages=[2])
    ]


def test_group_sections_lists_every_page_once_in_order():
    titles = slide_titles(DECK)
    for agenda in (None, find_agenda(DECK, titles)):
        pages = [p for s in group_sections(titles, agenda) for p in s.pages]
        assert pages == list(range(1, len(titles) + 1))


def test_deck_structure_format():
    titles = ["Intro", None, "Results (1 of 2)", "Results (2 of 2)"]
    assert deck_structure(group_sections(titles), titles) == (
        "# Intro\n"
        "- Page 1 : Intro\n"
        "- Page 2 : Intro\n"
        "# Results\n"
        "- Page 3 : Results (1 of 2)\n"
        "- Page 4 : Results (2 of 2)"
    )


def test_counter_in_the_middle_of_a_title_groups_slides():
    from engine.extract.landscape import group_sections, title_stem

    titles = [f"Deloitte profile (page {k} of 3) {sub}" for k, sub in enumerate(["Overview", "Cases", "Offers"], 1)]
    assert title_stem(titles[1]) == "Deloitte profile"
    sections = group_sections(["Intro", *titles])
    assert [(s.title, s.pages) for s in sections] == [("Intro", [1]), ("Deloitte profile", [2, 3, 4])]


def entries(*items) -> list:
    """PDF outline entries from (level, title, page)."""
    from engine.schemas.pdf import OutlineEntry

    return [OutlineEntry(level=level, title=title, page=page) for level, title, page in items]


def test_a_decks_outline_gives_its_sections_and_subsections():
    """A Beamer talk's outline: sections and subsections, each holding the slides from its page up to the next
    entry's; a section opening with its first subsection holds none of its own; the title slide before the first
    entry is grouped by its title."""
    from engine.extract.landscape import outline_sections

    titles = ["Talk", "Motivation", "Motivation", "Model", "Results", "Summary"]
    outline = entries((1, "Introduction", 2), (2, "Why it matters", 2), (2, "The model", 4), (1, "Results", 5),
                      (1, "Summary", 6))
    sections = outline_sections(outline, titles)
    assert [(s.title, s.level, s.pages, s.outline) for s in sections] == [
        ("Talk", 1, [1], False), ("Introduction", 1, [], True), ("Why it matters", 2, [2, 3], True),
        ("The model", 2, [4], True), ("Results", 1, [5], True), ("Summary", 1, [6], True)]
    structure = deck_structure(sections, titles)
    assert structure.splitlines()[:5] == ["# Talk", "- Page 1 : Talk", "# Introduction [outline]",
                                          "## Why it matters [outline]", "- Page 2 : Motivation"]


def test_an_outline_that_cannot_group_a_deck_is_not_used():
    from engine.extract.landscape import outline_sections

    titles = ["A", "B", "C"]
    assert outline_sections(entries((1, "Only", 2)), titles) is None  # (one entry groups nothing)
    assert outline_sections(entries((1, "Late", 3), (1, "Early", 2)), titles) is None  # (goes back in the deck)
    assert outline_sections(entries((1, "Gone", None), (1, "Out", 9), (1, "In", 2)), titles) is None
