"""The pictures' data: the structure sunburst (area = pages, colour = source, clicks carry the page), the
stage timeline (each stage's own seconds), the corpus overview; document text escaped for plotly's markup."""

from __future__ import annotations

import json

from htmltools import TagList

from app.charts import (SOURCE_COLOURS, chart, corpus_figure, plotly_dependency, source_legend,
                        stage_timeline_figure, structure_figure)
from engine.schemas import DocumentRecord, Status
from engine.schemas.record import StageState
from engine.schemas.tree import DocTree, TreeNode


def _record(name: str = "r.pdf", pages: int = 10, status: Status = Status.OK) -> DocumentRecord:
    return DocumentRecord(doc_id=f"id-{name}", file_name=name, rel_path=name, sha256="0" * 64, size_bytes=1,
                          pages=pages, status=status)


def _tree_record() -> DocumentRecord:
    record = _record()
    child_a = TreeNode(title="<a href='javascript:x'>Intro</a>", number=3, kind="heading", level=1, start_page=2,
                       end_page=4, source="contents")
    child_b = TreeNode(title="Methods", number=9, kind="heading", level=1, start_page=4, end_page=10, source="layout",
                       children=[TreeNode(title="Sampling", number=12, kind="heading", level=2, start_page=6,
                                          end_page=7, source="layout")])
    root = TreeNode(title="Report", number=-1, kind="root", level=0, start_page=1, end_page=10, source="outline",
                    children=[child_a, child_b])
    record.tree = DocTree(doc_title="Report", pages=10, root=root)
    return record


def test_the_sunburst_sizes_nodes_by_pages_and_colours_them_by_source():
    figure = structure_figure(_tree_record())
    [trace] = figure["data"]
    assert trace["type"] == "sunburst" and trace["branchvalues"] == "remainder"
    by_label = dict(zip(trace["labels"], zip(trace["values"], trace["marker"]["colors"], trace["customdata"])))
    # own pages: the root keeps page 1, Methods pages 4-5 and 8-10 (6-7 are Sampling's)
    assert by_label["Report"] == (1, SOURCE_COLOURS["outline"], ["id-r.pdf", 1])
    assert by_label["Methods"] == (5, SOURCE_COLOURS["layout"], ["id-r.pdf", 4])
    assert by_label["Sampling"][0] == 2 and by_label["Sampling"][2] == ["id-r.pdf", 6]
    assert "&lt;a href='javascript:x'&gt;Intro&lt;/a&gt;" in trace["labels"]  # shown as text, not a plotly link
    assert not any("<a" in text for text in trace["labels"] + trace["hovertext"])
    assert trace["parents"][0] == "" and len(set(trace["ids"])) == len(trace["ids"]) == 4


def test_the_legend_names_the_sources_the_tree_has():
    html = TagList(source_legend(_tree_record())).get_html_string()
    assert "PDF outline 1" in html and "printed contents 1" in html and "page layout 2" in html
    assert "language model" not in html


def test_the_timeline_shows_each_stages_own_seconds():
    a, b = _record("a.pdf"), _record("b.pdf")
    a.stages = {"open": StageState(status=Status.OK, seconds=0.5), "read": StageState(status=Status.OK, seconds=2.0)}
    b.stages = {"open": StageState(status=Status.OK, seconds=0.1)}
    figure = stage_timeline_figure([a, b, _record("never.pdf")], ["open", "read"])
    open_trace, read_trace = figure["data"]
    assert open_trace["y"] == ["a.pdf", "b.pdf"] and open_trace["x"] == [0.5, 0.1]
    assert read_trace["x"] == [2.0, 0.0] and read_trace["customdata"][1] == [0.0, "not run"]
    assert figure["layout"]["barmode"] == "stack"
    assert stage_timeline_figure([_record()], ["open"]) == {"data": []}


def test_the_timeline_keeps_the_slowest_documents_past_its_limit():
    records = []
    for n in range(5):
        r = _record(f"d{n}.pdf")
        r.stages = {"open": StageState(status=Status.OK, seconds=float(n))}
        records.append(r)
    [trace] = stage_timeline_figure(records, ["open"], limit=2)["data"]
    assert trace["y"] == ["d3.pdf", "d4.pdf"]


def test_the_corpus_overview_gives_pages_by_status():
    figure = corpus_figure([_record("b.pdf", 3), _record("a.pdf", 7, Status.FAILED), _record("c.pdf", 0, Status.PENDING)])
    by_status = {t["name"]: (t["y"], t["x"], t["customdata"]) for t in figure["data"]}
    assert by_status["ok"] == (["b.pdf"], [3], [["id-b.pdf", 1]])
    assert by_status["failed"][1] == [7] and by_status["pending"][0] == ["c.pdf"]


def test_a_chart_carries_its_figure_in_an_escaped_attribute_with_plotly_from_the_package():
    dependency = plotly_dependency()
    assert dependency is not None and dependency.script[0]["src"] == "plotly.min.js"
    html = TagList(chart(structure_figure(_tree_record()), name="structure", input_id="structure-open")).get_html_string()
    assert 'data-input="structure-open"' in html and "<script" not in html.split("data-figure")[1]
    assert "<a href" not in html  # the hostile title stays escaped in the attribute
    empty = TagList(chart({"data": []}, name="x", empty="nothing here")).get_html_string()
    assert "nothing here" in empty and "pdfrag-plot" not in empty


def test_the_attribute_decodes_to_the_figure():
    from html.parser import HTMLParser

    figure = structure_figure(_tree_record())
    html = TagList(chart(figure, name="s")).get_html_string()
    found = {}

    class Grab(HTMLParser):
        def handle_starttag(self, tag, attrs):
            found.update({k: v for k, v in attrs if k == "data-figure"})

    Grab().feed(html)
    assert json.loads(found["data-figure"]) == figure
