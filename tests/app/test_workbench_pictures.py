"""Workbench v2 in chromium, on the processed samples: a Chat citation opens Inspect with the quote highlighted
where the quote is printed, the layout overlay draws the reader's blocks, the structure picture opens its pages,
and no page breaks the Content-Security-Policy.

The tests of this module share one server and one browser page and run in order (`--dist loadfile` keeps a
module on one worker). Screenshots at 1440×900 go to tests/app/screenshots/.
"""

from __future__ import annotations

import shutil
import time

import pymupdf
import pytest

from browser_helpers import chromium  # noqa: F401  (fixture)
from browser_helpers import (CSP_WATCH, report_timing, screenshot, start_server, stop_server, tab, text_pdf,
                             wait_idle, wait_page_image)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DECK = "pdfrag-product-deck.pdf"
QUESTION = "How many volunteer surveyors does the Upper Vale Catchment Trust have?"


@pytest.fixture(scope="module")
def workspace(samples_workspace, tmp_path_factory):
    root = tmp_path_factory.mktemp("pictures") / "workspace"
    shutil.copytree(samples_workspace, root)
    return root


@pytest.fixture(scope="module")
def server(workspace):
    running = start_server(workspace, env={"GEMINI_API_KEY": "", "PDFRAG_EMBEDDINGS": "", "PDFRAG_PROVIDER": "offline"})
    yield running
    stop_server(running)


@pytest.fixture(scope="module")
def page(chromium, server):
    page = chromium.new_page(viewport={"width": 1440, "height": 900})
    page.csp_console = []
    page.errors = []
    page.on("console", lambda m: page.csp_console.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.add_init_script(f"({CSP_WATCH})()")
    page.goto(server.url)
    page.wait_for_function("() => window.Shiny && window.Shiny.shinyapp && window.Shiny.shinyapp.isConnected()")
    wait_idle(page)
    yield page
    page.close()


def _rect(page, selector: str) -> dict:
    return page.locator(selector).first.evaluate(
        "el => { const r = el.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; }")


def _overlap(a: dict, b: dict) -> float:
    """Share of b's area that a covers."""
    w = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
    h = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
    return max(0.0, w) * max(0.0, h) / (b["w"] * b["h"])


def test_a_citation_opens_inspect_with_the_quote_highlighted(page, workspace):
    from engine.agent import ask
    from engine.workspace import Workspace

    expected = ask(Workspace(workspace), QUESTION)  # what the app will show: the engine is deterministic offline
    [cite] = [c for c in expected.citations if c.doc == DECK]
    assert cite.boxes

    tab(page, "Chat")
    box = page.locator("#chat-chat .shiny-chat-input [role='textbox']")
    box.click()
    box.type(QUESTION)
    sent = time.perf_counter()
    box.press("Enter")
    link = page.locator('#chat-chat a[href^="#pdfrag-open:"][data-pdfrag-cite]').first
    link.wait_for(timeout=30_000)
    report_timing(f"[timing] chat: answer with its source visible {time.perf_counter() - sent:.2f} s after sending "
                  "(offline; bar 2 s, not asserted)")
    message = page.locator("#chat-chat .shiny-chat-message", has=page.locator("a[data-pdfrag-cite]")).last
    assert message.locator(".pdfrag-sources li").count() == len({(c.doc, c.page) for c in expected.citations})
    assert message.locator("details.pdfrag-trace").count() == 1
    assert not message.locator("details.pdfrag-trace").evaluate("d => d.open")  # the context is folded away
    screenshot(page, "v2-chat")

    link.click()
    wait_page_image(page, cite.page)
    page.locator(".pdfrag-highlight").first.wait_for()
    page.wait_for_function("() => document.querySelector('.pdfrag-highlight').getBoundingClientRect().width > 0")
    image = _rect(page, "img.pdfrag-page-image")
    with pymupdf.open(workspace / "pdfs" / DECK) as doc:
        pdf_page = doc[cite.page - 1]
        width, height = pdf_page.rect.width, pdf_page.rect.height
        printed = pdf_page.search_for(" ".join(cite.quote.split()[:3]))[0]  # where the quote's first words are
    scale = image["w"] / width
    assert image["h"] / height == pytest.approx(scale, rel=0.01)  # the image is the whole page, unstretched
    drawn = page.locator(".pdfrag-highlight").evaluate_all(
        "els => els.map(el => { const r = el.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; })")
    assert len(drawn) == len(cite.boxes)
    for rect, (x0, y0, x1, y1) in zip(drawn, cite.boxes):
        assert rect["x"] == pytest.approx(image["x"] + x0 * scale, abs=1.5)
        assert rect["y"] == pytest.approx(image["y"] + y0 * scale, abs=1.5)
        assert rect["w"] == pytest.approx((x1 - x0) * scale, abs=1.5)
        assert rect["h"] == pytest.approx((y1 - y0) * scale, abs=1.5)
    words = {"x": image["x"] + printed.x0 * scale, "y": image["y"] + printed.y0 * scale,
             "w": printed.width * scale, "h": printed.height * scale}
    assert max(_overlap(rect, words) for rect in drawn) > 0.8  # over the printed quote
    assert "Highlighted" in page.locator(".pdfrag-highlight-note").inner_text()
    screenshot(page, "v2-inspect-highlight")

    page.click("#inspect-next")  # another page: no highlight there
    wait_page_image(page, cite.page + 1)
    page.locator(".pdfrag-highlight").wait_for(state="detached")


def test_the_layout_overlay_draws_the_blocks_by_kind(page, workspace):
    from engine.schemas.blocks import DocumentBlocks
    from engine.workspace import Workspace

    space = Workspace(workspace)
    record = next(r for r in space.records() if r.file_name == DECK)
    blocks = DocumentBlocks.model_validate_json(space.blocks_path(record).read_bytes())
    number = int(page.locator("img.pdfrag-page-image").get_attribute("data-page"))
    on_page = [b for b in next(p for p in blocks.pages if p.page == number).blocks if b.bbox is not None]
    assert on_page

    page.locator("#inspect-layout").check()
    page.locator(".pdfrag-block").first.wait_for()
    drawn = page.locator(".pdfrag-block").evaluate_all("els => els.map(el => el.dataset.kind)")
    assert sorted(drawn) == sorted(b.kind for b in on_page)
    for kind in {b.kind for b in on_page}:
        assert page.locator(f".pdfrag-legend-item[data-kind='{kind}']").count() == 1
    image = _rect(page, "img.pdfrag-page-image")
    first = _rect(page, ".pdfrag-block")
    assert first["x"] >= image["x"] - 1 and first["x"] + first["w"] <= image["x"] + image["w"] + 1
    screenshot(page, "v2-inspect-layout")
    page.locator("#inspect-layout").uncheck()
    page.locator(".pdfrag-block").first.wait_for(state="detached")


def test_the_page_slider_turns_pages(page):
    slider = page.locator(".pdfrag-page-slider .irs-line")
    slider.wait_for()
    box = slider.bounding_box()
    page.mouse.click(box["x"] + box["width"] - 4, box["y"] + box["height"] / 2)  # the far end: the last page
    last = int(page.locator("#inspect-page_label").inner_text().split(" of ")[1])
    wait_page_image(page, last)
    assert page.locator("#inspect-page_label").inner_text().startswith(f"Page {last} of")


def _runs(page) -> int:
    """How many runs this session has started (the status line's counter)."""
    status = page.locator(".pdfrag-run-status")
    return int(status.get_attribute("data-runs") or 0) if status.count() else 0


def _run_finished(page, runs_before: int) -> None:
    """Wait for the end of the run started after `runs_before` runs: the status line of the run before says
    'finished' or 'cancelled' too, until the server has taken the click."""
    page.wait_for_function("n => { const s = document.querySelector('.pdfrag-run-status');"
                           " return s && Number(s.dataset.runs) > n && s.dataset.running === 'false'"
                           " && /finished|cancelled/.test(s.textContent); }", arg=runs_before, timeout=60_000)


def test_a_new_run_starts_from_queued_rows_and_cached_documents_take_no_time(page):
    tab(page, "Pipeline")
    before = _runs(page)
    page.click("#pipeline-start")
    rows = page.locator("tr.pdfrag-doc-progress")
    rows.first.wait_for()
    assert set(rows.evaluate_all("rows => rows.map(r => r.dataset.status)")) <= {"queued", "waiting", "running",
                                                                                  "cached"}
    _run_finished(page, before)
    assert set(rows.evaluate_all("rows => rows.map(r => r.dataset.status)")) == {"cached"}
    assert set(page.locator(".pdfrag-doc-time").all_inner_texts()) == {"nothing to do"}
    screenshot(page, "v2-pipeline-cached")


def test_cancelling_a_recompute_run_keeps_finished_documents(page, workspace):
    from engine.workspace import Workspace

    tab(page, "Pipeline")
    page.locator("#pipeline-force").check()
    before = _runs(page)
    page.click("#pipeline-start")
    page.click("#pipeline-cancel")
    _run_finished(page, before)
    page.locator("#pipeline-force").uncheck()
    records = Workspace(workspace).records()
    demoted = [r for r in records if r.status.value != "ok"]
    # one document at a time (PDFRAG_WORKERS=1): at most the one whose stages were being replaced is pending
    assert len(demoted) <= 1 and all(r.status.value == "pending" and r.error == "cancelled" for r in demoted), \
        [(r.file_name, r.status.value, r.error) for r in demoted]
    before = _runs(page)
    page.click("#pipeline-start")  # and the next run makes it whole again
    _run_finished(page, before)
    assert {r.status.value for r in Workspace(workspace).records()} == {"ok"}


def test_the_pipeline_draws_each_documents_stage_times(page, workspace):
    from app.runner import STAGES
    from engine.workspace import Workspace

    tab(page, "Pipeline")
    plot = page.locator("div.pdfrag-plot[data-chart='timeline'][data-ready]")
    plot.wait_for()
    traces = plot.evaluate("el => el.data.map(t => ({name: t.name, y: t.y, x: t.x}))")
    assert [t["name"] for t in traces] == list(STAGES)
    records = {r.file_name: r for r in Workspace(workspace).records()}
    for trace in traces:
        for name, seconds in zip(trace["y"], trace["x"]):
            assert seconds == pytest.approx(records[name].stages[trace["name"]].seconds)  # each stage's own time
    assert page.locator("div.pdfrag-plot[data-chart='timeline'] .barlayer .point").count() > 0
    screenshot(page, "v2-pipeline-timeline")


def test_the_structure_sunburst_opens_the_page_of_a_clicked_node(page):
    tab(page, "Structure")
    page.select_option("#structure-pick-doc", label="pdfrag-field-guide.pdf (11 p.)")
    plot = page.locator("div.pdfrag-plot[data-chart='structure'][data-ready]")
    plot.wait_for()
    page.wait_for_function("() => document.querySelectorAll('.sunburstlayer path.surface').length > 5")
    # the tree and the picture are drawn by two outputs: wait (up to the timeout) until both show the same sources,
    # the tree's not the last document's (under load the tree can come a moment after the picture)
    page.wait_for_function("""() => {
        const of = sel => [...new Set([...document.querySelectorAll(sel)].map(e => e.dataset.source))].sort().join();
        const tree = of('#structure-tree .pdfrag-node');
        return tree !== '' && tree === of('.pdfrag-structure-picture .pdfrag-legend-item');
    }""", timeout=15_000)
    sources = set(page.locator("#structure-tree .pdfrag-node").evaluate_all("els => els.map(e => e.dataset.source)"))
    legend = set(page.locator(".pdfrag-structure-picture .pdfrag-legend-item").evaluate_all(
        "els => els.map(e => e.dataset.source)"))
    assert legend == sources  # a colour for every source the tree has
    screenshot(page, "v2-structure")
    plot.evaluate("el => el.on('plotly_sunburstclick', e => { window.__clicked = e.points[0].customdata; })")
    slices = page.locator(".sunburstlayer path.surface")
    slices.nth(slices.count() - 1).click()  # the last node drawn: a deep one, far from page 1
    page.wait_for_function("() => window.__clicked")
    doc, wanted = page.evaluate("() => window.__clicked")
    wait_page_image(page, wanted)
    assert page.get_by_role("tab", name="Inspect", exact=True).get_attribute("aria-selected") == "true"
    assert page.locator("img.pdfrag-page-image").get_attribute("data-doc") == doc
    assert wanted > 1


def test_library_overview_and_an_upload_listed_at_once(page, tmp_path_factory):
    tab(page, "Library")
    plot = page.locator("div.pdfrag-plot[data-chart='corpus'][data-ready]")
    plot.wait_for()
    bars = plot.evaluate("el => el.data.flatMap(t => t.y.map((y, i) => [y, t.x[i], t.name]))")
    assert sorted(b[0] for b in bars) == ["pdfrag-field-guide.pdf", "pdfrag-product-deck.pdf"]
    assert {b[2] for b in bars} == {"ok"} and all(b[1] > 0 for b in bars)
    header = page.locator("#library-corpus thead").inner_text()
    assert "Title" in header
    card = page.locator(".pdfrag-corpus-card")
    assert card.locator("#library-corpus").count() == 1  # the table sits in its card

    big = text_pdf(tmp_path_factory.mktemp("upload") / "long-upload.pdf", "Long Upload", 60)
    page.set_input_files("#library-files", str(big))
    row = page.locator("#library-corpus tbody tr", has_text="long-upload.pdf")
    row.wait_for()
    first_status = row.locator("td").nth(4).inner_text()
    assert first_status.split(":")[0] in ("queued", "waiting", "running"), first_status  # listed while it runs
    screenshot(page, "v2-library-upload")
    page.wait_for_function("() => [...document.querySelectorAll('#library-corpus tbody tr')].some("
                           "r => r.innerText.includes('long-upload.pdf') && /\\b60\\b/.test(r.innerText)"
                           " && r.innerText.includes('ok'))", timeout=120_000)  # then its record
    screenshot(page, "v2-library")


def test_settings_offer_only_what_offline_mode_can_do(page):
    tab(page, "Settings")
    page.locator(".pdfrag-offline-note").wait_for()
    offered = page.locator("#settings-method option").evaluate_all("options => options.map(o => o.value)")
    assert offered == ["hybrid", "bm25"]
    note = page.locator(".pdfrag-method-note").inner_text()
    assert "vector" in note and "agent" in note  # says what is missing and why
    assert "cannot read scanned pages" in page.locator(".pdfrag-offline-note").inner_text()
    screenshot(page, "v2-settings")


def test_no_page_breaks_the_content_security_policy(page):
    for name in ("Library", "Pipeline", "Inspect", "Metadata", "Structure", "Chat", "Settings"):
        tab(page, name)
        time.sleep(0.3)
        wait_idle(page)
        screenshot(page, f"v2-page-{name.lower()}")
    violations = page.evaluate("() => window.__csp") + page.csp_console
    assert violations == [] and page.errors == []
