"""Regression floors on the held-out questions (tests/corpus/qa_heldout.jsonl) over ../shared/corpus, offline.

These are the levels measured when the file was written, less a small margin: they catch a change that
helps the dev set at the expense of new questions. The issue's bars are checked on the dev set
(test_ask_bars.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from engine.evaluate import run_eval

QA = Path(__file__).resolve().parent / "qa_heldout.jsonl"

pytestmark = [pytest.mark.corpus]


@pytest.fixture(scope="module")
def hybrid(corpus_workspace, tmp_path_factory):
    root = tmp_path_factory.mktemp("heldout") / "ws"
    shutil.copytree(corpus_workspace, root, ignore=shutil.ignore_patterns("index"))
    report = run_eval(root, QA, ["hybrid"], k=5).methods[0]
    print("\n" + json.dumps({k: v for k, v in report.model_dump().items() if k != "results"}, indent=1))
    return report


def test_retrieval_floor(hybrid):
    assert hybrid.recall_at_1 >= 0.70
    assert hybrid.recall_at_k >= 0.90
    assert hybrid.mrr >= 0.78


def test_answer_floor(hybrid):
    assert hybrid.key_fact_recall >= 0.57  # in the concise answer (0.601-0.609 measured)
    assert hybrid.unanswerable_handled >= 0.5  # 12/21 with the general evidence test (19/21 under rules tuned here)
    assert hybrid.answerable_covered >= 0.95
    assert hybrid.multi_doc_cite_all >= 0.75
    assert hybrid.quotes_on_page == 1.0
    assert hybrid.boxes_cover_quote >= 0.95  # 0.985-0.995 measured
    assert hybrid.answer_chars_p50 <= 900  # the bar; 763-777 measured (answers use the room: lists, counts, rows)
