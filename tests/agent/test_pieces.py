"""Long table rows cut into pieces an answer can quote (engine.agent.pieces)."""

from __future__ import annotations

from engine.agent.pieces import cuts, split_long
from engine.agent.sentences import best_sentences, candidates, quote, with_context
from engine.index.evidence import Window, analyse
from engine.text import query_terms

CASE = ("| Case study 1 | Quality system for a drug maker |\n| --- | --- |\n"
        "| Business challenge The client faced high costs of quality. It lacked integration and traceability "
        "across its plants, which slowed every audit and review that its regulators asked for in the year. "
        "Solution The firm assessed the current state and designed new processes for each of the sites, with "
        "training for the staff who run them day to day. Impact • Realised benefits worth US$30 million • "
        "Deployed 10 system elements in 14 months • Adopted by 700 employees | |\n\n"
        "A short closing line.")


def test_a_long_row_is_cut_into_its_sentences_items_and_cells_each_a_literal_span():
    analysis = split_long(analyse(CASE), CASE, limit=200)
    texts = [u.text for u in analysis.units]
    assert "Realised benefits worth US$30 million" in texts
    assert "Deployed 10 system elements in 14 months" in texts
    assert "Business challenge The client faced high costs of quality." in texts
    assert all(CASE[u.start:u.end] == u.text for u in analysis.units)
    assert "Case study 1 | Quality system for a drug maker" in texts  # a short row stays one unit
    assert "A short closing line." in texts
    assert len(analysis.stems) == len(analysis.units) == len(analysis.pairs)


def test_a_short_row_or_prose_is_not_cut():
    analysis = analyse(CASE)
    assert split_long(analysis, CASE, limit=10_000) is analysis
    prose = "First sentence of a long paragraph that runs on. " * 12
    assert split_long(analyse(prose), prose, limit=100).units == analyse(prose).units  # prose: no table row


def test_cuts_drop_bullet_glyphs_and_bars():
    text = "Impact • Benefits worth US$30 million • Deployed in 14 months | Next cell"
    assert [text[a:b] for a, b in cuts(text)] == ["Impact", "Benefits worth US$30 million", "Deployed in 14 months",
                                                 "Next cell"]


def test_an_answer_quotes_the_piece_of_a_long_row_that_holds_the_value():
    analysis = split_long(analyse(CASE), CASE, limit=200)
    question = "How many employees adopted the quality system?"
    picked = best_sentences([(1, Window(0, len(CASE), 0, 1.0, 1.0, frozenset(), False, CASE, ()))],
                            lambda page: (analysis, CASE), {t: 1.0 for t in query_terms(question)}, question)
    assert any(s.text == "Adopted by 700 employees" for s in picked)
    assert all(len(s.text) < 300 for s in picked)
    assert all(part in CASE for part in quote(picked, CASE).split(" … "))


def test_a_label_piece_of_a_row_brings_the_items_after_it_in_its_row():
    analysis = split_long(analyse(CASE), CASE, limit=200)
    question = "What impact did the quality system deliver?"
    whole = [(1, Window(0, len(CASE), 0, 1.0, 1.0, frozenset(), False, CASE, ()))]
    picked = [s.text for s in best_sentences(whole, lambda page: (analysis, CASE),
                                             {t: 1.0 for t in query_terms(question)}, question)]
    assert picked[picked.index("Impact"):picked.index("Impact") + 4] == [
        "Impact", "Realised benefits worth US$30 million", "Deployed 10 system elements in 14 months",
        "Adopted by 700 employees"]
    pool = candidates(whole, lambda page: (analysis, CASE), (), question)
    label = next(s for s in pool if s.text == "Impact")
    # under its table's header row; the label's items end with its row: the line after the table is none of them
    assert [s.text for s in with_context([label], pool, lambda page: (analysis, CASE))] == [
        "Case study 1 | Quality system for a drug maker", "Impact", "Realised benefits worth US$30 million",
        "Deployed 10 system elements in 14 months",
        "Adopted by 700 employees"]
    solution = next(s for s in pool if s.text.startswith("Solution"))
    assert [s.text for s in with_context([solution], pool, lambda page: (analysis, CASE))] == [
        "Case study 1 | Quality system for a drug maker", solution.text]  # a sentence of the cell is no label


def test_a_page_with_a_long_row_cut_keeps_its_notes_and_its_questions_put_to_the_reader():
    text = CASE + "\n\nDo readers agree? Why or why not?\n\n12 See the annual report of the firm."
    analysis = analyse(text, notes=frozenset({text.split("\n").index("12 See the annual report of the firm.")}))
    cut = split_long(analysis, text, limit=200)
    assert cut is not analysis
    assert [cut.units[i].text for i in sorted(cut.notes)] == ["12 See the annual report of the firm."]
    assert [cut.units[i].text for i in sorted(cut.posed)] == ["Do readers agree?", "Why or why not?"]
