"""The engine's settings (taken from the one settings model, `engine.settings`) and the choice of provider."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from engine.schemas import Provider
from engine.settings import DEFAULT_DATA_DIR, ConfigError, EnvSettings, LogLevel, ProviderChoice

__all__ = ["AVAILABLE_PROVIDERS", "DEFAULT_DATA_DIR", "DOC_TIMEOUT_S", "ConfigError", "ProviderChoice", "Settings",
           "debug_enabled", "default_workers", "doc_timeout", "resolve_provider"]

# Providers whose stages exist in this build (mistral serves inside gemini: RECITATION fallback, OCR reader).
AVAILABLE_PROVIDERS: frozenset[Provider] = frozenset({Provider.OFFLINE, Provider.GEMINI})


def default_workers() -> int:
    return max(1, min(4, os.cpu_count() or 1))


DOC_TIMEOUT_S = 900.0  # offline: far beyond the slowest real document here (408 pages in ~10 s)


def doc_timeout(env: Mapping[str, str] | None = None, provider: str = "offline") -> float | None:
    """PDFRAG_DOC_TIMEOUT: seconds one document may take before its worker is stopped (0: no limit).
    Default 900 s offline, no limit with an LLM provider (its pace is the service's)."""
    value = EnvSettings.from_env(env).doc_timeout
    if value is None:
        return DOC_TIMEOUT_S if provider == "offline" else None
    return value if value > 0 else None


class Settings(BaseModel):
    """What the command line needs of the environment (the variables are documented in `engine.settings`)."""

    model_config = ConfigDict(extra="forbid")

    data_dir: Path = Field(default=DEFAULT_DATA_DIR, description="workspace root (PDFRAG_DATA_DIR)")
    workers: int = Field(default_factory=default_workers, ge=1, le=64, description="PDFRAG_WORKERS")
    max_upload_mb: int = Field(default=200, ge=1, description="largest accepted PDF (PDFRAG_MAX_UPLOAD_MB)")
    provider: ProviderChoice = Field(default="offline", description="PDFRAG_PROVIDER")
    debug: bool = Field(default=False, description="tracebacks on stderr (PDFRAG_DEBUG=1)")
    gemini_key_set: bool = Field(default=False, description="whether GEMINI_API_KEY is set (never its value)")
    log_level: LogLevel = Field(default="warning", description="PDFRAG_LOG_LEVEL")

    @property
    def max_upload_bytes(self) -> int:
        return self.max_upload_mb * 1024 * 1024

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """From the environment (or `env`); ConfigError with a readable message on bad values."""
        return cls.of(EnvSettings.from_env(env))

    @classmethod
    def of(cls, env: EnvSettings) -> Settings:
        return cls(data_dir=env.data_dir, workers=env.workers or default_workers(), max_upload_mb=env.max_upload_mb,
                   provider=env.provider, debug=env.debug, gemini_key_set=env.gemini_key_set, log_level=env.log_level)


def debug_enabled(env: Mapping[str, str] | None = None) -> bool:
    """PDFRAG_DEBUG is on (False when the environment cannot be read: this is asked while handling an error)."""
    try:
        return EnvSettings.from_env(env).debug
    except ConfigError:
        return False


def resolve_provider(choice: str, *, gemini_key_set: bool) -> tuple[Provider, str | None]:
    """The provider to run with and an optional note for the user; ConfigError if unavailable.

    `auto` picks gemini when GEMINI_API_KEY is set and gemini is available in this build, else offline.
    """
    if choice == "auto":
        if gemini_key_set and Provider.GEMINI in AVAILABLE_PROVIDERS:
            return Provider.GEMINI, None
        note = None
        if gemini_key_set:
            note = "GEMINI_API_KEY is set but the gemini provider is not available in this build; using offline"
        return Provider.OFFLINE, note
    try:
        provider = Provider(choice)
    except ValueError:
        raise ConfigError(f"unknown provider {choice!r} (choose offline, gemini or auto)") from None
    if provider not in AVAILABLE_PROVIDERS:
        raise ConfigError(f"the {provider.value} provider is not available in this build")
    if provider is Provider.GEMINI and not gemini_key_set:
        raise ConfigError("the gemini provider needs GEMINI_API_KEY in the environment")
    return provider, None
