"""app/security.py: foreign origins refused (HTTP 403, websocket closed before it is accepted), the security
headers on every response, the CSP naming exactly the inline scripts the page carries, and the settings."""

from __future__ import annotations

import base64
import hashlib
import os
import re
import socket

import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.security import (DEFAULT_FRAME_ANCESTORS, SecurityConfigError, SecurityMiddleware, SecurityPolicy,
                          inline_script_hashes, normalise_origin)

FOREIGN = "http://evil.example"


def small_app(policy: SecurityPolicy | None = None) -> tuple[SecurityMiddleware, list[str]]:
    """An app with one page, one form target and one echo websocket, behind the middleware; `reached`
    records every request that got past it."""
    reached: list[str] = []

    async def page(request):
        reached.append(f"{request.method} {request.url.path}")
        return PlainTextResponse("hello", headers={"X-Content-Type-Options": "nosniff"})

    async def echo(websocket):
        reached.append("websocket")
        await websocket.accept()
        await websocket.send_text(await websocket.receive_text())
        await websocket.close()

    inner = Starlette(routes=[Route("/", page, methods=["GET", "POST"]), WebSocketRoute("/ws", echo)])
    return SecurityMiddleware(inner, policy or SecurityPolicy(script_hashes=("'sha256-abc='",))), reached


@pytest.fixture
def client():
    app, reached = small_app()
    test_client = TestClient(app)
    test_client.reached = reached
    return test_client


def test_foreign_origin_websocket_is_refused_before_it_is_accepted(client):
    with pytest.raises(WebSocketDisconnect) as refused:
        with client.websocket_connect("/ws", headers={"Origin": FOREIGN}):
            pass
    assert refused.value.code == 1008
    assert client.reached == []


@pytest.mark.parametrize("headers", [{"Origin": "http://testserver"}, {}])
def test_same_origin_or_originless_websocket_works(client, headers):
    with client.websocket_connect("/ws", headers=headers) as ws:
        ws.send_text("ping")
        assert ws.receive_text() == "ping"
    assert client.reached == ["websocket"]


@pytest.mark.parametrize("method", ["GET", "POST"])
@pytest.mark.parametrize("origin", [FOREIGN, "null", "http://testserver:8080", "http://testserver.evil.example",
                                    "file://", "chrome-extension://abc", "http://user@testserver", "not an origin"])
def test_foreign_origin_http_gets_403_with_the_headers(client, method, origin):
    response = client.request(method, "/", headers={"Origin": origin})
    assert response.status_code == 403
    assert "refused" in response.text
    assert "frame-ancestors" in response.headers["content-security-policy"]
    assert client.reached == []


@pytest.mark.parametrize("origin", ["http://testserver", "http://TestServer:80", None])
def test_same_origin_or_originless_http_is_served_with_the_headers(client, origin):
    response = client.post("/", headers={"Origin": origin} if origin else {})
    assert response.status_code == 200 and response.text == "hello"
    policy = response.headers["content-security-policy"]
    assert "script-src 'self' 'sha256-abc='" in policy
    assert "frame-ancestors 'self' https://huggingface.co https://*.hf.space" in policy
    assert "unsafe-inline" not in policy.split("style-src")[0] and "unsafe-eval" not in policy
    assert response.headers.get_list("x-content-type-options") == ["nosniff"]  # the app's own, not doubled
    assert response.headers["referrer-policy"] == "same-origin"


@pytest.mark.parametrize("headers", [
    {"Host": "user-space.hf.space", "Origin": "https://user-space.hf.space"},  # TLS ends at the proxy
    {"Host": "10.0.0.5:7860", "X-Forwarded-Host": "user-space.hf.space", "Origin": "https://user-space.hf.space"},
    {"Host": "10.0.0.5:7860", "X-Forwarded-Host": "user-space.hf.space, inner",
     "Origin": "https://user-space.hf.space"},
    {"Host": "[::1]:8000", "Origin": "http://[::1]:8000"},
])
def test_behind_a_proxy_the_forwarded_host_counts(headers):
    policy = SecurityPolicy()
    assert policy.origin_allowed(headers["Origin"], [headers["Host"], headers.get("X-Forwarded-Host")])


@pytest.mark.parametrize("origin, hosts", [
    ("https://user-space.hf.space", ["10.0.0.5:7860"]),
    ("https://other-space.hf.space", ["user-space.hf.space"]),
    ("http://127.0.0.1:3000", ["127.0.0.1:8000"]),
    ("http://localhost:8000", ["127.0.0.1:8000"]),
    ("http://127.0.0.1:8000", []),
    ("http://127.0.0.1:8000", ["127.0.0.1:notaport"]),
])
def test_a_different_host_or_port_is_foreign(origin, hosts):
    assert not SecurityPolicy().origin_allowed(origin, hosts)


def test_allowed_origins_from_the_environment():
    policy = SecurityPolicy.from_env({"PDFRAG_ALLOWED_ORIGINS": "https://example.org, http://localhost:3000"})
    assert policy.allowed_origins == {"https://example.org:443", "http://localhost:3000"}
    assert policy.origin_allowed("https://example.org", ["10.0.0.5:7860"])
    assert policy.origin_allowed("http://localhost:3000", ["127.0.0.1:8000"])
    assert not policy.origin_allowed("http://localhost:3001", ["127.0.0.1:8000"])
    with pytest.raises(SecurityConfigError, match="PDFRAG_ALLOWED_ORIGINS"):
        SecurityPolicy.from_env({"PDFRAG_ALLOWED_ORIGINS": "example.org/path"})


def test_frame_ancestors_from_the_environment():
    assert SecurityPolicy.from_env({}).frame_ancestors == DEFAULT_FRAME_ANCESTORS
    policy = SecurityPolicy.from_env({"PDFRAG_FRAME_ANCESTORS": "'self' https://intranet.example.org:8443"})
    assert "frame-ancestors 'self' https://intranet.example.org:8443" in policy.content_security_policy()
    assert "frame-ancestors 'none'" in SecurityPolicy.from_env(
        {"PDFRAG_FRAME_ANCESTORS": "'none'"}).content_security_policy()
    for bad in ("'self'; script-src *", "https://a.org,https://b.org", "'unsafe-inline'", "https://a.org/x\r\n"):
        with pytest.raises(SecurityConfigError, match="PDFRAG_FRAME_ANCESTORS"):
            SecurityPolicy.from_env({"PDFRAG_FRAME_ANCESTORS": bad})


def test_normalise_origin():
    assert normalise_origin("HTTPS://Example.ORG") == "https://example.org:443"
    assert normalise_origin("http://example.org:8080/") == "http://example.org:8080"
    for bad in ("null", "", "ftp://example.org", "https://example.org/path", "https://", "http://a:99999"):
        assert normalise_origin(bad) is None, bad


def test_inline_script_hashes_cover_code_only():
    body = "window.bslib.Card.initializeAllCards();"
    digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
    html = (f"<script data-bslib-card-init>{body}</script><script src='x.js'></script>"
            '<script type="application/json">{"a": 1}</script><script type="module">import "./m.js";</script>'
            f"<SCRIPT>{body}</SCRIPT>")
    hashes = inline_script_hashes(html)
    assert hashes[0] == f"'sha256-{digest}'" and len(hashes) == 2


# -- the workbench itself ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def workbench(tmp_path_factory):
    from app.app import create_app
    from app.config import AppConfig

    root = tmp_path_factory.mktemp("security")
    config = AppConfig(data_dir=root / "workspace", samples_dir=root / "no-samples")
    with TestClient(create_app(config)) as client:
        yield client


def test_the_page_csp_allows_exactly_its_inline_scripts(workbench):
    response = workbench.get("/")
    assert response.status_code == 200
    policy = response.headers["content-security-policy"]
    script_src = re.search(r"script-src ([^;]+)", policy).group(1).split()
    page_hashes = inline_script_hashes(response.text)
    assert page_hashes and set(page_hashes) <= set(script_src)
    assert set(script_src) - set(page_hashes) - {"'self'"}  # and the modal dialog's, sent later
    assert "'unsafe-inline'" not in script_src and "'unsafe-eval'" not in script_src
    assert response.headers["x-content-type-options"] == "nosniff"


def test_the_workbench_refuses_a_foreign_origin(workbench):
    assert workbench.get("/", headers={"Origin": FOREIGN}).status_code == 403
    with pytest.raises(WebSocketDisconnect):
        with workbench.websocket_connect("/websocket/", headers={"Origin": FOREIGN}):
            pass


def _upgrade(port: int, origin: str, host: str | None = None) -> str:
    """The status line uvicorn answers a websocket upgrade to Shiny's endpoint with."""
    key = base64.b64encode(os.urandom(16)).decode()
    host = host or f"127.0.0.1:{port}"
    request = (f"GET /websocket/ HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: {origin}\r\n\r\n")
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request.encode())
        return sock.recv(1024).decode("latin-1").split("\r\n", 1)[0]


def test_a_running_server_answers_a_foreign_websocket_with_403(tmp_path):
    from browser_helpers import start_server, stop_server

    server = start_server(tmp_path / "workspace")
    try:
        port = int(server.url.rstrip("/").rsplit(":", 1)[1])
        assert _upgrade(port, FOREIGN).startswith("HTTP/1.1 403")
        assert _upgrade(port, f"http://127.0.0.1:{port}").startswith("HTTP/1.1 101")
    finally:
        stop_server(server)


@pytest.mark.parametrize("bind, host, allowed", [
    ("127.0.0.1", "127.0.0.1:8000", True), ("127.0.0.1", "localhost:8000", True), ("127.0.0.1", "[::1]:8000", True),
    ("127.0.0.1", "app.localhost", True), ("127.0.0.1", "attacker.example:8000", False),
    ("127.0.0.1", "127.0.0.1.attacker.example", False), ("localhost", "evil.example", False),
    ("::1", "evil.example", False), ("0.0.0.0", "evil.example", True), (None, "evil.example", True),
])
def test_a_loopback_server_answers_only_loopback_host_names(bind, host, allowed):
    """DNS rebinding: a page re-pointed at 127.0.0.1 has a matching Origin and Host, but not a loopback name."""
    policy = SecurityPolicy.from_env({}, bind_host=bind)
    assert policy.host_allowed(host) is allowed
    app, reached = small_app(policy)
    origin = f"http://{host}"
    response = TestClient(app).get("/", headers={"Host": host, "Origin": origin})
    assert response.status_code == (200 if allowed else 403)
    assert bool(reached) is allowed


def test_allowed_hosts_from_the_environment():
    policy = SecurityPolicy.from_env({"PDFRAG_ALLOWED_HOSTS": "pdfrag.lan, box.internal"}, bind_host="127.0.0.1")
    assert policy.host_allowed("pdfrag.lan:8000") and policy.host_allowed("BOX.internal")
    assert not policy.host_allowed("other.lan")


def test_a_running_server_refuses_a_rebound_host_name(tmp_path):
    from browser_helpers import start_server, stop_server

    server = start_server(tmp_path / "workspace")
    try:
        port = int(server.url.rstrip("/").rsplit(":", 1)[1])
        rebound = f"rebind.attacker.example:{port}"
        assert _upgrade(port, f"http://{rebound}", host=rebound).startswith("HTTP/1.1 403")
        assert _upgrade(port, f"http://localhost:{port}", host=f"localhost:{port}").startswith("HTTP/1.1 101")
    finally:
        stop_server(server)
