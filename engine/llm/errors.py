"""LlmError: one exception type for every provider failure, with its message scrubbed of key values."""

from __future__ import annotations

from collections.abc import Iterable

RETRYABLE_STATUS = frozenset({408, 429, 500, 502, 503, 504})


class LlmError(Exception):
    """A failed LLM call: `status` is the HTTP status when there was one, `retryable` says whether to retry."""

    def __init__(self, message: str, *, status: int | None = None, retryable: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.retryable = retryable


def scrub(text: str, secrets: Iterable[str]) -> str:
    """`text` with every secret replaced by `***` (and shortened to one line of at most 300 characters)."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return " ".join(text.split())[:300]


def is_retryable(exc: BaseException) -> bool:
    return isinstance(exc, LlmError) and exc.retryable


def is_transport_error(exc: BaseException) -> bool:
    """A connection, timeout or protocol failure of the HTTP layer (httpx or httpx2), worth a retry."""
    names = {cls.__name__ for cls in type(exc).__mro__}
    transport = {"TransportError", "TimeoutException", "NetworkError", "RemoteProtocolError"}
    return bool(names & transport) or isinstance(exc, (ConnectionError, TimeoutError))
