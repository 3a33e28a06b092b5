"""Gemini extractors against the fake: structured output, the offline parsers and checks, the fallbacks."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from engine.extract import landscape
from engine.extract.deck_llm import analyse_deck
from engine.extract.metadata import extract_metadata
from engine.extract.metadata_llm import LlmMetadata, extract_metadata_llm, iso_date
from engine.extract.toc_create import headings_from_markdown
from engine.extract.toc_llm import LINE_BUDGET, extract_toc_llm
from engine.llm.clients import LlmClients
from engine.llm.usage import Usage
from engine.markdown import split_pages
from engine.pdf import inspect_pdf, open_document, page_texts
from engine.readers.offline import OfflineReader
from engine.reformat import normalize_document
from engine.schemas import Provenance
from engine.structure import build_tree, tree_pages
from tests.fakes import gemini as g

SAMPLES = Path(__file__).resolve().parents[2] / "data" / "samples"
GUIDE, DECK = SAMPLES / "pdfrag-field-guide.pdf", SAMPLES / "pdfrag-product-deck.pdf"


def run(settings, work):
    usage = Usage()
    return LlmClients(settings).run(work, usage), usage


@cache
def reformatted(path: Path) -> str:
    raw = OfflineReader().read(path).markdown
    fmt = inspect_pdf(path).format
    return normalize_document(raw, doc_format=fmt, fallback_title=path.stem)[0]


def answer(**fields) -> g.Reply:
    return g.text(json.dumps(fields))


# -- metadata --------------------------------------------------------------------------------------


def test_metadata_by_structured_output_checked_field_by_field(fake_gemini, llm_settings):
    fake_gemini.script(answer(title="River Survey Methods", author="", publication_date="2024-13-40",
                              language="English", document_type="Field guide", keywords=["river", "river", "gauge"],
                              themes=[{"name": "Flow measurement", "description": "How flow is measured."}],
                              time_periods=[{"start_date": "2024-01", "end_date": "2024-12-31",
                                             "period_description": "the survey season"}]))
    info, markdown = inspect_pdf(GUIDE), reformatted(GUIDE)
    report, usage = run(llm_settings, lambda s: extract_metadata_llm(s, info, markdown,
                                                                     headings_from_markdown(markdown)))
    meta = report.metadata
    assert usage.calls == 1 and not report.failed
    assert meta.title == "River Survey Methods" and meta.provenance["title"] is Provenance.LLM
    assert meta.author == "pdfrag Documentation Team" and meta.provenance["author"] is not Provenance.LLM
    assert meta.document_type == "field guide" and meta.keywords == ["river", "gauge"]
    assert meta.language == "en" and meta.provenance["language"] is Provenance.HEURISTIC  # "English" rejected
    assert meta.time_periods[0].start_date == "2024-01-01" and meta.provenance["time_periods"] is Provenance.LLM
    assert "publication_date '2024-13-40'" in report.warnings[0] and "language 'English'" in report.warnings[0]
    schema = g.response_schema(fake_gemini.generate_requests[0])
    assert {"title", "themes", "time_periods", "summary"} <= set(schema["properties"])
    assert "provenance" not in schema["properties"]


def test_metadata_falls_back_to_offline_when_gemini_declines(fake_gemini, llm_settings):
    fake_gemini.script(g.finish("SAFETY"))
    info, markdown = inspect_pdf(GUIDE), reformatted(GUIDE)
    report, _ = run(llm_settings, lambda s: extract_metadata_llm(s, info, markdown, headings_from_markdown(markdown)))
    assert report.failed and "SAFETY" in report.warnings[0]
    assert report.metadata == extract_metadata(info, markdown, headings_from_markdown(markdown))


@pytest.mark.parametrize("stamp, shown", [("D:20240301120000Z", True), ("D:19800101000000Z", False)])
def test_the_model_sees_a_real_creation_date_not_a_builds_placeholder(fake_gemini, llm_settings, stamp, shown):
    fake_gemini.script(answer(title="River Survey Methods"))
    info, markdown = inspect_pdf(GUIDE), reformatted(GUIDE)
    info = info.model_copy(update={"docinfo": {**info.docinfo, "creationDate": stamp}})
    run(llm_settings, lambda s: extract_metadata_llm(s, info, markdown, headings_from_markdown(markdown)))
    request = fake_gemini.generate_requests[0]
    sent = "\n".join([*g.request_texts(request), g.system_text(request)])
    assert (f"creationDate: {stamp}" in sent) is shown


def test_iso_dates():
    assert iso_date("2024") == "2024-01-01" and iso_date("2024-02-29") == "2024-02-29"
    assert iso_date("2023-02-29") is None and iso_date("March 2024") is None


def test_llm_schemas_send_no_additional_properties():
    assert "additionalProperties" not in LlmMetadata.model_json_schema()


# -- contents page ---------------------------------------------------------------------------------


@cache
def toc_inputs(path: Path):
    with open_document(path) as doc:
        first = page_texts(doc, 10)
    info = inspect_pdf(path)
    return first, OfflineReader().read(path).markdown, info.page_labels, info.outline


def test_contents_copied_by_gemini_parsed_and_mapped_offline(fake_gemini, llm_settings):
    first, raw, labels, outline = toc_inputs(GUIDE)
    contents = "\n".join(["1 Introduction .... 1", "  1.1 Why survey small rivers .... 1", "2 Planning a Survey .... 2",
                          "  2.1 Defining the question .... 2", "3 Equipment .... 3"])
    fake_gemini.script(answer(contents_pages=[2], contents=contents))
    report, _ = run(llm_settings, lambda s: extract_toc_llm(s, first, raw, labels, outline))
    toc = report.toc
    assert report.warnings == [] and toc.contents_pages == [2]
    assert [(e.title, e.level) for e in toc.contents[:2]] == [("1 Introduction", 1), ("1.1 Why survey small rivers", 2)]
    assert toc.contents[0].page == 3  # printed page 1 is physical page 3, as the offline mapping finds
    sent = g.request_texts(fake_gemini.generate_requests[0])[-1]
    assert sent.startswith("=== page 1 ===") and "=== page 10 ===" in sent and "=== page 11 ===" not in sent


@pytest.mark.parametrize("none", ["<none>", "  <NONE> ", ""])
def test_none_is_normalised_to_an_empty_contents(fake_gemini, llm_settings, none):
    first, raw, labels, outline = toc_inputs(GUIDE)
    fake_gemini.script(answer(contents_pages=[], contents=none))
    report, _ = run(llm_settings, lambda s: extract_toc_llm(s, first, raw, labels, outline))
    assert report.toc.contents == [] and report.toc.contents_pages == [] and report.warnings == []


def test_unparseable_contents_fall_back_to_the_offline_extraction(fake_gemini, llm_settings):
    first, raw, labels, outline = toc_inputs(GUIDE)
    fake_gemini.script(answer(contents_pages=[2], contents="It is a lovely guide."))
    report, _ = run(llm_settings, lambda s: extract_toc_llm(s, first, raw, labels, outline))
    assert "did not parse" in report.warnings[0] and report.toc.contents_pages == [2]
    assert len(report.toc.contents) > 10


def test_without_markers_a_line_budget_is_sent(fake_gemini, llm_settings):
    raw = "\n".join(f"line {n}" for n in range(5000))
    fake_gemini.script(answer(contents_pages=[], contents="<none>"))
    run(llm_settings, lambda s: extract_toc_llm(s, [], raw, [], []))
    sent = g.request_texts(fake_gemini.generate_requests[0])[-1]
    assert sent.count("\n") == LINE_BUDGET and "line 4999" not in sent


# -- decks -----------------------------------------------------------------------------------------

TITLES = ["Riverline", "Agenda", "Why Riverline", "4.5 hours saved", "How it works", "How it works",
          "Customer stories (1 of 3)", "Customer stories (2 of 3)", "Customer stories (3 of 3)", "Plans and pricing",
          "Getting started", ""]


def titles_answer() -> g.Reply:
    listed = [{"page": n, "title": t} for n, t in enumerate(TITLES, start=1)]
    return answer(titles=listed + [{"page": 40, "title": "out of range"}])


GOOD = [("Opening", 1), ("Why Riverline", 3), ("How it works", 5), ("Customer stories", 7), ("Plans", 10),
        ("Getting started", 11)]


def sections(pairs) -> g.Reply:
    return answer(sections=[{"title": t, "first_page": p} for t, p in pairs])


def deck_tree(report, pages: int = 12):
    structure = landscape.deck_structure(report.sections, report.titles)
    return build_tree(structure, kind="deck", pages=pages, doc_title="Riverline")


def test_deck_titles_and_sections_after_one_rejected_draft(fake_gemini, llm_settings):
    markdown = reformatted(DECK)
    fake_gemini.script(titles_answer())
    fake_gemini.script(sections([("Opening", 1), ("How it works", 3), ("How it works", 5)]), sections(GOOD))
    report, usage = run(llm_settings, lambda s: analyse_deck(s, markdown))
    assert usage.calls == 3 and report.fallbacks == 1  # slide 12 has no title from the model: kept the page's
    assert report.titles[3] == "4.5 hours saved" and report.titles[11] == landscape.slide_titles(markdown)[11]
    assert [(s.title, s.pages[0]) for s in report.sections] == GOOD
    assert "duplicate section titles ['How it works']" in report.warnings[-1]
    retry = g.request_texts(fake_gemini.generate_requests[2])[0]
    assert "rejected: duplicate section titles" in retry
    tree = deck_tree(report)
    pages = [n.number for n in tree.root.walk() if n.kind == "page"]
    assert sorted(pages) == list(range(1, 13)) and tree.warnings == []


def test_deck_sections_fall_back_after_two_bad_drafts(fake_gemini, llm_settings):
    markdown = reformatted(DECK)
    fake_gemini.script(titles_answer())
    fake_gemini.script(sections([("A", 1), ("B", 6), ("C", 4)]), sections([("A", 2), ("B", 6)]))
    report, usage = run(llm_settings, lambda s: analyse_deck(s, markdown))
    assert usage.calls == 3 and "grouped by agenda and title instead" in report.warnings[-1]
    offline = landscape.group_sections(report.titles, landscape.find_agenda(markdown, report.titles))
    assert report.sections == offline
    assert tree_pages(deck_tree(report)) == set(range(1, 13))
