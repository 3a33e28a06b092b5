"""The structure bar: recovered headings vs the authors' outlines, on PDFs with the outline removed."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

from engine.markdown import iter_headings, page_of_lines
from engine.readers.offline import OfflineReader
from engine.reformat import normalize_document

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
NO_OUTLINE = SHARED / "corpus_no_outline"
EVAL = SHARED / "eval"

pytestmark = [
    pytest.mark.corpus, pytest.mark.slow,
    pytest.mark.skipif(not (EVAL / "score_structure.py").exists(), reason="../shared/eval is absent"),
]


def _scorer():
    spec = importlib.util.spec_from_file_location("score_structure", EVAL / "score_structure.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["score_structure"] = module  # its dataclasses need their module registered
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def scores():
    scorer = _scorer()
    results = {}
    for gt_path in sorted((EVAL / "structure_gt").glob("*.json")):
        pdf = NO_OUTLINE / f"{gt_path.stem}.pdf"
        raw = OfflineReader().read(pdf)
        md, _ = normalize_document(raw.markdown, doc_format="portrait", fallback_title=pdf.stem)
        # every word of the raw transcription survives the normaliser
        assert not Counter(re.findall(r"\w+", raw.markdown)) - Counter(re.findall(r"\w+", md))
        pages = page_of_lines(md)
        pred = [scorer.Entry(h.title, h.level, pages[h.line]) for h in iter_headings(md)]
        gt = scorer.load_entries(gt_path)
        results[pdf.name] = scorer.score(gt, pred)
    print("\n" + json.dumps({k: {m: v[m] for m in ("recall", "precision", "nesting")} for k, v in results.items()}))
    return results


def test_mean_recall_at_least_090(scores):
    assert len(scores) == 5
    assert sum(s["recall"] for s in scores.values()) / len(scores) >= 0.90


def test_mean_nesting_at_least_095(scores):
    assert sum(s["nesting"] for s in scores.values()) / len(scores) >= 0.95


def test_every_document_recovers_most_of_its_outline(scores):
    assert min(s["recall"] for s in scores.values()) >= 0.75
