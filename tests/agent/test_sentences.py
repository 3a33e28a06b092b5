"""The concise answer (engine.agent.sentences): which sentences of the chosen passages are quoted, and how."""

from __future__ import annotations

from engine.agent.sentences import ELISION, answer_text, best_sentences, quote
from engine.index.evidence import Window, analyse
from engine.text import query_terms

PAGE = ("## Staff\n\n"
        "The company has offices in many countries. Its staff work in four regions. "
        "It had 225,000 employees at the end of the year. Most of them work in the parks.\n\n"
        "The parks opened in 1955. They are visited by families.\n\n"
        "Employees are offered training programs.")


def whole(text: str) -> list[tuple[int, Window]]:
    return [(3, Window(0, len(text), 0, 1.0, 1.0, frozenset(), False, text, ()))]


def page_of(text: str):
    analysis = analyse(text)
    return lambda page: (analysis, text)


def sentences_for(question: str, text: str = PAGE, kind: str | None = None):
    weights = {t: 1.0 for t in query_terms(question)}
    return best_sentences(whole(text), page_of(text), weights, kind, question)


def test_a_number_question_gets_the_sentence_with_the_number_first_and_what_it_points_back_to():
    picked = sentences_for("How many employees did the company have?", kind="number")
    texts = [s.text for s in picked]
    assert "It had 225,000 employees at the end of the year." in texts
    # "It had …" points back: the sentence before it comes along, in page order
    assert texts.index("Its staff work in four regions.") == texts.index("It had 225,000 employees at the end of the year.") - 1
    assert all(s.page == 3 for s in picked) and len(picked) <= 5


def test_a_later_sentence_needs_new_words_or_a_new_value():
    picked = [s.text for s in sentences_for("When did the parks open and who visits them?")]
    assert "The parks opened in 1955." in picked and "They are visited by families." in picked
    assert "The company has offices in many countries." not in picked  # holds no word of the question


def test_one_quote_a_page_with_sentences_apart_joined_by_an_elision():
    picked = sentences_for("How many employees did the company have, and are employees offered training?",
                           kind="number")
    text = PAGE
    quoted = quote(picked, text)
    parts = quoted.split(ELISION)
    assert len(parts) == 2 and all(part in text for part in parts)  # two runs: each a literal span of the page
    assert parts[1] == "Employees are offered training programs."
    assert answer_text(picked, page_of(text)).endswith("(p. 3)")


def test_a_sentence_introducing_a_list_brings_its_items():
    text = ("The framework rests on three pillars:\n\n- identity checks at every request\n\n"
            "- devices kept healthy\n\n- least privilege for each session\n\nUnrelated closing words here.")
    picked = [s.text for s in sentences_for("What pillars does the framework rest on?", text)]
    assert picked[:4] == ["The framework rests on three pillars:", "identity checks at every request",
                          "devices kept healthy", "least privilege for each session"]
    assert answer_text(sentences_for("What pillars does the framework rest on?", text), page_of(text)) == (
        "The framework rests on three pillars: identity checks at every request; devices kept healthy; "
        "least privilege for each session (p. 3)")
