"""Heading rules found on blind sets 18 and 19 (a reference's sections that go on counting over a page of short
entries, a running head that repeats a heading set in the margin's band, a section number's stops counted as
symbols, command names as headings, accents and names read back whole), each on synthetic lines."""

from __future__ import annotations

from engine.extract.titles import strip_markup
from engine.readers.accents import compose_accents
from engine.readers.furniture import find_furniture, strip_furniture
from engine.readers.headings import _text_ok
from engine.readers.layout import PageLayout
from tests.readers.test_heading_rules import BODY, heading_titles, line, prose


def _reference(per_page: list[int]) -> list[PageLayout]:
    """A library's reference: routines numbered "1.2.N" (bold, a little larger than the 11 pt text), each over a
    bold "Synopsis" label and its line of code, and a bold "Description" label over two lines of text; `per_page`
    routines a page."""
    pages, n = [], 1
    for number, count in enumerate(per_page, start=1):
        lines, top = [], 80.0
        if number == 1:
            lines.append(line("1.2 Graph routines", 72, top, size=14.4, bold=True))
            top += 30
        for _ in range(count):
            lines.append(line(f"1.2.{n} glp routine {n} — do thing {n}", 72, top, size=12, bold=True))
            lines.append(line("Synopsis", 72, top + 24, size=11, bold=True))
            lines.append(line(f"void glp_routine_{n}(glp_graph *G);", 72, top + 40, size=11, mono=True))
            lines.append(line("Description", 72, top + 60, size=11, bold=True))
            lines += [line(BODY, 72, top + 76 + 13 * k, size=11, x1=540) for k in range(2)]
            top += 130
            n += 1
        pages.append(PageLayout(number, 612, 792, lines, []))
    return pages


def test_sections_that_go_on_counting_from_the_page_before_are_headings_however_short():
    titles = heading_titles(_reference([3, 4, 2]))
    for n in range(1, 10):
        assert f"1.2.{n} glp routine {n} — do thing {n}" in titles


def test_a_numbered_list_four_to_a_page_that_counts_from_one_is_still_a_list():
    # items "1.1" ... on a page of their own, counting from 1 and continuing no numbering of an earlier page
    pages = [PageLayout(1, 612, 792, [line("Parts of the kit", 72, 80, size=14.4, bold=True)] + prose(110, 6), [])]
    items = [line(f"2.{k} Part number {k}", 90, 100 + 20 * k, size=11, bold=True) for k in range(1, 6)]
    pages.append(PageLayout(2, 612, 792, items + prose(240, 4), []))
    titles = heading_titles(pages)
    assert not any(t.startswith("2.") for t in titles)


def test_a_running_head_repeating_a_heading_set_in_the_margins_band_is_furniture_and_the_heading_stays():
    pages = []
    for n, title in enumerate(["3.7 Git buildpackage", "3.8 HTTP proxy", "3.9 Private repository"], start=1):
        head = f"{title.split()[0]}. {' '.join(title.split()[1:]).upper()}"
        lines = [line("CHAPTER 3. SETTING UP TOOLS", 72, 45, size=10, italic=True),
                 line(head, 420, 45, size=10, italic=True),  # the running head: the section's title again
                 line(title, 72, 80, size=14.3, bold=True)] + prose(110, 30)
        pages.append(PageLayout(n, 595, 842, lines, []))
    furniture = find_furniture(pages, 10.0)
    kept, _ = strip_furniture(pages[1], furniture)
    assert [l.text for l in kept[:1]] == ["3.8 HTTP proxy"]
    assert "3.8 HTTP proxy" in heading_titles(pages)


def test_a_section_numbers_stops_are_not_counted_as_symbols_of_its_title():
    assert _text_ok("3.5.1.5 __code")
    assert _text_ok("2.2.2 RT-11 V5.3")
    assert not _text_ok("3.5 + 1.5 = 5.0 ± 0.2")  # (a formula stays one)


def test_a_title_naming_http_may_head_a_section_but_a_link_never_does():
    assert _text_ok("3.8 HTTP proxy") and _text_ok("HTTP/2 server push")
    assert not _text_ok("Project page https://example.org/docs") and not _text_ok("See www.example.org")


def test_a_commands_name_set_large_in_bold_heads_its_section_though_it_starts_in_lower_case():
    lines = [line("Auxiliary tools", 72, 80, size=14.4, bold=True)] + prose(100, 3) + \
        [line("cd-hit-dup", 72, 170, size=12.9, bold=True, x1=130),
         line("cd-hit-dup is a simple tool for removing duplicates from sequencing reads, with an option", 72, 190,
              size=11, x1=540)] + prose(203, 3)
    assert "cd-hit-dup" in heading_titles([PageLayout(1, 612, 792, lines, [])])


def test_an_acute_accent_set_before_a_words_first_vowel_is_put_on_it():
    assert compose_accents("´Indice general") == "Índice general"
    assert compose_accents("el ´ultimo") == "el último"
    for text in ("it´s", "`as is'", "´ 1", "´s"):
        assert compose_accents(text) == text


def test_underscores_of_a_name_are_kept_when_markup_is_stripped():
    assert strip_markup("##### 3.5.1.5 __code") == "3.5.1.5 __code"
    assert strip_markup("## **Scope** of `__init__`") == "Scope of __init__"


def test_chapters_that_count_up_in_one_size_share_a_level_though_some_titles_are_names_in_capitals():
    pages = []
    for n, title in enumerate(["Alpha systems", "PDP-11", "Gamma notes", "PDP-9/PDP-15", "Delta tapes"], start=1):
        lines = [line(f"{n} {title}", 72, 80, size=16, bold=True),
                 line(f"{n}.1 First steps", 72, 110, size=14, bold=True, italic=True)] + prose(130, 8) + \
            [line(f"{n}.2 Further steps", 72, 250, size=14, bold=True, italic=True)] + prose(270, 8)
        pages.append(PageLayout(n, 612, 792, lines, []))
    from engine.readers.offline import compose
    from tests.readers.test_heading_rules import headings

    levels = dict(headings(compose(pages)))
    assert len({levels[f"{n} {t}"] for n, t in enumerate(
        ["Alpha systems", "PDP-11", "Gamma notes", "PDP-9/PDP-15", "Delta tapes"], start=1)}) == 1
    assert levels["2.1 First steps"] == levels["1 Alpha systems"] + 1


def test_a_bold_heading_whose_last_words_are_bold_italic_is_one_heading_not_a_run_in_label():
    from engine.readers.layout import Line, _fragment

    spans = [{"text": "3.8.1.2 Common interrupt pitfall: ", "font": "Times-Bold", "size": 10.0, "flags": 16,
              "bbox": (72, 100, 230, 110)},
             {"text": "non-atomic access", "font": "Times-BoldItalic", "size": 10.0, "flags": 18,
              "bbox": (230, 100, 320, 110)}]
    read = _fragment({"spans": spans, "bbox": (72, 100, 320, 110)}, 0)
    assert read is not None and read.lead_kept
    spans[1] = {**spans[1], "font": "Times-Italic", "flags": 2}
    read = _fragment({"spans": spans, "bbox": (72, 100, 320, 110)}, 0)
    assert read is not None and not read.lead_kept
    from engine.readers.run_in import split_run_in

    text = "3.8.1.2 Common interrupt pitfall: non-atomic access"
    head = Line(text=text, x0=72, y0=100, x1=320, y1=110, size=10, bold=True, italic=False, block=0, face="Times",
                base=109, lead=33, lead_style=(True, False, False), lead_kept=True)
    run_in = Line(text="3.8.1.2 Common pitfall: the access to these variables is not atomic and may", x0=72, y0=100,
                  x1=540, y1=110, size=10, bold=False, italic=False, block=0, face="Times", base=109, lead=24,
                  lead_style=(True, False, False))
    assert [l.text for l in split_run_in([head], 10.0)] == [text]
    assert [l.text for l in split_run_in([run_in], 10.0)] == [
        "3.8.1.2 Common pitfall:", "the access to these variables is not atomic and may"]


def _sphinx_chapters(label_word: str) -> list[PageLayout]:
    """Sphinx's chapter pages in any language: a label line ("<word> N") over the chapter's title a rule's gap below,
    both at the size of the numbered sections ("N.1 ..."); the third chapter has no numbered section."""
    pages = [PageLayout(1, 612, 792, [line("Packaging Guide", 72, 200, size=24.8)] + prose(260, 3), [])]
    for n, title in enumerate(["Articles", "Knowledge base", "Further reading"], start=1):
        lines = [line(f"{label_word} {n}", 72, 160, size=14.5), line(title, 72, 250, size=14.5)] + prose(280, 6)
        if n < 3:
            lines += [line(f"{n}.1 Getting started", 72, 380, size=14.5)] + prose(400, 6) + \
                [line(f"{n}.1.1 First steps", 72, 490, size=12)] + prose(510, 6)
        pages.append(PageLayout(n + 1, 612, 792, lines, []))
    return pages


def test_a_word_of_any_language_that_labels_chapters_counting_up_is_no_heading_and_the_chapters_share_a_level():
    from engine.readers.offline import compose
    from tests.readers.test_heading_rules import headings

    for word in ("Глава", "Rozdział"):
        levels = dict(headings(compose(_sphinx_chapters(word))))
        assert not any(t.startswith(word) for t in levels)
        assert levels["Articles"] == levels["Knowledge base"] == levels["Further reading"]
        assert levels["1.1 Getting started"] == levels["Articles"] + 1


def test_a_title_set_large_atop_the_first_page_stays_though_a_small_running_head_repeats_it_on_every_page():
    pages = []
    for n in range(1, 7):
        lines = [line("2017/05/01 17:53", 43, 34, size=8), line("Sequence Clustering Guide", 300, 34, size=8)]
        if n == 1:
            lines.append(line("Sequence Clustering Guide", 43, 70, size=22, bold=True))
        lines += prose(120, 30, x0=43)
        pages.append(PageLayout(n, 595, 842, lines, []))
    furniture = find_furniture(pages, 10.0)
    kept, _ = strip_furniture(pages[0], furniture, body_size=10.0)
    assert [l.text for l in kept if l.size == 22] == ["Sequence Clustering Guide"]
    assert not any(l.size == 8 for p in pages for l in strip_furniture(p, furniture, body_size=10.0)[0])
    assert heading_titles(pages)[0] == "Sequence Clustering Guide"


def test_a_long_run_in_heading_leaving_a_word_or_two_of_its_paragraph_on_its_line_is_still_split():
    from engine.readers.layout import Line
    from engine.readers.run_in import split_run_in

    text = "1) Accuracy- and Precision-based Robustness: In the"
    first = Line(text=text, x0=72, y0=100, x1=300, y1=110, size=10, bold=False, italic=True, block=0, face="Times",
                 base=109, lead=44, lead_style=(False, True, False))  # (italic as a whole: its last words are few)
    rest = Line(text="context of classification, robustness is measured by how accuracy drops.", x0=72, y0=112,
                x1=300, y1=122, size=10, bold=False, italic=False, block=0, face="Times", base=121)
    above = Line(text="We measure robustness in four ways.", x0=72, y0=86, x1=250, y1=96, size=10, bold=False,
                 italic=False, block=0, face="Times", base=95)
    out = split_run_in([above, first, rest], 10.0)
    assert [l.text for l in out][1:3] == ["1) Accuracy- and Precision-based Robustness:", "In the"]


def test_a_warning_sign_set_large_in_the_margin_beside_a_paragraph_is_no_table_cell():
    from engine.readers.offline import compose

    words = "A package may define a command that another package defines too, which leads to errors that are hard"
    sign = line("!", 68, 300, size=36, bold=True, x1=81)
    sign.y0, sign.y1 = 262.0, 297.0
    lines = prose(100, 6) + [sign, line(words, 88, 276, x1=524), line("to foresee and harder still to find in a long "
                                                                        "document.", 88, 288, x1=400)] + prose(320, 6)
    markdown = compose([PageLayout(1, 595, 842, lines, [])]).markdown
    assert "|" not in markdown and f"{words} to foresee" in markdown
