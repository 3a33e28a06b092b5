"""Floors on the fresh questions (tests/corpus/qa_fresh.jsonl, written blind after the held-out set) over
../shared/corpus, offline: the levels measured when they were first run, less a margin (see qa_heldout.md)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from engine.agent import ask
from engine.evaluate import run_eval

QA = Path(__file__).resolve().parent / "qa_fresh.jsonl"

pytestmark = [pytest.mark.corpus]


@pytest.fixture(scope="module")
def workspace(corpus_workspace, tmp_path_factory):
    root = tmp_path_factory.mktemp("fresh") / "ws"
    shutil.copytree(corpus_workspace, root, ignore=shutil.ignore_patterns("index"))
    return root


@pytest.fixture(scope="module")
def hybrid(workspace):
    report = run_eval(workspace, QA, ["hybrid"], k=5).methods[0]
    print("\n" + json.dumps({k: v for k, v in report.model_dump().items() if k != "results"}, indent=1))
    return report


def test_fresh_floors(hybrid):
    assert hybrid.recall_at_1 >= 0.74 and hybrid.mrr >= 0.82
    assert hybrid.key_fact_recall >= 0.70
    assert hybrid.answerable_covered >= 0.95
    assert hybrid.quotes_on_page == 1.0


def test_a_comparison_cites_a_document_that_answers_only_its_part(workspace):
    answer = ask(workspace, "The Federal Reserve's 2023 annual report and Deloitte's 'Pushing through undercurrents' "
                            "banking brief both deal with banks' reliance on outside technology partners. What guidance "
                            "did the Fed and other agencies issue in 2023, and what does Deloitte recommend for vetting "
                            "Banking-as-a-Service partners?")
    assert {c.doc for c in answer.citations} == {"2023-annual-report.pdf", "deloitte-tech-risk-sector-banking.pdf"}
