"""Rendered page images: the engine renders, this keeps the recent ones and renders neighbours ahead."""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from engine.pdf import render_page_png
from engine.procs import watch_parent

Renderer = Callable[[Path, int], bytes]


class PageImageCache:
    """A bounded, thread-safe LRU of PNG bytes keyed by (content hash, page).

    Keys are content hashes, so two sessions holding the same PDF share its images and nobody can
    reach a page of a document that is not in their own workspace (the path comes from it).
    """

    def __init__(self, max_bytes: int = 96 * 2**20, renderer: Renderer = render_page_png,
                 processes: int = 1) -> None:
        self.max_bytes = max_bytes
        self.renderer = renderer
        self.processes = processes  # 0: render in threads of this process (tests)
        self._items: OrderedDict[tuple[str, int], bytes] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()
        self._inflight: dict[tuple[str, int], Future[bytes]] = {}
        self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="pdfrag-render")
        self._procs: ProcessPoolExecutor | None = None

    def warm(self) -> None:
        """Start the render process ahead of the first page (from a background thread)."""
        if self.processes >= 1:
            self._pool.submit(self._start_processes)

    def _start_processes(self) -> None:
        with self._lock:
            if self._procs is None:
                self._procs = ProcessPoolExecutor(max_workers=self.processes,
                                                  mp_context=multiprocessing.get_context("spawn"),
                                                  initializer=watch_parent, initargs=(os.getpid(),))
            procs = self._procs
        procs.submit(int, 0).result(timeout=60)

    def _render(self, path: Path, page: int) -> bytes:
        """Render in a worker process: PyMuPDF holds the GIL while it draws, which would stall the app."""
        if self.processes < 1:
            return self.renderer(path, page)
        with self._lock:
            if self._procs is None:
                self._procs = ProcessPoolExecutor(max_workers=self.processes,
                                                  mp_context=multiprocessing.get_context("spawn"),
                                                  initializer=watch_parent, initargs=(os.getpid(),))
            procs = self._procs
        try:
            return procs.submit(self.renderer, path, page).result(timeout=60)
        except BrokenProcessPool:
            with self._lock:
                if self._procs is procs:
                    self._procs = None
            return self.renderer(path, page)

    def get(self, path: Path, sha256: str, page: int) -> bytes:
        """The page's PNG, rendered now unless cached (or being rendered ahead, then awaited)."""
        key = (sha256, page)
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
            future = self._inflight.get(key)
        if future is not None:
            try:
                return future.result(timeout=30)
            except Exception:
                pass  # render it here, and raise its error if it fails again
        data = self._render(path, page)
        self._store(key, data)
        return data

    def prefetch(self, path: Path, sha256: str, pages: list[int]) -> None:
        """Render these pages in the background unless they are cached or under way."""
        for page in pages:
            key = (sha256, page)
            with self._lock:
                if key in self._items or key in self._inflight:
                    continue
                future = self._pool.submit(self._render_ahead, path, key)
                self._inflight[key] = future

    def cached(self, sha256: str, page: int) -> bool:
        with self._lock:
            return (sha256, page) in self._items

    def _render_ahead(self, path: Path, key: tuple[str, int]) -> bytes:
        try:
            data = self._render(path, key[1])
            self._store(key, data)
            return data
        finally:
            with self._lock:
                self._inflight.pop(key, None)

    def _store(self, key: tuple[str, int], data: bytes) -> None:
        with self._lock:
            if key in self._items:
                return
            self._items[key] = data
            self._size += len(data)
            while self._size > self.max_bytes and len(self._items) > 1:
                _, old = self._items.popitem(last=False)
                self._size -= len(old)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        if self._procs is not None:
            self._procs.shutdown(wait=False, cancel_futures=True)


class PageImageService:
    """Serves page images over HTTP (not the websocket), only to the session that was granted the document.

    A session registers under a random token; the Inspect page grants it each document it shows.
    URLs carry the content hash, so a browser may cache them for as long as it likes.
    """

    route = "/page-image/{token}/{doc_id}/{sha}/{page}.png"

    def __init__(self, cache: PageImageCache) -> None:
        self.cache = cache
        self._grants: dict[str, dict[str, tuple[Path, str, int]]] = {}
        self._lock = threading.Lock()

    def register(self) -> str:
        import secrets

        token = secrets.token_urlsafe(18)
        with self._lock:
            self._grants[token] = {}
        return token

    def revoke(self, token: str) -> None:
        with self._lock:
            self._grants.pop(token, None)

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
        """The Starlette endpoint of `route`."""
        import asyncio

        from starlette.responses import Response

        params = request.path_params
        try:
            page = int(params["page"])
        except ValueError:
            return Response(status_code=404)
        found = self.lookup(params["token"], params["doc_id"], params["sha"], page)
        if found is None:
            return Response("not found", status_code=404, media_type="text/plain")
        path, sha256 = found
        try:
            data = await asyncio.to_thread(self.cache.get, path, sha256, page)
        except Exception as exc:
            return Response(f"page {page} cannot be rendered: {exc}", status_code=500, media_type="text/plain")
        return Response(data, media_type="image/png",
                        headers={"Cache-Control": "private, max-age=86400, immutable"})
