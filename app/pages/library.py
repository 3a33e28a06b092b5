"""Library page: drag-and-drop upload of PDFs, the corpus table (sortable, filterable), removal."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from shiny import module, reactive, render, req, ui

from app.runner import Batch
from app.state import OpenRequest, format_bytes
from app.upload_limit import SessionUploads
from app.uploads import Upload, held_bytes, stage_uploads
from app.workspaces import SessionWorkspace
from engine.schemas import DocumentRecord

COLUMNS = ["Name", "Pages", "Format", "Status", "Language", "Author", "Date", "Size", "ID"]


@module.ui
def library_ui(max_upload_mb: int):
    return ui.div(
        ui.layout_columns(
            ui.card(
                ui.card_header("Add PDFs"),
                ui.div(  # app.js refuses files above data-pdfrag-max-bytes before Shiny uploads them
                    ui.input_file(
                        "files", None, multiple=True, accept=[".pdf", "application/pdf"], width="100%",
                        button_label="Browse…", placeholder=f"or drop PDF files here (up to {max_upload_mb} MB each)",
                    ),
                    ui.div(class_="pdfrag-upload-refused", role="status", aria_live="polite"),
                    data_pdfrag_max_bytes=str(max_upload_mb * 1024 * 1024),
                    class_="pdfrag-upload-limit",
                ),
                ui.p(f"PDF files only, up to {max_upload_mb} MB each (larger files are refused before they are "
                     "sent). Processing starts right away; follow it on the Pipeline page.",
                     class_="text-muted small mb-0"),
                ui.output_ui("upload_report"),
                class_="pdfrag-upload",
            ),
            ui.card(
                ui.card_header("Corpus"),
                ui.output_ui("summary"),
                ui.div(
                    ui.input_action_button("open", "Open in Inspect", class_="btn-sm btn-outline-primary"),
                    ui.input_action_button("remove", "Remove selected", class_="btn-sm btn-outline-danger"),
                    class_="d-flex gap-2 flex-wrap",
                ),
            ),
            col_widths=(7, 5),
        ),
        ui.output_ui("empty_state"),
        ui.output_data_frame("corpus"),
        class_="pdfrag-page",
    )


def corpus_frame(records: list[DocumentRecord]):
    """The corpus table's rows (pandas is imported on first use, after the page has loaded)."""
    import pandas as pd

    rows = [
        {
            "Name": r.file_name,
            "Pages": r.pages,
            "Format": r.format or "",
            "Status": r.status.value,
            "Language": r.metadata.language,
            "Author": r.metadata.author,
            "Date": r.metadata.publication_date,
            "Size": format_bytes(r.size_bytes),
            "ID": r.doc_id,
        }
        for r in records
    ]
    return pd.DataFrame(rows, columns=COLUMNS)


@module.server
def library_server(input, output, session, *, space: SessionWorkspace, records: Callable[[], list[DocumentRecord]],
                   corpus_changed: Callable[[], None], sample_files: list[Path], max_upload_bytes: int,
                   uploads: SessionUploads | None = None):
    """Returns (ingest requests, open-in-Inspect requests) as reactive values.

    `uploads` is this session's upload account: told when uploads leave Shiny's folder (its storage budget).
    """
    ingest = reactive.value[Batch | None](None)
    open_request = reactive.value[OpenRequest | None](None)
    report = reactive.value[tuple[list[str], list[tuple[str, str]]]](([], []))

    @reactive.effect
    @reactive.event(input.files)
    def _uploaded():
        files = input.files() or []
        received = [Upload(f["name"], Path(f["datapath"]), int(f.get("size") or 0)) for f in files]
        held = held_bytes(received)
        staging, staged, rejected = stage_uploads(received, max_upload_bytes)
        if uploads is not None:
            uploads.taken_in(held)
        report.set(([p.name for p in staged], [(r.name, r.reason) for r in rejected]))
        for item in rejected:
            ui.notification_show(f"{item.name}: {item.reason}", type="error", duration=8)
        if staged:
            label = staged[0].name if len(staged) == 1 else f"{len(staged)} uploaded files"
            ingest.set(Batch(tuple(staged), label=label, cleanup=staging))

    @reactive.effect
    @reactive.event(input.load_samples)
    def _load_samples():
        if sample_files:
            ingest.set(Batch(tuple(sample_files), label="the sample documents"))
            ui.notification_show("Processing the sample documents…", duration=4)

    @render.ui
    def upload_report():
        accepted, rejected = report()
        items = []
        if accepted:
            items.append(ui.div(f"Accepted: {', '.join(accepted)}", class_="alert alert-success py-1 px-2 small mb-1"))
        for name, reason in rejected:
            items.append(ui.div(ui.strong(name), f": {reason}", class_="alert alert-danger py-1 px-2 small mb-1 pdfrag-reject"))
        return ui.div(*items, class_="mt-2") if items else None

    @render.ui
    def summary():
        recs = records()
        pages = sum(r.pages for r in recs)
        failed = sum(r.status.value == "failed" for r in recs)
        text = f"{len(recs)} document{'s' if len(recs) != 1 else ''}, {pages:,} pages"
        if failed:
            text += f", {failed} failed"
        note = " Your uploads are private to this browser session." if space.private else ""
        if uploads is not None and uploads.storage_limit is not None:
            note += (f" Storage: {format_bytes(space.stored_bytes())} of {format_bytes(uploads.storage_limit)} "
                     "used.")
        return ui.p(text + "." + note, class_="mb-2")

    @render.ui
    def empty_state():
        if records():
            return None
        button = (ui.input_action_button("load_samples", "Load the sample documents", class_="btn-primary")
                  if sample_files else None)
        return ui.div(
            ui.h4("No documents yet"),
            ui.p("Drop PDF files on the upload box above, or start with the two bundled sample documents "
                 "(a report and a slide deck)."),
            button,
            class_="pdfrag-empty card card-body mb-3",
        )

    @render.data_frame
    def corpus():
        req(records())
        return render.DataGrid(corpus_frame(records()), filters=True, selection_mode="rows", width="100%",
                               height="auto")

    def _selected_ids() -> list[str]:
        try:
            view = corpus.data_view(selected=True)
        except Exception:
            return []
        return [str(v) for v in view["ID"].tolist()] if len(view) else []

    @reactive.effect
    @reactive.event(input.open)
    def _open():
        ids = _selected_ids()
        if not ids:
            ui.notification_show("Select a document in the table first.", type="warning", duration=4)
            return
        open_request.set(OpenRequest(ids[0], 1))

    @reactive.effect
    @reactive.event(input.remove)
    def _confirm_remove():
        ids = _selected_ids()
        if not ids:
            ui.notification_show("Select the documents to remove in the table first.", type="warning", duration=4)
            return
        names = {r.doc_id: r.file_name for r in records()}
        ui.modal_show(ui.modal(
            ui.p("Remove these documents and everything computed from them?"),
            ui.tags.ul(*[ui.tags.li(names.get(i, i)) for i in ids]),
            title="Remove documents",
            footer=ui.TagList(ui.modal_button("Keep them"),
                              ui.input_action_button("remove_confirmed", "Remove", class_="btn-danger")),
            easy_close=True,
        ))

    @reactive.effect
    @reactive.event(input.remove_confirmed)
    def _remove():
        ui.modal_remove()
        removed, kept = [], []
        for doc_id in _selected_ids():
            if doc_id in space.protected:
                kept.append(doc_id)
                continue
            record = space.workspace.remove(doc_id)
            if record is not None:
                removed.append(record.file_name)
        if kept:
            ui.notification_show("The shared sample documents cannot be removed.", type="warning", duration=5)
        if removed:
            ui.notification_show(f"Removed {', '.join(removed)}", duration=4)
            corpus_changed()

    return ingest, open_request
