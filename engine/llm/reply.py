"""LlmReply: what one model call returned, whatever the provider."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class LlmReply(BaseModel):
    """The answer text, the finish reason in Gemini's upper-case spelling, and the tokens it cost."""

    model_config = ConfigDict(extra="forbid")

    text: str
    finish_reason: str = "STOP"
    input_tokens: int = 0
    output_tokens: int = 0
    thought_tokens: int = 0  # thinking tokens (billed as output; not included in output_tokens here)
    function_calls: list[dict[str, Any]] = Field(default_factory=list)


class LlmAnswer(BaseModel):
    """Base of the structured-output schemas sent as `response_schema`.

    Unknown fields are ignored rather than rejected: the schema then stays within what Gemini accepts
    (no `additionalProperties`), and the answer is checked field by field after parsing.
    """

    model_config = ConfigDict(extra="ignore")
