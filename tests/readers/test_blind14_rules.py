"""Heading rules found on blind set 14 (a manual whose chapter numbers stand apart from their titles, a word
processor's sub-sections five to a page, colon-ended headings its contents page lists, heading parts a tab apart,
file names in camel case), each on synthetic lines."""

from __future__ import annotations

from engine.readers.layout import PageLayout
from engine.readers.offline import compose
from tests.readers.test_heading_rules import heading_titles, headings, line, prose


def _manual(notes=False):
    # chapters "Introduction", "Installation", ... whose number is set apart (not in the title's text), in the
    # sections' style (17 pt bold); sections numbered "2.1", "2.2" under them
    names = ["Introduction", "Installation", "Getting started", "Going further"]
    pages = [PageLayout(1, 595, 842, [line("A Short Manual For The Editor", 72, 200, size=25, bold=True)], [])]
    for n, name in enumerate(names, start=1):
        lines = [line(name, 300, 120, size=17, bold=True)] + prose(150, 8) \
            + [line(f"{n}.1 First part of {name.lower()}", 72, 270, size=17, bold=True)] + prose(300, 8)
        if notes:  # an unnumbered heading among the numbered sections, where the number does not turn
            lines += [line("Notes on this part", 72, 420, size=17, bold=True)] + prose(450, 4)
        lines += [line(f"{n}.2 Second part of {name.lower()}", 72, 520, size=17, bold=True)] + prose(550, 8)
        pages.append(PageLayout(n + 1, 595, 842, lines, []))
    return pages


def test_an_unnumbered_heading_where_the_numbering_turns_to_k_1_is_chapter_k_above_its_sections():
    levels = dict(headings(compose(_manual())))
    assert levels["Installation"] < levels["2.1 First part of installation"]
    assert levels["Going further"] < levels["4.2 Second part of going further"]
    assert levels["Installation"] == levels["Introduction"]


def test_a_chapters_own_mini_contents_under_its_title_is_no_chapter():
    # the chapter's title set larger ("Installation", 20 pt), then "Summary of this chapter" in the sections' style
    # right before "2.1": the chapter is the larger heading, the summary stays beside the sections
    pages = _manual()
    for page in pages[1:]:
        page.lines[0].size = 20
        page.lines[1:1] = [line("Summary of this chapter", 72, 140, size=17, bold=True)]
    levels = dict(headings(compose(pages)))
    assert levels["Summary of this chapter"] == levels["2.1 First part of installation"]


def test_an_unnumbered_heading_among_sections_of_one_number_stays_beside_them():
    levels = dict(headings(compose(_manual(notes=True))))
    assert levels["Notes on this part"] == levels["2.1 First part of installation"]


SANS = "DejaVuSans-Bold"


def _five_on_a_page(elsewhere=True, names=("The file description", "The files of the manifest", "The folder template",
                                           "The folder config", "The file of options")):
    # a word processor's sub-section style (11 pt bold in a sans face over 10 pt text in a serif face): two to a
    # page over prose on pages 1-4, five on page 5, each over a few lines (one over a single short line)
    pages = []
    for n in range(1, 5):
        lines = [line(f"Chapter title {n}", 72, 60, size=16, bold=True)] + prose(80, 6)
        if elsewhere:
            lines += [line(f"Options for part {n}", 72, 170, size=11, bold=True, face=SANS)] + prose(190, 6) \
                + [line(f"More options for part {n}", 72, 290, size=11, bold=True, face=SANS)] + prose(310, 6)
        pages.append(PageLayout(n, 595, 842, lines, []))
    lines = []
    for k, name in enumerate(names):
        top = 80 + 120 * k
        lines += [line(name, 72, top, size=11, bold=True, face=SANS)]
        lines += [line("These files should be left unchanged.", 72, top + 16)] if k == 1 else prose(top + 16, 3)
    pages.append(PageLayout(5, 595, 842, lines, []))
    return pages


def test_a_style_that_heads_sections_on_other_pages_is_no_list_of_labels_where_five_stand_on_one_page():
    titles = heading_titles(_five_on_a_page())
    assert {"The file description", "The files of the manifest", "The folder config"} <= set(titles)


def test_five_bold_labels_of_a_style_found_nowhere_else_stay_a_list():
    titles = heading_titles(_five_on_a_page(elsewhere=False))
    assert "The folder config" not in titles


def test_terms_in_alphabetical_order_stay_a_glossarys_list_though_their_style_heads_sections_elsewhere():
    terms = ("Ball nut", "Coordinate machine", "Display units", "Feed rate", "Lead screw")
    titles = heading_titles(_five_on_a_page(names=terms))
    assert "Display units" not in titles


def _colon_headed(listed=True):
    # a contents page titled "Index" (a word processor's table of contents under another word), then pages whose
    # 12 pt bold headings end in a colon ("DEMO FILES :", "Effects :") over 10 pt text
    entries = ["Using the board", "Measures", "Compilation options", "Scanner", "Counters"]
    if listed:
        entries += ["DEMO FILES :", "Effects :"]
    contents = [line("Index", 72, 60, size=16, bold=True)] + [
        line(f"{title}{'.' * 40}{k + 2}", 72, 90 + 16 * k, x1=520) for k, title in enumerate(entries)]
    pages = [PageLayout(1, 595, 842, contents, [])]
    for n in range(2, 5):
        pages.append(PageLayout(n, 595, 842, [line(f"Section number {n}", 72, 60, size=14, bold=True)]
                                + prose(80, 10), []))
    pages.append(PageLayout(5, 595, 842, [line("DEMO FILES :", 72, 60, size=12, bold=True)] + prose(80, 6)
                            + [line("Effects :", 72, 200, size=12, bold=True)] + prose(220, 6), []))
    return pages


def test_a_colon_ended_line_that_the_contents_page_lists_is_a_heading():
    titles = heading_titles(_colon_headed())
    assert "DEMO FILES :" in titles and "Effects :" in titles


def test_a_colon_ended_label_of_two_words_the_contents_page_does_not_list_leads_on():
    titles = heading_titles(_colon_headed(listed=False))
    assert "Effects :" not in titles


def _tabbed(second_x0=199.0):
    # headings whose two parts a tab sets apart on one row ("AdditiveSynth.dsp" | "78% CPU (6 voices)"), 14 pt
    # bold in the headings' face over 10 pt text
    pages = []
    for n in range(1, 4):
        lines = [line(f"Synthesizer{n}.dsp", 57, 80, size=14, bold=True, x1=170, face="Arial-BoldMT"),
                 line(f"{60 + n}% CPU (8 voices, with FX)", second_x0, 80, size=14, bold=True,
                      x1=second_x0 + 190, face="Arial-BoldMT")] + prose(110, 12)
        pages.append(PageLayout(n, 595, 842, lines, []))
    return pages


def test_two_parts_of_a_heading_a_tab_apart_on_one_row_are_one_heading():
    titles = heading_titles(_tabbed())
    assert "Synthesizer2.dsp 62% CPU (8 voices, with FX)" in titles


def test_a_second_part_begun_in_the_right_half_of_the_page_is_not_joined():
    titles = heading_titles(_tabbed(second_x0=310.0))
    assert "Synthesizer2.dsp 62% CPU (8 voices, with FX)" not in titles


def test_a_file_name_in_camel_case_set_larger_in_bold_is_a_heading():
    pages = [PageLayout(n, 595, 842, [line(f"Section number {n}", 72, 60, size=16, bold=True)] + prose(80, 8)
                        + [line(f"simpleFX{n}.dsp", 72, 200, size=14, bold=True)] + prose(220, 8), [])
             for n in range(1, 5)]
    titles = heading_titles(pages)
    assert "simpleFX2.dsp" in titles


def test_a_covers_field_names_beside_values_centred_on_one_axis_stay_apart():
    # a thesis cover: field names at one left edge, each value centred on one axis further right, 14 pt over 10 pt
    # text on the pages after it; the rows are a table's, not headings a tab apart
    fields = [("School", "Information Faculty"), ("Major", "Computer Science"), ("Advisor", "Professor Lee")]
    cover = [line("Bachelor Thesis", 150, 200, size=28)]
    for k, (name, value) in enumerate(fields):
        width = 6.0 * len(value)
        cover += [line(name, 154, 510 + 31 * k, size=14, x1=224, face="SimSun"),
                  line(value, 343 - width / 2, 510 + 31 * k, size=14, x1=343 + width / 2, face="SimSun")]
    pages = [PageLayout(1, 595, 842, cover, [])] + [PageLayout(n, 595, 842, prose(80, 30), []) for n in (2, 3)]
    text = compose(pages).markdown
    assert "Major Computer Science" not in text and "Computer Science" in text
