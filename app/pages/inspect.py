"""Inspect page: the rendered page image beside that page's Markdown (raw or reformatted), and diagnostics.

Over the image, two layers: a cited passage opened from Chat, highlighted, and on demand the reader's blocks,
coloured by kind (app/overlay.py)."""

from __future__ import annotations

from collections.abc import Callable

from shiny import module, reactive, render, ui

from app.images import PageImageService
from app.docpick import docpick_server, docpick_ui
from app.overlay import blocks_layer, file_version, highlight_layer, legend, page_geometry
from app.safe_html import render_markdown
from app.state import Focus
from app.workspaces import SessionWorkspace
from engine.markdown import split_pages
from engine.schemas import DocumentRecord
from engine.schemas.blocks import DocumentBlocks, PageBlocks

PREFETCH = (1, 2)  # pages the browser fetches ahead (the server renders them then), relative to the one shown


@module.ui
def inspect_ui():
    return ui.div(
        ui.div(
            docpick_ui("pick"),
            ui.input_action_button("prev", "‹ Previous", class_="btn-sm btn-outline-secondary",
                                   title="Previous page (←)"),
            ui.output_ui("page_label", inline=True),
            ui.input_action_button("next", "Next ›", class_="btn-sm btn-outline-secondary", title="Next page (→)"),
            ui.div(
                ui.input_numeric("jump", None, value=1, min=1, width="6rem"),
                ui.tags.button("Go", id=module.resolve_id("go"), type="button",
                               class_="btn btn-sm btn-outline-secondary",
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
        ui.div(
            ui.input_switch("layout", "Layout blocks", False),
            ui.div(ui.output_ui("slider_row"), class_="pdfrag-page-slider flex-grow-1", title="Drag to a page"),
            class_="pdfrag-toolbar d-flex gap-3 align-items-center mb-1",
        ),
        ui.layout_columns(
            ui.card(ui.output_ui("overlay_note"),
                    ui.div(ui.output_ui("image", inline=True), ui.output_ui("overlay", inline=True),
                           class_="pdfrag-page-frame"),
                    class_="pdfrag-image-card", full_screen=True),
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
        page = (input.goto() or {}).get("page")
        if page is None:
            return
        try:
            wanted = int(page)
        except (TypeError, ValueError):
            return
        if rec is not None:
            focus.page.set(max(1, min(rec.pages, wanted)))

    @reactive.effect
    def _jump_follows_page():
        ui.update_numeric("jump", value=page())

    slid = reactive.value(0)  # the last page the slider asked for (not moved back under the user's hand)

    @render.ui
    def slider_row():  # drawn again for another document only; the page moves the handle (below)
        rec = record()
        if rec is None or rec.pages < 3:
            return None
        with reactive.isolate():
            number = page()
        return ui.input_slider("slider", None, min=1, max=rec.pages, value=number, step=1, ticks=False,
                               width="100%")

    @reactive.effect
    def _slider_follows_page():
        number = page()
        with reactive.isolate():
            if number == slid():  # the slider asked for it: the handle is there already
                slid.set(0)
            else:
                ui.update_slider("slider", value=number)

    @reactive.effect
    @reactive.event(input.slider, ignore_init=True)
    def _slid():
        rec = record()
        try:
            wanted = int(input.slider())
        except (TypeError, ValueError):
            return
        if rec is not None and 1 <= wanted <= rec.pages and wanted != focus.page():
            slid.set(wanted)
            focus.page.set(wanted)

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

    layouts: dict[tuple[str, int, int], DocumentBlocks | None] = {}  # the reader's blocks, this session only

    def page_blocks(rec: DocumentRecord, number: int) -> PageBlocks | None:
        path = space.workspace.blocks_path(rec)
        key = file_version(path)
        if key is None:
            return None
        if key not in layouts:
            layouts.clear()  # one document's blocks at a time
            try:
                layouts[key] = DocumentBlocks.model_validate_json(path.read_bytes())
            except (OSError, ValueError):
                layouts[key] = None
        found = layouts[key]
        return next((p for p in found.pages if p.page == number), None) if found else None

    @reactive.calc
    def highlight():
        rec, wanted = record(), focus.highlight()
        if rec is None or wanted is None or wanted.doc != rec.doc_id or wanted.page != page():
            return None
        return wanted

    @render.ui
    def overlay_note():
        mark = highlight()
        rec = record()
        parts = []
        if mark is not None:
            parts.append(ui.span(ui.span(class_="pdfrag-swatch pdfrag-highlight-swatch"),
                                 f"Highlighted: the passage {mark.label}" if mark.boxes
                                 else f"The passage {mark.label} could not be located on the page image.",
                                 class_="pdfrag-highlight-note", **{"data-boxes": str(len(mark.boxes))}))
        if input.layout() and rec is not None:
            found = page_blocks(rec, page())
            if found is None:
                parts.append(ui.span("No layout blocks for this page (the reader that made this document keeps "
                                     "no positions, or it has not been read yet).", class_="text-muted"))
            else:
                counts: dict[str, int] = {}
                for block in found.blocks:
                    counts[block.kind] = counts.get(block.kind, 0) + 1
                parts.append(legend(counts))
        return ui.div(*parts, class_="pdfrag-overlay-note small mb-2") if parts else None

    @render.ui
    def overlay():
        rec = record()
        if rec is None or rec.pages < 1:
            return None
        number, mark, show_blocks = page(), highlight(), input.layout()
        if mark is None and not show_blocks:
            return None
        geometry = page_geometry(space.workspace.pdf_path(rec), number)
        if geometry is None:
            return None
        layers = []
        if show_blocks:
            found = page_blocks(rec, number)
            if found is not None:
                layers.append(blocks_layer(geometry, [(b.kind, b.bbox, " ".join(b.text.split())[:80])
                                                      for b in found.blocks if b.bbox is not None]))
        if mark is not None:
            layers.append(highlight_layer(geometry, mark.boxes, mark.label))
        return ui.TagList(*[layer for layer in layers if layer is not None])

    def blocks(rec: DocumentRecord, kind: str) -> list[str] | None:
        path = (space.workspace.raw_markdown_path(rec) if kind == "raw"
                else space.workspace.reformatted_markdown_path(rec))
        key = file_version(path)
        if key is None:
            return None
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
