"""Rendered page images: the engine renders, this keeps the recent ones and renders neighbours ahead."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from engine.pdf import render_page_png

Renderer = Callable[[Path, int], bytes]


class PageImageCache:
    """A bounded, thread-safe LRU of PNG bytes keyed by (content hash, page).

    Keys are content hashes, so two sessions holding the same PDF share its images and nobody can
    reach a page of a document that is not in their own workspace (the path comes from it).
    """

    def __init__(self, max_bytes: int = 96 * 2**20, renderer: Renderer = render_page_png,
                 prefetch_workers: int = 1) -> None:
        self.max_bytes = max_bytes
        self.renderer = renderer
        self._items: OrderedDict[tuple[str, int], bytes] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()
        self._inflight: dict[tuple[str, int], Future[bytes]] = {}
        self._pool = ThreadPoolExecutor(max_workers=prefetch_workers, thread_name_prefix="pdfrag-render")

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
        data = self.renderer(path, page)
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
            data = self.renderer(path, key[1])
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
