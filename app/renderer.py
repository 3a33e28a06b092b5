"""Page images drawn in child processes, each render with a time and a memory limit.

A PDF page can take minutes to draw (nested transparency groups, millions of paths) or ask for gigabytes
(a giant page). Each render runs in a worker process of a small pool, one render at a time per worker;
a render that passes its time limit has its worker killed and replaced, a render that passes the memory
limit (RLIMIT_AS, set in the worker) fails with MuPDF's allocation error, and either way only that page
fails. Other requests take another worker (a new one is started when all are busy, up to
`max_processes`), so they do not queue behind a slow page.

Workers are `python -m app.renderer` processes that read requests on stdin and answer on stdout. They
exit when the server closes their stdin or its process is gone, and an alarm kills one that is still
drawing a few seconds after its time limit, so no worker outlives the server whatever happens to it.
"""

from __future__ import annotations

import json
import os
import select
import signal
import struct
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

HEADER = struct.Struct(">cQ")  # b"K" (PNG follows) or b"E" (a UTF-8 message follows), then the length
REQUEST = struct.Struct(">I")
ROOT = Path(__file__).resolve().parents[1]  # the folder that holds the `app` and `engine` packages
ALARM_GRACE = 5  # seconds past the time limit after which a worker kills itself if the server did not
SLOW_AFTER = 0.5  # seconds after which a render, or a wait for a worker, is slow: the pool grows
IDLE_RETIRE = 120.0  # seconds idle after which a worker beyond the spares ends


class RenderError(Exception):
    """A page that could not be drawn; the message is meant for the reader of the page."""


class RenderBusy(RenderError):
    """No render process was free in time (the page itself may be fine: try again later)."""


@dataclass(eq=False)
class _Worker:
    process: subprocess.Popen[bytes]
    used: float = field(default_factory=time.monotonic)  # when it last finished a render (or started)

    @property
    def pipe_in(self) -> IO[bytes]:
        assert self.process.stdin is not None  # started with stdin=PIPE
        return self.process.stdin

    @property
    def pipe_out(self) -> IO[bytes]:
        assert self.process.stdout is not None  # started with stdout=PIPE
        return self.process.stdout

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for stream in (self.process.stdin, self.process.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass


class RenderPool:
    """Worker processes that render one page each at a time, with `timeout` seconds and `memory_mb` each.

    `spare` workers are kept idle and ready (topped up when a render is slow, so a page that never ends
    does not hold up the next request); `render_ahead` never takes the last idle one, which is kept for
    a render someone waits for.
    """

    def __init__(self, *, timeout: float = 20.0, memory_mb: int = 1024, max_processes: int = 4, spare: int = 2,
                 dpi: int = 110) -> None:
        self.timeout = timeout
        self.memory_mb = memory_mb
        self.max_processes = max(1, max_processes)
        self.spare = min(spare, self.max_processes)
        self.dpi = dpi
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._starting = 0
        self._waiting = 0  # renders waiting for a worker
        self._closed = False
        self._cond = threading.Condition()

    # -- the pool ----------------------------------------------------------------------------------

    def start(self) -> None:
        """Top the idle workers up to `spare`, in the background (the first page need not wait)."""
        with self._cond:
            if self._closed:
                return
            wanted = self.spare - len(self._idle) - self._starting
            wanted = min(wanted, self.max_processes - self._count())
            self._starting += max(0, wanted)
        for _ in range(max(0, wanted)):
            threading.Thread(target=self._start_one, name="pdfrag-render-start", daemon=True).start()

    def _count(self) -> int:
        return len(self._idle) + len(self._busy) + self._starting

    def _start_one(self) -> None:
        try:
            worker = self._spawn()
        except OSError:
            worker = None  # the render waiting for it fails at its deadline with RenderBusy
        with self._cond:
            self._starting -= 1
            if worker is not None and not self._closed:
                self._idle.append(worker)
                worker = None
            self._cond.notify_all()
        if worker is not None:
            worker.kill()

    def _spawn(self) -> _Worker:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
        process = subprocess.Popen(
            [sys.executable, "-m", "app.renderer", str(self.memory_mb), str(self.timeout), str(os.getpid())],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0, env=env, cwd=str(ROOT),
        )
        return _Worker(process)

    def _acquire(self, wait: bool, deadline: float) -> _Worker | None:
        """An idle worker, else the first one freed or started (the pool grows while all are busy);
        None for a render ahead when none is idle, RenderBusy when none comes by `deadline`."""
        patience = time.monotonic() + SLOW_AFTER  # pages take a tenth of a second: a worker is soon free
        with self._cond:
            self._waiting += 1
            try:
                while True:
                    if self._closed:
                        raise RenderBusy("the server is shutting down")
                    if not wait and len(self._idle) < 2:  # a render ahead never takes the last idle worker
                        return None
                    while self._idle:
                        worker = self._idle.pop()
                        if worker.alive():
                            self._busy.add(worker)
                            return worker
                        worker.kill()
                    if not wait:
                        return None
                    now = time.monotonic()
                    if (now >= patience and self._starting < self._waiting
                            and self._count() < self.max_processes):
                        self._starting += 1  # started in the background: a render that ends first may serve us
                        threading.Thread(target=self._start_one, name="pdfrag-render-start", daemon=True).start()
                    left = deadline - now
                    if left <= 0:
                        raise RenderBusy("the server is busy drawing other pages; try again in a moment")
                    self._cond.wait(min(left, patience - now) if now < patience else left)
            finally:
                self._waiting -= 1

    def _release(self, worker: _Worker, healthy: bool) -> None:
        retired: list[_Worker] = []
        with self._cond:
            self._busy.discard(worker)
            if healthy and not self._closed and worker.alive():
                worker.used = time.monotonic()
                self._idle.append(worker)
                retired = [w for w in self._idle[:-self.spare or None] if worker.used - w.used > IDLE_RETIRE]
                self._idle = [w for w in self._idle if w not in retired]
            else:
                retired = [worker]
            self._cond.notify_all()
        for old in retired:  # workers beyond the spares, idle for a while
            old.kill()
        self.start()

    def workers(self) -> list[int]:
        """The pids of the live workers (for tests and diagnostics)."""
        with self._cond:
            return [w.process.pid for w in [*self._idle, *self._busy] if w.alive()]

    def busy(self) -> list[int]:
        """The pids of the workers drawing a page now."""
        with self._cond:
            return [w.process.pid for w in self._busy]

    def close(self) -> None:
        """Kill every worker; renders under way fail."""
        with self._cond:
            self._closed = True
            workers = [*self._idle, *self._busy]
            self._idle.clear()
            self._busy.clear()
            self._cond.notify_all()
        for worker in workers:
            worker.kill()

    # -- one render --------------------------------------------------------------------------------

    def render(self, path: Path, page: int) -> bytes:
        """The page's PNG; RenderError (with a message for the reader) when it cannot be drawn in time."""
        deadline = time.monotonic() + self.timeout
        worker = self._acquire(True, deadline)
        assert worker is not None
        return self._render_on(worker, path, page)

    def render_ahead(self, path: Path, page: int) -> bytes | None:
        """Like `render`, but only when another worker stays idle; None (nothing done) otherwise."""
        worker = self._acquire(False, time.monotonic())
        return None if worker is None else self._render_on(worker, path, page)

    def _render_on(self, worker: _Worker, path: Path, page: int) -> bytes:
        healthy = False
        try:
            request = json.dumps({"path": str(path), "page": page, "dpi": self.dpi}).encode()
            try:
                worker.pipe_in.write(REQUEST.pack(len(request)) + request)
            except OSError:
                raise RenderError(self._death(worker)) from None
            deadline = time.monotonic() + self.timeout
            kind, size = HEADER.unpack(_read_exactly(worker, HEADER.size, deadline, self))
            payload = _read_exactly(worker, size, deadline, self)
            healthy = True
        finally:
            self._release(worker, healthy)
        if kind == b"K":
            return payload
        raise RenderError(payload.decode("utf-8", "replace"))

    def _death(self, worker: _Worker) -> str:
        try:
            code = worker.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return "the render process stopped answering"
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            if -code == signal.SIGKILL:  # the kernel's out-of-memory killer, or the worker's own alarm
                return f"the render process was killed ({name}): the page needs too much memory or time"
            return f"the render process crashed ({name}) while drawing this page"
        return f"the render process exited (code {code}) while drawing this page"


def _read_exactly(worker: _Worker, size: int, deadline: float, pool: RenderPool) -> bytes:
    """`size` bytes from the worker by `deadline`; kills it and raises RenderError otherwise.

    A render still under way after SLOW_AFTER seconds has the pool start a spare worker, so that the
    next request does not wait for this one (renders that quick start nothing).
    """
    fd = worker.pipe_out.fileno()
    chunks: list[bytes] = []
    missing = size
    slow_at = time.monotonic() + SLOW_AFTER
    while missing:
        left = deadline - time.monotonic()
        until_slow = slow_at - time.monotonic()
        wait = min(left, until_slow) if until_slow > 0 else left
        ready = select.select([fd], [], [], max(0.0, wait))[0] if left > 0 else []
        if not ready and 0 < until_slow <= left:
            slow_at = float("inf")
            pool.start()
            continue
        if not ready:
            worker.kill()
            raise RenderError(f"drawing this page took longer than {pool.timeout:g} s, so it was stopped "
                              "(the page is too complex to show here)")
        chunk = os.read(fd, min(missing, 2**20))
        if not chunk:
            raise RenderError(pool._death(worker))
        chunks.append(chunk)
        missing -= len(chunk)
    return b"".join(chunks)


# -- the worker process ----------------------------------------------------------------------------


def _limit_memory(memory_mb: int) -> None:
    import resource

    limit = memory_mb * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _draw(request: dict, memory_mb: int) -> tuple[bytes, bytes]:
    from engine.pdf import PdfError, render_page_png

    try:
        return b"K", render_page_png(Path(request["path"]), int(request["page"]), dpi=int(request["dpi"]))
    except MemoryError:
        return b"E", f"drawing this page needs more than {memory_mb} MB of memory".encode()
    except PdfError as exc:
        return b"E", str(exc).encode()
    except Exception as exc:  # MuPDF reports failed allocations as its own errors
        text = str(exc)
        if "malloc" in text.lower() or "memory" in text.lower():
            return b"E", f"drawing this page needs more than {memory_mb} MB of memory".encode()
        return b"E", f"this page cannot be drawn ({type(exc).__name__}: {text[:200]})".encode()


def serve(memory_mb: int, timeout: float, parent_pid: int) -> None:
    """Answer render requests on stdin until it closes (the server's end)."""
    from engine.procs import watch_parent

    watch_parent(parent_pid)  # the server killed outright: gone within a second (stdin closes too)
    requests = os.fdopen(sys.stdin.fileno(), "rb", buffering=0, closefd=False)
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb", buffering=0)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # stray prints must not corrupt the answers
    sys.stdout = sys.stderr
    import pymupdf  # noqa: F401  (loaded before the memory limit and the first request)

    import engine.pdf  # noqa: F401
    _limit_memory(memory_mb)
    alarm = int(timeout) + ALARM_GRACE
    while True:
        head = _read_all(requests, REQUEST.size)
        if head is None:
            return
        body = _read_all(requests, REQUEST.unpack(head)[0])
        if body is None:
            return
        signal.alarm(alarm)  # SIGALRM's default action ends the process, even inside MuPDF
        kind, payload = _draw(json.loads(body), memory_mb)
        signal.alarm(0)
        answers.write(HEADER.pack(kind, len(payload)) + payload)


def _read_all(stream, size: int) -> bytes | None:
    data = b""
    while len(data) < size:
        chunk = stream.read(size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


if __name__ == "__main__":
    serve(int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]))
