"""Inspect page: the rendered page image beside that page's Markdown (raw or reformatted), and diagnostics."""

from __future__ import annotations

from collections.abc import Callable

from shiny import module, reactive, render, ui

from app.images import PageImageService
from app.docpick import docpick_server, docpick_ui
from app.safe_html import render_markdown
from app.state import Focus
from app.workspaces import SessionWorkspace
from engine.markdown import count_markers, split_pages
from engine.schemas import DocumentRecord

PREFETCH = (1, 2)  # pages the browser fetches ahead (the server renders them then), relative to the one shown


@module.ui
def inspect_ui():
    return ui.div(
        ui.div(
            docpick_ui("pick"),
            ui.input_action_button("prev", "‹ Previous", class_="btn-sm btn-outline-secondary", title="Previous page (←)"),
            ui.output_ui("page_label", inline=True),
            ui.input_action_button("next", "Next ›", class_="btn-sm btn-outline-secondary", title="Next page (→)"),
            ui.div(
                ui.input_numeric("jump", None, value=1, min=1, width="6rem"),
                ui.tags.button("Go", id=module.resolve_id("go"), type="button", class_="btn btn-sm btn-outline-secondary",
                               **{"data-jump-from": module.resolve_id("jump"),
                                  "data-jump-input": module.resolve_id("goto")}),
                class_="d-flex gap-1 align-items-center pdfrag-jump",
            ),
            ui.span(class_="pdfrag-sep"),
            ui.input_radio_buttons("kind", None, {"reformatted": "Reformatted", "raw": "Raw"}, selected="reformatted",
                                   inline=True),
            ui.span(class_="pdfrag-sep"),
            ui.input_radio_buttons("view", None, {"source": "Source", "rendered": "Rendered"},
                                   selected="source", inline=True),
            class_="pdfrag-toolbar d-flex flex-wrap gap-2 align-items-center mb-2",
        ),
        ui.layout_columns(
            ui.card(ui.output_ui("image"), class_="pdfrag-image-card", full_screen=True),
            ui.card(ui.output_ui("markdown"), class_="pdfrag-md-card", full_screen=True),
            col_widths=(6, 6),
        ),
        ui.card(ui.card_header("Diagnostics"), ui.output_ui("diagnostics")),
        class_="pdfrag-page pdfrag-inspect",
    )


@module.server
def inspect_server(input, output, session, *, space: SessionWorkspace, records: Callable[[], list[DocumentRecord]],
                   focus: Focus, images: PageImageService,
                   token: str):
    texts: dict[tuple[str, int, int], list[str]] = {}  # (path, mtime, size) -> page blocks, this session only

    record = docpick_server("pick", records=records, focus=focus)

    @reactive.calc
    def page() -> int:
        rec = record()
        if rec is None or rec.pages < 1:
            return 1
        return max(1, min(rec.pages, focus.page()))

    def move(delta: int) -> None:
        rec = record()
        if rec is not None:
            target = max(1, min(rec.pages, page() + delta))
            if target != focus.page():
                focus.page.set(target)

    @reactive.effect
    @reactive.event(input.prev)
    def _prev():
        move(-1)

    @reactive.effect
    @reactive.event(input.next)
    def _next():
        move(+1)

    @reactive.effect
    @reactive.event(input.goto)
    def _go():  # app.js sends the jump box's value with the click, so a fresh entry is never missed
        rec = record()
        try:
            wanted = int((input.goto() or {}).get("page"))
        except (TypeError, ValueError):
            return
        if rec is not None:
            focus.page.set(max(1, min(rec.pages, wanted)))

    @reactive.effect
    def _jump_follows_page():
        ui.update_numeric("jump", value=page())

    @render.ui
    def page_label():
        rec = record()
        if rec is None:
            return ui.span("no document", class_="text-muted")
        return ui.span(f"Page {page()} of {rec.pages}", class_="pdfrag-page-label", **{"data-page": str(page())})

    @render.ui
    def image():
        rec = record()
        if rec is None:
            return _empty("Choose a document to see its pages.")
        if rec.pages < 1:
            return _empty(f"{rec.file_name} has no readable pages ({rec.error or rec.status.value}).")
        number = page()
        path = space.workspace.pdf_path(rec)
        images.grant(token, rec.doc_id, path, rec.sha256, rec.pages)
        pages_ahead = [p for d in PREFETCH if 1 <= (p := number + d) <= rec.pages]
        images.cache.prefetch(path, rec.sha256, pages_ahead)  # rendered on the server even if the browser waits
        ahead = [ui.tags.link(rel="prefetch", href=images.url(token, rec.doc_id, rec.sha256, p), **{"as": "image"})
                 for d in PREFETCH if 1 <= (p := number + d) <= rec.pages]
        return ui.TagList(
            ui.img(src=images.url(token, rec.doc_id, rec.sha256, number), alt=f"Page {number} of {rec.file_name}",
                   class_="pdfrag-page-image", **{"data-page": str(number), "data-doc": rec.doc_id}),
            *ahead,
        )

    def blocks(rec: DocumentRecord, kind: str) -> list[str] | None:
        path = (space.workspace.raw_markdown_path(rec) if kind == "raw"
                else space.workspace.reformatted_markdown_path(rec))
        try:
            stat = path.stat()
        except OSError:
            return None
        key = (str(path), stat.st_mtime_ns, stat.st_size)
        if key not in texts:
            for old in [k for k in texts if k[0] == key[0]]:
                del texts[old]
            texts[key] = split_pages(path.read_text(encoding="utf-8"))
        return texts[key]

    @render.ui
    def markdown():
        rec = record()
        if rec is None:
            return _empty("No document selected.")
        kind, number = input.kind(), page()
        pages = blocks(rec, kind)
        if pages is None:
            return _empty(f"No {kind} Markdown for {rec.file_name} yet ({rec.error or rec.status.value}).")
        if number > len(pages):
            return _empty(f"The {kind} Markdown has {len(pages)} page markers; page {number} is missing.")
        text = pages[number - 1]
        attrs = {"data-page": str(number), "data-kind": kind}
        if not text.strip():
            body = ui.p("(this page has no text)", class_="text-muted")
        elif input.view() == "rendered":
            body = ui.div(render_markdown(text), class_="pdfrag-md-rendered")  # sanitised: the text is hostile
        else:
            body = ui.tags.pre(text, class_="pdfrag-md-source")
        return ui.div(ui.div(f"{kind.capitalize()} Markdown · page {number}", class_="text-muted small mb-1"), body,
                      class_="pdfrag-md", **attrs)

    @render.ui
    def diagnostics():
        rec = record()
        if rec is None:
            return _empty("No document selected.")
        number = page()
        raw, reformatted = blocks(rec, "raw"), blocks(rec, "reformatted")
        ocr = rec.needs_ocr_pages
        info = next((p for p in rec.page_info if p.page == number), None)
        on_page = [i for i in rec.images if i.page == number]

        def markers(found: list[str] | None) -> str:
            if found is None:
                return "not available"
            verdict = "✓" if len(found) == rec.pages else "✗ mismatch"
            return f"{len(found)} of {rec.pages} {verdict}"

        rows = [
            ("Page markers (raw)", markers(raw)),
            ("Page markers (reformatted)", markers(reformatted)),
            ("Pages needing OCR", (f"{len(ocr)}: " + _pages_text(ocr)) if ocr else "none"),
            ("Images (document)", f"{len(rec.images)}"),
            ("Images on this page", ", ".join(f"{i.id} ({i.width}×{i.height})" for i in on_page) or "none"),
        ]
        if info is not None:
            rows += [("Characters on this page", f"{info.chars:,}"), ("Columns", str(info.columns)),
                     ("Needs OCR", "yes" if info.needs_ocr else "no")]
            if info.warnings:
                rows.append(("Page warnings", "; ".join(info.warnings)))
        if rec.pdf and rec.pdf.page_labels and number <= len(rec.pdf.page_labels):
            rows.append(("Printed page label", rec.pdf.page_labels[number - 1] or "—"))
        return ui.tags.table(
            ui.tags.tbody(*[ui.tags.tr(ui.tags.th(k, class_="fw-normal text-muted"), ui.tags.td(v)) for k, v in rows]),
            class_="table table-sm mb-0 pdfrag-diagnostics",
        )


def _pages_text(pages: list[int], limit: int = 30) -> str:
    shown = ", ".join(map(str, pages[:limit]))
    return shown + (f", … ({len(pages) - limit} more)" if len(pages) > limit else "")


def _empty(text: str):
    return ui.div(text, class_="pdfrag-empty-note text-muted p-4")
