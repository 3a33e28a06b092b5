"""LlmError: one exception type for every provider failure, with its message scrubbed of key values."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

RETRYABLE_STATUS = frozenset({408, 429, 500, 502, 503, 504})
DURATION_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)s\s*$")


class LlmError(Exception):
    """A failed LLM call: `status` is the HTTP status when there was one, `retryable` says whether to retry,
    `retry_after` the seconds the server asked to wait (RetryInfo or Retry-After), when it said."""

    def __init__(self, message: str, *, status: int | None = None, retryable: bool = False,
                 retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retryable = retryable
        self.retry_after = retry_after


def scrub(text: str, secrets: Iterable[str]) -> str:
    """`text` with every secret replaced by `***` (and shortened to one line of at most 300 characters)."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return " ".join(text.split())[:300]


def is_retryable(exc: BaseException) -> bool:
    return isinstance(exc, LlmError) and exc.retryable


def is_transport_error(exc: BaseException) -> bool:
    """A connection, timeout or protocol failure of the HTTP layer (httpx, httpx2, or aiohttp, which
    google-genai's async client uses when it is installed), worth a retry."""
    names = {cls.__name__ for cls in type(exc).__mro__}
    transport = {"TransportError", "TimeoutException", "NetworkError", "RemoteProtocolError",
                 "ClientConnectionError", "ClientPayloadError", "ServerTimeoutError"}
    return bool(names & transport) or isinstance(exc, (ConnectionError, TimeoutError))


def retry_info_delay(body: Any) -> float | None:
    """The `retryDelay` of a google.rpc.RetryInfo detail in an error body ("37s", "1.5s"), in seconds."""
    error = body.get("error", body) if isinstance(body, Mapping) else None
    details = error.get("details") if isinstance(error, Mapping) else None
    for detail in details if isinstance(details, list) else []:
        if isinstance(detail, Mapping) and str(detail.get("@type", "")).endswith("RetryInfo"):
            match = DURATION_RE.match(str(detail.get("retryDelay", "")))
            if match:
                return float(match.group(1))
    return None


def retry_after_header(headers: Any) -> float | None:
    """A Retry-After header in seconds (the date form is not used by these APIs and is ignored)."""
    try:
        value = headers.get("retry-after") if headers is not None else None
        return max(0.0, float(value)) if value not in (None, "") else None
    except (TypeError, ValueError, AttributeError):
        return None


def error_reason(body: Any) -> str:
    """The `reason` of an ErrorInfo detail (e.g. API_KEY_INVALID), or ""."""
    error = body.get("error", body) if isinstance(body, Mapping) else None
    details = error.get("details") if isinstance(error, Mapping) else None
    for detail in details if isinstance(details, list) else []:
        if isinstance(detail, Mapping) and detail.get("reason"):
            return str(detail["reason"])
    return ""
