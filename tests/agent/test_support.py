"""The general evidence test (engine.agent.support): its signals and the fitted decision."""

from __future__ import annotations

import pytest

from engine.agent.support import (
    THRESHOLD,
    WEIGHTS,
    Signals,
    asked_kind,
    focus_share,
    focus_terms,
    nearness,
    question_parts,
    support,
    supported,
    unit_share,
)
from engine.agent.units import asked_units, states_value_in
from engine.index.evidence import analyse
from engine.text import stem


@pytest.mark.parametrize(("question", "names", "focus"), [
    ("How many employees did the Walt Disney Company have?", {"disney"}, ["employe"]),  # up to the verb
    ("What royalty rate does Deloitte charge for its platform?", {"deloitt"}, ["royalti", "charg"]),  # "rate": a kind
    ("How much did Disney take in as revenue?", {"disney"}, ["take", "revenu"]),  # one word: the next one too
    ("What is the number of employees at Disney?", {"disney"}, ["employe"]),  # "number" says only the kind of value
    ("According to the 2023 report, how many counterfeit banknotes were found?", set(), ["counterfeit", "banknot"]),
    ("What was the monthly subscriber churn rate in the last quarter?", set(), ["subscrib", "churn"]),  # head last
    ("How large is the Institute of International Finance's membership?", set(), ["membership"]),  # names left out
    ("Which SEC commissioners dissented?", set(), ["commission", "dissent"]),
    ("How many Acme Widgets were there?", set(), ["acm", "widget"]),  # only names: the names
    ("Disney's headcount, what was it?", set(), []),  # nothing after the question word
    ("Which version of Coq was used for the proofs?", set(), ["use", "proof"]),  # "version": the kind of value
    # verbs the grammar shows: after an auxiliary and a pronoun right after the question word, and after "to"
    ("How long did it take OPM to finish a retirement claim?", set(), ["retir", "claim"]),
    ("How long would it take to replace a third of all validators?", set(), ["third", "valid"]),
    ("How much did they spend on travel?", set(), ["travel"]),
    ("How many seconds does it take to program the device?", set(), ["second", "take"]),  # a phrase came first
    ("How long do the user registers take to initialize?", set(), ["user", "regist"]),  # a noun subject's verb
    ("What was the sum of its assets?", set(), ["asset"]),  # "sum", as "number", says the kind of value
    ("DOE FY 2025 total request and increase vs FY 2023.", set(), ["request", "increas"]),  # "vs" joins, names nothing
    # a phrase of capitals right after the question word is what is asked (not a name of what it is about) …
    ("What DPI does the library use for images?", set(), ["dpi"]),
    ("Which JRE does the manual require?", set(), ["jre"]),
    ("Which Typst version is required?", set(), ["typst"]),  # "version" says only the kind of value
    # … but not after a preposition or an auxiliary, inside a title, or in a question without a question word
    ("What share of Estonians have a digital identity?", set(), ["digit", "ident"]),
    ("When did the SEC adopt the rule?", set(), ["adopt", "rule"]),
    # (a quoted title's own question word asks nothing: the focus is the one of the question without the title)
    ("In 'How Networks Fail', how long did the outage last?", set(), focus_terms("How long did the outage last?")),
    ('In the slides "How To Give A Talk", how big is a slide page?', set(), ["slide", "page"]),
    ("Noise AESGCM per-key data volume limit", {"nois"}, ["volum", "limit"]),
    # an opening "When …," clause says when the question applies: its words are not what is asked
    ("When I ask the solver to return only answers as good as a cost figure, which flag switches that on?", set(),
     ["flag", "switch"]),
    ("When the widget starts, how many log files does it keep?", set(), ["log", "file"]),
])
def test_focus_terms_are_the_phrase_after_the_question_word(question, names, focus):
    assert focus_terms(question, names) == focus


@pytest.mark.parametrize("question", ["In what year was the sourdough starter made?", "What date is the vote set for?",
                                      "What is the main reason for the delay?", "What was the sum of its assets?"])
def test_the_kind_of_value_asked_for_is_no_focus_word(question):
    found = focus_terms(question)
    assert found and not {"year", "date", "reason", "sum"} & set(found)


def test_focus_share_wants_the_focus_words_together_with_the_value_asked_for():
    page = ("The company employs staff in many countries.\n\nIt had 225,000 staff at year end.\n\n"
            "## Parks\n\nAttendance at domestic parks rose.")
    analysis = analyse(page)
    staff = [stem("staff")]
    assert focus_share(analysis, staff, "number", "How many staff does it have?") == 1.0
    assert focus_share(analysis, staff, None, "Which staff?") == 1.0
    # the words are on the page, but never in a run of sentences with a number
    parks = [stem("domestic"), stem("attendance")]
    assert focus_share(analysis, parks, "number", "By what number did attendance at domestic parks fall?") == 0.0
    assert focus_share(analysis, parks, None, "What happened to attendance at domestic parks?") == 1.0
    assert focus_share(analysis, [], "number", "How many?") == 1.0  # no focus: nothing to miss


def test_the_fitted_test_answers_strong_evidence_and_refuses_none():
    assert list(WEIGHTS) == ["focus", "near", "unit"] and 0.0 < THRESHOLD < 1.0
    assert supported(Signals(cover=0.8, typed=0.8, focus=1.0, near=1.0, unit=1.0))
    assert not supported(Signals(cover=0.0, typed=0.0, focus=0.0, near=0.0, unit=0.0))
    # what is asked for named together, the value near it, and in the unit asked for: each raises the support
    assert support(Signals(0.5, 0.5, 1.0, 1.0, 1.0)) > support(Signals(0.5, 0.5, 0.5, 1.0, 1.0)) \
        > support(Signals(0.5, 0.5, 0.0, 1.0, 1.0))
    assert support(Signals(0.5, 0.5, 1.0, 1.0, 1.0)) > support(Signals(0.5, 0.5, 1.0, 0.3, 1.0))
    assert support(Signals(0.5, 0.5, 1.0, 1.0, 1.0)) > support(Signals(0.5, 0.5, 1.0, 1.0, 0.0))
    assert not supported(Signals(0.9, 0.9, 1.0, 0.0, 1.0))  # the words, but no value near them: the near miss


def test_nearness_is_how_close_a_new_value_stands_to_the_focus():
    page = ("The Reserve Banks completed 63 enforcement actions.\n\n"
            "In 2023, after a long review of its supervisory practice and many meetings, it acted on enforcement.\n\n"
            "Enforcement is a priority.")
    analysis = analyse(page)
    question = "How many enforcement actions were completed in 2023?"
    assert nearness(analysis, [stem("enforcement")], "number", question) == 1.0  # "63 enforcement"
    formal = analyse("The Reserve Banks completed 63 formal enforcement actions.")
    assert 0.7 < nearness(formal, [stem("enforcement")], "number", question) < 1.0  # a word between
    far = analyse(page.split("\n\n", 1)[1])  # only "2023" (in the question) and no other number
    assert nearness(far, [stem("enforcement")], "number", question) == 0.0
    distant = analyse("There were 40 of them in all the many districts, counting every kind of enforcement.")
    assert 0.0 < nearness(distant, [stem("enforcement")], "number", question) < 0.3  # four words between
    # stop words do not count as steps: "a week of the survey, copy" is two
    week = analyse("Within a week of the survey, copy the cleaned data into the archive.")
    assert nearness(week, [stem("copy")], "number", "Within how long should the data be copied?") > 0.75
    assert nearness(far, [stem("enforcement")], None, "Which enforcement actions?") == 1.0  # no value asked for
    assert nearness(far, [], "number", question) == 1.0  # no focus: nothing to be near


def test_a_headings_number_or_a_notes_marker_is_no_value_near_the_focus():
    question = "How many instant-payment transactions did the service settle?"
    focus = [stem("payment"), stem("transactions")]
    heading = analyse("## 5 Payment Systems\n\nThe service settles instant payments for banks.")
    assert nearness(heading, focus, "number", question) == 0.0  # "5" numbers the section
    assert focus_share(heading, focus, "number", question) == 0.0
    page = "The service settles payments.\n\n2 The Board expects payment volumes to grow."
    note = analyse(page, notes=frozenset({2}))  # (the line of the footnote)
    assert nearness(note, focus, "number", question) == 0.0  # "2" marks the footnote
    assert nearness(analyse(page), focus, "number", question) > 0.0  # (read as text, "2 The Board" would count)


@pytest.mark.parametrize(("question", "units"), [
    ("What is the maximum counter frequency of the part in GHz?", ["GHz"]),
    ("Maximum TCK frequency (MHz) of the part?", ["MHz"]),
    ("How many seconds does programming take?", ["seconds"]),
    ("What is the supply current, in milliamps, in low-power mode?", ["milliamps"]),
    ("What is the operating range in degrees Celsius?", ["degrees Celsius"]),
    ("What was the budget, in US dollars?", ["dollars"]),
    ("What dollar value does the study give the market?", ["dollars"]),
    ("How many SEC-registered advisers were there in 2017?", []),  # "SEC" is no unit
    ("How many years of data does the survey cover, over the last five years?", ["years"]),
    ("What did the agency publish in March?", []),
    ("At what resolution (DPI) are images embedded?", ["dots per inch"]),
    ("How many bits long is the key?", ["bits"]),
])
def test_asked_units(question, units):
    assert [u.name for u in asked_units(question)] == units


def test_a_value_is_stated_in_a_unit_in_its_usual_spellings():
    def unit(name):
        return next(u for u in asked_units(f"How much, in {name}?"))

    assert states_value_in(unit("MHz"), "fCNT is 125 MHz for the smallest device")
    assert not states_value_in(unit("GHz"), "fCNT is 125 MHz for the smallest device")
    assert states_value_in(unit("seconds"), "SIA takes 7082s on WORLD")
    assert states_value_in(unit("degrees Celsius"), "from 0 °C to 70 °C")
    assert states_value_in(unit("dollars"), "benefits worth US$30 million")
    assert states_value_in(unit("milliamps"), "an output sinks 24 mA")
    assert not states_value_in(unit("milliamps"), "the MA office in 24 states")
    assert states_value_in(unit("dots per inch"), "images are embedded at 300 dpi")
    assert states_value_in(unit("bits"), "a 128-bit key")


def test_unit_share_wants_a_value_in_the_unit_asked_for_beside_the_focus():
    page = "The counter runs at 125 MHz.\n\nThe JTAG port has four pins and runs at 10 MHz."
    analysis = analyse(page)
    ghz = asked_units("in GHz?")
    mhz = asked_units("in MHz?")
    assert unit_share(analysis, [stem("counter")], ghz) == 0.0
    assert unit_share(analysis, [stem("counter")], mhz) == 1.0
    assert unit_share(analysis, [stem("clock")], mhz) == 0.5  # a value in MHz, but not beside the focus
    assert unit_share(analysis, [stem("counter")], []) == 1.0  # no unit asked for


@pytest.mark.parametrize(("question", "kind"), [
    ("How many employees did it have?", "number"),
    ("When did the rule take effect?", "date"),
    ("What annual salary did the Chair receive?", "number"),  # an amount after the question word
    ("Disney Treasure guest count for its first sailings?", "number"),  # no question word, an amount
    ("RngStream module: number of independent streams available?", "number"),  # a topic, then an amount
    ("The advisers' statement: issue date, and number of comments received?", None),  # several things asked
    ("Noise: which handshake patterns are one-way?", None),
    ("What is the maximum frequency of the port in MHz?", "number"),  # a unit
    ("Which banks took part in the exercise?", None),
    ("Who signed the release?", None),  # a name: not a number or a date
    ("How do time-regulating and time-constrained members differ?", None),  # a measure word in a compound
    ("What is the response time of the service?", "number"),
    ("Which version of the compiler did the authors use?", "number"),  # a version is a number ("0.5.9")
    ("Acme Parser version?", "number"),
    ("When I ask the solver for answers as good as a cost figure, which flag switches that on?", None),  # "cost": the clause's
    ("When the widget starts, how many log files does it keep?", "number"),
    # a quantity of length, time or weight ("At what pixel resolution …", "… recursion depth?", "… block height")
    ("At what pixel resolution does the tool render thumbnails?", "number"),
    ("Widget macro nesting depth?", "number"),
    ("At what block height was the fork activated?", "number"),
    ("What is the retry interval of the client?", "number"),
    ("What are the agency's priorities in its Budget in Brief?", None),  # (a title's word, past a preposition)
    # how a thing is done or changed: an amount in the subject after "how" and its verb, not further on
    ("How does the manual suggest keeping the previous version usable?", None),
    ("How did the company's effective tax rate compare with last year's?", "number"),
    ("Parser: why is a value like minus two never held in one node?", None),  # a reason, whatever follows "why"
    # a yes/no question after a clause of when it applies asks for no date; "When" with an aside after it does
    ("When I feed a bracket of frames to the tool, do they need to be symmetric?", None),
    ("When, in simulation time, does the federate give up ownership?", "date"),
    # a measure word names the amount as its noun's head, not modifying the noun after it, nor inside a name
    ("Name the random number generators that the module provides.", None),
    ("Which distance units can be written after the radius?", None),
    ("What is the Earth Mover's Distance?", None),
    ("What is the minimum compiler version needed to build it?", "number"),  # (a participle after it: its verb)
    ("What procurement value threshold triggers the controls?", "number"),  # (the head a measure word too)
    ("Macro nesting depth limit?", "number"),
])
def test_asked_kind(question, kind):
    assert asked_kind(question) == kind


def test_question_parts():
    assert question_parts("How many reports were issued, and in which month was the last one?") == [
        "How many reports were issued", "in which month was the last one?"]  # (a preposition before the question word)
    assert question_parts("How soon must the functions be sustained, and for how long?") == [
        "How soon must the functions be sustained", "for how long?"]
    assert question_parts("By how many incidents or by what percentage will they fall?") == [
        "By how many incidents or by what percentage will they fall?"]  # (one thing asked two ways)
    assert question_parts("How many checks were processed and how did that compare with 2022?") == [
        "How many checks were processed", "how did that compare with 2022?"]
    assert question_parts("Which banks and insurers took part?") == ["Which banks and insurers took part?"]
    # (questions listed with commas alone; not a clause of time before the question, nor a relative clause)
    assert question_parts("In the tool's guide, what unit are sizes given in, how many of them make an inch, and "
                          "at what precision does it store them?") == [
        "In the tool's guide, what unit are sizes given in", "how many of them make an inch",
        "at what precision does it store them?"]
    assert question_parts("When the printer runs out of paper, why does the queue stop?") == [
        "When the printer runs out of paper, why does the queue stop?"]
    assert question_parts("What is the daemon, which ships with the server, used for?") == [
        "What is the daemon, which ships with the server, used for?"]


def test_a_document_naming_what_is_asked_without_the_value_is_weaker_evidence(samples_workspace):
    from engine.agent import retriever_for
    from engine.agent.support import signals

    retriever = retriever_for(samples_workspace)
    corpus = retriever.corpus

    def found(question: str) -> Signals:
        retrieval = retriever.search(question, k=10)
        return signals(corpus, retrieval, corpus.doc_position(retrieval.hits[0].doc))

    counted = found("How many reaches do the Upper Vale volunteer surveyors cover?")  # "18 reaches"
    never = found("How many coordinators does the Upper Vale Catchment Trust have?")  # no coordinator is counted
    assert counted.focus > never.focus and support(counted) > support(never)
    assert supported(counted) and not supported(never)


def test_a_question_in_another_language_has_no_english_phrase_reading(samples_workspace):
    # the focus, the value and the unit asked for are read from English phrases; a question asked in another
    # language leaves those signals at 1.0 (and a capitalised German noun is no name the corpus must hold)
    from engine.agent import retriever_for
    from engine.agent.offline import unknown_names
    from engine.agent.support import signals

    retriever = retriever_for(samples_workspace)
    corpus = retriever.corpus
    question = "Wie viele Koordinatoren hat der Trust laut dem Bericht?"
    retrieval = retriever.search(question, method="hybrid", k=5)
    doc = corpus.doc_position(retrieval.hits[0].doc)
    assert retrieval.language == "en"  # (every sample document is in English)
    retrieval.language = "de"
    found = signals(corpus, retrieval, doc)
    assert (found.focus, found.near, found.unit) == (1.0, 1.0, 1.0)
    assert unknown_names(corpus, question, "de") == []
    assert "Koordinatoren" in unknown_names(corpus, question, "en")
    assert unknown_names(corpus, "Wie viele Mitglieder hat die NASA?", "de") == ["NASA"]  # (an acronym still counts)


def test_an_english_question_about_a_document_in_another_language_has_no_phrase_reading(samples_workspace):
    # the focus words of an English question are English words: a German document does not hold them (it says
    # "Koordinatoren"), so the focus, value and unit signals are not read there, as for a question in German
    from engine.agent import retriever_for
    from engine.agent.support import signals

    retriever = retriever_for(samples_workspace)
    corpus = retriever.corpus
    retrieval = retriever.search("How many coordinators does the Upper Vale Catchment Trust have?", k=10)
    doc = corpus.doc_position(retrieval.hits[0].doc)
    assert retrieval.language == "en" and not supported(signals(corpus, retrieval, doc))  # (read in English)
    corpus.docs[doc].info.language = "de"  # (as if the document were German)
    try:
        found = signals(corpus, retrieval, doc)
    finally:
        corpus.docs[doc].info.language = "en"
    assert (found.focus, found.near, found.unit) == (1.0, 1.0, 1.0)


def test_a_question_without_stop_words_is_read_in_the_language_of_the_documents_using_its_words(samples_workspace):
    from engine.agent import retriever_for
    from engine.index import lexical

    from engine.text import query_terms

    corpus = retriever_for(samples_workspace).corpus
    terms = query_terms("velocity verticals wading rod")
    assert lexical.terms_language(corpus, terms) == "en"  # (every sample document is in English)
    guide = corpus.doc_position("pdfrag-field-guide.pdf")
    corpus.docs[guide].info.language = "de"  # (as if the guide were German: its words are its language's)
    try:
        assert lexical.terms_language(corpus, terms) == "de"
    finally:
        corpus.docs[guide].info.language = "en"


def _one_page_workspace(tmp_path, name: str, lines: list[str]):
    """A workspace holding one PDF of one page with these lines."""
    from engine.pipeline import Pipeline
    from engine.workspace import Workspace
    from tests.conftest import written_pdf

    with written_pdf(tmp_path / name) as doc:
        page = doc.new_page(width=595, height=842)
        for k, line in enumerate(lines):
            page.insert_text((72, 100 + 15 * k), line, fontsize=11)
    Pipeline(tmp_path / "ws", workers=1).ingest([tmp_path / name])
    return Workspace(tmp_path / "ws")


def test_a_plural_acronym_the_corpus_writes_as_the_question_does_is_no_unknown_name(tmp_path):
    # "FTEs" may be "FTE" on the page, but a page writing "(LBOs)" names them too: neither form missing
    from engine.agent import retriever_for
    from engine.agent.offline import unknown_names

    workspace = _one_page_workspace(tmp_path, "portfolios.pdf", [
        "Large banking organizations (LBOs) are firms with total assets of $100 billion",
        "and greater. The 18 LBOs held 5.1 trillion dollars of assets at year-end, and",
        "their supervision employed 120 full-time equivalent staff (FTE) this year."])
    corpus = retriever_for(workspace.root).corpus
    assert unknown_names(corpus, "What assets did the LBOs hold?") == []
    assert unknown_names(corpus, "How many FTEs did supervision employ?") == []  # (the page says "FTE")
    assert unknown_names(corpus, "How many CBOs are there?") == ["CBOs"]


def test_a_name_the_question_also_gives_in_another_form_the_corpus_knows_is_no_unknown_name(tmp_path):
    # "the GDPR (DSGVO)": the question names the thing twice, and the page writes one of them
    from engine.agent import retriever_for
    from engine.agent.offline import unknown_names

    workspace = _one_page_workspace(tmp_path, "recht.pdf", [
        "Die DSGVO regelt die Verarbeitung personenbezogener Daten in der Union.",
        "Artikel 17 gibt jeder Person ein Recht auf Löschung ihrer Daten."])
    corpus = retriever_for(workspace.root).corpus
    assert unknown_names(corpus, "What does the paper say about the GDPR (DSGVO)?") == []
    assert unknown_names(corpus, "What does the paper say about the DSGVO (GDPR)?") == []
    assert unknown_names(corpus, "What does the paper say about the GDPR?") == ["GDPR"]
    assert unknown_names(corpus, "What does the paper say about Zorblat (GDPR)?") == ["Zorblat", "GDPR"]


def test_a_term_asked_to_be_defined_that_the_document_never_writes_a_word_of_is_not_covered(tmp_path):
    # a document that never writes "lake" defines no "tax data lake", whatever else of it it uses
    from engine.agent import ask
    from engine.agent.offline import spellings

    workspace = _one_page_workspace(tmp_path, "tax.pdf", [
        "A tax data warehouse is a store that holds the tax department's data in one place.",
        "The organisation keeps its tax data in the warehouse for seven years."])
    answer = ask(workspace, "What is a tax data lake?")
    assert not answer.covered and "never uses lake" in answer.answer and not answer.citations
    assert ask(workspace, "What is a tax data warehouse?").covered
    # (the other English spelling of a word counts as the document's: it writes "organisation")
    assert spellings("organization") == ["organization", "organisation"]
    assert "never uses" not in ask(workspace, "What is a tax organization?").answer
    assert "never uses harvesting" in ask(workspace, "What is tax harvesting?").answer
    # "what is making …" asks what does something to a thing, not for a term: the words after the verb need not be
    # the document's
    assert "never uses" not in ask(workspace, "What is making tax data riskier?").answer
    # a question asking more than the definition: its other part may be what the document answers
    both = ask(workspace, "What is a tax data lake, and where does the organisation keep its tax data?")
    assert both.covered and "in the warehouse for seven years" in both.answer


@pytest.mark.parametrize(("question", "asked"), [
    # the sentence that asks, not the scene set before it (whose "in seconds" asks for no unit)
    ("The profiler counts time in instructions, not in seconds. What is the reason for this choice?",
     "What is the reason for this choice?"),
    ("Suppose I shoot five frames. Then I fuse them. Why is the noise lower?", "Why is the noise lower?"),
    ("What is the share of the U.S. market?", "What is the share of the U.S. market?"),  # (an abbreviation's dot)
    ("What does Fig. 3 show?", "What does Fig. 3 show?"),
    ("How many frames? And why?", "How many frames? And why?"),  # (two questions: both ask)
])
def test_a_question_asks_in_its_last_sentence_when_statements_set_its_scene(question, asked):
    from engine.agent.support import asked_kind, asking_sentence

    assert asking_sentence(question) == asked
    assert asked_kind(asking_sentence("It takes 40 seconds. Why does it take so long?")) is None


def test_a_name_written_inside_a_longer_word_of_the_corpus_is_no_unknown_name(tmp_path):
    # a university's theme named "UAntwerpen" in its commands: a question in English says "Antwerp"
    from engine.agent import retriever_for
    from engine.agent.offline import unknown_names

    workspace = _one_page_workspace(tmp_path, "theme.pdf", [
        "Load the theme with \\usetheme{UAntwerpen} in the preamble of your talk, then",
        "choose a canvas for each slide with the options the theme defines for it."])
    corpus = retriever_for(workspace.root).corpus
    assert unknown_names(corpus, "Which canvases does the theme of Antwerp offer?") == []
    assert unknown_names(corpus, "Which canvases does the theme of Ghent offer?") == ["Ghent"]
    assert unknown_names(corpus, "Does the Anne theme work?") == ["Anne"]  # (four letters: inside too many words)


def test_a_stop_word_in_capitals_is_no_unknown_name(tmp_path):
    # "VERY" of the page's line in capitals is no term there: the question's "VERY HIGH" tells nothing missing, nor
    # does a word stressed in capitals ("AND") or an acronym spelling a stop word the page lacks ("US")
    from engine.agent import retriever_for
    from engine.agent.offline import unknown_names

    workspace = _one_page_workspace(tmp_path, "levels.pdf", [
        "VERY HIGH Confidence: a very strong degree of assurance in the identity of the cardholder.",
        "The IT department approves every authentication mechanism before it is used."])
    corpus = retriever_for(workspace.root).corpus
    assert unknown_names(corpus, "Which mechanisms apply when VERY HIGH confidence is required?") == []
    assert unknown_names(corpus, "Who in IT approves the mechanisms?") == []
    assert unknown_names(corpus, "Does the US office approve the mechanisms?") == []
    assert unknown_names(corpus, "Can one mechanism be VERY HIGH AND SOME Confidence at once?") == []
    assert unknown_names(corpus, "Does the Zorblat office approve the mechanisms?") == ["Zorblat"]
