"""Rules found on blind set 12 (word processor manuals, FrameMaker release notes and a user's manual with a
watermark, a LaTeX design document), each on synthetic lines or a PDF built here."""

from __future__ import annotations

import pymupdf

from engine.readers.layout import PageLayout
from engine.readers.offline import OfflineReader, compose
from engine.readers.ruled import Grid
from tests.readers.test_heading_rules import BODY, heading_titles, headings, line, prose


def _watermarked_pdf(path, pages, slant=45):
    doc = pymupdf.open()
    for n in range(1, pages + 1):
        page = doc.new_page(width=595, height=793)
        page.insert_text((72, 90), f"{n} Section Number {n}", fontsize=16, fontname="hebo")
        for k in range(20):
            page.insert_text((72, 120 + 14 * k), BODY, fontsize=10, fontname="helv")
        page.insert_text((72, 520), "For example:", fontsize=10, fontname="helv")  # (a row inside the watermark's box)
        # the publisher's name set large and aslant across the middle of every page
        page.insert_text((175, 600), "Acme Widgets", fontsize=50, fontname="hebo",
                         morph=(pymupdf.Point(175, 600), pymupdf.Matrix(slant)))
    doc.save(path)


def test_a_text_set_aslant_across_every_page_is_a_watermark_not_a_heading(tmp_path):
    path = tmp_path / "watermarked.pdf"
    _watermarked_pdf(path, 5)
    markdown = OfflineReader().read(path).markdown
    assert "Acme Widgets" not in markdown
    assert "For example:" in markdown
    assert all(f"Section Number {n}" in markdown for n in range(1, 6))


def test_a_text_set_aslant_on_one_page_only_is_kept(tmp_path):
    path = tmp_path / "stamped.pdf"
    _watermarked_pdf(path, 5)
    doc = pymupdf.open(path)
    out = pymupdf.open()
    out.insert_pdf(doc, from_page=0, to_page=0)
    for n in range(2, 6):  # (the other pages without it)
        page = out.new_page(width=595, height=793)
        page.insert_text((72, 90), f"{n} Section Number {n}", fontsize=16, fontname="hebo")
        for k in range(20):
            page.insert_text((72, 120 + 14 * k), BODY, fontsize=10, fontname="helv")
    single = tmp_path / "single.pdf"
    out.save(single)
    assert "Acme Widgets" in OfflineReader().read(single).markdown


def _release_notes():
    # a ten-page release note with no contents page: its title on page 1, the publisher's address on page 2, the
    # first chapter "1 Overview" (24 pt bold) opening page 3 with its sections (14 pt bold) there only, the other
    # chapters opening the pages after
    pages = [PageLayout(1, 595, 793, [line("Release Notes", 72, 200, size=12, bold=True),
                                      line("Widget Manager", 72, 240, size=24)], [])]
    pages.append(PageLayout(2, 595, 793, [line("Copyright 2004 Widget Makers Inc.", 72, 100),
                                          line("Document Number: 2277", 72, 120),
                                          line("2900 Long Way, Santa Clara, CA", 72, 140)], []))
    lines = [line("1 Overview", 72, 90, size=24, bold=True)] + prose(120, 4)
    for k, title in enumerate(("1.1 New Features", "1.2 Software Dependencies", "1.3 Supported Platforms")):
        lines += [line(title, 72, 200 + 100 * k, size=14, bold=True)] + prose(220 + 100 * k, 4)
    pages.append(PageLayout(3, 595, 793, lines, []))
    for n in range(4, 11):
        lines = ([line(f"{n - 2} Chapter Number {n - 2}", 72, 90, size=24, bold=True)] if n % 2 == 0 else []) \
            + prose(120, 30)
        pages.append(PageLayout(n, 595, 793, lines, []))
    return pages


def test_the_title_block_ends_before_the_page_that_opens_with_the_first_chapter():
    found = dict(headings(compose(_release_notes())))
    assert found.get("1.1 New Features") == found.get("1.3 Supported Platforms") == found["1 Overview"] + 1
    assert "Document Number: 2277" not in found and not any(t.startswith("2900") for t in found)


def test_a_first_chapter_heading_in_a_style_used_nowhere_after_the_title_block_does_not_end_it():
    pages = _release_notes()
    for page in pages[3:]:  # (no later chapter in the first chapter's style)
        page.lines[:] = [l for l in page.lines if not l.bold]
    lines = [line("1 Overview", 72, 90, size=24, bold=True)] + prose(120, 4)
    for k, title in enumerate(("1.1 New Features", "1.2 Software Dependencies", "1.3 Supported Platforms")):
        lines += [line(title, 72, 200 + 60 * k, size=14, bold=True), line("See the table.", 72, 220 + 60 * k)]
    pages[2].lines[:] = lines  # (and one passage of text on its page, under the chapter: no page of sections)
    found = dict(headings(compose(pages)))
    assert "1.1 New Features" not in found


def _tabled_page(n, with_lead_in=False):
    # a release note's page: a section heading (14 pt bold), a paragraph at 10 pt, and a ruled table whose
    # 8-point cells hold more characters than the prose
    lines = [line(f"{n} Section Number {n}", 72, 80, size=14, bold=True)] + prose(100, 4)
    top = 160
    if with_lead_in:  # (a plain line at the text's size over the table: no heading)
        lines += [line("Verification tools for every platform", 72, 170)]
        top = 190
    rows = 40
    for k in range(rows):
        y = top + 12 * k + 9
        lines += [line(f"Device model MT{4300 + k} switch", 80, y, size=8, x1=250),
                  line(f"Firmware 5.{k}.0 and every later release", 300, y, size=8, x1=520)]
    grid = Grid(xs=[75.0, 290.0, 530.0], ys=[top + 12.0 * k for k in range(rows + 1)])
    return PageLayout(n, 595, 793, lines, [], grids=[grid])


def test_the_text_size_is_read_from_the_prose_not_the_cells_of_ruled_tables():
    pages = [_tabled_page(n, with_lead_in=n in (3, 4)) for n in range(1, 6)]
    titles = heading_titles(pages)
    assert "Verification tools for every platform" not in titles
    assert all(f"{n} Section Number {n}" in titles for n in range(2, 6))


def test_a_numbered_step_that_exclaims_is_an_item_of_its_list():
    def page(n):
        return PageLayout(n, 612, 792, [line(f"{n} Making an Animation", 72, 80, size=14, bold=True)] + prose(100, 4)
                          + [line("1. Open the morph window.", 90, 170), line("2. Pick the two images.", 90, 190),
                             line("3. Click OK!", 90, 210), line("4. Save the result as a file.", 90, 230)]
                          + prose(260, 6), [])
    titles = heading_titles([page(n) for n in range(1, 6)])
    assert "3. Click OK!" not in titles
    assert "2 Making an Animation" in titles


def test_a_section_numbered_in_levels_that_exclaims_is_still_a_heading():
    def page(n):
        return PageLayout(n, 612, 792, [line(f"H.{n} Frequent Questions", 72, 80, size=14, bold=True)]
                          + prose(100, 4) + [line(f"H.{n}.5 I want it all!", 72, 170, bold=True)] + prose(190, 6), [])
    titles = heading_titles([page(n) for n in range(1, 6)])
    assert "H.3.5 I want it all!" in titles


def _centred(text, base, size=18.0, bold=True):
    width = 0.55 * size * len(text)
    return line(text, 297 - width / 2, base, size=size, bold=bold, x1=297 + width / 2)


def test_two_headings_a_blank_line_apart_and_the_first_short_are_two_headings():
    # a word processor's manual: "Preferences" centred over "General Preferences" a blank line below it (18 pt)
    pages = [PageLayout(n, 595, 842, [_centred(f"Chapter Title Number {n}", 80)] + prose(110, 20, x0=57), [])
             for n in range(1, 5)]
    pages.append(PageLayout(5, 595, 842, prose(80, 6, x0=57) + [_centred("Preferences", 200),
                                                                 _centred("General Preferences", 239)]
                            + prose(270, 10, x0=57), []))
    titles = heading_titles(pages)
    assert "Preferences" in titles and "General Preferences" in titles


def test_a_heading_wrapped_at_its_leading_stays_one():
    pages = [PageLayout(n, 595, 842, [_centred(f"Chapter Title Number {n}", 80)] + prose(110, 20, x0=57), [])
             for n in range(1, 5)]
    first = "Selecting the Options for the Videos and"  # (fills the measure: the next word would not fit)
    pages.append(PageLayout(5, 595, 842, prose(80, 6, x0=57) + [
        line(first, 57, 200, size=18, bold=True, x1=538), line("Their Presets", 57, 222, size=18, bold=True)]
        + prose(250, 10, x0=57), []))
    titles = heading_titles(pages)
    assert f"{first} Their Presets" in titles



def test_a_ruled_frame_that_holds_the_text_keeps_the_texts_size():
    # a brochure: its prose (10 pt) inside a ruled box, small print (6 pt) outside it; a short plain line at the
    # text's size under the box (a name) is no heading
    def page(n):
        lines = [line(f"{n} Section Number {n}", 72, 80, size=14, bold=True)] + prose(110, 20)
        lines += prose(380, 4) + [line("Vice-Chair and Managing Partner", 72, 520)]
        lines += [line("Source: survey of one hundred and twenty banks, spring of that year.", 72, 700 + 8 * k,
                       size=6, x1=300) for k in range(8)]
        return PageLayout(n, 595, 842, lines, [], grids=[Grid(xs=[60.0, 300.0, 550.0], ys=[95.0, 300.0, 460.0])])
    titles = heading_titles([page(n) for n in range(1, 6)])
    assert "Vice-Chair and Managing Partner" not in titles
    assert "3 Section Number 3" in titles


def _instructions(second_page_sections=2):
    # a short form's instructions, no contents page: the title (22 pt bold) on page 1 over its first chapter;
    # sections in capitals at the text's size (11 pt) over their paragraphs on pages 1-3 only; boxes' headings
    # (14 pt bold) on the pages after
    body = "The return is filed by every company that made such operations with a related party during the year."
    def para(top, count=4):
        return [line(body, 72, top + 13 * k, size=11, x1=540) for k in range(count)]
    pages = [PageLayout(1, 595, 842, [line("FORM 232", 72, 80, size=22, bold=True),
                                      line("WHO MUST FILE", 72, 130, size=11)] + para(150), [])]
    lines: list = []
    for k in range(second_page_sections):
        lines += [line(f"FILING RULE NUMBER {k + 1}", 72, 80 + 90 * k, size=11)] + para(100 + 90 * k)
    pages.append(PageLayout(2, 595, 842, lines, []))
    pages.append(PageLayout(3, 595, 842, [line("DEADLINE FOR FILING", 72, 80, size=11)] + para(100), []))
    for n in range(4, 8):
        pages.append(PageLayout(n, 595, 842, [line(f"BOX NUMBER {n} OF THE FORM", 72, 80, size=14, bold=True)]
                                + para(100, 12), []))
    return pages


def test_the_title_block_ends_before_a_page_of_two_sections_over_their_text():
    titles = heading_titles(_instructions())
    assert "FILING RULE NUMBER 1" in titles and "FILING RULE NUMBER 2" in titles
    assert "DEADLINE FOR FILING" in titles


def test_a_page_with_one_passage_under_the_title_stays_in_the_title_block():
    titles = heading_titles(_instructions(second_page_sections=1))
    assert "FILING RULE NUMBER 1" not in titles


def test_a_page_label_left_in_the_text_is_no_heading():
    # a front matter's page label set a little larger than the text, at the foot of its pages above the margin
    pages = _instructions()
    pages[1].lines.append(line("Page ii", 280, 700, size=12.5))
    pages[2].lines.append(line("Page iii", 280, 700, size=12.5))
    titles = heading_titles(pages)
    assert not any(t.startswith("Page i") for t in titles)
    assert "FILING RULE NUMBER 1" in titles


BLUE = 0x0F4761  # a word processor's heading colour


def _changelog(label_colour):
    # Word 365: Heading 1 (20 pt) and Heading 2 (16 pt) in the heading colour, Heading 3 (14 pt) a label ending in a
    # colon over a bulleted list ("Changed Behaviour:"), text at 12 pt in black
    def coloured(text, base, size, colour):
        made = line(text, 72, base, size=size)
        made.color = colour
        return made
    pages = []
    for n, name in enumerate(("Alder", "Birch", "Cedar", "Maple", "Rowan"), start=1):
        top = 80 + 20 * n  # (not in one place on every page: no running header)
        lines = [coloured(f"The {name} Changelog", top, 20, BLUE), coloured(f"New In The {name} Release", top + 30, 16,
                                                                              BLUE),
                 coloured("Changed Behaviour:", top + 60, 14, label_colour)]
        lines += [line(f"• {BODY}", 90, top + 85 + 17 * k, size=12, x1=540) for k in range(4)]
        lines += [coloured("Improvements:", top + 170, 14, label_colour)]
        lines += [line(f"• {BODY}", 90, top + 195 + 17 * k, size=12, x1=540) for k in range(4)]
        lines += [line(BODY, 72, top + 280 + 17 * k, size=12, x1=540) for k in range(12)]
        pages.append(PageLayout(n, 612, 792, lines, []))
    return pages


def test_a_colon_label_set_larger_in_the_headings_colour_is_a_heading():
    found = headings(compose(_changelog(BLUE)))
    labels = [level for title, level in found if title in ("Changed Behaviour:", "Improvements:")]
    assert len(labels) >= 4  # (the title block's pages aside)
    assert min(labels) > dict(found)["The Rowan Changelog"]


def test_a_colon_label_set_larger_in_the_texts_colour_still_leads_on():
    found = dict(headings(compose(_changelog(0))))
    assert "Changed Behaviour:" not in found and "Improvements:" not in found
