"""What the Settings page hands the other pages: this session's choices (keys kept in memory only)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class SessionSettings:
    provider: str = "offline"
    workers: int = 1
    model: str = ""  # the provider's model for the pipeline stages ("" = the engine's default)
    chat_model: str = ""
    method: str = "hybrid"  # retrieval method for Chat
    k: int = 5
    api_keys: dict[str, str] = field(default_factory=dict, repr=False)  # never logged, never written

    def __repr__(self) -> str:  # keys stay out of logs and tracebacks
        keys = ", ".join(f"{name}=***" for name, value in self.api_keys.items() if value)
        return (f"SessionSettings(provider={self.provider!r}, workers={self.workers}, model={self.model!r}, "
                f"chat_model={self.chat_model!r}, method={self.method!r}, k={self.k}, api_keys=[{keys}])")
