"""FakeServer: a threaded local HTTP server that records requests and answers from scripts or a responder.

Scripting: `server.script(reply, ..., match=predicate)` queues replies for the requests the predicate accepts
(every request when it is None); scripts are tried in the order they were added, a script is used up when its
replies are, and a request no script takes goes to `server.responder(request)`. A reply may carry its own
latency; `server.latency` applies to the others.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class Quota:
    """A sliding-window request quota, as the services enforce it: `take()` counts a request and returns None,
    or, over the limit, the seconds until the window lets one more in (and counts a refusal)."""

    def __init__(self, limit: int | None, window_s: float = 60.0) -> None:
        self.limit, self.window_s = limit, window_s
        self.refusals = 0
        self._served: list[float] = []
        self._lock = threading.Lock()

    def take(self) -> float | None:
        if self.limit is None:
            return None
        now = time.monotonic()
        with self._lock:
            self._served = [t for t in self._served if t > now - self.window_s]
            if len(self._served) >= self.limit:
                self.refusals += 1
                return max(0.001, self._served[0] + self.window_s - now)
            self._served.append(now)
        return None


@dataclass
class Reply:
    """One HTTP answer: a status, a JSON body, and an optional delay before it is sent."""

    status: int = 200
    body: Any = None
    latency: float | None = None
    headers: dict[str, str] | None = None


@dataclass
class Recorded:
    """One request the server received."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    received: float = field(default_factory=time.perf_counter)

    def header(self, name: str) -> str:
        return next((v for k, v in self.headers.items() if k.lower() == name.lower()), "")


Predicate = Callable[[Recorded], bool]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Http

    def setup(self) -> None:
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # no 40 ms Nagle stalls

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        self._serve()

    def do_POST(self) -> None:
        self._serve()

    def _serve(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        request = Recorded(self.command, self.path, dict(self.headers.items()), body)
        owner = self.server.owner
        owner.entered()
        try:
            reply = owner.dispatch(request)
            delay = owner.latency if reply.latency is None else reply.latency
            if delay:
                time.sleep(delay)
        finally:
            owner.left()
        data = b"" if reply.body is None else json.dumps(reply.body).encode()
        self.send_response(reply.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (reply.headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)


class _Http(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128
    owner: FakeServer


class FakeServer:
    """Base of the fakes: subclasses implement `route(request)` for their wire format."""

    def __init__(self, latency: float = 0.0) -> None:
        self.latency = latency
        self.requests: list[Recorded] = []
        self.in_flight = 0
        self.max_in_flight = 0  # the most requests being answered at once
        self._scripts: list[tuple[Predicate | None, deque[Reply]]] = []
        self._lock = threading.RLock()  # finish() of a scripted reply runs under it and may take it again
        self._http: _Http | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle
    def start(self) -> FakeServer:
        self._http = _Http(("127.0.0.1", 0), _Handler)
        self._http.owner = self
        self._thread = threading.Thread(target=self._http.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True, name=type(self).__name__)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._http is not None:
            self._http.shutdown()
            self._http.server_close()
            self._http = None

    def __enter__(self) -> FakeServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        assert self._http is not None, "the server is not started"
        host, port = self._http.server_address[:2]
        return f"http://{host}:{port}"

    def entered(self) -> None:
        with self._lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def left(self) -> None:
        with self._lock:
            self.in_flight -= 1

    # -- scripting
    def script(self, *replies: Reply, match: Predicate | None = None) -> FakeServer:
        """Queue replies for the next requests that `match` accepts (any request when None)."""
        with self._lock:
            self._scripts.append((match, deque(replies)))
        return self

    def clear(self) -> None:
        with self._lock:
            self._scripts.clear()
            self.requests.clear()
            self.max_in_flight = 0

    def dispatch(self, request: Recorded) -> Reply:
        with self._lock:
            self.requests.append(request)
        routed = self.route(request)
        if routed is not None:
            return routed
        with self._lock:
            for match, queue in self._scripts:
                if queue and (match is None or match(request)):
                    return self.finish(request, queue.popleft())
        return self.finish(request, self.responder(request))

    def route(self, request: Recorded) -> Reply | None:
        """A reply that does not depend on scripts (unknown path, model lookups), else None."""
        return None

    def responder(self, request: Recorded) -> Reply:
        """The answer to a request no script takes."""
        return Reply(404, {"error": "no script"})

    def finish(self, request: Recorded, reply: Reply) -> Reply:
        """Complete a scripted reply with what depends on the request (token counts, ids)."""
        return reply
