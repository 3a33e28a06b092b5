"""LlmSettings: keys, endpoints, models and limits of the gemini provider, from the environment or the app.

Keys are `SecretStr`: they never appear in a repr, a log line, a record or a cache key.

The default models are ones the providers list as current on 2026-12-01 (sources in the README's
"The gemini provider" section); each is overridable, and every LLM run checks them against the
provider's `models.list` before its first call (`engine.llm.check`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError

from engine.settings import (
    DEFAULT_EMBED_MODEL, DEFAULT_GEMINI_MODEL, DEFAULT_MISTRAL_OCR_MODEL, DEFAULT_MISTRAL_VISION_MODEL, ConfigError,
    EnvSettings, Reader, Thinking, Tier, VisionPages,
)

__all__ = ["DEFAULT_EMBED_MODEL", "DEFAULT_GEMINI_MODEL", "DEFAULT_MISTRAL_OCR_MODEL", "DEFAULT_MISTRAL_VISION_MODEL",
           "ENV_FIELDS", "TIER_LIMITS", "LlmSettings", "LlmSettingsError", "Thinking", "Tier"]

# Client-side pacing per tier: requests/minute, input+output tokens/minute, requests in flight. Free: the
# free tier's published Flash limits (10 RPM, 250k TPM); paid: tier 1 (1,000 RPM, 1M TPM). A project's
# actual limits are shown in AI Studio; PDFRAG_LLM_RPM / _TPM / _CONCURRENCY override these.
TIER_LIMITS: dict[str, tuple[int, int, int]] = {"free": (10, 250_000, 2), "paid": (1_000, 1_000_000, 8)}

# The fields read from the environment: each has the same name in engine.settings.EnvSettings (page_workers
# is its `workers`).
ENV_FIELDS = (
    "gemini_api_key", "mistral_api_key", "gemini_base_url", "mistral_server_url", "gemini_model",
    "mistral_vision_model", "mistral_ocr_model", "embed_model", "reader", "vision_pages", "max_attempts",
    "backoff_s", "timeout_s", "tier", "rpm", "tpm", "concurrency", "max_wait_s", "thinking_read",
    "thinking_reformat", "thinking_extract", "thinking_agent", "temperature", "ocr_batch_pages",
)


class LlmSettingsError(ConfigError):
    """A bad LLM setting; the message names the variable, never a key value."""


class LlmSettings(BaseModel):
    """Every setting of the gemini provider, each with its environment variable and default."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    gemini_api_key: SecretStr | None = Field(default=None, description="GEMINI_API_KEY")
    mistral_api_key: SecretStr | None = Field(default=None, description="MISTRAL_API_KEY (RECITATION fallback, OCR)")
    gemini_base_url: str | None = Field(default=None, description="GEMINI_BASE_URL: a gateway, proxy or test server")
    mistral_server_url: str | None = Field(default=None, description="MISTRAL_SERVER_URL")
    gemini_model: str = Field(default=DEFAULT_GEMINI_MODEL, description="PDFRAG_GEMINI_MODEL")
    mistral_vision_model: str = Field(default=DEFAULT_MISTRAL_VISION_MODEL,
                                      description="PDFRAG_MISTRAL_VISION_MODEL: pages Gemini declines to recite")
    mistral_ocr_model: str = Field(default=DEFAULT_MISTRAL_OCR_MODEL, description="PDFRAG_MISTRAL_OCR_MODEL")
    embed_model: str = Field(default=DEFAULT_EMBED_MODEL, description="PDFRAG_EMBED_MODEL (checked when embedding)")
    reader: Reader = Field(
        default="gemini", description="PDFRAG_LLM_READER: per-page Gemini vision, or Mistral OCR in page batches")
    vision_pages: VisionPages = Field(
        default="all", description="PDFRAG_VISION_PAGES: every page, or only pages without a text layer")
    page_workers: int = Field(default=4, ge=1, le=64, description="pages of one document sent at once (--workers)")
    max_attempts: int = Field(default=5, ge=1, le=10, description="PDFRAG_LLM_ATTEMPTS: tries per call (5xx, 429)")
    backoff_s: float = Field(default=1.0, ge=0,
                             description="PDFRAG_LLM_BACKOFF: first retry delay (s); doubles each retry, with jitter")
    backoff_max_s: float = Field(default=30.0, ge=0, description="longest retry delay")
    timeout_s: float = Field(default=180.0, gt=0, description="PDFRAG_LLM_TIMEOUT: seconds per request")
    check_timeout_s: float = Field(default=10.0, gt=0, description="seconds per request of the models.list check")
    tier: Tier = Field(default="paid", description="PDFRAG_LLM_TIER: which default limits the pacer keeps to")
    rpm: int | None = Field(default=None, ge=1, description="PDFRAG_LLM_RPM: requests per minute (default: tier)")
    tpm: int | None = Field(default=None, ge=1, description="PDFRAG_LLM_TPM: tokens per minute (default: tier)")
    concurrency: int | None = Field(default=None, ge=1, le=256,
                                    description="PDFRAG_LLM_CONCURRENCY: requests in flight (default: tier)")
    pacer_share: int = Field(default=1, ge=1, le=256,
                             description="processes sharing these limits (the pipeline's document workers)")
    max_wait_s: float = Field(default=120.0, ge=0, description="PDFRAG_LLM_MAX_WAIT: longest server-asked wait (s)")
    rate_window_s: float = Field(default=60.0, gt=0, description="the window the per-minute limits count in (s)")
    thinking_read: Thinking = Field(default="off", description=(
        "PDFRAG_THINKING_READ: page transcription (off: none on Gemini 2.5, the lowest level, LOW, on Gemini 3)"))
    thinking_reformat: Thinking = Field(default="off", description="PDFRAG_THINKING_REFORMAT: heading repair")
    thinking_extract: Thinking = Field(default="default",
                                       description="PDFRAG_THINKING_EXTRACT: contents, deck sections, metadata")
    thinking_agent: Thinking = Field(default="default", description="PDFRAG_THINKING_AGENT: the answering agents")
    temperature: float | None = Field(default=None, ge=0, le=2, description=(
        "PDFRAG_LLM_TEMPERATURE: default 1.0 (left unset) for Gemini 3 models as Google advises, 0 for older ones"))
    ocr_batch_pages: int = Field(default=100, ge=1, le=1000,
                                 description="PDFRAG_OCR_BATCH_PAGES: pages per Mistral OCR request")
    ocr_batch_mb: float = Field(default=40.0, gt=0, description="largest Mistral OCR request (MB of PDF)")
    reformat_window_pages: int = Field(default=6, ge=1, description="pages per reformat call")
    reformat_min_recall: float = Field(default=0.97, ge=0, le=1,
                                       description="token recall below which a reformatted window is discarded")

    @property
    def gemini_key(self) -> str:
        return self.gemini_api_key.get_secret_value() if self.gemini_api_key else ""

    @property
    def mistral_key(self) -> str:
        return self.mistral_api_key.get_secret_value() if self.mistral_api_key else ""

    def secrets(self) -> list[str]:
        """The key values, for scrubbing messages."""
        return [key for key in (self.gemini_key, self.mistral_key) if key]

    def limits(self) -> tuple[int, int, int]:
        """(requests/minute, tokens/minute, in flight) of this process: the tier's or the overrides, divided
        among the `pacer_share` processes that share them (never below one request at a time)."""
        rpm, tpm, concurrency = TIER_LIMITS[self.tier]
        rpm, tpm, concurrency = self.rpm or rpm, self.tpm or tpm, self.concurrency or concurrency
        share = self.pacer_share
        return max(1, rpm // share), max(1, tpm // share), max(1, concurrency // share)

    def options_key(self) -> str:
        """What besides the model changes the read stage's output (part of its cache key)."""
        if self.reader == "mistral-ocr":
            return f"reader=mistral-ocr:{self.mistral_ocr_model}"
        return f"reader=gemini;pages={self.vision_pages};fallback={self.mistral_vision_model}"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> LlmSettings:
        """The environment's values (engine.settings); `overrides` (e.g. keys from the app's session) win."""
        try:
            environment = EnvSettings.from_env(env)
        except ConfigError as exc:
            raise LlmSettingsError(str(exc)) from None
        values: dict[str, Any] = {name: getattr(environment, name) for name in ENV_FIELDS
                                  if name in environment.model_fields_set}
        if environment.workers is not None:
            values["page_workers"] = environment.workers
        values.update({k: v for k, v in overrides.items() if v is not None})
        try:
            return cls.model_validate(values)
        except ValidationError as exc:
            problems = "; ".join(f"{_variable(str(e['loc'][0]))}: {e['msg']}" for e in exc.errors())
            raise LlmSettingsError(f"invalid LLM setting ({problems})") from None


def _variable(field: str) -> str:
    """The environment variable of an LlmSettings field, else the field's name."""
    name = "workers" if field == "page_workers" else field
    return EnvSettings.variable(name) if name in EnvSettings.model_fields else field
