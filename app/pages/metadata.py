"""Metadata page: the context fields as cards with their provenance, the file information, the record JSON."""

from __future__ import annotations

from collections.abc import Callable

from shiny import module, render, ui

from app.docpick import docpick_server, docpick_ui
from app.state import Focus, format_bytes
from engine.schemas import DocumentRecord

PROVENANCE_HELP = {
    "pdf-info": "from the PDF's document information", "layout": "from the page layout",
    "heuristic": "from text heuristics", "llm": "from a language model",
}


@module.ui
def metadata_ui():
    return ui.div(
        ui.div(docpick_ui("pick"), ui.download_button("download", "Download record JSON",
                                                      class_="btn-outline-primary btn-sm"),
               class_="pdfrag-toolbar d-flex flex-wrap gap-2 align-items-center mb-2"),
        ui.output_ui("cards"),
        class_="pdfrag-page",
    )


def _source(record: DocumentRecord, name: str):
    source = record.metadata.provenance.get(name)
    if source is None:
        return None
    return ui.span(source.value, class_="badge rounded-pill text-bg-light border ms-1 pdfrag-prov",
                   title=PROVENANCE_HELP.get(source.value, ""))


def _empty_value():
    return ui.span("not found", class_="text-muted fst-italic")


def _field_card(record: DocumentRecord, title: str, name: str, body):
    return ui.card(ui.card_header(title, _source(record, name), class_="d-flex align-items-center"),
                   body, class_="pdfrag-meta-card")


def metadata_cards(record: DocumentRecord):
    meta = record.metadata
    basics = []
    for label, name in (("Title", "title"), ("Author", "author"), ("Publication date", "publication_date"),
                        ("Language", "language"), ("Document type", "document_type")):
        value = getattr(meta, name)
        basics.append(ui.tags.tr(ui.tags.th(label, class_="fw-normal text-muted"),
                                 ui.tags.td(value or _empty_value(), _source(record, name) if value else None)))
    themes = ui.tags.ul(*[ui.tags.li(ui.strong(t.name), f" — {t.description}" if t.description else "")
                          for t in meta.themes], class_="mb-0") if meta.themes else _empty_value()
    entities = ui.div(*[ui.span(e.name + (f" ({e.role})" if e.role else ""),
                                class_="badge text-bg-light border me-1 mb-1")
                        for e in meta.entities]) if meta.entities else _empty_value()
    periods = ui.tags.ul(*[ui.tags.li(f"{p.start_date or '?'} – {p.end_date or '?'}"
                                      + (" (approx.)" if p.is_approximate else "")
                                      + (f": {p.period_description}" if p.period_description else ""))
                           for p in meta.time_periods], class_="mb-0") if meta.time_periods else _empty_value()
    keywords = ui.div(*[ui.span(k, class_="badge text-bg-primary-subtle text-primary-emphasis me-1 mb-1")
                        for k in meta.keywords]) if meta.keywords else _empty_value()
    return ui.layout_columns(
        ui.card(ui.card_header("Document"), ui.tags.table(ui.tags.tbody(*basics), class_="table table-sm mb-0"),
                class_="pdfrag-meta-card"),
        _field_card(record, "Summary", "summary",
                    ui.p(meta.summary, class_="mb-0") if meta.summary else _empty_value()),
        _field_card(record, "Themes", "themes", themes),
        _field_card(record, "Keywords", "keywords", keywords),
        _field_card(record, "Entities", "entities", entities),
        _field_card(record, "Time periods", "time_periods", periods),
        ui.card(ui.card_header("File"), file_table(record), class_="pdfrag-meta-card"),
        col_widths=(6, 6, 6, 6, 6, 6, 12),
    )


def file_table(record: DocumentRecord):
    pdf = record.pdf
    rows = [
        ("File name", record.file_name),
        ("Also uploaded as", ", ".join(record.aliases) or "—"),
        ("Document id", record.doc_id),
        ("SHA-256", record.sha256),
        ("Size", format_bytes(record.size_bytes)),
        ("Status", record.status.value + (f" — {record.error}" if record.error else "")),
        ("Pages", str(record.pages)),
        ("Format", record.format or "—"),
    ]
    if pdf is not None:
        rows += [
            ("Page size",
             f"{pdf.width:.0f} × {pdf.height:.0f} pt" + (f", rotated {pdf.rotation}°" if pdf.rotation else "")),
            ("PDF version", pdf.pdf_version or "—"),
            ("Encrypted", "yes" if pdf.encrypted else "no"),
            ("Tagged", "yes" if pdf.tagged else "no"),
            ("Outline entries", str(len(pdf.outline))),
        ]
        rows += [(f"Docinfo: {key}", value) for key, value in sorted(pdf.docinfo.items())]
    return ui.tags.table(
        ui.tags.tbody(*[ui.tags.tr(ui.tags.th(k, class_="fw-normal text-muted"), ui.tags.td(v, class_="text-break"))
                        for k, v in rows]),
        class_="table table-sm mb-0",
    )


@module.server
def metadata_server(input, output, session, *, records: Callable[[], list[DocumentRecord]],
                    focus: Focus):
    record = docpick_server("pick", records=records, focus=focus)

    @render.ui
    def cards():
        rec = record()
        if rec is None:
            return ui.div("Choose a document (the Library lists them).", class_="text-muted p-4")
        return metadata_cards(rec)

    def _name() -> str:
        rec = record()
        return f"{rec.file_name[:-4] if rec else 'document'}.record.json"

    @render.download_button(filename=_name, media_type="application/json")
    def download():
        rec = record()
        if rec is not None:
            yield rec.model_dump_json(indent=2)
