"""Rules found on blind set 20 (a backup manual's problems guide, a German Texinfo manual, a Markdown manual's
callouts), each on synthetic lines: one rule for a word broken at a line end in paragraphs, table cells and
headings; a large heading wrapped at the text's right edge after a stop; callout labels; a licence's clauses
numbered at the first depth beside chapters numbered 1, 1.1, 1.1.1."""

from __future__ import annotations

from engine.readers.blocks import box, style
from engine.readers.headings import Candidate, Style, assign_levels
from engine.readers.hyphens import join_lines, join_pair, vocabulary
from engine.readers.layout import PageLayout
from engine.readers.offline import compose
from engine.readers.tables import Table
from tests.readers.test_heading_rules import heading_titles, headings, line, prose

WORDS = vocabulary(["the preamble of the licence", "a self-contained unit", "MIDI files"])


def test_a_word_broken_by_hyphenation_joins_and_a_real_hyphen_stays_with_no_space():
    assert join_pair("Match-", "ing lines", WORDS) == "Matching lines"
    assert join_pair("a self-", "contained unit", WORDS) == "a self-contained unit"  # (spelled so elsewhere)
    # the second part starts with a capital or a digit: a compound's own hyphen, kept, and no space put in
    assert join_pair("in non-", "English texts", WORDS) == "in non-English texts"
    assert join_pair("the LilyPond-Eingabe-", "Dateien", WORDS) == "the LilyPond-Eingabe-Dateien"
    assert join_pair("encoded in UTF-", "8 throughout", WORDS) == "encoded in UTF-8 throughout"
    # the first part in capitals, one letter, or a name from code: the hyphen stays
    assert join_pair("a GPL-", "compatible licence", WORDS) == "a GPL-compatible licence"
    assert join_pair("an X-", "ray image", WORDS) == "an X-ray image"
    assert join_pair("run cd-hit-", "dup first", WORDS) == "run cd-hit-dup first"
    assert join_pair("set x_max-", "value", WORDS) == "set x_max-value"
    # ... unless the document prints the whole word elsewhere
    assert join_pair("0. PRE-", "AMBLE", WORDS) == "0. PREAMBLE"
    assert join_pair("für MI-", "DI", WORDS) == "für MIDI"
    assert join_pair("a dash -", "Next", WORDS) == "a dash - Next"  # (no word broken: a space)
    # a soft hyphen: hyphenation's goes; one a word processor codes for a real hyphen prints "-"
    assert join_pair("the measure\u00ad", "ments", WORDS) == "the measurements"
    assert join_pair("DATA\u00ad", "DRIVEN POLICY", WORDS) == "DATA-DRIVEN POLICY"


def test_no_letter_is_lost_when_a_word_broken_at_a_line_end_joins():
    for first, second in [("Match-", "ing"), ("non-", "English"), ("PRE-", "AMBLE"), ("GPL-", "compatible"),
                          ("measure\u00ad", "ments"), ("UTF-", "8")]:
        joined = join_pair(first, second, WORDS)
        letters = [c for c in first + second if c.isalnum()]
        assert [c for c in joined if c.isalnum()] == letters


def test_a_heading_wrapped_over_two_lines_rejoins_the_word_broken_at_its_first_lines_end():
    lines = [line("1 Survey", 72, 80, size=18, bold=True)] + prose(110, 4) + \
        [line("1.10 I Cannot Get My River Survey Client to Start Automati-", 97, 200, size=14.4, bold=True, x1=540),
         line("cally?", 97, 218, size=14.4, bold=True, x1=137)] + prose(245, 4) + \
        [line("1.11 My Client Dies at Once", 97, 320, size=14.4, bold=True, x1=300)] + prose(345, 4)
    result = compose([PageLayout(1, 612, 792, lines, [])])
    titles = [t for t, _ in headings(result)]
    assert "1.10 I Cannot Get My River Survey Client to Start Automatically?" in titles
    block = next(b for page in result.blocks for b in page.blocks if b.text.startswith("1.10"))
    assert [block.text[s.start:s.end] for s in block.lines] == \
        ["1.10 I Cannot Get My River Survey Client to Start Automati", "cally?"]


def test_a_table_cells_wrapped_word_follows_the_same_rule():
    table = Table()
    table.add_row([line("backend", 72, 100, x1=120), line("Auswahl der PDF-", 200, 100, x1=300)])
    assert table.absorb([line("Ausgabe und der Match-", 200, 112, x1=300)], 14.0)
    assert table.absorb([line("ing Dateien", 200, 124, x1=260)], 14.0)
    [block] = table.blocks(WORDS, box, style)
    assert block.cells == [["backend", "Auswahl der PDF-Ausgabe und der Matching Dateien"]]


def test_a_large_heading_that_fills_the_measure_goes_on_after_its_stop():
    lines = [line("1 Questions", 72, 80, size=18, bold=True)] + prose(110, 4) + \
        [line("1.21 I want an Incremental but the survey runs it as a Full count.", 97, 200, size=14.4, bold=True,
              x1=540),
         line("Why?", 97, 218, size=14.4, bold=True, x1=138)] + prose(245, 4) + \
        [line("1.22 Do you count herons?", 97, 320, size=14.4, bold=True, x1=300)] + prose(345, 4)
    titles = heading_titles([PageLayout(1, 612, 792, lines, [])])
    assert "1.21 I want an Incremental but the survey runs it as a Full count. Why?" in titles
    assert "Why?" not in titles


def test_a_large_heading_that_stops_short_of_the_measure_after_its_stop_stays_apart_from_the_line_below():
    lines = [line("1 Questions", 72, 80, size=18, bold=True)] + prose(110, 4) + \
        [line("1.21 The survey runs.", 97, 200, size=14.4, bold=True, x1=260),
         line("Counting Herons", 97, 218, size=14.4, bold=True, x1=210)] + prose(245, 4)
    titles = heading_titles([PageLayout(1, 612, 792, lines, [])])
    assert "1.21 The survey runs. Counting Herons" not in titles


def _with_callouts(label: str, times: int, x0: float = 100) -> list[PageLayout]:
    """Pages of prose, each under a heading, `times` of them with a short bold label at the text's size (at `x0`:
    indented, or at the text's left edge, 72) over a note's text."""
    pages = []
    for n in range(1, 5):
        lines = [line(f"{n} Survey chapter {n}", 72, 80, size=16, bold=True)] + prose(110, 6)
        if n <= times:
            lines += [line(label, x0, 200, bold=True, x1=x0 + 50)] + prose(214, 2, x0=x0)
        lines += prose(260, 6)
        pages.append(PageLayout(n, 612, 792, lines, []))
    return pages


def test_an_indented_bold_label_repeated_three_times_is_a_callout_not_a_heading():
    for label in ("See also", "Важно!", "Siehe auch"):
        titles = heading_titles(_with_callouts(label, 3))
        assert label not in titles
        assert "2 Survey chapter 2" in titles
    assert heading_titles(_with_callouts("See also", 3, x0=72)).count("See also") == 3  # (side heads stay)


def test_numbered_licence_clauses_set_no_rank_for_the_chapters_numbered_sections():
    """Chapters "1", sections "1.1", sub-sections "1.1.1" (two of them in capitals, a style of their own), then a
    licence whose clauses are numbered "0." to "10." at the text's size: the sub-sections are siblings."""
    cands: list[Candidate] = []

    def add(text: str, size: float, *, bold: bool = False, caps: bool = False, numbering: str = "") -> None:
        n = len(cands)
        cands.append(Candidate(2 + n // 3, n % 3, 1, text, Style(size, bold, False, caps, numbering), n, under=5,
                               prose=True))

    for chapter in (1, 2, 3):
        add(f"{chapter} Chapter {chapter}", 17)
        add(f"{chapter}.1 Section", 14.5)
        add(f"{chapter}.1.1 LATEX" if chapter < 3 else f"{chapter}.1.1 Texinfo", 13, caps=chapter < 3)
        add(f"{chapter}.1.2 Texinfo", 13)
        add(f"{chapter}.1.3 DocBook", 13)
    add("Anhang A GNU Free Documentation License", 17)
    clauses = [f"{k}. CLAUSE NUMBER {k}" for k in range(11)]
    for text in clauses:
        add(text, 10, caps=True, numbering="arabic")
    levels = assign_levels(cands, 10.0, 40)
    by_text = {c.text: levels[c.order] for c in cands if c.order in levels}
    assert by_text["1.1.1 LATEX"] == by_text["1.1.2 Texinfo"] == by_text["3.1.1 Texinfo"]
    assert by_text["1 Chapter 1"] < by_text["1.1 Section"] < by_text["1.1.2 Texinfo"]
    # (guards: the clauses keep their own rank, under the licence's heading)
    assert by_text[clauses[1]] > by_text["Anhang A GNU Free Documentation License"]


def test_a_reused_number_keeps_its_own_rank():
    """A second numbering later on (a sample plan's "2.1", set smaller, under a section of chapter 2 after the
    chapter's own "2.1") is not pulled to the rank of the first numbering's depth: it stays under its section."""
    cands: list[Candidate] = []

    def add(text: str, size: float, *, bold: bool = True) -> None:
        n = len(cands)
        cands.append(Candidate(2 + n // 3, n % 3, 1, text, Style(size, bold, False, False, ""), n, under=5,
                               prose=True))

    for chapter in (1, 2):
        add(f"{chapter} Chapter", 16)
        add(f"{chapter}.1 Section", 13)
        add(f"{chapter}.2 Section", 13)
    add("Sample plan", 13)
    add("2.1 Sample scope", 11)
    add("2.2 Sample terms", 11)
    levels = assign_levels(cands, 10.0, 40)
    by_text = {c.text: levels[c.order] for c in cands if c.order in levels}
    assert by_text["2.1 Sample scope"] == by_text["2.2 Sample terms"] > by_text["Sample plan"] == by_text["2.2 Section"]


def test_join_lines_spans_point_at_each_lines_text():
    text, spans = join_lines(["the measure-", "ments of the PRE-", "AMBLE and non-", "English words"], WORDS)
    assert text == "the measurements of the PREAMBLE and non-English words"
    assert [text[s:e] for s, e in spans] == ["the measure", "ments of the PRE", "AMBLE and non-", "English words"]
