"""What a run knows about the LLM stages it is retrying: which stages run again and what they left last time.

An LLM stage that failed, was skipped, or fell back (some pages or parts kept their offline result) is
never cached as done: the next run retries it without `--force`, and every stage downstream of a stage
that runs again runs again too (its input changes, its cache key does not). The pipeline's cache check
records both here, on the run's StageContext; the read stage uses the previous state to retry only the
pages that failed.
"""

from __future__ import annotations

from typing import Any

_RERUNS, _PREVIOUS = "_llm_reruns", "_llm_previous"


def incomplete(state: Any) -> bool:
    """An LLM stage's state that must not count as done: failed, skipped, or partial with fallbacks."""
    status = getattr(state.status, "value", state.status)
    return status in ("failed", "pending") or (status == "partial" and state.fallbacks > 0)


def reruns(ctx: Any) -> set[str]:
    """The names of the stages that run again in this run (kept on the context object)."""
    return vars(ctx).setdefault(_RERUNS, set())


def remember_previous(ctx: Any, name: str, state: Any) -> None:
    vars(ctx).setdefault(_PREVIOUS, {})[name] = state


def previous(ctx: Any, name: str) -> Any | None:
    """The state the stage `name` left last time, when this run retries it with the same key."""
    return vars(ctx).get(_PREVIOUS, {}).get(name)
