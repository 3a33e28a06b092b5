"""The index keeps which lines of a page are notes (engine.index.passages.note_lines), and a page's analysis marks
their units (engine.index.evidence.analyse)."""

from __future__ import annotations

from engine.index.evidence import analyse
from engine.index.passages import note_lines
from engine.schemas.blocks import Block, BlockStyle, PageBlocks

BODY = "The committee met four times during the year and reviewed the budget of the program."


def test_a_footnote_block_is_found_among_its_page_lines_and_its_units_are_notes():
    blocks = [Block(kind="heading", text="Meetings", level=2, bbox=(72, 40, 300, 60), style=BlockStyle(size=14)),
              Block(kind="paragraph", text=BODY + " It met in June.12", bbox=(72, 80, 540, 300),
                    style=BlockStyle(size=10)),
              Block(kind="paragraph", text="12 See the minutes. They list the members.", bbox=(72, 700, 540, 712),
                    style=BlockStyle(size=8))]
    text = f"## Meetings\n\n{BODY} It met in June.12\n\n12 See the minutes. They list the members."
    lines = note_lines([PageBlocks(page=1, width=612, height=792, blocks=blocks)], [text])
    assert lines == {1: frozenset({4})}
    analysis = analyse(text, notes=lines[1])
    assert [analysis.units[i].text for i in sorted(analysis.notes)] == ["12 See the minutes.", "They list the members."]
    note = analysis.units[min(analysis.notes)]
    assert analysis.note_span(note.start, len(text)) and not analysis.note_span(0, len(text))
