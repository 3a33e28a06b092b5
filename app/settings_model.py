"""What the Settings page hands the other pages: this session's choices (keys kept in memory only)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class SessionSettings:
    provider: str = "offline"
    workers: int = 1
    model: str = ""  # the gemini model for the pipeline stages ("" = the engine's default)
    method: str = "hybrid"  # retrieval method for Chat
    k: int = 5
    api_keys: dict[str, str] = field(default_factory=dict, repr=False)  # never logged, never written

    def llm_settings(self):
        """The engine's LlmSettings for the gemini provider: the environment, overridden by this session's
        keys and model (kept in memory; they reach the ingest process through a pipe, never a file)."""
        if self.provider != "gemini":
            return None
        from engine.llm.settings import LlmSettings

        return LlmSettings.from_env(gemini_api_key=self.api_keys.get("gemini"),
                                    mistral_api_key=self.api_keys.get("mistral"),
                                    gemini_model=self.model or None, page_workers=self.workers)

    def __repr__(self) -> str:  # keys stay out of logs and tracebacks
        keys = ", ".join(f"{name}=***" for name, value in self.api_keys.items() if value)
        return (f"SessionSettings(provider={self.provider!r}, workers={self.workers}, model={self.model!r}, "
                f"method={self.method!r}, k={self.k}, api_keys=[{keys}])")
