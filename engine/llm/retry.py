"""Bounded retries for transient failures (5xx, 429, transport): exponential backoff with full jitter, or
exactly the delay the server asked for (RetryInfo / Retry-After) when it gave one."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.llm.errors import LlmError, is_retryable

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


async def paced_call(make: Callable[[], Awaitable[T]], *, pacer: Any, usage: Any, policy: RetryPolicy,
                     to_error: Callable[[Exception], LlmError], estimate: int,
                     cost: Callable[[T], int] | None = None) -> T:
    """`make()` under a provider's pacer and the retry policy, each attempt counted as a call in `usage`.

    A 429 tells the pacer to hold off (for the delay the server gave); the slot is given back with the
    tokens the call really cost (`cost`, else the estimate), also when the call is cancelled.
    """

    async def call() -> T:
        ticket = await pacer.acquire(estimate)
        usage.add(calls=1)
        spent = estimate
        try:
            result = await make()
            spent = cost(result) if cost else estimate
            return result
        except Exception as exc:
            error = to_error(exc)
            if error.status == 429:
                pacer.rate_limited(error.retry_after, ticket.started)
            raise error from None
        finally:
            pacer.release(ticket, spent)

    return await with_retries(call, policy, is_retryable, lambda exc: usage.add(retries=1))


async def unpaced_call(make: Callable[[], Awaitable[T]], *, policy: RetryPolicy,
                       to_error: Callable[[Exception], LlmError]) -> T:
    """A models call: retried, not paced (the per-minute quotas count generation, not listing)."""

    async def call() -> T:
        try:
            return await make()
        except Exception as exc:
            raise to_error(exc) from None

    return await with_retries(call, policy, is_retryable)
