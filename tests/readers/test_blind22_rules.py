"""Rules found on blind set 22 (margin line numbers the document's other pages tell, a line number's fragment
glued to a heading, run-in numbered heads in sentence case, typewriter faces told by their widths, two columns of
prose an em apart, prose naming functions in bold code, the triangular bullet, white fills that edge no table),
each on synthetic lines or a small built PDF."""

from __future__ import annotations

import pymupdf

from engine.readers.headings import BULLET_LEAD_RE, _classify
from engine.readers.layout import PageLayout, _merge_baseline, fixed_pitch_fonts, prose_gutter, read_layout
from engine.readers.ruled import rulings
from engine.readers.run_in import split_run_in
from tests.readers.test_heading_rules import BODY, heading_titles, line


def _numbered(number: int, top: float, count: int, texts: dict[int, str] | None = None) -> list:
    """A draft's lines numbered in the left margin (right-aligned at x 42), `count` of them from `number` down the
    page; the numbers whose line `texts` gives are read into that line (one line: "23 1.2 Usage"), the others
    stand alone beside their line of text."""
    lines = []
    for k in range(count):
        n, base = number + k, top + 14 * k
        text = (texts or {}).get(n)
        x0 = 42 - 6 * len(str(n))
        if text is not None:
            lines.append(line(f"{n} {text}", x0, base, size=12, bold=True, x1=300))
        else:
            lines.append(line(str(n), x0, base, size=10, x1=42))
            lines.append(line(BODY, 57, base, size=12, x1=540))
    return lines


def test_a_short_pages_glued_line_numbers_go_by_the_column_the_documents_other_pages_show():
    pages = [PageLayout(1, 595, 842, _numbered(1, 100, 30, {5: "1.1 Purpose of the system"}), []),
             PageLayout(2, 595, 842, _numbered(31, 100, 30, {40: "1.2 Usage environments"}), []),
             # a page holding a heading and one line, both with their numbers read into them: too few bare
             # numbers to show the column on the page itself
             PageLayout(3, 595, 842, _numbered(61, 100, 2, {61: "2.5 Gating rules", 62: "TO BE WRITTEN"}), [])]
    titles = heading_titles(pages)
    assert "2.5 Gating rules" in titles
    assert not any(t.startswith(("61 ", "5 ", "40 ")) for t in titles)


def test_a_line_numbers_fragment_on_a_headings_baseline_leaves_the_heading_bold_in_its_face():
    number = line("222", 24.7, 110, size=10, face="Mono", x1=42.7)
    title = line("2.6 Digipeater Rules", 56.8, 110, size=14, bold=True, face="Sans-Bold", x1=196)
    merged = _merge_baseline([number, title])
    assert len(merged) == 1 and merged[0].text == "222 2.6 Digipeater Rules"
    assert merged[0].bold and merged[0].face == "Sans-Bold" and merged[0].rest_x0 == 56.8


def test_a_numbered_run_in_heading_in_sentence_case_is_closed_by_the_sentence_its_text_opens():
    head = "5.4.1.1 Noms complexes à particule "
    lines = [line("5.4.1 Usages particuliers de champs", 127, 100, size=11, bold=True),  # its parent, right above
             line(head + "Pour rappel, les champs relatifs à des noms", 127, 117, size=11, x1=524,
                  lead=len(head), lead_style=(True, False, False)),
             line("d'auteur, tels que le champ author, peuvent contenir une liste", 127, 131, size=11, x1=524)]
    split = split_run_in(lines, 11.0)
    assert [l.text for l in split if l.run_in] == ["5.4.1.1 Noms complexes à particule"]
    # a heading whose last word is set in another face is one heading, no run-in head over a sentence
    lines[1] = line("7.1.1 The class TrickHLAPacking", 127, 117, size=11, x1=330, lead=len("7.1.1 The class "),
                    lead_style=(True, False, False))
    assert not any(l.run_in for l in split_run_in(lines, 11.0))
    # nor is a bold heading that wraps, its last words on the line in another face
    lines[1] = line("17.1.2 Subclassing TrickHLAConditional in the SIM sine conditional cyclic ex-", 127, 117, size=11,
                    x1=524, lead=len("17.1.2 Subclassing TrickHLAConditional in the "), lead_style=(True, False, False))
    lines[2] = line("ample", 150, 131, size=11, bold=True)
    assert not any(l.run_in for l in split_run_in(lines, 11.0))
    lines[2] = line("d'auteur, tels que le champ author, peuvent contenir une liste", 127, 131, size=11, x1=524)
    # a sentence that runs on in lower case after a bold number is no heading
    lines[1] = line(head + "pour rappel", 127, 117, size=11, x1=524, lead=len(head), lead_style=(True, False, False))
    assert not any(l.run_in for l in split_run_in(lines, 11.0))


def _pdf_in(font: str, widths: list[int]) -> pymupdf.Document:
    """A one-page PDF whose line of code is set in a simple font of these /Widths (codes 32 to 126)."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    xref = doc.get_new_xref()
    doc.update_object(xref, f"<< /Type /Font /Subtype /Type1 /BaseFont /{font} /FirstChar 32 /LastChar 126 "
                            f"/Widths [{' '.join(str(w) for w in widths)}] /Encoding /WinAnsiEncoding >>")
    stream = doc.get_new_xref()
    doc.update_object(stream, "<< >>")
    doc.update_stream(stream, b"BT /F9 10 Tf 20 100 Td (if \\(nest in branch\\) deadflag = 2;) Tj ET")
    doc.xref_set_key(page.xref, "Contents", f"{stream} 0 R")
    doc.xref_set_key(page.xref, "Resources", f"<< /Font << /F9 {xref} 0 R >> >>")
    return doc


def test_a_face_whose_glyphs_all_take_one_width_is_monospaced_whatever_its_name():
    fixed = _pdf_in("LetterGothic", [600] * 95)
    assert fixed_pitch_fonts(fixed[0]) == {"LetterGothic"}
    assert all(l.mono for l in read_layout(fixed[0], 1).lines)
    proportional = _pdf_in("Baskerville", [250 + (k * 37) % 400 for k in range(95)])
    assert not fixed_pitch_fonts(proportional[0])
    assert not any(l.mono for l in read_layout(proportional[0], 1).lines)


def test_two_columns_of_prose_an_em_apart_have_a_gutter_the_merge_of_a_rows_lines_must_not_cross():
    left = [line("a glossary entry runs on over its column", 39, 60 + 12 * k, x1=204) for k in range(20)]
    right = [line("and the next column starts an em further", 215, 60 + 12 * k, x1=380) for k in range(20)]
    gutter = prose_gutter(left + right, 430)
    assert gutter is not None and 204 <= gutter <= 215
    # a chapter's opening set across the page above the columns is no matter
    opening = [line(BODY, 39, 30, x1=380)]
    assert prose_gutter(opening + left + right, 430) is not None
    # columns further apart than a row's lines merge are the XY-cut's to part
    wide = [line("and the next column starts further over", 226, 60 + 12 * k, x1=390) for k in range(20)]
    assert prose_gutter(left + wide, 430) is None
    # one column of prose; a table's short cells on the same rows
    assert prose_gutter([line(BODY, 39, 60 + 12 * k, x1=380) for k in range(40)], 430) is None
    cells = [line(f"{k}", x, 60 + 12 * k, x1=x + 20) for k in range(20) for x in (40, 120, 215, 300)]
    assert prose_gutter(cells, 430) is None


def test_prose_that_names_functions_in_bold_code_is_no_heading():
    code = "fooEnableProfiling"
    # the sentence the page before ended goes on atop this one, naming two functions in bold code
    lines = [line(f"{code} and fooDisableProfiling. Refer to", 72, 70, size=10.5, bold=True, x1=480,
                  face="Courier-Bold", lead=len(code), lead_style=(True, False, True)),
             line("the sample autorange_profiling for the details of each step.", 72, 86, size=11, x1=420)]
    assert _classify(lines, 0, 11.0, 72, False, "Times", {}) is None
    # a function's name alone in bold code, or before a note in brackets, may head its section
    lines[0] = line(f"{code} (deprecated)", 72, 70, size=10.5, bold=True, x1=300, face="Courier-Bold",
                    lead=len(code), lead_style=(True, False, True))
    assert _classify(lines, 0, 11.0, 72, False, "Times", {}) is not None


def test_the_triangular_bullet_leads_a_list_item():
    assert BULLET_LEAD_RE.match("‣ Call NVPW_MetricsEvaluator_GetMetricNames for")


def test_a_white_fill_on_the_white_page_edges_no_table_but_a_shaded_one_does():
    def drawing(fill, x0=100.0, y0=100.0):
        return {"items": [("re", (x0, y0, x0 + 200, y0 + 100), 1)], "type": "f", "fill": fill}
    assert rulings([drawing((1.0, 1.0, 1.0))], 595, 842) == ([], [])  # a figure's white background
    horizontal, vertical = rulings([drawing((0.87, 0.87, 0.87))], 595, 842)
    assert len(horizontal) == 2 and len(vertical) == 2
    # a word processor's table fills each of its cells white: those cells still tell the table's rulings
    cells = [drawing((1.0, 1.0, 1.0), 50 + 200 * col, 100 + 100 * row) for row in range(3) for col in range(2)]
    horizontal, vertical = rulings(cells, 595, 842)
    assert len(horizontal) == 4 and len(vertical) == 3
