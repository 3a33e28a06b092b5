"""LlmSettings: keys, endpoints, models and limits of the gemini provider, from the environment or the app.

Keys are `SecretStr`: they never appear in a repr, a log line, a record or a cache key.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError

DEFAULT_GEMINI_MODEL = "gemini-2.5-flash"
DEFAULT_MISTRAL_VISION_MODEL = "pixtral-large-latest"
DEFAULT_MISTRAL_OCR_MODEL = "mistral-ocr-latest"

ENV_NAMES: dict[str, str] = {
    "gemini_api_key": "GEMINI_API_KEY",
    "mistral_api_key": "MISTRAL_API_KEY",
    "gemini_base_url": "GEMINI_BASE_URL",
    "mistral_server_url": "MISTRAL_SERVER_URL",
    "gemini_model": "PDFRAG_GEMINI_MODEL",
    "mistral_vision_model": "PDFRAG_MISTRAL_VISION_MODEL",
    "mistral_ocr_model": "PDFRAG_MISTRAL_OCR_MODEL",
    "reader": "PDFRAG_LLM_READER",
    "vision_pages": "PDFRAG_VISION_PAGES",
    "page_workers": "PDFRAG_WORKERS",
    "max_attempts": "PDFRAG_LLM_ATTEMPTS",
    "backoff_s": "PDFRAG_LLM_BACKOFF",
    "timeout_s": "PDFRAG_LLM_TIMEOUT",
}


class LlmSettingsError(ValueError):
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
    reader: Literal["gemini", "mistral-ocr"] = Field(
        default="gemini", description="PDFRAG_LLM_READER: per-page Gemini vision, or Mistral OCR on the whole PDF")
    vision_pages: Literal["all", "needs_ocr"] = Field(
        default="all", description="PDFRAG_VISION_PAGES: every page, or only pages without a text layer")
    page_workers: int = Field(default=4, ge=1, le=64, description="pages transcribed at once (--workers)")
    max_attempts: int = Field(default=5, ge=1, le=10, description="PDFRAG_LLM_ATTEMPTS: tries per call (5xx, 429)")
    backoff_s: float = Field(default=1.0, ge=0,
                             description="PDFRAG_LLM_BACKOFF: first retry delay (s); doubles each retry, with jitter")
    backoff_max_s: float = Field(default=30.0, ge=0, description="longest retry delay")
    timeout_s: float = Field(default=180.0, gt=0, description="PDFRAG_LLM_TIMEOUT: seconds per request")
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

    def options_key(self) -> str:
        """What besides the model changes the read stage's output (part of its cache key)."""
        if self.reader == "mistral-ocr":
            return f"reader=mistral-ocr:{self.mistral_ocr_model}"
        return f"reader=gemini;pages={self.vision_pages};fallback={self.mistral_vision_model}"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> LlmSettings:
        """Read the variables of ENV_NAMES; `overrides` (e.g. keys from the app's session) win."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for field, var in ENV_NAMES.items():
            raw = env.get(var, "").strip()
            if raw:
                values[field] = raw
        values.update({k: v for k, v in overrides.items() if v is not None})
        try:
            return cls.model_validate(values)
        except ValidationError as exc:
            problems = "; ".join(f"{ENV_NAMES.get(str(e['loc'][0]), e['loc'][0])}: {e['msg']}" for e in exc.errors())
            raise LlmSettingsError(f"invalid LLM setting ({problems})") from None
