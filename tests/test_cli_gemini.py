"""`pdfrag ingest --provider gemini` end to end: the CLI in a subprocess, the real SDKs, the fake servers.

Also the bar that no API key reaches a workspace file, a log line or an error message.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main
from tests.fakes import gemini as g
from tests.fakes import mistral as m
from tests.fakes.fixtures import GEMINI_TEST_KEY, MISTRAL_TEST_KEY

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "data" / "samples"
KEYS = (GEMINI_TEST_KEY, MISTRAL_TEST_KEY)


def pdfrag(env: dict[str, str], *argv: str | Path) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("GEMINI_", "MISTRAL_", "PDFRAG_", "GOOGLE_"))}
    return subprocess.run([sys.executable, "-m", "engine.cli", *map(str, argv)], capture_output=True, text=True,
                          env={**clean, **env, "PYTHONPATH": str(REPO)}, cwd=REPO, timeout=120)


def assert_no_key(*texts: str, folder: Path | None = None) -> None:
    for text in texts:
        assert not any(key in text for key in KEYS)
    for path in (folder.rglob("*") if folder else []):
        if path.is_file():
            data = path.read_bytes()
            assert not any(key.encode() in data for key in KEYS), path


def test_ingest_with_gemini_end_to_end(capsys, monkeypatch, tmp_path, fake_gemini, fake_mistral, llm_env):
    fake_gemini.script(g.finish("RECITATION"), match=g.has_pdf_containing("Plans and pricing"))
    fake_mistral.script(m.chat("# Plans and pricing\n\n| Plan | Price |\n|---|---|\n| Team | 10 |"))
    data = tmp_path / "ws"
    done = pdfrag({**llm_env, "PDFRAG_DEBUG": "1"}, "ingest", SAMPLES / "pdfrag-product-deck.pdf", "--provider",
                  "gemini", "--workers", "3", "--json", "--data-dir", data)
    assert done.returncode == 0, done.stderr
    deck = json.loads(done.stdout)
    assert deck["status"] == "ok" and deck["pages"] == 12
    assert re.search(r"pdfrag-product-deck.pdf: \d+ calls, [\d,]+ in / [\d,]+ out tokens, 0 retries, \d+ fallbacks",
                     done.stderr)
    transcriptions = [r for r in fake_gemini.generate_requests if g.inline_data(r)]
    assert len(transcriptions) == 12 and len(fake_mistral.requests_to("/v1/chat/completions")) == 1
    assert all(r.header("x-goog-api-key") == GEMINI_TEST_KEY for r in fake_gemini.requests)
    assert fake_gemini.max_in_flight <= 3
    code, shown, _ = run_main(capsys, monkeypatch, llm_env, "show", deck["doc_id"], "--what", "record", "--data-dir",
                              data)  # in this process: the ingest above was the subprocess
    read = json.loads(shown)["stages"]["read"]
    assert (read["provider"], read["calls"], read["retries"], read["fallbacks"]) == ("gemini", 13, 0, 0)
    notes = [w for page in json.loads(shown)["page_info"] for w in page["warnings"]]
    assert notes == ["transcribed by mistral-medium-3.5 (gemini: RECITATION)"]
    assert read["input_tokens"] > 0 and read["seconds"] > 0
    code, markdown, _ = run_main(capsys, monkeypatch, llm_env, "show", deck["doc_id"], "--what", "markdown", "--raw",
                                 "--data-dir", data)
    assert code == 0 and "| Team | 10 |" in markdown
    assert_no_key(done.stdout, done.stderr, shown, folder=data)


def run_main(capsys, monkeypatch, env: dict[str, str], *argv: str | Path) -> tuple[int, str, str]:
    """The CLI in this process, with `env` set (faster than a subprocess: the SDKs are imported once)."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_failures_name_no_key(capsys, monkeypatch, tmp_path, fake_gemini, llm_env):
    fake_gemini.responder = lambda request: g.error(500, f"broke; request had {request.header('x-goog-api-key')}")
    data = tmp_path / "ws"
    code, out, err = run_main(capsys, monkeypatch, {**llm_env, "PDFRAG_DEBUG": "1", "PDFRAG_LLM_ATTEMPTS": "2"},
                              "ingest", SAMPLES / "pdfrag-product-deck.pdf", "--provider", "gemini", "--json",
                              "--data-dir", data)
    result = json.loads(out)
    assert code == 0 and result["status"] == "partial" and "HTTP 500" in result["error"]
    assert "***" in (data / "documents" / f"{result['doc_id']}.json").read_text()
    assert_no_key(out, err, folder=data)


def test_gemini_without_a_key_is_a_usage_error(capsys, make_pdf, data_dir, monkeypatch):
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    code = main(["ingest", str(make_pdf()), "--provider", "gemini", "--data-dir", str(data_dir)])
    assert code == 2 and "needs GEMINI_API_KEY" in capsys.readouterr().err and not data_dir.exists()


def test_auto_picks_gemini_when_the_key_is_set(capsys, monkeypatch, tmp_path, make_pdf, fake_gemini, llm_env):
    code, out, _ = run_main(capsys, monkeypatch, llm_env, "ingest", make_pdf(), "--provider", "auto", "--json",
                            "--data-dir", tmp_path / "ws")
    assert code == 0 and json.loads(out)["status"] == "ok"
    assert fake_gemini.generate_requests


@pytest.mark.parametrize("variable", ["PDFRAG_VISION_PAGES", "PDFRAG_LLM_ATTEMPTS"])
def test_bad_llm_settings_are_usage_errors(capsys, monkeypatch, tmp_path, make_pdf, llm_env, variable):
    code, _, err = run_main(capsys, monkeypatch, {**llm_env, variable: "lots"}, "ingest", make_pdf(), "--provider",
                            "gemini", "--data-dir", tmp_path / "ws")
    assert code == 2 and variable in err
