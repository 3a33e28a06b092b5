"""LLM plumbing shared by the gemini stages: settings, clients, retries, prompts and usage accounting.

Importing this package imports no SDK and no client code: names load on first use (PEP 562), so the offline
path (`engine.llm.usage` from the pipeline) stays cheap. The app builds `LlmSettings` from its session's keys
and passes them to `Pipeline(..., llm=settings)`.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # `X as X`: an explicit re-export, for the type checker (the names load lazily below)
    from engine.llm.clients import LlmClients as LlmClients, LlmSession as LlmSession, run_sync as run_sync
    from engine.llm.errors import LlmError as LlmError
    from engine.llm.reply import LlmReply as LlmReply
    from engine.llm.settings import LlmSettings as LlmSettings, LlmSettingsError as LlmSettingsError
    from engine.llm.usage import Usage as Usage

_WHERE = {
    "LlmClients": "clients", "LlmSession": "clients", "run_sync": "clients", "LlmError": "errors",
    "LlmReply": "reply", "LlmSettings": "settings", "LlmSettingsError": "settings", "Usage": "usage",
}
__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'engine.llm' has no attribute {name!r}")
    return getattr(import_module(f"engine.llm.{_WHERE[name]}"), name)
