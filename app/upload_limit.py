"""Refuses file uploads while they stream: a pure ASGI middleware in front of Shiny's upload route.

Shiny receives a file in two steps: the browser announces it over the websocket (`uploadInit`, with a
size the client chooses) and then POSTs the bytes to `session/<id>/upload/<job>`, which Shiny appends
to a file in its temporary folder as they arrive, with no limit. This middleware counts the bytes of
those POSTs itself (the declared sizes and Content-Length are never trusted to accept anything) into a
spool file of its own (`pdfrag-upload-<pid>-*.part` in the temporary folder, deleted when closed), answers 413
and deletes the spool the moment one upload passes the limit, and hands the body to Shiny only once it is
complete and within the limit. An upload refused here never
reaches Shiny, so nothing of it is left on disk.

In hosted mode each session also has a storage budget: the bytes its private workspace holds, plus the
uploads Shiny holds for it that the Library page has not taken in yet, plus the ones under way.
"""

from __future__ import annotations

import asyncio
import re
import tempfile
import threading
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from app.uploads import staging_prefix

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

UPLOAD_PATH = re.compile(r"/session/(?P<session>[^/]+)/upload/[^/]+$")
REPLAY_CHUNK = 2**16


def _mb(size: int) -> str:
    return f"{size / 2**20:.0f} MB"


@dataclass
class SessionUploads:
    """One session's upload accounting (hosted mode adds a storage budget)."""

    session_id: str
    storage_limit: int | None = None  # bytes; None: no per-session budget
    stored: Callable[[], int] = lambda: 0  # bytes the session's own workspace holds now
    pending: int = 0  # delivered to Shiny, not yet taken in (or discarded) by the Library page
    inflight: int = 0  # counted so far in uploads under way

    def taken_in(self, size: int) -> None:
        """The Library page moved or deleted `size` bytes of this session's uploads from Shiny's folder."""
        self.pending = max(0, self.pending - size)


class UploadBudget:
    """The limits every upload is held to: a size per file and, in hosted mode, a storage budget per session.

    Sessions register when they start (an upload for a session that is not registered is refused
    before its body is read) and are dropped when they end.
    """

    def __init__(self, max_upload_bytes: int, session_storage_bytes: int | None = None) -> None:
        self.max_upload_bytes = max_upload_bytes
        self.session_storage_bytes = session_storage_bytes
        self._sessions: dict[str, SessionUploads] = {}
        self._lock = threading.Lock()

    def open_session(self, session_id: str, stored: Callable[[], int] | None = None) -> SessionUploads:
        """Register a session; `stored` (hosted mode) tells how many bytes its workspace holds."""
        account = SessionUploads(session_id, self.session_storage_bytes if stored is not None else None,
                                 stored or (lambda: 0))
        with self._lock:
            self._sessions[session_id] = account
        return account

    def close_session(self, session_id: str) -> None:
        with self._lock:
            self._sessions.pop(session_id, None)

    def session(self, session_id: str) -> SessionUploads | None:
        with self._lock:
            return self._sessions.get(session_id)

    def refusal(self, account: SessionUploads, stored: int, received: int) -> str | None:
        """Why an upload that has sent `received` bytes so far must stop, or None while it may go on."""
        if received > self.max_upload_bytes:
            return f"Larger than the {_mb(self.max_upload_bytes)} upload limit: refused, nothing of it kept."
        limit = account.storage_limit
        if limit is not None and stored + account.pending + account.inflight > limit:
            return f"This session's storage is full ({_mb(limit)}): remove documents, or start a new session."
        return None


class UploadLimitMiddleware:
    """Counts the bytes of Shiny upload POSTs as they arrive and answers 413 past the budget."""

    def __init__(self, app: ASGIApp, budget: UploadBudget, spool_dir: str | None = None) -> None:
        self.app = app
        self.budget = budget
        self.spool_dir = spool_dir

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        match = UPLOAD_PATH.search(scope.get("path", "")) if scope["type"] == "http" else None
        if match is None or scope.get("method") != "POST":
            await self.app(scope, receive, send)
            return
        account = self.budget.session(match["session"])
        if account is None:
            await _plain(send, 404, "No such session.")
            return
        stored = await asyncio.to_thread(account.stored) if account.storage_limit is not None else 0
        declared = _content_length(scope)
        if declared is not None and (reason := self.budget.refusal(account, stored, declared)) is not None:
            await _plain(send, 413, reason)  # refused before reading: a declared size only ever refuses
            return
        spool = tempfile.NamedTemporaryFile(dir=self.spool_dir, prefix=staging_prefix(), suffix=".part")  # noqa: SIM115
        received = 0
        try:
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return  # the client went away: drop what came
                chunk = message.get("body", b"")
                received += len(chunk)
                account.inflight += len(chunk)
                reason = self.budget.refusal(account, stored, received)
                if reason is not None:
                    spool.close()
                    await _plain(send, 413, reason, close=True)
                    return
                spool.write(chunk)
                if not message.get("more_body", False):
                    break
            account.inflight -= received
            account.pending += received
            received = 0
            spool.seek(0)
            await self.app(scope, _replay(spool, receive), send)
        finally:
            account.inflight -= received
            spool.close()


def _replay(spool, receive: Receive) -> Receive:
    """A receive callable that yields the spooled body, then whatever the client sends next (a disconnect)."""
    done = False

    async def replay() -> Message:
        nonlocal done
        if done:
            return await receive()
        chunk = spool.read(REPLAY_CHUNK)
        more = len(chunk) == REPLAY_CHUNK
        if not more:
            done = True
        return {"type": "http.request", "body": chunk, "more_body": more}

    return replay


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _plain(send: Send, status: int, text: str, close: bool = False) -> None:
    body = text.encode()
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]
    if close:  # the rest of the body is not read: the connection cannot be reused
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
