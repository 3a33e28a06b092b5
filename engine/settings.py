"""Every environment variable pdfrag reads, declared once (name, type, default, meaning) in one settings model.

`EnvSettings.from_env(env)` reads a mapping (default `os.environ`), so tests pass a dict instead of patching
the process environment. It is a plain pydantic model validated from the variables its fields name
(pydantic-settings, which did the same, cost every process about 0.1 s of imports: asyncio, ssl, its cloud
secret sources). The domain settings (`engine.config.Settings`, `engine.llm.settings.LlmSettings`, the app's
`AppConfig` and `SecurityPolicy`, the embedder) take their values from it; nothing else in engine/ or app/
reads the environment. Keys are `SecretStr`: never in a repr, a log line, an error or a file.
`python -m engine.settings` prints the README's Configuration table (tests/test_settings_doc.py checks it).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator
from pydantic.fields import FieldInfo
from pydantic.json_schema import JsonDict


class ConfigError(ValueError):
    """A setting or provider choice that cannot be honoured; the message is meant for the user."""


DEFAULT_DATA_DIR = Path("data/workspace")
# Models read 2026-12-01 (sources in the README's "The gemini provider" section); each is overridable.
DEFAULT_GEMINI_MODEL = "gemini-3.8-flash"  # stable since 2026-09-02, no shutdown date announced
DEFAULT_MISTRAL_VISION_MODEL = "mistral-medium-3.5"  # Mistral's named replacement of pixtral-large (retired 2026-05-31)
DEFAULT_MISTRAL_OCR_MODEL = "mistral-ocr-latest"
DEFAULT_EMBED_MODEL = "gemini-embedding-001"
DEFAULT_FRAME_ANCESTORS = ("'self'", "https://huggingface.co", "https://*.hf.space")  # the Space embeds the app

ProviderChoice = Literal["offline", "gemini", "auto"]
Thinking = Literal["default", "off", "low", "medium", "high"]
Tier = Literal["free", "paid"]
Reader = Literal["gemini", "mistral-ocr"]
VisionPages = Literal["all", "needs_ocr"]
Embeddings = Literal["none", "gemini"]
LogLevel = Literal["debug", "info", "warning", "error"]
Words = tuple[str, ...]  # a list in one variable, split by the field's validator (not parsed as JSON)


def _var(name: str, default: Any, what: str, *, shown: str | None = None, **constraints: Any) -> Any:
    """A field read from the environment variable `name`; `shown`: the default as the README states it,
    when the value itself (None) means "decided elsewhere"."""
    extra: JsonDict | None = {"shown_default": shown} if shown is not None else None
    return Field(default, validation_alias=name, description=what, json_schema_extra=extra, **constraints)


class EnvSettings(BaseModel):
    """The environment of one pdfrag process: every variable it reads, validated (one line per bad value)."""

    model_config = ConfigDict(extra="ignore", frozen=True, validate_by_name=True, validate_by_alias=True)

    # -- workspace and command line
    data_dir: Path = _var("PDFRAG_DATA_DIR", DEFAULT_DATA_DIR, "the workspace (`--data-dir` overrides it)")
    provider: ProviderChoice = _var("PDFRAG_PROVIDER", "offline",
                                    "the provider of `ingest` and `ask`; `auto`: gemini when `GEMINI_API_KEY` is set")
    workers: int | None = _var("PDFRAG_WORKERS", None,
                               "documents processed in parallel; with gemini also pages sent at once",
                               shown="min(4, CPUs); 4 pages with gemini", ge=1, le=64)
    doc_timeout: float | None = _var(
        "PDFRAG_DOC_TIMEOUT", None,
        "seconds one document of a batch may take before its worker is stopped (0: no limit)",
        shown="900 offline, none with gemini")
    max_upload_mb: int = _var("PDFRAG_MAX_UPLOAD_MB", 200, "largest PDF accepted, in MB (CLI and app; the app "
                              "refuses a larger upload while it streams and keeps nothing of it)", ge=1)
    debug: bool = _var("PDFRAG_DEBUG", False, "`1`: tracebacks on stderr", shown="off")
    log_level: LogLevel = _var("PDFRAG_LOG_LEVEL", "warning",
                               "what is logged on stderr (the command line's `-v` means info, `-vv` debug)")
    model_cache: Path | None = _var("PDFRAG_MODEL_CACHE", None, "folder for unpacked copies of the models that "
                                    "ship packed in packages (py3langid's: unpacked once, not in every ingest "
                                    "worker); unwritable: each process unpacks in memory",
                                    shown="`pdfrag/` under `$XDG_CACHE_HOME` or `~/.cache`")
    xdg_cache_home: Path | None = _var("XDG_CACHE_HOME", None, "the user's cache folder (where "
                                       "`PDFRAG_MODEL_CACHE` defaults to)", shown="`~/.cache`")
    corpus_cache_mb: int = _var("PDFRAG_CORPUS_CACHE_MB", 512, "memory (MB) the corpus indexes kept between "
                                "questions may take (least recently used dropped first; 0: none kept)", ge=0)
    # -- the workbench
    session_workspaces: bool = _var(
        "PDFRAG_SESSION_WORKSPACES", False, "`1`: the app gives every browser session a private temporary "
        "workspace, seeded with the processed samples (hosted mode, the Space)", shown="off")
    max_sessions: int = _var("PDFRAG_MAX_SESSIONS", 20, "hosted mode: sessions open at once; the next visitor "
                             "is told the workbench is full", ge=1)
    session_storage_mb: int = _var(
        "PDFRAG_SESSION_STORAGE_MB", 500, "hosted mode: MB one session may hold (its workspace files, uploads not "
        "yet processed, uploads under way); an upload past it is refused with a message", ge=1)
    render_timeout: float = _var("PDFRAG_RENDER_TIMEOUT", 20.0, "seconds one page image of the app may take to "
                                 "draw in its worker process (the page then says why)", ge=1)
    render_memory_mb: int = _var("PDFRAG_RENDER_MEMORY_MB", 1024,
                                 "address space (MB) of the worker process drawing the app's page images", ge=256)
    samples_dir: Path | None = _var("PDFRAG_SAMPLES_DIR", None,
                                    "the sample PDFs the app offers and seeds sessions with",
                                    shown="`data/samples` beside `app/`")
    allowed_origins: Words = _var(
        "PDFRAG_ALLOWED_ORIGINS", (), "origins besides the app's own that may call it (comma-separated, e.g. "
        "`https://example.org`); others get 403", shown="none")
    allowed_hosts: Words = _var(
        "PDFRAG_ALLOWED_HOSTS", (), "host names a loopback-bound `pdfrag serve` answers besides localhost, "
        "127.0.0.1 and ::1 (comma-separated; e.g. a name a local proxy forwards)", shown="none")
    frame_ancestors: Words = _var(
        "PDFRAG_FRAME_ANCESTORS", DEFAULT_FRAME_ANCESTORS,
        "who may embed the app in a frame (CSP `frame-ancestors` sources, space-separated)")
    # -- the gemini provider: keys, endpoints, models
    gemini_api_key: SecretStr | None = _var(
        "GEMINI_API_KEY", None, "the gemini provider's key (never written to the workspace, logs or errors; "
        "the app also takes keys per session)", shown="")
    mistral_api_key: SecretStr | None = _var(
        "MISTRAL_API_KEY", None, "Mistral's key: fallback for pages Gemini declines, OCR reader (never written)",
        shown="")
    gemini_base_url: str | None = _var("GEMINI_BASE_URL", None, "a gateway, proxy or test fake for Gemini",
                                       shown="the public API")
    mistral_server_url: str | None = _var("MISTRAL_SERVER_URL", None, "a gateway, proxy or test fake for Mistral",
                                          shown="the public API")
    gemini_model: str = _var("PDFRAG_GEMINI_MODEL", DEFAULT_GEMINI_MODEL,
                             "every Gemini call (part of the cache key); checked against the models list first")
    mistral_vision_model: str = _var("PDFRAG_MISTRAL_VISION_MODEL", DEFAULT_MISTRAL_VISION_MODEL,
                                     "pages Gemini declines to recite (RECITATION fallback)")
    mistral_ocr_model: str = _var("PDFRAG_MISTRAL_OCR_MODEL", DEFAULT_MISTRAL_OCR_MODEL,
                                  "the Mistral OCR reader (`PDFRAG_LLM_READER=mistral-ocr`)")
    reader: Reader = _var("PDFRAG_LLM_READER", "gemini",
                          "`mistral-ocr`: Mistral OCR in page batches instead of each page to Gemini")
    vision_pages: VisionPages = _var("PDFRAG_VISION_PAGES", "all",
                                     "`needs_ocr`: only pages without a text layer go to the model")
    # -- the gemini provider: retries and pacing
    max_attempts: int = _var("PDFRAG_LLM_ATTEMPTS", 5,
                             "tries of a call failing with 5xx or a transport error", ge=1, le=10)
    backoff_s: float = _var("PDFRAG_LLM_BACKOFF", 1.0,
                            "seconds before the first retry; doubles each retry, jittered", ge=0)
    timeout_s: float = _var("PDFRAG_LLM_TIMEOUT", 180.0, "seconds per LLM request", gt=0)
    tier: Tier = _var("PDFRAG_LLM_TIER", "paid", "the pacer's default limits: `free` 10 requests/min, 250,000 "
                      "tokens/min, 2 in flight (the free tier's Flash limits); `paid` 1,000, 1,000,000, 8 (tier 1)")
    rpm: int | None = _var("PDFRAG_LLM_RPM", None, "requests per minute, overriding the tier's (shared by the "
                           "process, divided among `--workers` processes)", shown="the tier's", ge=1)
    tpm: int | None = _var("PDFRAG_LLM_TPM", None, "tokens per minute, overriding the tier's", shown="the tier's",
                           ge=1)
    concurrency: int | None = _var("PDFRAG_LLM_CONCURRENCY", None, "requests in flight, overriding the tier's",
                                   shown="the tier's", ge=1, le=256)
    max_wait_s: float = _var("PDFRAG_LLM_MAX_WAIT", 120.0, "longest 429 delay (s) waited out; a longer one (a "
                             "daily quota) fails the call", ge=0)
    # -- the gemini provider: generation
    thinking_read: Thinking = _var("PDFRAG_THINKING_READ", "off", "thinking of page transcription (`default`: the "
                                   "model's own)")
    thinking_reformat: Thinking = _var("PDFRAG_THINKING_REFORMAT", "off", "thinking of heading repair (as above)")
    thinking_extract: Thinking = _var("PDFRAG_THINKING_EXTRACT", "default",
                                      "thinking of contents, deck sections and metadata (as above)")
    thinking_agent: Thinking = _var("PDFRAG_THINKING_AGENT", "default", "thinking of the answering agents")
    temperature: float | None = _var("PDFRAG_LLM_TEMPERATURE", None, "sampling temperature; unset: none sent to "
                                     "Gemini 3 models (their default 1.0), 0 to older ones", shown="unset",
                                     ge=0, le=2)
    ocr_batch_pages: int = _var("PDFRAG_OCR_BATCH_PAGES", 100, "pages per Mistral OCR request", ge=1, le=1000)
    embeddings: Embeddings = _var("PDFRAG_EMBEDDINGS", "none", "`gemini` (with `GEMINI_API_KEY`, or a key entered "
                                  "in the app's Settings) enables the `vector` retrieval method")
    embed_model: str = _var("PDFRAG_EMBED_MODEL", DEFAULT_EMBED_MODEL, "the embedding model")
    ssl_cert_file: Path | None = _var("SSL_CERT_FILE", None, "CA certificates for the LLM clients (e.g. behind a "
                                      "TLS-inspecting proxy)", shown="certifi's bundle")
    ssl_cert_dir: Path | None = _var("SSL_CERT_DIR", None, "a folder of CA certificates for the LLM clients",
                                     shown="none")

    @field_validator("provider", "reader", "vision_pages", "tier", "thinking_read", "thinking_reformat",
                     "thinking_extract", "thinking_agent", "embeddings", "log_level", mode="before")
    @classmethod
    def _lower(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("allowed_origins", "allowed_hosts", mode="before")
    @classmethod
    def _split(cls, value: Any) -> Any:
        return tuple(part for part in re.split(r"[\s,]+", value) if part) if isinstance(value, str) else value

    @field_validator("frame_ancestors", mode="before")
    @classmethod
    def _split_spaces(cls, value: Any) -> Any:  # a comma is no CSP syntax: left in, the app refuses the value
        return tuple(value.split()) if isinstance(value, str) else value

    @property
    def gemini_key(self) -> str:
        return self.gemini_api_key.get_secret_value() if self.gemini_api_key else ""

    @property
    def gemini_key_set(self) -> bool:
        return bool(self.gemini_key)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> EnvSettings:
        """The settings of `env` (default: the process environment); ConfigError naming every bad variable.

        Only the variables the fields name are read (names are case-sensitive); values are stripped, and a
        variable set to nothing counts as unset."""
        source = os.environ if env is None else env
        values = {}
        for info in cls.model_fields.values():
            name = str(info.validation_alias)
            value = source.get(name)
            if isinstance(value, str) and value.strip():
                values[name] = value.strip()
        try:
            return cls.model_validate(values)
        except ValidationError as exc:
            problems = "; ".join(_problem(cls, err) for err in exc.errors())
            raise ConfigError(f"invalid environment setting ({problems})") from None

    @classmethod
    def variable(cls, field: str) -> str:
        """The environment variable of a field."""
        return str(cls.model_fields[field].validation_alias)


_SECRETS = {"GEMINI_API_KEY", "MISTRAL_API_KEY"}


def _problem(cls: type[EnvSettings], err: Any) -> str:
    """One bad value in a few words, with its variable (never a key's value)."""
    name = str(err["loc"][0]) if err["loc"] else "?"
    if name in cls.model_fields:
        name = cls.variable(name)
    raw, ctx, kind = err.get("input"), err.get("ctx") or {}, err["type"]
    shown = "the value" if name in _SECRETS else repr(raw)
    if kind == "int_parsing" or kind == "int_from_float":
        return f"{name}: {shown} is not a whole number"
    if kind == "float_parsing":
        return f"{name}: {shown} is not a number"
    if kind == "bool_parsing":
        return f"{name}: {shown} is not 1 or 0 (true/false, yes/no, on/off)"
    if kind == "literal_error":
        return f"{name}: {shown} is not one of {ctx.get('expected', '?')}"
    bounds = {"greater_than_equal": ("at least", "ge"), "less_than_equal": ("at most", "le"),
              "greater_than": ("above", "gt"), "less_than": ("below", "lt")}
    if kind in bounds:
        words, key = bounds[kind]
        return f"{name}: {words} {ctx.get(key)}, not {shown}"
    return f"{name}: {err['msg']}"


# -- the README's table ----------------------------------------------------------------------------------


def shown_default(info: FieldInfo) -> str:
    """A field's default as the README states it."""
    extra = info.json_schema_extra
    if isinstance(extra, dict) and "shown_default" in extra:
        return str(extra["shown_default"])
    value = info.default
    if isinstance(value, tuple):
        value = " ".join(value)
    if isinstance(value, bool):
        value = "on" if value else "off"
    return f"`{value}`" if isinstance(value, str | Path) else f"{value:g}" if isinstance(value, float) else str(value)


def type_name(info: FieldInfo) -> str:
    """A field's type in a few words (a choice lists its values)."""
    choices = get_args(info.annotation) if get_origin(info.annotation) is Literal else ()
    if choices:
        return ", ".join(f"`{choice}`" for choice in choices)
    annotation = str(info.annotation)
    for pattern, name in (("SecretStr", "secret"), ("Literal", "choice"), ("tuple", "list"), ("bool", "bool"),
                          ("int", "integer"), ("float", "number"), ("Path", "path"), ("str", "text")):
        if pattern in annotation:
            return name
    return annotation


def markdown_table() -> str:
    """The Configuration table of the README: one row per variable."""
    rows = ["| variable | type | default | what |", "| --- | --- | --- | --- |"]
    for info in EnvSettings.model_fields.values():
        rows.append(f"| `{info.validation_alias}` | {type_name(info)} | {shown_default(info)} | {info.description} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(markdown_table())
