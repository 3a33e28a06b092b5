"""The document picker shared by the Metadata and Structure pages: a select kept in step with the focus."""

from __future__ import annotations

from collections.abc import Callable

from shiny import module, reactive, ui

from app.state import Focus, doc_choices
from engine.schemas import DocumentRecord


@module.ui
def docpick_ui():
    return ui.input_select("doc", None, choices={}, width="24rem")


@module.server
def docpick_server(input, output, session, *, records: Callable[[], list[DocumentRecord]],
                   focus: Focus):
    """Keeps the select in step with `focus`; returns a calc of the focused DocumentRecord (or None)."""

    @reactive.effect
    def _choices():
        choices = doc_choices(records())
        with reactive.isolate():
            selected = focus.doc()
        ui.update_select("doc", choices=choices, selected=selected if selected in choices else None)

    @reactive.effect
    def _follow():
        doc = focus.doc()
        with reactive.isolate():
            if doc and input.doc() != doc:
                ui.update_select("doc", selected=doc)

    @reactive.effect
    @reactive.event(input.doc, ignore_init=True)
    def _picked():
        doc = input.doc()
        if doc and doc != focus.doc():
            focus.set(doc, 1)

    @reactive.calc
    def record() -> DocumentRecord | None:
        doc = focus.doc()
        return next((r for r in records() if r.doc_id == doc), None)

    return record
