"""Notes in the block model (engine.readers.notes): footnotes at a page's foot and reference-list entries, found
by where they sit, the size they are set in and what the body says, on synthetic pages."""

from __future__ import annotations

from engine.readers.notes import body_size, footnotes, note_blocks, references
from engine.schemas.blocks import Block, BlockStyle, PageBlocks

BODY = "The committee met four times during the year and reviewed the budget of the program."


def block(text: str, top: float, size: float = 10.0, *, left: float = 72.0, right: float = 540.0,
          height: float = 40.0, kind: str = "paragraph", level: int | None = None) -> Block:
    return Block(kind=kind, text=text, bbox=(left, top, right, top + height), style=BlockStyle(size=size),  # type: ignore[arg-type]
                 level=level)


def page(blocks: list[Block], number: int = 1) -> PageBlocks:
    return PageBlocks(page=number, width=612.0, height=792.0, blocks=blocks)


def test_small_text_at_the_foot_opening_with_a_marker_is_a_footnote():
    found = page([block(BODY, 80), block(BODY + " It met in June.12", 140), block(BODY, 200),
                  block("12 See the minutes of the June meeting for the list of members present.", 690, 8.0, height=12),
                  block("It was the first meeting after the reorganisation.", 703, 8.0, height=12),
                  Block(kind="furniture", text="7", bbox=(300, 750, 310, 760))])
    assert footnotes(found, 10.0) == {3, 4}  # the note and the line that goes on with it, not the page number


def test_a_note_in_body_type_counts_when_the_body_carries_its_mark():
    marked = page([block(BODY + " The rule applies to brokers.180", 80, 12.0, height=400),
                   block("180 See Relationship Summary Proposal.", 600, 12.0, height=16)])
    unmarked = page([block(BODY + " The rule applies to brokers.", 80, 12.0, height=400),
                     block("180 Brokers must keep records of every recommendation they make.", 600, 12.0, height=16)])
    assert footnotes(marked, 12.0) == {1}
    assert footnotes(unmarked, 12.0) == set()  # a numbered paragraph that happens to close the page


def test_a_short_note_set_in_its_smaller_marker_size_joins_the_run_numbered_after_it():
    # "38 Id." reads at its marker's size (8), the notes after it at the body's (12): the numbers 38, 39, 40 run on
    found = page([block(BODY + " The Commission received many letters.38 Most were qualitative.39", 80, 12.0, height=400),
                  block("38 Id.", 555, 8.0, height=17),
                  block("39 See the 913 Study at viii.", 575, 12.0, height=17),
                  block("40 See Request for Data and Other Information.", 595, 12.0, height=17)])
    assert footnotes(found, 12.0) == {1, 2, 3}
    out_of_order = page([block(BODY + " The Commission received many letters.38", 80, 12.0, height=400),
                         block("38 Id.", 555, 8.0, height=17),
                         block("12 The rule applies to brokers and dealers alike.", 575, 12.0, height=17)])
    assert footnotes(out_of_order, 12.0) == set()  # not the next number: the larger block ends the run


def test_notes_taking_more_room_than_the_body_are_notes_from_the_first_one_on_the_upper_half():
    # the body ends above the page's middle; its notes fill the rest, the first two starting above it (one of two
    # paragraphs), their first lines reaching a little into the next's box
    body = block(BODY + " It met in June.17 It also met in July.18", 80, 12.0, height=250)
    notes = [block("17 See the minutes of the June meeting.", 379, height=16),
             block("The minutes list the members present and the votes taken on each item.", 393, left=108,
                   height=186),
             block("18 For an extensive discussion of the July meeting, see the annual report.", 582, height=15),
             block("It also lists the members present.", 595, left=108, height=37),
             block("19 See the committee's charter.", 635, height=61)]
    found = page([body, *notes])
    assert footnotes(found, 12.0) == {1, 2, 3, 4, 5}
    larger = page([body, block("17 The committee then met again in the autumn.", 379, 12.0, height=16), *notes[2:]])
    assert footnotes(larger, 12.0) == {2, 3, 4}  # text in the body's size above the notes is no note
    unmarked = page([body, notes[1], *notes[2:]])
    assert footnotes(unmarked, 12.0) == {2, 3, 4}  # nor small text above them that no marker opens (a quote)


def test_a_figure_of_the_body_is_no_mark():
    found = page([block(BODY + " It has 2,180 members since 2012.", 80, 12.0, height=400),
                  block("180 Members must pay dues every quarter.", 600, 12.0, height=16)])
    assert footnotes(found, 12.0) == set()


def test_small_numbered_text_with_body_text_below_it_is_no_footnote():
    note = block("6 See the board's website for the schedule of meetings.", 420, 7.0, height=10)
    found = page([block(BODY, 80), note, block(BODY, 500), block(BODY, 560)])
    assert footnotes(found, 10.0) == set()


def test_a_footnote_closing_the_left_column_before_the_right_column():
    left, right = dict(left=54.0, right=293.0), dict(left=317.0, right=556.0)
    found = page([block(BODY, 80, 9.0, height=600, **left),
                  block("6For the ease of presentation, we write the bound as b.", 700, 9.0, height=20, **left),
                  block(BODY + " The bound6 holds.", 60, 9.0, height=640, **right)])
    # marked in the body only by the right column's text, which reading order puts after it
    assert footnotes(found, 9.0) == set()
    small = page([block(BODY, 80, 9.0, height=600, **left),
                  block("6For the ease of presentation, we write the bound as b.", 700, 8.0, height=20, **left),
                  block(BODY, 60, 9.0, height=640, **right)])
    assert footnotes(small, 9.0) == {1}  # the right column's text stands beside it, not over it


def test_a_run_of_bracket_numbered_entries_is_a_reference_list():
    entries = [block(f"[{n}] A. Author and B. Writer. A study of things, part {n}. In Proc. of a Meeting, 2013.",
                     80 + 50 * n) for n in range(1, 4)]
    found = references([page([block(BODY, 40), *entries])])
    assert found == {1: {1, 2, 3}}
    alone = references([page([block(BODY, 40), block("[4] We return to this point in the next section.", 200)])])
    assert alone == {}


def test_entries_under_a_references_heading_are_notes_up_to_the_next_heading_as_high():
    pages = [page([block(BODY, 40), block("7 References", 100, 12.0, kind="heading", level=2),
                   block("Smith, J. (2020). Things. Journal of Stuff, 3, 1-10.", 130),
                   block("Jones, K. (2019). More things. Press.", 180)]),
             page([block("Brown, L. (2018). Old things. Press.", 60),
                   block("Appendix A", 120, 12.0, kind="heading", level=2), block(BODY, 160)], 2)]
    assert references(pages) == {1: {2, 3}, 2: {0}}
    manual = [page([block("Reference", 100, 12.0, kind="heading", level=2), block("edge() draws an edge.", 130)])]
    assert references(manual) == {}  # a manual's reference part is its text


def test_a_references_section_named_in_another_language_and_set_as_a_table_is_notes():
    # a German thesis's "Literatur": its entries set as a table of keys beside entries ("[LKP95] | Dik Lun Lee …")
    pages = [page([block(BODY, 40), block("Literatur", 100, 14.0, kind="heading", level=1),
                   block("| [LKP95] | Dik Lun Lee. Signature File Methods. 1995. |", 130, kind="table"),
                   block("[Osrm] OSRM contributors. The OSRM Project.", 300)]),
             page([block("A. Inhalt der DVD", 60, 14.0, kind="heading", level=1),
                   block("| daten | Die Datensätze |", 100, kind="table")], 2)]
    assert references(pages) == {1: {2, 3}}
    assert references([page([block("Tabellen", 100, 14.0, kind="heading", level=1),
                             block("| a | b |", 130, kind="table")])]) == {}  # (a table under another heading)


def test_note_blocks_reads_the_body_size_of_the_document():
    pages = [page([block(BODY, 80), block(BODY, 200),
                   block("1 Figures are rounded to the nearest million dollars.", 700, 8.0, height=12)])]
    assert body_size(pages) == 10.0
    assert note_blocks(pages) == {1: {2}}


def test_a_note_in_body_type_right_above_the_next_numbered_one_is_a_note_though_it_starts_on_the_upper_half():
    # notes set as large as the body, told apart by their marks in it: the first starts a little above the page's
    # middle, the two below it on the lower half
    body = block(BODY + " It met in June.42 It also met in July.43 And in May.44", 71, 12.0, height=288)
    notes = [block("42 For example, the minutes of the June meeting list the members present.", 395.6, 12.0,
                   height=180),
             block("43 See the minutes of the July meeting.", 581, 12.0, height=97),
             block("44 Id.", 684, 8.0, height=8)]
    assert footnotes(page([body, *notes]), 12.0) == {1, 2, 3}
    # a paragraph above them that is not the note before the next one stays in the body
    other = block("41 The committee then met again in the autumn, as the charter asks.", 395.6, 12.0, height=180)
    assert footnotes(page([body, other, *notes[1:]]), 12.0) == {2, 3}
