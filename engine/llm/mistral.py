"""MistralClient: async chat-with-image (pixtral) and OCR calls through mistralai, with bounded retries."""

from __future__ import annotations

import base64
from typing import Any

from engine.llm.errors import RETRYABLE_STATUS, LlmError, is_retryable, is_transport_error, scrub
from engine.llm.reply import LlmReply
from engine.llm.retry import RetryPolicy, with_retries
from engine.llm.settings import LlmSettings
from engine.llm.usage import Usage

FINISH = {"stop": "STOP", "length": "MAX_TOKENS", "model_length": "MAX_TOKENS", "error": "OTHER"}


class MistralClient:
    """One mistralai SDK instance for the running event loop; `aclose()` releases its HTTP client."""

    def __init__(self, settings: LlmSettings, usage: Usage, policy: RetryPolicy | None = None) -> None:
        from mistralai.client import Mistral

        if not settings.mistral_key:
            raise LlmError("no MISTRAL_API_KEY: the Mistral fallback and OCR reader are not available")
        self.settings, self.usage = settings, usage
        self.policy = policy or RetryPolicy(settings.max_attempts, settings.backoff_s, settings.backoff_max_s)
        self._sdk = Mistral(api_key=settings.mistral_key, server_url=settings.mistral_server_url or None,
                            timeout_ms=int(settings.timeout_s * 1000))

    async def aclose(self) -> None:
        await self._sdk.__aexit__(None, None, None)

    async def chat_image(self, prompt: str, png: bytes) -> LlmReply:
        """The vision model's answer to `prompt` about one PNG image."""
        image = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
        messages = [{"role": "user", "content": [{"type": "text", "text": prompt},
                                                 {"type": "image_url", "image_url": image}]}]
        response = await self._call(lambda: self._sdk.chat.complete_async(
            model=self.settings.mistral_vision_model, messages=messages, temperature=0.0))
        choice = response.choices[0]
        content = choice.message.content if choice.message else ""
        if isinstance(content, list):
            content = "".join(getattr(chunk, "text", "") or "" for chunk in content)
        usage = response.usage
        reason = str(choice.finish_reason)
        reply = LlmReply(text=content or "", finish_reason=FINISH.get(reason, reason.upper()),
                         input_tokens=usage.prompt_tokens or 0, output_tokens=usage.completion_tokens or 0)
        self.usage.add(input_tokens=reply.input_tokens, output_tokens=reply.output_tokens)
        return reply

    async def ocr_pdf(self, pdf: bytes) -> list[str]:
        """The Markdown of each page of a PDF, in page order, from the OCR endpoint."""
        document = {"type": "document_url",
                    "document_url": "data:application/pdf;base64," + base64.b64encode(pdf).decode("ascii")}
        response = await self._call(lambda: self._sdk.ocr.process_async(
            model=self.settings.mistral_ocr_model, document=document, include_image_base64=False))
        pages = sorted(response.pages, key=lambda page: page.index)
        self.usage.add(output_tokens=sum(len(page.markdown) // 4 for page in pages))
        return [page.markdown for page in pages]

    async def _call(self, make: Any) -> Any:
        async def call() -> Any:
            self.usage.add(calls=1)
            try:
                return await make()
            except Exception as exc:
                raise self._error(exc) from None

        return await with_retries(call, self.policy, is_retryable, lambda exc: self.usage.add(retries=1))

    def _error(self, exc: Exception) -> LlmError:
        from mistralai.client.errors import MistralError

        secrets = self.settings.secrets()
        if isinstance(exc, MistralError):
            status = exc.status_code
            return LlmError(f"Mistral HTTP {status}: {scrub(exc.body or exc.message, secrets)}", status=status,
                            retryable=status in RETRYABLE_STATUS or status >= 500)
        if is_transport_error(exc):
            return LlmError(f"Mistral unreachable: {type(exc).__name__}: {scrub(str(exc), secrets)}", retryable=True)
        return LlmError(f"Mistral call failed: {type(exc).__name__}: {scrub(str(exc), secrets)}")
