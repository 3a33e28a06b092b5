"""benchmarks/eval_answers.py --base: which questions a change moved, and what it did to the answers' text."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.eval_answers import answer_changes, by_wording, changes  # noqa: E402


def _write(out: Path, rows: list[dict]) -> Path:
    (out / "q").mkdir(parents=True)
    (out / "q" / "dev.json").write_text(json.dumps({"methods": [{"results": rows}]}))
    return out


def _row(qid: str, answer: str, facts: int = 1, rank: int = 1) -> dict:
    return {"id": qid, "rank": rank, "facts_found": facts, "facts": 2, "covered": True, "answer": answer,
            "answer_chars": len(answer), "cited_pages": [["a.pdf", 3]]}


def test_changes_lists_moved_questions_and_counts_answers_changed_in_text_only(tmp_path):
    base = _write(tmp_path / "base", [_row("q1", "Step 1. 2."), _row("q2", "Same."), _row("q3", "Old.")])
    out = _write(tmp_path / "out", [_row("q1", "Step 1.\n2. Go."), _row("q2", "Same."),
                                    _row("q3", "New.", facts=2, rank=2)])
    assert changes(out, base, ["dev"]) == [
        "dev q3: rank 1->2, key facts 1->2/2, covered True->True",
        "1 other answer(s) changed in text or citations only"]  # q1: its text; q2 is the same
    shown = answer_changes(out, base, ["dev"])
    assert len(shown) == 2 and shown[0].startswith("== dev q1: 10 -> 14 characters")
    assert "-- before\nStep 1. 2.\n-- after\nStep 1.\n2. Go." in shown[0]


def test_by_wording_splits_questions_as_written_from_their_two_rewordings(tmp_path):
    out = _write(tmp_path / "out", [_row("q1", "A."), _row("q1-r1", "B.", rank=2), _row("q1-r2", "C."),
                                    _row("q2-r1", "D.")])
    split = by_wording(out, ["dev"])
    assert {wording: [r["id"] for r in rows] for wording, rows in split.items()} == {
        "as written": ["q1"], "-r1": ["q1-r1", "q2-r1"], "-r2": ["q1-r2"]}
