"""Per-document indexes: nodes addressed like the document, stored under index/, rebuilt only when needed."""

from __future__ import annotations

import shutil

import pytest

from engine.index import load_corpus, update_index
from engine.index.store import VERSION, load_doc_index
from engine.workspace import Workspace

GUIDE, DECK = "pdfrag-field-guide.pdf", "pdfrag-product-deck.pdf"


@pytest.fixture
def workspace(samples_workspace, tmp_path) -> Workspace:
    root = tmp_path / "ws"
    shutil.copytree(samples_workspace, root)
    shutil.rmtree(root / "index", ignore_errors=True)  # other tests may have indexed the shared copy
    return Workspace(root)


def _doc(workspace: Workspace, name: str):
    record = workspace.find(name)
    update_index(workspace)
    return load_doc_index(workspace, record.doc_id)


def test_report_nodes_are_heading_sections_with_lines_and_pages(workspace):
    index = _doc(workspace, GUIDE)
    sections = [n for n in index.nodes if n.kind == "section"]
    lines = workspace.reformatted_markdown_path(workspace.find(GUIDE)).read_text(encoding="utf-8").split("\n")
    by_title = {n.title: n for n in sections}
    node = by_title["The six-tenths method"]
    assert lines[node.line].lstrip("#").strip() == "The six-tenths method"
    assert (node.start_page, node.end_page) == (9, 9)
    assert node.path[-3:] == ["4 Measuring the Channel", "4.2 Depth and velocity", "The six-tenths method"]
    assert node.summary.startswith("In water shallower than about three quarters of a metre")
    assert by_title["4.2 Depth and velocity"].node == node.parent or index.nodes[node.parent].title == "4.2 Depth and velocity"
    # every page's text is covered by some chunk
    assert sorted(set(index.chunk_page.tolist())) == list(range(1, 12))


def test_deck_has_one_node_per_page_under_its_section(workspace):
    index = _doc(workspace, DECK)
    pages = [n for n in index.nodes if n.kind == "page"]
    assert sorted(n.start_page for n in pages) == list(range(1, 13))
    stories = [n for n in pages if n.start_page in (7, 8, 9)]
    parents = {index.nodes[n.parent].title for n in stories}
    assert parents == {"Customer stories"}
    assert sorted(index.chunk_page.tolist()) == list(range(1, 13))


def test_chunk_text_is_a_span_of_its_page(workspace):
    index = _doc(workspace, GUIDE)
    for chunk in range(len(index.chunk_node)):
        text = index.chunk_text(chunk)
        assert text and text in index.pages[int(index.chunk_page[chunk]) - 1]


def test_index_files_live_under_index_and_carry_the_version(workspace):
    result = update_index(workspace)
    assert len(result.built) == 2 and not result.kept
    folder = workspace.index / "docs"
    assert len(list(folder.glob("*.json"))) == 2 and len(list(folder.glob("*.npz"))) == 2
    assert all(load_doc_index(workspace, r.doc_id).info.version == VERSION for r in workspace.records())


def test_adding_a_document_indexes_it_as_it_finishes_and_rebuilds_no_other(workspace, make_pdf):
    from engine.pipeline import Pipeline

    update_index(workspace)
    guide = workspace.find(GUIDE)
    before = (workspace.index / "docs" / f"{guide.doc_id}.npz").stat().st_mtime_ns
    Pipeline(workspace.root, workers=1).ingest([make_pdf("extra.pdf", pages=3)])
    extra = workspace.find("extra.pdf")
    assert load_doc_index(workspace, extra.doc_id).info.file_name == "extra.pdf"  # the pipeline built it
    result = update_index(workspace)
    assert not result.built and len(result.kept) == 3
    assert (workspace.index / "docs" / f"{guide.doc_id}.npz").stat().st_mtime_ns == before


def test_a_document_whose_index_cannot_be_written_is_still_processed(workspace, make_pdf, caplog):
    from engine.pipeline import Pipeline

    (workspace.index).mkdir(parents=True, exist_ok=True)
    (workspace.index / "docs").write_text("not a folder", encoding="utf-8")
    with caplog.at_level("WARNING", logger="engine.pipeline"):
        [result] = Pipeline(workspace.root, workers=1).ingest([make_pdf("extra.pdf", pages=2)])
    assert result.status.value == "ok"
    assert "index not built here" in caplog.text  # left to the index stage, which reports its own failure


def test_a_removed_document_leaves_the_index(workspace):
    update_index(workspace)
    deck = workspace.find(DECK)
    workspace.record_path(deck.doc_id).unlink()
    result = update_index(workspace)
    assert result.removed == [deck.doc_id]
    assert [d.info.file_name for d in load_corpus(workspace).docs] == [GUIDE]


def test_a_changed_record_rebuilds_only_that_document(workspace):
    update_index(workspace)
    record = workspace.find(GUIDE)
    record.stages["tree"].cache_key += "-changed"
    workspace.save(record)
    result = update_index(workspace)
    assert result.built == [record.doc_id] and len(result.kept) == 1


def test_an_unreadable_index_is_rebuilt(workspace):
    update_index(workspace)
    record = workspace.find(DECK)
    (workspace.index / "docs" / f"{record.doc_id}.npz").write_bytes(b"not numpy")
    assert load_doc_index(workspace, record.doc_id) is None
    corpus = load_corpus(workspace)
    assert [d.info.file_name for d in corpus.docs] == [GUIDE, DECK] and corpus.unsaved == [DECK]  # in memory
    assert update_index(workspace).built == [record.doc_id]  # the index stage saves it again
    assert load_doc_index(workspace, record.doc_id) is not None


def test_corpus_is_cached_until_a_document_changes(workspace):
    first = load_corpus(workspace)
    assert load_corpus(workspace) is first
    record = workspace.find(GUIDE)
    record.stages["tree"].cache_key += "-changed"
    workspace.save(record)
    assert load_corpus(workspace) is not first
