"""Per-model generation options: how thinking is set and which temperature to send, by model family.

Gemini 3 models take a `thinking_level` (LOW, MEDIUM, HIGH; thinking cannot be switched off, and Gemini
3.8 Flash no longer takes MINIMAL, so "off" asks for LOW) and should keep their default temperature of 1.0
(Google's Gemini 3 guide: lower values can make them loop). Gemini 2.5 models take a `thinking_budget`
in tokens (0 switches thinking off on Flash; Pro needs at least 128) and are run at temperature 0.
Other names (gateways, future families) get neither, so nothing is sent that they might refuse.
"""

from __future__ import annotations

import re
from typing import Any

FAMILY_RE = re.compile(r"gemini-(\d+)(?:\.(\d+))?")
LEVELS_3 = {"off": "LOW", "low": "LOW", "medium": "MEDIUM", "high": "HIGH"}
BUDGETS_25 = {"off": 0, "low": 1024, "medium": 4096, "high": 16384}


def generation(model: str) -> tuple[int, int] | None:
    """(major, minor) of a Gemini model name, or None for other names."""
    match = FAMILY_RE.search(model)
    return (int(match.group(1)), int(match.group(2) or 0)) if match else None


def generation_options(model: str, thinking: str) -> dict[str, Any]:
    """ThinkingConfig fields for this model and level ("default": none, the model decides)."""
    version = generation(model)
    if thinking == "default" or version is None:
        return {}
    if version >= (3, 0):
        return {"thinking_level": LEVELS_3[thinking]}
    if version >= (2, 5):
        budget = BUDGETS_25[thinking]
        return {"thinking_budget": max(budget, 128) if "pro" in model else budget}
    return {}


def temperature_for(model: str, configured: float | None) -> float | None:
    """The temperature to send: the configured one, else none for Gemini 3+ (its default 1.0), else 0."""
    if configured is not None:
        return configured
    version = generation(model)
    return None if version is None or version >= (3, 0) else 0.0
