"""The upload limit bites in the browser: a file above PDFRAG_MAX_UPLOAD_MB (1 MB here) is refused with a
visible message before Shiny sends it, whether it is chosen with Browse… or dropped; the others go on."""

from __future__ import annotations

from pathlib import Path

import pytest

from browser_helpers import chromium, start_server, stop_server, text_pdf  # noqa: F401  (fixtures)
from browser_helpers import open_page, screenshot, wait_idle

pytestmark = [pytest.mark.browser]

LIMIT_MB = 1


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("limit")
    running = start_server(root / "workspace", env={"PDFRAG_MAX_UPLOAD_MB": str(LIMIT_MB)})
    yield running
    stop_server(running)


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("limit-files")
    big = text_pdf(root / "big-report.pdf", "Big Report", 2)
    with open(big, "ab") as handle:  # a PDF header and 1.5 MB: over the limit
        handle.write(b"%" + b"x" * (3 * 2**19))
    return {"big": big, "small": text_pdf(root / "small-report.pdf", "Small Report", 2)}


@pytest.fixture
def page(chromium, server):
    page = open_page(chromium, server.url)
    page.uploads = []  # the file uploads Shiny sent to the server
    page.on("request", lambda request: "/upload/" in request.url and page.uploads.append(request.url))
    yield page
    page.close()


def workspace_files(server) -> list[str]:
    return sorted(p.name for folder in ("pdfs", "documents") for p in (server.data_dir / folder).glob("*"))


def refused(page) -> str:
    message = page.locator(".pdfrag-upload-refused .pdfrag-reject")
    message.first.wait_for(timeout=5_000)
    return " ".join(message.all_inner_texts())


def test_the_limit_is_told_before_choosing(page):
    box = page.locator("[data-pdfrag-max-bytes]")
    assert box.get_attribute("data-pdfrag-max-bytes") == str(LIMIT_MB * 2**20)
    assert f"up to {LIMIT_MB} MB each" in page.locator(".pdfrag-upload").inner_text()
    assert page.locator("#library-files").get_attribute("accept") == ".pdf,application/pdf"


def test_an_oversize_file_is_refused_before_it_is_sent(page, server, files):
    page.set_input_files("#library-files", [str(files["big"])])
    text = refused(page)
    assert "big-report.pdf" in text and f"above the {LIMIT_MB} MB limit" in text and "not uploaded" in text
    screenshot(page, "library-upload-too-large")
    wait_idle(page)
    page.wait_for_timeout(500)  # time for an upload that should not happen
    assert page.uploads == [] and "big-report.pdf" in refused(page)
    assert page.locator(".alert-success", has_text="Accepted").count() == 0
    assert workspace_files(server) == []
    assert "0 documents" in page.locator("#library-summary").inner_text()


def test_a_dropped_oversize_file_is_refused_too(page, server):
    zone = page.locator(".pdfrag-upload .input-group")
    page.evaluate("""zone => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([new Uint8Array(3 * 2 ** 19)], "dropped-big.pdf", {type: "application/pdf"}));
        zone.dispatchEvent(new DragEvent("drop", {bubbles: true, cancelable: true, dataTransfer: transfer}));
    }""", zone.element_handle())
    assert "dropped-big.pdf" in refused(page)
    page.wait_for_timeout(500)
    assert page.uploads == [] and workspace_files(server) == [] and "dropped-big.pdf" in refused(page)
    assert not page.locator(".shiny-file-input-active, .shiny-file-input-over").count()  # highlight cleared


def test_with_an_oversize_file_the_others_are_still_uploaded(page, server, files):
    page.set_input_files("#library-files", [str(files["big"]), str(files["small"])])
    assert "big-report.pdf" in refused(page) and "small-report.pdf" not in refused(page)
    page.locator(".alert-success", has_text="Accepted: small-report.pdf").wait_for(timeout=10_000)
    assert page.uploads  # the small one went
    assert "big-report.pdf" not in page.locator(".alert-success").inner_text()
    pdfs = server.data_dir / "pdfs"
    for _ in range(100):  # the staged file reaches the workspace when the ingest starts
        if (pdfs / "small-report.pdf").exists():
            break
        page.wait_for_timeout(100)
    assert sorted(p.name for p in pdfs.glob("*.pdf")) == ["small-report.pdf"]
    # a selection within the limit clears the refusal
    page.set_input_files("#library-files", [str(files["small"])])
    page.locator(".pdfrag-upload-refused .pdfrag-reject").wait_for(state="detached", timeout=5_000)
