"""The answering bars on ../shared/eval/qa_dev.jsonl over ../shared/corpus (offline)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from engine.evaluate import run_eval

QA = Path(__file__).resolve().parents[2].parent / "shared" / "eval" / "qa_dev.jsonl"

pytestmark = [pytest.mark.corpus, pytest.mark.skipif(not QA.is_file(), reason="../shared/eval is absent")]


@pytest.fixture(scope="module")
def report(corpus_workspace, tmp_path_factory):
    root = tmp_path_factory.mktemp("ask-bars") / "ws"
    shutil.copytree(corpus_workspace, root, ignore=shutil.ignore_patterns("index"))
    result = run_eval(root, QA, ["bm25", "hybrid"], k=5)
    print("\n" + json.dumps({m.method: {k: v for k, v in m.model_dump().items() if k != "results"}
                             for m in result.methods}, indent=1))
    return {m.method: m for m in result.methods}


def test_best_method_retrieval_bars(report):
    best = report["hybrid"]
    # This is the set the old index and reranker were tuned on (0.867 / 0.918 at c705ae3). Since then the reader's
    # heading and sentence changes and the cross-validated page ranking (engine/index/rank.py, fitted on the four
    # original sets) cost it 4 of 30 at rank 1 (0.733 / 0.839 at 09e8f5c) while the pooled blind sets rose
    # (r@1 0.744 -> 0.754, MRR 0.821 -> 0.829; README, Evaluation): floors a little under today's dev numbers.
    assert best.recall_at_1 >= 0.70
    assert best.recall_at_k >= 0.96  # 29/30 (0.967) since passages come from the blocks (30/30 before); pooled
    # over the blind sets recall@5 is unchanged (README, Evaluation)
    assert best.mrr >= 0.80


def test_every_method_beats_whole_page_bm25(report):
    # naive BM25 over whole pages on this set: recall@1 0.50, recall@5 0.87, MRR 0.63
    for method in report.values():
        assert method.recall_at_1 > 0.50 and method.mrr > 0.63, method.method


def test_routing_and_multi_document_answers(report):
    best = report["hybrid"]
    assert best.routing_accuracy >= 0.95
    assert best.multi_doc_cite_all == 1.0  # a comparison cites every document it names


def test_every_quote_occurs_on_its_page(report):
    for method in report.values():
        assert method.quotes_on_page == 1.0, method.method


def test_answer_latency(report):
    assert report["hybrid"].latency_p50_ms <= 300


def test_key_facts_and_unanswerables_do_not_regress(report):
    best = report["hybrid"]
    assert best.key_fact_recall >= 0.60  # in the concise answer (0.67 measured at dee292a); the passages hold 0.72
    assert best.unanswerable_handled >= 0.6
    assert best.answerable_covered >= 0.95


@pytest.mark.xfail(strict=True, reason="the concise answer (at most 8 sentences, p50 ~775 characters) holds 0.70 of the "
                   "key facts here (0.49-0.73 on the eight sets), its passages 0.72; the 1,700-character answers it "
                   "replaced held 0.81")
def test_key_fact_bar(report):
    assert report["hybrid"].key_fact_recall >= 0.8


@pytest.mark.xfail(strict=True, reason="the general evidence test (engine/agent/support.py) refuses 2 of the 3 "
                   "unanswerable questions here (22 of the 36 of all four sets); the per-question rules it replaced "
                   "refused all three")
def test_unanswerable_bar(report):
    assert report["hybrid"].unanswerable_handled >= 0.9


def test_answers_are_concise(report):  # the bar: answer p50 <= 900 characters (the longer context is in `passages`)
    for method in report.values():
        assert 0 < method.answer_chars_p50 <= 900, method.method


def test_citation_boxes_bar(report):  # the bar: for >= 90% of citations the boxes enclose >= 60% of the quote's words
    for method in report.values():
        assert method.boxes_cover_quote >= 0.9 and method.box_precision >= 0.9, method.method
