"""What the Settings page hands the other pages: this session's choices (keys kept in memory only)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

METHOD_LABELS = {
    "hybrid": "hybrid (keywords, structure and, when on, vectors, fused; best sentence re-read)",
    "bm25": "bm25 (keywords in paragraphs, lists and table rows)",
    "vector": "vector (Gemini embeddings)",
    "agent": "agent (Gemini answering agents)",
}
OFFLINE_METHODS = ("hybrid", "bm25")


def available_methods(provider: str, *, gemini_key: bool, embeddings: str = "",
                      gemini_in_build: bool = True) -> dict[str, str]:
    """The Chat retrieval methods this configuration can run, method -> label.

    Offline: hybrid and bm25. `vector` needs embeddings switched on (PDFRAG_EMBEDDINGS=gemini) and a
    Gemini key (the environment's or this session's); `agent` needs the gemini provider in this build and a
    key. With the gemini provider selected Chat is answered by the agents (engine.agent.ask), so that is all
    it offers."""
    if provider == "gemini" and gemini_in_build:
        return {"agent": METHOD_LABELS["agent"]}
    methods = list(OFFLINE_METHODS)
    if embeddings.strip().lower() == "gemini" and gemini_key:
        methods.append("vector")
    if gemini_in_build and gemini_key:
        methods.append("agent")
    return {m: METHOD_LABELS[m] for m in methods}


def embeddings_setting(env: Mapping[str, str] | None = None) -> str:
    """PDFRAG_EMBEDDINGS as the engine reads it ("none" or "gemini")."""
    from engine.settings import EnvSettings

    return EnvSettings.from_env(env).embeddings


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
