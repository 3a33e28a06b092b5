"""Bounded retries for transient failures (5xx, 429, transport): exponential backoff with full jitter, or
exactly the delay the server asked for (RetryInfo / Retry-After) when it gave one."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.llm.errors import LlmError, is_retryable

T = TypeVar("T")
log = logging.getLogger(__name__)


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
                       on_retry: Callable[[BaseException], None] | None = None, label: str = "llm") -> T:
    """Await `call()`, retrying retryable failures up to the policy's bounds; the last failure is raised.
    `label` (provider and model) names the call in the log, which says why and how long each wait is."""
    retry = waits = 0
    while True:
        try:
            return await call()
        except Exception as exc:
            asked = exc.retry_after if isinstance(exc, LlmError) and exc.status == 429 else None
            if asked is not None and asked > policy.max_wait_s:
                log.info("llm=%s failed: %s asks to wait %.0f s, over PDFRAG_LLM_MAX_WAIT", label, _kind(exc), asked)
                raise LlmError(f"{exc} (the server asks to wait {asked:.0f} s, more than PDFRAG_LLM_MAX_WAIT="
                               f"{policy.max_wait_s:.0f} s: a quota is used up)", status=429) from None
            if asked is not None and waits < policy.rate_waits:
                waits += 1
                delay = asked
                log.info("llm=%s rate limited (%s): wait=%.1fs as the server asks (%d/%d)", label, _kind(exc),
                         delay, waits, policy.rate_waits)
            else:
                retry += 1
                if retry >= policy.attempts or not retryable(exc):
                    log.info("llm=%s failed after attempt=%d: %s", label, retry, _kind(exc))
                    raise
                delay = policy.delay(retry)
                log.info("llm=%s attempt=%d failed (%s): retry in wait=%.1fs", label, retry, _kind(exc), delay)
            if on_retry is not None:
                on_retry(exc)
            await asyncio.sleep(delay)


async def paced_call(make: Callable[[], Awaitable[T]], *, pacer: Any, usage: Any, policy: RetryPolicy,
                     to_error: Callable[[Exception], LlmError], estimate: int,
                     cost: Callable[[T], int] | None = None, label: str = "llm") -> T:
    """`make()` under a provider's pacer and the retry policy, each attempt counted as a call in `usage`.

    A 429 tells the pacer to hold off (for the delay the server gave); the slot is given back with the
    tokens the call really cost (`cost`, else the estimate), also when the call is cancelled.
    """
    attempt = 0

    async def call() -> T:
        nonlocal attempt
        attempt += 1
        asked = time.monotonic()
        ticket = await pacer.acquire(estimate)
        started = time.monotonic()
        usage.add(calls=1)
        spent = estimate
        try:
            result = await make()
            spent = cost(result) if cost else estimate
            log.debug("llm=%s attempt=%d done seconds=%.2f paced_wait=%.2fs tokens=%d", label, attempt,
                      time.monotonic() - started, started - asked, spent)
            return result
        except Exception as exc:
            error = to_error(exc)
            if error.status == 429:
                pacer.rate_limited(error.retry_after, ticket.started)
            raise error from None
        finally:
            pacer.release(ticket, spent)

    return await with_retries(call, policy, is_retryable, lambda exc: usage.add(retries=1), label=label)


async def unpaced_call(make: Callable[[], Awaitable[T]], *, policy: RetryPolicy,
                       to_error: Callable[[Exception], LlmError], label: str = "llm models") -> T:
    """A models call: retried, not paced (the per-minute quotas count generation, not listing)."""

    async def call() -> T:
        try:
            return await make()
        except Exception as exc:
            raise to_error(exc) from None

    return await with_retries(call, policy, is_retryable, label=label)


def _kind(exc: BaseException) -> str:
    """What failed, in a word (the status or the exception's type: never its message, which may quote a prompt)."""
    status = getattr(exc, "status", None)
    return f"HTTP {status}" if status else type(exc).__name__
