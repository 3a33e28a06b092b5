"""Logging set up in one place: pdfrag's records (the `engine` and `app` loggers) on stderr, one line each.

Modules only create their logger (`log = logging.getLogger(__name__)`); the command line (`-v`, `-vv`,
PDFRAG_LOG_LEVEL), the app's ingest child and the pipeline's worker processes call `configure`. A line is
`time level logger: fields message`; `context(doc=..., stage=...)` puts its `key=value` fields on every line
logged inside it (in this thread and the asyncio tasks it starts: a stage's LLM calls too), so that one
document can be followed with grep. Nothing here logs keys or document text: callers log names, counts, seconds
and reasons. Other libraries keep to warnings whatever the level (httpx would log every request).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TextIO

OURS = ("engine", "app")
LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING, "error": logging.ERROR}
FORMAT = "%(asctime)s.%(msecs)03d %(levelname)s %(name)s: %(context)s%(message)s"
DATE_FORMAT = "%H:%M:%S"

_FIELDS: ContextVar[str] = ContextVar("pdfrag_log_fields", default="")
_configured: list[int] = []  # the level `configure` set in this process (empty: never configured)


@contextmanager
def context(**fields: Any) -> Iterator[None]:
    """Every record logged inside carries these fields (after the enclosing context's), e.g. doc=... stage=..."""
    added = " ".join(f"{name}={value}" for name, value in fields.items() if value is not None)
    token = _FIELDS.set(" ".join(part for part in (_FIELDS.get(), added) if part))
    try:
        yield
    finally:
        _FIELDS.reset(token)


class _Fields(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        fields = _FIELDS.get()
        record.context = f"{fields} " if fields else ""
        return True


class _Stderr(logging.StreamHandler):
    """Writes to whatever `sys.stderr` is when a record is emitted (tests and the app replace it)."""

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:
        pass


def level_for(verbose: int = 0, setting: str = "warning") -> int:
    """The level asked for: `-v` info, `-vv` (or more) debug, else the setting's (PDFRAG_LOG_LEVEL)."""
    if verbose >= 2:
        return logging.DEBUG
    if verbose == 1:
        return min(logging.INFO, LEVELS[setting])
    return LEVELS[setting]


def configure(level: int) -> None:
    """pdfrag's records at `level` and above, and other libraries' warnings, to stderr (idempotent)."""
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, _Stderr)]:
        root.removeHandler(old)
    handler = _Stderr()
    handler.setFormatter(logging.Formatter(FORMAT, DATE_FORMAT))
    handler.addFilter(_Fields())
    root.addHandler(handler)
    root.setLevel(max(level, logging.WARNING))
    for name in OURS:  # at the default, inherited from the root (so that pytest's caplog can still lower it)
        logging.getLogger(name).setLevel(logging.NOTSET if level == logging.WARNING else level)
    _configured[:] = [level]


def configured_level() -> int | None:
    """The level `configure` set in this process, None when it was never called (processes it starts follow)."""
    return _configured[0] if _configured else None
