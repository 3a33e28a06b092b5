"""Every corpus document ingests offline, every page sits in its tree, every record survives JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.schemas import DocumentRecord
from engine.structure import tree_pages

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"

pytestmark = [pytest.mark.corpus, pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is absent")]


@pytest.fixture(scope="module")
def records(corpus_workspace):
    ingested = json.loads((corpus_workspace / "ingested.json").read_text(encoding="utf-8"))
    assert all(result["status"] == "ok" for result in ingested), ingested
    return [path.read_text(encoding="utf-8") for path in sorted((corpus_workspace / "documents").glob("*.json"))]


def test_all_documents_ingested(records):
    assert len(records) == len(list(CORPUS.glob("*.pdf")))


def test_every_page_is_in_the_tree(records):
    for text in records:
        record = DocumentRecord.model_validate_json(text)
        assert record.tree is not None, record.file_name
        assert tree_pages(record.tree) == set(range(1, record.pages + 1)), record.file_name


def test_records_round_trip_through_json(records):
    for text in records:
        record = DocumentRecord.model_validate_json(text)
        assert DocumentRecord.model_validate_json(record.model_dump_json()) == record


def test_decks_list_every_page_once(records):
    for text in records:
        record = DocumentRecord.model_validate_json(text)
        if record.format != "landscape":
            continue
        pages = [n.number for n in record.tree.root.walk() if n.kind == "page"]
        assert sorted(pages) == list(range(1, record.pages + 1)), record.file_name
        assert len(record.landscape_pages.splitlines()) == record.pages


def test_dvips_chapter_titles_are_one_heading_each(records):
    # four-lectures.pdf sets chapter titles in a 17 pt Type3 face whose words stand 14 pt apart, on two
    # lines beside the right column's text (the gutter is 10 pt, narrower than a justified word space)
    record = next(r for r in map(DocumentRecord.model_validate_json, records) if r.file_name == "four-lectures.pdf")
    chapters = [h.title for h in record.headings if h.level == 2]
    expected = ["1 ML at a Glance", "2 Programming with ML Modules", "3 The Static Semantics of Modules"]
    assert chapters[:3] == expected, chapters
