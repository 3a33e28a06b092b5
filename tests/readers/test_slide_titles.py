"""A deck's frame titles set at the text's size in bold, written as sentences ("Our formalization of haplotyping."),
as LaTeX Beamer's themes set them, head their slides (engine.readers.headings.slide_titles); on synthetic lines."""

from __future__ import annotations

from engine.readers.layout import PageLayout
from tests.readers.test_heading_rules import heading_titles, line

TITLES = ["Our formalization of haplotyping.", "How blocks help in perfect phylogeny haplotyping.",
          "Bad news about partitions of haplotype matrices.", "The modified formal problem."]


def _slide(number: int, title: str, width: float = 364, height: float = 272) -> PageLayout:
    # a navigation bar in small type, the frame title in bold at the text's size, then bullets of text
    lines = [line("Introduction   Hardness   Tractability   Summary", 20, 8, size=6.0),
             line(title, 20, 30, size=11.0, bold=True)]
    lines += [line(f"The rows of matrix {k} are individuals and the columns are sites.", 30, 62 + 16 * k,
                   size=11.0, x1=340) for k in range(5)]
    return PageLayout(number, width, height, lines, [])


def test_a_slides_bold_first_line_at_the_texts_size_titles_it_though_it_ends_in_a_stop():
    slides = [_slide(n, title) for n, title in enumerate(TITLES, start=1)]
    assert heading_titles(slides) == TITLES


def test_on_a_reports_portrait_pages_such_a_line_is_no_heading():
    pages = [_slide(n, title, width=595, height=842) for n, title in enumerate(TITLES, start=1)]
    assert heading_titles(pages) == []


def test_a_title_in_a_box_drawn_around_it_heads_its_page_and_a_ruled_tables_cells_do_not():
    from engine.readers.ruled import Grid

    title = [line("On the Complexity of Block Partitioning", 40, 60, size=14.5, bold=True)]
    # a shaded box with its shadow: slivers of cells along two edges, the title in the one real cell
    box = Grid(xs=[28.0, 338.0, 342.0], ys=[43.0, 46.0, 111.0, 115.0])
    page = PageLayout(1, 364, 272, title + [line("Ada Quill and Ben Marsh", 40, 140, size=11.0),
                                            line("Workshop on Rivers, 2006", 40, 160, size=11.0)], [], grids=[box])
    slides = [page] + [_slide(n, t) for n, t in enumerate(TITLES[:2], start=2)]
    assert heading_titles(slides)[0] == "On the Complexity of Block Partitioning"
    # a ruled table of two cells a row: its bold first cell is no heading
    table = Grid(xs=[28.0, 180.0, 338.0], ys=[43.0, 80.0, 115.0])
    cells = [line("Rivers walked", 40, 60, size=11.0, bold=True), line("twelve in all", 190, 60, size=11.0),
             line("Herons seen", 40, 95, size=11.0), line("forty", 190, 95, size=11.0)]
    page = PageLayout(1, 595, 842, [line("A Survey Of Rivers", 72, 200, size=24, bold=True)], [])
    body = PageLayout(2, 595, 842, cells + [line("The survey team walked the river at dawn and counted herons.", 28,
                                                 140 + 12 * k, x1=540) for k in range(8)], [], grids=[table])
    assert "Rivers walked" not in heading_titles([page, body])
