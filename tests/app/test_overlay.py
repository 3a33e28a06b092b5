"""Overlay rectangles land where the text is on the rendered page image, rotated pages included."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from htmltools import TagList

from app.overlay import PageGeometry, blocks_layer, highlight_layer, legend, page_geometry


def _pdf(path: Path, rotation: int) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=600, height=800)
    page.insert_text((300, 150), "Marker", fontsize=30)
    page.set_rotation(rotation)
    doc.save(path)
    doc.close()
    return path


def _ink_share(pix: pymupdf.Pixmap, left: float, top: float, width: float, height: float) -> float:
    """Share of dark pixels of the whole image that fall inside the rectangle given in per cent."""
    x0, y0 = int(left * pix.width / 100), int(top * pix.height / 100)
    x1, y1 = int((left + width) * pix.width / 100) + 1, int((top + height) * pix.height / 100) + 1
    inside = total = 0
    for y in range(pix.height):
        for x in range(pix.width):
            if pix.pixel(x, y)[0] < 128:
                total += 1
                inside += x0 <= x <= x1 and y0 <= y <= y1
    return inside / total if total else 0.0


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_a_quote_box_covers_its_text_on_the_image(tmp_path, rotation):
    path = _pdf(tmp_path / f"r{rotation}.pdf", rotation)
    with pymupdf.open(path) as doc:
        page = doc[0]
        [found] = page.search_for("Marker")  # unrotated page coordinates, as Citation.boxes
        pix = page.get_pixmap(dpi=36)  # the page as displayed, as the app renders it
    geometry = page_geometry(path, 1)
    assert (geometry.width, geometry.height) == ((800, 600) if rotation in (90, 270) else (600, 800))
    place = geometry.percent([found.x0, found.y0, found.x1, found.y1])
    assert place is not None
    assert _ink_share(pix, *place) > 0.9  # the text's ink lies inside the drawn rectangle


def test_boxes_off_the_page_or_malformed_are_dropped():
    geometry = PageGeometry(100, 200)
    assert geometry.percent([10, 20, 60, 40]) == (10.0, 10.0, 50.0, 10.0)
    assert geometry.percent([-50, 10, -10, 20]) is None and geometry.percent([1, 2, 3]) is None
    assert geometry.percent([90, 190, 150, 250]) == (90.0, 95.0, 10.0, 5.0)  # clipped to the page
    assert highlight_layer(geometry, [[500, 500, 600, 600]]) is None


def test_layers_carry_kinds_and_escape_the_text():
    geometry = PageGeometry(100, 100)
    html = TagList(blocks_layer(geometry, [("heading", (0, 0, 50, 10), "<script>x</script>"),
                                           ("weird", (0, 20, 50, 30), "t")])).get_html_string()
    assert 'data-kind="heading"' in html and 'data-kind="other"' in html and "<script>" not in html
    assert "left: 0.000%; top: 20.000%; width: 50.000%; height: 10.000%" in html
    counts = TagList(legend({"heading": 2, "table": 1})).get_html_string()
    assert "heading 2" in counts and "table 1" in counts and "paragraph" not in counts


def test_an_unreadable_file_has_no_geometry(tmp_path):
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"%PDF-1.4 nothing else")
    assert page_geometry(bad, 1) is None and page_geometry(tmp_path / "missing.pdf", 1) is None
