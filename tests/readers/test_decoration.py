"""Images in the same place on most pages (a logo, a watermark) are decoration: they end no paragraph."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from engine.readers.blocks import recurring_places
from engine.readers.offline import OfflineReader
from tests.conftest import png_bytes

LINE = "the field teams compared their readings with the long term station records and noted"


def _pages(path: Path, watermark_pages: set[int]) -> Path:
    """Four pages, each one paragraph of fourteen lines; an image over its middle lines on `watermark_pages`."""
    doc = pymupdf.open()
    image = png_bytes(300, 300)
    for number in range(1, 5):
        page = doc.new_page(width=612, height=792)
        if number in watermark_pages:
            page.insert_image(pymupdf.Rect(150, 200, 450, 500), stream=image, overlay=False)
        page.insert_text((72, 100), f"Section {number}", fontsize=14, fontname="hebo")
        y = 140.0
        for k in range(14):
            text = LINE.capitalize() if k == 0 else LINE
            page.insert_text((72, y), f"{text}." if k == 13 else text, fontsize=10, fontname="helv")
            y += 26  # (lines run down past the image's top)
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(path)
    doc.close()
    return path


def _paragraphs(path: Path) -> list[int]:
    return [sum(1 for b in page.blocks if b.kind == "paragraph") for page in OfflineReader().read(path).blocks]


def test_a_watermark_on_every_page_ends_no_paragraph(tmp_path):
    assert _paragraphs(_pages(tmp_path / "marked.pdf", {1, 2, 3, 4})) == [1, 1, 1, 1]


def test_an_image_on_one_page_still_ends_its_paragraph(tmp_path):
    assert _paragraphs(_pages(tmp_path / "once.pdf", {2})) == [1, 2, 1, 1]


def test_recurring_places():
    box, other = (10.2, 20.0, 110.0, 60.4), (10.0, 300.0, 110.0, 340.0)
    assert recurring_places([[box], [box], [box, other], []]) == {(10, 20, 110, 60)}
    assert recurring_places([[box], [box]]) == set()  # (three pages at least)
