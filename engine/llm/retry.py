"""Bounded retries with exponential backoff and full jitter, for transient HTTP failures (5xx, 429)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    """`attempts` tries in all; the n-th retry waits a random time in [0, min(max_s, base_s * 2**(n-1))]."""

    attempts: int = 5
    base_s: float = 1.0
    max_s: float = 30.0

    def delay(self, retry: int, rng: random.Random | None = None) -> float:
        ceiling = min(self.max_s, self.base_s * 2 ** (retry - 1))
        return (rng or random).uniform(0, ceiling)


async def with_retries(call: Callable[[], Awaitable[T]], policy: RetryPolicy,
                       retryable: Callable[[BaseException], bool],
                       on_retry: Callable[[BaseException], None] | None = None) -> T:
    """Await `call()`, retrying retryable failures up to the policy's bound; the last failure is raised."""
    retry = 0
    while True:
        try:
            return await call()
        except Exception as exc:
            retry += 1
            if retry >= policy.attempts or not retryable(exc):
                raise
            if on_retry is not None:
                on_retry(exc)
            await asyncio.sleep(policy.delay(retry))
