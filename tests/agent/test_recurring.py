"""Things a document says the same of, each under its own heading, answered by those headings."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.agent import ask
from engine.agent.recurring import asks_which_things
from engine.pipeline import Pipeline
from engine.workspace import Workspace
from tests.conftest import written_pdf

FEATURES = [  # (a feature's heading, its sentences); two of them say the same thing of themselves
    ("Small capitals", ["Turns lower-case letters into small capitals.",
                        "This feature is not available in the online font builder."]),
    ("Open digits", ["Gives the digits open counters for small sizes.",
                     "It was added in the second release of the font."]),
    ("Slashed zero", ["Draws the zero with a slash through it.",
                      "This feature is not available in the online font builder."]),
    ("Tall accents", ["Raises the accents over capitals for display sizes.",
                      "It suits headlines more than running text."]),
]


def chart(path: Path) -> Path:
    """A font's feature chart: a title page, then two features a page, each under a heading of its own."""
    with written_pdf(path) as doc:
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 80), "Font Features of Quillsans", fontsize=18)
        page.insert_text((72, 120), "This chart lists the optional features of the Quillsans typeface.", fontsize=11)
        for n in range(0, len(FEATURES), 2):
            page = doc.new_page(width=595, height=842)
            for k, (heading, sentences) in enumerate(FEATURES[n:n + 2]):
                page.insert_text((72, 90 + 300 * k), heading, fontsize=15)
                for j, sentence in enumerate(sentences):
                    page.insert_text((72, 120 + 300 * k + 16 * j), sentence, fontsize=11)
        doc.set_toc([[1, "Font Features of Quillsans", 1]] + [[2, heading, 2 + n // 2]
                                                                for n, (heading, _) in enumerate(FEATURES)])
    return path


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Workspace:
    root = tmp_path_factory.mktemp("recurring")
    Pipeline(root / "ws", workers=1).ingest([chart(root / "quillsans-features.pdf")])
    return Workspace(root / "ws")


@pytest.mark.parametrize("question", ["Which features are not available in the online font builder?",
                                      "List the Quillsans features not available in the online font builder."])
def test_the_headings_over_the_same_sentence_answer_which_things_are_so(workspace, question):
    answer = ask(workspace, question)
    assert any(step.detail.startswith("asks which things are so") for step in answer.trace)
    assert answer.answer.splitlines() == [
        "- Small capitals: This feature is not available in the online font builder. (p. 2)",
        "- Slashed zero: This feature is not available in the online font builder. (p. 3)"]
    assert [(c.page, "Small capitals" in c.quote or "Slashed zero" in c.quote) for c in answer.citations] == [
        (2, True), (3, True)]


def test_a_sentence_said_under_one_heading_is_answered_as_usual(workspace):
    answer = ask(workspace, "Which features give the digits open counters for small sizes?")
    assert not any(step.detail.startswith("asks which things are so") for step in answer.trace)
    assert "open counters" in answer.answer


@pytest.mark.parametrize(("question", "asks"), [
    ("Which of Andika's features cannot be set through TypeTuner Web?", True),
    ("What options does the converter accept?", True),
    ("List the commands that need root.", True),
    ("Which version does the manual document?", False),
    ("How many features does the font have?", False),
])
def test_questions_asking_which_things_are_so(question, asks):
    assert asks_which_things(question) == asks
