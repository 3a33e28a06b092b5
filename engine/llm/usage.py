"""Usage accounting of one stage run: calls, tokens, retries, fallbacks (copied into its StageState)."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Usage:
    """Counters that LLM calls add to; safe to share between threads and coroutines.

    `output_tokens` includes thinking tokens (they are billed as output); `thought_tokens` says how many of
    them were thinking (kept in memory and in the answer trace; a StageState has no field for it)."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    retries: int = 0
    fallbacks: int = 0
    thought_tokens: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, *, calls: int = 0, input_tokens: int = 0, output_tokens: int = 0, retries: int = 0,
            fallbacks: int = 0, thought_tokens: int = 0) -> None:
        with self._lock:
            self.calls += calls
            self.input_tokens += input_tokens
            self.output_tokens += output_tokens
            self.retries += retries
            self.fallbacks += fallbacks
            self.thought_tokens += thought_tokens

    def counts(self) -> dict[str, int]:
        """The counters by StageState field name."""
        return {"calls": self.calls, "input_tokens": self.input_tokens, "output_tokens": self.output_tokens,
                "retries": self.retries, "fallbacks": self.fallbacks}

    def __getstate__(self) -> dict[str, int]:
        return {**self.counts(), "thought_tokens": self.thought_tokens}

    def __setstate__(self, state: dict[str, int]) -> None:
        self.__init__(**state)  # type: ignore[misc]


def document_totals(stages: Iterable[Any]) -> dict[str, float]:
    """Calls, tokens, retries, fallbacks and seconds summed over a document's StageStates."""
    names = ("calls", "input_tokens", "output_tokens", "retries", "fallbacks", "seconds")
    totals = {name: sum(getattr(state, name) for state in stages) for name in names}
    totals["seconds"] = round(totals["seconds"], 3)
    return totals


def describe_totals(totals: dict[str, float]) -> str:
    """One line for a person: "23 calls, 12,345 in / 678 out tokens, 2 retries, 0 fallbacks, 5.2 s"."""
    return (f"{totals['calls']:,} calls, {totals['input_tokens']:,} in / {totals['output_tokens']:,} out tokens, "
            f"{totals['retries']} retries, {totals['fallbacks']} fallbacks, {totals['seconds']:.1f} s")
