"""The structure stage on small PDFs made here: the outline when consistent, else the contents page, else the
layout; every source recorded on the tree; the layout's headings (`show --what headings`) never the outline's."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from engine.markdown import iter_headings, page_of_lines
from engine.pipeline import Pipeline
from engine.schemas import DocumentRecord, Status
from engine.structure import tree_pages
from engine.workspace import Workspace

BODY = "The river survey measured flow, depth and sediment at every station along the reach this season."
CONTENTS = [("1 Introduction", 1), ("1.1 Scope", 1), ("2 Methods", 2), ("2.1 Sampling", 2), ("3 Results", 3)]
OUTLINE = [[1, "1 Introduction", 3], [2, "1.1 Scope", 3], [1, "2 Methods", 4], [2, "2.1 Sampling", 4],
           [1, "3 Results", 5], [2, "3.1 Discussion", 5]]  # the last one is not in the text


def guide(path: Path, outline: list | None = None, contents: bool = True) -> Path:
    """A five-page guide (four without contents): title page, contents page, three chapters; headings by size,
    a heading-like "Field Notes" that no outline or contents lists, printed page numbers at the foot."""
    doc = pymupdf.open()

    def page(items: list[tuple[str, int]]) -> None:
        new, y = doc.new_page(width=595, height=842), 80.0
        for text, size in items:
            new.insert_text((72, y), text, fontsize=size, fontname="hebo" if size > 11 else "helv")
            y += size * 2.2

    page([("Field Guide to Rivers", 24), ("Prepared by the River Survey", 11)])
    if contents:
        page([("Contents", 16)] + [(f"{title} {'.' * 40} {n}", 10) for title, n in CONTENTS])
    page([("1 Introduction", 16), (BODY, 10), (BODY, 10), ("1.1 Scope", 13), (BODY, 10), ("1", 9)])
    page([("2 Methods", 16), (BODY, 10), ("2.1 Sampling", 13), (BODY, 10), ("Field Notes", 13), (BODY, 10),
          ("2", 9)])
    page([("3 Results", 16), (BODY, 10), (BODY, 10), ("3", 9)])
    if outline:
        doc.set_toc(outline)
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(path)
    doc.close()
    return path


def ingest(data_dir: Path, pdf: Path) -> tuple[DocumentRecord, str]:
    [result] = Pipeline(data_dir, workers=1).ingest([pdf])
    assert result.status is Status.OK, result
    workspace = Workspace(data_dir)
    record = workspace.load(result.doc_id)
    return record, workspace.reformatted_markdown_path(record).read_text(encoding="utf-8")


def nodes(record: DocumentRecord) -> list[tuple[str, int, int, str]]:
    return [(n.title, n.level, n.start_page, n.source) for n in record.tree.root.walk() if n.kind == "heading"]


def assert_agree(record: DocumentRecord, markdown: str) -> None:
    """Reformatted Markdown, created TOC, structure string and tree hold the same headings (the tree's root is
    the document's title: an H1 that reads it is merged into the root, its sections a level up)."""
    page_of = page_of_lines(markdown)
    in_markdown = [(h.title, h.level, page_of[h.line]) for h in iter_headings(markdown)]
    if in_markdown and in_markdown[0][:2] == (record.tree.root.title, 1):
        in_markdown = [(title, level - 1, page) for title, level, page in in_markdown[1:]]
    assert [(t, level, page) for t, level, page, _ in nodes(record)] == in_markdown
    assert record.structure == record.created_toc
    assert tree_pages(record.tree) == set(range(1, record.pages + 1))
    assert DocumentRecord.model_validate_json(record.model_dump_json()) == record


def test_a_consistent_outline_is_the_structure(tmp_path: Path):
    record, markdown = ingest(tmp_path / "ws", guide(tmp_path / "in" / "outlined.pdf", OUTLINE))
    assert record.tree.root.source == "outline"
    assert record.tree.root.title == "Field Guide to Rivers"  # (the title once: the root, not again under it)
    assert nodes(record) == [
        ("1 Introduction", 1, 3, "outline"), ("1.1 Scope", 2, 3, "outline"),
        ("2 Methods", 1, 4, "outline"), ("2.1 Sampling", 2, 4, "outline"),
        ("3 Results", 1, 5, "outline"), ("3.1 Discussion", 2, 5, "outline"),
    ]
    assert_agree(record, markdown)
    assert "**Field Notes**" in markdown  # a heading of the layout only, kept as a bold line


def test_headings_stay_the_layout_s(tmp_path: Path):
    outlined, _ = ingest(tmp_path / "a", guide(tmp_path / "in" / "outlined.pdf", OUTLINE))
    plain, _ = ingest(tmp_path / "b", guide(tmp_path / "in" / "plain.pdf"))
    layout = [(h.title, h.level, h.page) for h in plain.headings]
    assert [(h.title, h.level, h.page) for h in outlined.headings] == layout
    assert "Field Notes" in [t for t, _, _ in layout] and "3.1 Discussion" not in [t for t, _, _ in layout]


def test_an_inconsistent_outline_gives_way_to_the_contents_page(tmp_path: Path):
    bookmarks = [[1, f"Bookmark {n}", n] for n in range(1, 6)]
    record, markdown = ingest(tmp_path / "ws", guide(tmp_path / "in" / "bookmarks.pdf", bookmarks))
    assert record.tree.root.source == "contents"
    assert "the outline was not used" in " ".join(record.stages["structure"].warnings)
    sources = {title: source for title, _, _, source in nodes(record)}
    assert [sources[title] for title, _ in CONTENTS] == ["contents"] * len(CONTENTS)
    assert sources["Field Notes"] == "layout"  # a layout heading the contents page does not list stays
    assert_agree(record, markdown)


def test_without_outline_or_contents_page_the_layout_is_the_structure(tmp_path: Path):
    record, markdown = ingest(tmp_path / "ws", guide(tmp_path / "in" / "bare.pdf", contents=False))
    assert record.tree.root.source == "layout"
    assert {source for _, _, _, source in nodes(record)} == {"layout"}
    assert record.headings[0].title == record.tree.root.title  # the H1, merged into the root
    assert [t for t, _, _, _ in nodes(record)] == [h.title for h in record.headings[1:]]
    assert_agree(record, markdown)


def test_re_running_the_structure_stage_starts_from_the_layout(tmp_path: Path):
    data_dir, pdf = tmp_path / "ws", guide(tmp_path / "in" / "outlined.pdf", OUTLINE)
    first, markdown = ingest(data_dir, pdf)
    [again] = Pipeline(data_dir, workers=1).ingest([pdf], force=True)
    record = Workspace(data_dir).load(again.doc_id)
    assert record.headings == first.headings and record.tree == first.tree
    assert Workspace(data_dir).reformatted_markdown_path(record).read_text(encoding="utf-8") == markdown


@pytest.mark.parametrize("name", ["outlined", "plain"])
def test_show_headings_is_the_layout_s(tmp_path: Path, name: str):
    import json
    import subprocess
    import sys

    outline = OUTLINE if name == "outlined" else None
    record, _ = ingest(tmp_path / "ws", guide(tmp_path / "in" / f"{name}.pdf", outline))
    shown = subprocess.run([sys.executable, "-m", "engine.cli", "show", f"{name}.pdf", "--what", "headings",
                            "--json", "--data-dir", str(tmp_path / "ws")], capture_output=True, text=True,
                           check=True)
    entries = json.loads(shown.stdout)["entries"]
    assert [(e["title"], e["level"], e["page"]) for e in entries] == [
        (h.title, h.level, h.page) for h in record.headings]
    assert "3.1 Discussion" not in [e["title"] for e in entries]


def test_layout_headings_point_at_their_text_in_the_reformatted_markdown(tmp_path: Path):
    record, markdown = ingest(tmp_path / "ws", guide(tmp_path / "in" / "outlined.pdf", OUTLINE))
    lines = markdown.split("\n")
    for heading in record.headings:
        assert heading.title in lines[heading.line], (heading, lines[heading.line])
    assert lines[next(h.line for h in record.headings if h.title == "Field Notes")] == "**Field Notes**"


def test_the_index_keeps_the_layout_s_finer_sections_under_the_outline_s(tmp_path: Path):
    from engine.index.nodes import build_units

    record, markdown = ingest(tmp_path / "ws", guide(tmp_path / "in" / "outlined.pdf", OUTLINE))
    units = build_units(record, markdown)
    notes = next(n for n in units.nodes if n.title == "Field Notes")
    assert notes.path[-2:] == ["2.1 Sampling", "Field Notes"] and notes.start_page == notes.end_page == 4
    sampling = next(n for n in units.nodes if n.title == "2.1 Sampling")
    assert notes.parent == sampling.node
    assert "Field Notes" not in [n.title for n in record.tree.root.walk()]  # the tree stays the outline's
