"""The app's settings, read once at start from the engine's settings model (the PDFRAG_* variables)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from engine.config import AVAILABLE_PROVIDERS, Settings
from engine.settings import EnvSettings

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class AppConfig:
    """Process-wide, read-only settings of one running workbench."""

    data_dir: Path
    samples_dir: Path
    session_workspaces: bool = False  # PDFRAG_SESSION_WORKSPACES=1: a private workspace per browser session
    max_upload_mb: int = 200
    workers: int = 2
    provider: str = "offline"
    max_sessions: int = 20  # PDFRAG_MAX_SESSIONS: hosted mode, sessions open at once
    session_storage_mb: int = 500  # PDFRAG_SESSION_STORAGE_MB: hosted mode, one session's workspace and uploads
    render_timeout_s: float = 20.0  # PDFRAG_RENDER_TIMEOUT: one page image, then its render process is killed
    render_memory_mb: int = 1024  # PDFRAG_RENDER_MEMORY_MB: address space of one render process
    bind_host: str | None = None  # set by `pdfrag serve`: bound to loopback, only loopback Host names are served

    @property
    def max_upload_bytes(self) -> int:
        return self.max_upload_mb * 1024 * 1024

    @property
    def session_storage_bytes(self) -> int:
        return self.session_storage_mb * 1024 * 1024

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, data_dir: Path | None = None) -> AppConfig:
        """From the environment (or `env`), read through the engine's settings model; ConfigError on bad values."""
        environment = EnvSettings.from_env(env)
        settings = Settings.of(environment)
        return cls(
            data_dir=Path(data_dir or settings.data_dir),
            samples_dir=environment.samples_dir or REPO / "data" / "samples",
            session_workspaces=environment.session_workspaces,
            max_upload_mb=settings.max_upload_mb,
            workers=settings.workers,
            provider=settings.provider if settings.provider != "auto" else "offline",
            max_sessions=environment.max_sessions,
            session_storage_mb=environment.session_storage_mb,
            render_timeout_s=environment.render_timeout,
            render_memory_mb=environment.render_memory_mb,
        )


def available_providers() -> list[str]:
    """Provider names this build of the engine can run, offline first (the engine decides)."""
    order = {"offline": 0, "gemini": 1, "mistral": 2}
    return sorted((p.value for p in AVAILABLE_PROVIDERS), key=lambda name: order.get(name, 9))


def key_fields() -> dict[str, str]:
    """The API keys the available providers can use: field name -> label (none for offline only)."""
    if "gemini" not in available_providers():
        return {}
    return {"gemini": "GEMINI_API_KEY (for the gemini provider)",
            "mistral": "MISTRAL_API_KEY (optional: fallback for pages Gemini declines, OCR)"}
