"""MistralClient: async chat-with-image (the vision fallback) and OCR calls through mistralai, paced and retried."""

from __future__ import annotations

import base64
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from engine.llm.errors import RETRYABLE_STATUS, LlmError, is_transport_error, retry_after_header, scrub
from engine.llm.gemini import policy_for
from engine.llm.pacer import Pacer, pacer_for
from engine.llm.reply import LlmReply
from engine.llm.retry import RetryPolicy, paced_call, unpaced_call
from engine.llm.settings import LlmSettings
from engine.llm.usage import Usage

if TYPE_CHECKING:
    from mistralai.client.models import DocumentURLChunkTypedDict, UserMessageTypedDict

FINISH = {"stop": "STOP", "length": "MAX_TOKENS", "model_length": "MAX_TOKENS", "error": "OTHER"}
DEFAULT_SERVER_URL = "https://api.mistral.ai"
IMAGE_TOKENS = 1_000  # about what one page image costs as input


class MistralClient:
    """One mistralai SDK instance for the running event loop; `aclose()` releases its HTTP client."""

    def __init__(self, settings: LlmSettings, usage: Usage, policy: RetryPolicy | None = None,
                 pacer: Pacer | None = None) -> None:
        from mistralai.client import Mistral

        if not settings.mistral_key:
            raise LlmError("no MISTRAL_API_KEY: the Mistral fallback and OCR reader are not available")
        self.settings, self.usage = settings, usage
        self.policy = policy or policy_for(settings)
        self.pacer = pacer or pacer_for("mistral", settings.mistral_server_url or DEFAULT_SERVER_URL,
                                        settings.mistral_key, settings.limits(), settings.rate_window_s)
        self._sdk = Mistral(api_key=settings.mistral_key, server_url=settings.mistral_server_url or None,
                            timeout_ms=int(settings.timeout_s * 1000))

    async def aclose(self) -> None:
        await self._sdk.__aexit__(None, None, None)

    async def chat_image(self, prompt: str, png: bytes) -> LlmReply:
        """The vision model's answer to `prompt` about one PNG image."""
        image = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
        messages: list[UserMessageTypedDict] = [{"role": "user", "content": [{"type": "text", "text": prompt},
                                                 {"type": "image_url", "image_url": image}]}]
        response = await self._call(lambda: self._sdk.chat.complete_async(
            model=self.settings.mistral_vision_model, messages=messages, temperature=0.0),
            len(prompt) // 4 + IMAGE_TOKENS, self.settings.mistral_vision_model)
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
        """The Markdown of each page of a PDF, in page order, from the OCR endpoint (one request: callers keep
        a PDF within the endpoint's page and size limits, see MistralOcrReader)."""
        document: DocumentURLChunkTypedDict = {"type": "document_url",
                    "document_url": "data:application/pdf;base64," + base64.b64encode(pdf).decode("ascii")}
        response = await self._call(lambda: self._sdk.ocr.process_async(
            model=self.settings.mistral_ocr_model, document=document, include_image_base64=False), 0,
            self.settings.mistral_ocr_model)
        pages = sorted(response.pages, key=lambda page: page.index)
        self.usage.add(output_tokens=sum(len(page.markdown) // 4 for page in pages))
        return [page.markdown for page in pages]

    async def list_models(self) -> list[str]:
        """Model ids and aliases this key may use (GET /v1/models)."""
        listing = await self._unpaced(lambda: self._sdk.models.list_async())
        names: list[str] = []
        for card in listing.data or []:
            names.append(card.id)
            names.extend(getattr(card, "aliases", None) or [])
        return names

    async def has_model(self, model: str) -> bool:
        try:
            await self._unpaced(lambda: self._sdk.models.retrieve_async(model_id=model))
        except LlmError as exc:
            if exc.status in (400, 404, 422):
                return False
            raise
        return True

    async def _unpaced(self, make: Callable[[], Awaitable[Any]]) -> Any:
        """A models call: retried, not paced (rate limits count generation and OCR, not listing)."""
        return await unpaced_call(make, policy=self.policy, to_error=self._error, label="mistral:models")

    async def _call(self, make: Callable[[], Awaitable[Any]], estimate: int, model: str) -> Any:
        return await paced_call(make, pacer=self.pacer, usage=self.usage, policy=self.policy, to_error=self._error,
                                estimate=estimate, cost=_tokens_spent(estimate), label=f"mistral:{model}")

    def _error(self, exc: Exception) -> LlmError:
        from mistralai.client.errors import MistralError

        secrets = self.settings.secrets()
        if isinstance(exc, MistralError):
            status = exc.status_code
            return LlmError(f"Mistral HTTP {status}: {scrub(exc.body or exc.message, secrets)}", status=status,
                            retryable=status in RETRYABLE_STATUS or status >= 500,
                            retry_after=retry_after_header(exc.headers))
        if is_transport_error(exc):
            return LlmError(f"Mistral unreachable: {type(exc).__name__}: {scrub(str(exc), secrets)}", retryable=True)
        return LlmError(f"Mistral call failed: {type(exc).__name__}: {scrub(str(exc), secrets)}")


def _tokens_spent(estimate: int) -> Callable[[Any], int]:
    """The tokens a Mistral response reports it used, else the estimate."""
    return lambda result: getattr(getattr(result, "usage", None), "total_tokens", None) or estimate
