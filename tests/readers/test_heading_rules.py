"""Heading rules that hold for classes of documents (issue 11, items 4 and 5), each on synthetic lines: running heads
of a chapter, chapter labels, numbering depth, small capitals, run-in headings, identifiers, figure labels, table
text, the title block, a section's own list of contents, a catalogue's small items."""

from __future__ import annotations

from engine.readers.furniture import find_furniture, strip_furniture
from engine.readers.headings import Candidate, Style, assign_levels, figure_text
from engine.readers.layout import Line, PageLayout, _small_caps_size
from engine.readers.offline import compose
from engine.readers.run_in import split_run_in
from engine.readers.table_regions import table_text

BODY = "The survey team walked the river at dawn and counted every heron it could see from the bank."


def line(text, x0, base, *, size=10.0, bold=False, italic=False, x1=None, mono=False, face="Times",
         lead=0, lead_style=(False, False, False)):
    x1 = x0 + 5.0 * len(text) if x1 is None else x1
    return Line(text=text, x0=x0, y0=base - 0.9 * size, x1=x1, y1=base + 0.35 * size, size=size, bold=bold,
                italic=italic, block=0, face=face, mono=mono, base=base, lead=lead, lead_style=lead_style)


def prose(top, count=4, x0=72):
    return [line(BODY, x0, top + 12 * k, x1=540) for k in range(count)]


def headings(result):
    return [(b.text, b.level) for page in result.blocks for b in page.blocks if b.kind == "heading"]


def heading_titles(pages):
    """The headings' titles of pages composed by the reader, in order."""
    return [t for t, _ in headings(compose(pages))]


def test_a_running_head_that_changes_with_the_chapter_is_furniture_but_the_heading_that_reads_the_same_stays():
    pages = []
    for n in range(1, 8):
        head = "CHAPTER ONE" if n <= 4 else "CHAPTER TWO"
        lines = [line(head, 72, 40, size=9)] + prose(100, 20)
        if n == 5:  # the chapter's own heading, set large in the text, reads like the running head
            lines = [line(head, 72, 40, size=9), line("CHAPTER TWO", 72, 90, size=16, bold=True)] + prose(120, 20)
        pages.append(PageLayout(n, 612, 792, lines, []))
    furniture = find_furniture(pages, 10.0)
    for page in pages:
        kept, _ = strip_furniture(page, furniture)
        assert not any(l.y0 < 50 for l in kept)
    kept, _ = strip_furniture(pages[4], furniture)
    assert any(l.text == "CHAPTER TWO" and l.size == 16 for l in kept)


def test_a_running_foot_that_repeats_a_section_title_is_furniture_though_each_title_runs_on_one_page():
    # a manual's running foot names the section (each on a page or two: too few to repeat); the heading it
    # repeats (numbered "1.3", the foot "1.3.") and a body-size heading at the top of the text stay
    pages, texts = [], ["1.1 The data section", "1.2 The code section", "1.3 The include command"]
    for n, title in enumerate(texts, start=1):
        lines = [line(title, 72, 120, size=14.5, bold=True)] + prose(150, 30)
        if n > 1:
            previous = texts[n - 2].replace(" ", ". ", 1)
            lines.append(line(previous, 72, 750, size=10, bold=True))
        pages.append(PageLayout(n, 612, 792, lines, []))
    top = [line("Node anchors", 72, 70, bold=True)] + prose(82, 30)  # (a heading at the text's top, in the margin)
    pages.append(PageLayout(4, 612, 792, top, []))
    pages.append(PageLayout(5, 612, 792, [line("Node anchors", 72, 300, size=14.5, bold=True)] + prose(320, 10), []))
    furniture = find_furniture(pages, 10.0)
    for page in pages[1:3]:
        kept, _ = strip_furniture(page, furniture)
        assert not any(l.y0 > 700 for l in kept)
        assert any(l.size == 14.5 for l in kept)
    kept, _ = strip_furniture(pages[3], furniture)
    assert kept[0].text == "Node anchors"
    from engine.readers.furniture import _echo_key
    assert _echo_key("Chapter 1. Source \ufb01les format") == _echo_key("SOURCE FILES FORMAT")  # (a ligature)


def test_a_reference_entry_and_a_line_ending_in_a_broken_word_are_not_headings():
    refs = [line("[53] VERORDNUNG (EU) 2016/679 DES EUROPAEISCHEN PARLAMENTS UND", 72, 100, bold=True),
            line("DES RATES vom 27. April 2016 zum Schutz natuerlicher Personen", 72, 112)]
    item = [line("2. Minimale Offenlegung fuer eine eingeschraenkte Verwendung: Das Offen-", 72, 200, bold=True),
            line("legen von Daten soll so gering wie moeglich gehalten werden.", 72, 212)]
    heading = [line("3 Self-Sovereign Identity", 72, 300, size=14, bold=True)]
    result = compose([PageLayout(1, 612, 792, prose(40, 4) + refs + prose(130, 4) + item + heading + prose(320, 4),
                                 [])])
    assert [text for text, _ in headings(result)] == ["3 Self-Sovereign Identity"]


def _chapters(first_line):
    """A short book: a title page, then chapters opening with `first_line(n)` above their title."""
    pages = [PageLayout(1, 612, 792, [line("River Survey Methods", 72, 200, size=28, bold=True)], [])]
    for n in range(2, 6):
        pages.append(PageLayout(n, 612, 792, first_line(n) + [line(f"Topic number {n}", 72, 160, size=24, bold=True)]
                                + prose(200, 10) + [line(f"{n}.1 Field notes", 72, 350, size=14, bold=True)]
                                + prose(380, 10), []))
    return compose(pages)


def test_a_chapter_label_on_its_own_line_is_not_a_heading_of_its_own():
    result = _chapters(lambda n: [line(f"Chapter {n - 1}", 72, 120, size=20, bold=True)])
    found = headings(result)
    assert not any(text.startswith("Chapter") for text, _ in found)
    levels = {text: level for text, level in found}
    assert levels["Topic number 2"] < levels["2.1 Field notes"]
    assert "Chapter 1" in result.markdown  # (the label stays in the text)


def test_numbering_depth_gives_a_heading_set_in_another_style_its_depth_level():
    def cand(order, text, size, bold):
        return Candidate(2 + order // 3, order % 3, 1, text, Style(size, bold, False, False, ""), order, under=5,
                         prose=True)
    cands = [cand(0, "1 Intro", 16, True), cand(1, "1.1 Scope", 12, True), cand(2, "1.2 Terms", 14, False),
             cand(3, "2 Methods", 16, True), cand(4, "2.1 Sampling", 12, True), cand(5, "2.2 Counting", 12, True)]
    levels = assign_levels(cands, 10.0, 20)
    assert levels[2] == levels[1] == levels[4]  # "1.2" set in a one-off style still sits beside "1.1"
    assert levels[0] < levels[1]


def test_headings_labelled_with_one_word_and_depth_share_the_level_most_of_them_have():
    def cand(order, text, size, bold):
        return Candidate(2 + order // 3, order % 3, 1, text, Style(size, bold, False, False, ""), order, under=5,
                         prose=True)
    cands = [cand(0, "1. Safety", 16, True), cand(1, "Strategy 1.1.1. Roads", 12, False),
             cand(2, "Strategy 1.1.2. Workers", 12, False), cand(3, "Strategy 1.1.3. Research", 12, True),
             cand(4, "Strategy 1.1.4. Data", 12, False), cand(5, "2. Economy", 16, True),
             cand(6, "Key Findings", 12, True), cand(7, "Strategy 2.1.1. Jobs", 12, False),
             cand(8, "Other Findings", 12, True)]
    levels = assign_levels(cands, 10.0, 20)
    assert levels[1] == levels[2] == levels[3] == levels[4]  # the bold one is their sibling, not their parent
    assert levels[0] < levels[1] and levels[6] < levels[7]  # (the bold style itself still ranks above)


def test_front_and_back_matter_set_larger_than_unnumbered_chapters_sits_beside_them():
    def cand(order, text, size, caps=False):
        return Candidate(2 + order, 0, 1, text, Style(size, True, False, caps, ""), order, under=5, prose=True)
    cands = [cand(0, "Message from the Director", 24), cand(1, "AGENCY OVERVIEW", 16, True),
             cand(2, "History", 13), cand(3, "STRATEGIC FRAMEWORK", 16, True), cand(4, "Vision", 13),
             cand(5, "PERFORMANCE DETAILS", 16, True), cand(6, "Goals", 13), cand(7, "Acronyms", 24)]
    levels = assign_levels(cands, 10.0, 20)
    assert levels[0] == levels[1] == levels[3] == levels[5] == levels[7]
    assert levels[2] == levels[4] == levels[6] == levels[1] + 1
    # a larger style between the chapters is a part over them, and keeps its rank
    cands = [cand(0, "Part One", 24), cand(1, "AGENCY OVERVIEW", 16, True), cand(2, "STRATEGIC FRAMEWORK", 16, True),
             cand(3, "Part Two", 24), cand(4, "PERFORMANCE DETAILS", 16, True), cand(5, "Acronyms", 24)]
    levels = assign_levels(cands, 10.0, 20)
    assert levels[0] == levels[3] < levels[1] == levels[2] == levels[4]


def test_a_heading_right_above_a_tables_label_stands_on_its_own():
    lines = prose(40, 4) + [line("Strategy 1.03: Provide targeted learning and development for employees", 72, 120,
                                 size=12, bold=True),
                            line("TABLE 1.03", 72, 138, size=12, bold=True)] + prose(170, 4)
    result = compose([PageLayout(1, 612, 792, lines, [])], title="")
    assert [text for text, _ in headings(result)] == [
        "Strategy 1.03: Provide targeted learning and development for employees"]


def test_a_goal_statement_wrapped_after_a_comma_over_three_lines_is_one_heading_and_a_bold_paragraph_is_none():
    goal = [line("Strategic Goal 6: Provide leadership in helping agencies create inclusive work environments,", 72,
                 100, size=12, bold=True, x1=540),
            line("where a diverse Federal workforce is fully engaged and energized to put forth its best effort,", 72,
                 114, size=12, bold=True, x1=530),
            line("achieve their mission, and remain committed to public service", 72, 128, size=12, bold=True, x1=420)]
    bold = [line("Our agencies measured every program against its targets this year,", 72, 300, size=12, bold=True,
                 x1=540),
            line("and they reported the results to the public before the end of the", 72, 314, size=12, bold=True,
                 x1=530),
            line("fiscal year, as the law requires of them every year", 72, 328, size=12, bold=True, x1=420)]
    def text(top, count):
        return [line(BODY, 72, top + 14 * k, size=12, x1=540) for k in range(count)]
    lines = goal + [line(BODY, 100, 160, size=12, x1=540)] + text(175, 6) + bold + text(360, 6)
    result = compose([PageLayout(1, 612, 792, lines, [])])
    assert [text for text, _ in headings(result)] == [" ".join(l.text for l in goal)]


def test_the_items_of_a_printed_list_of_rules_are_not_headings_but_the_sections_are():
    listing = [line("LIST OF RULES", 250, 80, size=14, bold=True)] + [
        line(f"Rule {k}-1: Federates Register With Unique Names ........................ {20 + k}", 72, 110 + 12 * k,
             x1=540) for k in range(1, 5)] + [
        line(f"Chapter {k}: Unique Names ........................ {20 + k}", 72, 200 + 12 * k, x1=540)
        for k in range(1, 3)]
    pages = [PageLayout(1, 612, 792, listing, [])]
    for n in range(2, 6):
        body = [line(f"Chapter {n}: Execution Control", 72, 80, size=14, bold=True)] + prose(100, 6) + [
            line(f"Rule {n}-1: Federates Register With Unique Names", 72, 190, bold=True)] + prose(210, 6)
        pages.append(PageLayout(n, 612, 792, body, []))
    found = [text for text, _ in headings(compose(pages))]
    assert [t for t in found if t.startswith("Chapter")] == [f"Chapter {n}: Execution Control" for n in range(2, 6)]
    assert not any(t.startswith("Rule") for t in found)


def test_numbered_chapters_followed_by_annexes_with_many_headings_still_set_the_front_matters_level():
    def cand(order, text, size, caps=False):
        return Candidate(2 + order, 0, 1, text, Style(size, True, False, caps, ""), order, under=5, prose=True)
    cands = [cand(0, "TABLE OF CONTENTS", 14, True), cand(1, "LIST OF TABLES", 14, True),
             cand(2, "Introduction", 14), cand(3, "Standard for Space Reference", 14),
             cand(4, "1. Overview", 11), cand(5, "1.1. Scope", 10.5), cand(6, "2. Definitions", 11),
             cand(7, "3. Concepts", 11)]
    cands += [cand(8 + k, f"A.{k + 1} Annex Topic", 10.5) for k in range(8)]  # (more headings after the chapters)
    levels = assign_levels(cands, 10.0, 40)
    assert levels[0] == levels[1] == levels[3] == levels[4] == levels[6] and levels[5] == levels[4] + 1


def test_a_one_off_chapter_title_in_another_face_sits_with_the_chapters_of_its_size():
    def cand(order, text, size, bold=True):
        return Candidate(2 + order, 0, 1, text, Style(size, bold, False, False, ""), order, under=5, prose=True)
    cands = [cand(0, "Introduction", 25), cand(1, "1.1 Scope", 14.5), cand(2, "Bibliography", 25),
             cand(3, "simplesine Files", 25, bold=False), cand(4, "A.1 simplesine.h", 14.5, bold=False),
             cand(5, "A.2 simplesine.c", 14.5, bold=False)]
    levels = assign_levels(cands, 11.0, 40)
    assert levels[3] == levels[2] == levels[0] and levels[4] == levels[5] == levels[3] + 1
    # a one-off only a little larger than the chapters ("Errata" in 14 pt before 12 pt chapters) is no parent of
    # them, though a recurring style of its size ranks higher (a sample's "TABLE OF CONTENTS" in capitals)
    def caps(order, text):
        return Candidate(2 + order, 0, 1, text, Style(14, True, False, True, ""), order, under=5, prose=True)
    cands = [cand(0, "Errata", 14), cand(1, "Executive Summary", 12), cand(2, "Chapter 1. Introduction", 12),
             cand(3, "Chapter 2. Background", 12), caps(4, "TABLE OF CONTENTS"), cand(5, "Plan Approval", 12),
             caps(6, "TABLE OF CONTENTS"), cand(7, "Plan Approval", 12)]
    levels = assign_levels(cands, 11.0, 40)
    assert levels[0] == levels[1] == levels[2]


def test_a_line_mostly_of_symbols_and_a_numbered_sentence_before_its_footnote_mark_are_not_headings():
    from engine.readers.headings import _ends_sentence, _text_ok
    assert not _text_ok("| PLUS { ( + ) }")
    assert _text_ok("5.4.3.1. Time") and _text_ok("6.6. ICT") and _text_ok("(2) 913 Study")
    assert _ends_sentence("3.1.19 Encrypt CUI on mobile devices and mobile computing platforms.23")
    assert not _ends_sentence("Release 2.0") and not _ends_sentence("Appendix A.")


def test_a_chapters_tagline_right_under_its_title_is_no_section_of_it():
    def cand(order, page, index, text, size, italic=False):
        return Candidate(page, index, 1, text, Style(size, not italic, italic, False, ""), order, under=5, prose=True)
    cands = [cand(0, 2, 0, "1. Safety", 16), cand(1, 2, 1, "Make our transport safer for all people.", 12, True),
             cand(2, 2, 9, "Public Safety", 12), cand(3, 3, 0, "2. Economy", 16),
             cand(4, 3, 1, "Grow an inclusive and sustainable economy.", 12, True), cand(5, 3, 9, "Core Assets", 12)]
    levels = assign_levels(cands, 10.0, 20)
    assert 1 not in levels and 4 not in levels
    assert levels[0] == levels[3] and levels[2] == levels[5] == levels[0] + 1
    # an italic style that also stands on its own elsewhere is a heading wherever it stands
    cands += [cand(6, 4, 9, "Grow the economy faster than before", 12, True), cand(7, 4, 15, "Findings", 12)]
    assert 1 in assign_levels(cands, 10.0, 20)


def test_an_assignment_set_large_is_code_not_a_heading():
    lines = prose(40, 4) + [line("MAX_QUEUED_INCOMING_HANDSHAKES_THRESHOLD = 4096", 72, 110, size=13, bold=True),
                            line("Timers and Retransmission", 72, 200, size=13, bold=True)] + prose(130, 4) \
        + prose(220, 4)
    assert [t for t, _ in headings(compose([PageLayout(1, 612, 792, lines, [])]))] == ["Timers and Retransmission"]


def test_a_command_set_indented_in_a_monospaced_face_is_code_though_its_font_says_bold():
    # a manual sets its shell commands in a monospaced font whose descriptor says bold, indented under the sentence
    # that introduces them: code, not headings (a bold monospaced name heading its entry at the text's edge stays:
    # test_an_identifier_set_bold_in_a_typewriter_face_is_a_heading_though_it_starts_in_lower_case)
    commands = ["$ ./configure --prefix=/opt", "$ make", "$ make install"]
    lines = [line("2.1 Installing", 72, 60, size=13, bold=True)] + prose(80, 2)
    for k, text in enumerate(commands):
        lines += [line(text, 90, 120 + 30 * k, bold=True, mono=True, face="Courier-Bold", lead=len(text),
                       lead_style=(True, False, True))] + prose(134 + 30 * k, 1)
    assert heading_titles([PageLayout(1, 612, 792, lines, [])]) == ["2.1 Installing"]


def test_plain_numbered_options_set_one_under_another_are_list_items_not_headings():
    def cand(order, index, text):
        return Candidate(3, index, 1, text, Style(10.0, False, False, False, "arabic"), order, under=0, prose=False)
    section = Candidate(3, 0, 1, "A.5 Section 1: Demographics", Style(12.0, True, False, False, "decimal1"), 0,
                        under=3, prose=True)
    cands = [section, cand(1, 4, "1. Male"), cand(2, 5, "2. Female"),
             Candidate(3, 8, 1, "A.6 Section 2: Interviewer Details", section.style, 3, under=3, prose=True)]
    levels = assign_levels(cands, 10.0, 40)
    assert set(levels) == {0, 3}
    # a numbered heading with its text under it before the next one stays
    cands = [section, cand(1, 4, "1. Male"), Candidate(3, 9, 1, "2. Female", cands[2].style, 2, under=4)]
    assert {1, 2} <= set(assign_levels(cands, 10.0, 40))


def test_one_item_of_a_numbered_list_worded_as_a_title_is_an_item_like_its_neighbours_not_a_heading():
    # "(6) SQL Server Support" reads as a title where its neighbours are phrases in lower case; set in their face and
    # size, at their indent, right under and over them (the one above ends in a bracket, as a paragraph does), it is
    # one of the list's items
    items = ["(4) data import and export", "(5) backup and restore (full, incremental)", "(6) SQL Server Support",
             "(7) index maintenance", "(8) query logging"]
    lines = [line("3.2 Supported Tasks", 72, 60, size=13, bold=True)] + prose(80, 3) \
        + [line(text, 90, 130 + 18 * k) for k, text in enumerate(items)] + prose(230, 4)
    assert heading_titles([PageLayout(1, 612, 792, lines, [])]) == ["3.2 Supported Tasks"]
    # the same line standing apart, its text under it, heads a section
    lines = [line("3.2 Supported Tasks", 72, 60, size=13, bold=True)] + prose(80, 3) \
        + [line("(6) SQL Server Support", 90, 150)] + prose(185, 4)
    assert "(6) SQL Server Support" in heading_titles([PageLayout(1, 612, 792, lines, [])])


def test_a_glossarys_terms_in_alphabetical_order_are_not_headings_but_numbered_labels_in_order_stay():
    def cand(order, text, bold=True, under=6, beside=True):
        return Candidate(3 + order // 2, order % 2 * 10, 1, text, Style(10.5, bold, False, False, ""), order,
                         under=under, prose=True, beside=beside)
    terms = ["CUI categories", "CUI Executive Agent", "CUI program", "CUI registry", "FIPS-validated",
             "Information system"]
    cands = [Candidate(2, 0, 1, "GLOSSARY", Style(16.0, True, False, True, ""), 0, under=2, prose=True)]
    head = cands[:1]
    # (each term's definition beside it, in a second column; or a short one under it)
    cands = head + [cand(1 + k, t) for k, t in enumerate(terms)]
    assert set(assign_levels(cands, 10.0, 40)) == {0}
    cands = head + [cand(1 + k, t, under=2, beside=False) for k, t in enumerate(terms)]
    assert set(assign_levels(cands, 10.0, 40)) == {0}
    # a reference's sections in alphabetical order, each with a section of text under it, stay headings
    commands = ["Column", "Columnhead", "Stringcolumn", "Timecolumn", "Valid", "Words"]
    cands = head + [cand(1 + k, t, under=9, beside=False) for k, t in enumerate(commands)]
    assert len(assign_levels(cands, 10.0, 40)) == 7
    labels = [f"Strategy 1.0{k}: Deliver the plan" for k in range(1, 7)]
    cands = cands[:1] + [cand(1 + k, t) for k, t in enumerate(labels)]
    assert len(assign_levels(cands, 10.0, 40)) == 7
    shuffled = ["Scope", "Purpose", "Audience", "Structure", "Terms", "Methods"]  # (sections: not in order)
    cands = cands[:1] + [cand(1 + k, t) for k, t in enumerate(shuffled)]
    assert len(assign_levels(cands, 10.0, 40)) == 7


def test_a_line_in_small_capitals_takes_its_capitals_size():
    assert _small_caps_size([{"size": 10, "text": "VI."}, {"size": 10, "text": "E"}, {"size": 8, "text": "XPERIMENTAL"},
                             {"size": 10, "text": " E"}, {"size": 8, "text": "VALUATION"}]) == 10
    assert _small_caps_size([{"size": 10, "text": "E = mc"}, {"size": 7, "text": "2"}]) is None
    assert _small_caps_size([{"size": 10, "text": "the word "}, {"size": 8, "text": "NASA"}]) is None


def test_a_numbered_run_in_heading_is_split_from_its_paragraph_and_no_word_is_lost():
    text = "1) Noise Models: We add Gaussian noise to every input and record the"
    run_in = line(text, 82, 200, x1=540, lead=len("1) Noise Models:"), lead_style=(False, True, False))
    theorem = line("Definition 2. A noise model is a distribution over every input of the", 82, 260, x1=540,
                   lead=len("Definition 2."), lead_style=(False, True, False))
    lines = prose(140, 4) + [run_in, line("output of the regression in every trial.", 72, 212, x1=300),
                             theorem, line("input space of the model.", 72, 272, x1=200)]
    split = split_run_in(lines)
    assert [l.text for l in split if l.run_in] == ["1) Noise Models:"]
    result = compose([PageLayout(1, 612, 792, split, [])])
    assert "1) Noise Models:" in [t for t, _ in headings(result)]
    words = " ".join(l.text for l in lines).split()
    assert sorted(words) == sorted(" ".join(b.text for b in result.blocks[0].blocks).split())


def test_a_numbered_run_in_heading_in_title_case_needs_no_colon_but_an_italic_word_opening_an_item_is_none():
    unclosed = line("1) Computing Weight Matrix We can estimate the matrix using the", 82, 200, x1=540,
                    lead=len("1) Computing Weight Matrix"), lead_style=(False, True, False))
    term = line("2) Robustness is measured on every input of the regression test", 82, 224, x1=540,
                lead=len("2) Robustness"), lead_style=(False, True, False))
    phrase = line("3) Adding noise to the inputs changes the output of the model", 82, 248, x1=540,
                  lead=len("3) Adding noise"), lead_style=(False, True, False))
    lines = prose(140, 4) + [unclosed, line("conditional density of the output given all inputs.", 72, 212, x1=300),
                             term, line("suite, before and after the noise is added.", 72, 236, x1=300),
                             phrase, line("for every input of the regression test.", 72, 260, x1=300)]
    assert [l.text for l in split_run_in(lines) if l.run_in] == ["1) Computing Weight Matrix"]


def test_a_single_capitalised_word_centred_over_its_column_is_a_heading_but_a_tag_at_the_edge_is_not():
    refs = [line("[1] C. Szegedy, W. Zaremba, I. Sutskever, J. Bruna, D. Erhan, and others,", 317, 110, size=8,
                 x1=558)]
    centred = prose(40, 4, x0=313) + [line("REFERENCES", 408, 94, x1=463)] + refs
    assert headings(compose([PageLayout(1, 612, 792, centred, [])])) == [("REFERENCES", 1)]
    tagged = prose(40, 4, x0=313) + [line("JTAG", 313, 94, x1=335)] + refs
    assert headings(compose([PageLayout(1, 612, 792, tagged, [])])) == []


def test_an_identifier_set_bold_in_a_typewriter_face_is_a_heading_though_it_starts_in_lower_case():
    pages = [PageLayout(1, 612, 792, [line("Plotting Manual", 72, 200, size=28, bold=True)], [])]
    for n, name in enumerate(["diagram()", "node()", "edge()"], start=2):
        pages.append(PageLayout(n, 612, 792, [line(name, 72, 100, size=12.5, bold=True, mono=True, face="Mono-Bold",
                                                   lead=len(name), lead_style=(True, False, True))]
                                + prose(120, 12), []))
    assert {"diagram()", "node()", "edge()"} <= {t for t, _ in headings(compose(pages))}


def test_labels_inside_a_figure_above_its_caption_are_not_headings_but_a_heading_at_the_edge_is():
    lines = prose(100, 3) + [line("Results", 72, 160, size=14, bold=True),
                             line("Past", 200, 220, size=15), line("Present", 300, 210, size=15),
                             line("Future", 400, 220, size=15), line("Figure 4-2: A time line", 220, 250)]
    found = figure_text(lines, 72)
    assert {lines[k].text for k in found} == {"Past", "Present", "Future"}


def test_the_cells_of_a_table_are_table_text_and_two_columns_of_prose_are_not():
    cells = [line(text, x, 300 + 14 * r, bold=r == 0) for r, row in enumerate(
        [["Year", "Target", "Result"], ["2019", "12", "14"], ["2020", "15", "13"]]) for text, x in zip(row, (72, 250, 400))]
    assert len(table_text(prose(100, 3) + cells)) == len(cells)
    columns = [line(BODY[:60], x, 100 + 12 * k, x1=x + 230) for k in range(10) for x in (72, 320)]
    assert table_text(columns) == set()


def test_the_docinfo_title_picks_the_title_and_a_cover_line_in_a_recurring_style_is_not_a_heading():
    cover = [line("SPECIAL PUBLICATION 800", 72, 100, size=18, bold=True),
             line("Situational Awareness", 72, 150, size=30, bold=True),
             line("For Electric Utilities", 72, 190, size=22, bold=True),
             line("Jim Mc Carthy", 72, 260, size=11, bold=True), line("National Center of Excellence", 72, 274)]
    pages = [PageLayout(1, 612, 792, cover, [])]
    for n in range(2, 7):
        pages.append(PageLayout(n, 612, 792, [line(f"Part {n} of the study", 72, 90, size=11, bold=True)]
                                + prose(110, 20), []))
    found = headings(compose(pages, title="SP 800, Situational Awareness for Electric Utilities"))
    assert found[0] == ("Situational Awareness For Electric Utilities", 1)
    assert all(level > 1 for _, level in found[1:])
    assert "Jim Mc Carthy" not in {t for t, _ in found}
    assert "Part 2 of the study" in {t for t, _ in found}


def test_a_heading_whose_bulleted_list_names_the_headings_after_it_is_their_parent():
    pages = [PageLayout(1, 612, 792, [line("Plotting Manual", 72, 200, size=28, bold=True)], [])]
    body = []
    for n, (name, items) in enumerate([("marks.typ", ["• draw()", "• resolve()"]), ("draw()", []),
                                       ("resolve()", []), ("shapes.typ", ["• rect()", "• circle()"]),
                                       ("rect()", []), ("circle()", [])], start=2):
        body.append(PageLayout(n, 612, 792, [line(name, 72, 90, size=10.5, bold=True, mono=True,
                                                  lead=len(name), lead_style=(True, False, True))]
                               + [line(item, 72, 110 + 12 * k, mono=True) for k, item in enumerate(items)]
                               + prose(150, 12), []))
    levels = dict(headings(compose(pages + body)))
    assert levels["draw()"] == levels["resolve()"] == levels["marks.typ"] + 1
    assert levels["shapes.typ"] == levels["marks.typ"]


def test_a_catalogues_items_in_small_bold_capitals_are_headings_and_its_rows_in_plain_text_are_not():
    pages = [PageLayout(1, 612, 792, [line("Control Catalogue", 72, 200, size=28, bold=True)], [])]
    for n in range(2, 6):
        pages.append(PageLayout(n, 612, 792, [line(f"FAMILY {n}", 72, 80, size=12, bold=True),
                                              line(f"AC-{n} ACCESS CONTROL POLICY", 72, 110, size=8, bold=True)]
                                + prose(130, 8) + [line(f"AC-{n + 10} Account Management", 72, 240)]
                                + prose(260, 8), []))
    found = {t for t, _ in headings(compose(pages))}
    assert "AC-2 ACCESS CONTROL POLICY" in found
    assert "AC-12 Account Management" not in found


def test_a_catalogues_enhancement_in_italic_capitals_right_under_a_plain_line_is_a_heading():
    pages = [PageLayout(1, 612, 792, [line("Control Catalogue", 72, 200, size=28, bold=True)], [])]
    for n in range(2, 6):
        pages.append(PageLayout(n, 612, 792, [
            line("TIER: 2, 3", 126, 90, size=8),
            line(f"({n + 6}) ACCESS ENFORCEMENT | CONTROLLED RELEASE", 108, 102, size=8, italic=True)]
            + prose(120, 8) + [line("and the text goes on in italic", 72, 222, italic=True)] + prose(234, 4), []))
    found = {t for t, _ in headings(compose(pages))}
    assert "(8) ACCESS ENFORCEMENT | CONTROLLED RELEASE" in found
    assert not any("italic" in t for t in found)


def test_a_goal_statement_wrapped_after_a_comma_over_four_lines_is_one_heading_but_four_plain_bold_lines_are_none():
    goal = [line("STRATEGIC GOAL 2: PROVIDE TIMELY,", 315, 100, size=13, bold=True),
            line("ACCURATE, AND RESPONSIVE SERVICE", 315, 115, size=13, bold=True),
            line("THAT ADDRESSES THE DIVERSE NEEDS", 315, 130, size=13, bold=True),
            line("OF OUR CUSTOMERS", 315, 145, size=13, bold=True)]
    unnamed = [line("PROVIDE TIMELY, ACCURATE,", 315, 300, size=13, bold=True),
               line("AND RESPONSIVE SERVICE THAT", 315, 315, size=13, bold=True),
               line("ADDRESSES THE DIVERSE NEEDS", 315, 330, size=13, bold=True),
               line("OF OUR CUSTOMERS", 315, 345, size=13, bold=True)]

    def text(top, count):
        return [line(BODY, 315, top + 14 * k, size=12, x1=560) for k in range(count)]
    lines = text(40, 3) + goal + text(170, 6) + unnamed + text(370, 6)
    found = [text for text, _ in headings(compose([PageLayout(1, 612, 792, lines, [])]))]
    assert found[0] == " ".join(l.text for l in goal) and " ".join(l.text for l in unnamed) not in found


def test_a_heading_wrapped_over_two_lines_above_a_subheading_in_its_own_style_is_a_heading():
    lines = [line("Strategy 3.04: Make data analytics a", 63, 82, size=12, bold=True),
             line("fundamental part of our culture", 63, 96, size=12, bold=True),
             line("Progress Update", 67, 127, size=12, bold=True)] \
        + [line(BODY, 63, 155 + 14 * k, size=12, x1=540) for k in range(6)]
    result = compose([PageLayout(1, 612, 792, lines, [])])
    assert [text for text, _ in headings(result)] == [
        "Strategy 3.04: Make data analytics a fundamental part of our culture", "Progress Update"]


def test_a_single_capitalised_word_atop_the_page_centred_over_its_table_is_a_heading_but_one_at_the_edge_is_not():
    def page(word, x0):
        cells = [line(cell, x, 110 + 14 * k, x1=x + 40) for k in range(4) for x, cell in
                 ((54, "Research programme"), (300, "8,100"), (360, "8,100"), (420, "8,583"), (500, "+483"))]
        return [line(word, x0, 76, bold=True, x1=x0 + 40), line("($K)", 414, 96, bold=True, x1=432)] + cells \
            + [line(BODY, 54, 200 + 12 * k, x1=560) for k in range(5)]
    assert headings(compose([PageLayout(1, 612, 792, page("SCIENCE", 287), [])])) == [("SCIENCE", 1)]
    assert headings(compose([PageLayout(1, 612, 792, page("SCIENCE", 54), [])])) == []


def _sample_plan_appendix():
    """A guide's chapters and an appendix of sample plans, each sample opened by its own cover page (one-off
    display lines, then "Prepared by") and carrying its own contents, chapters and appendices."""
    out: list[Candidate] = []

    def add(page, text, size, caps=False, prose=True):
        out.append(Candidate(page, len([c for c in out if c.page == page]), 1, text,
                             Style(size, True, False, caps, ""), len(out), under=5, prose=prose))
    add(2, "Table of Contents", 12)
    for n, page in ((1, 4), (2, 8)):
        add(page, f"Chapter {n}. Planning Step {n}", 12)
        add(page, f"{n}.1 First Considerations", 11)
        add(page + 1, f"{n}.2 Further Considerations", 11)
    add(12, "Appendix A—Sample Plan Templates", 11)
    for k, page in ((1, 12), (2, 20)):
        add(page, f"A.{k} Sample Template {k}", 11)
        for line in ("{System name}", "Security Categorization", "{Organization Name}", "Contingency Plan"):
            add(page, line, 20, prose=False)
        add(page, "Prepared by", 12, prose=False)
        add(page + 1, "TABLE OF CONTENTS", 12, caps=True)
        add(page + 2, "1. Introduction", 12)
        add(page + 3, "2. Concept of Operations", 12)
        add(page + 4, "APPENDIX D ALTERNATE PROCEDURES", 12, caps=True)
        add(page + 4, "APPENDIX E TEST PLAN", 12, caps=True)
    add(28, "Appendix B—Sample Impact Analysis", 11)
    add(30, "Appendix C—Glossary", 11)
    return out


def test_an_appendix_set_like_its_sections_stands_beside_the_chapters_and_over_its_own_sections():
    cands = _sample_plan_appendix()
    levels = assign_levels(cands, 10.0, 40)
    level = {c.text: levels.get(c.order) for c in cands}
    assert level["Appendix A—Sample Plan Templates"] == level["Chapter 1. Planning Step 1"] \
        == level["Appendix B—Sample Impact Analysis"] == level["Appendix C—Glossary"]
    assert level["A.1 Sample Template 1"] == level["A.2 Sample Template 2"] == level["1.1 First Considerations"]


def test_a_sample_document_inside_an_appendix_nests_under_its_section_with_no_cover_lines_or_contents_title():
    cands = _sample_plan_appendix()
    levels = assign_levels(cands, 10.0, 40)
    kept = [(c.text, levels[c.order]) for c in cands if c.order in levels]
    texts = [text for text, _ in kept]
    assert "Prepared by" not in texts and texts.count("TABLE OF CONTENTS") == 0 and "Table of Contents" in texts
    section = dict(kept)["A.1 Sample Template 1"]
    inside = kept[texts.index("A.1 Sample Template 1") + 1:texts.index("A.2 Sample Template 2")]
    assert [text for text, _ in inside] == ["1. Introduction", "2. Concept of Operations",
                                            "APPENDIX D ALTERNATE PROCEDURES", "APPENDIX E TEST PLAN"]
    assert all(level > section for _, level in inside)


def test_an_appendix_heading_over_its_page_of_acronyms_stays_a_heading_though_the_terms_are_a_list():
    style = Style(11.0, True, False, False, "")
    cands = [Candidate(9, 0, 1, "Chapter 1. Overview", style, 0, under=30, prose=True),
             Candidate(10, 0, 1, "Appendix H—Acronyms", style, 1, under=1)] \
        + [Candidate(10, 2 * k + 3, 1, term, style, 2 + k, under=1)
           for k, term in enumerate(("ATM", "BCP", "BIA", "CIO", "CIP", "DNS"))]
    levels = assign_levels(cands, 11.0, 20)
    assert sorted(levels) == [0, 1]


def test_a_heading_right_above_a_bulleted_list_in_its_own_style_does_not_take_the_first_item_in():
    lines = [line(BODY, 54, 40 + 12 * k, x1=540) for k in range(4)] \
        + [line("Program Highlights", 54, 110, bold=True, x1=140),
           line("• University and Competitive Research Programs", 54, 122, bold=True, x1=300)] \
        + [line(BODY, 54, 134 + 12 * k, x1=540) for k in range(3)] \
        + [line("• Fuel Cycle Research and Development", 54, 180, bold=True, x1=260)] \
        + [line(BODY, 54, 192 + 12 * k, x1=540) for k in range(3)]
    assert [text for text, _ in headings(compose([PageLayout(1, 612, 792, lines, [])]))] == ["Program Highlights"]


def test_a_goal_statement_in_capitals_over_nine_lines_is_one_heading():
    words = ["STRATEGIC GOAL 6: PROVIDE", "LEADERSHIP IN HELPING AGENCIES", "CREATE INCLUSIVE WORK",
             "ENVIRONMENTS WHERE A DIVERSE", "FEDERAL WORKFORCE IS FULLY", "ENGAGED AND ENERGIZED TO PUT",
             "FORTH ITS BEST EFFORT, ACHIEVE THEIR", "AGENCY'S MISSION, AND REMAIN", "COMMITTED TO PUBLIC SERVICE"]
    goal = [line(text, 315, 82 + 15 * k, size=13, bold=True) for k, text in enumerate(words)]
    lines = goal + [line("Strategy 6.01: Design and deliver leadership training", 315, 222, size=12, bold=True)] \
        + [line(BODY, 315, 250 + 14 * k, size=12, x1=560) for k in range(8)] \
        + [line(BODY, 63, 400 + 14 * k, size=12, x1=560) for k in range(8)]  # (the page's text, full width)
    found = [text for text, _ in headings(compose([PageLayout(1, 612, 792, lines, [])]))]
    assert found == [" ".join(words), "Strategy 6.01: Design and deliver leadership training"]


def test_a_name_from_code_set_large_is_a_heading_though_it_starts_in_lower_case_but_an_abbreviation_is_not():
    def page(title):
        return [line(title, 66, 50, size=18, x1=330)] + [line(BODY, 66, 120 + 14 * k, size=11, x1=540)
                                                         for k in range(8)]
    for name in ("graphics/fill_and_stroke.rb", "asn1 read value"):
        assert headings(compose([PageLayout(1, 612, 792, page(name), [])])) == [(name, 1)]
    assert headings(compose([PageLayout(1, 612, 792, page("e.g. the value of the field"), [])])) == []
    # (a line of a paragraph set a little large, as a font's size read from its glyphs may be, is no name)
    paragraph = [line(BODY, 66, 120 + 14 * k, size=11, x1=540) for k in range(3)] \
        + [line("m1 and s1. The free names of the signature are", 66, 162, size=12.5, x1=540)] \
        + [line("t1, unit and the exceptions it declares.", 66, 176, size=11, x1=400)] \
        + [line(BODY, 66, 200 + 14 * k, size=11, x1=540) for k in range(3)]
    assert headings(compose([PageLayout(1, 612, 792, paragraph, [])])) == []


def test_headings_with_a_named_number_over_short_tables_are_no_list_of_labels_but_the_labels_beside_them_are():
    style = Style(12.0, True, False, False, "")
    texts = ["Percent of components that increased their scores", "Strategy 6.04: Ensure agencies target drivers",
             "Percent of agencies that met the target", "Strategy 6.05: Partner with agencies on inclusion"]
    cands = [Candidate(9, 0, 1, "Chapter 6. Leadership", Style(16.0, True, False, False, ""), 0, under=30, prose=True),
             Candidate(9, 40, 1, "Strategy 6.03: Provide engagement services", style, 1, under=12, prose=True)]
    cands += [Candidate(10, 4 * k, 1, text, style, 2 + k, under=1) for k, text in enumerate(texts)]
    levels = assign_levels(cands, 12.0, 20)
    assert sorted(c.text for c in cands if c.order in levels) == [
        "Chapter 6. Leadership", "Strategy 6.03: Provide engagement services",
        "Strategy 6.04: Ensure agencies target drivers", "Strategy 6.05: Partner with agencies on inclusion"]


def test_a_chart_page_with_small_one_off_labels_is_no_cover_and_keeps_its_headings():
    def cand(page, index, order, text, size, prose=False, under=2):
        return Candidate(page, index, 1, text, Style(size, True, False, False, ""), order, under=under, prose=prose)
    cands = [cand(2, 0, 0, "Market overview", 11.0, prose=True, under=12),
             cand(3, 0, 1, "Major Contenders", 9.5), cand(3, 2, 2, "Aspirants", 9.5), cand(3, 4, 3, "Leaders", 9.5),
             cand(3, 6, 4, "Market impact", 11.0), cand(3, 8, 5, "Vision and capability", 11.0),
             cand(4, 0, 6, "Delivery", 11.0, prose=True, under=12)]
    levels = assign_levels(cands, 9.0, 20)
    assert {c.text for c in cands if c.order in levels} >= {"Market overview", "Market impact", "Vision and capability",
                                                            "Delivery"}


def test_a_numbered_heading_in_capitals_does_not_take_in_the_title_case_subheading_under_it():
    lines = [line(BODY, 72, 40 + 12 * k, size=11, x1=540) for k in range(3)] \
        + [line("2.2.1 FRAME", 72, 100, size=11, bold=True, italic=True, x1=140),
           line("Inputs and Preconditions", 72, 118, size=11, bold=True, italic=True, x1=200)] \
        + [line(BODY, 72, 140 + 12 * k, size=11, x1=540) for k in range(4)] \
        + [line("2.2.2 ASSESS THE RISKS OF THE SUPPLY", 72, 210, size=11, bold=True, italic=True, x1=300),
           line("CHAIN AND ITS PARTNERS", 72, 224, size=11, bold=True, italic=True, x1=220)] \
        + [line(BODY, 72, 246 + 12 * k, size=11, x1=540) for k in range(4)]
    found = [text for text, _ in headings(compose([PageLayout(1, 612, 792, lines, [])]))]
    assert found == ["2.2.1 FRAME", "Inputs and Preconditions",
                     "2.2.2 ASSESS THE RISKS OF THE SUPPLY CHAIN AND ITS PARTNERS"]


def test_a_label_over_its_plain_value_and_the_bullets_under_it_keeps_its_heading_and_the_value_is_text():
    lines = [line("Leaders", 24, 131, size=11, bold=True, x1=70),
             line("Accenture, Cognizant, Deloitte, HCLTech, and TCS", 24, 148, size=11, x1=300),
             line("• Leaders have positioned themselves as digital transformation partners for enterprises with",
                  24, 166, size=11, x1=560),
             line("end-to-end capabilities across the manufacturing value chain.", 38, 179, size=11, x1=400)] \
        + [line(BODY, 24, 220 + 11 * k, size=9, x1=560) for k in range(8)]
    assert [text for text, _ in headings(compose([PageLayout(1, 960, 540, lines, [])]))] == ["Leaders"]


def test_a_chapter_title_far_below_its_label_stands_over_its_sections_set_at_its_size_in_bold():
    # Sphinx's chapter opening: "KAPITEL n" flush right, a rule, the title set plain 5 ems lower; its sections
    # ("n.1 ...") at the same size in bold, their sub-sections smaller
    pages = [PageLayout(1, 612, 792, [line("Handbuch der Flussvermessung", 72, 200, size=28, bold=True)], [])]
    pages += [PageLayout(n, 612, 792, prose(100, 40), []) for n in (2, 3)]  # (front matter: no title block)
    for n in range(1, 5):
        pages.append(PageLayout(n + 3, 612, 792, [
            line(f"KAPITEL {n}", 460, 170, size=14.5), line(f"Thema Nummer {n}", 330, 260, size=14.5),
            line(f"{n}.1 Feldnotizen", 72, 350, size=14.5, bold=True)] + prose(370, 6)
            + [line(f"{n}.1.1 Messpunkte am Ufer", 72, 470, size=12, bold=True)] + prose(490, 6)
            + [line(f"{n}.2 Auswertung", 72, 600, size=14.5, bold=True)] + prose(620, 6), []))
    found = headings(compose(pages))
    levels = {text: level for text, level in found}
    assert not any(text.startswith("KAPITEL") for text, _ in found)  # (the label is no heading of its own)
    for n in range(1, 5):
        assert levels[f"Thema Nummer {n}"] < levels[f"{n}.1 Feldnotizen"] == levels[f"{n}.2 Auswertung"] \
            < levels[f"{n}.1.1 Messpunkte am Ufer"]


def test_a_sub_sections_decimal_number_opens_a_run_in_heading_but_a_bold_heading_with_a_code_word_stays_whole():
    # a journal's sub-sections run in ("1.1 Essential Initial Commands. To begin, ..."), set at the text's size
    run_in = line("1.1 Essential Initial Commands. To begin, fill in the fields to be completed at", 72, 200,
                  x1=540, lead=len("1.1 Essential Initial Commands."), lead_style=(True, False, False))
    lines = prose(140, 4) + [run_in, line("the top of the template file and set the metadata.", 72, 212, x1=300)]
    split = split_run_in(lines)
    assert [l.text for l in split if l.run_in] == ["1.1 Essential Initial Commands."]
    assert "To begin, fill in the fields to be completed at" in [l.text for l in split]
    # a heading set larger than the text, a word of it in a bold typewriter face: its first run is no run-in heading
    whole = line("4.9.2 Das Hilfswerkzeug dak ls", 72, 300, size=12, bold=True, lead=len("4.9.2 Das Hilfswerkzeug"),
                 lead_style=(True, False, False))
    assert not any(l.run_in for l in split_run_in(prose(240, 4) + [whole] + prose(320, 4), 10.0))
    assert [l.text for l in split_run_in(lines, 10.0) if l.run_in] == ["1.1 Essential Initial Commands."]
    # (and an item's number still opens one closed by its colon, its words not in title case)
    item = line("2) Robustness assessor: We define robustness as the ratio between the two", 82, 200, x1=540,
                lead=len("2) Robustness assessor:"), lead_style=(False, True, False))
    assert [l.text for l in split_run_in(prose(140, 4) + [item], 10.0) if l.run_in] == ["2) Robustness assessor:"]


def test_a_chapter_label_in_spanish_or_italian_on_its_own_line_is_not_a_heading_of_its_own():
    for word in ("Apéndice", "Appendice", "Capitolo"):
        result = _chapters(lambda n: [line(f"{word} {chr(63 + n)}", 72, 120, size=20, bold=True)])
        assert not any(text.startswith(word) for text, _ in headings(result)), word
        assert f"{word} A" in result.markdown  # (the label stays in the text)


def test_unnumbered_mixed_case_headings_under_numbered_capitals_of_their_size_and_weight_are_their_sections():
    # a word processor's styles: "N. CHAPTER" 14 pt bold capitals, "N.M. SECTION" bold capitals at the text's
    # 12 pt (most also italic), and unnumbered bold headings in mixed case at that size under the sections
    def prose(top, count):
        return [line(BODY, 72, top + 14 * k, x1=540, size=12) for k in range(count)]

    pages = [PageLayout(1, 612, 792, [line("REPORT DESIGNER MANUAL", 72, 200, size=26, bold=True)], [])]
    pages += [PageLayout(n, 612, 792, prose(100, 40), []) for n in (2, 3)]
    names = ["VISUAL OBJECTS", "REPORT VARIABLES", "PAGE OPTIONS", "BUILT-IN FUNCTIONS"]
    for n in range(1, 5):
        pages.append(PageLayout(n + 3, 612, 792, [
            line(f"{n}. CHAPTER NUMBER {n}", 72, 90, size=14, bold=True)] + prose(110, 4)
            + [line(f"{n}.1. {names[n - 1]}", 72, 180, size=12, bold=True, italic=True)] + prose(200, 4)
            + [line(f"{n}.2. MORE {names[n - 1]}", 72, 270, size=12, bold=n > 2, italic=n <= 2)] + prose(290, 4)
            + [line(f"Using the objects of part {n}", 72, 360, size=12, bold=True)] + prose(380, 4)
            + [line(f"Text and band objects {n}", 72, 450, size=12, bold=True)] + prose(470, 4), []))
    levels = dict(headings(compose(pages)))
    for n in range(1, 5):
        assert levels[f"{n}. CHAPTER NUMBER {n}"] < levels[f"{n}.1. {names[n - 1]}"] \
            == levels[f"{n}.2. MORE {names[n - 1]}"] < levels[f"Using the objects of part {n}"] \
            == levels[f"Text and band objects {n}"]


def test_a_heading_in_capitals_with_a_greek_symbol_of_a_formula_is_still_in_capitals():
    # a physics paper's sections in bold capitals, one naming "LATEX 2ε": the ε is no lower-case word, so that
    # section keeps the capitals' level over the numbered sub-sections in mixed case
    pages = [PageLayout(1, 612, 792, [line("A Guide for Authors", 72, 100, size=18, bold=True)] + prose(130, 30), [])]
    titles = ["INTRODUCTION", "SOME LATEX 2ε BASICS", "THE FRONT MATTER", "THE BODY OF THE PAPER"]
    roman = ["I", "II", "III", "IV"]
    for n in range(4):
        pages.append(PageLayout(n + 2, 612, 792, [
            line(f"{roman[n]}. {titles[n]}", 150, 90, size=12, bold=True)] + prose(110, 6)
            + [line(f"{roman[n]}.1. Changes in part {n + 1}", 150, 200, size=12, bold=True)] + prose(220, 6)
            + [line(f"{roman[n]}.2. Loading the packages", 150, 310, size=12, bold=True)] + prose(330, 6), []))
    levels = dict(headings(compose(pages)))
    assert levels["II. SOME LATEX 2ε BASICS"] == levels["I. INTRODUCTION"] == levels["III. THE FRONT MATTER"] \
        < levels["II.1. Changes in part 2"]


def test_front_matter_set_larger_than_the_chapters_sits_beside_them_though_the_contents_title_shares_their_style():
    # DocBook through FOP: "Table of Contents" in the chapters' 18 pt, "Preface" and "Appendix A" set at 25 pt
    pages = [PageLayout(1, 612, 792, [line("Getting Started with the Database", 72, 200, size=24, bold=True)], [])]
    pages.append(PageLayout(2, 612, 792, [line("Table of Contents", 72, 80, size=18, bold=True)] + prose(110, 30), []))
    pages.append(PageLayout(3, 612, 792, [line("Preface", 72, 80, size=25, bold=True)] + prose(110, 6)
                            + [line("Conventions Used in this Book", 72, 200, size=14.5, bold=True)] + prose(220, 6),
                            []))
    for n in range(1, 5):
        pages.append(PageLayout(n + 3, 612, 792, [line(f"Chapter {n}. Working with part {n}", 72, 80, size=18,
                                                       bold=True)] + prose(110, 6)
                                + [line(f"Opening the store {n}", 72, 200, size=14.5, bold=True)] + prose(220, 6), []))
    pages.append(PageLayout(8, 612, 792, [line("Appendix A. Using the Extension", 72, 80, size=25, bold=True)]
                            + prose(110, 6) + [line("Loading the extension", 72, 200, size=14.5, bold=True)]
                            + prose(220, 6), []))
    levels = dict(headings(compose(pages)))
    assert levels["Preface"] == levels["Chapter 1. Working with part 1"] == levels["Appendix A. Using the Extension"]
    assert levels["Chapter 2. Working with part 2"] < levels["Opening the store 2"]


def test_a_formulas_braces_drawn_with_modifier_letters_are_no_heading():
    # an equation's over- and underbraces come out as modifier letters ("ˉ") and brackets, set large and bold
    brace = "⏞ˉˉˉˉˉˉˉˉˉˉˉˉˉˉˉˉˉ⏟⏟ˉˉˉˉˉˉˉˉˉˉˉˉˉˉˉˉˉ⏞"
    pages = [PageLayout(n, 612, 792, [line(f"{n} Section number {n}", 72, 90, size=12, bold=True)] + prose(110, 6)
                        + [line(brace, 200, 220, size=12, bold=True)] + prose(240, 6), []) for n in range(1, 4)]
    found = [text for text, _ in headings(compose(pages))]
    assert "2 Section number 2" in found and brace not in found


def test_a_short_italic_phrase_centred_alone_over_its_paragraph_is_a_heading_but_an_italic_sentence_is_not():
    # a physics paper's unnumbered sub-sub-sections: italic, centred over the column, a line's gap around them
    def page(n, phrase):
        return PageLayout(n, 612, 792, [line(f"{n}. Section number {n}", 72, 90, size=12, bold=True)] + prose(110, 6)
                          + [line(phrase, 270, 205, italic=True, x1=330)] + prose(225, 6), [])
    found = [text for text, _ in headings(compose([page(n, "Math fonts") for n in range(1, 4)]))]
    assert "Math fonts" in found
    found = [text for text, _ in headings(compose([page(n, "It is so.") for n in range(1, 4)]))]
    assert "It is so." not in found and "2. Section number 2" in found


def test_two_bold_titles_a_blank_line_apart_are_two_headings_but_a_bold_paragraph_or_a_code_line_is_not():
    # a report's section heading right over its first sub-heading, both bold at the text's size, a blank line
    # between them (twice the text's line pitch); a heading over a bold bulleted item, the same
    names = ["Weapons", "Reactors", "Security", "Cleanup"]

    def page(n):
        top = 148 + 12 * n  # (not at one place on every page: that would be a running head)
        return PageLayout(n, 612, 792, prose(80, 6) + [
            line(f"{names[n - 4]} Highlights", 72, top, bold=True), line(f"{names[n - 4]} Management", 72, top + 24,
                                                                         bold=True)]
            + prose(top + 36, 6) + [line(f"{names[n - 4]} Outlook", 72, 400, bold=True),
                                    line(f"• Material {names[n - 4]}", 72, 424, bold=True)] + prose(436, 4, x0=85), [])
    front = [PageLayout(n, 612, 792, prose(100, 30), []) for n in (1, 2, 3)]  # (the title block's pages)
    found = [text for text, _ in headings(compose(front + [page(n) for n in range(4, 8)]))]
    for name in names:
        assert f"{name} Highlights" in found and f"{name} Management" in found and f"{name} Outlook" in found
    # the same lines at the text's pitch are one emphasised paragraph; a bold line with a code's marks or a
    # sentence that ends inside it stays text though a blank line follows it
    def other(n):
        return PageLayout(n, 612, 792, prose(80, 6) + [
            line(f"Program Highlights {n}", 72, 172, bold=True), line(f"Stockpile Management {n}", 72, 184, bold=True),
            line("for the whole year.", 72, 196, bold=True)] + prose(220, 4)
            + [line(f"GATEWAY IP: 192.168.33.{n}", 72, 300, bold=True), line("NETMASK 255.255.255.0", 72, 324, bold=True)]
            + prose(336, 3) + [line(f"These steps restore file {n}. The Recovery", 72, 400, bold=True),
                               line("Team reloads the files.", 72, 424, bold=True)] + prose(436, 3), [])
    found = [text for text, _ in headings(compose([other(n) for n in range(1, 5)]))]
    assert not any(text.startswith(("Program Highlights", "Stockpile", "GATEWAY", "These steps")) for text in found)


def test_a_table_cells_second_line_under_its_row_is_not_a_heading():
    # a budget table's last row, bold, its first cell wrapped onto a second line under it; then a bold heading
    def page(n):
        row = [line("Total, Fossil Energy and Carbon", 60, 200, bold=True, x1=200),
               line("890,000", 290, 200, bold=True, x1=330), line(f"+1.{n}%", 520, 200, bold=True, x1=550)]
        return PageLayout(n, 612, 792, prose(80, 6) + row + [line("Management", 60, 212, bold=True, x1=120),
                                                             line(f"Appropriation Overview {n}", 54, 236, bold=True)]
                          + prose(248, 6), [])
    found = [text for text, _ in headings(compose([page(n) for n in range(1, 5)]))]
    assert "Management" not in found
    assert all(f"Appropriation Overview {n}" in found for n in range(1, 5))


def test_a_title_wrapped_before_its_years_keeps_them_but_a_plain_number_under_a_heading_is_no_part_of_it():
    def page(second: str) -> list[PageLayout]:
        lines = [line("U.S. Department of Transportation Strategic Plan FY", 99, 112, size=17, bold=True, x1=513),
                 line(second, 265, 132, size=17, bold=True, x1=347)] + prose(160, 12)
        return [PageLayout(1, 612, 792, lines, [])]

    assert heading_titles(page("2022-2026"))[0] == "U.S. Department of Transportation Strategic Plan FY 2022-2026"
    assert heading_titles(page("2023"))[0] == "U.S. Department of Transportation Strategic Plan FY 2023"
    assert heading_titles(page("12 345"))[0] == "U.S. Department of Transportation Strategic Plan FY"


def _titled_first_page(title: str, subtitle: str = ""):
    # a guide's first page: its title set largest, maybe a smaller subtitle, its authors, then prose; a second page of
    # prose opened by a large line of lower-case words
    first = [line(title, 72, 80, size=20)] + ([line(subtitle, 72, 110, size=14)] if subtitle else []) \
        + [line("Brendan Quill", 72, 140, size=12), line("Ada Marsh", 300, 140, size=12)] + prose(170, 10)
    second = [line("see the table on the next page", 72, 60, size=20)] + prose(90, 10)
    return [PageLayout(1, 595, 842, first, []), PageLayout(2, 595, 842, second, [])]


def test_the_first_pages_title_is_a_heading_though_it_opens_with_a_name_in_lower_case():
    """"nauty and Traces User's Guide": the first page's largest line, set as display type, is its title whatever the
    case of its first letter (a program's name); a smaller line of lower-case words under it, or a large one on another
    page, still is none."""
    titles = heading_titles(_titled_first_page("heronry and Tracks User's Guide", "one survey, every river"))
    assert titles[:1] == ["heronry and Tracks User's Guide"], titles
    assert "one survey, every river" not in titles and not any(t.startswith("see the table") for t in titles)
