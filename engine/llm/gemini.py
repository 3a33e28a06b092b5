"""GeminiClient: async generateContent calls through google-genai, with bounded retries and usage counted."""

from __future__ import annotations

import os
import ssl
from functools import cache
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from engine.llm.errors import RETRYABLE_STATUS, LlmError, is_retryable, is_transport_error, scrub
from engine.llm.reply import LlmReply
from engine.llm.retry import RetryPolicy, with_retries
from engine.llm.settings import LlmSettings
from engine.llm.usage import Usage

M = TypeVar("M", bound=BaseModel)


@cache
def tls_context() -> ssl.SSLContext:
    """The TLS context of every client of this process: SSL_CERT_FILE / SSL_CERT_DIR, else certifi's bundle."""
    import certifi

    return ssl.create_default_context(cafile=os.environ.get("SSL_CERT_FILE") or certifi.where(),
                                      capath=os.environ.get("SSL_CERT_DIR"))


class GeminiClient:
    """One google-genai async client bound to the running event loop; `aclose()` releases it."""

    def __init__(self, settings: LlmSettings, usage: Usage, policy: RetryPolicy | None = None) -> None:
        from google import genai
        from google.genai import types

        if not settings.gemini_key:
            raise LlmError("the gemini provider needs GEMINI_API_KEY (or a key in the app's settings)")
        self.settings, self.usage = settings, usage
        self.model = settings.gemini_model
        self.policy = policy or RetryPolicy(settings.max_attempts, settings.backoff_s, settings.backoff_max_s)
        self._types = types
        # one TLS context per process ("ssl" is the SDK's key for its websocket/aiohttp context): otherwise every
        # client loads the CA bundle twice, about 70 ms
        tls = tls_context()
        options = types.HttpOptions(base_url=settings.gemini_base_url or None, api_version="v1beta",
                                    timeout=int(settings.timeout_s * 1000), client_args={"verify": tls},
                                    async_client_args={"verify": tls, "ssl": tls})
        self._client = genai.Client(api_key=settings.gemini_key, vertexai=False, http_options=options).aio

    async def aclose(self) -> None:
        await self._client.aclose()

    def pdf_part(self, data: bytes) -> Any:
        return self._types.Part.from_bytes(data=data, mime_type="application/pdf")

    async def generate_content(self, contents: list[Any], config: Any) -> Any:
        """The raw generateContent response, each attempt counted as a call and retried per the policy."""

        async def call() -> Any:
            self.usage.add(calls=1)
            try:
                return await self._client.models.generate_content(model=self.model, contents=contents, config=config)
            except Exception as exc:
                raise self._error(exc) from None

        return await with_retries(call, self.policy, is_retryable, lambda exc: self.usage.add(retries=1))

    async def generate(self, contents: list[Any], *, system: str | None = None,
                       schema: type[BaseModel] | None = None, max_output_tokens: int | None = None) -> LlmReply:
        """One generateContent call (retried on 5xx, 429 and transport errors); any finish reason is returned."""
        types = self._types
        config = types.GenerateContentConfig(
            system_instruction=system, temperature=0.0, max_output_tokens=max_output_tokens,
            response_mime_type="application/json" if schema else None, response_schema=schema,
        )
        response = await self.generate_content(contents, config)
        reply = _reply(response)
        self.usage.add(input_tokens=reply.input_tokens, output_tokens=reply.output_tokens)
        return reply

    async def generate_json(self, contents: list[Any], schema: type[M], *, system: str | None = None) -> M:
        """Structured output: `schema` (a pydantic model) as the response schema, the answer validated by it."""
        reply = await self.generate(contents, system=system, schema=schema)
        if reply.finish_reason != "STOP":
            raise LlmError(f"Gemini stopped with {reply.finish_reason}")
        try:
            return schema.model_validate_json(reply.text)
        except ValidationError as exc:
            raise LlmError(f"Gemini's answer does not match {schema.__name__}: {exc.error_count()} error(s)") from None

    async def model_info(self) -> dict[str, Any]:
        """GET models/{model}: checks the key and the model name (for the app's settings page)."""
        try:
            model = await self._client.models.get(model=self.model)
        except Exception as exc:
            raise self._error(exc) from None
        return model.model_dump(mode="json", exclude_none=True)

    def _error(self, exc: Exception) -> LlmError:
        from google.genai import errors

        secrets = self.settings.secrets()
        if isinstance(exc, errors.APIError):
            status = int(exc.code) if exc.code else None
            detail = scrub(str(exc.message or exc.status or ""), secrets)
            return LlmError(f"Gemini HTTP {status}: {detail}", status=status,
                            retryable=status in RETRYABLE_STATUS or (status or 0) >= 500)
        if is_transport_error(exc):
            return LlmError(f"Gemini unreachable: {type(exc).__name__}: {scrub(str(exc), secrets)}", retryable=True)
        return LlmError(f"Gemini call failed: {type(exc).__name__}: {scrub(str(exc), secrets)}")


def _reply(response: Any) -> LlmReply:
    """Text, finish reason and token counts of a GenerateContentResponse (no candidate: BLOCKED)."""
    usage = response.usage_metadata
    input_tokens = (usage.prompt_token_count or 0) if usage else 0
    output_tokens = (usage.candidates_token_count or 0) if usage else 0
    if not response.candidates:
        feedback = response.prompt_feedback
        reason = str(getattr(feedback.block_reason, "value", feedback.block_reason)) if feedback else "no candidate"
        return LlmReply(text="", finish_reason=f"BLOCKED:{reason}", input_tokens=input_tokens,
                        output_tokens=output_tokens)
    candidate = response.candidates[0]
    reason = candidate.finish_reason
    finish = str(getattr(reason, "value", reason) or "STOP")
    parts = candidate.content.parts if candidate.content and candidate.content.parts else []
    text = "".join(part.text for part in parts if part.text and not part.thought)
    calls = [part.function_call.model_dump(mode="json", exclude_none=True) for part in parts if part.function_call]
    return LlmReply(text=text, finish_reason=finish, input_tokens=input_tokens, output_tokens=output_tokens,
                    function_calls=calls)
