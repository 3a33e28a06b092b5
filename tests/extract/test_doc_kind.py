"""Report or deck (engine.extract.kind): landscape pages whose text runs on from page to page, under an outline
deeper than presentation software writes, or with a printed contents page, are a report, with the structure from its outline; slides stay a deck
whatever bookmarks they carry (one per slide, as PowerPoint exports them, or one per section, as Beamer does).
Small PDFs made here."""

from __future__ import annotations

import json
from pathlib import Path

import pymupdf
import pytest

from engine.cli import main
from engine.extract.kind import MAX_DECK_LEVELS, MIN_RUNS_ON, document_kind, runs_on_from_markdown
from engine.markdown import join_pages
from engine.pipeline import Pipeline
from engine.readers.blocks import mark_continued
from engine.schemas import Block, BlockStyle, DocumentRecord, PageBlocks, PageInfo, Status
from engine.structure import tree_pages
from engine.workspace import Workspace
from tests.conftest import png_bytes

WORDS = ("the survey of each river reach recorded flow depth and sediment while the field teams compared their "
         "readings with the long term station records and noted where the channel had moved since the last "
         "visit").split()
SECTIONS = [(1, "Overview"), (2, "Scope of the survey"), (2, "Stations and reaches"), (1, "Methods"),
            (2, "Sampling"), (3, "Sediment cores"), (1, "Results"), (2, "Flow and depth")]


def _prose(count: int, start: int) -> list[str]:
    """Lines of running text, twelve words each, a sentence ending every 23 words: page breaks fall inside
    sentences."""
    out, n = [], start
    for _ in range(count):
        words = []
        for _ in range(12):
            word = WORDS[n % len(WORDS)]
            n += 1
            words.append(f"{word}." if n % 23 == 0 else word)
        out.append(" ".join(words))
    return out


def landscape_report(path: Path) -> Path:
    """Eight landscape pages of two-column prose under a logo and a running head; a section heading (bold) in
    the middle of each page's first column; an outline of the headings, three levels deep."""
    doc, start, toc = pymupdf.open(), 0, []
    logo = png_bytes(300, 100)
    for number in range(1, 9):
        page = doc.new_page(width=792, height=612)
        page.insert_image(pymupdf.Rect(24, 20, 175, 70), stream=logo)
        page.insert_text((190, 45), "River Survey Guideline", fontsize=16, fontname="hebo")
        level, title = SECTIONS[number - 1]
        for column, x in enumerate((36, 416)):
            y = 110.0
            for k, line in enumerate(_prose(35, start)):
                if column == 0 and k == 15:
                    y += 10
                    page.insert_text((x, y), title, fontsize=13, fontname="hebo")
                    toc.append([level, title, number])
                    y += 22
                if y > 560:
                    break
                page.insert_text((x, y), line, fontsize=10, fontname="helv")
                start += 12
                y += 13
        page.insert_text((700, 590), f"Page {number}", fontsize=8, fontname="helv")
    doc.set_toc(toc)
    return _save(doc, path)


def slides(path: Path, *, width: float = 960, height: float = 540, outline: str = "slides") -> Path:
    """Eight slides, a title and four bullets each; bookmarks one per slide ("slides") or one per section,
    two levels deep ("sections")."""
    doc, toc = pymupdf.open(), []
    for number in range(1, 9):
        page = doc.new_page(width=width, height=height)
        scale = height / 540
        title = f"Station results for reach {number}"
        page.insert_text((40 * scale, 70 * scale), title, fontsize=28 * scale, fontname="hebo")
        for k in range(4):
            text = f"• {' '.join(WORDS[(number * 7 + k * 5) % 40:(number * 7 + k * 5) % 40 + 6])}"
            page.insert_text((60 * scale, (140 + 60 * k) * scale), text, fontsize=18 * scale, fontname="helv")
        if outline == "slides":
            toc.append([1, title, number])
        elif number in (1, 5):
            toc += [[1, f"Part {1 if number == 1 else 2}", number], [2, title, number]]
    doc.set_toc(toc)
    return _save(doc, path)


DEEP = [(1, "Our Report"), (2, "Climate"), (3, "Carbon"), (4, "Goals"), (4, "Progress"), (3, "Water"), (2, "People"),
        (3, "Safety")]


def laid_out_report(path: Path) -> Path:
    """Eight landscape pages laid out one by one (each page's sentences end on it, as in a designed report), a
    heading atop each; an outline of the headings four levels deep, deeper than presentation software writes."""
    doc = pymupdf.open()
    for number, (_, title) in enumerate(DEEP, start=1):
        page = doc.new_page(width=792, height=612)
        page.insert_text((40, 70), title, fontsize=24, fontname="hebo")
        for k in range(6):
            sentence = " ".join(WORDS[(number * 5 + k * 7) % 30:(number * 5 + k * 7) % 30 + 9]) + "."
            page.insert_text((40, 130 + 40 * k), sentence.capitalize(), fontsize=12, fontname="helv")
    doc.set_toc([[level, title, number] for number, (level, title) in enumerate(DEEP, start=1)])
    return _save(doc, path)


def contents_report(path: Path) -> Path:
    """Eight landscape pages laid out one by one, no outline: a title page, a printed contents page (titles, leader
    dots, page numbers, as a word processor sets them), then a section a page."""
    doc = pymupdf.open()
    titles = [title for _, title in DEEP[2:]]
    page = doc.new_page(width=842, height=595)
    page.insert_text((60, 200), "Solar Park Impact Study", fontsize=30, fontname="hebo")
    page = doc.new_page(width=842, height=595)
    page.insert_text((60, 80), "Contents", fontsize=20, fontname="hebo")
    for k, title in enumerate(titles):
        page.insert_text((60, 130 + 24 * k), f"{k + 1} {title} {'.' * 60} {k + 3}", fontsize=12, fontname="helv")
    for k, title in enumerate(titles):
        page = doc.new_page(width=842, height=595)
        page.insert_text((60, 80), f"{k + 1} {title}", fontsize=20, fontname="hebo")
        for n in range(5):
            sentence = " ".join(WORDS[(k * 5 + n * 7) % 30:(k * 5 + n * 7) % 30 + 9]) + "."
            page.insert_text((60, 140 + 30 * n), sentence.capitalize(), fontsize=12, fontname="helv")
    return _save(doc, path)


def _save(doc: pymupdf.Document, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(path)
    doc.close()
    return path


def ingest(data_dir: Path, pdf: Path) -> DocumentRecord:
    [result] = Pipeline(data_dir, workers=1).ingest([pdf])
    assert result.status is Status.OK, result
    return Workspace(data_dir).load(result.doc_id)


def show_structure(data_dir: Path, name: str, capsys: pytest.CaptureFixture[str]) -> dict:
    capsys.readouterr()
    assert main(["--data-dir", str(data_dir), "show", name, "--what", "structure", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_landscape_pages_of_running_text_are_a_report_with_the_outline_as_its_structure(tmp_path, capsys):
    data_dir = tmp_path / "ws"
    record = ingest(data_dir, landscape_report(tmp_path / "in" / "guideline.pdf"))
    assert record.format == "landscape"
    # the reader saw the sentences run on past the logo atop the next page
    assert sum(p.runs_on for p in record.page_info) >= MIN_RUNS_ON
    assert record.kind == "report"
    assert show_structure(data_dir, "guideline.pdf", capsys)["kind"] == "report"
    heads = [(n.title, n.level, n.start_page, n.source) for n in record.tree.root.walk() if n.kind == "heading"]
    levels = [level for level, _ in SECTIONS]
    assert [(t, p, s) for t, _, p, s in heads] == [(t, n, "outline") for n, (_, t) in enumerate(SECTIONS, 1)]
    assert [lvl - min(lvl for _, lvl, _, _ in heads) for _, lvl, _, _ in heads] == [lvl - 1 for lvl in levels]
    assert tree_pages(record.tree) == set(range(1, 9))
    assert record.landscape_pages == ""
    assert record.metadata.document_type != "presentation"


@pytest.mark.parametrize(("size", "outline"), [((960, 540), "slides"), ((363, 272), "sections")])
def test_slides_stay_a_deck_whatever_their_bookmarks(tmp_path, capsys, size, outline):
    data_dir = tmp_path / "ws"
    record = ingest(data_dir, slides(tmp_path / "in" / "deck.pdf", width=size[0], height=size[1], outline=outline))
    assert not any(p.runs_on for p in record.page_info)
    assert record.kind == "deck"
    assert show_structure(data_dir, "deck.pdf", capsys)["kind"] == "deck"
    assert record.landscape_pages.splitlines()[0] == "Page 1 : Station results for reach 1"
    assert {n.start_page for n in record.tree.root.walk() if n.kind == "page"} == set(range(1, 9))
    assert record.metadata.document_type == "presentation"


def test_a_decks_outline_gives_its_tree_sections_and_subsections(tmp_path):
    """The deck's bookmarks (one part a section, its first slide's title a subsection under it) are its tree's
    sections, each slide under the subsection that holds it, as the document says of itself; not the slides'
    titles grouped by their stem."""
    record = ingest(tmp_path / "ws", slides(tmp_path / "in" / "deck.pdf", outline="sections"))
    assert record.kind == "deck"
    sections = [(n.title, n.level, n.start_page, n.end_page, n.source) for n in record.tree.root.walk()
                if n.kind == "section"]
    assert sections == [("Part 1", 1, 1, 4, "outline"), ("Station results for reach 1", 2, 1, 4, "outline"),
                        ("Part 2", 1, 5, 8, "outline"), ("Station results for reach 5", 2, 5, 8, "outline")]
    under = [n for n in record.tree.root.walk() if n.title == "Station results for reach 5" and n.kind == "section"]
    assert [c.start_page for c in under[0].children] == [5, 6, 7, 8] and record.tree.root.source == "outline"
    assert record.created_toc.splitlines()[:2] == ["# Part 1 [page 1]", "## Station results for reach 1 [page 1]"]


def test_landscape_pages_under_an_outline_deeper_than_a_decks_are_a_report(tmp_path, capsys):
    data_dir = tmp_path / "ws"
    record = ingest(data_dir, laid_out_report(tmp_path / "in" / "designed.pdf"))
    assert record.format == "landscape" and not any(p.runs_on for p in record.page_info)
    assert record.kind == "report"
    assert show_structure(data_dir, "designed.pdf", capsys)["kind"] == "report"
    heads = [(n.title, n.start_page, n.source) for n in record.tree.root.walk() if n.kind == "heading"]
    assert [t for t, _, _ in heads if t != "Our Report"] == [t for _, t in DEEP[1:]]
    assert all(source == "outline" for _, _, source in heads)
    assert tree_pages(record.tree) == set(range(1, 9))


def test_landscape_pages_with_a_printed_contents_page_are_a_report(tmp_path, capsys):
    data_dir = tmp_path / "ws"
    record = ingest(data_dir, contents_report(tmp_path / "in" / "study.pdf"))
    assert record.format == "landscape" and not any(p.runs_on for p in record.page_info) and not record.pdf.outline
    assert record.kind == "report"
    assert show_structure(data_dir, "study.pdf", capsys)["kind"] == "report"


def _pages(*runs_on: bool, chars: int = 500) -> list[PageInfo]:
    return [PageInfo(page=n, chars=chars, runs_on=r) for n, r in enumerate(runs_on, start=1)]


def test_the_kind_rule():
    assert document_kind("portrait", _pages(False, False)) == "report"
    assert document_kind("landscape", _pages(False, False, False)) == "deck"
    assert document_kind(None, []) == "report"
    # a sentence that runs on at the odd page break is chance; on a tenth of them or more (and three), a text
    two = _pages(*([True] * (MIN_RUNS_ON - 1) + [False] * 3))
    assert document_kind("landscape", two) == "deck"
    assert document_kind("landscape", _pages(*([True] * MIN_RUNS_ON + [False] * 20))) == "report"
    assert document_kind("landscape", _pages(*([True] * MIN_RUNS_ON + [False] * 40))) == "deck"
    # pages without text (scans, blank pages) are no page breaks of the text
    blank = [PageInfo(page=n, chars=0, runs_on=False) for n in range(1, 60)]
    assert document_kind("landscape", _pages(*([True] * MIN_RUNS_ON + [False] * 3)) + blank) == "report"
    # an outline deeper than presentation software writes is a report's, however the pages read
    assert document_kind("landscape", _pages(False, False, False), outline_levels=MAX_DECK_LEVELS + 1) == "report"
    assert document_kind("landscape", _pages(False, False, False), outline_levels=MAX_DECK_LEVELS) == "deck"
    # so is a printed contents page (a deck's agenda slide lists no page numbers)
    assert document_kind("landscape", _pages(False, False, False), contents_page=True) == "report"


def test_runs_on_read_from_markdown_alone():
    markdown = join_pages([
        "# Overview\n\nThe survey recorded flow and depth at every",
        "[IMAGE: logo]\n\nstation of the reach. It ended.",
        "Results were compared.\n\n| a | b |",
        "_(blank page)_",
    ])
    assert runs_on_from_markdown(markdown) == [True, False, False, False]


def _page(number: int, *blocks: Block) -> PageBlocks:
    return PageBlocks(page=number, width=612, height=792, blocks=list(blocks))


def test_a_sentence_runs_on_past_a_logo_but_not_past_a_figure_and_its_caption():
    style = BlockStyle(size=10)

    def para(text: str) -> Block:
        return Block(kind="paragraph", text=text, bbox=(72, 100, 540, 400), style=style)

    def figure(y: float) -> Block:
        return Block(kind="figure", text="", bbox=(72, y, 200, y + 50), image="img")

    logo = [_page(n, figure(20), para("the survey of the reach went on through the")) for n in range(1, 5)]
    mark_continued(logo)
    assert [p.blocks[-1].continues for p in logo] == [True, True, True, False]
    once = [_page(1, para("Click once with the left button to set the first point,")),
            _page(2, figure(300), para("Figure 9.4: the shortcut for the angle measure")),
            _page(3, para("The measure is shown on the image.")), _page(4, para("It can be saved."))]
    mark_continued(once)
    assert not once[0].blocks[-1].continues
