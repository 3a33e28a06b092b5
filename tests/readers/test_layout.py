"""Layout lines: fragments on one baseline merge; overlapping glyph runs are one word."""

from __future__ import annotations

from engine.readers.layout import Line, _merge_baseline


def _line(text: str, x0: float, x1: float, y1: float = 100.0, size: float = 10.0) -> Line:
    return Line(text=text, x0=x0, y0=y1 - size, x1=x1, y1=y1, size=size, bold=False, italic=False, block=0)


def test_overlapping_runs_join_without_a_space():
    # TeX fonts kerned into separate runs: "argumen" and "ts," overlap by 0.4 pt
    merged = _merge_baseline([_line("argumen", 205.8, 250.1), _line("ts,", 249.7, 262.1),
                              _line("nor", 267.0, 283.9)])
    assert [l.text for l in merged] == ["arguments, nor"]


def test_runs_with_a_gap_keep_their_space():
    merged = _merge_baseline([_line("1.", 50.0, 58.0), _line("Introduction", 62.0, 120.0)])
    assert [l.text for l in merged] == ["1. Introduction"]




def test_a_listings_continuation_mark_in_another_font_leaves_its_code_line_monospaced():
    # a wrapped listing line opens with "↪" set in a math font; a word of prose in another font still counts
    mark, code = _line("↪", 98.1, 104.1), _line("KeyedHashFunction, key: Key) {", 115.8, 404.5)
    code.mono = True
    assert [(l.text, l.mono) for l in _merge_baseline([mark, code])] == [("↪ KeyedHashFunction, key: Key) {", True)]
    word, code = _line("see", 60.0, 80.0), _line("fn main() {", 84.0, 150.0)
    code.mono = True
    assert [l.mono for l in _merge_baseline([word, code])] == [False]


def test_numbers_a_columns_gap_apart_stay_apart_but_a_notes_number_joins_its_text():
    # a budget's row: three amounts 11 points apart at 10 points (a word space is about 2.5)
    cells = _merge_baseline([_line("1,068,000", 298.0, 341.0), _line("1,033,108", 352.3, 392.0),
                             _line("1,152,682", 403.3, 446.0)])
    assert [l.text for l in cells] == ["1,068,000", "1,033,108", "1,152,682"]
    note = _merge_baseline([_line("1", 72.0, 77.0), _line("15 U.S.C. 80b. Unless otherwise noted,", 85.0, 260.0)])
    assert [l.text for l in note] == ["1 15 U.S.C. 80b. Unless otherwise noted,"]
    spaced = _merge_baseline([_line("1 000", 72.0, 96.0), _line("000", 98.5, 113.0)])  # (a thousands space)
    assert [l.text for l in spaced] == ["1 000 000"]

def test_dvips_type3_digits_and_ligatures_are_restored():
    from engine.readers.layout import _fragment

    def span(text, font, size=0.12):
        return {"text": text, "font": font, "size": size, "flags": 0, "bbox": (0, 0, 50, 10)}

    line = {"bbox": (72, 100, 300, 110), "spans": [span("De\x0cnition, March \x01, \x01\t\x08\t", "Type3 (12 0 R)"),
                                                   span(" e\x0ecient", "Type3 (12 0 R)")]}
    assert _fragment(line, 0).text == "Definition, March 1, 1989 efficient"
    other = {"bbox": (72, 100, 300, 110), "spans": [span("tab\tkept", "Helvetica", 10.0)]}
    assert _fragment(other, 0).text == "tab kept"  # only Type3 spans are translated


def test_a_soft_hyphen_within_a_line_is_a_printed_hyphen_one_ending_it_a_break():
    # (a word processor codes its hyphens so: "multi\u00adgene", "\u00adf" for the option "-f"; a browser hides them)
    from engine.readers.layout import _fragment

    span = {"text": "parse\u00adexaml \u00adf e for multi\u00adgene align\u00ad", "font": "Helvetica", "size": 10.0,
            "flags": 0, "bbox": (0, 0, 200, 10)}
    assert _fragment({"bbox": (72, 100, 300, 110), "spans": [span]}, 0).text == \
        "parse-examl -f e for multi-gene align\u00ad"


def test_text_too_small_to_read_is_not_part_of_a_line():
    # a hidden tag set at 0.7 pt beside a heading ("PLACEHOLDER_44" + "2. Economy") is no text of the page;
    # only a Type3 font's degenerate size (0.12, every glyph) is read and repaired
    from engine.readers.layout import _fragment

    def span(text, size, font="Times-Roman"):
        return {"text": text, "font": font, "size": size, "flags": 0, "bbox": (0, 0, 50, 10)}

    tagged = {"bbox": (56, 98, 130, 117), "spans": [span("PLACEHOLDER_44", 0.7), span("2. Economy", 14.0)]}
    assert _fragment(tagged, 0).text == "2. Economy"
    assert _fragment({"bbox": (56, 112, 60, 114), "spans": [span("PLACEHOLDER_44", 0.7)]}, 0) is None
    assert _fragment({"bbox": (56, 112, 60, 114), "spans": [span("Word", 0.12, "Type3 (5 0 R)")]}, 0) is not None


def test_a_blank_set_many_times_the_lines_size_does_not_stretch_its_box_but_a_slightly_larger_one_does():
    from engine.readers.layout import _fragment

    def span(text, size, bbox):
        return {"text": text, "font": "MyriadPro-Bold", "size": size, "flags": 16, "bbox": bbox}
    label = {"bbox": (63, 379, 131, 550), "spans": [span("TABLE 2.01A ", 12.0, (63, 517, 131, 529)),
                                                    span(" ", 170.8, (63, 379, 97, 550))]}
    line = _fragment(label, 0)
    assert (line.text, line.y0, line.y1) == ("TABLE 2.01A", 517, 529)
    cell = {"bbox": (108, 267.8, 181.4, 277.8), "spans": [span("LEAST PRIVILEGE ", 8.0, (108, 268.5, 179.2, 277.5)),
                                                          span(" ", 9.0, (179.2, 267.8, 181.4, 277.8))]}
    assert (_fragment(cell, 0).y0, _fragment(cell, 0).y1) == (267.8, 277.8)


def test_four_lectures_reads_its_digits(corpus_pdf):
    from engine.readers.offline import OfflineReader

    markdown = OfflineReader().read(corpus_pdf("four-lectures.pdf")).markdown
    first = markdown.split("--- end page 1")[0]
    assert "March 1, 1989" in first and "Definition of Standard ML" in first and "Lecture 3 gives" in first
    assert "\ufffd" not in markdown
    # every font reports size 0.12: sizes come from glyph widths, so the 17 pt title and the section
    # headings stand out from 10 pt text (and the monospace code font does not)
    headings = [line for line in markdown.split("\n") if line.startswith("#")]
    assert headings[0] == "# Four Lectures on Standard ML"
    assert "## 1 ML at a Glance" in headings and "### 1.1 An ML session" in headings
    assert not any(line.startswith("#") and "structure Heap" in line for line in headings)


def test_a_contents_page_whose_numbers_stand_apart_is_recognised():
    from engine.readers.headings import contents_pages

    def line(text, x0, y0, x1, size=14.0):
        return Line(text=text, x0=x0, y0=y0, x1=x1, y1=y0 + size, size=size, bold=False, italic=False, block=0)

    titles = ["Executive summary", "Context and overview", "Open Data ecosystem", "Value", "Contacts"]
    page = [line("Contents", 65, 86, 197, 30.0)]
    for k, (title, number) in enumerate(zip(titles, (3, 5, 8, 15, 29))):
        page += [line(title, 65, 162 + 32 * k, 200), line(str(number), 505, 162 + 32 * k - 0.4, 513)]
    body = [line("Ordinary prose of the executive summary, long enough to be body text on its page.", 65, 100, 500, 10)]
    assert contents_pages([body, page]) == {1}


def test_a_bullet_glyph_a_point_below_its_text_joins_it():
    def frag(text, x0, y0, x1, y1):
        return Line(text=text, x0=x0, y0=y0, x1=x1, y1=y1, size=12.0, bold=False, italic=False, block=0)

    # Disney's outlook list: the "◦" glyph's box ends 1.4 pt below its text's
    glyph = frag("◦", 67.5, 310.0, 71.6, 326.4)
    text = frag("High-single digit adjusted EPS growth compared to fiscal 2024", 85.5, 308.6, 394.9, 325.0)
    merged = _merge_baseline([text, glyph])
    assert [line.text for line in merged] == ["◦ High-single digit adjusted EPS growth compared to fiscal 2024"]


def test_large_dvips_words_join_once_their_size_is_known():
    from engine.readers.offline import join_large_words

    def word(text, x0, x1, size, font="Type3 (101 0 R)", y1=121.0):
        line = _line(text, x0, x1, y1=y1, size=size)
        line.font = font
        return line

    # a 17 pt chapter title whose words are 14 pt apart: too far to join at the default 10 pt
    title = [word("3 The", 55.1, 118.7, 17.0), word("Static", 132.8, 183.0, 17.0),
             word("Semantics", 197.5, 254.9, 17.0)]
    column = word("To avoid such confusion", 294.4, 523.3, 10.0, font="Type3 (12 0 R)")
    joined = join_large_words([*title, column])
    assert [l.text for l in joined] == ["3 The Static Semantics", "To avoid such confusion"]
    # body-size words and words of different fonts stay apart; nothing to join returns the lines as they were
    body = [word("left", 55.1, 280.0, 10.0), word("right", 294.4, 523.3, 10.0)]
    assert join_large_words(body) == body
    mixed = [word("Exercise 2", 55.1, 100.0, 12.0, font="Type3 (5 0 R)"), word("Write", 111.0, 140.0, 12.0)]
    assert [l.text for l in join_large_words(mixed)] == ["Exercise 2", "Write"]


def test_dvips_words_of_a_stretched_line_join_but_not_code_columns():
    def word(text, x0, x1):
        line = _line(text, x0, x1)
        line.font = "Type3 (12 0 R)"
        return line

    # 14 pt after a full stop, 20 pt between words of a line stretched to the margin (size 10)
    merged = _merge_baseline([word("run.", 50.0, 70.0), word("Both", 84.0, 104.0), word("PASCAL", 124.0, 160.0)])
    assert [l.text for l in merged] == ["run. Both PASCAL"]
    # code aligned in columns ("structure Stack  n1  =") and plain fragments keep their gaps
    code = _merge_baseline([word("structure Stack", 50.0, 120.0), word("n1", 150.0, 160.0), word("=", 190.0, 195.0)])
    assert [l.text for l in code] == ["structure Stack", "n1", "="]
    plain = _merge_baseline([_line("run.", 50.0, 70.0), _line("Both", 84.0, 104.0)])
    assert [l.text for l in plain] == ["run.", "Both"]


def test_the_words_of_a_line_stretched_to_a_narrow_columns_measure_join_but_a_tables_cells_do_not():
    from engine.readers.layout import _join_stretched

    def frag(text: str, x0: float, block: int, y1: float = 431.0) -> Line:
        return Line(text=text, x0=x0, y0=y1 - 10, x1=x0 + 5.0 * len(text), y1=y1, size=10.0, bold=False, italic=False,
                    block=block, base=y1 - 2)

    prose = frag("REVTEX 4.2 will be maintained to be compatible with future versions", 54, 7, 419)
    words = ["More", "information", "may", "be", "found", "at"]
    stretched, x = [], 64.0
    for word in words:  # each word its own fragment, 20 points (two ems) apart
        stretched.append(frag(word, x, 7))
        x += 5.0 * len(word) + 20
    joined = _join_stretched([prose] + stretched)
    assert [l.text for l in joined] == [prose.text, "More information may be found at"]
    # a table's header row: its own block, or uneven gaps, or marks repeated, or numbers, stay cells
    header = [frag("Amount", 100, 9), frag("Percent", 150, 9), frag("Amount", 200, 9)]
    assert len(_join_stretched([frag("Item of the budget for the year and its variance", 54, 9, 400)] + header)) == 4
    uneven = [frag("Item", 60, 7), frag("budget", 100, 7), frag("actual", 160, 7)]
    assert len(_join_stretched([prose] + uneven)) == 4
    marks = [frag("X", 60, 7), frag("X", 85, 7), frag("X", 110, 7), frag("X", 135, 7)]
    assert len(_join_stretched([prose] + marks)) == 5
    labels = [frag("p1", 60, 7), frag("p2", 90, 7), frag("p3", 120, 7)]
    assert len(_join_stretched([prose] + labels)) == 4

    # an item's line (its bullet before the first word), with a code word in it and a wider space after a stop (TeX
    # stretches it up to three times more): one line; a line of code words, or a gap too wide even after a stop, not
    def item(texts: list[str], gaps: list[float], mono: frozenset[int] = frozenset()) -> list[Line]:
        pieces, x = [], 64.0
        for i, (text, gap) in enumerate(zip(texts, gaps + [0.0])):
            pieces.append(frag(text, x, 7))
            pieces[-1].mono = i in mono
            x += 5.0 * len(text) + gap
        return pieces

    texts = ["• Improve", "representation", "of", "Values:", "PropertyValue", "and"]
    joined = _join_stretched([prose] + item(texts, [17, 17, 17, 31, 17], frozenset({4})))
    assert [l.text for l in joined][1:] == ["• Improve representation of Values: PropertyValue and"]
    assert len(_join_stretched([prose] + item(texts, [17, 17, 17, 31, 17], frozenset({1, 2, 4, 5})))) == 7
    assert len(_join_stretched([prose] + item(texts, [17, 17, 17, 70, 17]))) == 7


def test_a_small_raised_number_is_read_apart_from_the_word_or_number_before_it():
    # a note's marker ("stability¹") and an exponent ("2⁶⁴") were read as one word with what they follow
    # ("stability1", "264"): a wrong word for the index and a wrong number for an answer
    import pymupdf

    from engine.readers.layout import _fragment

    doc = pymupdf.open()
    page = doc.new_page()
    lead = "Monetary policy and financial stability"
    page.insert_text((72, 100), lead, fontsize=10)
    x = 72 + pymupdf.get_text_length(lead, fontsize=10)
    page.insert_text((x, 96), "1", fontsize=6)
    page.insert_text((x + 4, 100), "; inputs below 2", fontsize=10)
    x += 4 + pymupdf.get_text_length("; inputs below 2", fontsize=10)
    page.insert_text((x, 96), "64", fontsize=6)
    page.insert_text((x + 8, 100), " bytes in 21", fontsize=10)
    x += 8 + pymupdf.get_text_length(" bytes in 21", fontsize=10)
    page.insert_text((x, 96), "st", fontsize=6)  # an ordinal's letters stay with their number
    line = next(line for block in page.get_text("dict")["blocks"] for line in block["lines"])
    assert any(span["flags"] & 1 for span in line["spans"])  # (MuPDF marks the raised spans)
    assert _fragment(line, 0).text == "Monetary policy and financial stability 1; inputs below 2 64 bytes in 21st"
    plain = {"bbox": (72, 90, 300, 100), "spans": [  # the same size, or not raised: one word as set
        {"text": "PSD", "font": "Helvetica", "size": 10.0, "flags": 0, "bbox": (72, 90, 90, 100)},
        {"text": "2", "font": "Helvetica", "size": 10.0, "flags": 1, "bbox": (90, 90, 96, 100)},
        {"text": " and x", "font": "Helvetica", "size": 10.0, "flags": 0, "bbox": (96, 90, 120, 100)},
        {"text": "86", "font": "Helvetica", "size": 6.0, "flags": 0, "bbox": (120, 90, 130, 100)}]}
    assert _fragment(plain, 0).text == "PSD2 and x86"
    unit = {"bbox": (72, 90, 300, 100), "spans": [  # a unit's power stays with its unit
        {"text": "an area of 40 km", "font": "Helvetica", "size": 10.0, "flags": 0, "bbox": (72, 90, 150, 100)},
        {"text": "2", "font": "Helvetica", "size": 6.0, "flags": 1, "bbox": (150, 88, 154, 96)}]}
    assert _fragment(unit, 0).text == "an area of 40 km2"


def test_a_small_raised_number_opening_a_line_is_read_apart_from_the_word_after_it():
    # an affiliation's marker ("³International Computer Science Institute") was read as one word with the name it
    # opens ("3International"), which no question's "International" finds
    import pymupdf

    from engine.readers.layout import _fragment

    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 97), "3", fontsize=6)
    page.insert_text((75, 100), "International Computer Science Institute, Berkeley", fontsize=8)
    line = next(line for block in page.get_text("dict")["blocks"] for line in block["lines"])
    assert _fragment(line, 0).text == "3 International Computer Science Institute, Berkeley"
    page = doc.new_page()  # a number at the text's size and baseline opens the line as it is set
    page.insert_text((72, 100), "3", fontsize=8)
    page.insert_text((76.5, 100), "International rivers", fontsize=8)
    line = next(line for block in page.get_text("dict")["blocks"] for line in block["lines"])
    assert _fragment(line, 0).text == "3International rivers"
