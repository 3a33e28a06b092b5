"""Citation boxes (engine.agent.boxes): the rectangles of a quote on its PDF page, and the eval's check of them."""

from __future__ import annotations

import pymupdf

from engine.agent.boxes import add_boxes, merge_lines, quote_boxes, quote_pieces
from engine.evaluate import BOX_SHARE, box_coverage, box_precision
from engine.schemas import Citation

LINES = ["The survey crew measured the river at fifteen verticals across", "the channel before the storm arrived.",
         "Unrelated words sit on this line far below.", "argumen ts of the functor are structures"]


def page_with_lines(tmp_path):
    path = tmp_path / "page.pdf"
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    for n, line in enumerate(LINES):
        page.insert_text((72, 100 + 16 * n + (200 if n >= 2 else 0)), line, fontsize=11)
    doc.save(path)
    doc.close()
    return path


def test_a_sentence_across_two_lines_gets_a_box_on_each(tmp_path):
    with pymupdf.open(page_with_lines(tmp_path)) as doc:
        page = doc[0]
        quote = "The survey crew measured the river at fifteen verticals across the channel before the storm arrived."
        boxes = quote_boxes(page, quote)
        words = page.get_text("words")
        assert len(boxes) == 2 and all(72 - 1 <= b[0] < b[2] <= 595 and 80 < b[1] < b[3] < 140 for b in boxes)
        assert box_coverage(quote, boxes, words) == 1.0 and box_precision(quote, boxes, words) == 1.0
        assert box_coverage(quote, [], words) == 0.0  # no box encloses nothing


def test_a_text_layer_that_breaks_words_is_still_found(tmp_path):
    with pymupdf.open(page_with_lines(tmp_path)) as doc:
        page = doc[0]
        boxes = quote_boxes(page, "arguments of the functor are structures")  # the page says "argumen ts"
        assert len(boxes) == 1 and boxes[0][1] > 300
        assert box_coverage("arguments of the functor are structures", boxes, page.get_text("words")) >= BOX_SHARE


def test_short_parts_the_page_holds_once_are_boxed_however_far_from_the_rest(tmp_path):
    path = tmp_path / "leads.pdf"
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    intro = "This section may include the following elements of the plan:"
    rows = [(100, intro), (130, "System description."), (300, "Overview of three phases."),
            (480, "Roles and duties."), (700, "Roles and duties.")]  # the last lead twice on the page
    for y, line in rows:
        page.insert_text((72, y), line, fontsize=11)
    doc.save(path)
    doc.close()
    with pymupdf.open(path) as doc:
        quote = f"{intro} … System description. … Overview of three phases. … Roles and duties."
        boxes = quote_boxes(doc[0], quote)
        tops = sorted(round(b[1]) for b in boxes)
        assert any(280 < t < 300 for t in tops)  # found once, 170 pt below the rest: boxed
        assert not any(t > 600 for t in tops)  # found twice and far from every sure part: not boxed


def test_parts_apart_and_table_cells_are_searched_on_their_own():
    assert quote_pieces("First part. … Net income | 40.1 | 4.0") == ["First part.", "Net income", "40.1", "4.0"]
    assert quote_pieces("the ﬁnancial sector") == ["the financial sector"]  # ligatures spelled out as search reads


def test_boxes_of_one_line_merge():
    class R:
        def __init__(self, *v):
            self.x0, self.y0, self.x1, self.y1 = v

    assert merge_lines([R(10, 10, 50, 20), R(51, 10, 90, 20), R(10, 30, 40, 40)]) == [[10, 10, 90, 20], [10, 30, 40, 40]]


def test_add_boxes_opens_each_pdf_once_and_leaves_unknown_documents_alone(tmp_path):
    path = page_with_lines(tmp_path)
    citations = [Citation(doc="page.pdf", page=1, quote="the channel before the storm arrived."),
                 Citation(doc="page.pdf", page=2, quote="a page the PDF does not have"),
                 Citation(doc="other.pdf", page=1, quote="anything")]
    asked = []

    def locate(name):
        asked.append(name)
        return path if name == "page.pdf" else None

    add_boxes(citations, locate)
    assert asked == ["page.pdf", "other.pdf"]
    assert len(citations[0].boxes) == 1 and citations[1].boxes == [] and citations[2].boxes == []


def test_every_offline_citation_carries_boxes_on_its_page(samples_workspace):
    from engine.agent import ask
    from engine.workspace import Workspace

    workspace = Workspace(samples_workspace)
    answer = ask(workspace, "What should a crew do if the water rises or becomes cloudy?")
    assert answer.citations
    for citation in answer.citations:
        record = workspace.find(citation.doc)
        with pymupdf.open(workspace.pdf_path(record)) as doc:
            page = doc[citation.page - 1]
            assert citation.boxes
            assert all(0 <= b[0] < b[2] <= page.rect.width and 0 <= b[1] < b[3] <= page.rect.height
                       for b in citation.boxes)
            assert box_coverage(citation.quote, citation.boxes, page.get_text("words")) >= BOX_SHARE


def test_text_pages_are_read_once_across_answers_and_the_oldest_go_first(tmp_path):
    from engine.agent.boxes import TextPages

    path = page_with_lines(tmp_path)
    pages = TextPages(size=1)
    first = [Citation(doc="page.pdf", page=1, quote="the channel before the storm arrived.")]
    add_boxes(first, lambda name: path, pages)
    kept = pages.get(path, 1)
    again = [Citation(doc="page.pdf", page=1, quote="the channel before the storm arrived.")]
    add_boxes(again, lambda name: path, pages)
    assert pages.get(path, 1) is kept  # the page and its text read once, for both answers
    assert again[0].boxes == first[0].boxes and len(first[0].boxes) == 1
    assert pages.get(path, 2) is None  # a page the PDF does not have
    (tmp_path / "other").mkdir()
    other = page_with_lines(tmp_path / "other")
    assert pages.get(other, 1) is not None and pages.get(path, 1) is not kept  # size 1: the first page went
    pages.close()


def test_a_header_cell_the_page_repeats_is_boxed_on_the_header_row(tmp_path):
    # a quoted table row comes with its header; a header cell's word ("Plan") stands elsewhere near the table too:
    # only the one on the line of the header's other cells is the quote's
    path = tmp_path / "table.pdf"
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 80), "Each plan below has a purpose and a scope.", fontsize=10)
    for x, cell in ((72, "Plan"), (200, "Purpose"), (380, "Scope")):
        page.insert_text((x, 110), cell, fontsize=10)
    for x, cell in ((72, "Continuity plan"), (200, "Sustains functions for 30 days."), (380, "A facility.")):
        page.insert_text((x, 130), cell, fontsize=10)
    page.insert_text((72, 160), "The crisis plan and the recovery plan follow the same layout.", fontsize=10)
    doc.save(path)
    doc.close()
    with pymupdf.open(path) as doc:
        boxes = quote_boxes(doc[0], "Plan | Purpose | Scope … Continuity plan | Sustains functions for 30 days. | "
                                    "A facility.")
        tops = sorted(round(b[1]) for b in boxes)
        assert tops and all(95 < t < 125 for t in tops), boxes  # the header row and the quoted row only
