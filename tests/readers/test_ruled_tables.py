"""Ruled tables (issue 11, item 6): the lattice of a page's rulings, the reader's lines put in its cells, a Markdown
table with its header row, and no heading made of a table's text."""

from __future__ import annotations

import pymupdf

from engine.markdown import render_table
from engine.readers.layout import Line, PageLayout
from engine.readers.offline import OfflineReader, compose
from engine.readers.ruled import Grid, cells, grids, rulings

BODY = "The survey team walked the river at dawn and counted every heron it could see from the bank."


def line(text, x0, base, *, size=10.0, bold=False, x1=None):
    x1 = x0 + 5.0 * len(text) if x1 is None else x1
    return Line(text=text, x0=x0, y0=base - 0.9 * size, x1=x1, y1=base + 0.35 * size, size=size, bold=bold,
                italic=False, block=0, base=base)


def _read(doc, path):
    """The reader's result for a test's PDF, saved at `path`."""
    doc.save(path)
    return OfflineReader().read(path)


def _tables(result) -> list:
    return [b for b in result.blocks[0].blocks if b.kind == "table"]


def drawing(*items):
    return {"type": "s", "items": list(items)}


def test_rulings_snap_and_join_into_a_lattice_and_a_framed_box_is_no_table():
    horizontal = [("l", (72, 100 + 20 * r), (300, 100 + 20 * r)) for r in range(4)]
    # the left rule drawn in two pieces that touch, the middle one a thin filled rectangle
    vertical = [("l", (72, 100), (72, 130)), ("l", (72, 130), (72, 160)), ("re", (180, 100, 180.5, 160), 1),
                ("l", (300, 100), (300, 160))]
    h, v = rulings([drawing(*horizontal, *vertical)], 612, 792)
    assert len(h) == 4 and len(v) == 3
    found = grids(h, v)
    assert len(found) == 1 and found[0].xs == [72, 180.25, 300] and found[0].ys == [100, 120, 140, 160]
    box = rulings([drawing(("re", (72, 400, 300, 500), 1))], 612, 792)
    assert grids(*box) == []  # (a framed paragraph: two rules each way)


def test_a_cell_no_row_rule_crosses_spans_the_rows_beside_it():
    grid = Grid([72, 200, 400], [100, 120, 140, 160], [(100, 72, 400), (120, 200, 400), (140, 200, 400),
                                                        (160, 72, 400)])
    lines = [line("3.1.1 Limit system", 74, 112), line("access to users.", 74, 124),
             line("AC-2", 202, 112), line("AC-3", 202, 132), line("AC-17", 202, 152)]
    rows = [[" ".join(l.text for l in cell) for cell in row] for row in cells(grid, lines)]
    assert rows == [["3.1.1 Limit system access to users.", "AC-2"], ["", "AC-3"], ["", "AC-17"]]



def test_a_band_ruled_around_rows_is_a_row_a_baseline_unless_every_cell_wraps_its_sentence():
    grid = Grid([72, 250, 400], [100, 140], [(100, 72, 400), (140, 72, 400)])
    grouped = [line("Securities held outright", 74, 112), line("2,469", 252, 112),
               line("Repurchase agreements", 74, 124), line("0", 252, 124)]
    wrapped = [line("Properly vetted BaaS", 74, 112), line("Improve due diligence on BaaS", 252, 112),
               line("partners", 74, 124), line("providers", 252, 124)]
    texts = [[[" ".join(l.text for l in cell) for cell in row] for row in cells(grid, lines)]
             for lines in (grouped, wrapped)]
    assert texts[0] == [["Securities held outright", "2,469"], ["Repurchase agreements", "0"]]
    assert texts[1] == [["Properly vetted BaaS partners", "Improve due diligence on BaaS providers"]]

def test_a_ruled_table_becomes_a_markdown_table_with_its_header_and_its_bold_cells_are_not_headings():
    grid = Grid([72, 250, 400], [300, 320, 340, 360], [(300, 72, 400), (320, 72, 400), (340, 72, 400),
                                                       (360, 72, 400)])
    table = [line("Performance Measure", 74, 314, bold=True), line("Target", 252, 314, bold=True),
             line("Percent of claims processed", 74, 334), line("90%", 252, 334),
             line("Average Speed of Answer", 74, 354, bold=True), line("5 min", 252, 354)]
    pages = [PageLayout(1, 612, 792, [line("Annual Report", 72, 150, size=28, bold=True)], [])]
    for n in range(2, 5):
        lines = [line(f"Section {n} Results", 72, 90, size=14, bold=True)] + \
            [line(BODY, 72, 110 + 12 * k, x1=540) for k in range(10)]
        pages.append(PageLayout(n, 612, 792, lines + (table if n == 3 else []), [],
                                grids=[grid] if n == 3 else []))
    result = compose(pages)
    page = result.blocks[2].blocks
    blocks = [b for b in page if b.kind == "table"]
    assert len(blocks) == 1
    assert blocks[0].cells == [["Performance Measure", "Target"], ["Percent of claims processed", "90%"],
                               ["Average Speed of Answer", "5 min"]]
    assert render_table(blocks[0]).split("\n")[:2] == ["| Performance Measure | Target |", "| --- | --- |"]
    assert not any(b.kind == "heading" and "Performance" in b.text for b in page)


def test_the_reader_finds_a_drawn_grid_on_a_real_page(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 72), "Quarterly counts", fontsize=16)
    rows = [("River", "Herons", "Egrets"), ("North", "12", "4"), ("South", "9", "7")]
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            page.insert_text((76 + 120 * c, 118 + 24 * r), text, fontsize=10)
    for r in range(4):
        page.draw_line((72, 100 + 24 * r), (432, 100 + 24 * r))
    for c in range(4):
        page.draw_line((72 + 120 * c, 100), (72 + 120 * c, 172))
    path = tmp_path / "grid.pdf"
    doc.save(path)
    result = OfflineReader().read(path)
    tables = _tables(result)
    assert tables and tables[0].cells == [list(row) for row in rows]
    assert "| River | Herons | Egrets |" in result.markdown


def _open_table_page(tmp_path, *, note=None, rows=None):
    """A page with a table ruled across only (booktabs: a rule above, one under the header, one below), its first
    column's entries close to the second's, one description wrapped over two lines, prose above and below."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 80), "The tests that the validator runs on each box are listed below, with when each", fontsize=10)
    page.insert_text((72, 92), "of them passes.", fontsize=10)
    rows = rows or [("Test name", "True if"), ("boxLengthIsValid", "Size of box contents equals 4 bytes"),
                    ("signatureIsValid", "Signature equals 0x0d0a870a"), ("brandIsValid", "Brand equals jp2 and")]
    y = 130
    for name, test in rows:
        page.insert_text((110, y), name, fontsize=10)
        page.insert_text((215, y), test, fontsize=10)
        y += 13
    page.insert_text((215, y), "the minor version is 0", fontsize=10)  # (the last description wraps)
    bottom = y + 6
    if note:
        page.insert_text((110, y + 16), note, fontsize=10)
        bottom = y + 22
    for rule_y in (118, 134, bottom):
        page.draw_line((108, rule_y), (420, rule_y), width=0.5)
    page.insert_text((72, bottom + 30), "Each test reads one field of the box and compares it with the standard.",
                     fontsize=10)
    return _read(doc, tmp_path / "open.pdf")


def test_a_table_ruled_across_only_becomes_a_table_its_columns_told_by_the_gap_down_it(tmp_path):
    result = _open_table_page(tmp_path)
    tables = _tables(result)
    assert len(tables) == 1 and tables[0].cells == [
        ["Test name", "True if"], ["boxLengthIsValid", "Size of box contents equals 4 bytes"],
        ["signatureIsValid", "Signature equals 0x0d0a870a"], ["brandIsValid", "Brand equals jp2 and the minor version is 0"]]
    assert "The tests that the validator runs" in result.markdown and "compares it with the standard." in result.markdown


def test_a_note_under_an_open_table_stays_out_of_it_and_prose_between_rules_is_no_table(tmp_path):
    note = "1 The brand is read from the file type box, which every conforming file must hold."
    result = _open_table_page(tmp_path, note=note)
    tables = _tables(result)
    assert len(tables) == 1 and all(note not in cell for row in tables[0].cells for cell in row)
    assert note in result.markdown
    prose = [(BODY[:48], BODY[48:]), ("It counted the egrets too", "and wrote both numbers down."),
             ("The tally went to the district", "office by the end of the week.")]
    result = _open_table_page(tmp_path, rows=prose)
    assert not [b for b in result.blocks[0].blocks if b.kind == "table"]


def _lattice_page(tmp_path, *, spanning=False):
    """A ruled table whose second row has one text line running over the column rule (as word processors write
    a row's line: the first cell's words, spaces up to the next cell, its words); with `spanning`, a title row
    across both columns that no column rule parts."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    xs, top = [64, 140, 320], 100
    ys = [top, top + 20, top + 80] if not spanning else [top - 20, top, top + 20, top + 80]
    for y in ys:
        page.draw_line((xs[0], y), (xs[-1], y))
    for x in xs:
        page.draw_line((x, top if x == xs[1] else ys[0]), (x, ys[-1]))  # (the middle rule stops under a title row)
    if spanning:
        page.insert_text((xs[0] + 5, top - 7), "Plans     of the contingency programme and their purposes", fontsize=10)
    page.insert_text((xs[0] + 5, top + 13), "Plan", fontsize=10)
    page.insert_text((xs[1] + 5, top + 13), "Purpose", fontsize=10)
    page.insert_text((xs[0] + 5, top + 33), "Continuity", fontsize=10)
    page.insert_text((xs[1] + 5, top + 33), "Provides procedures to sustain", fontsize=10)
    run = "(COOP) Plan"
    while xs[0] + 5 + pymupdf.get_text_length(run + " ", fontsize=10) < xs[1] + 5:
        run += " "
    page.insert_text((xs[0] + 5, top + 45), run + "an organization's functions", fontsize=10)
    page.insert_text((xs[1] + 5, top + 57), "for up to 30 days.", fontsize=10)
    for k in range(8):
        page.insert_text((72, 240 + 14 * k), BODY, fontsize=10)
    return _read(doc, tmp_path / "lattice.pdf")


def test_a_line_running_over_a_drawn_column_rule_is_read_as_two_cells(tmp_path):
    result = _lattice_page(tmp_path)
    tables = _tables(result)
    assert len(tables) == 1 and tables[0].cells == [
        ["Plan", "Purpose"],
        ["Continuity (COOP) Plan", "Provides procedures to sustain an organization's functions for up to 30 days."]]


def test_a_title_row_across_the_columns_stays_whole_and_goes_before_the_table_its_names_head(tmp_path):
    # no column rule is drawn beside it: its wide gap is no bound between cells; one cell over a row naming every
    # column, it is the table's title, a paragraph before it, and the names are the table's header
    result = _lattice_page(tmp_path, spanning=True)
    blocks = result.blocks[0].blocks
    tables = _tables(result)
    assert len(tables) == 1
    at = blocks.index(tables[0])
    assert blocks[at - 1].kind == "paragraph"
    assert blocks[at - 1].text == "Plans of the contingency programme and their purposes"
    assert tables[0].cells[0] == ["Plan", "Purpose"]
    assert tables[0].cells[-1] == ["Continuity (COOP) Plan",
                                   "Provides procedures to sustain an organization's functions for up to 30 days."]
    assert "Plans of the contingency programme and their purposes\n\n| Plan | Purpose |\n| --- | --- |" \
        in result.markdown



def test_a_tables_title_row_goes_before_it_only_over_a_row_of_names():
    from engine.readers.blocks import box, style
    from engine.readers.tables import table_blocks

    def grid(title, names):
        rows = [[title, "", ""], names, ["Bank holding companies", "4,100", "25.3"]]
        return [[[line(text, 72 + 150 * c, 100 + 12 * r)] if text else [] for c, text in enumerate(row)]
                for r, row in enumerate(rows)]

    made = table_blocks(grid("Table 4.1. Summary of supervised institutions",
                             ["Portfolio", "Number of institutions", "Total assets"]), set(), box, style)
    assert [b.kind for b in made] == ["paragraph", "table"]
    assert made[0].text == "Table 4.1. Summary of supervised institutions"
    assert made[1].cells[0] == ["Portfolio", "Number of institutions", "Total assets"]
    wrapped = table_blocks(grid("Size of Firm (Total Assets for", ["Standalone BDs", "Total Number", "Percentage"]),
                           set(), box, style)  # (a header wrapped over rows: it stays the first row)
    marks = table_blocks(grid("Contingency Consideration", ["Document system", "X", "X"]), set(), box, style)
    assert [b.kind for b in wrapped] == ["table"] and [b.kind for b in marks] == ["table"]

def test_words_a_space_apart_over_a_drawn_rule_stay_together():
    # a diagram's grid line passing between two words of one label is no column bound
    from engine.readers.ruled import split_at_columns

    grid = Grid([72, 200, 400], [100, 120, 140], [(100, 72, 400), (120, 72, 400), (140, 72, 400)],
                downs=[(72, 100, 140), (200, 100, 140), (400, 100, 140)])
    label = line("(1, 1)", 190, 112, x1=212)
    words = [(190, 103, 199, 116), (201.5, 103, 212, 116)]  # "(1," and "1)", a space apart across x = 200
    assert split_at_columns([label], [grid], words) == [label]
    apart = line("Plan organization", 150, 132, x1=290)
    words = [(150, 123, 170, 136), (210, 123, 290, 136)]  # two cells' words, 40 points apart across the rule
    assert [l.text for l in split_at_columns([apart], [grid], words)] == ["Plan", "organization"]



def test_a_line_is_cut_at_a_column_bound_though_the_reader_parted_a_raised_exponent():
    # "2.5" and "2^241" in two columns of an open table; the reader reads the exponent apart ("2 241"), so the
    # line has three words over the page's two boxes: each box goes to the words that spell its text
    from engine.readers.ruled import split_at_columns

    grid = Grid([105, 321, 370, 436], [131, 151, 294], [(131, 105, 436), (151, 105, 436), (294, 105, 436)],
                open=True)
    row = line("2.5 2 241", 338, 274, x1=413)
    words = [(338.3, 265.6, 353.5, 276.6), (393.5, 263.9, 412.9, 276.6)]
    spelled = {words[0]: "2.5", words[1]: "2241"}
    assert [l.text for l in split_at_columns([row], [grid], words, spelled)] == ["2.5", "2 241"]
    assert split_at_columns([row], [grid], words, {words[0]: "2.5", words[1]: "2242"}) == [row]  # (no match)

def test_lines_shaded_in_their_cells_colour_part_no_rows(tmp_path):
    # a word processor shades a cell and, again, each line of its text in the same colour: those inner
    # rectangles show no edge, so a cell's wrapped text stays one cell (and a row its own row)
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    blue = (0.77, 0.85, 0.94)
    xs, ys = [72, 250, 430], [100, 120, 180, 220]
    cells = [["Requirement", "Controls"],
             [["Limit system access to", "authorized users and", "processes acting for them."], ["Account Management"]],
             [["Limit unsuccessful", "logon attempts."], ["Unsuccessful Logon Attempts"]]]
    for r in range(3):
        for c in range(2):
            page.draw_rect(pymupdf.Rect(xs[c], ys[r], xs[c + 1], ys[r + 1]), color=None, fill=blue, width=0)
            lines = [cells[r][c]] if r == 0 else cells[r][c]
            for k, text in enumerate(lines):
                top = ys[r] + 12 * k  # (stacked from the cell's top rule down, as the word processor draws them)
                page.draw_rect(pymupdf.Rect(xs[c] + 4, top, xs[c + 1] - 4, top + 12), color=None, fill=blue, width=0)
                page.insert_text((xs[c] + 6, top + 9), text, fontsize=10)
    for y in ys:
        page.draw_line((xs[0], y), (xs[-1], y), width=0.5)
    for x in xs:
        page.draw_line((x, ys[0]), (x, ys[-1]), width=0.5)
    for k in range(8):
        page.insert_text((72, 260 + 14 * k), BODY, fontsize=10)
    tables = _tables(_read(doc, tmp_path / "shaded.pdf"))
    assert len(tables) == 1 and tables[0].cells == [
        ["Requirement", "Controls"],
        ["Limit system access to authorized users and processes acting for them.", "Account Management"],
        ["Limit unsuccessful logon attempts.", "Unsuccessful Logon Attempts"]]


def test_a_fill_inside_a_fill_of_its_colour_shows_no_edge_but_a_frames_hole_does():
    from engine.readers.ruled import unseen

    blue, grey = (0.77, 0.85, 0.94), (0.5, 0.5, 0.5)
    cell = {"type": "f", "fill": blue, "items": [("re", (90, 157, 239, 621), 1)]}
    line_shade = {"type": "f", "fill": blue, "items": [("re", (95, 157, 234, 169), 1)]}
    other = {"type": "f", "fill": grey, "items": [("re", (95, 169, 234, 180), 1)]}
    assert unseen([cell, line_shade, other]) == {(1, 0)}  # the same colour drawn inside: hidden; another: shows
    frame = {"type": "f", "fill": grey, "items": [("re", (72, 72, 548, 355), 1), ("re", (74, 74, 546, 353), 1)]}
    assert unseen([frame]) == set()  # one path's inner rectangle is its hole: a frame's two edges show


def test_a_box_parted_down_is_a_one_row_table_and_a_box_parted_across_is_none():
    across = [("l", (72, 100), (300, 100)), ("l", (72, 160), (300, 160))]
    sides = [("l", (72, 100), (72, 160)), ("l", (300, 100), (300, 160))]
    h, v = rulings([drawing(*across, *sides, ("l", (130, 100), (130, 160)))], 612, 792)
    found = grids(h, v)  # a term beside its definition, framed and parted by a rule down ("Testing | Tests are …")
    assert len(found) == 1 and found[0].xs == [72, 130, 300] and found[0].ys == [100, 160]
    h, v = rulings([drawing(*across, *sides, ("l", (72, 120), (300, 120)))], 612, 792)
    assert grids(h, v) == []  # (a title band over a box's text: no columns)


def _zebra(page, top, rows, shaded=None, shade=(0.95, 0.95, 0.95), xs=(72, 230, 540)):
    """Rows of two cells, those `shaded` (by default every other one) with their cells filled and nothing drawn
    for the rows between, from `top` down, a detail given as a list wrapping over lines; the y under the last row."""
    y = top
    for r, (name, detail) in enumerate(rows):
        wrapped = detail if isinstance(detail, list) else [detail]
        height = 8 + 12 * len(wrapped)
        if (r % 2 == 0) if shaded is None else (r in shaded):
            for c in range(2):
                page.draw_rect(pymupdf.Rect(xs[c], y, xs[c + 1], y + height), color=None, fill=shade, width=0)
        page.insert_text((xs[0] + 4, y + 13), name, fontsize=9)
        for k, text in enumerate(wrapped):
            page.insert_text((xs[1] + 4, y + 13 + 12 * k), text, fontsize=9)
        y += height
    return y


def test_a_table_shaded_every_other_row_is_one_table_with_its_unshaded_rows(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    # the header and the first row shaded, then every other row; the last one, unshaded, is read under the last band
    rows = [("Solution", "Details"),
            ("SupplyHorizon", ["It finds supply chain issues before they disrupt, from internal and", "external data."]),
            ("Smart platform", ["It shows manufacturing operations across the organisation with", "connected data from",
                                "disparate systems."]),
            ("Supplier 360", ["It consolidates supplier data from various sources into one view", "of performance."]),
            ("Greenlight", ["It gathers greenhouse gas emissions into dashboards that track", "reduction projects."])]
    _zebra(page, 100, rows, shaded={0, 1, 3})
    for k in range(8):
        page.insert_text((72, 300 + 14 * k), BODY, fontsize=10)
    tables = _tables(_read(doc, tmp_path / "zebra.pdf"))
    assert len(tables) == 1
    assert tables[0].cells == [[name, detail if isinstance(detail, str) else " ".join(detail)] for name, detail in rows]


def test_two_striped_tables_with_a_caption_across_their_columns_between_stay_two(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    first = [("Name", "Role"), ("Ada", "Analyst"), ("Ben", "Builder")]
    below = _zebra(page, 100, first)
    page.insert_text((72, below + 14), "Table 2: The teams that the survey visited in the second year", fontsize=9)
    second = [("Team", "Site"), ("North", "Harbour"), ("South", "Ridge")]
    _zebra(page, below + 24, second)
    for k in range(8):
        page.insert_text((72, 400 + 14 * k), BODY, fontsize=10)
    tables = _tables(_read(doc, tmp_path / "two.pdf"))
    assert [t.cells[0] for t in tables] == [["Name", "Role"], ["Team", "Site"]]


def test_a_filled_head_over_rows_ruled_across_only_is_one_table(tmp_path):
    # a report's table: a title band and the columns' names in filled cells, then rows parted by rules across
    # only; the first row, between the head's bottom and the first rule, belongs to the table too
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    x0, x1 = 90, 520
    page.draw_rect(pymupdf.Rect(x0, 100, x1, 120), color=None, fill=(0.0, 0.33, 0.55), width=0)
    names = [(90, 210), (210, 400), (400, 460), (460, 520)]
    for a, b in names:
        page.draw_rect(pymupdf.Rect(a, 120, b, 140), color=None, fill=(0.9, 0.91, 0.91), width=0)
    page.insert_text((x0 + 4, 114), "Table 4.1. Summary of supervised institutions", fontsize=9, color=(1, 1, 1))
    for (a, _), name in zip(names, ["Portfolio", "Definition", "Number", "Assets"]):
        page.insert_text((a + 4, 134), name, fontsize=8)
    rows = [("State member banks", ["Members within large firms"], "4", "1.2"),
            ("Large banking firms", ["Firms with total assets of $100 billion", "and greater"], "18", "5.1"),
            ("Small foreign firms", ["Representative offices"], "32", "0.0"),
            ("Community banks", ["Assets less than $10 billion"], "654", "0.7")]
    y = 140
    for row in rows:
        for (a, _), text in zip(names, row):
            for k, piece in enumerate(text if isinstance(text, list) else [text]):
                page.insert_text((a + 4, y + 13 + 10 * k), piece, fontsize=8)
        y += 10 + 10 * len(row[1])
        page.draw_line((x0, y), (x1, y), width=0.5)  # (none under the head: its fills' edge is the first row's top)
    for k in range(8):
        page.insert_text((72, 300 + 14 * k), BODY, fontsize=10)
    result = _read(doc, tmp_path / "headed.pdf")
    blocks = result.blocks[0].blocks
    tables = _tables(result)
    assert len(tables) == 1
    assert blocks[blocks.index(tables[0]) - 1].text == "Table 4.1. Summary of supervised institutions"
    assert tables[0].cells == [["Portfolio", "Definition", "Number", "Assets"],
                               *[[a, " ".join(b), c, d] for a, b, c, d in rows]]


def test_a_filled_head_over_rows_ruled_one_by_one_reads_them_in_its_columns(tmp_path):
    # the head names five columns in filled cells; a rule under every row (no open table of their own: no row
    # wraps), a label row whose words run past the first column's bound; the numbers go in the head's columns
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    xs = [90, 250, 305, 360, 415, 470, 520]
    for a, b in zip(xs, xs[1:]):
        page.draw_rect(pymupdf.Rect(a, 100, b, 118), color=None, fill=(0.9, 0.91, 0.91), width=0)
    for (a, b), name in zip(zip(xs, xs[1:]), ["Entity/item", "2023", "2022", "2021", "2020", "2019"]):
        page.insert_text((a + 4 if name[0].isalpha() else b - 24, 113), name, fontsize=8)
    rows = [["Top-tier savings and loan holding companies"], ["Total number", "48", "50", "47", "50", "53"],
            ["Total assets (billions of dollars)", "1,334", "1,741", "1,856", "2,026", "1,822"],
            ["Number of inspections", "51", "50", "63", "55", "52"]]
    y = 118
    for row in rows:
        page.insert_text((xs[0] + 4, y + 11), row[0], fontsize=8)
        for b, value in zip(xs[2:], row[1:]):
            page.insert_text((b - 4 - pymupdf.get_text_length(value, fontsize=8), y + 11), value, fontsize=8)
        y += 14
        page.draw_line((xs[0], y), (xs[-1], y), width=0.5)
    for k in range(8):
        page.insert_text((72, 300 + 14 * k), BODY, fontsize=10)
    tables = _tables(_read(doc, tmp_path / "ruled_rows.pdf"))
    assert len(tables) == 1
    assert tables[0].cells == [["Entity/item", "2023", "2022", "2021", "2020", "2019"],
                               ["Top-tier savings and loan holding companies", "", "", "", "", ""], *rows[1:]]


def test_column_rules_drawn_a_row_at_a_time_part_the_rows_no_rule_across_parts(tmp_path):
    """LaTeX's `|l|l|` tabular with a rule across only over and under its header and under its last row draws each
    column rule a row at a time: where every column rule is drawn in two pieces that meet, a row ends, though its
    cells' lower-case terms read as if each went on from the line above (camlidl's table of attributes)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    rows = [("Attribute", "Context where it can appear"), ("abstract", "typedef"), ("bigarray", "array type"),
            ("camlint", "int or long integer type"), ("ignore", "any pointer type")]
    top, pitch, xs = 100, 14, (72, 250, 430)
    for r, (term, context) in enumerate(rows):
        page.insert_text((76, top + pitch * r + 10), term, fontsize=10)
        page.insert_text((254, top + pitch * r + 10), context, fontsize=10)
        for x in xs:  # (each column rule a row long)
            page.draw_line((x, top + pitch * r), (x, top + pitch * (r + 1)), width=0.4)
    for y in (top, top + pitch, top + pitch * len(rows)):
        page.draw_line((xs[0], y), (xs[-1], y), width=0.4)
    result = _read(doc, tmp_path / "attributes.pdf")
    tables = _tables(result)
    assert tables and tables[0].cells == [list(row) for row in rows]


def test_column_rules_in_pieces_that_meet_where_no_row_ends_part_nothing():
    """A column rule drawn in two pieces (one of three) parts no row: every column rule must meet itself there."""
    from engine.readers.ruled import vertical_joints, with_drawn_rows

    pieces = [("l", (72, 100), (72, 130)), ("l", (72, 130), (72, 160)), ("l", (180, 100), (180, 160)),
              ("l", (300, 100), (300, 160))]
    grid = Grid([72, 180, 300], [100, 120, 160], [(100, 72, 300), (120, 72, 300), (160, 72, 300)])
    assert with_drawn_rows(grid, vertical_joints([drawing(*pieces)])) == grid
    every = pieces[:2] + [("l", (x, 100), (x, 130)) for x in (180, 300)] + [("l", (x, 130), (x, 160)) for x in (180, 300)]
    assert with_drawn_rows(grid, vertical_joints([drawing(*every)])).ys == [100, 120, 130, 160]


def test_a_row_drawn_under_one_without_a_first_cell_goes_on_with_the_row_above(tmp_path):
    """A cell's second line set as a row of its own, its first cell empty ("96" over "(12×8)", as a paper's table
    of datasets sets them): one row of the table, as before its column rules told its rows."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    lines = [("Name", "Bins", "Description"), ("RETINA", "96", "Feline retina images."), ("", "(12x8)", "Default set."),
             ("IRMA", "199", "Medical images."), ("", "", "Used in three papers.")]
    top, pitch, xs = 100, 14, (72, 170, 260, 470)
    for r, cells_text in enumerate(lines):
        for c, text in enumerate(cells_text):
            if text:
                page.insert_text((xs[c] + 4, top + pitch * r + 10), text, fontsize=10)
        for x in xs:
            page.draw_line((x, top + pitch * r), (x, top + pitch * (r + 1)), width=0.4)
    for y in (top, top + pitch, top + pitch * len(lines)):
        page.draw_line((xs[0], y), (xs[-1], y), width=0.4)
    tables = _tables(_read(doc, tmp_path / "datasets.pdf"))
    assert tables and tables[0].cells == [["Name", "Bins", "Description"],
                                          ["RETINA", "96 (12x8)", "Feline retina images. Default set."],
                                          ["IRMA", "199", "Medical images. Used in three papers."]]
