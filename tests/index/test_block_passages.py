"""Retrieval passages from the block model: what is a passage, which section it sits in, page expansion."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from engine.index.lexical import PAGE_DECAY, expand_pages
from engine.index.passages import agenda_entries, block_texts, build_passages, markdown_blocks, passage_bags
from engine.index.store import load_doc_index, read_blocks, update_index
from engine.markdown import render_markdown, render_page
from engine.schemas import Block, PageBlocks
from engine.schemas.index import IndexNode
from engine.text import tokenize
from engine.workspace import Workspace

GUIDE, DECK = "pdfrag-field-guide.pdf", "pdfrag-product-deck.pdf"


def _node(node: int, title: str, path: list[str], line: int | None, page: int, kind="section") -> IndexNode:
    return IndexNode(doc_id="d", node=node, kind=kind, title=title, path=path, line=line, start_page=page,
                     end_page=page)


def test_a_table_gives_one_passage_per_row_each_with_its_header():
    table = Block(kind="table", text="Plan | Price\nTeam | 240\nAgency | Contact us",
                  cells=[["Plan", "Price"], ["Team", "240"], ["Agency", "Contact us"]])
    assert block_texts(table) == [("row", "Plan | Price\nTeam | 240"), ("row", "Plan | Price\nAgency | Contact us")]
    single = Block(kind="table", text="Total | 12", cells=[["Total", "", "12"]])
    assert block_texts(single) == [("row", "Total | 12")]


def test_contents_entries_are_not_passages_but_code_and_paragraphs_are():
    assert block_texts(Block(kind="paragraph", text="2.1 Defining the question ........ 4")) == []
    assert block_texts(Block(kind="code", text="x = 1\ny = 2")) == [("code", "x = 1\ny = 2")]
    assert block_texts(Block(kind="paragraph", text="Rivers run.")) == [("paragraph", "Rivers run.")]


def test_an_agenda_naming_later_sections_gives_no_passages_but_a_list_among_text_does():
    nodes = [_node(0, "Why Riverline", ["Why Riverline"], None, 3), _node(1, "How it works", ["How it works"], None, 5),
             _node(2, "Getting started", ["Getting started"], None, 11)]
    entries = ["1. Why Riverline", "2. How it works", "3. Getting started"]
    agenda = PageBlocks(page=2, blocks=[Block(kind="paragraph", text="Agenda")]
                        + [Block(kind="paragraph", text=t) for t in entries] + [Block(kind="furniture", text="2")])
    assert agenda_entries(agenda, nodes) == {1, 2, 3}
    # the same titles among the page's own text (an overview of the parts that follow) are content
    overview = PageBlocks(page=2, blocks=agenda.blocks + [Block(kind="paragraph", text="We cover three things."),
                                                         Block(kind="paragraph", text="Each takes a day.")])
    assert agenda_entries(overview, nodes) == set()
    # titles of sections that start earlier are no agenda (the page sits after them)
    assert agenda_entries(PageBlocks(page=12, blocks=agenda.blocks), nodes) == set()


def _two_pages() -> list[PageBlocks]:
    return [
        PageBlocks(page=1, blocks=[
            Block(kind="furniture", text="Annual review"),
            Block(kind="heading", text="Report", level=1),
            Block(kind="paragraph", text="Opening words."),
            Block(kind="heading", text="Methods", level=2),
            Block(kind="list_item", text="measure depth"),
            Block(kind="list_item", text="measure velocity"),
            Block(kind="heading", text="Safety first", level=3),  # a layout heading the tree does not list
            Block(kind="paragraph", text="Wear a life jacket."),
            Block(kind="furniture", text="1"),
        ]),
        PageBlocks(page=2, blocks=[
            Block(kind="paragraph", text="Go on measuring."),
            Block(kind="heading", text="Results", level=2),
            Block(kind="table", text="Site | Depth\nA | 0.4", cells=[["Site", "Depth"], ["A", "0.4"]]),
        ]),
    ]


def _nodes_for(markdown: str) -> list[IndexNode]:
    lines = markdown.split("\n")
    at = {text: lines.index(text) for text in ("# Report", "## Methods", "## Results")}
    return [
        _node(0, "Report", [], None, 1, kind="front"),
        _node(1, "Report", ["Report"], at["# Report"], 1),
        _node(2, "Methods", ["Report", "Methods"], at["## Methods"], 1),
        _node(3, "Results", ["Report", "Results"], at["## Results"], 2),
    ]


def test_passages_take_their_section_from_the_tree_and_leave_furniture_out():
    pages = _two_pages()
    markdown = render_markdown(pages)
    found = build_passages(pages, markdown, _nodes_for(markdown))
    assert [(p.page, p.node, p.kind, p.text, p.heading) for p in found] == [
        (1, 1, "paragraph", "Opening words.", ""),
        (1, 2, "list", "measure depth\nmeasure velocity", ""),  # one passage for the run of items
        (1, 2, "paragraph", "Wear a life jacket.", "Safety first"),
        (2, 2, "paragraph", "Go on measuring.", ""),  # the section goes on over the page break
        (2, 3, "row", "Site | Depth\nA | 0.4", ""),
    ]


def test_a_title_line_added_by_reformat_does_not_shift_the_sections():
    pages = _two_pages()
    markdown = "# Added title\n\n" + render_markdown(pages)  # reformat may add a title line at the top
    found = build_passages(pages, markdown, _nodes_for(markdown))
    assert [p.node for p in found] == [1, 2, 2, 2, 3]


def test_bags_hold_the_section_path_and_the_heading():
    pages = _two_pages()
    markdown = render_markdown(pages)
    nodes = _nodes_for(markdown)
    found = build_passages(pages, markdown, nodes)
    bags, lengths = passage_bags(found, nodes)
    assert bags[2] == tokenize("Report Methods") + tokenize("Safety first Wear a life jacket.")
    assert lengths == [len(bag) for bag in bags]


def test_markdown_reads_back_into_the_blocks_it_was_rendered_from():
    page = _two_pages()[0]
    page.blocks.append(Block(kind="code", text="if depth > 0.75:\n    two_readings()"))
    read = markdown_blocks(1, render_page(page))
    kept = [(b.kind, b.text) for b in page.blocks if b.kind != "furniture"]
    assert [(b.kind, b.text) for b in read.blocks] == kept
    table = markdown_blocks(2, render_page(_two_pages()[1])).blocks[-1]
    assert table.kind == "table" and table.cells == [["Site", "Depth"], ["A", "0.4"]]


def test_hostile_text_is_only_words():
    page = PageBlocks(page=1, blocks=[
        Block(kind="paragraph", text="<script>alert(1)</script> " + "." * 50_000),
        Block(kind="paragraph", text="--- end page 7"),
        Block(kind="heading", text="# ## ###", level=1),
    ])
    found = build_passages([page], render_page(page) + "\n\n--- end page 1\n", [])
    assert [p.kind for p in found] == ["paragraph"]  # the leader run is a contents entry; the marker-like line
    assert found[0].text == "--- end page 7"  # stays text (it is no page break of the blocks)


def test_a_page_scores_by_its_best_passages():
    scores = np.asarray([1.0, 4.0, 2.0, 3.0, 0.0, 5.0, 1.0], dtype=np.float32)
    unit_page = np.asarray([0, 0, 0, 0, 0, 1, 2])
    out = expand_pages(scores, unit_page, 4)
    assert out[0] == pytest.approx(4.0 * PAGE_DECAY[0] + 3.0 * PAGE_DECAY[1] + 2.0 * PAGE_DECAY[2])  # not the 4th
    assert out[1] == pytest.approx(5.0) and out[2] == pytest.approx(1.0) and out[3] == 0.0


@pytest.fixture(scope="module")
def samples(samples_workspace, tmp_path_factory) -> Workspace:
    root = tmp_path_factory.mktemp("passages") / "ws"
    shutil.copytree(samples_workspace, root, ignore=shutil.ignore_patterns("index"))
    workspace = Workspace(root)
    update_index(workspace)
    return workspace


def test_the_stored_index_counts_the_blocks_passages(samples):
    record = samples.find(GUIDE)
    index = load_doc_index(samples, record.doc_id)
    blocks = read_blocks(samples, record)
    assert blocks is not None
    markdown = samples.reformatted_markdown_path(record).read_text(encoding="utf-8")
    found = build_passages(blocks, markdown, index.nodes)
    assert index.passage_page.tolist() == [p.page for p in found]
    assert index.terms["passage"].units == len(found)
    six = next(i for i, p in enumerate(found) if p.text.startswith("In water shallower than about three quarters"))
    assert index.nodes[int(index.passage_node[six])].path[-1] == "The six-tenths method"
    furniture = {b.text for page in blocks for b in page.blocks if b.kind == "furniture"}
    assert furniture and not furniture & {p.text for p in found}


def test_without_blocks_the_markdown_gives_the_same_passages(samples):
    from engine.index.store import build_doc_index

    for name in (GUIDE, DECK):
        record = samples.find(name)
        markdown = samples.reformatted_markdown_path(record).read_text(encoding="utf-8")
        with_blocks = build_doc_index(record, markdown, read_blocks(samples, record))
        without = build_doc_index(record, markdown, None)
        assert without.passage_page.tolist() == with_blocks.passage_page.tolist()
        assert without.passage_node.tolist() == with_blocks.passage_node.tolist()


def test_a_list_item_as_long_as_a_paragraph_is_a_passage_of_its_own():
    long_item = " ".join(["the station counted herons along the river bank at dawn"] * 4)  # 40 words
    page = PageBlocks(page=1, blocks=[
        Block(kind="heading", text="Report", level=1),
        Block(kind="list_item", text="measure depth"),
        Block(kind="list_item", text=long_item),
        Block(kind="list_item", text="measure velocity"),
        Block(kind="list_item", text="measure width"),
    ])
    markdown = render_markdown([page])
    nodes = [_node(0, "Report", ["Report"], markdown.split("\n").index("# Report"), 1)]
    found = build_passages([page], markdown, nodes)
    assert [(p.kind, p.text) for p in found] == [
        ("list", "measure depth"), ("list", long_item), ("list", "measure velocity\nmeasure width")]


def test_a_documents_running_headers_and_footers_are_kept_once_each_outside_its_text():
    from engine.index.store import furniture_text

    footer = Block(kind="furniture", text="S. Villemot, H. Bastani  (CEPREMAP)")
    pages = [PageBlocks(page=n, blocks=[Block(kind="furniture", text=f"Slide {n}"),
                                        Block(kind="paragraph", text="The preprocessor parses the model."), footer])
             for n in (1, 2)]
    assert furniture_text(pages) == "Slide 1\nS. Villemot, H. Bastani (CEPREMAP)"  # ("Slide 2": "Slide 1" again)
    assert furniture_text([PageBlocks(page=1, blocks=[Block(kind="paragraph", text="No furniture.")])]) == ""
