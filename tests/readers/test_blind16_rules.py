"""Reader rules found on blind set 16 (an API reference whose pages are headed by function names in camel case; a
book whose running heads carry the page number; a chapter label over two lines; a guideline's repeated page titles
and page codes; a book set in STIX Two Text), on synthetic lines."""

from __future__ import annotations

from engine.readers.layout import PageLayout
from engine.readers.offline import compose
from tests.readers.test_heading_rules import BODY, heading_titles, headings, line, prose

NAMES = ["spssGetVarCount", "spssSetVarName", "spssOpenRead", "spssCloseWrite"]


def _reference(names: list[str]):
    # a reference chapter: each page headed by a name set large in bold, over prose and a "Description" label
    pages = [PageLayout(1, 595, 842, [line("Procedure reference", 72, 60, size=20, bold=True)] + prose(90, 10), [])]
    for n, name in enumerate(names, start=2):
        lines = [line(name, 72, 60, size=16, bold=True)] + prose(90, 4) \
            + [line("Description", 72, 200, size=11, bold=True)] + prose(220, 6)
        pages.append(PageLayout(n, 595, 842, lines, []))
    return pages


def test_a_function_name_in_camel_case_set_large_heads_its_page():
    titles = heading_titles(_reference(NAMES))
    assert set(NAMES) <= set(titles), titles


def test_a_large_line_of_lower_case_words_is_no_heading():
    # a large bold line of ordinary lower-case words opens no heading by this rule
    titles = heading_titles(_reference([f"see the table on page {n}" for n in range(4)]))
    assert not any(t.startswith("see the table") for t in titles)

SECTIONS = ["1.1 Define the Measurand", "1.2 Calibration Modes", "1.3 External Calibration", "1.4 Internal Methods"]


def _book(numbered=True):
    # a book's pages 1-8 printed as pages 11-18: each section opens on a right-hand (odd) page with its heading and
    # runs on over the next page; the right-hand running head is the section's title and the page number, the
    # left-hand one the page number and the chapter's title (8 pt italic in the top margin, over 9.5 pt text)
    pages = []
    for n in range(1, 9):
        printed = n + 10
        section = SECTIONS[(n - 1) // 2]
        if n % 2:
            head = [line(f"{section} {printed}" if numbered else section, 300, 58, size=8, italic=True, x1=417)]
            body = [line(section, 68, 95, size=12.5, bold=True)] + prose(120, 30, x0=68)
        else:
            head = [line(f"{printed} 1 Quantification" if numbered else "1 Quantification", 64, 58, size=8,
                         italic=True)]
            body = prose(80, 32, x0=68)
        pages.append(PageLayout(n, 482, 692, head + body, []))
    return pages


def test_running_heads_that_carry_the_page_number_are_furniture_though_their_text_changes_every_section():
    result = compose(_book())
    titles = [t for t, _ in headings(result)]
    assert titles.count("1.2 Calibration Modes") == 1, titles  # (the section's own heading, not its running head)
    assert not any(t.endswith(("13", "15", "Quantification")) for t in titles), titles
    assert "Quantification" not in result.markdown and "1.3 External Calibration 15" not in result.markdown


def test_a_margin_line_whose_end_number_does_not_run_with_the_pages_stays():
    # the same top line on every page ending in a number that does not follow the page ("Edition 2"): not this rule
    # (it repeats the same text, so it is furniture by the older rule), and a heading line in the text ending in a
    # number that happens to run with the pages stays a heading: it is no margin line
    pages = _book()
    for n, page in enumerate(pages, start=1):
        page.lines.insert(1, line(f"Step {n + 10} of the method", 68, 80 if n % 2 == 0 else 160, size=12.5,
                                  bold=True))
    titles = heading_titles(pages)
    assert sum(t.startswith("Step ") for t in titles) == 8, titles


def test_pages_codes_of_a_numbering_by_part_are_furniture():
    # a guideline's pages each end with a code in bold ("PAP-1", "PAP-2", ... then "FOLL-1", ...: a numbering by
    # part, each part's code on too few pages to repeat) in the bottom right corner, beside the footer line, right
    # under the last lines of text
    parts = ["PAP", "FOLL", "HURT", "MEDU", "ANAP"]
    pages = []
    for n in range(1, 21):
        part, k = divmod(n - 1, 4)
        lines = [line(f"Carcinoma of kind {part + 1}", 40, 60, size=18, bold=True)] if k == 0 else []
        lines += prose(90, 36, x0=40) + [line(f"{parts[part]}\u2011{k + 1}", 736, 560, size=11, bold=True, x1=768),
                                         line("Version 2.2020 printed for personal use only", 40, 562, size=6)]
        pages.append(PageLayout(n, 792, 612, lines, []))
    result = compose(pages)
    assert [t for t, _ in headings(result)] == [f"Carcinoma of kind {k}" for k in range(1, 6)]
    assert "FOLL\u20113" not in result.markdown


def test_a_chapter_label_over_two_lines_is_no_heading_of_its_own():
    # "Chapter" (14 pt italic) over a large "1" (42 pt) at the right, the title (28 pt bold) under them at the left,
    # its top above the number's box's bottom
    # (each chapter runs over six pages: the label line is on too few pages to be a running head)
    pages: list[PageLayout] = []
    for n, name in enumerate(["Introduction", "Using the module", "Coding your program"], start=1):
        label = line("Chapter", 488, 77, size=14, italic=True, x1=537)
        number = line(str(n), 500, 112, size=42, x1=529)
        number.y1 = 122  # (a large digit's box reaches below its baseline)
        title = line(name, 76, 140, size=28, bold=True)
        lines = [label, number, title] + prose(180, 10, x0=124) \
            + [line(f"{n}.1 First part", 76, 320, size=14, bold=True)] + prose(340, 10, x0=124)
        pages.append(PageLayout(len(pages) + 1, 612, 792, lines, []))
        pages += [PageLayout(len(pages) + 1 + k, 612, 792, prose(80, 50, x0=124), []) for k in range(5)]
    titles = heading_titles(pages)
    assert "Chapter" not in titles and "1" not in titles, titles
    assert {"Introduction", "Using the module", "Coding your program"} <= set(titles), titles


def test_a_pages_title_repeated_atop_the_next_pages_heads_the_first_of_them_only():
    # landscape pages of a guideline: each section's title (18 pt bold) atop each of its pages, in one place
    kinds = ["papillary", "follicular", "medullary"]
    pages = [PageLayout(n, 792, 612, [line(f"Thyroid carcinoma - {kinds[(n - 1) // 3]} carcinoma", 186, 60, size=18,
                                           bold=True)] + prose(100, 30, x0=40), []) for n in range(1, 10)]
    assert heading_titles(pages) == [f"Thyroid carcinoma - {kind} carcinoma" for kind in kinds]


def test_a_heading_atop_two_pages_in_different_places_stays_on_both():
    # the same title atop two pages, the second set lower down: two sections, not a repeated page title
    pages = [PageLayout(1, 792, 612, [line("A Survey Of Rivers", 72, 200, size=24, bold=True)], [])]
    pages += [PageLayout(n, 792, 612, [line("Summary of results", 72, top, size=18, bold=True)]
                         + prose(top + 40, 20, x0=72), []) for n, top in ((2, 60), (3, 120))]
    assert heading_titles(pages).count("Summary of results") == 2


def test_text_set_in_stix_two_text_is_prose_and_stix_math_a_formula():
    lines = [line(BODY, 72, 100 + 12 * k, x1=540, face="STIXTwoText") for k in range(6)] \
        + [line("E = m c 2 + x", 200, 200, x1=300, face="STIXTwoMath")]
    kinds = [b.kind for page in compose([PageLayout(1, 612, 792, lines, [])]).blocks for b in page.blocks]
    assert kinds[0] == "paragraph" and "formula" in kinds, kinds


def test_a_label_word_with_a_page_number_on_its_row_is_no_label_over_the_next_heading():
    # headings listed with their page numbers on their rows ("Appendix ... 52" over "Style guide ... 53"): the
    # number beside "Appendix" is no chapter number over two lines, so "Appendix" stays a heading
    pages = [PageLayout(1, 612, 792, [line("A Live Manual", 72, 90, size=24, bold=True)] + prose(120, 8), [])]
    lines = []
    for k, (name, number) in enumerate([("Examples", "47"), ("Appendix", "52"), ("Style guide", "53")]):
        lines += [line(name, 72, 100 + 30 * k, size=16, bold=True), line(number, 520, 100 + 30 * k, size=16)]
    pages.append(PageLayout(2, 612, 792, lines + prose(220, 10), []))
    assert "Appendix" in heading_titles(pages)


def test_a_stamp_set_aslant_across_a_cover_is_no_heading_but_stays_in_the_text():
    # a cover: the title set large, and "EARLY ACCESS" stamped across it at an angle, larger still
    stamp = line("EARLY ACCESS", 200, 500, size=60)
    stamp.slanted = True
    cover = PageLayout(1, 595, 842, [line("Rust for Rustaceans", 72, 200, size=40, bold=True), stamp], [])
    body = PageLayout(2, 595, 842, [line("Foundations", 72, 80, size=20, bold=True)] + prose(110, 20), [])
    result = compose([cover, body])
    titles = [t for t, _ in headings(result)]
    assert "EARLY ACCESS" not in titles and "Foundations" in titles, titles
    assert "EARLY ACCESS" in result.markdown
