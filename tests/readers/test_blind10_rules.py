"""Heading rules found on blind set 10 (Word instructions and record layouts in Spanish, a Word policy briefing, a
two-column conference paper, a Chinese thesis), each on synthetic lines: a paper's title over its authors and a
teaser figure set under them."""

from __future__ import annotations

from engine.markdown import iter_headings, render_block
from engine.readers.layout import PageLayout
from engine.readers.offline import compose
from engine.schemas.blocks import Block
from tests.readers.test_heading_rules import BODY, headings, line, prose


def test_a_papers_title_over_its_authors_and_a_teaser_figure_is_the_title_not_a_label_of_the_figure():
    # the title block (title, centred author names and affiliations) stands right above a figure and its caption:
    # walking up from the caption over short lines set apart from the left edge took the title for a label drawn
    # inside the figure, and the first section heading became the document's top heading over all the others
    first = [line("The Name of the Title of the Paper", 180, 80, size=18, bold=True),
             line("Ann Author", 110, 110, size=12), line("First Institute", 100, 124),
             line("Bea Writer", 270, 110, size=12), line("Second Institute", 260, 124),
             line("Figure 1: A picture under the title block.", 200, 300, size=9, bold=True),
             line("ABSTRACT", 54, 330, size=11, bold=True), *prose(345, 6, x0=54)]
    pages = [PageLayout(1, 612, 792, first, [])]
    for n in range(2, 6):
        pages.append(PageLayout(n, 612, 792, [line(f"{n} SECTION NUMBER {n}", 54, 80, size=11, bold=True),
                                              *prose(95, 20, x0=54)], []))
    found = dict(headings(compose(pages)))
    assert found.get("The Name of the Title of the Paper") == 1
    assert found["ABSTRACT"] == found["2 SECTION NUMBER 2"] == 2


FIELDS = ["TAX NUMBER", "NAME OR COMPANY", "KIND OF LINK", "PROVINCE CODE", "AMOUNT PAID", "DATE OF PAYMENT",
          "METHOD USED", "COUNTRY CODE", "BALANCE DUE", "ZONE OF WORK", "PERIOD COVERED", "EXERCISE YEAR",
          "GROSS WEIGHT", "LIMIT SET", "VALUE ADDED", "CLASS OF GOODS"]


def _form_instructions(heading_face):
    # a word processor's instructions for a form: four or five fields to a page, each headed by its name in
    # capitals (13 pt, the heading style's own face) over the sentences that say how to fill it in (12 pt text)
    pages = []
    for n in range(1, 5):
        lines, top = [], 80
        for k in range(4):
            lines.append(line(FIELDS[4 * (n - 1) + k], 85, top, size=13, face=heading_face))
            lines += [line(BODY, 85, top + 30 + 14 * j, x1=540, size=12) for j in range(3)]
            top += 90
        pages.append(PageLayout(n, 612, 792, lines, []))
    return pages


def test_a_word_processors_field_headings_over_their_instructions_are_headings_not_a_list_of_labels():
    found = dict(headings(compose(_form_instructions("Cambria"))))
    assert all(field in found for field in FIELDS), found


def test_labels_in_the_texts_own_face_four_to_a_page_stay_a_list():
    found = dict(headings(compose(_form_instructions("Times"))))
    assert not any(field in found for field in FIELDS), found


def test_a_one_word_heading_in_capitals_in_the_heading_styles_face_and_larger_is_a_heading():
    # "F/J/OTRA", one word in capitals set a point larger than the text in the heading style's own face, over
    # its instructions, beside headings of several words in the same style: no diagram's tag
    pages = _form_instructions("Cambria")
    pages[1].lines[4] = line("CATEGORY", 85, 170, size=13, face="Cambria")
    found = dict(headings(compose(pages)))
    assert "CATEGORY" in found and found["CATEGORY"] == found["AMOUNT PAID"]


def test_a_one_word_tag_in_capitals_at_the_texts_size_and_face_stays_text():
    pages = _form_instructions("Cambria")
    pages[1].lines[4] = line("CATEGORY", 85, 170, size=12)
    assert "CATEGORY" not in dict(headings(compose(pages)))


def _record_layout(with_cells):
    # a record layout's table: position and type cells to the left of each field's name (bold, in capitals, the
    # text's size), its description under it; the pages' sections are headed larger
    pages = []
    names = ["RECORD TYPE", "FORM MODEL", "TAX NUMBER", "FISCAL YEAR", "PHONE CONTACT", "DECLARATION NUMBER",
             "ZIP AREA", "BRANCH OFFICE", "MAIN ACTIVITY", "LAST CHANGE", "TOTAL AMOUNT", "REGISTER KIND"]
    for n in range(1, 5):
        lines, top = [line(f"Record section number {n}", 72, 70, size=14, bold=True), *prose(90, 3)], 150
        for k in range(3):
            if with_cells:
                lines += [line(f"{10 * k + 1}-{10 * k + 9}", 100, top, x1=125), line("Numeric", 177, top, x1=226)]
            lines += [line(names[3 * (n - 1) + k], 262, top, bold=True, x1=370),
                      line("The value the record holds in this position of the line.", 262, top + 25, x1=540)]
            top += 60
        pages.append(PageLayout(n, 612, 792, lines, []))
    return pages


def test_a_bold_field_name_with_cells_to_its_left_on_its_row_is_a_table_cell_not_a_heading():
    found = dict(headings(compose(_record_layout(True))))
    assert "Record section number 2" in found
    assert not any(t in found for t in ("RECORD TYPE", "TAX NUMBER", "MAIN ACTIVITY")), found


ZH_BODY = "研究生学位论文撰写，除表达形式上需要符合一定的格式要求外，内容方面上也要遵循一些共性原则和规范。"


def _zh_thesis():
    # a Chinese thesis: the abstract's title letter-spaced ("摘 要"), each chapter's label set on its title's row
    # apart from it ("第1 章" | "研究方法"), sections at 14 pt, the text at 12 pt
    def text(top, n=6):
        return [line(ZH_BODY, 85, top + 20 * k, x1=510, size=12, face="SimSun") for k in range(n)]
    pages = [PageLayout(1, 595, 842, [line("摘 要", 280, 110, size=16, face="SimHei"), *text(150, 20)], [])]
    for n, title in enumerate(["研究方法", "实验结果", "讨论"], start=1):
        pages.append(PageLayout(n + 1, 595, 842, [
            line(f"第{n} 章", 190, 110, size=16, face="SimHei", x1=240),
            line(title, 258, 110, size=16, face="SimHei", x1=258 + 16 * len(title)),
            *text(150), line(f"{n}.1", 85, 300, size=14, face="Arial", x1=104),
            line("小节标题", 118, 300, size=14, face="SimHei", x1=190), *text(330, 10)], []))
    return pages


def test_a_chinese_heading_set_letter_spaced_is_one_word():
    found = dict(headings(compose(_zh_thesis())))
    assert "摘要" in found, found


def test_a_chinese_chapters_label_on_its_titles_row_is_one_heading_with_it():
    found = dict(headings(compose(_zh_thesis())))
    assert "第1 章 研究方法" in found and "第3 章 讨论" in found, found
    assert "第1 章" not in found and "研究方法" not in found


def test_a_table_row_alone_on_its_line_that_starts_like_a_heading_opens_no_heading():
    # a chart's legend read as one row of cells, its series named "# Member States increasing ...": rendered as
    # one line, it became a top-level heading of the Markdown (and the document's title went to a second one)
    md = render_block(Block(kind="table", text="# States increasing the rate | # States decreasing the rate"))
    assert md.startswith("\\#") and not iter_headings(md)
    assert "States increasing the rate" in md


def test_an_accent_set_as_a_glyph_before_its_letter_is_put_back_on_it():
    # TeX's OT1 fonts set an umlaut or an accent as a glyph of its own before its letter: "3.3.1 Ger¨at" matched
    # no outline title "Gerät", and "hinzuf¨ugen" was no word of the text
    from engine.readers.accents import compose_accents
    assert compose_accents("3.3.1 Ger¨at") == "3.3.1 Gerät"
    assert compose_accents("Sprachen hinzuf¨ugen, L¨oschen, na¨ıve, Fran¸cais, Caf´e") == \
        "Sprachen hinzufügen, Löschen, naïve, Français, Café"
    # an acute or grave accent standing for a quote or an apostrophe, or before no letter, stays
    assert compose_accents("ˆetre, bˆete, Pe˜na") == "être, bête, Peña"
    for text in ("it´s", "don´t", "`quoted'", "1¨2", "a ¨ b", "ˆci-debian-.*$"):
        assert compose_accents(text) == text


def test_a_heading_justified_over_two_lines_keeps_its_first_lines_words_together():
    # a Word heading set justified over two lines: its first line's words stand far apart, evenly, each a fragment
    # of its own, in a block with no line of running text; they were read as a table's row of five cells
    from engine.readers.layout import Line, _join_stretched

    def frag(text, x0, y1, block=11):
        return Line(text=text, x0=x0, y0=y1 - 14, x1=x0 + 7.0 * len(text), y1=y1, size=14.0, bold=True,
                    italic=False, block=block, base=y1 - 3)

    words, x, row = ["DECLARATION", "ABOUT", "THE", "TAX", "PERIOD"], 85.0, []
    for word in words:  # 22 points between words (over 1.2 ems, under 2.5)
        row.append(frag(word, x, 545))
        x += 7.0 * len(word) + 22
    second = frag("RUNNING FROM THE ... TO THE ...", 85, 561)
    joined = _join_stretched(row + [second])
    assert [l.text for l in joined] == ["DECLARATION ABOUT THE TAX PERIOD", second.text]
    # without a line under it from its left edge (a table's header row in a block of its own) the words stay apart
    assert len(_join_stretched([frag(w.text, w.x0, 545, block=12) for w in row])) == 5


def test_a_sections_number_in_a_latin_face_left_of_its_chinese_title_joins_it_though_sorted_after_it():
    # "A.1.1" (Arial) and its title "图" (SimHei) share a baseline, but the Chinese face's box reaches lower, so the
    # baseline sort put the title first and the number stood apart (a table's row "A.1.1 | 图", or a stray line)
    from engine.readers.layout import Line, _join_pieces

    def piece(text, x0, x1, y0, y1, face="SimHei"):
        return Line(text=text, x0=x0, y0=y0, x1=x1, y1=y1, size=13.0, bold=False, italic=False, block=0,
                    base=y0 + 10, face=face)

    title, number = piece("图", 128.4, 141.4, 262.7, 276.0), piece("A.1.1", 85.0, 115.4, 263.8, 277.2, "ArialMT")
    assert [l.text for l in _join_pieces([title, number])] == ["A.1.1 图"]
    # a table's cells in one face ("2" left of "Boston") stay apart
    cell, count = piece("Boston", 128.4, 160.0, 262.7, 276.0, "Arial"), piece("2", 110.0, 115.4, 263.8, 277.2, "Arial")
    assert [l.text for l in _join_pieces([cell, count])] == ["Boston", "2"]
    # a word left of another piece is no number: it stays a line of its own
    word, other = piece("图", 128.4, 141.4, 262.7, 276.0), piece("Figure", 85.0, 115.4, 263.8, 277.2)
    assert [l.text for l in _join_pieces([word, other])] == ["图", "Figure"]
