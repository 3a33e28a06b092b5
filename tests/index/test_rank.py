"""Hybrid's second stage (engine/index/rank.py): candidates, their features and the fitted order."""

from __future__ import annotations

import numpy as np
import pytest

from engine.index import Retriever, load_corpus, rank
from engine.index import lexical
from engine.text import query_pairs, query_terms
from engine.workspace import Workspace

GUIDE = "pdfrag-field-guide.pdf"
QUESTION = "What is the six-tenths method for measuring velocity?"  # answered on the guide's page 9


@pytest.fixture(scope="module")
def corpus(samples_workspace):
    return load_corpus(Workspace(samples_workspace))


def _inputs(corpus, question):
    terms, phrases = query_terms(question), query_pairs(question)
    return terms, phrases, lexical.route(corpus, question, terms)


def test_candidates_are_the_best_positive_pages_in_order():
    fused = np.array([0.2, 0.0, 0.9, 0.5, 0.9, 0.1], dtype=np.float32)
    assert rank.candidates(fused, count=3).tolist() == [2, 4, 3]
    assert rank.candidates(fused, count=10).tolist() == [2, 4, 3, 0, 5]
    assert rank.candidates(np.zeros(4, dtype=np.float32)).size == 0


def test_the_best_sentence_reorders_pages_of_close_bm25(corpus):
    """Page 9 states the method; another page scores higher on BM25 alone. With the fitted weight of the best
    sentence, page 9 comes first; without it, the BM25 order stands."""
    terms, phrases, routing = _inputs(corpus, QUESTION)
    doc = corpus.doc_position(GUIDE)
    answer, other = corpus.gpage(doc, 9), corpus.gpage(doc, 4)
    bm25 = np.zeros(corpus.pages, dtype=np.float32)
    bm25[other], bm25[answer] = 1.0, 0.8
    parts = {"bm25": bm25}
    sentences = rank.best_sentences(corpus, QUESTION, terms, phrases, routing, [other, answer])
    # the premise of this test: BM25 and the fused score (here the same) favour the other page by 0.2 each
    assert sentences[1] - sentences[0] > 0.2 * (rank.WEIGHTS["bm25"] + rank.WEIGHTS["fused"]) / rank.WEIGHTS["sentence"]
    fitted = rank.rerank(corpus, QUESTION, terms, phrases, routing, parts, bm25,
                         weights=rank.WEIGHTS | {"heading": 0.0})  # (page 9's section title, which favours it too, aside)
    assert fitted[answer] > fitted[other]
    bm25_only = rank.rerank(corpus, QUESTION, terms, phrases, routing, parts, bm25,
                            weights={name: float(name == "bm25") for name in rank.FEATURES})
    assert bm25_only[other] > bm25_only[answer]


def test_a_page_in_the_section_whose_titles_the_question_names_holds_their_share(corpus):
    """The six-tenths method has a section of its own on page 9 ("4 Measuring the Channel" > "4.2 Depth and velocity" >
    "The six-tenths method"): its titles hold every word of the question; a page of another section holds none."""
    terms, _, routing = _inputs(corpus, QUESTION)
    doc = corpus.doc_position(GUIDE)
    shares = rank.section_shares(corpus, terms, routing, [corpus.gpage(doc, 9), corpus.gpage(doc, 4)])
    assert shares.tolist() == pytest.approx([1.0, 0.0])
    assert rank.section_shares(corpus, [], routing, [corpus.gpage(doc, 9)]).tolist() == [0.0]


def test_candidates_score_in_the_model_order_and_above_every_other_page(corpus):
    terms, phrases, routing = _inputs(corpus, QUESTION)
    parts = {"bm25": lexical.routed_scores(corpus, routing, terms)}
    fused = parts["bm25"] / parts["bm25"].max()
    pages = rank.candidates(fused, count=3)  # fewer candidates than positive pages: some pages are left after
    assert (fused > 0).sum() > 3
    values = rank.features(corpus, QUESTION, terms, phrases, routing, parts, pages, fused) @ np.array(
        [rank.WEIGHTS[name] for name in rank.FEATURES])
    scores = rank.rerank(corpus, QUESTION, terms, phrases, routing, parts, fused, count=3)
    order = pages[np.argsort(-values, kind="stable")]
    assert np.argsort(-scores[pages], kind="stable").tolist() == np.argsort(-values, kind="stable").tolist()
    others = np.setdiff1d(np.flatnonzero(fused > 0), pages)
    assert scores[others].max() < scores[pages].min()
    assert scores[order[0]] == scores.max()


def test_vectors_count_as_bm25_and_the_tree_only_picks_candidates(corpus):
    terms, phrases, routing = _inputs(corpus, QUESTION)
    bm25 = lexical.routed_scores(corpus, routing, terms)
    vector = np.roll(bm25, 1)
    pages = rank.candidates(bm25)
    with_vector = rank.features(corpus, QUESTION, terms, phrases, routing, {"bm25": bm25, "vector": vector}, pages,
                                bm25)
    column = rank.FEATURES.index("bm25")
    assert np.allclose(with_vector[:, column], bm25[pages] / bm25.max() + vector[pages] / vector.max())
    # (the tree's part speaks only through the fused score, which picks the candidates)
    with_tree = rank.features(corpus, QUESTION, terms, phrases, routing, {"bm25": bm25, "tree": vector}, pages, bm25)
    alone = rank.features(corpus, QUESTION, terms, phrases, routing, {"bm25": bm25}, pages, bm25)
    assert np.array_equal(with_tree, alone)


def test_hybrid_search_is_the_reranked_fused_score(corpus):
    retriever = Retriever(corpus)
    found = retriever.search(QUESTION, method="hybrid", k=3)
    assert (found.hits[0].doc, found.hits[0].page) == (GUIDE, 9)
    assert found.scores.max() == pytest.approx(found.hits[0].score, abs=1e-4)


def test_after_the_first_pages_a_page_leading_by_one_feature_is_not_buried():
    # columns: bm25, sentence, fused, heading (rank.FEATURES); candidate 4 has the best sentence but the weakest BM25
    table = np.array([[1.0, 0.5, 1.0, 0.0], [0.9, 0.5, 0.9, 0.0], [0.8, 0.5, 0.8, 0.0], [0.7, 0.45, 0.7, 0.0],
                      [0.1, 0.75, 0.1, 0.0], [0.6, 0.4, 0.6, 0.0]])
    values = table @ np.array([rank.WEIGHTS[name] for name in rank.FEATURES])
    fused = table[:, 0].copy()
    assert np.argsort(-values, kind="stable").tolist() == [0, 1, 2, 3, 5, 4]  # the model alone puts it last
    out = rank.fused_tail(values, table, fused, head=3)
    assert np.argsort(-out, kind="stable").tolist()[:3] == [0, 1, 2]  # the first pages stay the model's
    assert np.argsort(-out, kind="stable").tolist()[3] == 4
    assert sorted(out.tolist()) == sorted(values.tolist())  # the same values, given out in another order
    assert np.array_equal(rank.fused_tail(values, table, fused, head=len(values)), values)


def test_a_page_of_endnotes_ranks_by_its_notes_at_half_unless_the_question_asks_for_sources(corpus_workspace):
    """The Open Data paper's endnotes (p. 30) cite the Joint Regulatory Oversight Committee's report by its title;
    p. 27 sets out what the committee found. A note counts half as a page's best sentence (as in the answer), so
    a question about the findings puts p. 27 first and the endnotes below it; one asking for the source puts them
    first."""
    corpus = load_corpus(Workspace(corpus_workspace))
    doc = corpus.doc_position("gx-iif-open-data.pdf")
    body, notes = corpus.gpage(doc, 27), corpus.gpage(doc, 30)
    retriever = Retriever(corpus)

    def scores(question):
        terms, phrases, routing = _inputs(corpus, question)
        return rank.best_sentences(corpus, question, terms, phrases, routing, [body, notes])

    findings = "What gaps in Open Banking did the Joint Regulatory Oversight Committee identify?"
    source = "Which source does the paper cite for the Joint Regulatory Oversight Committee's report?"
    plain, asked = scores(findings), scores(source)
    assert plain[0] > 2 * plain[1] and asked[1] > asked[0]
    for question, page in ((findings, 27), (source, 30)):
        first = retriever.search(question, k=5).hits[0]
        assert (first.doc, first.page) == ("gx-iif-open-data.pdf", page)


def test_an_index_or_contents_page_reads_as_one_and_prose_or_tables_do_not():
    index = ("Index\n\nMAXACTION exceeded, 72 MAXNESTING exceeded, 72 kernel information packages, 3 kernel modules "
             "from SystemTap scripts, building, 5 kernel version, determining the, 4 key pairs introduction arrays, 26 "
             "libdwfl failure parse/semantics error, 71 limitations of SystemTap Introduction, 1 local variables "
             "name, 19 sample usage $count, 50 $return, 47, 51 aggregation overflow, 72 copy fault, 72")
    prose = ("The default nesting of function calls allowed is 10, and the number of actions allowed in a probe "
             "handler is 1000; both limits can be raised at compile time, as section 6.2 explains in detail for "
             "each of the runtime errors, 71 of which the guide lists with the options that change them.")
    table = "| Year | Revenue | Cost |\n| --- | --- | --- |\n" + "\n".join(
        f"| {2000 + k} | 1,{k}34 | 2,{k}45 |" for k in range(10))
    assert rank.reads_as_index(index)
    texinfo = "D.3 Parameter and Variable Index\n\n" + "\n".join(
        f"BASH_VAR_{k} . . . . . . . . . . . . . . . . . . . . . . . . {20 + k}" for k in range(30))
    contents = "Contents\n\n" + "\n".join(
        f"{k}.{j} Section title number {k} {j} . . . . . . . . {3 * k + j}" for k in range(1, 5) for j in range(1, 4))
    assert rank.reads_as_index(texinfo) and rank.reads_as_index(contents)  # (entries after dot leaders)
    assert not rank.reads_as_index(prose) and not rank.reads_as_index(table)
    assert not rank.reads_as_index("Index, 72 and 5, 3")  # (too short to tell)
