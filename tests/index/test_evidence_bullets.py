"""Evidence units of items set inline: a bullet glyph between words of one line opens a unit of its own."""

from __future__ import annotations

from engine.index.evidence import units


def _texts(page: str) -> list[str]:
    found = units(page)
    assert all(page[u.start:u.end] == u.text for u in found)  # (each unit a literal span of the page)
    return [u.text for u in found]


def test_bullets_set_inline_in_a_line_divide_it_into_items():
    page = ("Impact \uf06cDeployed 14 OT security controls \uf06cRemediated 42 sites\n\n"
            "Leaders. • They lead. ▪ They invest\n")
    assert _texts(page) == ["Impact", "Deployed 14 OT security controls", "Remediated 42 sites",
                            "Leaders.", "They lead.", "They invest"]


def test_operators_and_a_closing_mark_are_no_bullets_and_a_table_row_stays_one_unit():
    page = ("The distance of M ◦G(x) to the input is small. ■\n\n"
            "| Goal | • Use input validation • Apply segmentation |\n")
    assert _texts(page) == ["The distance of M ◦G(x) to the input is small. ■",
                            "Goal | • Use input validation • Apply segmentation"]


def test_a_line_all_in_bold_is_read_without_its_marks_and_inline_bold_stays():
    # the structure sets a heading its outline does not list as a bold line: answers quote its words, not "**"
    page = "The box is read first.\n\n**6.2.1 Element name**\n\nsignatureBox\n\nA **bold** word inside."
    found = [(u.text, page[u.start:u.end]) for u in units(page)]
    assert ("6.2.1 Element name", "6.2.1 Element name") in found
    assert not any("**" in text for text, _ in found[:3]) and found[-1][0] == "A **bold** word inside."


def test_a_heading_mark_stands_apart_from_its_text():
    # "#import fletcher: shapes" is a line of code (Markdown wants a space after the marks), "## Shapes" a heading
    found = units("## Shapes\n\n#import fletcher: shapes\n\n#diagram(node([Hello]))\n")
    assert [(u.text, u.heading) for u in found] == [("Shapes", True), ("#import fletcher: shapes", False),
                                                    ("#diagram(node([Hello]))", False)]
