"""Furniture (margin line numbers, vertical margin notes, lone page numbers, text printed twice) and the title
block (authors, dates, versions, notices are no headings; a centred title over two lines is one heading)."""

from __future__ import annotations

from engine.readers.furniture import (column_heads, end_page_number, find_furniture, line_numbers, margin_notes,
                                     split_glued_numbers, strip_furniture)
from engine.readers.layout import Line, PageLayout, _without_overprint
from engine.readers.offline import compose
from engine.readers.title_block import is_author_line, is_date_line, not_a_heading

BODY = "The survey team walked the river at dawn and counted every heron it could see from the bank."


def line(text, x0, base, *, size=10.0, bold=False, x1=None, vertical=False):
    x1 = x0 + 5.0 * len(text) if x1 is None else x1
    return Line(text=text, x0=x0, y0=base - 0.9 * size, x1=x1, y1=base + 0.35 * size, size=size, bold=bold,
                italic=False, block=0, base=base, vertical=vertical)


def test_margin_line_numbers_are_furniture_but_numbers_in_the_text_are_not():
    text = [line(BODY, 72, 100 + 12 * k, x1=540) for k in range(8)]
    numbers = [line(str(40 + k), 40, 100 + 12 * k, x1=52) for k in range(8)]
    cells = [line("2019", 100, 300, x1=120), line("2020", 200, 300, x1=220), line("2021", 300, 300, x1=320)]
    found = line_numbers(text + numbers + cells)
    assert found == {id(n) for n in numbers}


def test_a_margin_line_number_read_into_a_heading_is_dropped_from_it_and_the_heading_joins_its_second_line():
    # a draft numbers every line; the number beside a heading came out as part of the heading's line
    lines = []
    for k in range(8):
        lines += [line(str(150 + k), 61, 100 + 13 * k, size=7, x1=70), line(BODY, 117, 100 + 13 * k, x1=540)]
    lines += [line("158 5.1.1.7 DE.CM-2: The physical environment is monitored to detect potential", 61, 220,
                   size=13, x1=480),
              line("159", 61, 236, size=7, x1=70), line("cybersecurity events", 117, 236, size=13, x1=226)]
    for k in range(6):
        lines += [line(str(160 + k), 61, 255 + 13 * k, size=7, x1=70), line(BODY, 117, 255 + 13 * k, x1=540)]
    kept, _ = strip_furniture(split_glued_numbers(PageLayout(1, 612, 792, lines, [])), set())
    assert not any(l.text.isdigit() for l in kept)
    heading = next(l for l in kept if "DE.CM-2" in l.text)
    assert heading.text.startswith("5.1.1.7 DE.CM-2") and heading.x0 == 117
    result = compose([PageLayout(1, 612, 792, lines, [])])
    assert [b.text for page in result.blocks for b in page.blocks if b.kind == "heading"] == [
        "5.1.1.7 DE.CM-2: The physical environment is monitored to detect potential cybersecurity events"]


def test_a_vertical_notice_in_the_side_margin_is_furniture():
    text = [line(BODY, 72, 100 + 12 * k, x1=540) for k in range(5)]
    notice = line("This publication is available free of charge", 20, 700, x1=32, vertical=True)
    axis = line("Frequency", 300, 400, x1=312, vertical=True)  # a chart's axis label, inside the text's span
    assert margin_notes(text + [notice, axis]) == {id(notice)}


def test_a_note_beyond_the_text_of_pages_turned_sideways_is_furniture_when_it_repeats():
    def turned(n, note=True):
        text = [line(BODY, 100 + 14 * k, 700, x1=110 + 14 * k, vertical=True) for k in range(20)]
        text.append(line("Table 3.2 Components", 80, 700, x1=90, vertical=True))  # the table's title, outermost
        return PageLayout(n, 612, 792, ([line("DRAFT", 27, 97, x1=41, vertical=True)] if note else []) + text, [])
    pages = [turned(n) for n in range(1, 4)] + [turned(4, note=False)]
    furniture = find_furniture(pages, 10.0)
    kept, _ = strip_furniture(pages[0], furniture)
    assert [l.text for l in kept if l.text == "DRAFT"] == []
    assert any(l.text == "Table 3.2 Components" for l in kept)  # (on one page: not furniture)
    fewer = find_furniture(pages[:2] + [turned(5, note=False), turned(6, note=False)], 10.0)
    kept, _ = strip_furniture(turned(7, note=True), fewer)
    assert any(l.text == "DRAFT" for l in kept)  # on two pages only: kept


def test_a_side_bar_repeated_beside_every_slides_text_is_furniture_but_a_tables_wrapped_column_head_is_not():
    def slide(n, words):  # (a landscape slide: the bar's small lines beyond the text's right edge, in its rows)
        text = [line(f"{words} of slide {n} and what it shows on the screen", 14, 60 + 14 * k, size=11, x1=300)
                for k in range(6)]
        bar = [line("Revived", 329, 61, size=6, x1=352), line("slide fonts", 324, 68, size=6, x1=356),
               line("Claudio", 329, 90, size=6, x1=352)]
        return PageLayout(n, 363, 272, [line(f"Slide {n}", 9, 30, size=14.5, x1=180), *text, *bar], [])
    pages = [slide(n, "The text") for n in range(1, 6)]
    furniture = find_furniture(pages, 11.0)
    kept, _ = strip_furniture(pages[2], furniture)
    assert not any(l.text in ("Revived", "slide fonts", "Claudio") for l in kept)
    assert sum(l.text.startswith("The text") for l in kept) == 6
    narrow = [PageLayout(n, 363, 272, [l for l in slide(n, "The text").lines if l.text != "Revived"]
                         + ([line("Revived", 329, 61, size=6, x1=352)] if n < 3 else []), []) for n in range(1, 6)]
    kept, _ = strip_furniture(narrow[0], find_furniture(narrow, 11.0))
    assert any(l.text == "Revived" for l in kept)  # (on two of five pages: kept)

    def table_page(n):  # a table's heads over its columns on every page, the last one wrapped over two lines
        heads = [line("Feature Name", 60, 71, size=9, x1=119), line("Feature ID", 173, 71, size=9, x1=217),
                 line("Example", 339, 71, size=9, x1=376), line("Implementation", 641, 73, size=9, x1=710),
                 line("Notes", 641, 85, size=9, x1=666)]
        rows = [cell for k in range(6) for cell in (line(f"Feature {n}.{k}", 60, 100 + 14 * k, size=9, x1=119),
                                                    line(f"cv{k}", 173, 100 + 14 * k, size=9, x1=194),
                                                    line(f"G,O,{k}", 641, 100 + 14 * k, size=9, x1=666))]
        return PageLayout(n, 792, 612, [*heads, *rows], [])
    tables = [table_page(n) for n in range(1, 6)]
    kept, _ = strip_furniture(tables[1], find_furniture(tables, 11.0))
    assert any(l.text == "Notes" for l in kept)


def test_a_lone_page_number_below_the_text_is_furniture_wherever_the_margin_ends():
    text = [line(BODY, 72, 100 + 12 * k, x1=540) for k in range(5)]
    number = line("17", 300, 690, x1=310)
    assert end_page_number(text + [number]) == {id(number)}
    row = [line("Total", 72, 690, x1=100), line("17", 300, 690, x1=310)]  # a table's last row keeps its 17
    assert end_page_number(text + row) == set()


def test_the_first_page_number_in_the_margins_is_the_label_and_a_later_one_does_not_replace_it():
    text = [line(BODY, 72, 200 + 12 * k, x1=540) for k in range(5)]
    running = line("Annual survey", 72, 40, x1=140)  # a running head beside the number: not a lone number
    header, footer = line("12", 520, 40, x1=532), line("xii", 300, 760, x1=312)
    kept, label = strip_furniture(PageLayout(1, 612, 792, [running, header, *text, footer], []), set())
    assert label == "12"
    assert kept == [running, *text]
    _, label = strip_furniture(PageLayout(1, 612, 792, [*text, footer], []), set())
    assert label == "xii"


def test_text_printed_twice_in_one_place_is_read_once():
    once = line("Initiation", 132, 370, bold=True)
    again = line("Initiation", 132.2, 370.1, bold=True)
    elsewhere = line("Initiation", 132, 500, bold=True)
    assert _without_overprint([once, again, elsewhere]) == [once, elsewhere]


def test_a_shadow_drawn_a_fraction_of_the_type_size_off_is_read_once_with_its_bullet_kept():
    # a slide's title and bullets drawn twice, the shadow 2 points off at 40 and without the bullet glyph
    title, title_shadow = line("Features", 60, 100, size=40), line("Features", 58, 102, size=40)
    bullet = line("\u2022 network server of the cabinet", 72, 160, size=28, x1=500)
    shadow = line("network server of the cabinet", 90, 161.5, size=28, x1=498)
    assert _without_overprint([title, title_shadow, shadow, bullet]) == [title, bullet]
    # the same words elsewhere on the slide, or in another size at the same place, are lines of their own
    below = line("network server of the cabinet", 90, 200, size=28, x1=498)
    small = line("Features", 60, 100, size=12)
    assert _without_overprint([title, below, small, bullet]) == [title, below, small, bullet]


def test_title_block_lines_that_are_no_headings():
    assert is_author_line("Karolin Varner*, Benjamin Lipp†, Wanja Zaeske, Lisa Schmidt‡,")
    assert is_author_line("Khiem Pham, Zhi Qiao, Danny Ryan, Juhyeok Sin,")
    assert not is_author_line("Features, Benefits and Applications")
    assert not is_author_line("Risk Management, Supply Chain and Security")
    assert is_date_line("27 April 2021") and is_date_line("FEBRUARY 2018")
    assert is_date_line("Yan X Zhang October 31, 2019")
    assert not is_date_line("FY 2025 Congressional Justification")
    assert not_a_heading("Version 0.5.9") and not_a_heading("C O M P U T E R   S E C U R I T Y")
    assert not_a_heading("This publication is available free of charge from:")
    assert not not_a_heading("Supply Chain Risk Management Practices for Federal Information")


def _document(first_page):
    body = [line(BODY, 72, 100 + 12 * k, x1=540) for k in range(30)]
    pages = [PageLayout(1, 612, 792, first_page, [])]
    pages += [PageLayout(n, 612, 792, [line(f"Chapter {n}", 72, 80, size=16, bold=True)] + body, [])
              for n in range(2, 6)]
    return compose(pages)


def test_authors_and_dates_on_the_cover_are_not_headings_and_a_centred_title_is_one():
    cover = [line("Supply Chain Risk Management Practices for Federal Information", 90, 200, size=20, bold=True,
                  x1=522),
             line("Systems and Organizations", 196, 226, size=20, bold=True, x1=416),
             line("Jon Boyens, Celia Paulsen, Rama Moorthy", 180, 300, size=12, bold=True, x1=432),
             line("27 April 2021", 260, 330, size=12, bold=True, x1=352)]
    result = _document(cover)
    headings = [(b.text, b.level) for b in result.blocks[0].blocks if b.kind == "heading"]
    assert headings == [("Supply Chain Risk Management Practices for Federal Information Systems and Organizations",
                         headings[0][1])]
    assert "Jon Boyens, Celia Paulsen, Rama Moorthy" in result.markdown.split("\n")


def test_a_bullet_line_is_never_a_heading():
    page = [line("• Material Management and Minimization", 72, 100, bold=True, x1=300)] + \
        [line(BODY, 72, 120 + 12 * k, x1=540) for k in range(3)]
    result = compose([PageLayout(1, 612, 792, page, [])])
    assert [b.kind for b in result.blocks[0].blocks][0] == "list_item"


def _book_page(n, *, head=None, top=None, bottom=None):
    """A page of a book set with a wide top margin: its running head sits at 104 pt (13% of the height)."""
    lines = [line(str(n), 160, 104, x1=166), line(head, 354, 104, x1=504)] if head else []
    lines += [top] if top else []
    lines += [line(BODY, 107, 140 + 14 * k, x1=504) for k in range(30)]
    lines += bottom or []
    return PageLayout(n, 612, 792, lines, [])


def test_a_running_head_below_a_wide_top_margin_is_furniture_and_its_page_number_the_label():
    pages = [_book_page(n, head="CHAPTER 2. INSTALLATION AND SET-UP") for n in range(8, 13)]
    furniture = find_furniture(pages, 10.0)
    for page in pages:
        kept, label = strip_furniture(page, furniture)
        assert all(l.text == BODY for l in kept) and label == str(page.number)


def test_a_running_head_naming_each_pages_section_is_furniture_by_the_page_number_on_its_row():
    # each page's head names another section (too few pages each for a head that repeats), its printed number (one
    # less than the page's place) a line of its own at the row's outer end; one page is a figure of many small labels
    def page(n):
        head = [line(f"4.{n}. THE EDITOR OF KIND {n}", 107, 104, x1=330), line(str(n - 1), 490, 104, x1=504)]
        if n == 6:
            body = [line(f"label {k}", 107 + 40 * (k % 8), 150 + 12 * (k // 8), size=7, x1=140 + 40 * (k % 8))
                    for k in range(24)] + [line(BODY, 107, 400 + 14 * k, x1=504) for k in range(3)]
        else:
            body = [line(BODY, 107, 140 + 14 * k, x1=504) for k in range(30)]
        return PageLayout(n, 612, 792, head + body, [])
    pages = [page(n) for n in range(2, 9)]
    furniture = find_furniture(pages, 10.0)
    for page_ in pages:
        kept, label = strip_furniture(page_, furniture)
        assert not any("EDITOR" in l.text for l in kept) and label == str(page_.number - 1)
    # a number on a row of the text (a table's last column) is no page number: the row stays
    fruit = ["apples", "pears", "plums", "figs", "limes", "dates", "kiwis"]
    rows = [PageLayout(n, 612, 792, [line(f"Total of {fruit[n - 2]}", 107, 104, x1=200),
                                     line(str(7 * n), 490, 104, x1=504)]
                       + [line(BODY, 107, 140 + 14 * k, x1=504) for k in range(30)], []) for n in range(2, 9)]
    furniture = find_furniture(rows, 10.0)
    assert all(f"Total of {fruit[n - 2]}" in [l.text for l in strip_furniture(rows[n - 2], furniture)[0]]
               for n in range(2, 9))


def test_a_heading_atop_a_page_or_a_chart_axis_at_its_foot_stays_though_set_apart():
    heading = line("Hilbert-Packing", 107, 104, bold=True, x1=190)
    axis = [line(t, 107 + 60 * k, 700, x1=120 + 60 * k) for k, t in enumerate(["0", "0.25", "0.5"])]
    pages = [_book_page(1, top=line("4.2 Hilbert-Packing", 107, 90, size=14, bold=True, x1=300))]
    pages += [_book_page(n, top=heading if n == 3 else None, bottom=axis if n == 3 else None) for n in range(2, 6)]
    furniture = find_furniture(pages, 10.0)
    kept, label = strip_furniture(pages[2], furniture)
    texts = [l.text for l in kept]
    assert "Hilbert-Packing" in texts and ["0", "0.25", "0.5"] == [t for t in texts if t[0].isdigit()]
    assert label is None


def _chart_page(n, head=True):
    """A page of a feature chart printed from a word processor without running heads: the table's head repeats at
    the top of every page (a row starting in the top margin), its rows' cells flush left under the head's."""
    lines = [line("Feature Name", 60, 70, size=9, x1=119), line("Feature ID", 173, 70, size=9, x1=217),
             line("Feature Setting (top-most", 224, 70, size=9, x1=330), line("Example", 339, 70, size=9, x1=376),
             line("in each section is default)", 224, 80, size=9, x1=325)] if head else []
    for k in range(8):
        base = 110 + 30 * k
        lines += [line(f"Letter {n}-{k}", 60, base, size=9, x1=130), line(f"cv{n}{k}", 173, base, size=9, x1=190),
                  line("0=Standard", 224, base, size=9, x1=270), line("1=Alternate", 224, base + 10, size=9, x1=270)]
    lines.append(line(f"Page {n}", 300, 590, size=9, x1=330))
    return PageLayout(n, 792, 612, lines, [])


def test_a_tables_head_repeated_atop_every_page_is_the_tables_not_a_running_header():
    pages = [_chart_page(n) for n in range(1, 7)]
    assert column_heads(pages[0]) == {id(l) for l in pages[0].lines[:4]}
    furniture = find_furniture(pages, 9.0)
    kept, _ = strip_furniture(pages[2], furniture)
    assert [l.text for l in kept[:4]] == ["Feature Name", "Feature ID", "Feature Setting (top-most", "Example"]
    assert "Page 3" not in [l.text for l in kept]


def test_a_running_header_in_three_parts_over_running_text_is_still_furniture():
    def page(n):
        head = [line("Annual Survey", 72, 50, x1=150), line("Chapter 2", 280, 50, x1=330),
                line(str(n), 520, 50, x1=532)]
        return PageLayout(n, 612, 792, head + [line(BODY, 72, 100 + 12 * k, x1=540) for k in range(30)], [])
    pages = [page(n) for n in range(1, 6)]
    assert column_heads(pages[0]) == set()
    kept, _ = strip_furniture(pages[1], find_furniture(pages, 10.0))
    assert all(l.text == BODY for l in kept)


def test_a_small_bold_title_over_the_steps_of_a_slide_is_no_running_header():
    # a deck (landscape) shows a slide in steps: each page repeats the one before and adds a line; the title atop them
    # is set bold and smaller than the text, in the top margin, like a chapter's running head
    steps = ["A slide can be shown in steps.", "Each step repeats the one before.", "The last step shows it all."]

    def slide(n, shown, *, bold=True, portrait=False, title="Slides Step by Step", body=steps):
        lines = [line(title, 100, 14, size=8.0, bold=bold)]
        lines += [line(text, 20, 50 + 16 * k, size=12.0) for k, text in enumerate(body[:shown])]
        return PageLayout(n, 255.0 if portrait else 340.0, 340.0 if portrait else 255.0, lines, [])

    def titles_left(first_three, **kind):
        # … among seventeen other slides, each with a title of its own (a title on most pages would be furniture)
        pages = first_three + [slide(n, 3, title=f"Topic {n}", body=[f"Slide {n} says {w}." for w in ("a", "b", "c")],
                                     **kind) for n in range(4, 21)]
        furniture = find_furniture(pages, 12.0)
        return [any(l.text == "Slides Step by Step" for l in strip_furniture(page, furniture)[0])
                for page in pages[:3]]

    assert titles_left([slide(n, n) for n in (1, 2, 3)]) == [True, True, True]
    # a navigation bar's section name, in plain type, is furniture over the steps of one slide too
    assert titles_left([slide(n, n, bold=False) for n in (1, 2, 3)]) == [False, False, False]
    # over three slides that differ, it heads them all: a running header
    others = [[f"Slide {n} says {word}." for word in ("one", "two", "three")] for n in (1, 2, 3)]
    assert titles_left([slide(n, 3, body=others[n - 1]) for n in (1, 2, 3)]) == [False, False, False]
    # portrait pages repeating the one before (an example printed twice) are pages of their own
    assert titles_left([slide(n, n, portrait=True) for n in (1, 2, 3)], portrait=True) == [False, False, False]
