"""LLM plumbing shared by the gemini stages: settings, clients, retries, prompts and usage accounting.

Importing this package imports no SDK: google-genai and mistralai load when a client is first made.
The app builds `LlmSettings` from its session's keys and passes them to `Pipeline(..., llm=settings)`.
"""

from engine.llm.clients import LlmClients, LlmSession, run_sync
from engine.llm.errors import LlmError
from engine.llm.reply import LlmReply
from engine.llm.settings import LlmSettings, LlmSettingsError
from engine.llm.usage import Usage

__all__ = ["LlmClients", "LlmError", "LlmReply", "LlmSession", "LlmSettings", "LlmSettingsError", "Usage",
           "run_sync"]
