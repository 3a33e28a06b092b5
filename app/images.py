"""Rendered page images: the pool draws them (app/renderer.py), this keeps the recent ones and draws neighbours
ahead, and serves them to the sessions that may see them."""

from __future__ import annotations

import asyncio
import html
import logging
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Protocol

from app.renderer import RenderBusy, RenderError, RenderPool
from engine.pdf import render_page_png

log = logging.getLogger(__name__)

Renderer = Callable[[Path, int], bytes]
Key = tuple[str, int]


class Drawer(Protocol):
    """What draws pages: RenderPool (worker processes), or InProcessDrawer in tests."""

    def start(self) -> None: ...
    def render(self, path: Path, page: int) -> bytes: ...
    def render_ahead(self, path: Path, page: int) -> bytes | None: ...
    def close(self) -> None: ...


class InProcessDrawer:
    """Draws in the calling thread, with no limits (tests, and renderers that are not PyMuPDF)."""

    def __init__(self, renderer: Renderer = render_page_png) -> None:
        self.renderer = renderer

    def start(self) -> None:
        pass

    def render(self, path: Path, page: int) -> bytes:
        try:
            return self.renderer(path, page)
        except RenderError:
            raise
        except Exception as exc:
            raise RenderError(str(exc)) from None

    render_ahead = render

    def close(self) -> None:
        pass


class PageImageCache:
    """A bounded, thread-safe LRU of PNG bytes keyed by (content hash, page), and the pages that failed.

    Keys are content hashes, so two sessions holding the same PDF share its images and nobody can
    reach a page of a document that is not in their own workspace (the path comes from it). One page
    is drawn once however many ask for it at the same time; a page that failed fails at once for
    `failure_seconds` after (a page too complex to draw is not drawn again on every reload).
    """

    def __init__(self, max_bytes: int = 96 * 2**20, renderer: Renderer = render_page_png, processes: int = 1,
                 drawer: Drawer | None = None, failure_seconds: float = 600.0) -> None:
        self.max_bytes = max_bytes
        self.drawer: Drawer = drawer or (RenderPool() if processes >= 1 else InProcessDrawer(renderer))
        self.failure_seconds = failure_seconds
        self._items: OrderedDict[Key, bytes] = OrderedDict()
        self._size = 0
        self._failed: OrderedDict[Key, tuple[str, float]] = OrderedDict()
        self._lock = threading.Lock()
        self._inflight: dict[Key, Future[bytes]] = {}
        self._ahead = ThreadPoolExecutor(max_workers=2, thread_name_prefix="pdfrag-render-ahead")
        self.served: Counter[str] = Counter()  # pages by how they were had: cached, drawn, drawn ahead, awaited

    def warm(self) -> None:
        """Start render processes ahead of the first page (in the background)."""
        self.drawer.start()

    def get(self, path: Path, sha256: str, page: int) -> bytes:
        """The page's PNG, drawn now unless cached (or under way, then awaited); RenderError if it cannot be."""
        key = (sha256, page)
        for _ in range(3):
            with self._lock:
                if key in self._items:
                    self._items.move_to_end(key)
                    self._note(key, "cached")
                    return self._items[key]
                self._raise_if_failed(key)
                future = self._inflight.get(key)
                if future is None:
                    future = self._inflight[key] = Future()
                    break
            try:
                data = future.result()  # drawn for someone else, within that render's time limit
                with self._lock:
                    self._note(key, "awaited")
                return data
            except RenderBusy:
                continue  # a render ahead that found no free process: draw it here
        else:
            raise RenderBusy("the server is busy drawing other pages; try again in a moment")
        return self._draw(path, key, future, self.drawer.render)

    def prefetch(self, path: Path, sha256: str, pages: list[int]) -> None:
        """Draw these pages in the background unless they are cached, failed or under way."""
        for page in pages:
            key = (sha256, page)
            with self._lock:
                if key in self._items or key in self._inflight or key in self._failed:
                    continue
                future = self._inflight[key] = Future()
            self._ahead.submit(self._draw, path, key, future, self.drawer.render_ahead, "drawn ahead")

    def cached(self, sha256: str, page: int) -> bool:
        with self._lock:
            return (sha256, page) in self._items

    def failure(self, sha256: str, page: int) -> str | None:
        """Why this page could not be drawn, if it failed lately."""
        with self._lock:
            try:
                self._raise_if_failed((sha256, page))
            except RenderError as exc:
                return str(exc)
        return None

    def _raise_if_failed(self, key: Key) -> None:
        failed = self._failed.get(key)
        if failed is not None:
            if time.monotonic() - failed[1] < self.failure_seconds:
                raise RenderError(failed[0])
            del self._failed[key]

    def _note(self, key: Key, how: str) -> None:
        """Count how a page was had (the caller holds the lock)."""
        self.served[how] += 1
        log.debug("page image %s p. %d: %s", key[0][:12], key[1], how)

    def _draw(self, path: Path, key: Key, future: Future[bytes], draw: Callable[[Path, int], bytes | None],
              how: str = "drawn") -> bytes:
        try:
            data = draw(path, key[1])
            if data is None:
                raise RenderBusy("no render process free to draw ahead")
        except BaseException as exc:
            if not isinstance(exc, Exception):  # interrupted: whoever waits gets the same
                with self._lock:
                    self._inflight.pop(key, None)
                future.set_exception(exc)
                raise
            error = exc if isinstance(exc, RenderError) else RenderError(f"this page cannot be drawn ({exc})")
            with self._lock:
                self._inflight.pop(key, None)
                if not isinstance(error, RenderBusy):
                    self._failed[key] = (str(error), time.monotonic())
                    while len(self._failed) > 1024:
                        self._failed.popitem(last=False)
            future.set_exception(error)
            raise error from None
        self._store(key, data)
        with self._lock:
            self._inflight.pop(key, None)
            self._note(key, how)
        future.set_result(data)
        return data

    def _store(self, key: Key, data: bytes) -> None:
        with self._lock:
            if key in self._items:
                return
            self._items[key] = data
            self._size += len(data)
            while self._size > self.max_bytes and len(self._items) > 1:
                _, old = self._items.popitem(last=False)
                self._size -= len(old)

    def close(self) -> None:
        """Stop drawing: the renders ahead are dropped and the render processes killed."""
        self._ahead.shutdown(wait=False, cancel_futures=True)
        self.drawer.close()


class PageImageService:
    """Serves page images over HTTP (not the websocket), only to the session that was granted the document.

    A session registers under a random token; the Inspect page grants it each document it shows.
    URLs carry the content hash, so a browser may cache them for as long as it likes.
    """

    route = "/page-image/{token}/{doc_id}/{sha}/{page}.png"

    def __init__(self, cache: PageImageCache, per_session: int = 2) -> None:
        self.cache = cache
        self.per_session = per_session  # renders one session may wait for at once (the others queue)
        self._grants: dict[str, dict[str, tuple[Path, str, int]]] = {}
        self._turns: dict[str, asyncio.Semaphore] = {}
        self._lock = threading.Lock()
        self._waiting = ThreadPoolExecutor(max_workers=16, thread_name_prefix="pdfrag-render-wait")

    def register(self) -> str:
        import secrets

        token = secrets.token_urlsafe(18)
        with self._lock:
            self._grants[token] = {}
        return token

    def revoke(self, token: str) -> None:
        with self._lock:
            self._grants.pop(token, None)
            self._turns.pop(token, None)

    def grant(self, token: str, doc_id: str, path: Path, sha256: str, pages: int) -> None:
        with self._lock:
            if token in self._grants:
                self._grants[token][doc_id] = (path, sha256, pages)

    def url(self, token: str, doc_id: str, sha256: str, page: int) -> str:
        return f"page-image/{token}/{doc_id}/{sha256[:16]}/{page}.png"

    def lookup(self, token: str, doc_id: str, sha: str, page: int) -> tuple[Path, str] | None:
        with self._lock:
            grant = self._grants.get(token, {}).get(doc_id)
        if grant is None:
            return None
        path, sha256, pages = grant
        if not sha256.startswith(sha) or not 1 <= page <= pages:
            return None
        return path, sha256

    async def endpoint(self, request):
        """The Starlette endpoint of `route`: the PNG, or why the page cannot be drawn (never a traceback)."""
        from starlette.responses import Response

        params = request.path_params
        try:
            page = int(params["page"])
        except ValueError:
            return Response(status_code=404)
        token = params["token"]
        found = self.lookup(token, params["doc_id"], params["sha"], page)
        if found is None:
            return Response("not found", status_code=404, media_type="text/plain")
        path, sha256 = found
        turn = self._turns.setdefault(token, asyncio.Semaphore(self.per_session))
        try:
            async with turn:  # one session's slow pages hold its own turns, not the other sessions'
                loop = asyncio.get_running_loop()
                data = await loop.run_in_executor(self._waiting, self.cache.get, path, sha256, page)
        except RenderError as exc:
            return failure_response(page, str(exc), busy=isinstance(exc, RenderBusy),
                                    accept=request.headers.get("accept", ""))
        return Response(data, media_type="image/png",
                        headers={"Cache-Control": "private, max-age=86400, immutable"})

    def close(self) -> None:
        """Stop every render (the server's end)."""
        self.cache.close()
        self._waiting.shutdown(wait=False, cancel_futures=True)


def failure_response(page: int, reason: str, *, busy: bool, accept: str):
    """503 (busy) or 422 with the reason: as an SVG picture for an <img> (the Inspect page shows it where the
    page would be), as plain text for anything else."""
    from starlette.responses import Response

    status = 503 if busy else 422
    text = f"Page {page} cannot be shown: {reason}."
    headers = {"Cache-Control": "no-store"}
    if "image/" in accept and "text/html" not in accept:
        return Response(_message_svg(text), status_code=status, media_type="image/svg+xml", headers=headers)
    return Response(text, status_code=status, media_type="text/plain", headers=headers)


def _message_svg(text: str, width: int = 600, per_line: int = 62) -> str:
    words, lines, line = text.split(), [], ""
    for word in words:
        after_number = line.rsplit(" ", 1)[-1].replace(".", "").isdigit()  # "20 s" and "512 MB" stay whole
        if line and len(line) + 1 + len(word) > per_line and not after_number:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    lines.append(line)
    height = 60 + 24 * len(lines)
    rows = "".join(f'<tspan x="24" dy="{0 if i == 0 else 24}">{html.escape(row)}</tspan>'
                   for i, row in enumerate(lines[:12]))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img"><rect width="100%" height="100%" fill="#fff4f4" '
            f'stroke="#c0392b"/><text x="24" y="40" font-family="sans-serif" font-size="16" fill="#7b241c">'
            f'{rows}</text></svg>')
