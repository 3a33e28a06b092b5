"""With the gemini provider, the Pipeline page says what processing the documents would cost before a run."""

from __future__ import annotations

from pathlib import Path

import pytest

from browser_helpers import chromium, open_page, start_server, stop_server, tab, text_pdf  # noqa: F401
from engine.pipeline import Pipeline

pytestmark = pytest.mark.slow


def test_pipeline_shows_the_gemini_estimate_before_a_run(chromium, tmp_path: Path) -> None:  # noqa: F811
    Pipeline(tmp_path / "ws", workers=1).ingest([text_pdf(tmp_path / "in" / "a.pdf", "Harbour report", 6)])
    server = start_server(tmp_path / "ws", env={"PDFRAG_PROVIDER": "gemini", "GEMINI_API_KEY": "not-a-real-key",
                                                 "GEMINI_BASE_URL": "http://127.0.0.1:9"})
    try:
        page = open_page(chromium, server.url)
        tab(page, "Pipeline")
        estimate = page.locator(".pdfrag-estimate")
        estimate.wait_for()
        text = estimate.inner_text()
        assert "processing the document with" in text and "calls" in text and "output tokens" in text and "$" in text
    finally:
        stop_server(server)
