"""LlmClients: builds the Gemini and Mistral clients from LlmSettings for each run (picklable, injectable)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from engine.llm.gemini import GeminiClient
from engine.llm.mistral import MistralClient
from engine.llm.settings import LlmSettings
from engine.llm.usage import Usage

T = TypeVar("T")


class LlmSession:
    """The clients of one run, made on first use inside its event loop and closed when it ends."""

    def __init__(self, settings: LlmSettings, usage: Usage) -> None:
        self.settings, self.usage = settings, usage
        self._gemini: GeminiClient | None = None
        self._mistral: MistralClient | None = None

    @property
    def gemini(self) -> GeminiClient:
        if self._gemini is None:
            self._gemini = GeminiClient(self.settings, self.usage)
        return self._gemini

    @property
    def mistral(self) -> MistralClient | None:
        """None when no Mistral key is configured (the fallback is then skipped)."""
        if self._mistral is None and self.settings.mistral_key:
            self._mistral = MistralClient(self.settings, self.usage)
        return self._mistral

    async def aclose(self) -> None:
        for client in (self._gemini, self._mistral):
            if client is not None:
                try:
                    await client.aclose()
                except Exception:
                    pass


class LlmClients:
    """What the gemini stages are given: settings (keys from the environment or the app) and a way to run."""

    def __init__(self, settings: LlmSettings | None = None) -> None:
        self.settings = settings if settings is not None else LlmSettings.from_env()

    def __repr__(self) -> str:
        return f"LlmClients(model={self.settings.gemini_model!r})"

    @asynccontextmanager
    async def session(self, usage: Usage) -> AsyncIterator[LlmSession]:
        session = LlmSession(self.settings, usage)
        try:
            yield session
        finally:
            await session.aclose()

    def run(self, work: Callable[[LlmSession], Awaitable[T]], usage: Usage) -> T:
        """Run `work(session)` to completion from synchronous code (a stage), even inside a running loop."""

        async def main() -> T:
            async with self.session(usage) as session:
                return await work(session)

        return run_sync(main())

    def check(self) -> dict[str, Any]:
        """The Gemini model's description (GET models/{model}); raises LlmError for a bad key, model or URL."""

        async def work(session: LlmSession) -> dict[str, Any]:
            return await session.gemini.model_info()

        return self.run(work, Usage())

    def preflight(self, *, embeddings: bool = False) -> Any:
        """One models.list per provider this run will call; raises LlmUnavailable (one line) when a key is
        refused, a provider is unreachable or a configured model is not offered (engine.llm.check)."""
        from engine.llm.check import preflight

        return preflight(self.settings, embeddings=embeddings)


def run_sync(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine on a fresh event loop; in a thread of its own when this thread already runs one."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(coroutine)
        except BaseException as exc:  # handed to the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=target, name="pdfrag-llm")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]
