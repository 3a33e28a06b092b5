"""A question for the most or the least of something over a table that runs over a page break: the table is read
whole (engine.agent.extremes.extremes_over), and its extreme row is quoted from its own page."""

from __future__ import annotations

import pymupdf

from engine.agent.extremes import extremes_over

FIRST = ("Table 2: Offices by region as of December 2017\n\n| Region | Offices | Share |\n| --- | --- | --- |\n"
         "| Northern Plains | 1,755 | 61.4% |\n| Great Lakes | 1,549 | 54.2% |\n| Gulf Coast | 163 | 5.7% |")
NEXT = "| Pacific Islands | 159 | 5.6% |\n| --- | --- | --- |\n| High Desert | 3 | 0.1% |\n| Appalachia | 92 | 3.2% |"


def test_a_table_going_on_at_the_top_of_the_next_page_is_read_with_its_start():
    found = extremes_over([(7, FIRST), (8, NEXT)], -1, "Which region had the fewest offices?")
    assert found[7] == {}  # (its smallest row on page 7, 163, is not the table's smallest)
    [row] = found[8].values()
    assert NEXT.split("\n")[row.line] == "| High Desert | 3 | 0.1% |"
    assert row.pages == (7, 8) and {"region", "offic", "decemb"} <= row.context  # the caption and header of page 7
    largest = extremes_over([(7, FIRST), (8, NEXT)], 1, "Which region had the most offices?")
    assert [FIRST.split("\n")[r.line] for r in largest[7].values()] == ["| Northern Plains | 1,755 | 61.4% |"]
    assert largest[8] == {}


def test_a_table_after_text_on_the_next_page_or_not_on_the_next_page_is_another_table():
    opened = "Appalachia and the Pacific are counted apart.\n\n" + NEXT
    for pages in ([(7, FIRST), (8, opened)], [(7, FIRST), (9, NEXT)]):
        found = extremes_over(pages, -1, "Which region had the fewest offices?")
        assert [FIRST.split("\n")[r.line] for r in found[7].values()] == ["| Gulf Coast | 163 | 5.7% |"]
        assert [r.pages for r in found[pages[1][0]].values()] == [(pages[1][0], pages[1][0])]
    wider = NEXT.replace(" |\n", " | 1 |\n").replace("| --- | --- | --- |", "| --- | --- | --- | --- |")
    assert len(extremes_over([(7, FIRST), (8, wider)], -1, "Which region had the fewest offices?")[7]) == 1


def _table_pdf(path) -> None:
    """Three pages: prose, a table's caption, header and first rows, and the table's last rows at the top of the
    next page (the smallest among them)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 100), "Field offices report to the regional directors every quarter of the year.",
                     fontsize=11, fontname="helv")
    rows = [("Northern Plains", "1,755", "61.4%"), ("Great Lakes", "1,549", "54.2%"), ("Gulf Coast", "163", "5.7%")]
    for number, (top, caption, body) in enumerate([(True, "Table 2: Offices by region as of December 2017", rows),
                                                   (False, None, [("Pacific Islands", "159", "5.6%"),
                                                                  ("High Desert", "3", "0.1%"),
                                                                  ("Appalachia", "92", "3.2%")])]):
        page = doc.new_page(width=612, height=792)
        y = 90
        if caption:
            page.insert_text((72, y), caption, fontsize=11, fontname="hebo")
            y += 24
            for x, text in ((72, "Region"), (330, "Offices"), (430, "Share")):
                page.insert_text((x, y), text, fontsize=11, fontname="hebo")
            y += 18
        for label, offices, share in body:
            page.insert_text((72, y), label, fontsize=11, fontname="helv")
            page.insert_text((380 - pymupdf.get_text_length(offices, "helv", 11), y), offices, fontsize=11,
                             fontname="helv")
            page.insert_text((470 - pymupdf.get_text_length(share, "helv", 11), y), share, fontsize=11,
                             fontname="helv")
            y += 16
        if number == 1:
            page.insert_text((72, 400), "The regional directors meet once a year to compare their offices.",
                             fontsize=11, fontname="helv")
    doc.save(path)


def test_the_answer_quotes_the_smallest_row_from_the_page_the_table_goes_on_to(tmp_path):
    from engine.agent.offline import answer_offline
    from engine.index import Retriever, load_corpus
    from engine.pipeline import Pipeline
    from engine.workspace import Workspace

    _table_pdf(tmp_path / "offices.pdf")
    root = tmp_path / "ws"
    assert all(r.status.value == "ok" for r in Pipeline(root, workers=1).ingest([tmp_path / "offices.pdf"]))
    workspace = Workspace(root)
    retriever = Retriever(load_corpus(workspace), workspace=workspace)
    question = "Which region had the fewest offices as of December 2017?"
    answer = answer_offline(retriever.corpus, retriever.search(question, method="hybrid", k=5), k=5)
    assert "High Desert | 3 | 0.1%" in answer.answer
    assert any(c.page == 3 and "High Desert" in c.quote for c in answer.citations)
