"""Small shared pieces of the pages: the focused document and page, open-at-page links, doc choices."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from engine.schemas import DocumentRecord, Status


class Focus:
    """The document (doc_id) and 1-based page the Inspect, Metadata and Structure pages show.

    Two reactive values, so that turning a page does not invalidate what depends on the document only.
    Create it inside a session's server function (it is that session's state).
    """

    def __init__(self, doc: str | None = None, page: int = 1) -> None:
        from shiny import reactive

        self.doc = reactive.value[str | None](doc)
        self.page = reactive.value(page)
        self.highlight = reactive.value[Highlight | None](None)  # a cited passage to mark on its page

    def set(self, doc: str | None, page: int = 1, highlight: Highlight | None = None) -> None:
        self.doc.set(doc)
        self.page.set(page)
        self.highlight.set(highlight)


Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in PDF points, top-left origin (as Citation.boxes)


@dataclass(frozen=True)
class Highlight:
    """Rectangles to mark on one page of a document (a citation's quote), with what they mark."""

    doc: str
    page: int
    boxes: tuple[Box, ...]
    label: str = ""


@dataclass(frozen=True)
class OpenRequest:
    """A request to show a document's page in Inspect (distinct every time, so repeats are seen)."""

    doc: str
    page: int
    highlight: Highlight | None = None  # what to mark on that page, if anything
    nonce: int = field(default_factory=time.perf_counter_ns)


def open_request_from(value: object) -> OpenRequest | None:
    """The OpenRequest carried by a clicked page link ({"doc", "page"}), or None when it is malformed."""
    try:
        return OpenRequest(str(value["doc"]), int(value["page"]))  # type: ignore[index]
    except (KeyError, TypeError, ValueError):
        return None


def page_link_requests(input, session):
    """A module's open-at-page links: the input id their clicks arrive on, and a reactive value holding
    the last well-formed request (call inside the module's server function)."""
    from shiny import reactive

    requests = reactive.value[OpenRequest | None](None)

    @reactive.effect
    @reactive.event(input.open)
    def _open():
        request = open_request_from(input.open() or {})
        if request is not None:
            requests.set(request)

    return session.ns("open"), requests


def usable(record: DocumentRecord) -> bool:
    return record.status in (Status.OK, Status.PARTIAL) or record.pages > 0


def doc_choices(records: list[DocumentRecord]) -> dict[str, str]:
    """doc_id -> label for select inputs: the file name with its page count."""
    return {r.doc_id: f"{r.file_name} ({r.pages} p.)" if r.pages else r.file_name for r in records}


def open_link(input_id: str, doc_id: str, page: int, text: str, *, title: str = "", cite: str | None = None):
    """An <a> tag that asks the app (through app.js) to open `page` of `doc_id` in Inspect; `text` and
    `title` may come from the document (htmltools escapes them).

    `input_id` is the full (namespaced) id of the input the owning module listens to; app.js only sets
    inputs whose id ends in "-open". `cite`, a word the owning module chose (letters, digits, "-"), is
    sent along as the value's "cite" (Chat: which citation's quote to highlight).
    """
    from htmltools import tags

    return tags.a(text, class_="pdfrag-open", href=f"#pdfrag-open:{input_id}:{doc_id}:{int(page)}", title=title or None,
                  **({"data-pdfrag-cite": cite} if cite else {}))


def format_bytes(size: int) -> str:
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"
