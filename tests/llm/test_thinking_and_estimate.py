"""Thinking set per stage and per model family, thinking tokens counted, and the --dry-run cost estimate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import write_pdf
from engine.cli import main
from engine.llm.clients import LlmClients
from engine.llm.estimate import estimate_document
from engine.llm.model_config import generation_options, temperature_for
from engine.llm.settings import LlmSettings
from engine.llm.usage import Usage
from engine.pipeline import Pipeline
from engine.readers.gemini import GeminiReader
from tests.fakes import gemini as g
from tests.fakes.gemini import THOUGHTS

SAMPLES = Path(__file__).resolve().parents[2] / "data" / "samples"
DECK = SAMPLES / "pdfrag-product-deck.pdf"


def test_options_by_model_family():
    assert generation_options("gemini-3.8-flash", "off") == {"thinking_level": "LOW"}
    assert generation_options("gemini-3.8-flash", "high") == {"thinking_level": "HIGH"}
    assert generation_options("gemini-2.5-flash-lite", "off") == {"thinking_budget": 0}
    assert generation_options("gemini-2.5-pro", "off") == {"thinking_budget": 128}
    assert generation_options("gemini-3.8-flash", "default") == {} and generation_options("my-gateway", "low") == {}
    assert temperature_for("gemini-3.8-flash", None) is None and temperature_for("gemini-2.5-flash-lite", None) == 0.0
    assert temperature_for("gemini-3.8-flash", 0.3) == 0.3


def stage_configs(fake) -> dict[str, list[dict]]:
    """The generationConfig of each request (thinkingConfig's keys in camelCase), by what it was for."""
    found: dict[str, list[dict]] = {"read": [], "reformat": [], "extract": []}
    for request in fake.generate_requests:
        kind = "read" if g.inline_data(request) else ("extract" if g.response_schema(request) else "reformat")
        config = dict(g.generation_config(request))
        if "thinkingConfig" in config:
            config["thinkingConfig"] = g.thinking_config(request)
        found[kind].append(config)
    return found


def test_each_stage_sends_its_thinking_and_no_temperature_on_gemini_3(tmp_path, fake_gemini, llm_settings):
    Pipeline(tmp_path, provider="gemini", llm=llm_settings, workers=1).ingest([DECK])
    configs = stage_configs(fake_gemini)
    assert len(configs["read"]) == 12 and configs["reformat"] and configs["extract"]
    for kind in ("read", "reformat"):
        assert all(c["thinkingConfig"] == {"thinkingLevel": "LOW"} for c in configs[kind]), kind
    assert all("thinkingConfig" not in c for c in configs["extract"])  # the model's own thinking
    assert all("temperature" not in c for kind in configs for c in configs[kind])  # Gemini 3: its default 1.0


def test_an_older_family_gets_thinking_off_and_temperature_0(tmp_path, fake_gemini, llm_settings):
    settings = llm_settings.model_copy(update={"gemini_model": "gemini-2.5-flash-lite"})
    Pipeline(tmp_path, provider="gemini", llm=settings, workers=1).ingest([DECK])
    configs = stage_configs(fake_gemini)
    assert all(c["thinkingConfig"] == {"thinkingBudget": 0} and c["temperature"] == 0 for c in configs["read"])


def test_thinking_tokens_are_counted_as_output(tmp_path, fake_gemini, llm_settings):
    pdf = write_pdf(tmp_path / "four.pdf", 4)
    low, high = Usage(), Usage()
    GeminiReader(LlmClients(llm_settings)).read(pdf, usage=low)
    GeminiReader(LlmClients(llm_settings.model_copy(update={"thinking_read": "high"}))).read(pdf, usage=high)
    assert low.thought_tokens == 4 * THOUGHTS["LOW"] and high.thought_tokens == 4 * THOUGHTS["HIGH"]
    assert high.output_tokens - low.output_tokens == high.thought_tokens - low.thought_tokens  # billed as output


def test_the_estimate_counts_what_a_run_sends(tmp_path, fake_gemini, llm_settings):
    estimate = estimate_document(DECK, llm_settings)
    (result,) = Pipeline(tmp_path, provider="gemini", llm=llm_settings, workers=1).ingest([DECK])
    # as many calls as the stages make when every answer is usable (the fake's empty deck sections are asked
    # again once, which no estimate can know)
    assert estimate.pages == 12 and estimate.calls == len(fake_gemini.generate_requests) - 1
    assert estimate.usd is not None and 0 < estimate.usd < 1
    unknown = estimate_document(DECK, llm_settings.model_copy(update={"gemini_model": "gemini-3.6-flash"}))
    assert unknown.usd is None and unknown.calls == estimate.calls


def run(capsys, monkeypatch, env, *argv) -> tuple[int, str, str]:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_dry_run_sends_and_writes_nothing_then_a_run_shows_the_estimate(capsys, monkeypatch, tmp_path,
                                                                        fake_gemini, fake_mistral, llm_env):
    data = tmp_path / "ws"
    code, out, err = run(capsys, monkeypatch, llm_env, "ingest", SAMPLES, "--provider", "gemini", "--dry-run",
                         "--data-dir", data)
    lines = out.splitlines()
    assert code == 0 and not data.exists() and not fake_gemini.requests and not fake_mistral.requests
    assert lines[0].startswith("pdfrag-field-guide.pdf: 11 pages") and lines[1].startswith("pdfrag-product-deck.pdf")
    assert lines[2].startswith("total: 23 pages") and "~$" in lines[2]
    assert lines[3].startswith("prices (USD per million tokens") and "gemini-3.8-flash 0.75 / 3.75" in lines[3]
    code, out, err = run(capsys, monkeypatch, llm_env, "ingest", DECK, "--provider", "gemini", "--data-dir", data)
    assert code == 0 and "pdfrag: estimate: 12 pages, 18 calls" in err
    code, out, err = run(capsys, monkeypatch, llm_env, "ingest", DECK, "--provider", "gemini", "--dry-run", "--json",
                         "--data-dir", data)
    first, whole = (json.loads(line) for line in out.splitlines())
    assert first["notes"] == ["already processed"] and first["calls"] == 0 and whole["usd"] == 0


@pytest.mark.parametrize("level", ["off", "low", "medium", "high", "default"])
def test_every_thinking_level_is_a_valid_setting(level):
    settings = LlmSettings.from_env({"PDFRAG_THINKING_READ": level, "PDFRAG_THINKING_AGENT": level})
    assert settings.thinking_read == level == settings.thinking_agent


def test_the_estimate_from_records_matches_the_one_from_the_pdf(tmp_path, llm_settings):
    """The app's estimate reads the records' characters per page instead of opening each PDF."""
    from engine.llm.estimate import estimate_records
    from engine.workspace import Workspace

    Pipeline(tmp_path / "ws", workers=1).ingest([DECK])  # offline: the record holds each page's characters
    [record] = Workspace(tmp_path / "ws").records()
    from_records, from_pdf = estimate_records([record], llm_settings), estimate_document(DECK, llm_settings)
    assert from_records.pages == from_pdf.pages == 12 and from_records.calls == from_pdf.calls
    assert abs(from_records.input_tokens - from_pdf.input_tokens) <= 0.1 * from_pdf.input_tokens
    unread = record.model_copy(update={"page_info": []})  # not read yet: its pages count as without text
    assert estimate_records([unread], llm_settings).input_tokens > 0
