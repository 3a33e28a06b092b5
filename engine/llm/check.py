"""The check at the start of every LLM run: one `models.list` per provider, before any page is sent.

A refused key, an unreachable endpoint or a model the provider no longer lists is one clear line
(`LlmUnavailable`), so a run fails at once instead of sending every page to a dead model. Successful
checks are remembered for a few minutes per (endpoint, key, models), so that the app's questions do not
each list the models; failures are never remembered.
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
import time
from dataclasses import dataclass, field

from engine.llm.errors import LlmError
from engine.llm.settings import LlmSettings

REMEMBER_S = 300.0
_passed: dict[str, float] = {}  # fingerprint -> when it passed (process-wide; holds no key, only a hash)
log = logging.getLogger(__name__)
_lock = threading.Lock()


class LlmUnavailable(LlmError):
    """The provider cannot serve this run: bad key, unreachable, or a configured model it does not offer."""


@dataclass(frozen=True)
class ProviderCheck:
    """What one provider's check found: the models it was asked about and whether all are offered."""

    provider: str
    models: tuple[str, ...]
    ok: bool
    message: str
    listed: int = 0  # how many models the provider listed


@dataclass
class CheckReport:
    checks: list[ProviderCheck] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks)

    def lines(self) -> list[str]:
        return [check.message for check in self.checks]


def needed_models(settings: LlmSettings, *, embeddings: bool = False) -> dict[str, list[str]]:
    """Per provider, the models this configuration will call."""
    needed: dict[str, list[str]] = {"gemini": [settings.gemini_model]}
    if embeddings:
        needed["gemini"].append(settings.embed_model)
    if settings.mistral_key:
        needed["mistral"] = [settings.mistral_ocr_model if settings.reader == "mistral-ocr"
                             else settings.mistral_vision_model]
    return needed


def check_providers(settings: LlmSettings, *, embeddings: bool = False) -> CheckReport:
    """One models.list per provider (never raises for a provider's answer: see `ProviderCheck.ok`)."""
    from engine.llm.clients import run_sync

    if not settings.gemini_key:
        return CheckReport([ProviderCheck("gemini", (settings.gemini_model,), False,
                                          "gemini: no API key (set GEMINI_API_KEY or enter one in Settings)")])
    if settings.reader == "mistral-ocr" and not settings.mistral_key:
        return CheckReport([ProviderCheck("mistral", (settings.mistral_ocr_model,), False,
                                          "mistral: the Mistral OCR reader needs MISTRAL_API_KEY")])
    needed = needed_models(settings, embeddings=embeddings)
    return CheckReport(run_sync(_check_all(settings, needed)))


async def _check_all(settings: LlmSettings, needed: dict[str, list[str]]) -> list[ProviderCheck]:
    import asyncio

    return list(await asyncio.gather(*(_check_one(settings, name, models) for name, models in needed.items())))


async def _check_one(settings: LlmSettings, provider: str, models: list[str]) -> ProviderCheck:
    from engine.llm.usage import Usage

    quick = settings.model_copy(update={"timeout_s": min(settings.timeout_s, settings.check_timeout_s),
                                        "max_attempts": min(settings.max_attempts, 2)})
    if provider == "gemini":
        from engine.llm.gemini import GeminiClient as Client
    else:
        from engine.llm.mistral import MistralClient as Client  # type: ignore[assignment]
    label = provider.capitalize()
    client = Client(quick, Usage())
    try:
        listed = await client.list_models()
        missing = [m for m in models if m not in listed]
        for model in list(missing):  # an alias the list does not spell out: ask for the model itself
            if await client.has_model(model):
                missing.remove(model)
    except LlmError as exc:
        return ProviderCheck(provider, tuple(models), False, f"{provider}: {_why(exc, label)}")
    finally:
        await client.aclose()
    if missing:
        names = ", ".join(repr(m) for m in missing)
        hint = _suggest(listed, provider)
        return ProviderCheck(provider, tuple(models), False,
                             f"{provider}: {label} does not offer {names} (not in its models list of {len(listed)})"
                             + (f"; current ones include {hint}" if hint else ""), len(listed))
    return ProviderCheck(provider, tuple(models), True,
                         f"{provider}: key accepted, {', '.join(models)} available", len(listed))


def _why(exc: LlmError, label: str) -> str:
    if exc.status in (401, 403) or (exc.status == 400 and "key" in str(exc).lower()):
        return f"{label} refused the API key ({exc})"
    if exc.status is None and exc.retryable:
        detail = re.sub(r"\s*ssl:<[^>]*>", "", str(exc)).removeprefix(f"{label} unreachable: ")
        return f"{label} is unreachable ({detail})"
    return str(exc)


def _suggest(listed: list[str], provider: str) -> str:
    """A few listed model names of the same family, to say what to set instead."""
    family = "gemini-" if provider == "gemini" else ("mistral-medium", "mistral-ocr")
    picks = [m for m in listed if m.startswith(family) and "embedding" not in m]
    return ", ".join(sorted(picks, reverse=True)[:4])


def _fingerprint(settings: LlmSettings, embeddings: bool) -> str:
    parts = [settings.gemini_base_url or "", settings.mistral_server_url or "", settings.gemini_key,
             settings.mistral_key, repr(needed_models(settings, embeddings=embeddings)), settings.reader]
    return hashlib.sha256("\x00".join(parts).encode()).hexdigest()


def preflight(settings: LlmSettings, *, embeddings: bool = False, remember: bool = True) -> CheckReport:
    """Raise LlmUnavailable (one line) unless every provider this run uses accepts the key and offers its models."""
    key = _fingerprint(settings, embeddings)
    with _lock:
        passed = _passed.get(key)
    if remember and passed is not None and time.monotonic() - passed < REMEMBER_S:
        log.debug("check: passed %.0f s ago, not repeated", time.monotonic() - passed)
        return CheckReport()
    report = check_providers(settings, embeddings=embeddings)
    for check in report.checks:
        log.info("check %s", check.message)  # names and statuses only (errors are scrubbed of keys)
    if not report.ok:
        raise LlmUnavailable("; ".join(c.message for c in report.checks if not c.ok))
    with _lock:
        _passed[key] = time.monotonic()
    return report


def forget() -> None:
    """Drop remembered checks (tests; the app after keys change)."""
    with _lock:
        _passed.clear()
