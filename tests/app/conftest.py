"""Browser-test fixtures: one workbench server per test module, Debian's chromium driven by Playwright."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pymupdf
import pytest

from browser_helpers import CHROMIUM, CHROMIUM_ARGS, Server, start_server, stop_server


@pytest.fixture(scope="session")
def chromium():
    """A headless chromium (skips the browser tests when it or Playwright is missing)."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no chromium at {CHROMIUM} (apt-get install chromium)")
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Server]:
    """A workbench on an empty workspace, for the whole test module."""
    root = tmp_path_factory.mktemp("app")
    running = start_server(root / "workspace")
    print(f"\n[timing] server start to first page: {running.startup_seconds:.2f} s")
    yield running
    stop_server(running)




def text_pdf(path: Path, title: str, pages: int, *, landscape: bool = False) -> Path:
    """A small PDF with a title, a numbered section heading and a paragraph on every page."""
    width, height = (842, 595) if landscape else (595, 842)
    doc = pymupdf.open()
    for n in range(1, pages + 1):
        page = doc.new_page(width=width, height=height)
        y = 80
        if n == 1:
            page.insert_text((72, y), title, fontsize=24)
            y += 44
        page.insert_text((72, y), f"{n} Section {n} of {title}", fontsize=16)
        for k in range(4):
            page.insert_text((72, y + 32 + 15 * k), f"Page {n} text about topic {n}, line {k + 1}.", fontsize=10)
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def upload_files(tmp_path_factory) -> dict[str, Path]:
    """Files to upload: two good PDFs (one with a very long name) and two bad ones."""
    root = tmp_path_factory.mktemp("uploads")
    long_name = "Quarterly-operations-review-of-the-northern-region-with-appendices-and-a-very-long-file-name.pdf"
    files = {
        "report": text_pdf(root / "river-report.pdf", "River Report", 5),
        "long": text_pdf(root / long_name, "A Document With A Remarkably Long Title That Keeps Going", 3),
        "fake": root / "not-really.pdf",
        "text": root / "notes.txt",
    }
    files["fake"].write_bytes(b"<html><body>this is not a PDF</body></html>")
    files["text"].write_text("plain text", encoding="utf-8")
    return files
