"""XY-cut reading order: columns left first, tables row by row, title blocks beside prose."""

from __future__ import annotations

from engine.readers.layout import Line
from engine.readers.reading_order import xy_cut


def _line(text: str, x0: float, y0: float, x1: float, size: float = 10.0) -> Line:
    return Line(text=text, x0=x0, y0=y0, x1=x1, y1=y0 + size, size=size, bold=False, italic=False, block=0)


PROSE = "a line of ordinary prose that fills the column"


def test_two_columns_under_a_full_width_title():
    lines = [_line("A title that spans the whole width of the page here", 50, 40, 550, 16)]
    lines += [_line(f"L{k} {PROSE}", 50, 80 + 14 * k, 290) for k in range(5)]
    lines += [_line(f"R{k} {PROSE}", 310, 80 + 14 * k, 550) for k in range(5)]
    ordered, split = xy_cut(lines)
    assert split
    assert [l.text.split()[0] for l in ordered] == ["A"] + [f"L{k}" for k in range(5)] + [f"R{k}" for k in range(5)]


def test_table_is_read_row_by_row():
    lines = []
    for row in range(4):
        lines += [_line(f"Label {row}", 50, 100 + 14 * row, 120), _line(f"{row}1.5", 300, 100 + 14 * row, 330),
                  _line(f"{row}2.5", 400, 100 + 14 * row, 430)]
    ordered, split = xy_cut(lines)
    assert not split
    assert [l.text for l in ordered[:3]] == ["Label 0", "01.5", "02.5"]


def test_big_title_beside_a_quote_is_read_before_it():
    lines = [_line("Data and new regulations", 43, 232, 388, 30), _line("drive tax transformation", 43, 268, 361, 30)]
    lines += [_line(f"Q{k} a quotation set in a narrower column", 504, 217 + 18 * k, 800, 14) for k in range(4)]
    ordered, _ = xy_cut(lines)
    assert [l.text.split()[0] for l in ordered[:2]] == ["Data", "drive"]


def test_a_lone_title_on_a_side_panel_lets_the_cards_beside_it_read_column_by_column():
    """A contacts page (the tax report's last): "Contacts" set large on a band at the left, two columns of contact
    cards at the right whose lines fall level with each other. Read by rows, each card ran into the one beside it
    ("Deloitte Global Operate Leader … | Christophe De Waele"); the title's panel is cut off first, then the
    cards' columns."""
    lines = [_line("Contacts", 43, 232, 159, 40)]
    cards = [("Andy Gwyther", "Operate Leader, Tax & Legal", "agwyther@example.com"),
             ("Eric Peel", "Tax Operate Leader", "epeel@example.com"),
             ("Emily VanVleet", "Tax Operate Leader", "evanvleet@example.com")]
    others = [("Christophe De Waele", "Tax & Legal Operate Leader", "cdewaele@example.com"),
              ("Ana Marques", "Tax & Legal Operate Leader", "amarques@example.com"),
              ("Patrick Earlam", "Tax & Legal Operate Leader", "pearlam@example.com")]
    for k, (left, right) in enumerate(zip(cards, others)):
        for n, (a, b) in enumerate(zip(left, right)):
            lines += [_line(a, 431, 83 + 65 * k + 13 * n, 600), _line(b, 696, 96 + 65 * k + 13 * n, 833)]
    ordered, split = xy_cut(lines)
    assert split
    assert [l.text for l in ordered] == ["Contacts"] + [t for card in cards for t in card] \
        + [t for card in others for t in card]
    # a chapter's number set large beside its title, close to it, is no panel: the two read as one row
    number = [_line("3", 50, 100, 70, 40), _line("Methods and materials used", 80, 110, 300, 20)]
    assert [l.text for l in xy_cut(number)[0]] == ["3", "Methods and materials used"]
    # nor is a term beside its definition, set in the same size: the table's row stays one
    term = [_line("Master Federate", 72, 100, 160), _line("The federate responsible for coordinating", 250, 95, 540),
            _line("and managing execution mode transitions.", 250, 108, 520)]
    assert not xy_cut(term)[1]


def test_row_cells_with_baselines_apart_stay_in_their_row():
    """A financial table whose figures sit half a point above their labels (as in Disney's balance
    sheet): each label is followed by its own figures, not by the next row's."""
    lines = []
    for row, label in enumerate(["Cash and cash equivalents", "Receivables, net", "Inventories", "Total assets"]):
        top = 130 + 12.7 * row
        lines += [_line(label, 71, top + 0.5, 180, 9.8), _line(f"{row},486", 464, top, 490, 9.8),
                  _line(f"{row},002", 537, top, 563, 9.8)]
    ordered, _ = xy_cut(lines)
    assert [l.text for l in ordered] == [l.text for l in lines]


def test_word_fragments_find_a_gutter_narrower_than_a_word_space():
    # dvips text: one fragment a word; justified words ~4 pt apart, the gutter between columns 10 pt
    from engine.readers.layout import _merge_baseline, word_gutter

    def words(prefix: str, x: float, y: float, count: int = 6) -> list[Line]:
        out = []
        for n in range(count):
            line = _line(f"{prefix}{n}", x + 38 * n, y, x + 38 * n + 34)
            line.font = "Type3 (12 0 R)"
            out.append(line)
        return out  # ends at x + 224

    def page() -> list[Line]:  # the merge extends its lines in place: a fresh page each time
        return [w for row in range(8) for w in words("l", 55, 100 + 15 * row) + words("r", 289, 100 + 15 * row)]

    fragments = page()  # the gutter lies between x 279 and 289
    gutter = word_gutter(fragments, 595)
    assert gutter is not None and 279 <= gutter <= 289
    merged = _merge_baseline(fragments, gutter)
    assert len(merged) == 16 and merged[0].text == "l0 l1 l2 l3 l4 l5" and merged[1].text == "r0 r1 r2 r3 r4 r5"
    # without the gutter the two columns' words run together into one line a row
    assert len(_merge_baseline(page())) == 8
    fragments = page()
    # a page of few words, or words all across the middle, has no gutter
    assert word_gutter(fragments[:20], 595) is None
    # full-width justified lines: word spaces fall at different places on every line
    assert word_gutter([w for row in range(16) for w in words("w", 55 + (7 * row) % 38, 100 + 15 * row, 12)],
                       595) is None


def test_around_a_known_gutter_columns_read_between_wide_lines():
    from engine.readers.reading_order import around_gutter

    lines = [_line("Title across the gutter", 55, 40, 500)]
    lines += [_line(f"L{k} {PROSE}", 55, 80 + 14 * k, 279) for k in range(3)]
    lines += [_line(f"R{k} {PROSE}", 289, 80 + 14 * k, 523) for k in range(3)]
    lines += [_line("wide code line that crosses the gutter", 66, 130, 331)]
    lines += [_line(f"M{k} {PROSE}", 55, 150 + 14 * k, 279) for k in range(2)]
    lines += [_line(f"S{k} {PROSE}", 289, 150 + 14 * k, 523) for k in range(2)]
    ordered = [l.text.split()[0] for l in around_gutter(lines, 284)]
    assert ordered == ["Title", "L0", "L1", "L2", "R0", "R1", "R2", "wide", "M0", "M1", "S0", "S1"]


def test_two_columns_whose_section_breaks_fall_level_are_read_column_by_column():
    # a two-column paper: each column has a heading with space around it; the blanks of the two columns
    # overlap in a band 19 points tall, wider than the 18-point gutter, yet only two lines tall
    lines = [_line(f"L{k} {PROSE}", 54, 54 + 12 * k, 299) for k in range(10)]  # ends at 172
    lines += [_line("L10 III. THE DOCUMENT PREAMBLE", 86, 196, 267)]
    lines += [_line(f"L{k} {PROSE}", 54, 222 + 12 * (k - 11), 299) for k in range(11, 20)]
    lines += [_line(f"R{k} {PROSE}", 317, 54 + 12 * k, 562) for k in range(8)]  # ends at 148
    lines += [_line("R8 IV. THE FRONT MATTER", 370, 160, 511)]
    lines += [_line(f"R{k} {PROSE}", 317, 191 + 12 * (k - 9), 562) for k in range(9, 20)]
    ordered, split = xy_cut(lines)
    assert split
    assert [l.text.split()[0] for l in ordered] == [f"L{k}" for k in range(20)] + [f"R{k}" for k in range(20)]


DEFINITION = ["The online repository for all information, guidance and policy on", "handling it, everything the",
              "agent issued.", "Interacting digital, analog, physical and human components.",
              "The system of storage and handling designed to prohibit individual", "access to certain resources.",
              "An executive department or a wholly owned Government corporation", "subject to the provisions."]


def _glossary(terms: dict[int, list[str]]) -> list[Line]:
    """A two-column glossary: a narrow column of terms (each term's lines from the row given) beside one column
    of definitions, one line every 12 points."""
    lines = [_line(text, 220, 100 + 12 * k, 540) for k, text in enumerate(DEFINITION)]
    for row, texts in terms.items():
        lines += [_line(text, 100, 100 + 12 * (row + n), 180) for n, text in enumerate(texts)]
    return lines


def test_a_glossary_is_read_term_by_term():
    """A NIST glossary sets its terms (and their sources under them) in a narrow column beside their definitions:
    read column by column, every term came before every definition; read entry by entry, each term stands just
    before its own definition."""
    ordered, split = xy_cut(_glossary({0: ["CUI registry", "[32 CFR 2002]"], 3: ["cyber-physical systems"],
                                       4: ["dual authorization", "[CNSSI 4009]"], 6: ["executive agency"]}))
    assert split
    assert [l.text for l in ordered] == ["CUI registry", "[32 CFR 2002]", *DEFINITION[:3], "cyber-physical systems",
                                         DEFINITION[3], "dual authorization", "[CNSSI 4009]", *DEFINITION[4:6],
                                         "executive agency", *DEFINITION[6:]]


def test_a_note_in_the_margin_beside_a_paragraphs_middle_is_no_label():
    """A note set beside the middle of a paragraph (its third line, which goes on from the second) labels no entry:
    the columns are read one after the other, the paragraph whole."""
    ordered, _ = xy_cut(_glossary({0: ["CUI registry"], 2: ["see the margin note"], 3: ["cyber-physical systems"],
                                   4: ["dual authorization"], 6: ["executive agency"]}))
    assert [l.text for l in ordered[:5]] == ["CUI registry", "see the margin note", "cyber-physical systems",
                                             "dual authorization", "executive agency"]


def test_cells_side_by_side_beside_a_label_column_stay_a_table_read_by_columns():
    """Right of the labels, two cells a row: a table's columns, not a column of text the labels head."""
    lines = _glossary({0: ["CUI registry"], 3: ["cyber-physical systems"], 4: ["dual authorization"],
                       6: ["executive agency"]})
    lines += [_line("cell", 560, 100 + 12 * k, 590) for k in range(len(DEFINITION))]
    ordered, _ = xy_cut(lines)
    assert [l.text for l in ordered[:4]] == ["CUI registry", "cyber-physical systems", "dual authorization",
                                             "executive agency"]
