"""`pdfrag ask` and `pdfrag eval`: the JSON contract, text output, documents, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main

ASK_KEYS = {"answer", "citations", "passages", "retrieved", "trace"}
GUIDE, DECK = "pdfrag-field-guide.pdf", "pdfrag-product-deck.pdf"


def run(capsys, *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_ask_json_has_exactly_the_contract_keys(capsys, samples_workspace):
    code, out, _ = run(capsys, "ask", "How many volunteer surveyors does the Upper Vale Catchment Trust have?",
                       "--data-dir", samples_workspace, "--json")
    assert code == 0
    payload = json.loads(out)
    assert set(payload) == ASK_KEYS
    assert all(set(c) == {"doc", "page", "quote", "boxes"} for c in payload["citations"])  # DESIGN.md's citation
    assert all(c["boxes"] and all(len(b) == 4 and b[0] < b[2] and b[1] < b[3] for b in c["boxes"])
               for c in payload["citations"])
    assert all(set(r) == {"doc", "page", "score"} for r in payload["retrieved"])
    assert payload["retrieved"][0] == {**payload["retrieved"][0], "doc": DECK, "page": 7}
    assert len(payload["retrieved"]) == 5
    assert "42 volunteer surveyors" in payload["answer"]
    assert all({"kind", "detail"} <= set(step) for step in payload["trace"])


def test_ask_text_lists_sources(capsys, samples_workspace):
    code, out, _ = run(capsys, "--data-dir", samples_workspace, "ask", "What should a crew do if the water rises?",
                       "--k", "3", "--method", "bm25")
    assert code == 0
    assert "Sources:" in out and f"[{GUIDE}, p. 7]" in out


def test_ask_not_covered_has_no_citations(capsys, samples_workspace):
    code, out, _ = run(capsys, "ask", "What GPU does Riverline require?", "--data-dir", samples_workspace, "--json")
    payload = json.loads(out)
    assert code == 0 and payload["citations"] == []
    assert payload["answer"].startswith("The corpus does not cover this question")


def test_ask_doc_filter_and_unknown_doc(capsys, samples_workspace):
    code, out, _ = run(capsys, "ask", "six-tenths reading", "--doc", DECK, "--data-dir", samples_workspace, "--json")
    assert code == 0 and {r["doc"] for r in json.loads(out)["retrieved"]} == {DECK}
    code, out, err = run(capsys, "ask", "six-tenths", "--doc", "nope.pdf", "--data-dir", samples_workspace)
    assert code == 2 and out == "" and "unknown document" in err


def test_ask_usage_errors(capsys, samples_workspace, tmp_path):
    assert run(capsys, "ask", "x", "--method", "magic", "--data-dir", samples_workspace)[0] == 2
    code, _, err = run(capsys, "ask", "x", "--method", "vector", "--data-dir", samples_workspace)
    assert code == 2 and "embedding provider" in err
    code, _, err = run(capsys, "ask", "anything", "--data-dir", tmp_path / "empty")
    assert code == 1 and "run pdfrag ingest" in err


@pytest.fixture
def qa_file(tmp_path) -> Path:
    items = [
        {"id": "s1", "question": "How many verticals should be used across the channel?",
         "gold_pages": {GUIDE: [9]}, "key_facts": ["fifteen verticals"], "answerable": True, "type": "fact"},
        {"id": "s2", "question": "How much archive storage does the Team plan include?",
         "gold_pages": {DECK: [10]}, "key_facts": ["200 GB"], "answerable": True, "type": "fact"},
        {"id": "s3", "question": "Compare how the field guide and the Riverline deck treat the six-tenths reading.",
         "gold_pages": {GUIDE: [9], DECK: [8]}, "key_facts": ["six-tenths"], "answerable": True, "type": "multi_doc"},
        {"id": "s4", "question": "What GPU does Riverline require?", "gold_pages": {}, "key_facts": [],
         "answerable": False, "type": "unanswerable", "doc": None},
    ]
    path = tmp_path / "qa.jsonl"
    path.write_text("\n".join(json.dumps(item) for item in items) + "\n", encoding="utf-8")
    return path


def test_eval_json_is_one_object_with_every_method(capsys, samples_workspace, qa_file):
    code, out, _ = run(capsys, "eval", qa_file, "--data-dir", samples_workspace, "--json",
                       "--method", "bm25", "--method", "hybrid", "--method", "vector")
    assert code == 0
    payload = json.loads(out)
    assert payload["k"] == 5 and payload["questions"] == 4
    assert set(payload["methods"]) == {"bm25", "hybrid", "vector"}
    bm25 = payload["methods"]["bm25"]
    assert bm25["recall_at_1"] == 1.0 and bm25["mrr"] == 1.0 and bm25["routing_accuracy"] == 1.0
    assert bm25["unanswerable_handled"] == 1.0 and bm25["multi_doc_cite_all"] == 1.0
    assert bm25["quotes_on_page"] == 1.0 and bm25["key_fact_recall"] >= 2 / 3
    assert payload["methods"]["vector"]["available"] is False


def test_eval_table_shows_methods_side_by_side(capsys, samples_workspace, qa_file):
    code, out, _ = run(capsys, "--data-dir", samples_workspace, "eval", qa_file, "--k", "3")
    assert code == 0
    head = out.splitlines()[0]
    assert head.split()[-2:] == ["bm25", "hybrid"]
    assert any(line.startswith("recall@3") for line in out.splitlines())


def test_eval_details_list_each_question(capsys, samples_workspace, qa_file, tmp_path):
    code, out, _ = run(capsys, "eval", qa_file, "--data-dir", samples_workspace, "--json", "--details",
                       "--method", "bm25")
    results = json.loads(out)["methods"]["bm25"]["results"]
    assert code == 0 and [r["id"] for r in results] == ["s1", "s2", "s3", "s4"]
    assert [r["answerable"] for r in results] == [True, True, True, False] and results[0]["rank"] == 1
    # each question's answer as `ask` gives it, and its cited pages: what a change to the answers moved
    assert "fifteen verticals" in results[0]["answer"] and [GUIDE, 9] in results[0]["cited_pages"]
    assert results[3]["answer"].startswith("The corpus does not cover this question") and not results[3]["cited_pages"]
    # a question whose gold page is wrong on purpose shows up among those that fell short
    wrong = tmp_path / "wrong.jsonl"
    wrong.write_text(json.dumps({"id": "w1", "question": "How many verticals should be used across the channel?",
                                 "gold_pages": {GUIDE: [2]}, "key_facts": ["no such fact"]}) + "\n", encoding="utf-8")
    code, out, _ = run(capsys, "eval", wrong, "--data-dir", samples_workspace, "--details", "--method", "bm25")
    assert code == 0 and "bm25: 1 of 1 questions fell short" in out
    assert "w1: gold page" in out and "key facts 0/1" in out


def test_eval_usage_errors(capsys, samples_workspace, tmp_path):
    assert run(capsys, "eval", tmp_path / "missing.jsonl", "--data-dir", samples_workspace)[0] == 2
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"question": "no id"}\n', encoding="utf-8")
    code, _, err = run(capsys, "eval", bad, "--data-dir", samples_workspace)
    assert code == 2 and "bad.jsonl:1" in err


def test_ingest_brings_the_index_up_to_date(capsys, make_pdf, tmp_path):
    data, pdf = tmp_path / "ws", make_pdf("a.pdf", pages=2)
    code, _, err = run(capsys, "ingest", pdf, "--data-dir", data, "--workers", "1")
    assert code == 0 and "index: 1 document(s) indexed" in err
    assert len(list((data / "index" / "docs").glob("*.npz"))) == 1
    code, _, err = run(capsys, "ingest", pdf, "--data-dir", data, "--workers", "1")
    assert code == 0 and "index:" not in err
