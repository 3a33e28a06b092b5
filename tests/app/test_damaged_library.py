"""A damaged record is shown on Library (not silently dropped), and uploading its PDF again rebuilds it."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from browser_helpers import chromium, open_page, start_server, stop_server, text_pdf  # noqa: F401  (fixture)
from engine.pipeline import Pipeline
from engine.workspace import Workspace

pytestmark = pytest.mark.slow


def test_library_shows_a_damaged_record_and_an_upload_rebuilds_it(chromium, tmp_path: Path) -> None:  # noqa: F811
    pdf = text_pdf(tmp_path / "in" / "harbour-report.pdf", "Harbour report", 3)
    [result] = Pipeline(tmp_path / "ws", workers=1).ingest([pdf])
    record_file = Workspace(tmp_path / "ws").record_path(result.doc_id)
    record_file.write_bytes(record_file.read_bytes()[:300])  # truncated
    server = start_server(tmp_path / "ws")
    try:
        page = open_page(chromium, server.url)
        notice = page.locator(".pdfrag-damaged")
        notice.wait_for()
        assert "harbour-report.pdf" in notice.inner_text() and "Upload the PDF again" in notice.inner_text()
        page.set_input_files("#library-files", [str(pdf)])
        page.locator(".alert-success", has_text="Accepted").wait_for()
        notice.wait_for(state="detached", timeout=60_000)
        assert Workspace(tmp_path / "ws").damaged() == []
        deadline = time.monotonic() + 60
        while Workspace(tmp_path / "ws").load(result.doc_id).status.value != "ok" and time.monotonic() < deadline:
            time.sleep(0.2)
        assert Workspace(tmp_path / "ws").load(result.doc_id).status.value == "ok"
    finally:
        stop_server(server)
