"""Pipeline page: start and cancel runs, live progress per document and stage, the stage report."""

from __future__ import annotations

import shutil
from collections.abc import Callable

from shiny import module, reactive, render, ui

from app.charts import chart, stage_timeline_figure
from app.runner import STAGES, Batch, DocProgress, IngestRunner, ProgressBoard, RunStarted
from app.settings_model import SessionSettings
from app.workspaces import SessionWorkspace
from engine.config import ConfigError, Settings, resolve_provider
from engine.schemas import DocumentRecord

POLL_SECONDS = 0.25
BADGE = {
    "ok": "text-bg-success", "cached": "text-bg-secondary", "partial": "text-bg-warning", "failed": "text-bg-danger",
    "running": "text-bg-primary", "waiting": "text-bg-light", "skipped": "text-bg-light", "cancelled": "text-bg-dark",
    "pending": "text-bg-light", "queued": "text-bg-light",
}
RAN = ("ok", "partial", "failed")  # a stage cell that ran in this run (its time is the record's)


@module.ui
def pipeline_ui():
    return ui.div(
        ui.card(
            ui.card_header("Run"),
            ui.div(
                ui.input_action_button("start", "Process all documents", class_="btn-primary"),
                ui.input_action_button("cancel", "Cancel", class_="btn-outline-danger"),
                ui.input_checkbox("force", "Recompute cached stages", False),
                class_="d-flex gap-3 align-items-center flex-wrap",
            ),
            ui.output_ui("estimate"),
            ui.output_ui("status"),
        ),
        ui.card(ui.card_header("Progress"), ui.output_ui("progress"), class_="pdfrag-progress-card"),
        ui.card(ui.card_header("Stage times ", ui.span("each document's stages end to end, as each last ran",
                                                        class_="text-muted small")),
                ui.output_ui("timeline"), class_="pdfrag-timeline-card"),
        ui.card(ui.card_header("Stage report"), ui.output_ui("report")),
        class_="pdfrag-page",
    )


def _badge(status: str, text: str | None = None):
    return ui.span(text or status, class_=f"badge {BADGE.get(status, 'text-bg-light')} pdfrag-stage",
                   title=status, **{"data-status": status})


def _progress_row(doc: DocProgress, record: DocumentRecord | None = None):
    """One document of the run: a bar, a badge per stage (with the stage's own time once it ran in this run,
    from the record), the document's status and its time in this run."""
    percent = round(100 * doc.fraction)
    cells = []
    for name in STAGES:
        cell = doc.stages.get(name)
        if cell is None:
            cells.append(ui.tags.td())
            continue
        label = name
        if name == "read" and cell.status == "running" and cell.total:
            label = f"read {cell.done}/{cell.total}"
        state = record.stages.get(name) if record is not None else None
        if cell.status in RAN and state is not None:
            label = f"{name} {_seconds(state.seconds)}"
        cells.append(ui.tags.td(_badge(cell.status, label)))
    bar_class = {"failed": "bg-danger", "partial": "bg-warning", "cancelled": "bg-dark"}.get(doc.status, "")
    animated = "progress-bar-striped progress-bar-animated" if doc.status == "running" else ""
    if doc.seconds is not None:
        took = _seconds(doc.seconds)
    elif doc.status in ("cached",):
        took = "nothing to do"
    else:
        took = ""
    return ui.tags.tr(
        ui.tags.td(ui.span(doc.doc, class_="pdfrag-name", title=doc.doc)),
        ui.tags.td(
            ui.div(ui.div(class_=f"progress-bar {bar_class} {animated}", role="progressbar",
                          style=f"width: {percent}%", **{"aria-valuenow": str(percent)}),
                   class_="progress", style="min-width: 6rem"),
        ),
        *cells,
        ui.tags.td(_badge(doc.status)),
        ui.tags.td(took, class_="text-nowrap pdfrag-doc-time"),
        ui.tags.td(doc.message, class_="small text-break"),
        class_="pdfrag-doc-progress", **{"data-doc": doc.doc, "data-status": doc.status},
    )


def _seconds(value: float) -> str:
    return f"{value:.2f} s" if value < 10 else f"{value:.1f} s"


def _stage_table(record: DocumentRecord):
    rows = []
    for name in STAGES:
        state = record.stages.get(name)
        if state is None:
            rows.append(ui.tags.tr(ui.tags.td(name), ui.tags.td(_badge("waiting", "not run")), *[ui.tags.td()] * 6))
            continue
        problems = [ui.div(f"⚠ {w}", class_="text-warning-emphasis") for w in state.warnings]
        problems += [ui.div(f"✖ {e.message}" + (f" (page {e.page})" if e.page else ""), class_="text-danger")
                     for e in state.errors]
        rows.append(ui.tags.tr(
            ui.tags.td(name),
            ui.tags.td(_badge(state.status.value)),
            ui.tags.td(_seconds(state.seconds)),
            ui.tags.td(state.provider.value + (f" · {state.model}" if state.model else "")),
            ui.tags.td(str(state.calls)),
            ui.tags.td(f"{state.input_tokens:,} / {state.output_tokens:,}"),
            ui.tags.td(str(state.retries + state.fallbacks) if state.retries or state.fallbacks else ""),
            ui.tags.td(*problems, class_="small text-break"),
        ))
    head = ui.tags.thead(ui.tags.tr(*[ui.tags.th(h) for h in (
        "Stage", "Status", "Time", "Provider", "Calls", "Tokens in / out", "Retries", "Warnings and errors")]))
    return ui.tags.table(head, ui.tags.tbody(*rows), class_="table table-sm align-middle mb-0")


@module.server
def pipeline_server(input, output, session, *, space: SessionWorkspace, runner: IngestRunner,
                    records: Callable[[], list[DocumentRecord]], ingest: Callable[[], Batch | None],
                    settings: Callable[[], SessionSettings], corpus_changed: Callable[[], None],
                    run_rows: reactive.Value[dict[str, str]] | None = None):
    """`run_rows`, when given, receives the current run's documents (name -> what they are doing) for the
    Library, which lists the ones that have no record yet."""
    board = ProgressBoard()  # this session's, folded from the runner's queue
    tick = reactive.value(0)
    polling = reactive.value(False)
    announced: list[Batch] = []  # runs whose start the page has shown already

    def submit(batch: Batch) -> None:
        current = settings()
        try:
            key_set = bool(current.api_keys.get("gemini")) or Settings.from_env().gemini_key_set
            if current.provider == "gemini" and not key_set:
                raise ConfigError("the gemini provider needs a GEMINI_API_KEY: paste one in Settings (kept for "
                                  "this browser session only) or set it in the server's environment")
            resolve_provider(current.provider, gemini_key_set=key_set)
            llm = current.llm_settings()
        except (ConfigError, ValueError) as exc:
            ui.notification_show(f"Cannot start: {exc}", type="error", duration=8)
            board.log.append(f"Not started: {batch.label}: {exc}")
            if batch.cleanup is not None:
                shutil.rmtree(batch.cleanup, ignore_errors=True)
            with reactive.isolate():
                tick.set(tick() + 1)
            return
        if not runner.running:  # the page starts the run's board now: the child process takes a moment to start
            board.apply(RunStarted(batch))
            announced.append(batch)
            with reactive.isolate():
                tick.set(tick() + 1)
        runner.submit(batch, provider=current.provider, workers=current.workers, llm=llm)
        polling.set(True)

    @reactive.effect
    def _from_library():
        batch = ingest()
        if batch is not None:
            with reactive.isolate():
                submit(batch)

    @render.ui
    def estimate():
        """With the gemini provider, what processing every document would cost, before it is started."""
        llm = settings().llm_settings()
        recs = records()
        if llm is None or not recs:
            return None
        from engine.llm.estimate import estimate_records

        est = estimate_records(recs, llm)
        usd = f"about ${est.usd:.2f}" if est.usd is not None else "price unknown"
        what = "the document" if len(recs) == 1 else f"all {len(recs)} documents"
        return ui.p(f"Estimate for processing {what} with {llm.gemini_model}: {est.calls:,} calls, "
                    f"{est.input_tokens:,} input and {est.output_tokens:,} output tokens "
                    f"({est.thought_tokens:,} thinking), {usd}; cached stages cost nothing.",
                    class_="text-muted small mt-2 mb-0 pdfrag-estimate")

    @reactive.effect
    @reactive.event(input.start)
    def _start():
        submit(Batch((space.workspace.pdfs,), label="all documents", force=bool(input.force())))

    @reactive.effect
    @reactive.event(input.cancel)
    def _cancel():
        if runner.running:
            runner.cancel()
            ui.notification_show("Cancelling: the documents stop after their current stage.", duration=4)

    @reactive.effect
    def _poll():
        if not polling():
            return
        reactive.invalidate_later(POLL_SECONDS)
        messages = runner.drain()
        still_running = runner.running
        if not still_running:
            messages += runner.drain()  # the last events, queued before the thread ended
        changed = False
        for message in messages:
            if isinstance(message, RunStarted) and any(message.batch is b for b in announced):
                announced[:] = [b for b in announced if b is not message.batch]
                continue
            changed = board.apply(message) or changed
        if messages:
            with reactive.isolate():
                tick.set(tick() + 1)
        if changed:
            corpus_changed()
        if not still_running and not messages:
            polling.set(False)

    @reactive.effect
    def _publish_rows():
        tick()
        if run_rows is None:
            return
        rows = {}
        for doc in board.docs.values():
            running = next((name for name, cell in doc.stages.items() if cell.status == "running"), None)
            rows[doc.doc] = f"{doc.status}: {running}" if doc.status == "running" and running else doc.status
        with reactive.isolate():
            if rows != run_rows():
                run_rows.set(rows)

    @render.ui
    def status():
        tick()
        if board.running:
            text = f"Running: {board.current}…"
        elif board.log:
            text = board.log[-1]
        else:
            text = "Idle. Uploads start a run by themselves; “Process all documents” resumes anything unfinished."
        lines = [ui.div(line, class_="small") for line in reversed(board.log[-8:-1])] if board.log else []
        return ui.div(ui.p(text, class_="mt-2 mb-1 pdfrag-run-status", **{"data-running": str(board.running).lower(),
                                                                         "data-runs": str(board.runs)}),
                      ui.div(*lines, class_="text-muted pdfrag-log"))

    @render.ui
    def progress():
        tick()
        if not board.docs:
            return ui.p("No run in this session yet.", class_="text-muted mb-0")
        head = ui.tags.thead(ui.tags.tr(
            ui.tags.th("Document"), ui.tags.th("Progress"), *[ui.tags.th(name) for name in STAGES],
            ui.tags.th("Status"), ui.tags.th("Time"), ui.tags.th("Message")))
        by_name = {r.rel_path: r for r in records()}
        rows = [_progress_row(doc, by_name.get(doc.doc)) for doc in board.docs.values()]
        return ui.div(ui.tags.table(head, ui.tags.tbody(*rows), class_="table table-sm align-middle"),
                      class_="table-responsive")

    @render.ui
    def timeline():
        return chart(stage_timeline_figure(records(), STAGES), name="timeline", height="auto",
                     empty="No document has been processed yet.")

    @render.ui
    def report():
        recs = records()
        if not recs:
            return ui.p("No documents in the workspace yet.", class_="text-muted mb-0")
        panels = []
        open_ids = []
        for record in recs:
            flagged = record.status.value in ("failed", "partial")
            seconds = sum(s.seconds for s in record.stages.values())
            title = ui.span(ui.span(record.file_name, class_="pdfrag-name me-2"), _badge(record.status.value),
                            ui.span(f" {record.pages} p. · {seconds:.1f} s", class_="text-muted small ms-1"))
            body = ([ui.div(f"Error: {record.error}", class_="alert alert-danger py-1 px-2 small")]
                    if record.error else [])
            panels.append(ui.accordion_panel(title, *body, ui.div(_stage_table(record), class_="table-responsive"),
                                             value=record.doc_id))
            if flagged:
                open_ids.append(record.doc_id)
        return ui.accordion(*panels, id="report_acc", open=open_ids or False, multiple=True)
