"""The settings model is the one reader of the environment, and the README's table is generated from it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.config import ConfigError, Settings, doc_timeout
from engine.llm.settings import ENV_FIELDS, LlmSettings, LlmSettingsError
from engine.settings import EnvSettings, markdown_table

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted([*(ROOT / "engine").rglob("*.py"), *(ROOT / "app").rglob("*.py")])
VARIABLES = {str(info.validation_alias) for info in EnvSettings.model_fields.values()}


def _readme_table() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Configuration\n", 1)[1].split("\n## ", 1)[0]
    return "\n".join(line for line in section.splitlines() if line.startswith("|"))


def test_readme_table_is_the_models() -> None:
    assert _readme_table() == markdown_table(), "regenerate it with: python -m engine.settings"


def test_every_variable_is_described() -> None:
    for name, info in EnvSettings.model_fields.items():
        assert info.validation_alias and info.description, name


def test_every_variable_named_in_the_source_is_in_the_model() -> None:
    named = {name: path for path in SOURCES
             for name in re.findall(r"\bPDFRAG_[A-Z][A-Z0-9_]*[A-Z0-9]\b", path.read_text(encoding="utf-8"))}
    missing = {name: str(path.relative_to(ROOT)) for name, path in named.items() if name not in VARIABLES}
    assert not missing, f"not in engine/settings.py: {missing}"
    assert len(named) >= 30  # the scan reads the source


def test_only_the_settings_model_reads_the_environment() -> None:
    reading = re.compile(r"os\.environ\b|getenv\(|environ\.get\(")
    readers = {str(path.relative_to(ROOT)) for path in SOURCES if reading.search(path.read_text(encoding="utf-8"))}
    # app/renderer.py hands its whole environment to the render worker it starts (it reads no setting from it)
    assert readers == {"engine/settings.py", "app/renderer.py"}


def test_a_mapping_is_read_instead_of_the_process_environment() -> None:
    settings = EnvSettings.from_env({"PDFRAG_WORKERS": " 3 ", "PDFRAG_PROVIDER": "Gemini", "PDFRAG_DEBUG": "",
                                     "PDFRAG_ALLOWED_ORIGINS": "https://a.org, http://b.org:3"})
    assert (settings.workers, settings.provider, settings.debug) == (3, "gemini", False)
    assert settings.allowed_origins == ("https://a.org", "http://b.org:3")
    assert EnvSettings.from_env({}).model_fields_set == set()  # nothing of this process's environment


@pytest.mark.parametrize(("env", "expected"), [
    ({"PDFRAG_WORKERS": "many"}, "PDFRAG_WORKERS: 'many' is not a whole number"),
    ({"PDFRAG_WORKERS": "0"}, "PDFRAG_WORKERS: at least 1, not '0'"),
    ({"PDFRAG_DOC_TIMEOUT": "soon"}, "PDFRAG_DOC_TIMEOUT: 'soon' is not a number"),
    ({"PDFRAG_LOG_LEVEL": "bogus"}, "PDFRAG_LOG_LEVEL: 'bogus' is not one of 'debug', 'info', 'warning' or 'error'"),
    ({"PDFRAG_DEBUG": "maybe"}, "PDFRAG_DEBUG: 'maybe' is not 1 or 0"),
    ({"PDFRAG_RENDER_MEMORY_MB": "12"}, "PDFRAG_RENDER_MEMORY_MB: at least 256"),
])
def test_a_bad_value_is_one_line_naming_the_variable(env: dict[str, str], expected: str) -> None:
    with pytest.raises(ConfigError) as raised:
        EnvSettings.from_env(env)
    message = str(raised.value)
    assert message.startswith("invalid environment setting (") and expected in message and "\n" not in message


def test_keys_stay_secret() -> None:
    settings = EnvSettings.from_env({"GEMINI_API_KEY": "secret-one", "MISTRAL_API_KEY": "secret-two"})
    shown = repr(settings) + str(settings.model_dump()) + settings.model_dump_json()
    assert settings.gemini_key == "secret-one" and settings.gemini_key_set
    assert "secret-one" not in shown and "secret-two" not in shown


def test_the_domain_settings_take_their_values_from_the_model() -> None:
    env = {"PDFRAG_WORKERS": "7", "PDFRAG_DOC_TIMEOUT": "0", "PDFRAG_LLM_READER": "mistral-ocr",
           "GEMINI_API_KEY": "k"}
    assert Settings.from_env(env).workers == 7 and Settings.from_env(env).gemini_key_set
    assert doc_timeout(env) is None and doc_timeout({}) == 900 and doc_timeout({}, provider="gemini") is None
    llm = LlmSettings.from_env(env)
    assert (llm.page_workers, llm.reader, llm.gemini_key) == (7, "mistral-ocr", "k")
    with pytest.raises(LlmSettingsError, match="PDFRAG_LLM_TIER"):
        LlmSettings.from_env({"PDFRAG_LLM_TIER": "gold"})


def test_llm_defaults_are_the_models() -> None:
    """LlmSettings() (tests, the app's overrides) and an empty environment agree on every default."""
    environment, llm = EnvSettings.from_env({}), LlmSettings()
    differing = {name for name in ENV_FIELDS if getattr(environment, name) != getattr(llm, name)}
    assert not differing
