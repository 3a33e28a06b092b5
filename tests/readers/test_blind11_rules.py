"""Heading rules found on blind set 11 (a two-column guideline laid out in a page-layout program, a short word
processor report, DocBook and pandoc manuals), each on synthetic lines."""

from __future__ import annotations

from engine.readers.layout import PageLayout
from engine.readers.offline import compose
from tests.readers.test_heading_rules import heading_titles, headings, line, prose


def _stacked_header_pages(count):
    # a landscape page (612 high, top margin 61 pt) whose running header is set large over two lines: the first
    # ends inside the top margin, the second starts in it and reaches below it; a section's heading (13 pt bold)
    # and its text under the header
    pages = []
    for n in range(1, count + 1):
        lines = [line("Clinical Guidelines Version 2", 188, 42, size=18, bold=True),
                 line("Disease of the Gland", 188, 63, size=18, bold=True),
                 line(f"Section Number {n} Of The Text", 24, 100, size=13, bold=True), *prose(115, 20, x0=24)]
        pages.append(PageLayout(n, 792, 612, lines, []))
    return pages


def test_a_running_header_stacked_over_two_large_lines_is_furniture_on_every_page():
    found = headings(compose(_stacked_header_pages(6)))
    titles = [t for t, _ in found]
    assert "Disease of the Gland" not in titles  # (it started in the margin and reached below it: kept, a heading
    # over each page's sections)
    assert all(f"Section Number {n} Of The Text" in titles for n in range(1, 7))
    levels = {lvl for t, lvl in found[1:] if t.startswith("Section Number")}  # (the first is taken as the title)
    assert len(levels) == 1


def test_a_large_line_at_the_top_of_a_few_pages_only_is_no_running_header():
    # the same heading at the top of two pages of six is a heading, not furniture
    pages = _stacked_header_pages(6)
    for page in pages:
        page.lines[:] = page.lines[2:]
    for n in (1, 4):
        pages[n].lines.insert(0, line("Disease of the Gland", 188, 63, size=18, bold=True))
    titles = heading_titles(pages)
    assert titles.count("Disease of the Gland") == 2


def _front():
    return [PageLayout(n, 612, 792, prose(100, 30), []) for n in (1, 2, 3)]  # (the title block's pages)


def test_a_larger_heading_that_ends_in_a_colon_right_over_a_smaller_heading_is_a_heading():
    # a word processor's Heading 1 "Structure Examples:" (20 pt) right over its Heading 2 "List Examples:" (16 pt)
    # right over "Numbered:" (14 pt) and a list, text at 10 pt: a section whose first part is a section of its
    # own is no label that leads into its text; "Numbered:" over the list's items still leads on
    def page(n):
        return PageLayout(n, 612, 792, [line(f"Section Title Number {n}", 72, 80, size=20)] + prose(100, 4) + [
            line(f"Release Notes {n}", 72, 170, size=16)] + prose(190, 6) + [
            line(f"Structure Examples {n}:", 72, 280, size=20), line(f"List Examples {n}:", 72, 312, size=16),
            line("Numbered:", 72, 336, size=14), line("1. The first item of the numbered list.", 90, 356),
            line("2. The second item of the numbered list.", 90, 370)] + prose(390, 8), [])
    found = dict(headings(compose(_front() + [page(n) for n in (4, 5)])))
    assert found.get("Structure Examples 4:") == found.get("Section Title Number 4")
    assert found.get("List Examples 5:") == found["Structure Examples 5:"] + 1
    assert "Numbered:" not in found


def test_a_bold_heading_under_a_section_number_that_ends_in_a_colon_is_a_heading():
    # DocBook sets a sub-sub-section "9.1.4 Playing skill:" in bold at the text's size over its paragraph; a
    # clause "9.1.5 The program shall:" in the text's weight still leads into its list
    def page(n):
        return PageLayout(n, 612, 792, [line(f"9.{n} Evaluation Settings", 72, 80, size=12, bold=True)] + prose(100, 4)
                          + [line(f"9.{n}.4 Playing skill:", 72, 160, bold=True)] + prose(175, 4)
                          + [line(f"9.{n}.5 The program shall:", 72, 235)] + prose(250, 4), [])
    found = dict(headings(compose(_front() + [page(n) for n in (4, 5)])))
    assert "9.4.4 Playing skill:" in found and "9.5.4 Playing skill:" in found
    assert found["9.4.4 Playing skill:"] > found["9.4 Evaluation Settings"]
    assert not any("shall" in t for t in found)


def _reference_page(n):
    # a two-column reference list (11 pt): the left column's last entry breaks after its first line, which stands
    # alone at the column's foot, numbered and in title case; its second line opens the right column
    left = [line("References", 24, 80, size=13, bold=True)]
    for k in range(12):
        y = 100 + 36 * k
        left += [line(f"{n * 20 + k}. Noone AM, Howlader N, Krapcho M, et al. Statistics Review of the Year,", 24, y,
                      x1=369, size=11),
                 line("based on the data submission, posted to the web site. Bethesda: Institute; 2018.", 24, y + 14,
                      x1=369, size=11)]
    left.append(line(f"{n * 20 + 12}. Siegel RL, Miller KD, Jemal A. Cancer Statistics, 2018. CA Cancer J", 24, 540,
                     x1=369, size=11))
    right = [line("Clin 2018;68:7-30. Available at the journal's own web site for all.", 405, 100, x1=750, size=11)]
    for k in range(12):
        y = 120 + 36 * k
        right += [line(f"{n * 20 + 13 + k}. Amin MB, Edge SB, Greene F, et al., eds. Staging Manual, 8th ed.", 405, y,
                       x1=750, size=11),
                  line("New York: Springer International Publishing; 2017 for the committee.", 405, y + 14, x1=750,
                       size=11)]
    return PageLayout(n, 792, 612, left + right, [])


def test_a_numbered_reference_entry_alone_at_a_columns_foot_is_no_heading():
    front = [PageLayout(n, 792, 612, prose(100, 30), []) for n in (1, 2, 3)]
    titles = heading_titles(front + [_reference_page(4), _reference_page(5)])
    assert "References" in titles
    assert not any("Siegel" in t for t in titles)


def test_the_label_of_admonition_boxes_is_no_section_but_a_section_so_named_once_is():
    # DocBook sets each admonition's label ("Tip", 12 pt bold) over its text; a dozen tips became sections of
    # their own. A word that names a kind of note heading three or more boxes labels them; "Warning" once stays
    def page(n):
        lines = [line(f"{n}.1 Section Of The Manual", 72, 80, size=14, bold=True)] + prose(100, 6) \
            + [line("Tip", 100, 190, size=12, bold=True),
               line("You can also play the game with a full-screen board and dice.", 100, 206, x1=500)] + prose(230, 6)
        if n == 6:
            lines += [line("Warning", 72, 320, size=12, bold=True)] + prose(340, 6)
        return PageLayout(n, 612, 792, lines, [])
    titles = heading_titles(_front() + [page(n) for n in range(4, 9)])
    assert "4.1 Section Of The Manual" in titles
    assert "Tip" not in titles
    assert "Warning" in titles


def test_a_long_bold_question_numbered_as_a_section_is_a_heading():
    # a manual's FAQ numbers each question as a sub-section and sets it in bold at the text's size; one of twelve
    # words or more ending in "?" was taken for a quoted sentence
    def page(n):
        return PageLayout(n, 612, 792, [line(f"11.{n} Playing The Game", 72, 80, size=12, bold=True)] + prose(100, 4)
                          + [line(f"11.{n}.1 What is the difference between a new game and a new match or session?",
                                  72, 160, bold=True)] + prose(175, 6), [])
    found = dict(headings(compose(_front() + [page(n) for n in (4, 5)])))
    question = "11.4.1 What is the difference between a new game and a new match or session?"
    assert found.get(question) == found["11.4 Playing The Game"] + 1
