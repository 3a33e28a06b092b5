"""The typed block model under the offline reader's Markdown: kinds, positions, rendering, storage."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from engine.markdown import render_markdown
from engine.readers.offline import OfflineReader
from engine.schemas import DocumentBlocks, DocumentRecord, PageBlocks, Provider, ReadResult
from engine.stages.base import StageContext
from engine.stages.offline import ReadStage
from engine.workspace import Workspace
from tests.readers.samples import GUIDE, SAMPLES, guide  # noqa: F401  (guide: a fixture)


def test_markdown_is_rendered_from_the_blocks(guide):
    assert len(guide.blocks) == GUIDE["pages"]
    assert render_markdown(guide.blocks) == guide.markdown


def test_blocks_survive_json(guide):
    document = DocumentBlocks(reader="offline", version=OfflineReader.version, pages=guide.blocks)
    again = DocumentBlocks.model_validate_json(document.model_dump_json(exclude_defaults=True))
    assert again == document


def test_every_block_lies_on_its_page_and_its_lines_index_its_text(guide):
    with pymupdf.open(SAMPLES / "pdfrag-field-guide.pdf") as doc:
        for page in guide.blocks:
            rect = doc[page.page - 1].rect
            assert (page.width, page.height) == (round(rect.width, 1), round(rect.height, 1))
            for block in page.blocks:
                x0, y0, x1, y1 = block.bbox
                assert -1 <= x0 < x1 <= rect.width + 1 and -1 <= y0 < y1 <= rect.height + 1, block
                if block.kind == "figure":
                    continue
                assert block.lines, block
                for line in block.lines:
                    assert 0 <= line.start < line.end <= len(block.text)
                    lx0, ly0, lx1, ly1 = line.bbox
                    assert x0 <= lx0 and y0 <= ly0 and lx1 <= x1 and ly1 <= y1
                # lines in reading order do not overlap in the text
                assert all(a.end <= b.start for a, b in zip(block.lines, block.lines[1:]))


def test_line_spans_hold_the_printed_words(guide):
    page = guide.blocks[0]
    with pymupdf.open(SAMPLES / "pdfrag-field-guide.pdf") as doc:
        for block in page.blocks:
            for line in block.lines:
                printed = doc[0].get_textbox(pymupdf.Rect(line.bbox) + (-1, -1, 1, 1))
                words = block.text[line.start:line.end].split()
                assert words and all(word.rstrip("-") in printed for word in words), (words, printed)


def test_headings_carry_their_level_and_style(guide):
    headings = [b for p in guide.blocks for b in p.blocks if b.kind == "heading"]
    assert [b.text for b in headings][1:] == [h["title"] for h in GUIDE["headings"]]
    assert all(b.level and b.style and b.style.size for b in headings)
    body = [b for p in guide.blocks for b in p.blocks if b.kind == "paragraph"]
    assert max(b.style.size for b in body) < max(b.style.size for b in headings)


def test_kinds_of_the_guide(guide):
    kinds = {b.kind for p in guide.blocks for b in p.blocks}
    assert {"heading", "paragraph", "list_item", "figure", "furniture"} <= kinds
    (image,) = guide.images
    figure = next(b for b in guide.blocks[image.page - 1].blocks if b.kind == "figure")
    assert figure.image == image.id and figure.bbox == image.bbox


def test_running_headers_are_furniture_blocks_not_markdown(guide):
    furniture = [b for p in guide.blocks for b in p.blocks if b.kind == "furniture"]
    assert any(GUIDE["running_header"] in b.text for b in furniture)
    assert GUIDE["running_header"] not in guide.markdown
    for page in guide.blocks:
        for block in page.blocks:
            if block.kind == "furniture":
                middle = (block.bbox[1] + block.bbox[3]) / 2
                assert middle < 0.15 * page.height or middle > 0.85 * page.height


class _FixedReader:
    """A reader that returns a given result (injectable into ReadStage)."""

    name, version = "fixed", 1

    def __init__(self, result: ReadResult) -> None:
        self.result = result

    def read(self, path, *, progress=None) -> ReadResult:
        return self.result


def _context(tmp_path: Path) -> StageContext:
    workspace = Workspace(tmp_path / "ws").ensure()
    (workspace.pdfs / "a.pdf").write_bytes(b"%PDF-1.4\n")
    record = DocumentRecord(doc_id="0123456789abcdef", file_name="a.pdf", rel_path="a.pdf", sha256="0" * 64,
                            size_bytes=9)
    return StageContext(workspace, record, Provider.OFFLINE, "", lambda done, total: None)


def test_read_stage_keeps_the_blocks_beside_the_markdown(tmp_path, guide):
    ctx = _context(tmp_path)
    ReadStage(_FixedReader(guide)).run(ctx)
    path = ctx.workspace.blocks_path(ctx.record)
    assert path.name == "a.blocks.json" and path.parent == ctx.workspace.cache
    stored = DocumentBlocks.model_validate_json(path.read_text(encoding="utf-8"))
    assert (stored.reader, stored.version) == ("fixed", 1)
    assert render_markdown(stored.pages) == ctx.raw_markdown() == guide.markdown
    ctx.workspace.save(ctx.record)
    ctx.workspace.remove(ctx.record.doc_id)
    assert not path.exists()


def test_a_reader_without_positions_leaves_no_blocks_file(tmp_path, guide):
    ctx = _context(tmp_path)
    ReadStage(_FixedReader(guide)).run(ctx)
    without = ReadResult(markdown="Some text\n\n--- end page 1\n", pages=[])
    ReadStage(_FixedReader(without)).run(ctx)
    assert not ctx.workspace.blocks_path(ctx.record).exists()
    assert ctx.raw_markdown() == without.markdown


def test_render_page_special_pages():
    from engine.markdown import render_page

    assert render_page(PageBlocks(page=3, blank=True)) == "_(blank page)_"
    assert "needs_ocr" in render_page(PageBlocks(page=3, needs_ocr=True))


def test_text_that_starts_like_markdown_structure_opens_none_in_the_rendered_markdown():
    from engine.markdown import iter_headings, split_pages
    from engine.schemas.blocks import Block

    text = "# This file was automatically generated by the\n# update-mime-database command. DO NOT EDIT!"
    page = PageBlocks(page=1, blocks=[
        Block(kind="heading", text="The glob files", level=2),
        Block(kind="paragraph", text=text),
        Block(kind="list_item", text="# not a heading either"),
        Block(kind="paragraph", text="--- end page 7"),
        Block(kind="paragraph", text="``` not a fence"),
        Block(kind="code", text="# a comment inside code stays as it is"),
    ])
    markdown = render_markdown([page])
    assert [h.title for h in iter_headings(markdown)] == ["The glob files"]
    assert len(split_pages(markdown)) == 1
    assert "# a comment inside code stays as it is" in markdown.split("\n")
    assert "\\# This file was automatically generated by the" in markdown.split("\n")  # (every word kept)
