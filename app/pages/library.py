"""Library page: drag-and-drop upload of PDFs, the corpus table (sortable, filterable), removal."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from shiny import module, reactive, render, req, ui

from app.charts import chart, corpus_figure
from app.runner import Batch
from app.state import OpenRequest, format_bytes, open_request_from
from app.upload_limit import SessionUploads
from app.uploads import Upload, held_bytes, stage_uploads
from app.workspaces import SessionWorkspace
from engine.schemas import DocumentRecord

COLUMNS = ["Name", "Title", "Pages", "Format", "Status", "Language", "Author", "Date", "Size", "ID"]


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
                ui.card_header("Overview ", ui.span("pages and status per document; click a bar to open it",
                                                    class_="text-muted small")),
                ui.output_ui("overview"),
                class_="pdfrag-overview-card",
            ),
            col_widths=(7, 5),
        ),
        ui.output_ui("empty_state"),
        ui.card(
            ui.card_header("Corpus"),
            ui.output_ui("summary"),
            ui.div(
                ui.input_action_button("open", "Open in Inspect", class_="btn-sm btn-outline-primary"),
                ui.input_action_button("remove", "Remove selected", class_="btn-sm btn-outline-danger"),
                class_="d-flex gap-2 flex-wrap mb-2",
            ),
            ui.output_data_frame("corpus"),
            class_="pdfrag-corpus-card",
        ),
        class_="pdfrag-page",
    )


def corpus_frame(records: list[DocumentRecord], in_progress: dict[str, str] | None = None):
    """The corpus table's rows (pandas is imported on first use, after the page has loaded), then the
    documents of the current run that have no record yet (uploads being added: name and what they are doing)."""
    import pandas as pd

    rows: list[dict[str, object]] = [
        {
            "Name": r.file_name,
            "Title": r.metadata.title or "",
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
    rows += [{"Name": name, "Title": "", "Pages": None, "Format": "", "Status": doing, "Language": "", "Author": "",
              "Date": "", "Size": "", "ID": ""} for name, doing in unrecorded(records, in_progress or {}).items()]
    return pd.DataFrame(rows, columns=COLUMNS)


def unrecorded(records: list[DocumentRecord], in_progress: dict[str, str]) -> dict[str, str]:
    """The run's documents that no record holds yet (under any of its names, sanitised as the workspace
    stores them), with what they are doing; finished ones without a record (not a PDF) are left out."""
    from engine.workspace import sanitize_name

    known: set[str] = set()
    for r in records:
        for name in (r.file_name, r.rel_path, *r.aliases):
            known.update((name, sanitize_name(name)))
    return {name: doing for name, doing in in_progress.items()
            if name not in known and sanitize_name(name) not in known
            and doing.split(":")[0] in ("queued", "waiting", "running")}


@module.server
def library_server(input, output, session, *, space: SessionWorkspace, records: Callable[[], list[DocumentRecord]],
                   corpus_changed: Callable[[], None], sample_files: list[Path], max_upload_bytes: int,
                   uploads: SessionUploads | None = None,
                   run_rows: Callable[[], dict[str, str]] | None = None):
    """Returns (ingest requests, open-in-Inspect requests) as reactive values.

    `uploads` is this session's upload account: told when uploads leave Shiny's folder (its storage budget).
    `run_rows`: the current run's documents (name -> what they are doing); those without a record yet are
    listed in the table at once, so an upload shows up while it is being processed.
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
            items.append(ui.div(ui.strong(name), f": {reason}",
                                class_="alert alert-danger py-1 px-2 small mb-1 pdfrag-reject"))
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
        # records that cannot be read: say so rather than hide them (parsed again only when some file is not a record)
        damaged = space.workspace.damaged() if space.workspace.record_count() != len(recs) else []
        if not damaged:
            return ui.p(text + "." + note, class_="mb-2")
        return ui.TagList(
            ui.p(text + "." + note, class_="mb-2"),
            ui.div(
                ui.strong(f"{len(damaged)} damaged record{'s' if len(damaged) != 1 else ''}: "),
                "; ".join(f"{d.file_name or d.doc_id} ({d.reason})" for d in damaged),
                ". Upload the PDF again to rebuild it.",
                class_="alert alert-warning py-1 px-2 small mb-2 pdfrag-damaged",
            ),
        )

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

    @reactive.calc
    def in_progress() -> dict[str, str]:
        return unrecorded(records(), run_rows()) if run_rows is not None else {}

    @render.data_frame
    def corpus():
        req(records() or in_progress())
        return render.DataGrid(corpus_frame(records(), in_progress()), filters=True, selection_mode="rows",
                               width="100%", height="auto")

    @render.ui
    def overview():
        recs = records()
        if not recs:
            return ui.p("The documents' pages and status appear here once there are some.", class_="text-muted small")
        return chart(corpus_figure(recs), name="corpus", input_id=session.ns("chart_open"), height="auto")

    @reactive.effect
    @reactive.event(input["chart_open"])
    def _open_from_chart():
        request = open_request_from(input["chart_open"]() or {})
        if request is not None:
            open_request.set(request)

    def _selected_ids() -> list[str]:
        try:
            view = corpus.data_view(selected=True)
        except Exception:
            return []
        return [str(v) for v in view["ID"].tolist() if v] if len(view) else []

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
