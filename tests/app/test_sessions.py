"""Hosted mode (PDFRAG_SESSION_WORKSPACES=1): each session sees the samples and only its own uploads (in the
browser); sessions at once and each session's storage are capped, with a message that says so."""

from __future__ import annotations

import json
import time

import httpx
import pytest

from browser_helpers import chromium, upload_files  # noqa: F401  (fixtures)
from browser_helpers import open_page, screenshot, start_server, stop_server, tab
from shiny_protocol import ShinySession


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


@pytest.mark.browser
@pytest.mark.slow
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


@pytest.fixture(scope="module")
def capped(tmp_path_factory):
    """Hosted mode with room for two sessions of 6 MB each, files up to 5 MB, no samples."""
    root = tmp_path_factory.mktemp("capped")
    (root / "samples").mkdir()
    server = start_server(root / "workspace", env={
        "PDFRAG_SESSION_WORKSPACES": "1", "PDFRAG_MAX_SESSIONS": "2", "PDFRAG_SESSION_STORAGE_MB": "6",
        "PDFRAG_MAX_UPLOAD_MB": "5", "PDFRAG_SAMPLES_DIR": str(root / "samples")})
    yield server
    stop_server(server)


def full_notice(session: ShinySession, timeout: float) -> str | None:
    """The 'workbench is full' modal's text if the server shows one within `timeout` seconds."""
    try:
        message = session.wait_for(lambda m: "modal" in m, timeout=timeout)
    except TimeoutError:
        return None
    return json.dumps(message["modal"])


def test_each_session_may_store_only_its_share(capped):
    first, second = ShinySession(capped.url), ShinySession(capped.url)
    _, url = first.upload_init([("a.pdf", 10)])
    assert httpx.post(url, content=b"%PDF-" + b"a" * (4 * 2**20), timeout=30).status_code == 200
    _, url = first.upload_init([("b.pdf", 10)])  # 4 MB held + 3 MB > 6 MB
    refused = httpx.post(url, content=b"%PDF-" + b"b" * (3 * 2**20), timeout=30)
    assert refused.status_code == 413 and "session's storage is full" in refused.text and "6 MB" in refused.text
    _, url = second.upload_init([("c.pdf", 10)])  # another session has its own share
    assert httpx.post(url, content=b"%PDF-" + b"c" * (4 * 2**20), timeout=30).status_code == 200
    first.close()
    second.close()


def test_sessions_past_the_cap_are_told_the_workbench_is_full(capped):
    deadline = time.time() + 30
    while True:  # the sessions of the test before end in the background
        sessions = [ShinySession(capped.url), ShinySession(capped.url)]
        if all(full_notice(s, 1.0) is None for s in sessions):
            break
        for s in sessions:
            s.close()
        assert time.time() < deadline, "the sessions of the test before never ended"
        time.sleep(0.5)
    third = ShinySession(capped.url)
    notice = full_notice(third, 10.0)
    assert notice is not None and "The workbench is full" in notice and "2 sessions at once" in notice
    _, url = third.upload_init([("d.pdf", 10)])  # a refused session has no workspace to upload to
    assert httpx.post(url, content=b"%PDF-1.4", timeout=10).status_code == 404
    third.close()
    sessions[0].close()  # one leaves: the next visitor gets in
    while True:
        fourth = ShinySession(capped.url)
        if full_notice(fourth, 1.0) is None:
            break
        fourth.close()
        assert time.time() < deadline, "a session that ended never freed its place"
        time.sleep(0.5)
    fourth.close()
    sessions[1].close()


@pytest.mark.browser
@pytest.mark.slow
def test_in_the_browser_the_share_is_shown_and_a_full_workbench_says_so(chromium, capped):
    deadline = time.time() + 30
    while True:  # the protocol sessions of the tests before end in the background
        pages = [open_page(chromium, capped.url) for _ in range(2)]
        if not any(p.locator(".modal").count() for p in pages):
            break
        for p in pages:
            p.close()
        assert time.time() < deadline, "the sessions of the tests before never ended"
        time.sleep(0.5)
    assert "Storage: 0 B of 6.0 MB used" in pages[0].locator("#library-summary").inner_text()
    late = chromium.new_page()
    late.goto(capped.url)
    late.locator(".modal", has_text="The workbench is full").wait_for(timeout=10_000)
    assert "2 sessions at once" in late.locator(".modal").inner_text()
    screenshot(late, "hosted-full")
    for p in (*pages, late):
        p.close()
