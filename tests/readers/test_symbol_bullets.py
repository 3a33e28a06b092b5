"""Bullets drawn in a symbol font (Wingdings' circle, reported in the private-use block as U+F06C) open list
items, in the text and in a table's cell, as the other bullet glyphs do."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from engine.markdown import split_pages
from engine.readers.layout import PageLayout
from engine.readers.offline import OfflineReader, compose
from engine.readers.ruled import Grid
from tests.readers.test_paragraph_rules import PROSE, blocks_of, line, page

CIRCLE = "\uf06c"  # Wingdings "l": what a text layer with Word's ToUnicode map reports for its round bullet
SQUARE = "\uf06e"  # Wingdings "n", a square bullet
TO_CIRCLE = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Bullets def "
             b"1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfchar <6C> <F06C> endbfchar "
             b"endcmap CMapName currentdict /CMap defineresource pop end end")
ITEMS = ("Deployed fourteen security controls on the plant network", "Remediated forty-two manufacturing sites",
         "Identified and monitored more than thirty thousand digital assets")


def _bulleted_pdf(path: Path) -> Path:
    """A page with a sentence, then three items each led by a dingbat bullet set smaller, in a symbol font
    whose ToUnicode map gives the private-use code Word writes (U+F06C)."""
    doc = pymupdf.open()
    pg = doc.new_page()
    pg.insert_text((72, 100), "The programme had three outcomes over its first fourteen months of work.",
                   fontname="helv", fontsize=10)
    for k, text in enumerate(ITEMS):
        pg.insert_text((72, 122 + 16 * k), "l", fontname="zadb", fontsize=7)
        pg.insert_text((84, 122 + 16 * k), text, fontname="helv", fontsize=10)
    for xref, *_rest, base, _name, _enc in [f[:6] for f in pg.get_fonts()]:
        if base == "ZapfDingbats":
            cmap = doc.get_new_xref()
            doc.update_object(cmap, "<<>>")
            doc.update_stream(cmap, TO_CIRCLE)
            doc.xref_set_key(xref, "ToUnicode", f"{cmap} 0 R")
    doc.save(path)
    return path


def test_a_line_led_by_a_symbol_font_bullet_is_a_list_item(tmp_path):
    layouts, warnings = OfflineReader().layouts(_bulleted_pdf(tmp_path / "bullets.pdf"))
    assert [l.text[:1] for l in layouts[0].lines[1:]] == [CIRCLE] * 3  # (what the text layer reports)
    result = compose(layouts, warnings)
    blocks = [b for p in result.blocks for b in p.blocks if b.kind != "furniture"]
    assert [(b.kind, b.text) for b in blocks] == [
        ("paragraph", "The programme had three outcomes over its first fourteen months of work.")] + [
        ("list_item", text) for text in ITEMS]
    lines = split_pages(result.markdown)[0].split("\n")
    assert all(f"- {text}" in lines for text in ITEMS)
    assert CIRCLE not in result.markdown


def test_a_ruled_cells_lines_led_by_bullets_keep_their_items_apart():
    grid = Grid([72, 200, 540], [100, 120, 160, 180], [(y, 72, 540) for y in (100, 120, 160, 180)])
    rows = [("Outcome", 74, 114), ("What the work changed at the sites", 202, 114),
            ("Impact", 74, 134), (f"{CIRCLE}Deployed 14 OT security controls across the sites", 202, 134),
            (f"{CIRCLE}Remediated 42 manufacturing and research sites", 202, 146),
            ("Role", 74, 174), (f"Function {SQUARE}aggregates the plant's logs", 202, 174)]
    body = [line(PROSE[k % 3], 72, 200 + 12 * k, x1=540) for k in range(6)]
    layout = PageLayout(1, 612, 792, [line(t, x, b) for t, x, b in rows] + body, [], grids=[grid])
    _, blocks = blocks_of(layout)
    (table,) = [b for b in blocks if b.kind == "table"]
    assert table.cells[1] == ["Impact", "• Deployed 14 OT security controls across the sites "
                                        "• Remediated 42 manufacturing and research sites"]
    assert table.cells[2] == ["Role", "Function • aggregates the plant's logs"]  # (a label read into its line)


def test_a_tick_in_a_cell_keeps_its_glyph():
    rows = [("Feature", 72, 100), ("Supported", 250, 100), ("Export", 72, 120), ("✓ yes", 250, 120)]
    _, blocks = blocks_of(page([line(t, x, b) for t, x, b in rows]))
    assert blocks[0].cells[1] == ["Export", "✓ yes"]
