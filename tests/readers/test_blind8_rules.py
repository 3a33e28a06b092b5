"""Heading rules found on blind set 8 (Word, FrameMaker and Writer manuals and standards), each on synthetic lines:
a heading over a paragraph that opens with a name in lower case, decimal numbers six levels deep, one word in
emphasised capitals over its section's text."""

from __future__ import annotations

from engine.readers.layout import PageLayout
from engine.readers.offline import compose
from tests.readers.test_heading_rules import headings, line, prose


def test_a_bold_numbered_heading_over_a_paragraph_that_opens_in_lower_case_is_a_heading():
    # a Writer manual: "2.1 Introduction" (bold, the text's size) over "eSNACC was designed ...": the name in
    # lower case had made the heading read as the first line of a sentence that goes on
    def page(n):
        return PageLayout(n, 612, 792, prose(80, 6) + [
            line(f"{n}.1 Introduction", 72, 180, bold=True),
            line("eSNACC was designed primarily to provide high-performance encoders and decoders to all", 72, 198,
                 x1=540)] + prose(210, 6), [])
    found = [text for text, _ in headings(compose([page(n) for n in range(1, 5)]))]
    assert all(f"{n}.1 Introduction" in found for n in range(1, 5))

    # the next line itself may end short of the heading's end plus its first word: the paragraph's measure is
    # its widest line of the next three
    def short(n):
        return PageLayout(n, 612, 792, prose(80, 6) + [
            line(f"{n}.5 Reporting Bugs and Your Own Improvements", 72, 180, bold=True, x1=400),
            line("eSNACC is actively supported by its authors, please send any", 72, 198, x1=440),
            line("suggestions, bug-fixes, improvements, etc. to the list", 72, 212, x1=350)] + prose(226, 6), [])
    found = [text for text, _ in headings(compose([short(n) for n in range(1, 5)]))]
    assert all(f"{n}.5 Reporting Bugs and Your Own Improvements" in found for n in range(1, 5))


def test_a_bold_numbered_line_that_runs_to_the_columns_end_and_on_in_lower_case_stays_text():
    # the same, but the bold line fills its line and its sentence goes on below: a numbered paragraph whose
    # first line is bold, not a heading
    def page(n):
        return PageLayout(n, 612, 792, prose(80, 6) + [
            line(f"{n}.1 The encoders of the compiler are written for speed and run over the buffers that", 72,
                 180, bold=True, x1=540),
            line("eSNACC allocates once for every value it encodes, so that no copy is ever made of them.", 72,
                 194, x1=540)] + prose(206, 6), [])
    found = [text for text, _ in headings(compose([page(n) for n in range(1, 5)]))]
    assert not any(text.startswith(f"{n}.1 ") for text in found for n in range(1, 5))



def test_one_word_in_emphasised_capitals_at_the_left_edge_over_its_text_is_a_heading():
    # a FrameMaker manual's reference pages: "SYNOPSIS", "EXAMPLES", "OPTIONS" in bold italic capitals at the text's
    # size, a blank line above, the section's text right under them (here opening with the command's name in lower
    # case), on every page, more than 1.5 a page
    def page(n):
        lines = [line(f"Tool {n}", 90, 90, size=18, bold=True, italic=True)]
        top = 120
        for word in ("SYNOPSIS", "EXAMPLES", "OPTIONS"):
            lines.append(line(word, 90, top, bold=True, italic=True))
            lines.append(line(f"tool{n} reads a description of the scene from its input and renders it as an image",
                              90, top + 14, x1=540))
            lines += prose(top + 26, 3, x0=90)
            top += 80
        return PageLayout(n, 612, 792, lines, [])
    found = headings(compose([page(n) for n in range(1, 13)]))
    assert sum(1 for text, _ in found if text == "SYNOPSIS") == 12
    assert sum(1 for text, _ in found if text == "OPTIONS") == 12
    levels = dict(found)
    assert levels["SYNOPSIS"] > levels["Tool 1"]


def test_one_word_in_capitals_indented_as_a_notes_label_or_plain_as_a_tag_is_not_a_heading():
    # a note's label ("WARNING", indented with its text) and a diagram's tag (plain) stay text
    def page(n):
        return PageLayout(n, 612, 792, prose(80, 6) + [
            line("WARNING", 110, 180, bold=True),
            line("do not upgrade the operating system when it asks to, as the real-time kernel would be lost", 110,
                 194, x1=540)] + prose(220, 4) + [line("JTAG", 72, 290)] + prose(304, 4), [])
    found = [text for text, _ in headings(compose([page(n) for n in range(1, 5)]))]
    assert "WARNING" not in found and "JTAG" not in found


def test_a_phrase_set_larger_that_ends_in_a_colon_is_a_heading_but_a_short_label_is_not():
    # a Writer manual's licence section: "Files that are copyright (c) by NASA:" in its 14 pt bold heading style over
    # the files' list; "Background:" in that style leads on into its text
    owners = ["the fonts' foundry", "the space agency", "the sound studio", "the game's author"]

    def page(n):
        top = 150 + 24 * n
        return PageLayout(n, 612, 792, [line(f"Legal matters {n}", 72, 80, size=14, bold=True)] + prose(100, 4) + [
            line(f"Files that are copyright (c) by {owners[n - 4]}:", 72, top, size=14, bold=True)]
            + prose(top + 20, 4) + [line("Background:", 72, top + 90, size=14, bold=True)] + prose(top + 110, 4), [])
    front = [PageLayout(n, 612, 792, prose(100, 30), []) for n in (1, 2, 3)]  # (the title block's pages)
    found = [text for text, _ in headings(compose(front + [page(n) for n in range(4, 8)]))]
    assert all(f"Files that are copyright (c) by {owner}:" in found for owner in owners)
    assert "Background:" not in found


def test_a_label_whose_word_follows_its_number_in_lower_case_is_no_heading_of_its_own():
    # a Hungarian thesis: "2. fejezet" (chapter 2) on a line of its own over the chapter's title, both 25 pt; the
    # title is the heading and stands over "2.1. Felsorolások"; "A. függelék" (appendix A) likewise
    def page(n, label, title):
        return PageLayout(n, 612, 792, [line(label, 99, 180, size=25), line(title, 99, 250, size=25)] + prose(280, 6)
                          + [line(f"{n}.1. Felsorolások és képek", 99, 370, size=17)] + prose(395, 8), [])
    pages = [page(1, "1. fejezet", "Bevezetés"), page(2, "2. fejezet", "Felhasználói dokumentáció"),
             page(3, "3. fejezet", "Fejlesztői dokumentáció"), page(4, "A. függelék", "Szimulációs eredmények")]
    found = headings(compose(pages))
    texts = [text for text, _ in found]
    assert not any(label in texts for label in ("1. fejezet", "2. fejezet", "3. fejezet", "A. függelék"))
    levels = dict(found)
    assert levels["Felhasználói dokumentáció"] < levels["2.1. Felsorolások és képek"]
    # a numbered title in capitals over its first section is no label
    title = PageLayout(5, 612, 792, [line("5. Introduction", 99, 180, size=25), line("Scope", 99, 250, size=25)]
                       + prose(280, 6), [])
    assert "5. Introduction" in [text for text, _ in headings(compose(pages + [title]))]
