"""Structure page: extracted TOC, created TOC and structure string side by side; the tree, whose nodes open Inspect."""

from __future__ import annotations

from collections.abc import Callable

from htmltools import Tag
from shiny import module, render, ui

from app.charts import chart, source_legend, structure_figure
from app.docpick import docpick_server, docpick_ui
from app.state import Focus, open_link, page_link_requests
from engine.schemas import DocumentRecord, TreeNode

OPEN_LEVELS = 2  # tree levels shown expanded at first
SOURCE_NAMES = {"outline": "PDF outline (bookmarks)", "contents": "printed contents page",
                "layout": "page layout", "llm": "language model"}


@module.ui
def structure_ui():
    return ui.div(
        ui.div(docpick_ui("pick"), ui.output_ui("tree_summary", inline=True),
               class_="pdfrag-toolbar d-flex flex-wrap gap-3 align-items-center mb-2"),
        ui.layout_columns(
            ui.card(ui.card_header("Structure tree ", ui.span("click a node to open its first page",
                                                                class_="text-muted small")),
                    ui.output_ui("tree"), class_="pdfrag-tree-card"),
            ui.navset_card_tab(
                ui.nav_panel("Picture", ui.output_ui("picture")),
                ui.nav_panel("Extracted TOC", ui.output_ui("extracted")),
                ui.nav_panel("Created TOC", ui.output_ui("created")),
                ui.nav_panel("Structure string", ui.output_ui("structure")),
                ui.nav_panel("Side by side", ui.output_ui("side_by_side")),
                id="tabs", selected="Picture",
            ),
            col_widths=(5, 7),
        ),
        class_="pdfrag-page",
    )


def tree_html(node: TreeNode, doc_id: str, input_id: str, depth: int = 0, parent_source: str = "") -> Tag:
    pages = (f"p. {node.start_page}" if node.start_page == node.end_page
             else f"pp. {node.start_page}–{node.end_page}")
    link = open_link(input_id, doc_id, node.start_page, node.title or "(untitled)",
                     title=f"Open page {node.start_page} in Inspect")
    source = (ui.span(node.source, class_=f"badge text-bg-light border ms-2 pdfrag-source-{node.source}",
                      title=f"from the {SOURCE_NAMES[node.source]}")
              if node.source != parent_source else "")  # shown where it changes (and on the root)
    label = ui.span(link, ui.span(pages, class_="text-muted small ms-2 text-nowrap"), source,
                    class_=f"pdfrag-node pdfrag-node-{node.kind}",
                    **{"data-page": str(node.start_page), "data-kind": node.kind, "data-source": node.source})
    if not node.children:
        return ui.tags.li(label, class_="pdfrag-leaf")
    children = ui.tags.ul(*[tree_html(child, doc_id, input_id, depth + 1, node.source) for child in node.children])
    details = ui.tags.details(ui.tags.summary(label), children)
    if depth < OPEN_LEVELS:
        details.attrs["open"] = ""
    return ui.tags.li(details)


def extracted_html(record: DocumentRecord, input_id: str):
    toc = record.extracted_toc
    parts = []
    if toc.contents:
        where = ", ".join(map(str, toc.contents_pages))
        items = []
        for entry in toc.contents:
            text = entry.title + (f" ({entry.printed_page})" if entry.printed_page else "")
            target = (open_link(input_id, record.doc_id, entry.page, f"→ p. {entry.page}")
                      if entry.page else ui.span("unmapped", class_="text-muted"))
            items.append(ui.tags.li(ui.span(text), " ", target, style=f"margin-left: {(entry.level - 1) * 1.2}rem"))
        parts += [ui.h6(f"Contents page (page {where})"), ui.tags.ul(*items, class_="list-unstyled pdfrag-toc")]
    else:
        parts.append(ui.p("No contents page found.", class_="text-muted"))
    if toc.outline:
        items = [ui.tags.li(ui.span(o.title), " ",
                            open_link(input_id, record.doc_id, o.page, f"→ p. {o.page}") if o.page else "",
                            style=f"margin-left: {(o.level - 1) * 1.2}rem") for o in toc.outline]
        parts += [ui.h6(f"PDF outline ({len(toc.outline)} entries)"),
                  ui.tags.ul(*items, class_="list-unstyled pdfrag-toc")]
    else:
        parts.append(ui.p("The PDF has no outline (bookmarks).", class_="text-muted"))
    return ui.div(*parts, class_="pdfrag-scroll")


def _pre(text: str, empty: str):
    return ui.tags.pre(text, class_="pdfrag-pre") if text.strip() else ui.p(empty, class_="text-muted")


@module.server
def structure_server(input, output, session, *, records: Callable[[], list[DocumentRecord]],
                     focus: Focus):
    """Returns a reactive value of requests to open a page in Inspect."""
    record = docpick_server("pick", records=records, focus=focus)
    open_id, open_request = page_link_requests(input, session)

    @render.ui
    def tree_summary():
        rec = record()
        if rec is None or rec.tree is None:
            return None
        nodes = sum(1 for _ in rec.tree.root.walk()) - 1
        warn = f" · {len(rec.tree.warnings)} warning(s)" if rec.tree.warnings else ""
        return ui.span(f"{nodes} nodes over {rec.tree.pages} pages{warn}", class_="text-muted small",
                       title="; ".join(rec.tree.warnings))

    @render.ui
    def tree():
        rec = record()
        if rec is None:
            return ui.p("Choose a document (the Library lists them).", class_="text-muted")
        if rec.tree is None:
            return ui.p(f"No tree for {rec.file_name} yet ({rec.error or rec.status.value}).", class_="text-muted")
        return ui.div(ui.tags.ul(tree_html(rec.tree.root, rec.doc_id, open_id), class_="pdfrag-tree"),
                      class_="pdfrag-scroll")

    @render.ui
    def picture():
        rec = record()
        if rec is None:
            return None
        if rec.tree is None:
            return ui.p(f"No tree for {rec.file_name} yet.", class_="text-muted")
        return ui.div(
            ui.p("Rings are levels of the tree (the first four), a segment's size the pages it spans, its colour "
                 "where the node comes from; click a segment to open its first page.", class_="text-muted small mb-1"),
            source_legend(rec),
            chart(structure_figure(rec), name="structure", input_id=open_id, height="34rem"),
            class_="pdfrag-structure-picture")

    @render.ui
    def extracted():
        rec = record()
        return extracted_html(rec, open_id) if rec else None

    @render.ui
    def created():
        rec = record()
        return _pre(rec.created_toc, "No created TOC.") if rec else None

    @render.ui
    def structure():
        rec = record()
        if rec is None:
            return None
        extra = _pre(rec.landscape_pages, "") if rec.landscape_pages else None
        return ui.div(_pre(rec.structure, "No structure string."),
                      ui.h6("Landscape pages") if extra else None, extra)

    @render.ui
    def side_by_side():
        rec = record()
        if rec is None:
            return None
        return ui.layout_columns(
            ui.div(ui.h6("Extracted TOC"), extracted_html(rec, open_id)),
            ui.div(ui.h6("Created TOC"), ui.div(_pre(rec.created_toc, "No created TOC."), class_="pdfrag-scroll")),
            ui.div(ui.h6("Structure string"),
                   ui.div(_pre(rec.structure, "No structure string."), class_="pdfrag-scroll")),
            col_widths=(4, 4, 4),
        )

    return open_request
