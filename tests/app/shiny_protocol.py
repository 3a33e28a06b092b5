"""A browser session spoken as Shiny's JavaScript speaks it, with no browser: the websocket and the upload POSTs.

For the tests that must do what a hostile client can (announce one size and send another, skip the
browser's checks, never finish an upload), and measure what the server keeps on disk meanwhile.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

from websockets.sync.client import connect


# The inputs the browser sends when the workbench opens that its server needs before it starts an ingest.
WORKBENCH_INPUTS = {"settings-provider": "offline", "settings-workers": 1, "settings-model": "",
                    "settings-key_gemini": "", "settings-key_mistral": "", "settings-method": "hybrid",
                    "settings-k": 5, "pipeline-force": False}


class ShinySession:
    """One session of the app at `url` (its websocket open until `close`), starting with `inputs`."""

    def __init__(self, url: str, timeout: float = 20.0, inputs: dict | None = None) -> None:
        self.url = url
        self.timeout = timeout
        self._tags = itertools.count(100)
        self.received: list[dict] = []  # every message so far
        self._stack = ExitStack()
        self._ws = self._stack.enter_context(connect(url.replace("http", "ws", 1) + "websocket/", origin=url.rstrip("/"),
                                                     max_size=None, open_timeout=timeout))
        config = self.wait_for(lambda m: "config" in m)
        self.id = config["config"]["sessionId"]
        self._send({"method": "init", "data": {".clientdata_url_search": "", **WORKBENCH_INPUTS, **(inputs or {})}})

    def _send(self, message: dict) -> None:
        self._ws.send(json.dumps(message))

    def wait_for(self, wanted: Callable[[dict], bool], timeout: float | None = None) -> dict:
        """The next message `wanted` accepts (the others are kept in `received`); TimeoutError when none comes."""
        while True:
            message = json.loads(self._ws.recv(timeout=timeout or self.timeout))
            self.received.append(message)
            if wanted(message):
                return message

    def upload_init(self, files: list[tuple[str, int]]) -> tuple[str, str]:
        """Announce uploads as (name, declared size); returns (job id, upload URL)."""
        tag = next(self._tags)
        self._send({"method": "uploadInit", "tag": tag,
                    "args": [[{"name": name, "size": size, "type": "application/pdf"} for name, size in files]]})
        reply = self.wait_for(lambda m: m.get("response", {}).get("tag") == tag)
        value = reply["response"]["value"]
        return value["jobId"], self.url + value["uploadUrl"]

    def upload_end(self, job_id: str, input_id: str) -> None:
        tag = next(self._tags)
        self._send({"method": "uploadEnd", "tag": tag, "args": [job_id, input_id]})
        self.wait_for(lambda m: m.get("response", {}).get("tag") == tag)

    def close(self) -> None:
        self._stack.close()


def disk_bytes(folder: Path) -> int:
    """Bytes of the regular files under `folder` now (files may come and go while it walks)."""
    total = 0
    for root, _, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                pass
    return total


def watched_body(size: int, folder: Path, peaks: list[int], chunk: int = 2**20) -> Iterator[bytes]:
    """`size` bytes of a would-be PDF, measuring the disk use under `folder` before every chunk is sent."""
    sent = 0
    while sent < size:
        peaks.append(disk_bytes(folder))
        piece = (b"%PDF-1.4\n" + b"x" * (chunk - 9)) if sent == 0 else b"x" * chunk
        piece = piece[:size - sent]
        sent += len(piece)
        yield piece
    peaks.append(disk_bytes(folder))
