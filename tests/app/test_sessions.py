"""Hosted mode in the browser: with PDFRAG_SESSION_WORKSPACES=1 each session sees the samples and only its own uploads."""

from __future__ import annotations

import time

import pytest

from browser_helpers import chromium, upload_files  # noqa: F401  (fixtures)
from browser_helpers import open_page, screenshot, start_server, stop_server, tab

pytestmark = [pytest.mark.browser]


@pytest.fixture(scope="module")
def hosted(tmp_path_factory):
    root = tmp_path_factory.mktemp("hosted")
    server = start_server(root / "workspace", env={"PDFRAG_SESSION_WORKSPACES": "1"})
    deadline = time.time() + 60  # the samples are processed once, in the background, at start
    while len(list((root / "workspace" / "documents").glob("*.json"))) < 2 or \
            not (root / "workspace" / "cache" / ".stage_versions.json").exists():
        assert time.time() < deadline, "the samples were not prepared"
        time.sleep(0.2)
    yield server
    stop_server(server)


def corpus_names(page) -> set[str]:
    return set(page.locator("#library-corpus td:first-child").all_inner_texts())


def test_each_session_has_its_own_workspace_with_the_samples(chromium, hosted, upload_files):
    first = open_page(chromium, hosted.url)
    second = chromium.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    second.goto(hosted.url)
    for page in (first, second):
        page.locator("#library-corpus").get_by_text("pdfrag-field-guide.pdf").wait_for()
        assert {"pdfrag-field-guide.pdf", "pdfrag-product-deck.pdf"} <= corpus_names(page)
        assert "private to this browser session" in page.locator("#library-summary").inner_text()
    first.set_input_files("#library-files", str(upload_files["report"]))
    first.locator("#library-corpus").get_by_text("river-report.pdf").wait_for(timeout=30_000)
    screenshot(first, "hosted-library")
    second.reload()
    second.locator("#library-corpus").get_by_text("pdfrag-field-guide.pdf").wait_for()
    assert "river-report.pdf" not in corpus_names(second)
    # the shared samples cannot be removed from a session
    second.locator("#library-corpus td", has_text="pdfrag-field-guide.pdf").click()
    second.click("#library-remove")
    second.click("#library-remove_confirmed")
    second.get_by_text("cannot be removed").wait_for()
    assert "pdfrag-field-guide.pdf" in corpus_names(second)
    tab(second, "Inspect")
    second.locator("img.pdfrag-page-image").wait_for()
    first.close()
    second.context.close()
