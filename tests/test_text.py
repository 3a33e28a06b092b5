"""The text primitives of engine/text.py: words and tokens, folding, stop words, sentences, shared patterns."""

from __future__ import annotations

import pytest

from engine.text import (
    COMPOUND_WORD_RE,
    PROSE_STOP_WORDS,
    STOP_WORDS,
    fold,
    folded_words,
    fragmented,
    leads_in,
    query_pairs,
    query_terms,
    sentence_spans,
    split_sentences,
    squash,
    stem,
    stop_words,
    tokenize,
    words,
)

# --- words and index tokens


def test_words_expand_ligatures_drop_possessives_and_split_on_underscores():
    assert words("The ﬁrm’s ﬂow_rate, 2023's") == ["the", "firm", "flow", "rate", "2023"]


def test_tokens_are_stems_of_content_words_with_british_spellings_as_american():
    assert tokenize("The organisation prioritised the organizations") == ["organiz", "priorit", "organiz"]
    assert stem("organisation") == stem("organization")
    assert tokenize("it is a b 7") == ["7"]  # stop words and single letters go, a lone digit stays
    # beyond "-ise": the British spellings breame lists ("the corpus never mentions Earth-centred" was said of a
    # document that writes "Earth centered")
    assert tokenize("an Earth-centred frame, its colour, licence and behaviour") \
        == tokenize("an Earth centered frame, its color, license and behavior")
    assert tokenize("organisational programmes") == tokenize("organizational programs")
    assert stem("practise") == stem("practice")


def test_a_stop_word_written_as_an_acronym_is_a_term_in_questions_and_pages_alike():
    # a table's key in capitals that spells a stop word ("AN": Arabic Number), the IT department, US dollars
    row = "Numeric Value: 6, Unicode Type: AN, GDL Label: DIR_ARABICNUMBER"
    assert "an" in tokenize(row)  # (beside "GDL" across a comma, not a space: no line in capitals)
    assert "an" in query_terms("What GDL label does the Unicode type AN have?")
    assert query_terms("How large is the IT budget, in US dollars?") == ["larg", "it", "budget", "us", "dollar"]
    assert "it" in tokenize("the AN_stats.txt file and IT") and "an" in tokenize("the AN_stats.txt file")
    # a line in capitals keeps its stop words stop words, as does the word in small letters or a single capital
    assert tokenize("WHAT IS IT") == [] and tokenize("when VERY HIGH confidence") == ["high", "confid"]
    assert tokenize("It is an answer. A set") == ["answer", "set"]
    assert tokenize("IT'S") == []  # (a possessive-looking capital S: left as it was)


def test_joins_mend_words_a_text_layer_broke_into_pieces():
    assert tokenize("argumen ts") == ["argumen", "ts"]
    assert stem("arguments") in tokenize("argumen ts", joins=True)


def test_fragmented_tells_a_letter_spaced_text_layer_from_prose():
    prose = "The committee reviewed the annual budget and approved the plan for the next year. " * 30
    broken = "t yp es of argumen ts ar e check ed b y th e comp il er " * 30
    assert not fragmented(prose)
    assert fragmented(broken)


def test_question_terms_leave_out_words_that_ask():
    assert query_terms("What does the report say about data sharing?") == ["report", "data", "share"]
    assert query_pairs("What does the report say about data sharing?") == ["report~data", "data~share"]


def test_a_request_opening_in_the_imperative_names_nothing_asked_about():
    assert query_terms("List the other names the EMD goes by.") == ["name", "emd", "goe"]
    assert query_terms("Please summarize the care obligation") == ["care", "oblig"]
    assert query_pairs("Name the solution") == []
    # the same words elsewhere, or as part of a compound, are content
    assert query_terms("State-registered advisers: how many?") == ["state", "regist", "adviz"]
    assert query_terms("What does the linked list store?") == ["link", "list", "store"]


def test_a_question_asked_in_another_language_leaves_out_its_stop_words():
    question = "Woran lag es, dass Quickload nicht mit mehr als 256 MB getestet werden konnte?"
    assert query_terms(question, "de") == ["woran", "lag", "quickload", "256", "mb", "getestet"]
    assert {"dass", "nicht", "werden"} <= set(query_terms(question))  # (read as English, they are words)
    assert query_pairs("Wie viele Knoten hat das Netzwerk?", "de") == ["knoten~netzwerk"]


def test_fold_and_squash_compare_across_case_ligatures_spacing_and_punctuation():
    assert fold("STRASSE") == fold("Straße")
    assert folded_words("Eﬃcient, co-operative") == ["efficient", "co", "operative"]
    assert squash("Data-Sharing  Spec.") == squash("data sharing spec") == "datasharingspec"


def test_the_keyword_word_keeps_inner_hyphens_and_apostrophes_and_starts_with_a_letter():
    found = COMPOUND_WORD_RE.findall("state-of-the-art don't covid-19 2023 -x")
    assert found == ["state-of-the-art", "don't", "covid-19", "x"]


# --- stop words


def test_prose_stop_words_extend_the_index_list_which_keeps_connectives_searchable():
    assert STOP_WORDS < PROSE_STOP_WORDS
    assert "although" in PROSE_STOP_WORDS and "although" not in STOP_WORDS
    assert stop_words("en") is PROSE_STOP_WORDS


@pytest.mark.parametrize(("lang", "word"), [("de", "und"), ("fr", "les"), ("es", "para"), ("ca", "amb")])
def test_other_languages_have_their_own_stop_words(lang, word):
    found = stop_words(lang)
    assert word in found and "the" not in found


def test_a_language_without_a_list_falls_back_to_english():
    assert stop_words("xx") is PROSE_STOP_WORDS


def test_a_language_is_named_in_english_and_in_itself():
    from engine.text import language_names

    assert language_names("de") == ("German", "Deutsch")
    assert language_names("es") == ("Spanish", "Español")  # (not "Spanish; Castilian")
    assert language_names("en") == ("English",)
    assert language_names("") == () and language_names("xx") == ()


# --- sentences


def test_sentences_keep_abbreviations_initials_and_footnote_marks():
    text = (
        "The U.S. Congress met Mr. J. Smith at 10 a.m. on Monday. He said “yes.” Then he left. "
        "It was investment advice.55  Commenters agreed."
    )
    assert split_sentences(text) == [
        "The U.S. Congress met Mr. J. Smith at 10 a.m. on Monday.",
        "He said “yes.”",
        "Then he left.",
        "It was investment advice.55",
        "Commenters agreed.",
    ]


def test_sentences_do_not_break_after_legal_and_citation_abbreviations():
    body = ("In Financial Planning Association v. SEC, the court vacated the rule. "
            "The U.S. Treasury agreed. J. Smith wrote it. Costs rose 5%. Sales fell. "
            "See 15 U.S.C. 80b, vol. 32, no. 9 (Sept. 24, 2007) and P.-A. Kamienny.")
    assert split_sentences(body) == [
        "In Financial Planning Association v. SEC, the court vacated the rule.",
        "The U.S. Treasury agreed.", "J. Smith wrote it.", "Costs rose 5%.", "Sales fell.",
        "See 15 U.S.C. 80b, vol. 32, no. 9 (Sept. 24, 2007) and P.-A. Kamienny.",
    ]


def test_a_section_number_or_decimal_is_no_sentence_end():
    assert split_sentences("4.1 Declarations and 2.5 Million more. Theorem 3.2 (Safety) holds.") == [
        "4.1 Declarations and 2.5 Million more.", "Theorem 3.2 (Safety) holds."]


def test_a_closing_bracket_or_quote_stays_with_its_sentence():
    assert split_sentences("(Used with --coq.) Then “renewed leadership.” Next") == [
        "(Used with --coq.)", "Then “renewed leadership.”", "Next"]


def test_a_paragraph_opening_label_stays_with_its_text_but_a_variable_ends_a_sentence():
    assert split_sentences("b. Requirements for x. Then y.") == ["b. Requirements for x.", "Then y."]


def test_a_numbered_paragraphs_label_stays_with_its_first_sentence():
    assert split_sentences("2. Confirm access with the landowner. Note any gates.") == [
        "2. Confirm access with the landowner.", "Note any gates."]
    assert split_sentences("iv. Keep the plan. Then go.") == ["iv. Keep the plan.", "Then go."]
    # only as the paragraph's opening word: a number ending a later sentence still ends it
    assert split_sentences("Revenue rose in 2023. Costs fell.") == ["Revenue rose in 2023.", "Costs fell."]


def test_sentence_spans_are_literal_spans_without_surrounding_space():
    text = "  First one.   Second one!  "
    spans = sentence_spans(text)
    assert [text[a:b] for a, b in spans] == ["First one.", "Second one!"]
    assert sentence_spans("   ") == []


def test_without_footnotes_a_number_after_a_sentence_end_stays_with_the_next_sentence():
    text = "It was investment advice.55 Commenters agreed. Costs fell.12 Then rose."
    assert split_sentences(text, footnotes=False) == ["It was investment advice.55 Commenters agreed.",
                                                      "Costs fell.12 Then rose."]
    assert split_sentences(text) == ["It was investment advice.55", "Commenters agreed.", "Costs fell.12", "Then rose."]


def test_a_question_is_read_in_the_language_of_the_documents_whose_stop_words_it_holds():
    from engine.text import question_language

    german = "Welche Prinzipien umfassen die Gesetze der Identität laut der Arbeit?"
    assert question_language(german, {"de", "en"}) == "de"
    assert question_language(german, {"en"}) == ""  # (no document in German: no stop words of a language it has)
    assert question_language("Which principles do the laws of identity comprise, according to the thesis?",
                             {"de", "en"}) == "en"
    assert question_language("Quels principes la thèse décrit-elle pour les portefeuilles ?", {"fr", "de"}) == "fr"
    # English wins a tie, and one stop word of another language is not enough ("die" is English too)
    assert question_language("Do cells die after the test?", {"de"}) == "en"
    assert question_language("IDunion Knoten", {"de"}) == ""  # (too few stop words to tell: the words decide)
    assert question_language("Sovrin: Anzahl der Knoten", {"de"}) == ""


@pytest.mark.parametrize(("text", "leads"), [
    ("The plan has three parts:", True),
    ("There are three primary criteria for eliminating a control including—", True),  # an em dash after a word
    ("December 30, 2023: —", False),  # (a dash alone: a table's empty value)
    ("The operation may be selected from:–", True),  # (a colon and a dash: the old printers' lead-in)
    ("The plan has three parts.", False),
])
def test_a_lead_in_ends_in_a_colon_or_an_em_dash_after_a_word(text, leads):
    assert leads_in(text) is leads


def test_a_question_word_written_as_a_call_is_a_name_searched_for():
    from engine.text import query_terms

    # "mean()" names a function; "mean" alone only asks ("What does the term mean?")
    assert "mean" in query_terms("What must be given as the opt argument of mean() for the geometric mean?")
    assert "mean" in query_terms("How does mean () treat NaN values?")
    assert "mean" not in query_terms("What does the term orbit mean?")
