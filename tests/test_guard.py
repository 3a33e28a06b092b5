"""The deterministic guard: token recall and precision, page-marker repair."""

from __future__ import annotations

from engine.guard import content_tokens, repair_markers, token_precision, token_recall


def test_recall_ignores_heading_marks_and_markers():
    raw = "Results\n\nWe found 3 fish.\n\n--- end page 4"
    assert token_recall(raw, "## Results\n\nWe found 3 fish.\n\n--- end page 4") == 1.0
    assert token_recall(raw, "## Results\n\n--- end page 4") == 0.2  # 1 of 5 words
    assert "4" not in content_tokens(raw) and content_tokens(raw)["we"] == 1
    assert token_recall("", "anything") == 1.0


def test_precision_drops_when_words_are_invented():
    assert token_precision("a b c d", "a b c d") == 1.0
    assert token_precision("a b", "a b c d") == 0.5


def test_markers_repaired_and_every_repair_recorded():
    text = "\n".join(["Slide A", "--- end page 3", "Slide B", "end of page 4", "--- end page 3", "--- end page 99",
                      "Slide C", "--- end page 5", "trailing words"])
    fixed = repair_markers(text, [3, 4, 5])
    assert fixed.complete
    assert fixed.text.split("\n") == ["Slide A", "--- end page 3", "Slide B", "--- end page 4", "Slide C",
                                      "trailing words", "--- end page 5"]
    assert len(fixed.repairs) == 4
    assert any("invented" in r and "99" in r for r in fixed.repairs)
    assert any("out-of-order" in r for r in fixed.repairs)


def test_a_missing_marker_cannot_be_repaired():
    fixed = repair_markers("A\n--- end page 1\nB\nC\n--- end page 3", [1, 2, 3])
    assert not fixed.complete and "missing markers for pages [2]" in fixed.repairs[-1]


def test_clean_markers_need_no_repair():
    fixed = repair_markers("# A\n\n--- end page 1\n\nB\n\n--- end page 2", [1, 2])
    assert fixed.complete and fixed.repairs == [] and fixed.text.endswith("--- end page 2")


def test_recall_ignores_emphasis_underscores_and_spelled_out_ligatures():
    raw = "The ﬁnal snake_case figure"
    assert token_recall(raw, "The _final_ snake_case **figure**") == 1.0
    assert token_recall(raw, "The final figure") == 0.6  # 3 of 5 words: "snake" and "case" are two
