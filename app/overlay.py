"""Rectangles drawn over a rendered page image: a citation's quote, the reader's blocks by kind.

Boxes are in PDF points with a top-left origin, in the page's own (unrotated) coordinates, as PyMuPDF's
text search and the reader give them. The page image is the page as displayed (rotated, cropped), drawn at
any resolution; so each box is turned with the page's rotation and placed in per cent of the displayed page,
and the layer scales with the image whatever its size on screen.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from htmltools import Tag, tags

Box = Sequence[float]  # x0, y0, x1, y1

BLOCK_KINDS: dict[str, str] = {  # kind -> legend label, in the legend's order
    "heading": "heading", "paragraph": "paragraph", "list_item": "list item", "table": "table",
    "figure": "figure", "caption": "caption", "code": "code", "formula": "formula", "furniture": "furniture",
}


@dataclass(frozen=True)
class PageGeometry:
    """A page as displayed: its size in points (rotation applied) and the matrix from page to display
    coordinates (PyMuPDF's rotation matrix: a, b, c, d, e, f)."""

    width: float
    height: float
    matrix: tuple[float, float, float, float, float, float] = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)

    def to_display(self, box: Box) -> tuple[float, float, float, float]:
        a, b, c, d, e, f = self.matrix
        corners = [(x * a + y * c + e, x * b + y * d + f) for x in (box[0], box[2]) for y in (box[1], box[3])]
        xs, ys = [p[0] for p in corners], [p[1] for p in corners]
        return min(xs), min(ys), max(xs), max(ys)

    def percent(self, box: Box) -> tuple[float, float, float, float] | None:
        """(left, top, width, height) of `box` in per cent of the displayed page, clipped to it; None for a
        box that is empty, malformed or off the page."""
        if len(box) != 4 or self.width <= 0 or self.height <= 0:
            return None
        x0, y0, x1, y1 = self.to_display(box)
        x0, x1 = max(0.0, x0), min(self.width, x1)
        y0, y1 = max(0.0, y0), min(self.height, y1)
        if x1 <= x0 or y1 <= y0:
            return None
        return (100 * x0 / self.width, 100 * y0 / self.height, 100 * (x1 - x0) / self.width,
                100 * (y1 - y0) / self.height)


def file_version(path: Path) -> tuple[str, int, int] | None:
    """A cache key for a file's current content: path, modification time and size (None: unreadable)."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return str(path), stat.st_mtime_ns, stat.st_size


def page_geometry(path: Path, page: int) -> PageGeometry | None:
    """The displayed size and rotation of a 1-based page (None when the PDF cannot be read); cached by
    file, size and modification time. Nothing is drawn: the page's dictionary is read."""
    version = file_version(path)
    return None if version is None else _geometry(*version, page)


@lru_cache(maxsize=4096)
def _geometry(path: str, _mtime: int, _size: int, page: int) -> PageGeometry | None:
    from engine.pdf import open_document

    try:
        with open_document(Path(path)) as doc:
            if not 1 <= page <= doc.page_count:
                return None
            pdf_page = doc[page - 1]
            rect, m = pdf_page.rect, pdf_page.rotation_matrix
            return PageGeometry(rect.width, rect.height, (m.a, m.b, m.c, m.d, m.e, m.f))
    except Exception:  # a damaged file: no overlay, the page image says why it cannot be drawn
        return None


def _rect(geometry: PageGeometry, box: Box, class_: str, title: str = "", **attrs: str) -> Tag | None:
    place = geometry.percent(box)
    if place is None:
        return None
    left, top, width, height = place
    return tags.div(class_=class_, title=title or None,
                    style=f"left: {left:.3f}%; top: {top:.3f}%; width: {width:.3f}%; height: {height:.3f}%",
                    **{"data-box": ",".join(f"{v:.2f}" for v in box), **attrs})


def highlight_layer(geometry: PageGeometry, boxes: Iterable[Box], label: str = "") -> Tag | None:
    """The rectangles of a cited quote (None when none lies on the page)."""
    marks = [r for box in boxes if (r := _rect(geometry, box, "pdfrag-highlight", label)) is not None]
    if not marks:
        return None
    return tags.div(*marks, class_="pdfrag-overlay pdfrag-highlight-layer", **{"aria-hidden": "true"})


def blocks_layer(geometry: PageGeometry, blocks: Iterable[tuple[str, Box, str]]) -> Tag | None:
    """The reader's blocks, (kind, bbox, tooltip) each, coloured by kind (None when there are none)."""
    marks = []
    for number, (kind, box, tip) in enumerate(blocks, start=1):
        name = kind if kind in BLOCK_KINDS else "other"
        mark = _rect(geometry, box, f"pdfrag-block pdfrag-block-{name}",
                     f"{number}. {BLOCK_KINDS.get(kind, kind)}: {tip}", **{"data-kind": name})
        if mark is not None:
            marks.append(mark)
    if not marks:
        return None
    return tags.div(*marks, class_="pdfrag-overlay pdfrag-blocks-layer", **{"aria-hidden": "true"})


def legend(counts: dict[str, int]) -> Tag:
    """The colours of the block kinds, with how many of each the page has."""
    items = [tags.span(tags.span(class_=f"pdfrag-swatch pdfrag-block-{kind}"), f"{label} {counts.get(kind, 0)}",
                       class_="pdfrag-legend-item", **{"data-kind": kind})
             for kind, label in BLOCK_KINDS.items() if counts.get(kind)]
    if not items:
        items = [tags.span("no blocks on this page", class_="text-muted")]
    return tags.div(*items, class_="pdfrag-legend small")
