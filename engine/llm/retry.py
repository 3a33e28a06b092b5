"""Bounded retries for transient failures (5xx, 429, transport): exponential backoff with full jitter, or
exactly the delay the server asked for (RetryInfo / Retry-After) when it gave one."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from engine.llm.errors import LlmError

T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    """`attempts` tries in all; the n-th retry waits a random time in [0, min(max_s, base_s * 2**(n-1))].

    A 429 whose server gave a delay is waited out without using an attempt, up to `rate_waits` times and
    only when the delay is at most `max_wait_s` (longer means a daily quota: waiting is pointless)."""

    attempts: int = 5
    base_s: float = 1.0
    max_s: float = 30.0
    rate_waits: int = 10
    max_wait_s: float = 120.0

    def delay(self, retry: int, rng: random.Random | None = None) -> float:
        ceiling = min(self.max_s, self.base_s * 2 ** (retry - 1))
        return (rng or random).uniform(0, ceiling)


async def with_retries(call: Callable[[], Awaitable[T]], policy: RetryPolicy,
                       retryable: Callable[[BaseException], bool],
                       on_retry: Callable[[BaseException], None] | None = None) -> T:
    """Await `call()`, retrying retryable failures up to the policy's bounds; the last failure is raised."""
    retry = waits = 0
    while True:
        try:
            return await call()
        except Exception as exc:
            asked = exc.retry_after if isinstance(exc, LlmError) and exc.status == 429 else None
            if asked is not None and asked > policy.max_wait_s:
                raise LlmError(f"{exc} (the server asks to wait {asked:.0f} s, more than PDFRAG_LLM_MAX_WAIT="
                               f"{policy.max_wait_s:.0f} s: a quota is used up)", status=429) from None
            if asked is not None and waits < policy.rate_waits:
                waits += 1
                delay = asked
            else:
                retry += 1
                if retry >= policy.attempts or not retryable(exc):
                    raise
                delay = policy.delay(retry)
            if on_retry is not None:
                on_retry(exc)
            await asyncio.sleep(delay)
