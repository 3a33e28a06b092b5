"""Slides built up over several pages: a search lands on the build's last page, where the whole slide is."""

from __future__ import annotations

from pathlib import Path

from engine.index import load_corpus
from engine.index.builds import build_steps
from engine.index.retrieve import Retriever
from engine.pipeline import Pipeline
from engine.workspace import Workspace
from tests.conftest import written_pdf

BULLETS = ["Gauges are read every morning at seven", "Readings go into the shared sheet by noon",
           "Floods are reported to the duty officer at once"]


def built_deck(path: Path) -> Path:
    """A four-slide deck: a title slide, then one slide shown in three steps (one bullet more each, the slide's
    number in its footer), then a closing slide."""
    with written_pdf(path) as doc:
        page = doc.new_page(width=960, height=540)
        page.insert_text((60, 200), "Riverline field routines", fontsize=36)
        for step in range(1, 4):
            page = doc.new_page(width=960, height=540)
            page.insert_text((60, 80), "Daily gauge routine", fontsize=28)
            for k, bullet in enumerate(BULLETS[:step]):
                page.insert_text((80, 160 + 60 * k), f"• {bullet}", fontsize=20)
            page.insert_text((880, 520), f"{step + 1} / 5", fontsize=10)
        page = doc.new_page(width=960, height=540)
        page.insert_text((60, 80), "Questions", fontsize=28)
        page.insert_text((80, 160), "Write to the survey office with anything the routine leaves open", fontsize=20)
    return path


def test_a_search_lands_on_the_last_step_of_a_built_slide(tmp_path):
    Pipeline(tmp_path / "ws", workers=1).ingest([built_deck(tmp_path / "deck.pdf")])
    workspace = Workspace(tmp_path / "ws")
    corpus = load_corpus(workspace)
    steps = build_steps(corpus, 0)
    assert {corpus.page_address(g)[1]: corpus.page_address(f)[1] for g, f in steps.items()} == {2: 4, 3: 4}
    found = Retriever(corpus, workspace=workspace).search("When are gauges read?", method="hybrid", k=5)
    assert found.hits[0].page == 4  # (every step holds the first bullet: the last one shows the whole slide)
    assert {hit.page for hit in found.hits} & {2, 3} == set()
