"""How chosen windows become quoted passages (engine.agent.passages): every result is a literal span."""

from __future__ import annotations

from dataclasses import replace

from engine.agent.passages import carried, close_gaps, read_back, read_on, runs_over, table_header, \
    with_table_headers
from engine.index.evidence import Window, analyse, readable


def window_of(analysis, text: str, first: int, last: int | None = None) -> Window:
    units = analysis.units[first:(first if last is None else last) + 1]
    start, end = units[0].start, units[-1].end
    return Window(start, end, len(units), 1.0, 1.0, frozenset(), False, text[start:end], tuple(u.text for u in units))


def unit_index(analysis, prefix: str) -> int:
    return next(i for i, u in enumerate(analysis.units) if u.text.startswith(prefix))


def assert_literal(window: Window, text: str) -> None:
    assert window.text == text[window.start:window.end]
    assert all(part in window.text for part in window.parts)


def test_a_passage_that_points_back_gets_the_sentence_it_points_to():
    page = ("Greenlight | This is a decarbonization tool that targets net-zero emissions. It tracks greenhouse gas "
            "and carbon footprints.\n\nIt stands alone in a new paragraph.")
    analysis = analyse(page)
    grown = read_back(analysis, page, window_of(analysis, page, unit_index(analysis, "It tracks")), [])
    assert grown.text.startswith("Greenlight | This is a decarbonization tool") and "carbon footprints" in grown.text
    assert_literal(grown, page)
    # not across a paragraph break, and not into another chosen passage
    alone = window_of(analysis, page, unit_index(analysis, "It stands"))
    assert read_back(analysis, page, alone, []) is alone
    tracks = window_of(analysis, page, unit_index(analysis, "It tracks"))
    assert read_back(analysis, page, tracks, [window_of(analysis, page, 0)]) is tracks


def test_a_passage_opening_with_a_connective_gets_the_sentence_it_goes_on_from():
    page = ("Lock files live in /run. The file must hold the process number in decimal and a newline. For example, "
            "if the daemon is process 25, the file holds two, five and a newline.")
    analysis = analyse(page)
    grown = read_back(analysis, page, window_of(analysis, page, unit_index(analysis, "For example")), [])
    assert grown.text.startswith("The file must hold the process number")
    assert_literal(grown, page)


def test_a_passage_that_does_not_point_back_is_left_alone():
    page = "The first sentence. The second sentence names its subject."
    analysis = analyse(page)
    window = window_of(analysis, page, 1)
    assert read_back(analysis, page, window, []) is window


def test_a_passage_naming_a_term_asked_about_gets_the_description_before_it():
    page = ("Graphs have symmetries. The automorphisms define an equivalence relation on the vertices: two vertices "
            "are equivalent if an automorphism maps one onto the other. For example, vertices 6 and 7 are equivalent. "
            "The sets of equivalent vertices are called orbits; here there are two.\n\nA new paragraph follows.")
    analysis = analyse(page)
    naming = unit_index(analysis, "The sets of")
    window = window_of(analysis, page, naming)
    asked = replace(window, matched=frozenset({"orbit"}))
    grown = read_back(analysis, page, asked, [])
    # the paragraph's description of what an orbit is, not only the sentence naming it
    assert "two vertices are equivalent if an automorphism maps" in grown.text and grown.text.endswith("two.")
    assert_literal(grown, page)
    # a naming sentence of a term not asked about leans on nothing
    assert read_back(analysis, page, window, []) is window
    # no further back than NAMED_BACK_CHARS
    long_page = "Preamble. " + "A sentence of filler words that says little. " * 12 + page
    long_analysis = analyse(long_page)
    far = window_of(long_analysis, long_page, unit_index(long_analysis, "The sets of"))
    far = replace(far, matched=frozenset({"orbit"}))
    grown = read_back(long_analysis, long_page, far, [])
    assert not grown.text.startswith("Preamble") and len(grown.text) - len(far.text) <= 400 + 200


def test_an_item_that_introduces_sub_items_does_not_end_the_list():
    page = ("Guidance and Outlook:\n\n- Q2 Fiscal 2025:\n\n- Modest decline in subscribers\n\n"
            "- Fiscal Year 2025:\n\n- High-single digit adjusted EPS growth, with an increase in\n\n"
            "operating income of approximately $875 million\n\n- Sports: 13% segment operating income growth\n\n"
            "Message From Our CEO:\n\nA quote.")
    analysis = analyse(page)
    grown = read_on(analysis, page, window_of(analysis, page, 0), 400, [])
    assert "13% segment operating income growth" in grown.text  # past the sub-list and the split item
    assert "approximately $875 million" in grown.text
    assert "Message From Our CEO" not in grown.text  # a new list that is not an item ends it
    assert_literal(grown, page)
    assert "an increase in operating income" in readable(grown.text)  # the split item reads as one line


TABLE = ("Table 1: Device Family\n\nXC9536 | XC9572 | XC95216\n\nMacrocells | 36 | 72 | 216\n\n"
         "TPD (ns) | 5 | 7.5 | 10\n\nTSU (ns) | 3.5 | 4.5 | 6.0\n\nfCNT (MHz) | 100 | 125 | 111.1\n\n"
         "fSYSTEM (MHz) | 100 | 83.3 | 66.7\n\n1. fCNT = Operating frequency for 16-bit counters.")


def test_quoted_table_rows_get_their_header_row():
    analysis = analyse(TABLE)
    rows = window_of(analysis, TABLE, unit_index(analysis, "fSYSTEM"))
    header = table_header(analysis, TABLE, rows)
    assert header is not None and header.text == "XC9536 | XC9572 | XC95216"
    chosen = with_table_headers([(1, rows)], lambda page: (analysis, TABLE))
    assert [w.text for _, w in chosen] == ["fSYSTEM (MHz) | 100 | 83.3 | 66.7", "XC9536 | XC9572 | XC95216"]
    # a passage holding the header, or prose, gets nothing added
    whole = window_of(analysis, TABLE, unit_index(analysis, "XC9536"), unit_index(analysis, "fSYSTEM"))
    assert with_table_headers([(1, whole)], lambda page: (analysis, TABLE)) == [(1, whole)]
    note = window_of(analysis, TABLE, unit_index(analysis, "1. fCNT"))
    assert table_header(analysis, TABLE, note) is None


def test_passages_one_unit_apart_are_quoted_as_one():
    analysis = analyse(TABLE)
    page_of = lambda page: (analysis, TABLE)  # noqa: E731
    tsu = window_of(analysis, TABLE, unit_index(analysis, "TSU"))
    fsystem = window_of(analysis, TABLE, unit_index(analysis, "fSYSTEM"))
    macro = window_of(analysis, TABLE, unit_index(analysis, "Macrocells"))
    joined = close_gaps([(1, fsystem), (2, macro), (1, tsu)], page_of)
    assert len(joined) == 2 and joined[1] == (2, macro)  # the other page's passage stays apart
    page, merged = joined[0]
    assert page == 1 and "fCNT (MHz) | 100 | 125 | 111.1" in merged.text  # the row between them is quoted
    assert_literal(merged, TABLE)
    # two units or more apart: left as they are
    assert len(close_gaps([(1, macro), (1, fsystem)], page_of)) == 2


def test_web_and_mail_addresses_hold_no_words():
    page = ("See https://www.sec.gov/divisions/investment/advoverview.htm. Write to press@sec.gov for copies. "
            "The SEC agreed.")
    analysis = analyse(page)
    assert [sorted(s) for s in analysis.stems] == [["see"], ["copi", "write"], ["agre", "sec"]]


def test_a_section_quoted_from_its_heading_reads_to_the_next_heading():
    items = "\n\n".join(f"Dimension {n}\n\nWhat dimension {n} measures, described in a line of some length"
                        for n in range(12))
    page = f"## Evaluation dimensions\n\n{items}\n\n## Next section\n\nOther text."
    analysis = analyse(page)
    heading = window_of(analysis, page, 0, 2)
    grown = read_on(analysis, page, Window(heading.start, heading.end, 3, 1.0, 1.0, frozenset({"dimens"}), False,
                                           heading.text, heading.parts), 200, [])
    assert "Dimension 11" in grown.text and "Next section" not in grown.text
    assert_literal(grown, page)
    # a heading that names nothing the question asks reads on as far as any passage
    plain = read_on(analysis, page, heading, 200, [])
    assert "Dimension 11" not in plain.text


def test_a_list_over_headed_groups_reads_through_their_headings():
    page = ("### Required capabilities\n\nWinners will likely share these capabilities, including:\n\n"
            "### Technology\n\n"
            "- Modern and modular data architecture.\n\n### Governance\n\n- A partnership management function.\n\n"
            "### Strategy\n\n- A strong base of proprietary data.\n\n### Next topic\n\nPlain text that is not a list.")
    analysis = analyse(page)
    intro = window_of(analysis, page, unit_index(analysis, "Winners"))
    grown = read_on(analysis, page, intro, 400, [])
    assert "partnership management function" in grown.text and "proprietary data" in grown.text
    assert "Plain text" not in grown.text  # a heading after the last group's items, then prose: the list is over
    assert_literal(grown, page)
    # a passage that does not end by introducing a list stops at the next heading
    heading = window_of(analysis, page, 0)
    assert read_on(analysis, page, heading, 400, []).text == page[heading.start:intro.end]


def test_a_title_repeated_as_the_heading_under_it_is_read_on_into_its_section():
    # a page printed from the web: the browser's header line gives the page's title, its first heading repeats it
    page = ("Once-Only Include Files\n\n## Once-Only Include Files\n\nVery often one header file includes another. "
            "The standard way to prevent it is a conditional around the whole file.\n\n## Computed Includes\n\n"
            "Another section.")
    analysis = analyse(page)
    title = window_of(analysis, page, 0)
    grown = read_on(analysis, page, title, 40, [])
    assert "standard way to prevent it" in grown.text and "Computed Includes" not in grown.text
    assert_literal(grown, page)
    # a heading of another title ends the passage, as any heading does
    other = page.replace("## Once-Only Include Files", "## Wrapper Headers")
    other_analysis = analyse(other)
    assert read_on(other_analysis, other, window_of(other_analysis, other, 0), 40, []).text == "Once-Only Include Files"


def test_a_passage_running_over_its_page_break_reads_on_the_next_page():
    # a "…:" line ending its page: the list follows on the next page, up to its first heading
    page = "Some words before. The law names seven principles, as follows [30]:"
    analysis = analyse(page)
    window = window_of(analysis, page, 1)
    assert runs_over(analysis, page, window)
    following = "User control and consent: systems must be trusted.\n\nMinimal disclosure: reveal the least.\n\n## Next"
    opening = carried(analyse(following), following, introduces=True)
    assert opening is not None and opening.text.startswith("User control") and "Minimal disclosure" in opening.text
    assert "Next" not in opening.text
    assert_literal(opening, following)
    # a sentence cut off by the page break: the next page's first unit, when it goes on in lower case
    cut = "The card issuer may issue a new card without repeating the identity proofing and"
    cut_analysis = analyse(cut)
    assert runs_over(cut_analysis, cut, window_of(cut_analysis, cut, 0))
    rest = "registration steps, when the break was short. A second sentence."
    assert carried(analyse(rest), rest, introduces=False).text == "registration steps, when the break was short."
    assert carried(analyse("A new paragraph opens. More."), "A new paragraph opens. More.", introduces=False) is None
    # the footnotes at the page's foot are passed over: the cut sentence still goes on on the next page
    noted = cut + "\n\n11 The results on the second data set are similar."
    noted_analysis = analyse(noted, notes=frozenset({2}))
    assert runs_over(noted_analysis, noted, window_of(noted_analysis, noted, 0))
    assert not runs_over(analyse(noted), noted, window_of(analyse(noted), noted, 0))  # (no note: text goes on)
    # a finished sentence, or a passage that does not reach the page's end, runs over nothing
    done = "A sentence. It ends here."
    done_analysis = analyse(done)
    assert not runs_over(done_analysis, done, window_of(done_analysis, done, 1))
    assert not runs_over(analysis, page, window_of(analysis, page, 0))


def test_a_run_of_list_items_ending_its_page_reads_on_the_items_the_next_page_opens_with():
    page = "The conclusion surveys these protocols.\n\n- Tendermint: a pure design.\n\n- Hotstuff: exponential backoff."
    analysis = analyse(page)
    window = window_of(analysis, page, 1, 2)
    assert runs_over(analysis, page, window)
    following = "- Thunderella: an optimistic fast path.\n\n- Ouroboros: synchronous.\n\nA paragraph after the list."
    opening = carried(analyse(following), following, introduces=False, items=True)
    assert opening is not None and "Thunderella" in opening.text and "Ouroboros" in opening.text
    assert "paragraph after" not in opening.text
    assert_literal(opening, following)
    # the next page opening with no item: the list ended with its page
    prose = "A new section opens here. More."
    assert carried(analyse(prose), prose, introduces=False, items=True) is None
    # one item alone is no run
    single = "Some words.\n\n- Only one item."
    single_analysis = analyse(single)
    assert not runs_over(single_analysis, single, window_of(single_analysis, single, 1))
