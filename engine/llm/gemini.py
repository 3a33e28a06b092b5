"""GeminiClient: async generateContent calls through google-genai, paced, retried and counted.

Every call goes through the process's pacer (`engine.llm.pacer`), is retried per the policy (a 429 waits
exactly what the server's RetryInfo asks), and adds its tokens to the run's usage, thinking tokens
included (billed as output). Thinking and temperature follow the model's family (`model_config`).
"""

from __future__ import annotations

import ssl
from collections.abc import Awaitable, Callable
from functools import cache
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from engine.llm.errors import (
    RETRYABLE_STATUS, LlmError, error_reason, is_transport_error, retry_after_header, retry_info_delay,
    scrub,
)
from engine.llm.model_config import generation_options, temperature_for
from engine.llm.pacer import Pacer, pacer_for
from engine.llm.reply import LlmReply
from engine.llm.retry import RetryPolicy, paced_call, unpaced_call
from engine.llm.settings import LlmSettings
from engine.llm.usage import Usage

M = TypeVar("M", bound=BaseModel)
DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com"
INLINE_TOKENS = 258  # what Gemini counts for one PDF page or image at default resolution


@cache
def tls_context() -> ssl.SSLContext:
    """The TLS context of every client of this process: SSL_CERT_FILE / SSL_CERT_DIR, else certifi's bundle."""
    import certifi

    from engine.settings import EnvSettings

    env = EnvSettings.from_env()
    return ssl.create_default_context(cafile=env.ssl_cert_file or certifi.where(), capath=env.ssl_cert_dir)


def policy_for(settings: LlmSettings) -> RetryPolicy:
    return RetryPolicy(settings.max_attempts, settings.backoff_s, settings.backoff_max_s,
                       max_wait_s=settings.max_wait_s)


class GeminiClient:
    """One google-genai async client bound to the running event loop; `aclose()` releases it."""

    def __init__(self, settings: LlmSettings, usage: Usage, policy: RetryPolicy | None = None,
                 pacer: Pacer | None = None) -> None:
        from google import genai
        from google.genai import types

        if not settings.gemini_key:
            raise LlmError("the gemini provider needs GEMINI_API_KEY (or a key in the app's settings)")
        self.settings, self.usage = settings, usage
        self.model = settings.gemini_model
        self.policy = policy or policy_for(settings)
        self.pacer = pacer or pacer_for("gemini", settings.gemini_base_url or DEFAULT_BASE_URL, settings.gemini_key,
                                        settings.limits(), settings.rate_window_s)
        self._types = types
        # one TLS context per process ("ssl" is the SDK's key for its websocket/aiohttp context): otherwise every
        # client loads the CA bundle twice, about 70 ms. Retries are ours (paced, RetryInfo-aware): the SDK's
        # own, including its silent retry of aiohttp connection errors, are switched off with attempts=1.
        tls = tls_context()
        options = types.HttpOptions(base_url=settings.gemini_base_url or None, api_version="v1beta",
                                    timeout=int(settings.timeout_s * 1000), client_args={"verify": tls},
                                    async_client_args={"verify": tls, "ssl": tls},
                                    retry_options=types.HttpRetryOptions(attempts=1))
        self._client = genai.Client(api_key=settings.gemini_key, vertexai=False, http_options=options).aio

    async def aclose(self) -> None:
        await self._client.aclose()

    def pdf_part(self, data: bytes) -> Any:
        return self._types.Part.from_bytes(data=data, mime_type="application/pdf")

    def config(self, purpose: str, **fields: Any) -> Any:
        """A GenerateContentConfig with this purpose's thinking level and the model's temperature."""
        thinking = getattr(self.settings, f"thinking_{purpose}", "default")
        options = generation_options(self.model, thinking)
        temperature = temperature_for(self.model, self.settings.temperature)
        thinking_config = self._types.ThinkingConfig(**options) if options else None
        return self._types.GenerateContentConfig(temperature=temperature, thinking_config=thinking_config, **fields)

    async def paced(self, make: Callable[[], Awaitable[Any]], estimate: int,
                    cost: Callable[[Any], int] | None = None, model: str | None = None) -> Any:
        """`make()` under the pacer and the retry policy, each attempt counted as a call."""

        return await paced_call(make, pacer=self.pacer, usage=self.usage, policy=self.policy, to_error=self._error,
                                estimate=estimate, cost=cost, label=f"gemini:{model or self.model}")

    async def generate_content(self, contents: list[Any], config: Any, model: str | None = None) -> Any:
        """The raw generateContent response (paced, retried per the policy)."""
        estimate = estimate_tokens(contents) + estimate_tokens([getattr(config, "system_instruction", None)])
        return await self.paced(
            lambda: self._client.models.generate_content(model=model or self.model, contents=contents, config=config),
            estimate, response_tokens, model=model)

    async def generate(self, contents: list[Any], *, system: str | None = None,
                       schema: type[BaseModel] | None = None, max_output_tokens: int | None = None,
                       purpose: str = "extract") -> LlmReply:
        """One generateContent call (retried on 5xx, 429 and transport errors); any finish reason is returned."""
        config = self.config(purpose, system_instruction=system, max_output_tokens=max_output_tokens,
                             response_mime_type="application/json" if schema else None, response_schema=schema)
        response = await self.generate_content(contents, config)
        reply = _reply(response)
        self.usage.add(input_tokens=reply.input_tokens, output_tokens=reply.output_tokens + reply.thought_tokens,
                       thought_tokens=reply.thought_tokens)
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

    async def embed(self, texts: list[str], *, task_type: str, dimensions: int) -> list[list[float]]:
        """One embed_content call for `texts` with the settings' embedding model (paced, retried)."""
        config = self._types.EmbedContentConfig(task_type=task_type, output_dimensionality=dimensions)
        response = await self.paced(
            # list[str] is one of the forms the SDK takes; mypy misses it (its union's list types are invariant)
            lambda: self._client.models.embed_content(
                model=self.settings.embed_model, contents=texts, config=config),  # type: ignore[arg-type]
            estimate_tokens(texts), model=self.settings.embed_model)
        self.usage.add(input_tokens=estimate_tokens(texts))
        return [list(embedding.values or []) for embedding in response.embeddings or []]

    async def unpaced(self, make: Callable[[], Awaitable[Any]]) -> Any:
        """A models call: retried, but not paced (the per-minute quotas count generation, not listing)."""
        return await unpaced_call(make, policy=self.policy, to_error=self._error, label="gemini:models")

    async def list_models(self) -> list[str]:
        """The model names (without `models/`) this key may use: GET models, every page."""

        async def listing() -> list[str]:
            pager = await self._client.models.list(config={"page_size": 1000})
            return [str(model.name or "").removeprefix("models/") async for model in pager]

        return await self.unpaced(listing)

    async def has_model(self, model: str) -> bool:
        """GET models/{model}: False when the API does not know it (404)."""
        try:
            await self.unpaced(lambda: self._client.models.get(model=model))
        except LlmError as exc:
            if exc.status in (400, 404):
                return False
            raise
        return True

    async def model_info(self) -> dict[str, Any]:
        """GET models/{model}: checks the key and the model name."""
        model = await self.unpaced(lambda: self._client.models.get(model=self.model))
        return model.model_dump(mode="json", exclude_none=True)

    def _error(self, exc: Exception) -> LlmError:
        from google.genai import errors

        secrets = self.settings.secrets()
        if isinstance(exc, errors.APIError):
            status = int(exc.code) if exc.code else None
            detail = scrub(str(exc.message or exc.status or ""), secrets)
            reason = error_reason(exc.details)
            if reason and reason not in detail:
                detail = f"{detail} [{reason}]"
            delay = retry_info_delay(exc.details)
            if delay is None:
                delay = retry_after_header(getattr(getattr(exc, "response", None), "headers", None))
            return LlmError(f"Gemini HTTP {status}: {detail}", status=status,
                            retryable=status in RETRYABLE_STATUS or (status or 0) >= 500, retry_after=delay)
        if is_transport_error(exc):
            return LlmError(f"Gemini unreachable: {type(exc).__name__}: {scrub(str(exc), secrets)}", retryable=True)
        return LlmError(f"Gemini call failed: {type(exc).__name__}: {scrub(str(exc), secrets)}")


def estimate_tokens(contents: list[Any]) -> int:
    """About how many input tokens `contents` cost: 4 characters a token, 258 per inline page or image."""
    total = 0
    stack = list(contents)
    while stack:
        item = stack.pop()
        if item is None:
            continue
        if isinstance(item, str):
            total += len(item) // 4 + 1
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif getattr(item, "inline_data", None) is not None:
            total += INLINE_TOKENS
        elif getattr(item, "parts", None) is not None:
            stack.extend(item.parts)
        elif getattr(item, "text", None):
            total += len(item.text) // 4 + 1
        elif getattr(item, "function_response", None) is not None or getattr(item, "function_call", None) is not None:
            total += len(str(item.function_response or item.function_call)) // 4 + 1
    return total


def response_tokens(response: Any) -> int:
    """Input, output and thinking tokens of a response (what the pacer's tokens/minute counts)."""
    usage = getattr(response, "usage_metadata", None)
    if usage is None:
        return 0
    return sum((getattr(usage, name, 0) or 0) for name in
               ("prompt_token_count", "candidates_token_count", "thoughts_token_count"))


def _reply(response: Any) -> LlmReply:
    """Text, finish reason and token counts of a GenerateContentResponse (no candidate: BLOCKED)."""
    usage = response.usage_metadata
    input_tokens = (usage.prompt_token_count or 0) if usage else 0
    output_tokens = (usage.candidates_token_count or 0) if usage else 0
    thought_tokens = (usage.thoughts_token_count or 0) if usage else 0
    if not response.candidates:
        feedback = response.prompt_feedback
        reason = str(getattr(feedback.block_reason, "value", feedback.block_reason)) if feedback else "no candidate"
        return LlmReply(text="", finish_reason=f"BLOCKED:{reason}", input_tokens=input_tokens,
                        output_tokens=output_tokens, thought_tokens=thought_tokens)
    candidate = response.candidates[0]
    reason = candidate.finish_reason
    finish = str(getattr(reason, "value", reason) or "STOP")
    parts = candidate.content.parts if candidate.content and candidate.content.parts else []
    text = "".join(part.text for part in parts if part.text and not part.thought)
    calls = [part.function_call.model_dump(mode="json", exclude_none=True) for part in parts if part.function_call]
    return LlmReply(text=text, finish_reason=finish, input_tokens=input_tokens, output_tokens=output_tokens,
                    thought_tokens=thought_tokens, function_calls=calls)
