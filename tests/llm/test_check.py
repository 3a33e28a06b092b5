"""The check before every LLM run: one models.list per provider, and one clear line when it cannot run."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from engine.cli import main
from engine.llm.check import LlmUnavailable, check_providers, preflight
from engine.pipeline import Pipeline
from tests.fakes.gemini import FakeGemini
from tests.fakes.mistral import FakeMistral

SAMPLES = Path(__file__).resolve().parents[2] / "data" / "samples"
DECK = SAMPLES / "pdfrag-product-deck.pdf"


def test_the_defaults_pass_against_a_service_that_lists_todays_models(fake_gemini, fake_mistral, llm_settings):
    report = check_providers(llm_settings)
    assert report.ok and [c.provider for c in report.checks] == ["gemini", "mistral"]
    assert report.checks[0].models == ("gemini-3.8-flash",) and report.checks[1].models == ("mistral-medium-3.5",)
    assert len(fake_gemini.list_requests) == 1 and len(fake_mistral.requests_to("/v1/models")) == 1
    assert not fake_gemini.generate_requests


def test_a_retired_model_is_one_line_naming_it_and_current_ones(fake_gemini, llm_settings):
    settings = llm_settings.model_copy(update={"gemini_model": "gemini-2.5-flash", "mistral_api_key": None})
    with pytest.raises(LlmUnavailable) as caught:
        preflight(settings)
    message = str(caught.value)
    assert "\n" not in message and "'gemini-2.5-flash'" in message and "gemini-3.8-flash" in message
    assert not fake_gemini.generate_requests
    # the list does not spell out every alias: a model the API knows by name still passes
    fake_gemini.models.append("gemini-flash-latest")
    assert check_providers(settings.model_copy(update={"gemini_model": "gemini-flash-latest"})).ok


def test_a_refused_key_and_an_unreachable_endpoint(llm_settings):
    with FakeGemini(keys=("the-right-key",)) as server:
        settings = llm_settings.model_copy(update={"gemini_base_url": server.url, "mistral_api_key": None})
        with pytest.raises(LlmUnavailable, match=r"gemini: Gemini refused the API key .*API_KEY_INVALID"):
            preflight(settings)
        assert len(server.requests) == 1  # refused is final: no retry
    closed = llm_settings.model_copy(update={"gemini_base_url": "http://127.0.0.1:9", "mistral_api_key": None})
    with pytest.raises(LlmUnavailable, match="gemini: Gemini is unreachable"):
        preflight(closed)


def test_a_refused_mistral_key_or_retired_fallback_fails_too(fake_gemini, llm_settings):
    with FakeMistral(keys=("other",)) as server:
        settings = llm_settings.model_copy(update={"mistral_server_url": server.url})
        report = check_providers(settings)
        assert report.checks[0].ok and not report.checks[1].ok
        assert report.checks[1].message.startswith("mistral: Mistral refused the API key")
    retired = llm_settings.model_copy(update={"mistral_vision_model": "pixtral-large-latest"})
    with pytest.raises(LlmUnavailable, match="Mistral does not offer 'pixtral-large-latest'.*mistral-medium"):
        preflight(retired)


def test_passing_checks_are_remembered_failures_are_not(fake_gemini, llm_settings):
    settings = llm_settings.model_copy(update={"mistral_api_key": None})
    preflight(settings)
    preflight(settings)
    assert len(fake_gemini.list_requests) == 1
    fake_gemini.models.remove("gemini-3.8-flash")
    other = settings.model_copy(update={"embed_model": "gemini-embedding-001"})
    with pytest.raises(LlmUnavailable):
        preflight(other, embeddings=True)
    with pytest.raises(LlmUnavailable):
        preflight(other, embeddings=True)
    assert len(fake_gemini.list_requests) == 3


def test_the_pipeline_checks_before_adding_anything(tmp_path, fake_gemini, llm_settings):
    settings = llm_settings.model_copy(update={"gemini_model": "gemini-2.5-flash"})
    with pytest.raises(LlmUnavailable):
        Pipeline(tmp_path / "ws", provider="gemini", llm=settings, workers=1)
    assert not (tmp_path / "ws").exists() and not fake_gemini.generate_requests


def run(capsys, monkeypatch, env: dict[str, str], *argv) -> tuple[int, str, str]:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("problem", ["retired model", "refused key", "unreachable"])
def test_cli_ingest_fails_fast_with_exit_1_and_caches_nothing(capsys, monkeypatch, tmp_path, fake_gemini, llm_env,
                                                               problem):
    env = dict(llm_env)
    if problem == "retired model":
        env["PDFRAG_GEMINI_MODEL"] = "gemini-2.5-flash"
    elif problem == "refused key":
        fake_gemini.keys = ("another-key",)
    else:
        env["GEMINI_BASE_URL"] = "http://127.0.0.1:9"
    data = tmp_path / "ws"
    code, out, err = run(capsys, monkeypatch, env, "ingest", DECK, "--provider", "gemini", "--json",
                         "--data-dir", data)
    lines = [line for line in err.splitlines() if line.startswith("pdfrag:")]
    assert code == 1 and out == "" and len(lines) == 1, err
    assert lines[0].endswith("nothing was processed") and {"retired model": "'gemini-2.5-flash'",
                                                           "refused key": "refused the API key",
                                                           "unreachable": "unreachable"}[problem] in lines[0]
    assert not fake_gemini.generate_requests and not (data / "documents").exists()
    assert llm_env["GEMINI_API_KEY"] not in err


def test_cli_ask_with_a_refused_key_is_exit_1(capsys, monkeypatch, samples_workspace, fake_gemini, llm_env):
    fake_gemini.keys = ("another-key",)
    code, out, err = run(capsys, monkeypatch, llm_env, "ask", "What is Riverline?", "--provider", "gemini",
                         "--data-dir", samples_workspace)
    assert code == 1 and out == "" and "refused the API key" in err and not fake_gemini.generate_requests


def test_the_apps_runner_reports_the_check_as_the_runs_error(tmp_path, fake_gemini, llm_settings):
    from app.runner import Batch, IngestRunner, RunFinished

    fake_gemini.keys = ("another-key",)
    runner = IngestRunner(_workspace(tmp_path), in_process=True)
    runner.submit(Batch((DECK,), label="deck"), provider="gemini", workers=1, llm=llm_settings)
    messages: list = []
    while not any(isinstance(m, RunFinished) for m in messages):
        messages += runner.drain()
        time.sleep(0.05)
    finished = [m for m in messages if isinstance(m, RunFinished)]
    assert len(finished) == 1 and "refused the API key" in (finished[0].error or "")
    assert not fake_gemini.generate_requests
    assert finished[0].results == () and not finished[0].cancelled


def _workspace(tmp_path):
    from engine.workspace import Workspace

    return Workspace(tmp_path / "ws")


def test_the_settings_page_shows_the_check(monkeypatch, fake_gemini, llm_env):
    from app.pages.settings import check_llm
    from app.settings_model import SessionSettings

    for name, value in llm_env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("MISTRAL_API_KEY")
    ok, lines = check_llm(SessionSettings(provider="gemini"))
    assert ok and lines[0] == "gemini: key accepted, gemini-3.8-flash available"
    assert lines[1].startswith("A 100-page report") and "about $" in lines[1]
    fake_gemini.keys = ("session-key",)
    session = SessionSettings(provider="gemini", api_keys={"gemini": "session-key"}, model="gemini-2.5-flash")
    ok, lines = check_llm(session)
    assert not ok and "'gemini-2.5-flash'" in lines[0] and "session-key" not in lines[0]
