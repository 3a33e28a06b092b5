"""Pacer: one client-side rate limiter per process and provider, shared by every document, page and thread.

It keeps requests per minute, tokens per minute and requests in flight within the configured limits
(`LlmSettings.limits()`, already divided among the pipeline's worker processes), and pauses everyone when
the server answers 429 with a delay (`RetryInfo` / `Retry-After`). After such a 429 it also keeps, for two
minutes, to what the server let through in the last minute, so a quota lower than the configured tier
costs a 429 or two, not one per page. Waiting is done with `asyncio.sleep` in short steps, so
one pacer serves coroutines of any event loop and thread.
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
import time
from collections import deque
from dataclasses import dataclass

WINDOW_S = 60.0
POLL_S = 0.05  # how often a waiter for a free slot looks again
LEARN_S = 120.0  # how long a requests-per-minute learned from a 429 is kept
_pacers: dict[str, Pacer] = {}
_registry_lock = threading.Lock()


@dataclass
class Ticket:
    started: float
    tokens: int


class Pacer:
    """Requests/minute, tokens/minute and concurrency limits with a shared pause (thread-safe)."""

    def __init__(self, rpm: int, tpm: int, concurrency: int, clock=time.monotonic, window_s: float = WINDOW_S) -> None:
        self.rpm, self.tpm, self.concurrency = rpm, tpm, concurrency
        self.window_s = window_s
        self.learned_rpm: int | None = None  # lowered after a 429, for LEARN_S
        self._learned_at = 0.0
        self.clock = clock
        self.in_flight = 0
        self.max_in_flight = 0
        self.throttled = 0  # 429s seen
        self.waited_s = 0.0  # time requests spent waiting for a slot
        self._starts: deque[float] = deque()
        self._tokens: deque[list[float]] = deque()  # [time, tokens]
        self._paused_until = 0.0
        self._lock = threading.Lock()

    def configure(self, rpm: int, tpm: int, concurrency: int, window_s: float = WINDOW_S) -> None:
        with self._lock:
            self.rpm, self.tpm, self.concurrency, self.window_s = rpm, tpm, concurrency, window_s

    @property
    def effective_rpm(self) -> int:
        if self.learned_rpm and self.clock() - self._learned_at > LEARN_S * self.window_s / WINDOW_S:
            self.learned_rpm = None  # quotas change (another process stopped, a tier was raised)
        return min(self.rpm, self.learned_rpm) if self.learned_rpm else self.rpm

    @property
    def span(self) -> float:
        """How long a start counts: the provider's window and a margin, since the provider counts a request
        when it arrives, a little after this pacer let it start."""
        return self.window_s * 1.01 + 0.05

    def _prune(self, now: float) -> None:
        while self._starts and self._starts[0] <= now - self.span:
            self._starts.popleft()
        while self._tokens and self._tokens[0][0] <= now - self.span:
            self._tokens.popleft()

    def wait_time(self, tokens: int) -> float:
        """Seconds until a request of `tokens` may start (0: now); call with the lock held."""
        now = self.clock()
        self._prune(now)
        if now < self._paused_until:
            return self._paused_until - now
        if self.in_flight >= self.concurrency:
            return POLL_S
        if len(self._starts) >= self.effective_rpm:
            return max(POLL_S, self._starts[0] + self.span - now)
        used = sum(entry[1] for entry in self._tokens)
        if self._tokens and used + tokens > self.tpm:
            return max(POLL_S, self._tokens[0][0] + self.span - now)
        return 0.0

    def try_acquire(self, tokens: int) -> tuple[Ticket | None, float]:
        with self._lock:
            wait = self.wait_time(tokens)
            if wait > 0:
                return None, wait
            now = self.clock()
            self._starts.append(now)
            self._tokens.append([now, float(tokens)])
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            return Ticket(now, tokens), 0.0

    async def acquire(self, tokens: int = 0) -> Ticket:
        started = time.monotonic()
        while True:
            ticket, wait = self.try_acquire(tokens)
            if ticket is not None:
                self.waited_s += time.monotonic() - started
                return ticket
            await asyncio.sleep(min(wait, 1.0))

    def release(self, ticket: Ticket, tokens: int | None = None) -> None:
        """The request finished; `tokens` is what it really cost (replaces the estimate)."""
        with self._lock:
            self.in_flight = max(0, self.in_flight - 1)
            if tokens is not None:
                for entry in self._tokens:
                    if entry[0] == ticket.started and entry[1] == ticket.tokens:
                        entry[1] = float(tokens)
                        break

    def rate_limited(self, delay: float | None, started: float | None = None) -> None:
        """A 429 for a request started at `started`. With the server's delay: pause every request that long,
        and keep for a while (LEARN_S) to the number of requests started in the window before the refused
        one. Without a delay: nothing shared changes (the caller's backoff applies)."""
        with self._lock:
            self.throttled += 1
            if not delay:
                return
            now = self.clock()
            self._prune(now)
            before = [t for t in self._starts if started is None or t < started]
            got_through = max(2, len(before) if started is not None else len(before) - 1)
            self.learned_rpm, self._learned_at = min(self.learned_rpm or got_through, got_through), now
            self._paused_until = max(self._paused_until, now + delay)


def pacer_for(provider: str, endpoint: str, key: str, limits: tuple[int, int, int],
              window_s: float = WINDOW_S) -> Pacer:
    """The process's pacer for this provider, endpoint and key (its quota), set to `limits`."""
    name = hashlib.sha256(f"{provider}\x00{endpoint}\x00{key}".encode()).hexdigest()
    with _registry_lock:
        pacer = _pacers.get(name)
        if pacer is None:
            pacer = _pacers[name] = Pacer(*limits, window_s=window_s)
        else:
            pacer.configure(*limits, window_s=window_s)
        return pacer
