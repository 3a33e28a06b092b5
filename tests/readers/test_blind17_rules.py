"""Heading rules found on blind set 17 (headings told only by the document's regularities: labels counting up on
lines set apart, a heading face at the text's size; a margin stamp that hid a page's columns), each on synthetic
lines."""

from __future__ import annotations

import itertools

from engine.readers.furniture import find_furniture, strip_furniture
from engine.readers.layout import Line, PageLayout, reading_order
from tests.readers.test_heading_rules import BODY, heading_titles, line

PITCH = 18.0  # the synthetic documents' line pitch (12 pt text)


WORDS = BODY.split()
_TURNS = itertools.count()


def _text(top: float, count: int, face: str = "Arial") -> list[Line]:
    """Lines of running text, each its own (the text's words turned by a count kept across calls)."""
    turn = [next(_TURNS) % len(WORDS) for _ in range(count)]
    return [line(" ".join(WORDS[t:] + WORDS[:t]), 72, top + PITCH * k, size=12, x1=540, face=face)
            for k, t in enumerate(turn)]


def _declaration(numbers=None, spaced_paragraphs=False, label_on_top=()) -> list[PageLayout]:
    """A word processor's text in one font and size (12 pt Arial): a title a little larger, "Preamble", then
    "Article 1", "Article 2", ... each alone on its line a blank line above and below, three lines of text under
    each, three articles to a page. `spaced_paragraphs`: every paragraph of the text is set apart by a blank line
    too (and some are one short line); `label_on_top`: the pages (1-based) that begin with an article's label,
    where the text begins on the other pages."""
    numbers = list(range(1, 16)) if numbers is None else numbers
    per_page = 2 if spaced_paragraphs else 3
    pages: list[PageLayout] = []
    lines = [line("Declaration of Common Rights", 72, 80, size=14, face="Arial"),
             line("Preamble", 72, 80 + 2 * PITCH, size=12, face="Arial")] + _text(80 + 4 * PITCH, 6)
    pages.append(PageLayout(1, 612, 792, lines, []))
    for p in range(0, len(numbers), per_page):
        base = 80.0
        lines = []
        on_top = len(pages) + 1 in label_on_top
        if not on_top:
            lines += _text(base, 2)  # (the text of the article before runs on onto this page)
            base += 2 * PITCH
        for k, n in enumerate(numbers[p:p + per_page]):
            top = base if on_top and k == 0 else base + PITCH
            lines.append(line(f"Article {n}", 72, top, size=12, face="Arial"))
            lines += _text(top + 2 * PITCH, 3)
            if spaced_paragraphs:
                lines.append(line("Done at Geneva", 72, top + 6 * PITCH, size=12, face="Arial"))
                lines += _text(top + 8 * PITCH, 4)
                base = top + 12 * PITCH
            else:
                base = top + 5 * PITCH
        pages.append(PageLayout(len(pages) + 1, 612, 792, lines, []))
    return pages


def test_labels_of_one_word_counting_up_on_lines_set_apart_are_headings():
    titles = heading_titles(_declaration())
    assert {f"Article {n}" for n in range(1, 16)} <= set(titles)
    assert "Preamble" in titles  # (set apart like them, and little else is)


def test_labels_that_do_not_count_up_are_no_headings():
    titles = heading_titles(_declaration(numbers=[4, 1, 9, 2, 7, 3, 12, 5, 8, 6, 11, 10, 15, 13, 14]))
    assert not any(t.startswith("Article") for t in titles)


def test_an_unnumbered_line_set_apart_is_no_heading_where_the_text_sets_many_lines_apart():
    titles = heading_titles(_declaration(spaced_paragraphs=True))
    assert "Article 5" in titles
    assert "Preamble" not in titles and "Done at Geneva" not in titles


def test_a_label_atop_a_page_where_the_other_pages_text_begins_is_no_running_head():
    # (three pages of six begin with a label, "Article 4", "Article 10", "Article 13"; two with the text)
    pages = _declaration(label_on_top={3, 5, 6})
    furniture = find_furniture(pages, 12.0)
    kept, _ = strip_furniture(pages[2], furniture)
    assert kept[0].text == "Article 4"
    assert {"Article 4", "Article 10", "Article 13"} <= set(heading_titles(pages))


SERIF, SANS = "GentiumPlus", "Andika-Regular"


def _lexicon(display=True, extra_sans=0) -> list[PageLayout]:
    """A word processor's document: 12 pt serif text, Heading 1 in a sans face at 14 pt (`display`; else in the
    serif), Heading 2 in the sans face at 12 pt ("Part", "Entry", ...) over a paragraph each; `extra_sans`:
    rows of a table on the last page whose names are set in the sans face at 12 pt."""
    names = ["Part", "Section", "Entry", "Page", "Word", "Stem", "Aspect", "Sense"]
    pages = []
    for p in range(4):
        top = 80.0
        lines = [line(f"Lexicon number {p + 1}", 72, top, size=14, face=SANS if display else SERIF)]
        top += 2 * PITCH
        lines += _text(top, 2, face=SERIF)
        top += 2 * PITCH
        for name in names[2 * p:2 * p + 2]:
            top += PITCH
            lines.append(line(name, 72, top, size=12, face=SANS))
            lines += _text(top + 1.4 * PITCH, 3, face=SERIF)
            top += 4.4 * PITCH
        if p == 3:
            for k in range(extra_sans):  # (a table's rows: a name in the sans face, its value beside it)
                top += PITCH
                lines += [line(f"Value {k}", 72, top, size=12, face=SANS), line(f"{k}", 300, top, size=12, face=SERIF)]
        pages.append(PageLayout(p + 1, 612, 842, lines, []))
    return pages


def test_short_lines_at_the_texts_size_in_the_heading_face_over_text_are_headings():
    titles = heading_titles(_lexicon())
    assert {"Part", "Entry", "Word", "Sense"} <= set(titles)


def test_a_face_that_heads_nothing_larger_is_no_heading_face():
    titles = heading_titles(_lexicon(display=False))
    assert "Entry" not in titles and "Word" not in titles


def test_a_face_used_mostly_for_other_short_lines_is_no_heading_face():
    titles = heading_titles(_lexicon(extra_sans=12))
    assert "Entry" not in titles


def test_a_stamp_up_the_margin_hides_no_two_column_pages_columns():
    # a paper's first page: a title across the page, a figure's one large label across the gutter, then two
    # columns ("Abstract" left, "1 Introduction" right); an archive's stamp runs up the left margin beside them
    lines = [line("A Paper Title Across The Whole Width Of The Page", 90, 80, size=15, bold=True, x1=520),
             line("Figure Label", 230, 300, size=20, x1=370),
             line("Abstract", 150, 350, size=12, bold=True, x1=200),
             line("1 Introduction", 306, 350, size=12, bold=True, x1=390)]
    for k in range(25):
        lines.append(line(BODY[:45], 88, 380 + 12 * k, x1=272))
        lines.append(line(BODY[:45], 306, 380 + 12 * k, x1=526))
    stamp = Line(text="arXiv:2501.00000v1 [cs.IR] 1 Jan 2025", x0=11, y0=270, x1=37, y1=610, size=20, bold=False,
                 italic=False, block=0, face="Times", base=610, vertical=True)
    ordered, columns = reading_order(lines + [stamp], None)
    texts = [l.text for l in ordered]
    assert columns == 2
    assert texts.index("1 Introduction") > max(k for k, l in enumerate(ordered) if l.x1 <= 272 and not l.vertical)
    assert texts[-1] == stamp.text
