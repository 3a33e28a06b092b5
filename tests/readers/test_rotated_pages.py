"""A page turned by /Rotate (its media box portrait, its text running up it, shown level) is read as shown."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from engine.readers.offline import OfflineReader

SENTENCE = "The crews measured the flow at every reach and wrote it down in the field book."


def turned_pages(path: Path) -> Path:
    """Two pages whose text runs up a portrait media box and which /Rotate 90 shows level: a heading over a
    paragraph of three lines on each."""
    doc = pymupdf.open()
    for number in (1, 2):
        page = doc.new_page(width=612, height=792)
        page.insert_text((100, 700), f"Section {number} Survey Methods", fontsize=20, fontname="hebo", rotate=90)
        for k in range(3):
            page.insert_text((150 + 16 * k, 700), SENTENCE, fontsize=11, fontname="helv", rotate=90)
        page.set_rotation(90)
    doc.save(path)
    doc.close()
    return path


def test_a_turned_page_is_read_as_shown(tmp_path):
    result = OfflineReader().read(turned_pages(tmp_path / "turned.pdf"))
    lines = [line for line in result.markdown.split("\n") if line.strip()]
    assert any(line.startswith("#") and "Survey Methods" in line for line in lines), result.markdown
    assert result.markdown.count(SENTENCE) == 6  # every line of text, level, in reading order
    # the blocks are given in the page's own coordinates (as PyMuPDF's text search gives a quote's): each block
    # holds the words the page's own text layer has inside it
    page = result.blocks[0]
    assert (page.width, page.height) == (612, 792)
    with pymupdf.open(tmp_path / "turned.pdf") as doc:
        own = doc[0]
        for block in page.blocks:
            inside = own.get_textbox(pymupdf.Rect(block.bbox) + (-2, -2, 2, 2))
            assert block.text.split()[0] in inside, (block.text, inside)
