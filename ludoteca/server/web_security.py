"""What a browser needs to be told, and what the arena refuses from other sites' pages.

``WebGuard`` wraps the whole app (HTTP and WebSocket), in this order:

1. **Host** must be one this server answers to (``allowed_hosts``): a page on another site
   whose name was made to point at this machine (DNS rebinding) names that site in ``Host``.
   IP addresses, ``localhost`` and this machine's own name are always accepted (a rebinding
   needs a name of the attacker's); 400 ``bad_host``.
2. **Origin**, on every request that may change something (any method but GET, HEAD and
   OPTIONS) and on every WebSocket: a browser names the page's origin, which must be this
   server's own address (the origin's host and port equal ``Host``) or one listed in
   ``allowed_origins``; 403 ``bad_origin`` otherwise, ``Origin: null`` included. An HTTP
   request with no ``Origin`` must carry ``X-Ludoteca-Client`` instead (any value): a page on
   another site can send neither without the browser asking this server first (CORS), which
   it never allows; 403 ``no_origin``. A WebSocket with no ``Origin`` is a program (browsers
   always send one) and is let in, and so is a POST to a ``TOKEN_ROUTES`` route (the
   one-click unsubscribe a mail client posts), which acts on its signed token alone.
3. **Cookies**: the app gets only the cookies it reads, and only with plain values
   (``safe_cookies``), so the standard library's quadratic unquoting on old Pythons
   (CVE-2024-7592) never runs on anything large.
4. **Headers** on every HTTP answer (``SECURITY_HEADERS``): a Content-Security-Policy that
   allows only this server's own scripts, styles, images and connections and no framing,
   ``nosniff``, and a referrer policy that keeps addresses (invite links) on this site;
   scripts and stylesheets, which are never documents, get ``nosniff`` alone.

Refusals are typed errors in the asker's language (``errors.py``).
"""

from __future__ import annotations

import ipaddress
import logging
import re
import socket
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from starlette.responses import JSONResponse

from ludoteca.server import errors as E
from ludoteca.server.errors import ServerError, language_from_header, voice
from ludoteca.server.protocol import ErrorMessage

log = logging.getLogger("ludoteca.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
NOSNIFF = (b"x-content-type-options", b"nosniff")
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    NOSNIFF,
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
)
"""On every HTTP answer that does not set its own. ``Referrer-Policy: same-origin`` and not
``no-referrer``: with the latter browsers send ``Origin: null`` even on this site's own
requests, which the Origin rule would refuse."""

SUBRESOURCE_TYPES = (b"text/javascript", b"application/javascript", b"text/css")
"""Scripts and stylesheets are never documents: of the headers above only ``nosniff`` means
anything on them (a browser reads a page's policy, framing and referrer rules from the page).
Sending only it saves about 370 bytes on each of the twenty-odd modules a table page loads."""

CLIENT_HEADER = b"x-ludoteca-client"
TOKEN_ROUTES = frozenset({"/api/unsubscribe"})
"""Routes a mail client posts to with no ``Origin`` (RFC 8058 one-click unsubscribe): they act
on the signed token in their address alone and read no cookie, so another site's page gains
nothing by posting there. (An ``Origin`` that is sent must still be allowed.)"""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
PLAIN_COOKIE = re.compile(rb"[!#-+\--:<-\[\]-~]{1,4096}")
"""RFC 6265's cookie-octets: no quote, backslash, comma, semicolon or space."""


# ---- hosts ---------------------------------------------------------------------------------
def host_name(host: str) -> str:
    """``Host`` without its port, lower case, without a final dot; IPv6 without brackets."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    name, colon, port = host.rpartition(":")
    if colon and port.isdigit() and ":" not in name:
        host = name
    return host.rstrip(".")


def own_names() -> frozenset[str]:
    """This machine's own names: a club reaches it by them on its network."""
    name = socket.gethostname().lower()
    return frozenset({name, f"{name}.local", "localhost"})


def host_allowed(host: str, allowed: Iterable[str], own: frozenset[str]) -> bool:
    name = host_name(host)
    if not name:
        return False
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    if name in own or name.endswith(".localhost"):
        return True
    for entry in allowed:
        entry = entry.strip().lower().rstrip(".")
        if entry == "*" or name == entry or (entry.startswith(".") and (
                name.endswith(entry) or name == entry[1:])):
            return True
    return False


# ---- origins -------------------------------------------------------------------------------
def origin_allowed(origin: str, host: str, allowed: Iterable[str]) -> bool:
    """A page's origin is this server's own (its host and port are the request's ``Host``)
    or one of ``allowed`` (exact strings)."""
    if origin in allowed:
        return True
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:
        return False
    return bool(netloc) and netloc.lower() == host.strip().lower()


# ---- cookies -------------------------------------------------------------------------------
def safe_cookies(headers: list[tuple[bytes, bytes]], keep: Iterable[bytes]
                 ) -> list[tuple[bytes, bytes]]:
    """``headers`` with the ``Cookie`` headers replaced by one holding only the cookies named
    in ``keep`` whose values are plain (no quotes or backslashes to unquote)."""
    names = set(keep)
    kept: list[bytes] = []
    out: list[tuple[bytes, bytes]] = []
    for key, value in headers:
        if key != b"cookie":
            out.append((key, value))
            continue
        for pair in value.split(b";"):
            name, eq, val = pair.strip().partition(b"=")
            if eq and name in names and PLAIN_COOKIE.fullmatch(val):
                kept.append(name + b"=" + val)
    if kept:
        out.append((b"cookie", b"; ".join(kept)))
    return out


# ---- the middleware ------------------------------------------------------------------------
class WebGuard:
    """The rules of the module docstring, for the whole app. ``__call__`` is a plain function
    that returns the inner app's coroutine when nothing is refused (and nothing is wrapped:
    WebSockets), so a long-lived socket keeps no frame of this layer."""

    def __init__(self, app: ASGIApp, allowed_hosts: tuple[str, ...] = (),
                 allowed_origins: tuple[str, ...] = (),
                 cookies: tuple[str, ...] = ()) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts
        self.allowed_origins = allowed_origins
        self.cookies = tuple(c.encode() for c in cookies)
        self.own = own_names()

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            return self.app(scope, receive, send)
        headers: list[tuple[bytes, bytes]] = scope.get("headers", [])
        host = origin = None
        has_client = has_cookie = False
        for key, value in headers:
            if key == b"host":
                host = value.decode("latin-1")
            elif key == b"origin":
                origin = value.decode("latin-1")
            elif key == CLIENT_HEADER:
                has_client = bool(value.strip())
            elif key == b"cookie":
                has_cookie = True
        if scope.get("path") in TOKEN_ROUTES:
            has_client = True  # authorised by the token in its address, never by a cookie
        error = self._check(kind, scope.get("method", "GET"), host, origin, has_client)
        if error is not None:
            return self._refuse(error, scope, receive, send)
        if has_cookie:
            scope = {**scope, "headers": safe_cookies(headers, self.cookies)}
        if kind == "websocket":
            return self.app(scope, receive, send)
        return self._with_headers(scope, receive, send)

    def _check(self, kind: str, method: str, host: str | None, origin: str | None,
               has_client: bool) -> ServerError | None:
        if host is not None and not host_allowed(host, self.allowed_hosts, self.own):
            return ServerError("bad_host", E.BAD_HOST, 400, host=host[:200])
        if kind == "http" and method in SAFE_METHODS:
            return None
        if origin is None:
            if kind == "websocket" or has_client:
                return None
            return ServerError("no_origin", E.NO_ORIGIN, 403)
        if not origin_allowed(origin, host or "", self.allowed_origins):
            return ServerError("bad_origin", E.BAD_ORIGIN, 403, origin=origin[:200])
        return None

    async def _with_headers(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = with_security_headers(message.get("headers", []))
            await send(message)

        await self.app(scope, receive, send_with_headers)

    async def _refuse(self, error: ServerError, scope: Scope, receive: Receive,
                      send: Send) -> None:
        hub = getattr(getattr(scope.get("app"), "state", None), "hub", None)
        if hub is not None:  # counted in ludoteca_refusals_total
            hub.metrics.errors.labels(error.code).inc()
        client = scope.get("client")
        log.info("request refused: %s", error.code, extra={
            "client": client[0] if client else "unknown", "path": scope.get("path", "")[:200],
            **{k: str(v) for k, v in error.fields.items()}})
        lang = "en"
        for key, value in scope.get("headers", []):
            if key == b"accept-language":
                lang = language_from_header(value.decode("latin-1"))
        refusal = ErrorMessage.of(error, voice(lang)).to_wire()
        response = JSONResponse(refusal, status_code=error.status)
        response.raw_headers = with_security_headers(response.raw_headers)
        if scope["type"] == "websocket":
            if "websocket.http.response" in scope.get("extensions", {}):
                await response(scope, receive, send)  # the handshake's HTTP answer
            else:
                await send({"type": "websocket.close", "code": 1008})
            return
        await response(scope, receive, send)


def with_security_headers(headers: Iterable[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """``headers`` plus every security header they do not set themselves (on a script or a
    stylesheet, ``nosniff`` alone)."""
    out = list(headers)
    present = {key.lower() for key, _ in out}
    kind = next((value for key, value in out if key.lower() == b"content-type"), b"")
    wanted = (NOSNIFF,) if kind.startswith(SUBRESOURCE_TYPES) else SECURITY_HEADERS
    out.extend((key, value) for key, value in wanted if key not in present)
    return out
