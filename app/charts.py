"""Pictures for the workbench: plotly.js figures built here as plain data and drawn in the browser by
app/www/charts.js with the plotly.js that the `plotly` package ships (served by the app, never a CDN).

Why not shinywidgets: its widget manager compiles JSON schemas with `new Function` and fetches fonts from
unpkg, which the app's Content-Security-Policy (no 'unsafe-eval', nothing from other hosts) refuses; plotly.js
itself draws SVG traces without either. A figure travels as JSON in a `data-figure` attribute (htmltools
escapes it; no inline script), and every string from a document is escaped for plotly's own markup
(plotly reads `<b>`, `<br>`, `<a href>` in labels), so a title shows as the text it is.
"""

from __future__ import annotations

import html
import importlib.util
import json
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path

from htmltools import HTMLDependency, Tag, TagList, tags

from engine.schemas import DocumentRecord, TreeNode

SOURCE_COLOURS = {"outline": "#4c78a8", "contents": "#f58518", "layout": "#54a24b", "llm": "#b279a2"}
SOURCE_NAMES = {"outline": "PDF outline", "contents": "printed contents", "layout": "page layout",
                "llm": "language model"}
STAGE_COLOURS = ["#4c78a8", "#f58518", "#e45756", "#72b7b2", "#54a24b", "#eeca3b", "#b279a2", "#9d755d"]
STATUS_COLOURS = {"ok": "#198754", "partial": "#e0a800", "failed": "#dc3545", "pending": "#adb5bd",
                  "damaged": "#6c757d"}
FONT = {"family": "system-ui, -apple-system, 'Segoe UI', sans-serif", "size": 12}
MAX_DEPTH = 4  # sunburst rings shown at once (a deep tree's lower levels are in the list beside it)


def plain(text: str, limit: int = 120) -> str:
    """Document text for a plotly label or hover: one line, shortened, its markup characters escaped."""
    text = " ".join(str(text).split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return html.escape(text, quote=False)


@lru_cache(maxsize=1)
def plotly_dependency() -> HTMLDependency | None:
    """plotly.js from the installed `plotly` package (None when the package is not installed)."""
    spec = importlib.util.find_spec("plotly")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "package_data"
    if not (folder / "plotly.min.js").is_file():
        return None
    version = _plotly_js_version(folder / "plotly.min.js")
    return HTMLDependency("plotly.js", version, source={"subdir": str(folder)}, script={"src": "plotly.min.js"})


def _plotly_js_version(path: Path) -> str:
    head = path.open("rb").read(200).decode("ascii", "ignore")
    for word in head.split():
        if word.startswith("v") and word[1:2].isdigit():
            return word[1:].strip(",")
    return "0"


def chart(figure: dict, *, name: str, input_id: str | None = None, height: str = "26rem",
          empty: str = "Nothing to draw yet.") -> Tag | TagList:
    """A figure as a `div.pdfrag-plot` that app/www/charts.js draws; clicks on points that carry
    customdata [doc_id, page] set `input_id` (an id ending in "-open" or "_open") to {doc, page}."""
    dependency = plotly_dependency()
    if dependency is None:
        return tags.p("Charts need the plotly package (pip install plotly).", class_="text-muted small")
    if not figure.get("data"):
        return tags.p(empty, class_="text-muted small mb-0")
    attrs = {"data-figure": json.dumps(figure, separators=(",", ":")), "data-chart": name}
    if input_id:
        attrs["data-input"] = input_id
    return TagList(dependency, tags.div(class_="pdfrag-plot", style=f"height: {height}", **attrs))


def _layout(**extra) -> dict:
    return {"margin": {"l": 8, "r": 8, "t": 8, "b": 8}, "font": FONT, "paper_bgcolor": "rgba(0,0,0,0)",
            "plot_bgcolor": "rgba(0,0,0,0)", **extra}


# -- the structure tree ----------------------------------------------------------------------------------------


def _own_pages(node: TreeNode) -> int:
    """Pages of the node's range that none of its children covers (its area of its own in the picture)."""
    pages = set(range(node.start_page, node.end_page + 1))
    for child in node.children:
        pages -= set(range(child.start_page, child.end_page + 1))
    return len(pages)


def structure_figure(record: DocumentRecord) -> dict:
    """The tree as a sunburst: one ring a level, area the pages a node spans, colour its source
    (outline, contents, layout, llm); customdata [doc_id, first page] opens the page."""
    if record.tree is None:
        return {"data": []}
    ids, parents, labels, values, colours, custom, hover = [], [], [], [], [], [], []
    counter = 0

    def add(node: TreeNode, parent: str) -> None:
        nonlocal counter
        counter += 1
        node_id = f"n{counter}"
        ids.append(node_id)
        parents.append(parent)
        labels.append(plain(node.title or "(untitled)", 60))
        values.append(_own_pages(node))
        colours.append(SOURCE_COLOURS.get(node.source, "#999999"))
        span = f"p. {node.start_page}" if node.start_page == node.end_page else f"pp. {node.start_page}–{node.end_page}"
        source = SOURCE_NAMES.get(node.source, node.source)
        hover.append(f"{plain(node.title or '(untitled)')}<br>{span} · from the {source}")
        custom.append([record.doc_id, node.start_page])
        for child in node.children:
            add(child, node_id)

    add(record.tree.root, "")
    trace = {
        "type": "sunburst", "ids": ids, "parents": parents, "labels": labels, "values": values,
        "branchvalues": "remainder", "maxdepth": MAX_DEPTH, "customdata": custom, "hovertext": hover,
        "hoverinfo": "text", "marker": {"colors": colours, "line": {"color": "white", "width": 1}},
        "insidetextorientation": "radial", "sort": False,
    }
    return {"data": [trace], "layout": _layout(), "config": {"displayModeBar": False}}


def source_legend(record: DocumentRecord) -> Tag:
    """Which colour is which source, with how many nodes of the tree come from each."""
    counts: dict[str, int] = {}
    if record.tree is not None:
        for node in record.tree.root.walk():
            counts[node.source] = counts.get(node.source, 0) + 1
    items = [tags.span(tags.span(class_="pdfrag-swatch", style=f"background: {colour}; border-color: {colour}"),
                       f"{SOURCE_NAMES[source]} {counts[source]}", class_="pdfrag-legend-item",
                       **{"data-source": source})
             for source, colour in SOURCE_COLOURS.items() if counts.get(source)]
    return tags.div(*items, class_="pdfrag-legend small")


# -- the pipeline ----------------------------------------------------------------------------------------------


def stage_timeline_figure(records: Sequence[DocumentRecord], stages: Sequence[str], limit: int = 40) -> dict:
    """Each document's stages end to end, as each last ran: a bar a document, a segment a stage, its length
    the stage's own seconds (from the record). Past `limit` documents, the slowest are shown."""
    shown = [r for r in records if any(r.stages.get(s) is not None for s in stages)]
    if not shown:
        return {"data": []}
    if len(shown) > limit:
        slowest = {r.doc_id for r in sorted(shown, key=lambda r: -sum(st.seconds for st in r.stages.values()))[:limit]}
        shown = [r for r in shown if r.doc_id in slowest]
    names = [plain(r.file_name, 48) for r in shown]
    data = []
    for index, stage in enumerate(stages):
        seconds = [(r.stages[stage].seconds if r.stages.get(stage) else 0.0) for r in shown]
        statuses = [(r.stages[stage].status.value if r.stages.get(stage) else "not run") for r in shown]
        data.append({
            "type": "bar", "orientation": "h", "name": stage, "y": names, "x": seconds,
            "marker": {"color": STAGE_COLOURS[index % len(STAGE_COLOURS)]},
            "customdata": [[s, st] for s, st in zip(seconds, statuses)],
            "hovertemplate": f"%{{y}}<br>{stage}: %{{x:.2f}} s (%{{customdata[1]}})<extra></extra>",
        })
    height = 110 + 30 * len(shown)
    layout = _layout(barmode="stack", height=height, margin={"l": 8, "r": 8, "t": 36, "b": 40},
                     xaxis={"title": {"text": "seconds"}, "zeroline": False, "gridcolor": "#e9ecef"},
                     yaxis={"automargin": True, "autorange": "reversed"},
                     legend={"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0, "traceorder": "normal"})
    return {"data": data, "layout": layout, "config": {"displayModeBar": False}}


# -- the corpus ------------------------------------------------------------------------------------------------


def corpus_figure(records: Iterable[DocumentRecord], open_pages: bool = True) -> dict:
    """Pages per document, coloured by status; customdata [doc_id, 1] opens the document's first page."""
    rows = sorted(records, key=lambda r: r.file_name.lower())
    if not rows:
        return {"data": []}
    data = []
    for status, colour in STATUS_COLOURS.items():
        mine = [r for r in rows if r.status.value == status]
        if not mine:
            continue
        data.append({
            "type": "bar", "orientation": "h", "name": status, "y": [plain(r.file_name, 48) for r in mine],
            "x": [r.pages for r in mine], "marker": {"color": colour},
            "customdata": [[r.doc_id, 1] for r in mine] if open_pages else None,
            "hovertemplate": "%{y}<br>%{x} pages · " + status + "<extra></extra>",
        })
    height = max(140, 40 + 26 * len(rows))
    layout = _layout(height=height, barmode="overlay", margin={"l": 8, "r": 8, "t": 8, "b": 32},
                     xaxis={"title": {"text": "pages"}, "gridcolor": "#e9ecef", "rangemode": "tozero"},
                     yaxis={"automargin": True, "categoryorder": "array",
                            "categoryarray": [plain(r.file_name, 48) for r in reversed(rows)]},
                     legend={"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0})
    return {"data": data, "layout": layout, "config": {"displayModeBar": False}}
