"""Settings read from the environment, and the choice of provider (key values are never stored)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.schemas import Provider

ProviderChoice = Literal["offline", "gemini", "auto"]

# Providers whose stages exist in this build (mistral serves inside gemini: RECITATION fallback, OCR reader).
AVAILABLE_PROVIDERS: frozenset[Provider] = frozenset({Provider.OFFLINE, Provider.GEMINI})

DEFAULT_DATA_DIR = Path("data/workspace")


class ConfigError(ValueError):
    """A setting or provider choice that cannot be honoured; the message is meant for the user."""


def default_workers() -> int:
    return max(1, min(4, os.cpu_count() or 1))


DOC_TIMEOUT_S = 900.0  # offline: far beyond the slowest real document here (408 pages in ~10 s)


def doc_timeout(env: Mapping[str, str] | None = None, provider: str = "offline") -> float | None:
    """PDFRAG_DOC_TIMEOUT: seconds one document may take before its worker is stopped (0: no limit).
    Default 900 s offline, no limit with an LLM provider (its pace is the service's)."""
    env = os.environ if env is None else env
    raw = env.get("PDFRAG_DOC_TIMEOUT", "").strip()
    if not raw:
        return DOC_TIMEOUT_S if provider == "offline" else None
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"PDFRAG_DOC_TIMEOUT must be a number of seconds, not {raw!r}") from None
    return value if value > 0 else None


class Settings(BaseModel):
    """Everything the engine reads from the environment, each field with its variable and default."""

    model_config = ConfigDict(extra="forbid")

    data_dir: Path = Field(default=DEFAULT_DATA_DIR, description="workspace root (PDFRAG_DATA_DIR)")
    workers: int = Field(default_factory=default_workers, ge=1, le=64, description="PDFRAG_WORKERS")
    max_upload_mb: int = Field(default=200, ge=1, description="largest accepted PDF (PDFRAG_MAX_UPLOAD_MB)")
    provider: ProviderChoice = Field(default="offline", description="PDFRAG_PROVIDER")
    debug: bool = Field(default=False, description="tracebacks on stderr (PDFRAG_DEBUG=1)")
    gemini_key_set: bool = Field(default=False, description="whether GEMINI_API_KEY is set (never its value)")

    @property
    def max_upload_bytes(self) -> int:
        return self.max_upload_mb * 1024 * 1024

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Read the PDFRAG_* variables; raise ConfigError with a readable message on bad values."""
        env = os.environ if env is None else env
        values: dict[str, object] = {}
        names = {
            "data_dir": "PDFRAG_DATA_DIR", "workers": "PDFRAG_WORKERS",
            "max_upload_mb": "PDFRAG_MAX_UPLOAD_MB", "provider": "PDFRAG_PROVIDER",
        }
        for field, var in names.items():
            raw = env.get(var, "").strip()
            if raw:
                values[field] = raw
        values["debug"] = debug_enabled(env)
        values["gemini_key_set"] = bool(env.get("GEMINI_API_KEY", "").strip())
        try:
            return cls.model_validate(values)
        except ValidationError as exc:
            problems = "; ".join(
                f"{names.get(str(err['loc'][0]), err['loc'][0])}: {err['msg']}" for err in exc.errors()
            )
            raise ConfigError(f"invalid environment setting ({problems})") from None


def debug_enabled(env: Mapping[str, str] | None = None) -> bool:
    env = os.environ if env is None else env
    return env.get("PDFRAG_DEBUG", "").strip().lower() in ("1", "true", "yes")


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
