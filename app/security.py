"""Cross-site protection for the workbench: a pure ASGI middleware that refuses HTTP and websocket requests
from a foreign Origin and puts a Content-Security-Policy and the other security headers on every response.

Same origin: a request's Origin names the host and port the request was sent to (its Host header or, behind
a proxy, X-Forwarded-Host). A browser sets Origin itself and a page cannot forge it, nor add X-Forwarded-Host
to a websocket or to a cross-site request without a preflight this app never answers, so these headers can be
trusted for what the check is for: another site's page acting with the visitor's browser. Requests without an
Origin (curl, a top-level navigation, same-origin GETs) pass. Only host and port are compared: a TLS proxy in
front (the Space) receives https and forwards http, and a host and port are one server whichever the scheme;
a Host without a port stands for the default port of the Origin's scheme.
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from engine.settings import DEFAULT_FRAME_ANCESTORS, EnvSettings

DEFAULT_PORTS = {"http": 80, "https": 443}

# One CSP source expression: a keyword, a scheme ("https:"), or a host with optional scheme, "*." and port.
_SOURCE = re.compile(r"^(?:'self'|'none'|\*|[a-z][a-z0-9+.\-]*:"
                     r"|(?:[a-z][a-z0-9+.\-]*://)?(?:\*\.)?[a-z0-9\-]+(?:\.[a-z0-9\-]+)*(?::(?:\d{1,5}|\*))?)$",
                     re.IGNORECASE)
_SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.IGNORECASE | re.DOTALL)
_TYPE = re.compile(r"""\btype\s*=\s*["']?([^"'\s>]+)""", re.IGNORECASE)
_JS_TYPES = {"", "module", "text/javascript", "application/javascript"}


class SecurityConfigError(ValueError):
    """A PDFRAG_ALLOWED_ORIGINS or PDFRAG_FRAME_ANCESTORS value that cannot be used."""


def normalise_origin(origin: str) -> str | None:
    """"scheme://host:port" (lower case, the port always written) for an http(s) origin, else None
    (the "null" origin of sandboxed frames and data: pages, other schemes, anything malformed)."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), parts.hostname
    if scheme not in DEFAULT_PORTS or not host or parts.path not in ("", "/") or parts.query or parts.username:
        return None
    return f"{scheme}://{host}:{port or DEFAULT_PORTS[scheme]}"


def _host_port(host: str, scheme: str) -> tuple[str, int] | None:
    try:
        parts = urlsplit("//" + host.strip())
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname:
        return None
    return parts.hostname, port or DEFAULT_PORTS[scheme]


def inline_script_hashes(*documents: str) -> tuple[str, ...]:
    """The CSP hash sources ('sha256-…') of the inline scripts in these HTML documents (data blocks such
    as type="application/json" run nothing and are left out), in order, without repeats."""
    found: dict[str, None] = {}
    for html in documents:
        for attributes, body in _SCRIPT.findall(html):
            kind = _TYPE.search(attributes)
            if re.search(r"\bsrc\s*=", attributes, re.IGNORECASE) or (kind and kind.group(1).lower() not in _JS_TYPES):
                continue
            digest = base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode("ascii")
            found[f"'sha256-{digest}'"] = None
    return tuple(found)


def _is_loopback_name(name: str) -> bool:
    """localhost (and *.localhost), or a loopback IP address."""
    name = name.lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class SecurityPolicy:
    """Which origins may call the app, who may frame it, and which inline scripts may run."""

    allowed_origins: frozenset[str] = frozenset()  # normalised, beyond the request's own origin
    frame_ancestors: tuple[str, ...] = DEFAULT_FRAME_ANCESTORS
    script_hashes: tuple[str, ...] = field(default=())  # the inline scripts Shiny and bslib put in the page
    # Bound to a loopback address, the server answers only loopback host names (and PDFRAG_ALLOWED_HOSTS): a
    # page whose own name was re-pointed at 127.0.0.1 (DNS rebinding) has a matching Origin but a foreign Host.
    loopback_only: bool = False
    allowed_hosts: frozenset[str] = frozenset()

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, *, script_hashes: Iterable[str] = (),
                 bind_host: str | None = None) -> SecurityPolicy:
        """PDFRAG_ALLOWED_ORIGINS (comma or space separated origins), PDFRAG_FRAME_ANCESTORS (CSP source
        expressions, space separated; default: the app itself, huggingface.co and *.hf.space) and
        PDFRAG_ALLOWED_HOSTS (host names a loopback-bound server answers besides localhost and 127.0.0.1).
        `bind_host`: the address the server listens on (None: unknown, no Host check)."""
        environment = EnvSettings.from_env(env)
        origins = set()
        for value in environment.allowed_origins:
            normal = normalise_origin(value)
            if normal is None:
                raise SecurityConfigError(f"PDFRAG_ALLOWED_ORIGINS: {value!r} is not an http(s) origin "
                                          "such as https://example.org")
            origins.add(normal)
        ancestors = environment.frame_ancestors or DEFAULT_FRAME_ANCESTORS
        for source in ancestors:
            if not _SOURCE.match(source):
                raise SecurityConfigError(f"PDFRAG_FRAME_ANCESTORS: {source!r} is not a CSP source expression "
                                          "(e.g. 'self' https://example.org https://*.example.org)")
        hosts = frozenset(h.lower() for h in environment.allowed_hosts)
        loopback = bind_host is not None and _is_loopback_name(bind_host.strip("[]"))
        return cls(frozenset(origins), ancestors, tuple(script_hashes), loopback, hosts)

    def host_allowed(self, host: str | None) -> bool:
        """Whether a request sent to this Host may proceed (always, unless the server is bound to loopback)."""
        if not self.loopback_only or host is None:
            return True
        name = host.strip().lower()
        name = name[1:name.index("]")] if name.startswith("[") and "]" in name else name.rsplit(":", 1)[0]
        return _is_loopback_name(name) or name in self.allowed_hosts

    def origin_allowed(self, origin: str | None, hosts: Iterable[str | None]) -> bool:
        """Whether a request with this Origin header, sent to one of these hosts (Host, X-Forwarded-Host),
        may proceed: no Origin, an allowed origin, or one naming a host and port the request was sent to."""
        if origin is None:
            return True
        normal = normalise_origin(origin)
        if normal is None:
            return False
        if normal in self.allowed_origins:
            return True
        scheme, rest = normal.split("://", 1)
        host, port = rest.rsplit(":", 1)
        for value in hosts:
            for candidate in (value or "").split(","):
                if candidate.strip() and _host_port(candidate, scheme) == (host, int(port)):
                    return True
        return False

    def content_security_policy(self) -> str:
        scripts = " ".join(("'self'", *self.script_hashes))
        return "; ".join([
            "default-src 'self'",
            f"script-src {scripts}",
            "script-src-attr 'none'",  # no inline event handlers at all
            # bslib and Shiny write style attributes and <style> elements into the page as it runs; a style
            # cannot run script, and document text never reaches an attribute (app/safe_html.py)
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' data: blob:",  # Bootstrap's icons are data: URIs
            "font-src 'self' data:",
            "connect-src 'self'",  # the Shiny websocket ('self' covers ws: and wss: on this host)
            "frame-src 'none'",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
            f"frame-ancestors {' '.join(self.frame_ancestors)}",
        ])

    def headers(self) -> list[tuple[bytes, bytes]]:
        return [
            (b"content-security-policy", self.content_security_policy().encode("latin-1")),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"same-origin"),  # page-image URLs carry a session token
        ]


class SecurityMiddleware:
    """Wraps an ASGI app: a foreign Origin gets 403 (a websocket is closed before it is accepted, which the
    server answers with 403), and every HTTP response gets the policy's headers."""

    def __init__(self, app, policy: SecurityPolicy) -> None:
        self.app = app
        self.policy = policy
        self._headers = policy.headers()
        self._names = {name for name, _ in self._headers}

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        origin, hosts, host = None, [], None
        for name, value in scope.get("headers", ()):
            if name == b"origin":
                origin = value.decode("latin-1")
            elif name in (b"host", b"x-forwarded-host"):
                hosts.append(value.decode("latin-1"))
                if name == b"host":
                    host = value.decode("latin-1")
        if not self.policy.host_allowed(host):
            await self._refuse(scope, receive, send, b"Host not served: this workbench listens on a loopback address "
                                                     b"(add the name to PDFRAG_ALLOWED_HOSTS to allow it).\n")
            return
        if not self.policy.origin_allowed(origin, hosts):
            await self._refuse(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", ()) if k.lower() not in self._names]
                message = {**message, "headers": kept + self._headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)

    async def _refuse(self, scope, receive, send, body: bytes = b"Cross-origin request refused.\n") -> None:
        if scope["type"] == "websocket":
            message = await receive()
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.close", "code": 1008})
            return
        await send({"type": "http.response.start", "status": 403,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                (b"content-length", str(len(body)).encode()), *self._headers]})
        await send({"type": "http.response.body", "body": body})


def shiny_script_hashes(shiny_app) -> tuple[str, ...]:
    """The hashes of the inline scripts a Shiny app's page runs: those of its rendered page (bslib's card
    and sidebar set-up, the busy indicators, the date picker's, app.js) and of a modal dialog, which
    Shiny sends later with a script of its own. The page is built by the app's code from its
    configuration, never from a document, so what it inlines is what the app needs."""
    from shiny import ui

    page = shiny_app.ui
    if not isinstance(page, Mapping) or not isinstance(page.get("html"), str):
        raise TypeError("the app's page is rendered per request; its inline scripts cannot be known in advance")
    return inline_script_hashes(page["html"], str(ui.modal()))
