"""The concise answer (engine.agent.sentences): which sentences of the chosen passages are quoted, and how."""

from __future__ import annotations

from dataclasses import replace

from engine.index.focus import asks_for_list
from engine.agent.sentences import (ELISION, FILL_CHARS, GAP_CHARS, answer_text, asked_kinds, best_sentences,
                                    candidates, close_gaps, counted_labels, fill, pick, quote, unit_sentence,
                                    with_context)
from engine.index.evidence import Window, analyse
from engine.text import query_pairs, query_terms

PAGE = ("## Staff\n\n"
        "The company has offices in many countries. Its staff work in four regions. "
        "It had 225,000 employees at the end of the year. Most of them work in the parks.\n\n"
        "The parks opened in 1955. They are visited by families.\n\n"
        "Employees are offered training programs.")


def whole(text: str) -> list[tuple[int, Window]]:
    return [(3, Window(0, len(text), 0, 1.0, 1.0, frozenset(), False, text, ()))]


def page_of(text: str):
    """The reader of a one-page document: page 3 (the page the tests quote) holds the text, past it there is none."""
    analysis = analyse(text)

    def read(page: int):
        if page > 3:
            raise IndexError(page)  # (as a corpus raises past a document's last page)
        return analysis, text

    return read


def answer_of(text: str, *units: str) -> str:
    """The answer text of the page's units with these texts, in this order."""
    found = {u.text: i for i, u in enumerate(analyse(text).units)}
    return answer_text([unit_sentence(3, found[u], page_of(text), 0) for u in units], page_of(text))


def sentences_for(question: str, text: str = PAGE):
    weights = {t: 1.0 for t in query_terms(question)}
    return best_sentences(whole(text), page_of(text), weights, question)


def texts_for(question: str, text: str, weights: dict[str, float], names: frozenset[str] = frozenset()) -> list[str]:
    """The texts of the answer's sentences for a page, with these term weights and the document's name words."""
    return [s.text for s in best_sentences(whole(text), page_of(text), weights, question, names=names)]


def greedy_for(question: str, text: str = PAGE):
    """The sentences picked for their question words and values, with their context, without the fill."""
    weights = {t: 1.0 for t in query_terms(question)}
    pool = candidates(whole(text), page_of(text), asked_kinds(question), question)
    return with_context(pick(pool, weights, asked_kinds(question)), pool, page_of(text), asks_for_list(question))


def test_a_number_question_gets_the_sentence_with_the_number_first_and_what_it_points_back_to():
    picked = greedy_for("How many employees did the company have?")
    texts = [s.text for s in picked]
    assert "It had 225,000 employees at the end of the year." in texts
    # "It had …" points back: the sentence before it comes along, in page order
    assert texts.index("Its staff work in four regions.") == texts.index("It had 225,000 employees at the end of the year.") - 1
    assert all(s.page == 3 for s in picked) and len(picked) <= 5


def test_a_later_sentence_needs_new_words_or_a_new_value():
    picked = [s.text for s in greedy_for("When did the parks open and who visits them?")]
    assert "The parks opened in 1955." in picked and "They are visited by families." in picked
    assert "The company has offices in many countries." not in picked  # holds no word of the question


def test_one_quote_a_page_with_sentences_apart_joined_by_an_elision():
    picked = greedy_for("How many employees did the company have, and are employees offered training?")
    text = PAGE
    quoted = quote(picked, text)
    parts = quoted.split(ELISION)
    assert len(parts) == 2 and all(part in text for part in parts)  # two runs: each a literal span of the page
    assert parts[1] == "Employees are offered training programs."
    assert answer_text(picked, page_of(text)).endswith("(p. 3)")


def test_a_sentence_introducing_a_list_brings_its_items():
    text = ("The framework rests on three pillars:\n\n- identity checks at every request\n\n"
            "- devices kept healthy\n\n- least privilege for each session\n\nUnrelated closing words here.")
    picked = [s.text for s in greedy_for("What pillars does the framework rest on?", text)]
    assert picked[:4] == ["The framework rests on three pillars:", "identity checks at every request",
                          "devices kept healthy", "least privilege for each session"]
    assert answer_text(greedy_for("What pillars does the framework rest on?", text), page_of(text)) == (
        "The framework rests on three pillars:\n- identity checks at every request\n- devices kept healthy\n"
        "- least privilege for each session (p. 3)")  # a Markdown list: one item a line




def test_a_sentence_holding_the_questions_words_side_by_side_is_picked_though_others_hold_them_apart():
    text = ("Applications that support the font show its stylistic features in a set of menus.\n\n"
            "The font was first released in the spring.\n\nIts designers worked on it for two years.\n\n"
            "Word and Firefox support stylistic sets.\n\nUnrelated closing words here.")
    question = "Which applications support stylistic sets?"
    weights = {t: 1.0 for t in query_terms(question)}
    pool = candidates(whole(text), page_of(text), asked_kinds(question), question)
    picked = [s.text for s in pick(pool, weights, asked_kinds(question), frozenset(query_pairs(question, "en")))]
    # the first sentence holds every word of the question, but not "support stylistic" nor "stylistic sets"
    assert picked == ["Applications that support the font show its stylistic features in a set of menus.",
                      "Word and Firefox support stylistic sets."]

MENU = ("The View menu contains the following entries:\n\n"
        "- Show Grid. Draws or hides the grid behind the drawing.\n\n"
        "- Zoom Level. Sets the zoom level. The levels offered are 50%, 100% (default) and 200%. Another level can be "
        "set in the settings file.\n\n"
        "- Show Rulers. Draws or hides the rulers along the edges.\n\n"
        "- Toolbar Position. Puts the toolbar at the top or at the bottom of the window.\n\n"
        "Unrelated closing words here.")


def test_an_item_the_list_question_names_is_given_whole_among_the_leads_of_the_others():
    # "zoom" and "level" are words of the question that the lead-in lacks and one item's lead holds: the question
    # asks about that item, whose explanation (the levels offered) is the answer; the others stay leads
    def answer(question: str) -> str:
        weights = {t: 1.0 for t in query_terms(question)}
        pool = candidates(whole(MENU), page_of(MENU), asked_kinds(question), question)
        return answer_text(with_context(pick(pool, weights, asked_kinds(question)), pool, page_of(MENU), True,
                                        weights), page_of(MENU))

    named = answer("Which zoom levels can be chosen in the View menu, and which one is the default?")
    assert "- Zoom Level. Sets the zoom level. The levels offered are 50%, 100% (default) and 200%." in named
    assert "- Show Grid.\n" in named and "Draws or hides the grid" not in named
    # a question naming no item gets the leads alone
    plain = answer("Which entries does the View menu contain?")
    assert "- Zoom Level.\n" in plain and "The levels offered" not in plain

LABELLED_ITEMS = ("A survey crew must consider several issues:\n\n" + "\n\n".join(
    f"- {label}: {explanation[:-1]}, and the crew records what it chose in the log of the day, with the date, the "
    "names of everyone present, the weather, the reason for the choice and anything that went wrong on the walk. "
    "The log is filed with the survey group."
    for label, explanation in [("Choosing transects", "Transects should cross every habitat of the site."),
                               ("Timing", "Walks start within an hour of dawn, when birds sing most."),
                               ("Weather limits", "No walk starts in rain or in winds above force four."),
                               ("Double counting", "A bird seen twice on one transect is counted once, using a "
                                                   "spotting scope to follow it between sightings.")])
    + "\n\nUnrelated closing words here.")


def test_items_that_open_with_a_label_are_given_by_their_labels_when_their_leads_would_not_all_fit():
    picked = [s.text for s in greedy_for("What issues must a survey crew consider?", LABELLED_ITEMS)]
    assert picked[:5] == ["A survey crew must consider several issues:", "Choosing transects", "Timing",
                          "Weather limits", "Double counting"]
    found = greedy_for("What issues must a survey crew consider?", LABELLED_ITEMS)
    assert all(LABELLED_ITEMS[s.start:s.end] == s.text for s in found)  # (each a literal span of the page)


WAYS = ["T Tally the bird on the transect sheet", "P Photograph the bird", "S Sketch the bird in the field book",
        "R Record the call", "N Note the nest and its place", "C Count the flock by tens",
        "G Give the bird's position by GPS", "W Write a free description"]
CLAUSED_ITEMS = "A survey crew may record each sighting in one of eight ways:\n\n" + "\n\n".join(
    f"- {way}, in the way the survey standard sets out for this kind of record in its chapter on forms, (see section "
    f"{n}.1, which also gives examples of each form and says who keeps it)." for n, way in enumerate(WAYS, 1))


def test_items_whose_leads_would_not_all_fit_are_given_by_their_first_clauses():
    # each item one long sentence and no label: its first clause stands for it, so that all eight are given (the
    # whole sentences would stop the list after the fourth)
    found = greedy_for("In which ways may a survey crew record a sighting?", CLAUSED_ITEMS)
    assert [s.text for s in found] == ["A survey crew may record each sighting in one of eight ways:", *WAYS]
    assert all(CLAUSED_ITEMS[s.start:s.end] == s.text for s in found)  # (each a literal span of the page)


def test_an_item_holding_a_word_the_question_asks_about_keeps_its_whole_lead():
    question = "What issues must a survey crew consider, and which needs a spotting scope?"
    weights = {t: 1.0 for t in query_terms(question)}
    pool = candidates(whole(LABELLED_ITEMS), page_of(LABELLED_ITEMS), asked_kinds(question), question)
    picked = [s.text for s in with_context(pick(pool, weights, asked_kinds(question)), pool, page_of(LABELLED_ITEMS),
                                           True, weights)]
    assert "Timing" in picked and "Weather limits" in picked
    assert any(t.startswith("Double counting: A bird seen twice") for t in picked)


def test_the_answer_text_sets_a_list_apart_from_the_prose_around_it():
    text = ("- identity checks at every request. They run on each call.\n\n- devices kept healthy\n\n"
            "Unrelated closing words here.")
    assert answer_of(text, "identity checks at every request.", "They run on each call.", "devices kept healthy",
                     "Unrelated closing words here.") == (  # the first item opens the list; its second sentence
        "- identity checks at every request. They run on each call.\n- devices kept healthy\n\n"  # stays on its line
        "Unrelated closing words here. (p. 3)")  # prose after a list is a paragraph of its own


def test_numbered_items_are_set_as_a_numbered_list_and_items_left_out_between_them_show():
    text = ("The following steps come first.\n\n1. Check the weather.\n\n2. Confirm access.\n\n"
            "3. Write a plan.\n\n4. Leave the plan with a contact.")
    assert answer_of(text, "The following steps come first.", "1. Check the weather.", "2. Confirm access.") == (
        "The following steps come first.\n\n1. Check the weather.\n2. Confirm access. (p. 3)")
    # a Markdown list counts on from its first number: an item left out is shown, not renumbered away
    assert answer_of(text, "1. Check the weather.", "2. Confirm access.", "4. Leave the plan with a contact.") == (
        "1. Check the weather.\n2. Confirm access.\n\n…\n\n4. Leave the plan with a contact. (p. 3)")


def test_a_table_row_holding_the_value_comes_with_its_header_row():
    text = ("The table shows the expenses.\n\n| Line | 2023 | 2022 |\n| --- | --- | --- |\n"
            "| Payment processing | 336,377 | 375,606 |\n| Securities custody | 194,413 | 207,805 |\n"
            "| Total | 770,374 | 820,878 |\n\nAll amounts in thousands of dollars.")
    picked = sentences_for("How much did payment processing cost in 2023?", text)
    texts = [s.text for s in picked]
    assert "Payment processing | 336,377 | 375,606" in texts  # the row that holds the value …
    assert texts.index("Line | 2023 | 2022") < texts.index("Payment processing | 336,377 | 375,606")  # … under its header
    assert "Securities custody | 194,413 | 207,805" not in texts  # the header's "2023" does not bring every row


def test_an_answer_reads_a_table_row_by_its_columns_names_in_place_of_its_header_row():
    text = ("The table shows the expenses.\n\n| Line | 2023 | 2022 | Note |\n| --- | --- | --- | --- |\n"
            "| Payment processing | 336,377 | 375,606 | |\n| Securities custody | 194,413 | 207,805 | |\n"
            "| Total | 770,374 | 820,878 | audited |\n\nAll amounts in thousands of dollars.")
    picked = sentences_for("How much did payment processing cost in 2023?", text)
    answer = answer_text(picked, page_of(text))
    assert "Line: Payment processing, 2023: 336,377, 2022: 375,606" in answer  # (its empty Note cell left out)
    assert "Line | 2023" not in answer  # the header row's names are the row's labels now
    unruled = text.replace("| --- | --- | --- | --- |\n", "")  # no header row proper: rows read as they are
    assert "Payment processing | 336,377 | 375,606" in answer_text(sentences_for(
        "How much did payment processing cost in 2023?", unruled), page_of(unruled))


def test_a_first_row_holding_an_address_is_data_not_the_columns_names():
    # Markdown sets a table's first row as its header: a key-value table's first pair is no pair of names
    text = ("Contacts\n\n| Sales | hello@example.org |\n| --- | --- |\n| Support | support@example.org |\n"
            "| Web | www.example.org |")
    answer = answer_text(sentences_for("Which address is for support?", text), page_of(text))
    assert "Support | support@example.org" in answer and "Sales: Support" not in answer


GLOSSARY = ("Glossary\n\n"
            "| bidirectional authentication | Two parties authenticating each other at the same time, also known as "
            "mutual authentication. |\n| --- | --- |\n"
            "| controlled area | Any area or space for which the organization has confidence that the physical "
            "protections provided are sufficient for the information. |\n"
            "| controlled information | Information that law or policy requires to have safeguarding controls. |\n\n"
            "covered system A system of an agency that processes the information of another organization.")


def test_a_glossary_entry_answers_a_definition_without_the_entries_around_it():
    # (a first row holding a sentence is no row of the columns' names; the next row and the next paragraph are other
    # terms' entries)
    answer = answer_text(sentences_for("What is a controlled area?", GLOSSARY), page_of(GLOSSARY))
    assert answer == ("controlled area | Any area or space for which the organization has confidence that the physical "
                      "protections provided are sufficient for the information. (p. 3)")


def test_a_label_line_brings_what_it_heads():
    text = ("Case study 1\n\nThe client faced high costs of quality.\n\nImpact\n\n"
            "Benefits worth US$30 million from less rework\n\nDeployed 10 elements in 14 months\n\n"
            "Adoption by more than 700 employees")
    picked = [s.text for s in sentences_for("What impact did the transformation deliver?", text)]
    assert picked[picked.index("Impact"):] == ["Impact", "Benefits worth US$30 million from less rework",
                                               "Deployed 10 elements in 14 months", "Adoption by more than 700 employees"]


def test_a_count_of_things_brings_the_sentences_that_go_on_counting():
    text = ("We make three refinements to the earlier list. First, periods of a few months are left out. "
            "Such periods suggest an advisory relationship. Second, sales to meet margin calls are allowed. "
            "Third, sales to realise a tax loss are allowed. Other rules are unchanged.")
    picked = [s.text for s in sentences_for("What three refinements were made to the earlier list?", text)]
    assert {"First, periods of a few months are left out.", "Second, sales to meet margin calls are allowed.",
            "Third, sales to realise a tax loss are allowed."} <= set(picked)



def test_a_later_numbered_note_brings_no_further_notes_but_a_first_item_brings_the_count():
    # a table's notes "(1)" … "(5)": a picked third note goes on with no count it started; "(1)" starts one
    notes = ("(1) Tax is set at the rate of each item.\n\n(2) Before the share of partners.\n\n"
             "(3) Net of the share held by partners in each unit.\n\n(4) Amounts relate to the sale of the unit.\n\n"
             "(5) Amortization was 327 in the quarter.")
    question = "What is the partners' share net of?"
    pool = candidates(whole(notes), page_of(notes), asked_kinds(question), question)
    third = [s for s in pool if s.text.startswith("(3)")]
    first = [s for s in pool if s.text.startswith("(1)")]
    assert [s.text[:3] for s in with_context(third, pool, page_of(notes))] == ["(3)"]
    assert [s.text[:3] for s in with_context(first, pool, page_of(notes))] == ["(1)", "(2)", "(3)", "(4)", "(5)"]

def test_a_question_in_parts_wants_the_value_of_each_part():
    text = ("The effective income tax rate was 27.8% against 25.1% a year before. Income rose in the parks. "
            "The increase in the rate was due to a non-cash tax charge on the joint venture.")
    picked = [s.text for s in sentences_for("What was the effective income tax rate, and why did it rise?", text)]
    assert picked[0].startswith("The effective income tax rate was 27.8%")
    assert "The increase in the rate was due to a non-cash tax charge on the joint venture." in picked


def test_a_run_on_sentence_counts_its_words_at_less_than_their_weight():
    footnote = "See " + "; ".join(f"Comment Letter {n} on broker advice and the exclusion (Aug. {n}, 2018)"
                                   for n in range(1, 12)) + "."
    text = f"{footnote}\n\nIn 2011 an appeals court ruled on broker advice under the exclusion."
    picked = [s.text for s in sentences_for("Which 2011 ruling on broker advice under the exclusion is relied on?",
                                            text)]
    assert picked[0] == "In 2011 an appeals court ruled on broker advice under the exclusion."


def test_a_table_value_question_gets_the_row_of_the_asked_quantity_not_the_caption_or_notes():
    text = ("| Table 5. Pro forma income statement for priced services, 2023 and 2022 | | |\n| --- | --- | --- |\n"
            "| Item | 2023 | 2022 |\n\nServices to depository institutions\n\n"
            "| Revenue from services | 505.3 | 466.7 |\n| --- | --- | --- |\n"
            "| Operating expenses | 462.7 | 461.4 |\n| Net income | 40.1 | 4.0 |\n\n"
            "Note: components may not sum to totals because of rounding in the pro forma statement for 2023.")
    question = "What net income did priced services report in the pro forma income statement for 2023?"
    # the caption holds more of the question's weight (its rare words) than the row, which holds what is asked
    weights = {t: 0.5 if t in {"net", "incom", "report", "2023"} else 1.5 for t in query_terms(question)}
    picked = texts_for(question, text, weights)
    assert "Net income | 40.1 | 4.0" in picked


def test_a_row_named_by_a_note_below_its_table_answers_for_the_quantity_the_note_defines():
    text = ("| | XA36 | XA288 |\n| --- | --- | --- |\n| Macrocells | 36 | 288 |\n"
            "| fCNT (MHz)(1) | 100 | 92.2 |\n\n1. fCNT = Operating frequency for 16-bit counters.")
    picked = [s.text for s in sentences_for("What is the maximum operating frequency of the XA288?", text)]
    assert "fCNT (MHz)(1) | 100 | 92.2" in picked
    assert picked.index("XA36 | XA288") < picked.index("fCNT (MHz)(1) | 100 | 92.2")  # under its header row


def test_a_question_naming_a_measure_without_a_question_word_pattern_still_asks_for_a_number():
    from engine.agent.sentences import asked_kinds

    # "what are the part's 16-bit counter frequency": no "how many", but a measure is asked for (as the evidence
    # test reads it), so the rows holding its value are the answer
    assert asked_kinds("What are the XA216's 16-bit counter frequency (fCNT) and system frequency?") == ("number",)
    assert asked_kinds("Why did the rate rise, and how many banks failed?") == ("reason", "number")


def test_room_left_goes_to_the_sentences_nearest_the_best_one_in_its_passage():
    text = ("Costs rose in 2022. Staff left. The survey covered 300 firms in 2023. Most of them reported higher "
            "costs.\n\nBudgets rose too. Prices held. Wages fell. A sentence far from the best one closes it.")
    pool = candidates(whole(text), page_of(text), ("number",), "How many firms did the survey cover?")
    best = next(s for s in pool if s.text.startswith("The survey"))
    out = [s.text for s in fill([best], pool, budget=len(best.text) + 50)]
    # nearest first (the later one on a tie), across the paragraph break, within the room left
    assert out == ["The survey covered 300 firms in 2023.", "Most of them reported higher costs.", "Staff left."]
    out = [s.text for s in fill([best], pool)]
    assert "A sentence far from the best one closes it." not in out  # five units away
    assert "Costs rose in 2022." in out and "Wages fell." in out and len(" ".join(out)) <= FILL_CHARS


def _context_of_asked(text: str, question: str, opening: str) -> list[str]:
    """The sentences `with_context` brings with the page's own question (the sentence opening `opening`)."""
    pool = candidates(whole(text), page_of(text), (), question)
    asked = next(s for s in pool if s.text.startswith(opening) and s.text.endswith("?"))
    return [s.text for s in with_context([asked], pool, page_of(text))]


def test_a_question_the_page_asks_brings_its_answer():
    text = ("Frequently asked questions. Is a low rating in the survey a poor outcome for a supplier? "
            "Not at all, since only the best are rated.\n\nOther words here.")
    assert _context_of_asked(text, "Is a low survey rating a poor outcome?", "Is a low") == [
        "Is a low rating in the survey a poor outcome for a supplier?",
        "Not at all, since only the best are rated."]  # the page's question, then its answer


def test_a_question_the_page_asks_brings_its_answer_to_the_end_of_its_paragraph_or_the_next_question():
    text = ("Is a low rating a poor outcome? Not at all. Only the best are rated. Being rated is a recognition. "
            "Who takes part? Anyone may.\n\nA paragraph after the answer.")
    assert _context_of_asked(text, "Is a low rating a poor outcome?", "Is a low") == [
        "Is a low rating a poor outcome?", "Not at all.", "Only the best are rated.", "Being rated is a recognition."]


def test_a_count_brings_the_sentences_that_go_on_with_the_first_and_second():
    text = ("Matching a plan against a rule combines two operations. Filler sentence one about nothing. "
            "The first, trimming, drops the parts the rule lacks. The second, widening, relaxes its types.")
    picked = [s.text for s in sentences_for("Matching a plan against a rule: which operations?", text)]
    assert "The first, trimming, drops the parts the rule lacks." in picked
    assert "The second, widening, relaxes its types." in picked


def test_the_fill_takes_no_heading():
    text = "## Customer stories\n\nThe trust has 42 surveyors. They cover 18 reaches."
    pool = candidates(whole(text), page_of(text), (), "Who surveys for the trust?")
    assert any(s.text == "Customer stories" for s in pool)  # a heading may be picked as a label …
    best = next(s for s in pool if s.text.startswith("The trust"))
    # … but the fill does not take one
    assert [s.text for s in fill([best], pool)] == ["The trust has 42 surveyors.", "They cover 18 reaches."]


GAPPED = ("The bar lines are still printed. What is wrong? Look at the page giving the properties of the object. "
          "All of them are of the type Staff, so the override failed because the object is not in the Voice context. "
          "If the context is wrong, the command simply does not work. No error message is produced by the program.")


def test_a_sentence_or_two_left_out_between_picked_ones_is_read_in():
    pool = candidates(whole(GAPPED), page_of(GAPPED), (), "Why are the bar lines printed with no error message?")
    by_text = {s.text: s for s in pool}
    picked = [by_text["Look at the page giving the properties of the object."],
              by_text["No error message is produced by the program."]]
    texts = [s.text for s in sorted(close_gaps(picked, pool), key=lambda s: s.index)]
    assert texts == [s.text for s in pool[2:]]  # the cause and what follows from it, as the page runs
    # three in a row are a passage of their own, not a gap; nor is what would take the answer past its budget
    wider = [by_text["What is wrong?"], by_text["No error message is produced by the program."]]
    assert close_gaps(wider, pool) == wider
    assert close_gaps(picked, pool, budget=len("".join(s.text for s in picked)) + 20) == picked
    assert GAP_CHARS > FILL_CHARS


def test_a_list_question_gets_no_gap_sentences_which_would_take_its_items_room():
    # two long sentences between the two that hold the question's words: the fill beside the first takes one
    page = ("The harbour board runs the ferries. Boats " + " ".join(["rest"] * 60) + ". Crews "
            + " ".join(["sails"] * 60) + ". The board also keeps the lighthouses.")
    one = [s.text[:5] for s in sentences_for("What does the harbour board run and keep?", page)]
    assert one == ["The h", "Boats", "Crews", "The b"]  # … and the gap is read in
    listing = "Which services does the harbour board run and keep?"
    assert asks_for_list(listing)
    assert [s.text[:5] for s in sentences_for(listing, page)] == ["The h", "Boats", "The b"]


def test_a_row_the_reader_split_over_several_lines_comes_with_its_continuation_rows():
    text = ("| Threat event | Description |\n| --- | --- |\n"
            "| Phish staff by email. | Adversary sends forged messages to staff. |\n"
            "| Leave infected media. | Adversary places flash drives |\n"
            "| | where employees find them, e.g. parking lots, |\n"
            "| | and waits for them to be used. |\n"
            "| Spoof a website. | Adversary copies a site. |")
    texts = [s.text for s in greedy_for("How does an adversary leave infected media?", text)]
    assert "where employees find them, e.g. parking lots," in texts
    assert "and waits for them to be used." in texts
    assert "Spoof a website. | Adversary copies a site." not in texts  # the next row of its own is no part of it


def test_sentences_set_in_the_frame_of_a_picked_one_come_with_it():
    tail = ", " + ", ".join(f"step {n} of the exchange" for n in range(1, 15)) + "."  # (two exceed the greedy room)
    text = ("Pipes combine three patterns. The XX pattern is used for a full handshake" + tail
            + " The IK pattern is used for a zero-RTT handshake" + tail
            + " The XXfallback pattern is used for a switch handshake" + tail + " Padding hides which one ran.")
    texts = [s.text for s in greedy_for("Which pattern is used for a full handshake?", text)]
    assert any(t.startswith("The IK pattern is used for") for t in texts)  # (no question word of its own)
    assert "Padding hides which one ran." not in texts


def test_a_list_of_labelled_lists_gives_the_one_whose_label_the_question_names_first():
    filler = "; ".join(f"detail {n} of the quarter's guidance" for n in range(1, 9))
    text = ("Guidance and Outlook:\n\n- Second quarter:\n\n- " + filler + "\n\n- " + filler + "\n\n"
            "- Full year:\n\n- Adjusted EPS growth in the high single digits\n\n- About $15 billion of cash")
    weights = {t: 1.0 for t in query_terms("What full-year outlook did the company give?")}
    pool = candidates(whole(text), page_of(text), (), "What full-year outlook did the company give?")
    lead = [s for s in pool if s.text == "Guidance and Outlook:"]
    texts = [s.text for s in with_context(lead, pool, page_of(text), False, weights)]
    assert "Adjusted EPS growth in the high single digits" in texts and "About $15 billion of cash" in texts


NOTED = ("The budget of the program grew last year.\n\n"
         "12 See the program budget table of the annual report for the budget of every program office.")


def noted_page_of(text: str):
    analysis = analyse(text, notes=frozenset({2}))  # the reader's blocks made the last line a footnote
    return lambda page: (analysis, text)


def test_a_footnote_ranks_after_the_text_unless_the_question_asks_for_notes():
    question = "How did the budget of the program office change?"
    weights = {t: 1.0 for t in query_terms(question)}
    pool = candidates(whole(NOTED), noted_page_of(NOTED), asked_kinds(question), question)
    assert [s.note for s in pool] == [False, True]
    # the note holds more of the question's words, yet the text's sentence comes first
    assert pick(pool, weights, asked_kinds(question), budget=FILL_CHARS)[0].text.startswith("The budget")
    assert pick(pool, weights, asked_kinds(question), budget=FILL_CHARS, notes=1.0)[0].text.startswith("12 See")
    cited = "Which source does the report cite for the budget of the program office?"
    assert any(s.note for s in best_sentences(whole(NOTED), noted_page_of(NOTED), {t: 1.0 for t in query_terms(cited)},
                                              cited))  # the note is what it asks for


def test_a_footnote_does_not_fill_the_room_beside_the_best_sentence():
    text = ("The budget of the program grew in 2023. Its staff grew too.\n\n"
            "12 See the annual report.")
    question = "How did the budget of the program change?"
    picked = best_sentences(whole(text), noted_page_of(text), {t: 1.0 for t in query_terms(question)}, question)
    assert [s.text for s in picked] == ["The budget of the program grew in 2023.", "Its staff grew too."]


def test_a_footnote_marker_is_no_value_but_a_value_a_note_states_is():
    text = "The program has offices in many cities.\n\n12 The program had 85 offices at the end of the year."
    question = "How many offices did the program have?"
    pool = candidates(whole(text), noted_page_of(text), asked_kinds(question), question)
    note = next(s for s in pool if s.note)
    assert note.values == frozenset({("number", "85")})  # not the marker's "12"
    # a note stating the value asked for is not ranked last
    assert pick(pool, {t: 1.0 for t in query_terms(question)}, asked_kinds(question))[0] is note


def test_a_list_introduced_at_a_page_end_reads_on_over_the_page_break():
    first = "Privacy comes first. The work names seven laws of identity:"
    second = "- user control and consent\n\n- minimal disclosure\n\n- justifiable parties\n\nA closing remark."
    pages = {3: (analyse(first), first), 4: (analyse(second), second)}
    chosen = [(3, Window(0, len(first), 0, 1.0, 1.0, frozenset(), False, first, ())),
              (4, Window(0, len(second), 0, 0.0, 0.0, frozenset(), False, second, ()))]
    question = "Which laws of identity does the work name?"
    weights = {t: 1.0 for t in query_terms(question)}
    pool = candidates(chosen, pages.get, asked_kinds(question), question)
    lead = [s for s in pool if s.text.endswith("laws of identity:")]
    texts = [s.text for s in with_context(lead, pool, pages.get, asks_for_list(question), weights)]
    assert texts == ["The work names seven laws of identity:", "user control and consent", "minimal disclosure",
                     "justifiable parties"]


def last_two_pages(first: str, second: str):
    """Pages 3 and 4 of a document that ends with them: (the pages by number, which the test may change; their
    page_of, raising IndexError past the document's end as a corpus does)."""
    pages = {3: (analyse(first), first), 4: (analyse(second), second)}

    def page_of(page: int):
        return pages[page] if page in pages else [][0]

    return pages, page_of


def lead_in_context(page_of, question: str, is_lead) -> list:
    """The context (`with_context`) of the sentences of page 3, all of it chosen, that `is_lead` picks."""
    text = page_of(3)[1]
    chosen = [(3, Window(0, len(text), 0, 1.0, 1.0, frozenset(), False, text, ()))]
    weights = {t: 1.0 for t in query_terms(question)}
    pool = candidates(chosen, page_of, asked_kinds(question), question)
    lead = [s for s in pool if is_lead(s.text)]
    return with_context(lead, pool, page_of, asks_for_list(question), weights)


def test_a_list_that_runs_to_its_page_end_goes_on_with_the_items_the_next_page_opens_with():
    _, page_of = last_two_pages(
        "Some words open the page. The work names four laws of identity:\n\n- user control\n\n- minimal disclosure",
        "- justifiable parties\n\n- human integration\n\nA closing remark on the laws.")
    picked = lead_in_context(page_of, "Which laws of identity does the work name?",
                             lambda text: text.endswith("laws of identity:"))
    assert [(s.page, s.text) for s in picked] == [
        (3, "The work names four laws of identity:"), (3, "user control"), (3, "minimal disclosure"),
        (4, "justifiable parties"), (4, "human integration")]
    assert answer_text(picked, page_of) == (  # (the next page's items go on as the list's)
        "The work names four laws of identity:\n- user control\n- minimal disclosure (p. 3)\n\n"
        "- justifiable parties\n- human integration (p. 4)")


def test_a_counting_lead_in_brings_the_numbered_labels_it_counts_over_the_pages_not_the_first_ones_text():
    # a manual's numbered run-in headings, each over paragraphs of its own, the third on the next page
    first = ("The ferry board offers 3 different ways to buy a ticket, each with its own advantages:\n\n"
             "**1. Buying on board**\n\nThe easiest way is to pay the purser. Cash is accepted. Cards are too.\n\n"
             "**2. Buying at the quay**\n\nKiosks open an hour before each sailing.")
    second = "Kiosks close at the last sailing.\n\n**3. Buying online**\n\nThe website sells tickets a week ahead."
    pages, page_of = last_two_pages(first, second)
    picked = lead_in_context(page_of, "Ferry guide: list the ways to buy a ticket.",
                             lambda text: text.startswith("The ferry board offers"))
    assert [(s.page, s.text) for s in picked] == [
        (3, "The ferry board offers 3 different ways to buy a ticket, each with its own advantages:"),
        (3, "1. Buying on board"), (3, "2. Buying at the quay"), (4, "3. Buying online")]
    # numbered otherwise than it counts (two labels for three ways): no such list
    short = first.replace("**2. Buying at the quay**", "Kiosks stand at the quay.")
    pages[3] = (analyse(short), short)
    assert counted_labels(unit_sentence(3, 0, page_of, 0), page_of) is None


def test_a_nested_item_stays_nested_in_the_answer_relative_to_the_list_it_quotes():
    text = ("Guidance for the year:\n\n- Second quarter:\n\n  - subscribers decline\n\n  - cruise costs rise\n\n"
            "- Full year:\n\n  - earnings grow")
    assert answer_of(text, "Guidance for the year:", "Second quarter:", "subscribers decline", "cruise costs rise",
                     "Full year:", "earnings grow") == (
        "Guidance for the year:\n- Second quarter:\n  - subscribers decline\n  - cruise costs rise\n- Full year:\n"
        "  - earnings grow (p. 3)")
    # items of the inner level alone are the answer's outer level
    assert answer_of(text, "Guidance for the year:", "subscribers decline", "cruise costs rise") == (
        "Guidance for the year:\n- subscribers decline\n- cruise costs rise (p. 3)")


def test_rows_of_figures_only_stay_on_one_line_rows_that_name_things_stand_one_a_line():
    text = ("Figure 7 shows the shares.\n\n| Skill | 2023 | 2021 |\n| 44% | 43% | |\n| 36% | | 36% |\n\n"
            "| Data analytics | 44% | 43% |\n| Risk management | 29% | 25% |")
    assert answer_of(text, "Skill | 2023 | 2021", "44% | 43%", "36% | | 36%", "Data analytics | 44% | 43%",
                     "Risk management | 29% | 25%") == (
        "- Skill | 2023 | 2021; 44% | 43%; 36% | | 36%\n- Data analytics | 44% | 43%\n- Risk management | 29% | 25% (p. 3)")


POSED = ("Should the care obligation require a reasonable basis for each recommendation? Do commenters agree? "
         "Why or why not?\n\n"
         "The care obligation would require a broker to have a reasonable basis for each recommendation it makes.")


def test_questions_put_to_the_reader_one_after_another_rank_after_what_the_text_states():
    question = "What does the care obligation require for a recommendation?"
    weights = {t: 1.0 for t in query_terms(question)}
    pool = candidates(whole(POSED), page_of(POSED), asked_kinds(question), question)
    assert [s.posed for s in pool] == [True, True, True, False]
    # the first question holds as many of the question's words as the statement, which comes first all the same
    assert pick(pool, weights, asked_kinds(question), budget=FILL_CHARS)[0].text.startswith("The care obligation")


def test_a_question_answered_after_it_is_no_question_put_to_the_reader():
    text = "Is a low rating a poor outcome? Not at all. Who takes part? Anyone may."
    assert analyse(text).posed == frozenset()


def test_a_question_asking_what_an_acronym_stands_for_gets_the_sentence_that_writes_it_out():
    text = ("The code of RARE is hosted online and RARE runs on any machine.\n\n"
            "We introduce Robustness Assessment and Regularized Enhancement (RARE), a framework for models.")
    question = "What does RARE stand for?"
    assert asked_kinds(question) == ("expansion",)
    picked = greedy_for(question, text)
    assert picked[0].text.startswith("We introduce Robustness Assessment")


def test_a_header_row_picked_alone_brings_the_rows_under_it():
    # the header holds the question's words ("names", "module"), its rows the names asked for: alone it answers nothing
    text = ("Table 8-1 lists the synchronization points.\n\n| Name | Module |\n| --- | --- |\n"
            "| mtr_run | management |\n| mtr_freeze | management |\n| mtr_shutdown | management |\n\n"
            "Federates should register them.")
    pool = candidates(whole(text), page_of(text), (), "What are the point names and their module?")
    header = next(s for s in pool if s.text == "Name | Module")
    texts = [s.text for s in with_context([header], pool, page_of(text))]
    assert texts == ["Name | Module", "mtr_run | management", "mtr_freeze | management", "mtr_shutdown | management"]
    row = next(s for s in pool if s.text == "mtr_freeze | management")  # a row picked: its header, not every row
    assert [s.text for s in with_context([row], pool, page_of(text))] == ["Name | Module", "mtr_freeze | management"]
    said = replace(next(s for s in pool if s.text.startswith("Table 8-1")), typed=True)  # the value is held already
    assert [s.text for s in with_context([said, header], pool, page_of(text))] == [said.text]  # (filler: left out)
    unruled = text.replace("| --- | --- |\n", "")  # no header row proper: its first row is just a row
    pool = candidates(whole(unruled), page_of(unruled), (), "What are the point names and their module?")
    first = next(s for s in pool if s.text == "Name | Module")
    assert [s.text for s in with_context([first], pool, page_of(unruled))] == ["Name | Module"]


def test_a_page_opening_picked_brings_the_start_of_its_sentence_from_the_page_before():
    # the page break cut the sentence: its second half, picked alone, reads "written agreements, …"
    first = "## Enforcement\n\nThe Board took many actions. Formal enforcement actions include cease and desist orders,"
    second = "written agreements and civil money penalties. Informal actions are not counted."
    pages = {4: (analyse(first), first), 5: (analyse(second), second)}
    opening = unit_sentence(5, 0, pages.__getitem__, 0)
    picked = with_context([opening], [opening], pages.__getitem__)
    assert [(s.page, s.text) for s in picked] == [
        (4, "Formal enforcement actions include cease and desist orders,"),
        (5, "written agreements and civil money penalties.")]
    assert answer_text(picked, pages.__getitem__) == ("Formal enforcement actions include cease and desist orders, (p. 4) "
                                                      "written agreements and civil money penalties. (p. 5)")
    closed = first.rstrip(",") + "."  # a page before that ends its sentence: nothing comes from it
    pages[4] = (analyse(closed), closed)
    assert [s.page for s in with_context([opening], [opening], pages.__getitem__)] == [5]


def test_a_sentence_the_page_break_cuts_reads_on_into_the_next_pages_opening():
    # a paragraph ending on a word that wants what follows, notes under it the reader did not tell apart
    first = ("The committee also said that any economic analysis should weigh the harm that can result from the\n\n"
             "42 For example, some commenters supported a new standard. See a letter from 2013.")
    second = "current suitability standard. The Commission then asked for comment."
    pages = {4: (analyse(first), first), 5: (analyse(second), second)}
    cut = unit_sentence(4, 0, pages.__getitem__, 0)
    assert [(s.page, s.text) for s in with_context([cut], [cut], pages.__getitem__)] == [
        (4, "The committee also said that any economic analysis should weigh the harm that can result from the"),
        (5, "current suitability standard.")]
    # a first unit too long for the answer's room (it runs on past a note's number after its full stop): the cut
    # sentence's rest alone
    long = ("current suitability standard.45 The Commission then asked for comment on "
            + ", ".join(["the costs of each obligation to the firms and their customers"] * 25) + ".")
    pages[5] = (analyse(long), long)
    assert [(s.page, s.text) for s in with_context([cut], [cut], pages.__getitem__)][1:] == [
        (5, "current suitability standard.45")]
    del pages[5]  # the document's last page: nothing follows
    assert [s.page for s in with_context([cut], [cut], pages.__getitem__)] == [4]
    for before in ("Payment services, 2021-23 thousands of dollars\n\n| Item | 2023 |\n| --- | --- |\n| Fees | 5 |",
                   "OIG reports issued in",  # (a label, too short to be a sentence the break cut)
                   "Any economic analysis should weigh the harm that can result from the\n\nsame conduct, it said."):
        pages = {4: (analyse(before), before), 5: (analyse(second), second)}
        alone = unit_sentence(4, 0, pages.__getitem__, 0)
        assert [s.page for s in with_context([alone], [alone], pages.__getitem__)] == [4]


def test_a_heading_in_an_answer_ends_its_paragraph_unless_its_text_goes_on():
    assert answer_of(PAGE, "Staff", "The company has offices in many countries.") == (
        "Staff\n\nThe company has offices in many countries. (p. 3)")
    slide = "# 4.5 hours\n\nspent re-typing field sheets for every day on the river."  # a slide's figure reads on
    assert answer_of(slide, "4.5 hours", "spent re-typing field sheets for every day on the river.") == (
        "4.5 hours spent re-typing field sheets for every day on the river. (p. 3)")


def test_lines_read_by_line_stay_apart_even_when_they_are_labels():
    # a deck's contact cards: a region's label over a name, each a short line without a full stop. In prose two such
    # labels join with "; " (items' labels one after another); read by line each stays a line
    text = "Asia Pacific\n\nChristopher Roberge\n\nTax Operate Leader Deloitte Asia Pacific chris@example.com"
    found = {u.text: i for i, u in enumerate(analyse(text).units)}
    picked = [unit_sentence(3, found[u], page_of(text), 0) for u in ("Asia Pacific", "Christopher Roberge")]
    assert answer_text(picked, page_of(text)) == "Asia Pacific; Christopher Roberge (p. 3)"
    assert answer_text(picked, page_of(text), by_line=True) == "Asia Pacific\n\nChristopher Roberge (p. 3)"


def test_a_definition_lists_terms_over_their_explanations_are_one_list_item_each():
    # (a glossary: each term on a line of its own over its explanation; two entries or more one after another)
    text = ("Acronyms used in this manual.\n\nATS\n\nAutomatic Transfer Switch.\n\nPDU\n\nPower Distribution Unit. "
            "It feeds the racks.\n\nUPS\n\nUninterruptible Power Supply.")
    units = ("Acronyms used in this manual.", "ATS", "Automatic Transfer Switch.", "PDU", "Power Distribution Unit.",
             "It feeds the racks.", "UPS", "Uninterruptible Power Supply.")
    assert answer_of(text, *units) == (
        "Acronyms used in this manual.\n- ATS: Automatic Transfer Switch.\n"
        "- PDU: Power Distribution Unit. It feeds the racks.\n- UPS: Uninterruptible Power Supply. (p. 3)")
    # one entry alone is no list; nor are an address's lines (each "explanation" no longer than its label)
    assert answer_of(text, "ATS", "Automatic Transfer Switch.") == "ATS Automatic Transfer Switch. (p. 3)"
    address = "Writing Systems Technology\n\n7500 W. Camp Wisdom Rd.\n\nDallas Texas Office\n\nTX 75236."
    assert "- " not in answer_of(address, "Writing Systems Technology", "7500 W. Camp Wisdom Rd.",
                                 "Dallas Texas Office", "TX 75236.")
    # a deck's lines, read by line, stay apart
    found = {u.text: i for i, u in enumerate(analyse(text).units)}
    picked = [unit_sentence(3, found[u], page_of(text), 0) for u in units[1:5]]
    assert "- " not in answer_text(picked, page_of(text), by_line=True)


def test_a_line_that_only_names_the_document_is_not_quoted():
    # (the question names the paper by its title; the title line on its first page says nothing the citation does not)
    text = ("Heathland Transect Survey Methods\n\nAda Quill, Ben Marsh\n\n"
            "This work is licensed under the Open Survey Licence 2.0, which allows reuse with attribution.\n\n"
            "Transect surveys of heathland are repeated by walkers every spring.")
    question = "Under what licence is the paper 'Heathland Transect Survey Methods' published?"
    weights = {t: (0.2 if t in query_terms("Heathland Transect Survey Methods paper") else 2.0)
               for t in query_terms(question)}
    names = frozenset(query_terms("Heathland Transect Survey Methods paper"))
    picked = texts_for(question, text, weights, names)
    assert any(s.startswith("This work is licensed") for s in picked)
    assert "Heathland Transect Survey Methods" not in picked
    with_title = texts_for(question, text, weights)
    assert "Heathland Transect Survey Methods" in with_title  # (the same without the names: the line adds their words)


def test_a_tables_caption_beside_the_row_holding_the_amount_does_not_bring_every_row():
    # (the caption is a short label line: over a list its items follow it; over a table whose picked row states the
    # amount asked for, the other rows are filler)
    text = ("I/Os may be configured for 3.3V or 5V operation. All outputs provide 24 mA drive.\n\n"
            "Table 1: Device Family\n\n|  | D36 | D72 | D108 |\n| --- | --- | --- | --- |\n"
            "| Macrocells | 36 | 72 | 108 |\n| Usable Gates | 800 | 1,600 | 2,400 |\n| Registers | 36 | 72 | 108 |\n"
            "| Pins | 34 | 72 | 108 |\n\nThe devices are offered in several packages.")
    texts = [s.text for s in sentences_for("How many macrocells does the D108 have?", text)]
    assert "Macrocells | 36 | 72 | 108" in texts
    assert not any(t.startswith(("Usable Gates", "Registers", "Pins")) for t in texts), texts


def test_a_document_whose_names_hold_all_its_words_still_has_sentences_to_quote():
    # (a tiny document's names, read from its text, may hold every word of it: only a unit repeating the question's
    # words that name it is passed over, "3 Section 3 of River Report", not the text under it)
    text = "3 Section 3 of River Report\n\nPage 3 text about topic 3, line 1. Page 3 text about topic 3, line 2."
    question = "What does section 3 of the River Report cover?"
    names = frozenset(query_terms(text))
    weights = {t: 0.02 for t in query_terms(question)}
    picked = texts_for(question, text, weights, names)
    assert picked and "3 Section 3 of River Report" not in picked
    assert "Page 3 text about topic 3, line 1." in picked


def test_a_glossarys_rows_are_data_and_its_neighbouring_rows_do_not_fill_the_answer():
    # (a glossary read as a table: its first row is a term like the others, not its columns' names; the rows
    # beside the one that defines the term asked about are other terms)
    text = ("| Cold Site: | A backup facility with power and space but no equipment. |\n| --- | --- |\n"
            "| Disruption: | An unplanned event that stops an information system for a time. |\n"
            "| Hot Site: | A fully operational offsite facility equipped with hardware and software. |\n"
            "| Warm Site: | A partly equipped facility that takes days to bring up. |")
    texts = [s.text for s in sentences_for("What is a hot site?", text)]
    assert texts[0] == "Hot Site: | A fully operational offsite facility equipped with hardware and software.", texts
    assert not any(t.startswith(("Cold Site", "Disruption")) for t in texts)  # (no header row, no filling row)


def test_a_charts_axis_numbers_are_passed_over_a_figure_alone_under_its_label_is_not():
    chart = ("Several skill areas were cited less often in 2023 than in 2021.\n\n"
             "Figure 7. Greatest needs in the tax department for skills\n\n2021 vs. 2023\n\n50%\n\n25%\n\n0%\n\n"
             "|  | 2021 | 2023 |\n| --- | --- | --- |\n| Data analytics | 45% | 44% |\n| Tax skills | 40% | 36% |")
    texts = [s.text for s in sentences_for("Which skills were cited in 2021 vs. 2023?", chart)]
    assert "2021 vs. 2023" in texts and "Data analytics | 45% | 44%" in texts
    assert not {"50%", "25%", "0%"} & set(texts)
    slide = "Revenue growth\n\n45%\n\nThe board met twice in the year to review the plan."
    assert "45%" in [s.text for s in greedy_for("What was the revenue growth?", slide)]


def test_a_change_explained_part_by_part_gives_each_parts_reason_before_the_table_of_its_figures():
    # (a segment's results: a lead-in over a table of its figures, then a reason for each part's change; a
    # question asking what explains the change by part wants the reasons, each of which is a value of its own)
    rows = "".join(f"| {part} {line} | {a:,} | {b:,} | {c} % |\n" for part, line, a, b, c in [
        ("Domestic", "revenue", 2206, 2210, 0), ("International", "revenue", 411, 593, -31),
        ("Partner", "revenue", 96, 101, -5), ("Domestic", "operating income", 837, 838, 0),
        ("International", "operating income", 138, 225, -39), ("Partner", "income", 123, 173, -29),
        ("Domestic", "costs", 1369, 1372, 0), ("International", "costs", 273, 368, -26)])
    text = ("Ferries revenues and operating income were as follows:\n\n"
            "| ($ in millions) | 2024 | 2023 | Change |\n| --- | --- | --- | --- |\n" + rows + "\n"
            "Domestic operating income was comparable to the prior year due to higher fuel costs at the harbour "
            "terminals and the repainting of the older vessels, offset by higher fares on the commuter routes and "
            "more charter sailings in the summer season.\n\n"
            "The decrease in international operating income was primarily due to the sale of the island routes to "
            "a regional operator at the start of the year, which removed their fares and their costs from the "
            "results for the whole of the current year.\n\n"
            "Income from partners decreased due to lower income from the bridge venture, attributable to fewer "
            "crossings after the toll rise and to the comparison with a gain on the sale of its depot in the "
            "prior year.")
    question = ("What explains the changes in the Ferries operating income, by domestic, international and "
                "partner components?")
    texts = [s.text for s in sentences_for(question, text)]
    assert any(t.startswith("The decrease in international operating income was primarily due to") for t in texts)
    assert any(t.startswith("Domestic operating income was comparable") for t in texts), texts
    assert any(t.startswith("Income from partners decreased due to") for t in texts), texts


def test_a_lead_in_that_ends_its_passage_brings_its_items_from_past_the_passage():
    # (a passage may end at a "…:" line, its list standing in the next block of the page: the answer gives the list,
    # never a sentence ending on "…:")
    text = ("Banking as a service relies on programming interfaces, which introduce vulnerabilities for banks. "
            "The risk is growing because:\n\n"
            "- Customers' sensitive data may be at risk from phishing attacks\n\n"
            "- Flawed interfaces might give hackers a back door into banks' systems\n\n"
            "The brief was written with more than 100 experts.")
    lead_in = text.index(":") + 1
    chosen = [(3, Window(0, lead_in, 2, 1.0, 1.0, frozenset(), False, text[:lead_in], ()))]
    question = "Why is the risk from banking as a service growing?"
    weights = {t: 1.0 for t in query_terms(question)}
    found = best_sentences(chosen, page_of(text), weights, question)
    texts = [s.text for s in found]
    assert "The risk is growing because:" in texts, texts
    assert "Customers' sensitive data may be at risk from phishing attacks" in texts, texts
    assert "Flawed interfaces might give hackers a back door into banks' systems" in texts, texts
    assert not answer_text(found, page_of(text)).rstrip().removesuffix("(p. 3)").rstrip().endswith(":")


def test_a_lead_in_brings_no_items_past_the_next_heading():
    text = ("The plan sets out what the office will do next year. Its work falls under two headings:\n\n"
            "## Budget\n\nThe budget grows by a tenth over the year before.")
    lead_in = text.index(":") + 1
    chosen = [(3, Window(0, lead_in, 2, 1.0, 1.0, frozenset(), False, text[:lead_in], ()))]
    question = "What will the office do next year?"
    weights = {t: 1.0 for t in query_terms(question)}
    texts = [s.text for s in best_sentences(chosen, page_of(text), weights, question)]
    assert "Budget" not in texts and "The budget grows by a tenth over the year before." not in texts, texts


def test_a_glossarys_first_entry_set_as_the_header_row_answers_a_definition_question():
    glossary = ("| tally sheet | The printed form on which a surveyor records every bird seen on a transect of the "
                "survey. |\n| --- | --- |\n| transect | A fixed line across a site that a surveyor walks. |\n"
                "| quadrat | A square of ground that is searched in full. |")
    texts = [s.text for s in greedy_for("Define tally sheet.", glossary)]
    assert texts and texts[0].startswith("tally sheet | The printed form on which a surveyor records")


def test_a_sentence_defining_the_term_asked_about_opens_the_answer():
    # the document is named by the term it defines ("Tally" of the Tally Fonts guide), so a sentence naming the
    # document and its maker holds more of the question's weight than the definition does, and its passage ranks
    # first: the definition is picked first all the same, and its page leads
    texts = {2: "The Tally Fonts are licensed by the survey group under its open licence, and the survey group wrote "
                "this user guide for them.",
             3: "Tally is a family of typefaces for writing the marks that several field crews use on their forms."}
    analyses = {page: analyse(text) for page, text in texts.items()}
    chosen = [(page, Window(0, len(text), 0, 1.0, 1.0, frozenset(), False, text, ())) for page, text in texts.items()]

    def read(page: int):
        if page not in texts:
            raise IndexError(page)
        return analyses[page], texts[page]

    question = "What is Tally, according to the survey group's user guide?"
    weights = {"talli": 0.3, "survey": 1.0, "group": 1.0, "user": 1.0, "guid": 1.0}
    found = best_sentences(chosen, read, weights, question)
    assert found[0].text.startswith("Tally is a family of typefaces") and found[0].page == 3


def test_where_a_definition_question_places_its_term_brings_no_sentence_beside_the_definition():
    # (the words of "according to the consumer library document" are the history paragraph's, not the term's)
    text = ("## History\n\nThe consumer library document was first written in 1993 by a committee of vendors. "
            "The library document was rewritten in 1994 for the second version of the format.\n\n"
            "## Scope\n\nThe interface covers reading only. Writers have an interface of their own. "
            "Both interfaces return integer codes. Both interfaces are in C.\n\n"
            "## Definitions\n\nDebugging information entries (DIEs) are the records a compiler writes for each "
            "variable and type of a program.")
    picked = [s.text for s in sentences_for("What is a DIE according to the consumer library document?", text)]
    assert any(s.startswith("Debugging information entries (DIEs) are the records") for s in picked)
    assert not any("library document" in s for s in picked)
