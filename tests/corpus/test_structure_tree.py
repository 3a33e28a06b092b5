"""The structure tree a user sees, on the original PDFs (outlines intact): ../shared/corpus_wide (24 PDFs)
ingested offline and scored like ../shared/eval/score_corpus.py --tree; every page in its tree, records
round-trip. Floors a little under what was measured (docs/structure_eval.md)."""

from __future__ import annotations

import importlib.util
import json
import statistics
import sys
from pathlib import Path

import pytest

from engine.pipeline import Pipeline
from engine.schemas import DocumentRecord
from engine.structure import tree_pages
from engine.workspace import Workspace

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
WIDE = SHARED / "corpus_wide"
EVAL = SHARED / "eval"

pytestmark = [
    pytest.mark.corpus, pytest.mark.slow,
    pytest.mark.skipif(not (WIDE / "gt").is_dir() or not (EVAL / "score_corpus.py").is_file(),
                       reason="../shared/corpus_wide or ../shared/eval is absent"),
]


def _module(name: str):
    spec = importlib.util.spec_from_file_location(name, EVAL / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses need their module registered
    spec.loader.exec_module(module)
    return module


def _scores(records: dict[str, DocumentRecord], gt_dir: Path) -> dict[str, dict]:
    """score_corpus.py --tree: the tree's nodes (not pages) in order, depth below the root as level."""
    scorer, corpus = _module("score_structure"), _module("score_corpus")
    scores = {}
    for gt_path in sorted(gt_dir.glob("*.json")):
        gt = json.loads(gt_path.read_text(encoding="utf-8"))
        if gt["pdf"] not in records:
            continue
        tree = records[gt["pdf"]].tree.model_dump(mode="json")
        pred = corpus.tree_entries(tree)
        scores[gt["pdf"]] = scorer.score(scorer.parse_entries(gt["entries"]), scorer.parse_entries(pred))
    print("\n" + json.dumps({k: {m: v[m] for m in ("recall", "precision", "nesting")} for k, v in scores.items()}))
    return scores


def _mean(scores: dict[str, dict], metric: str) -> float:
    return statistics.mean(s[metric] or 0.0 for s in scores.values())


@pytest.fixture(scope="module")
def wide_records(tmp_path_factory) -> dict[str, DocumentRecord]:
    root = tmp_path_factory.mktemp("corpus-wide") / "ws"
    results = Pipeline(root, workers=2).ingest(sorted(WIDE.glob("*.pdf")))
    assert all(r.status.value == "ok" for r in results), [(r.file_name, r.error) for r in results]
    return {r.file_name: r for r in Workspace(root).records()}


@pytest.fixture(scope="module")
def wide_scores(wide_records) -> dict[str, dict]:
    return _scores(wide_records, WIDE / "gt")


def test_every_wide_pdf_is_scored(wide_scores):
    assert len(wide_scores) == len(list((WIDE / "gt").glob("*.json"))) == 24


def test_wide_tree_bars(wide_scores):
    # measured 1.000 / 0.976 / 0.998 (docs/structure_eval.md); the bars are 0.97 / 0.85 / 0.97
    assert _mean(wide_scores, "recall") >= 0.99
    assert _mean(wide_scores, "precision") >= 0.95
    assert _mean(wide_scores, "nesting") >= 0.99


def test_every_wide_tree_follows_its_outline(wide_scores):
    # per file, measured: recall >= 1.000, precision >= 0.935 (the title and a root entry weigh on a short
    # outline), nesting >= 0.971 (an outline that goes back to earlier pages)
    assert min(s["recall"] for s in wide_scores.values()) >= 0.98
    assert min(s["precision"] for s in wide_scores.values()) >= 0.9
    assert min(s["nesting"] for s in wide_scores.values()) >= 0.95


def test_wide_trees_record_their_source(wide_records):
    assert {r.tree.root.source for r in wide_records.values()} == {"outline"}
    for record in wide_records.values():
        headings = [n for n in record.tree.root.walk() if n.kind == "heading"]
        assert sum(n.source == "outline" for n in headings) >= len(headings) - 2, record.file_name


def test_every_page_of_every_wide_pdf_is_in_its_tree(wide_records):
    for record in wide_records.values():
        assert tree_pages(record.tree) == set(range(1, record.pages + 1)), record.file_name


def test_wide_records_round_trip(wide_records):
    for record in wide_records.values():
        assert DocumentRecord.model_validate_json(record.model_dump_json()) == record


def test_corpus_trees_follow_their_outlines(corpus_workspace):
    # the five corpus PDFs with an outline ground truth: measured 1.000 / 0.934 / 1.000
    records = {r.file_name: r for r in Workspace(corpus_workspace).records()}
    scores = _scores(records, EVAL / "structure_gt")
    assert len(scores) == 5
    assert _mean(scores, "recall") >= 0.99 and _mean(scores, "precision") >= 0.9 and _mean(scores, "nesting") >= 0.99
