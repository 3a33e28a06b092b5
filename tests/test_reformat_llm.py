"""LLM reformat against the fake Gemini: windows with the outline so far, the recall guard, marker repair."""

from __future__ import annotations

import re

from engine.llm.clients import LlmClients
from engine.llm.usage import Usage
from engine.markdown import count_markers, iter_headings, join_pages, split_pages
from engine.reformat import normalize_document
from engine.reformat_llm import OUTLINE_HEAD, OUTLINE_TAIL, outline_context, reformat_document, windows
from tests.fakes import gemini as g


def document(pages: int) -> str:
    blocks = ["# Annual Review\n\nOpening words of the review."]
    for n in range(2, pages + 1):
        blocks.append(f"# Chapter {n}\n\n# Detail {n}.1\n\nBody text of page {n}, about rivers and survey number {n}.")
    return join_pages(blocks)


def run(settings, raw: str, doc_format: str = "portrait", **changes):
    usage = Usage()
    clients = LlmClients(settings.model_copy(update=changes))
    report = clients.run(lambda s: reformat_document(s, raw, doc_format=doc_format, title="Annual Review"), usage)
    return report, usage


def demote_details(request):
    """A model that knows `Detail` headings sit under `Chapter` ones."""
    window = g.request_texts(request)[-1]
    return g.text(re.sub(r"^# (Detail)", r"### \1", re.sub(r"^# (Chapter)", r"## \1", window, flags=re.M), flags=re.M))


def test_windows_in_order_with_the_outline_so_far(fake_gemini, llm_settings):
    fake_gemini.responder = demote_details
    raw = document(10)
    report, usage = run(llm_settings, raw, reformat_window_pages=4)
    assert report.windows == 3 and usage.calls == 3 and report.fallbacks == 0
    levels = {h.title: h.level for h in iter_headings(report.markdown)}
    assert levels["Annual Review"] == 1 and levels["Chapter 7"] == 2 and levels["Detail 7.1"] == 3
    assert count_markers(report.markdown) == 10
    third = fake_gemini.generate_requests[2]
    context = g.request_texts(third)[0]
    assert "pages 9 to 10" in context and "### Detail 8.1" in context
    assert "--- end page 9" in g.request_texts(third)[-1] and "one level-1 heading" in g.system_text(third)


def test_faithful_echo_equals_the_offline_normaliser(fake_gemini, llm_settings):
    raw = document(7)
    report, _ = run(llm_settings, raw)
    assert report.markdown == normalize_document(raw, doc_format="portrait", fallback_title="Annual Review")[0]


def test_a_window_that_drops_content_falls_back(fake_gemini, llm_settings):
    def lossy(request):
        window = g.request_texts(request)[-1]
        if "page 6" in window:
            window = re.sub(r"Body text of page 6.*", "", window)
        return g.text(window)

    fake_gemini.responder = lossy
    report, usage = run(llm_settings, document(8), reformat_window_pages=4)
    assert report.fallbacks == 1
    assert any(w.startswith("reformat pages 5-8: content recall") for w in report.warnings)
    assert "Body text of page 6" in report.markdown


def test_failures_fall_back_per_window(fake_gemini, llm_settings):
    fake_gemini.script(g.finish("SAFETY"))
    fake_gemini.script(*[g.error(500)] * 2)
    report, usage = run(llm_settings, document(12), reformat_window_pages=4, max_attempts=2)
    assert report.fallbacks == 2 and usage.retries == 1 and usage.calls == 4
    assert count_markers(report.markdown) == 12


def test_deck_markers_repaired_and_recorded(fake_gemini, llm_settings):
    deck = join_pages([f"Slide title {n}\n\nPoint {n}" for n in range(1, 5)])

    def sloppy(request):
        window = g.request_texts(request)[-1]
        window = window.replace("--- end page 2", "--- end page 2\n--- end page 2\n--- end page 17")
        return g.text("```markdown\n" + window.replace("--- end page 3", "End of page 3") + "\n```")

    fake_gemini.responder = sloppy
    report, _ = run(llm_settings, deck, "landscape")
    assert report.fallbacks == 0 and count_markers(report.markdown) == 4
    assert [int(m) for m in re.findall(r"^--- end page (\d+)$", report.markdown, re.M)] == [1, 2, 3, 4]
    repairs = " | ".join(report.warnings)
    assert "duplicate marker for page 2" in repairs and "invented marker for page 17" in repairs
    assert "normalised the marker of page 3" in repairs


def test_a_deck_window_missing_a_marker_keeps_its_text(fake_gemini, llm_settings):
    deck = join_pages([f"Slide title {n}\n\nPoint {n}" for n in range(1, 5)])
    fake_gemini.responder = lambda r: g.text(g.request_texts(r)[-1].replace("--- end page 2", ""))
    report, _ = run(llm_settings, deck, "landscape")
    assert report.fallbacks == 1 and count_markers(report.markdown) == 4
    assert split_pages(report.markdown)[1].endswith("Point 2")


def test_outline_context_is_bounded():
    outline = [(1, "Title")] + [(2 + (i % 3), f"H{i}") for i in range(500)]
    lines = outline_context(outline)
    assert len(lines) <= OUTLINE_HEAD + OUTLINE_TAIL + 10
    assert lines[0] == "# Title" and lines[-1] == "### H499" and "..." in lines


def test_windows_close_on_pages_or_size():
    assert windows(["a"] * 7, 3) == [[1, 2, 3], [4, 5, 6], [7]]
    assert windows(["x" * 10, "x" * 10, "x" * 10], 5, max_chars=15) == [[1], [2], [3]]


def test_input_tokens_per_page_stay_flat(fake_gemini, llm_settings):
    per_page = []
    for pages in (24, 120):
        _, usage = run(llm_settings, document(pages))
        per_page.append(usage.input_tokens / pages)
    assert per_page[1] < per_page[0] * 1.25
