"""Paragraphs, tables, code and formulas from synthetic lines: the rules of engine/readers/paragraphs.py,
tables.py, code.py and formula.py, through the offline reader's `compose`."""

from __future__ import annotations

import dataclasses

from engine.markdown import split_pages
from engine.readers.hyphens import join_lines
from engine.readers.layout import Line, PageLayout
from engine.readers.offline import compose
from engine.readers.pitch import line_pitches

PROSE = ("The survey team walked the river at dawn and counted every heron it could see from the bank",
         "while the water was still low, then compared its tally with the counts of earlier years that",
         "the district had kept since the station opened. It found fewer birds than in any year before.")


def line(text, x0, base, *, x1=None, size=10.0, bold=False, face="Times-Roman", mono=False, font=""):
    """A line whose box reaches a little above and below its baseline, as PyMuPDF reports it."""
    x1 = x0 + 5.0 * len(text) if x1 is None else x1
    return Line(text=text, x0=x0, y0=base - 0.9 * size, x1=x1, y1=base + 0.35 * size, size=size, bold=bold,
                italic=False, block=0, font=font, face=face, mono=mono, base=base)


def page(lines, number=1):
    return PageLayout(number, 612, 792, lines, [])


def blocks_of(*layouts):
    result = compose(list(layouts))
    return result, [b for p in result.blocks for b in p.blocks if b.kind != "furniture"]


def test_lines_whose_boxes_overlap_are_one_paragraph():
    # a tight leading: each box reaches into the next (Word's exact line spacing); the pitch is 11 pt
    lines = [line(t, 72, 100 + 11 * k, x1=540) for k, t in enumerate(PROSE)]
    assert lines[1].y0 < lines[0].y1
    _, blocks = blocks_of(page(lines))
    assert [b.kind for b in blocks] == ["paragraph"]
    assert blocks[0].text == " ".join(PROSE)
    assert [blocks[0].text[s.start:s.end] for s in blocks[0].lines] == list(PROSE)


def test_a_gap_or_a_first_line_indent_after_a_sentence_starts_a_paragraph():
    first = [line(PROSE[0], 72, 100, x1=540), line(PROSE[2], 72, 111, x1=540)]
    gap = [line(PROSE[0], 72, 130, x1=540), line(PROSE[2], 72, 141, x1=540)]  # 19 pt below: a new paragraph
    indent = [line(PROSE[0], 90, 152, x1=540), line(PROSE[1], 72, 163, x1=540)]  # indented after a stop
    _, blocks = blocks_of(page(first + gap + indent))
    assert [len(b.lines) for b in blocks] == [2, 2, 2]


def test_a_short_last_line_that_ended_its_sentence_ends_the_paragraph():
    lines = [line(PROSE[0], 72, 100, x1=540), line("It ended here.", 72, 111, x1=140),
             line("Another paragraph starts without any gap or indent and runs on to the edge", 72, 122, x1=540)]
    _, blocks = blocks_of(page(lines))
    assert len(blocks) == 2


def test_a_sentence_goes_on_at_the_top_of_the_next_column():
    left = [line(PROSE[0], 54, 700, x1=290), line("and the counts were written into the book of the", 54, 711, x1=290)]
    right = [line("station, which the district keeps.", 310, 100, x1=480),
             line("A new paragraph of the right column begins here and goes on.", 320, 125, x1=560)]
    _, blocks = blocks_of(page(left + right))
    assert blocks[0].text.endswith("book of the station, which the district keeps.")
    assert len(blocks) == 2


def test_hyphenation_repaired_for_every_hyphen_kind():
    vocabulary = {"self-contained"}
    assert join_lines(["the measure-", "ments were"], vocabulary)[0] == "the measurements were"
    assert join_lines(["the measure\u00ad", "ments were"], vocabulary)[0] == "the measurements were"
    assert join_lines(["the measure\ufffe", "ments were"], vocabulary)[0] == "the measurements were"
    assert join_lines(["a Über-", "prüfung"], vocabulary)[0] == "a Überprüfung"
    assert join_lines(["a self-", "contained unit"], vocabulary)[0] == "a self-contained unit"  # spelled so
    assert join_lines(["FY 2013\u00ad", "2017"], vocabulary)[0] == "FY 2013\u00ad 2017"  # not a word break
    text, spans = join_lines(["the measure-", "ments were"], vocabulary)
    assert [text[s:e] for s, e in spans] == ["the measure", "ments were"]


def test_line_pitch_is_the_documents_most_common():
    lines = [line(t, 72, 100 + 12 * k) for k, t in enumerate(PROSE * 3)]
    assert line_pitches([lines]) == {10.0: 12.0}


def test_list_items_and_lettered_items_keep_their_lines():
    lines = [line("• the first item of the list, which wraps onto", 72, 100, x1=540),
             line("a second line under its text", 82, 111, x1=300),
             line("• the second item", 72, 122, x1=200),
             line("a. Access the system from outside; and", 72, 140, x1=300),
             line("b. Process the information.", 72, 151, x1=260)]
    result, blocks = blocks_of(page(lines))
    assert [(b.kind, b.text) for b in blocks] == [
        ("list_item", "the first item of the list, which wraps onto a second line under its text"),
        ("list_item", "the second item"),
        ("list_item", "a. Access the system from outside; and"),
        ("list_item", "b. Process the information.")]
    assert "- b. Process the information." in split_pages(result.markdown)[0].split("\n")


def test_a_wrapped_cell_goes_back_into_its_cell():
    rows = [("Reduce the railroad", 72, 100), ("Target", 250, 100), ("Reduced", 350, 100), ("5", 450, 100),
            ("employee on-duty", 72, 111),
            ("Increase employment", 72, 130), ("Target", 250, 130), ("Met", 350, 130), ("7", 450, 130)]
    lines = [line(t, x, b) for t, x, b in rows]
    result, blocks = blocks_of(page(lines))
    (table,) = blocks
    assert table.kind == "table"
    assert table.cells == [["Reduce the railroad employee on-duty", "Target", "Reduced", "5"],
                           ["Increase employment", "Target", "Met", "7"]]
    assert split_pages(result.markdown)[0].split("\n")[:3] == [
        "| Reduce the railroad employee on-duty | Target | Reduced | 5 |", "| --- | --- | --- | --- |",
        "| Increase employment | Target | Met | 7 |"]


def test_a_short_row_sits_under_its_columns_and_pipes_are_escaped():
    rows = [("Name", 72, 100), ("Kind", 250, 100), ("Value", 400, 100),
            ("a|b", 72, 115), ("9", 400, 115)]
    _, blocks = blocks_of(page([line(t, x, b) for t, x, b in rows]))
    assert blocks[0].cells == [["Name", "Kind", "Value"], ["a|b", "", "9"]]
    result = compose([page([line(t, x, b) for t, x, b in rows])])
    assert "| a\\|b |  | 9 |" in result.markdown


def test_a_footnote_number_set_apart_is_not_a_table_cell():
    lines = [line("171", 72, 700, x1=86), line("Any transaction or series of transactions remains subject", 100, 700,
                                               x1=540),
             line("to the antifraud provisions of the securities laws.", 72, 711, x1=400)]
    _, blocks = blocks_of(page(lines))
    assert [(b.kind, b.text) for b in blocks] == [
        ("paragraph", "171 Any transaction or series of transactions remains subject to the antifraud provisions "
                      "of the securities laws.")]


def test_monospaced_lines_are_fenced_code_with_their_indentation():
    code = [line("let rec fact n =", 90, 200, face="Courier", mono=True, x1=90 + 6 * 16),
            line("if n = 0 then 1", 102, 211, face="Courier", mono=True, x1=102 + 6 * 15),
            line("else n * fact (n - 1)", 102, 222, face="Courier", mono=True, x1=102 + 6 * 21)]
    prose = [line(t, 72, 100 + 11 * k, x1=540) for k, t in enumerate(PROSE)]
    result, blocks = blocks_of(page(prose + code))
    assert [b.kind for b in blocks] == ["paragraph", "code"]
    assert blocks[1].text == "let rec fact n =\n  if n = 0 then 1\n  else n * fact (n - 1)"
    assert "```\nlet rec fact n =\n  if n = 0 then 1\n  else n * fact (n - 1)\n```" in result.markdown



def test_a_code_line_with_its_rendered_output_beside_it_stays_in_its_code_block():
    # a manual sets a diagram's source on the left and the diagram it draws on the right: the drawing's labels,
    # set larger, stand between code lines' baselines and made a table of code and labels
    def code(text, x0, base):
        return line(text, x0, base, size=7.0, face="Courier", mono=True, x1=x0 + 4.2 * len(text))

    source = [code("#diagram(", 71, 200), code("node-stroke: 0.6pt,", 71, 209.9),
              code("node($Sigma$, enclose: ((1,1), (1,2)), // a node spanning centers", 71, 219.8),
              code("node((2,1), [X]),", 71, 229.7), code("node((2,2), [Y]),", 71, 239.5),
              code('edge((1,1), "r", "->"),', 71, 249.4), code(")", 71, 259.3)]
    labels = [line("X", 509, 214.5, size=11.0, x1=517), line("Y", 452, 244.6, size=11.0, x1=461)]
    prose = [line(t, 72, 100 + 11 * k, x1=540) for k, t in enumerate(PROSE)]
    _, blocks = blocks_of(page(prose + sorted(source + labels, key=lambda l: l.baseline)))
    assert [b.kind for b in blocks] == ["paragraph", "code", "paragraph"]
    assert blocks[1].text.split("\n") == [s.text for s in source]
    assert blocks[2].text == "X Y"

def test_a_display_formula_keeps_its_line_inside_its_sentence():
    lines = [line("Then the verifier checks, for every member of the ring, that", 72, 100, x1=540),
             line("c = h(m, L, R)", 200, 122, face="CMMI10", x1=280),
             line("holds, and accepts the signature only then.", 72, 144, x1=400)]
    _, blocks = blocks_of(page(lines))
    assert [(b.kind, b.text) for b in blocks] == [
        ("paragraph", "Then the verifier checks, for every member of the ring, that\nc = h(m, L, R)\n"
                      "holds, and accepts the signature only then.")]


def test_a_sentence_cut_by_the_page_break_ends_above_the_marker_and_the_rest_stays_on_its_page():
    first = page([line(PROSE[0], 72, 740, x1=540), line(PROSE[1], 72, 751, x1=540)], 1)
    second = page([line(PROSE[2], 72, 80, x1=540), line("It rained.", 72, 120, x1=140)], 2)
    result, _ = blocks_of(first, second)
    pages = split_pages(result.markdown)
    assert pages == [f"{PROSE[0]} {PROSE[1]} the district had kept since the station opened.",
                     "It found fewer birds than in any year before.\n\nIt rained."]
    assert result.blocks[0].blocks[-1].continues and not result.blocks[1].blocks[-1].continues
    assert result.blocks[1].blocks[0].text == PROSE[2]  # the blocks keep what each page prints


def test_a_page_that_is_only_the_end_of_the_sentence_keeps_it_and_a_hyphenated_word_is_rejoined():
    first = page([line(PROSE[0], 72, 740, x1=540), line("while the water was still low, then com-", 72, 751,
                                                          x1=540)], 1)
    alone = page([line("pared its tally with the counts of earlier years.", 72, 80, x1=540)], 2)
    result, _ = blocks_of(first, alone)
    assert split_pages(result.markdown)[1] == "pared its tally with the counts of earlier years."
    more = page([line("pared its tally with earlier years. It found fewer birds.", 72, 80, x1=540),
                 line("It rained.", 72, 120, x1=140)], 2)
    result, _ = blocks_of(first, more)
    assert split_pages(result.markdown) == [f"{PROSE[0]} while the water was still low, then compared its tally "
                                            "with earlier years.", "It found fewer birds.\n\nIt rained."]


def test_a_decimal_number_that_goes_on_in_lower_case_is_an_amount_of_the_sentence_not_a_section_number():
    lines = [line("The Reserve Banks distributed 30.9 billion notes into circulation in 2023, a", 72, 100, x1=500),
             line("1.0 percent decrease from 2022, and received 30.3 billion notes from circulation.", 72, 111,
                  x1=540),
             line("as defined in this Section and in the sections listed in the order of their", 72, 140, x1=540),
             line("3.8.3 with its supporting discussion section and informative references.", 72, 151, x1=540)]
    # a section number opening its title (a capital after it), or after a sentence that ended, still starts one
    titled = [line("The survey is described in the appendix, which the district publishes under", 72, 180, x1=540),
              line("2.1 Scope of the survey", 72, 191, x1=200),
              line("The survey counted herons.", 72, 220, x1=200), line("4.5 hours were spent on it.", 72, 231)]
    _, blocks = blocks_of(page(lines + titled))
    texts = [b.text for b in blocks]
    assert texts[0].endswith("in 2023, a 1.0 percent decrease from 2022, and received 30.3 billion notes from "
                             "circulation.")
    assert texts[1].endswith("of their 3.8.3 with its supporting discussion section and informative references.")
    assert any(t.startswith("2.1 Scope of the survey") for t in texts)
    assert any(t.startswith("4.5 hours were spent") for t in texts)


def test_a_line_ending_on_a_word_that_wants_more_goes_on_past_a_wider_gap_but_not_into_a_list_item_or_note():
    # a note's first line sits further from its second than the pitch (a raised note number above it), and its
    # sentence runs on over a capital: "… chief counsel for the" / "Commission's study, …"
    note = [line("32 Id. at 738-39 (Senators Smith and Jones). Jane Doe, chief counsel for the", 72, 100,
                 x1=520),
            line("Committee's staff, offered the following observations in response to the arguments", 108, 117,
                 x1=530),
            line("against the registration and regulation required by the Act:", 108, 128.5, x1=350)]
    # "…; or" closes a list item (its next one set without a bullet); a number before a capital opens a note
    items = [line("The applicant shall present a passport issued by the Department of State; or", 72, 200, x1=480),
             line("A driver's license issued by a state government entity.", 72, 217, x1=400),
             line("The broker shall understand the potential risks associated with the recommendation, and", 72,
                  260, x1=530),
             line("90 See Proposed Commission Interpretation Regarding Standard of Conduct for Advisers.", 72, 277,
                  x1=500)]
    # the page's other notes set the pitch, 11.5 pt
    notes = [line(t, 72, 400 + 11.5 * k, x1=540) for k, t in enumerate(PROSE)]
    _, blocks = blocks_of(page(note + items + notes))
    texts = [b.text for b in blocks]
    assert texts[0].startswith("32 Id.") and "chief counsel for the Committee's staff, offered" in texts[0]
    assert texts[0].endswith("required by the Act:")
    assert not any("; or" in t and "license" in t for t in texts)
    assert not any("recommendation, and 90 See" in t for t in texts)


def test_a_decimal_number_at_a_lines_end_goes_on_in_lower_case_but_a_note_mark_after_a_sentence_does_not():
    # "… (57.3" reads as a sentence ending "57." with a note's mark "3", unless the next line goes on in lower case
    # (the first line stops well short of the column's edge, as a paragraph's last line would)
    lines = [line("The office processed 52,811 of 92,125 claims (57.3", 72, 100, x1=300),
             line("percent) within 60 days during the year, and the rest in an average of 93 days.", 72, 114,
                  x1=540),
             line("The Commission received the comments by the end of 2017.45", 72, 150, x1=540),
             line("The Commission then proposed the rule, and it ran the survey again in the spring.", 90, 164,
                  x1=540)]  # (indented after a sentence that ended: a new paragraph)
    _, blocks = blocks_of(page(lines))
    texts = [b.text for b in blocks]
    assert texts[0] == ("The office processed 52,811 of 92,125 claims (57.3 percent) within 60 days during the year, "
                        "and the rest in an average of 93 days.")
    assert texts[1:] == [lines[2].text, lines[3].text]


def test_a_label_under_a_full_line_goes_on_with_its_sentence_when_no_list_holds_it():
    # a variable, a chapter's number or a name's initial wrapped to a line's start reads like a list's label
    text = [line("Given a query q and a database of objects D, the objective is to find the neighbors of q in", 72,
                 100, x1=540),
            line("D. All these works adopt the filter-and-refinement framework, which is described in Chapter", 72,
                 111, x1=540),
            line("7. A federate may play one or more of these roles in the federation.", 72, 122, x1=400)]
    # a list's items: the series' first label, the one after a label above, a label after a short line
    items = [line("The plan names the steps each office takes when its systems fail, which it tests at least", 72,
                  200, x1=540),
             line("A. Notify the contacts listed in the plan and record the time of the failure and its cause, and",
                  72, 211, x1=540),
             line("B. Recover the system from its backup before the end of the next working day in the office,", 72,
                  222, x1=540),
             line("C. Report to the board", 72, 233, x1=190),
             line("D. Test the plan again.", 72, 244, x1=200)]
    _, blocks = blocks_of(page(text + items))
    texts = [b.text for b in blocks]
    assert texts[0].endswith("neighbors of q in D. All these works adopt the filter-and-refinement framework, "
                             "which is described in Chapter 7. A federate may play one or more of these roles in "
                             "the federation.")
    assert [t[:2] for t in texts[2:]] == ["A.", "B.", "C.", "D."]


def termed(term, text, x0, text_x0, base, x1=540.0):
    """A line of a hanging term and its text a tab stop to the right (two fragments on one baseline)."""
    joined = line(f"{term} {text}", x0, base, x1=x1)
    return dataclasses.replace(joined, rest_x0=text_x0, pieces=((term, x0, x0 + 6.0 * len(term)), (text, text_x0, x1)))


def test_a_hanging_term_opens_a_list_item_and_its_text_goes_on_under_its_text():
    # troff's tagged paragraphs: "O" at the margin, its text a tab stop right, the text's next lines under it
    lead = line("where the class is a single character, and may be selected from:", 72, 100, x1=400)
    items = [termed("O", "Add an entry to the document outline. This operation has been described", 96, 121, 115),
             line("earlier, in the section on outlines.", 121, 126, x1=300),
             termed("M", "Place a named destination reference mark at the current output position", 96, 121, 141),
             line("in the current document.", 121, 152, x1=260),
             termed("L", "Insert an active link to a named destination.", 96, 121, 167, x1=400),
             termed("W", "Insert an active link to a web resource.", 96, 121, 182, x1=380),
             termed("D", "Specify the content of a reference dictionary entry.", 96, 121, 197, x1=400)]
    _, blocks = blocks_of(page([lead] + items))  # ("D": a capital A-H alone is a term here, no numbering label)
    assert [b.kind for b in blocks] == ["paragraph"] + ["list_item"] * 5
    assert blocks[0].text == lead.text  # (the first item is no longer glued to the line that leads into the list)
    assert blocks[1].text == "O Add an entry to the document outline. This operation has been described earlier, " \
                             "in the section on outlines."
    assert blocks[4].text.startswith("W Insert")


def test_a_number_or_a_word_space_before_the_text_is_no_hanging_term():
    # a numbered line (a footnote's, a section's) and fragments a word space apart go on as they did
    numbered = [termed("12", "The survey team walked the river at dawn and counted every heron", 72, 90, 100),
                line("it could see from the bank.", 90, 111, x1=240)]
    spaced = [termed("The", "survey team walked the river at dawn and counted every heron it", 72, 92, 140),
              line("could see from the bank while the water was still low.", 72, 151, x1=400)]
    _, blocks = blocks_of(page(numbered + spaced))
    assert "list_item" not in [b.kind for b in blocks]


LIBRARIES = ("Various 3D arrows", "Audiovisual components", "Some charts (polar, log-log)",
             "Electronic Schematic - symbols for creating electronic schematics", "Flowchart symbols",
             "Hospital equipment")


def test_a_list_set_one_item_a_line_without_bullets_keeps_its_lines():
    lines = [line(t, 90, 100 + 11 * k) for k, t in enumerate(LIBRARIES)]  # each line as long as its text
    _, blocks = blocks_of(page(lines + [line(PROSE[0], 72, 180, x1=540)]))
    assert blocks[0].kind == "paragraph"
    assert blocks[0].text.split("\n") == list(LIBRARIES)  # (one item a line of the block's text)
    assert [blocks[0].text[s.start:s.end] for s in blocks[0].lines] == list(LIBRARIES)


def test_a_wrapped_paragraph_with_ragged_lines_or_a_sentence_running_on_is_no_list():
    ragged = [line(PROSE[0], 72, 100, x1=530), line(PROSE[1], 72, 111, x1=540), line(PROSE[2], 72, 122, x1=525)]
    running = [line("Board members who served", 72, 150), line("in 2023 and the staff of", 72, 161),
               line("the Reserve Banks took part", 72, 172), line("Next paragraph.", 72, 183)]
    _, blocks = blocks_of(page(ragged + running))
    assert "\n" not in blocks[0].text and "\n" not in blocks[-1].text
