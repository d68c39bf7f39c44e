"""Limits on a request's head (request line and headers), enforced on the raw bytes before the
HTTP parser or the app sees them.

uvicorn with httptools accepts a head of any size, and httptools keeps a header value that is
still arriving by joining the pieces (quadratic when it comes in many pieces): eight clients
each sending a never-ending 48 MiB header took the server from 102 to 632 MiB and 9 CPU
seconds. A large ``Cookie`` header was worse: Starlette parses cookies with the standard
library's ``http.cookies._unquote``, quadratic before Python 3.11.10 / 3.12.6 (CVE-2024-7592),
and one 1 MB cookie stopped the whole server for 40 s. So the protocol below counts every
byte of a head as it arrives and refuses, with a typed error and before anything parses it:

- a line (the request line or one header) over ``line`` bytes: 414 ``url_too_long`` for the
  request line, 431 ``header_too_large`` for a header;
- a head over ``total`` bytes: 431 ``headers_too_large``;
- ``Cookie`` headers over ``cookie`` bytes together: 431 ``cookie_too_large``;
- a head not complete ``timeout`` seconds after its first byte (or after the connection
  opened), or a body not complete ``timeout`` seconds after its head: 408
  ``request_timeout``, so clients that send a byte now and then cannot hold connections (and
  the tasks waiting for their bodies) open.

What is left of a small head cannot be quadratic: ``web_security.safe_cookies`` hands the
app only the arena's own cookies, with values the unquoting returns at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import orjson
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

from ludoteca.server import errors as E
from ludoteca.server.errors import ServerError, language_from_header, voice
from ludoteca.server.protocol import ErrorMessage
from ludoteca.server.web_security import SECURITY_HEADERS

log = logging.getLogger("ludoteca.server")

LINGER_SECONDS = 1.0
"""After a refusal the connection is half-closed and what the client still sends is read and
dropped for this long (or up to ``LINGER_BYTES``), so that it reads the answer instead of a
reset; then it is closed."""
LINGER_BYTES = 1024 * 1024


@dataclass(frozen=True)
class HeadLimits:
    """How large and how slow a request's head may be (docs/server.md, Security)."""

    line: int = 8192
    total: int = 32768
    cookie: int = 8192
    timeout: float = 10.0


class LimitedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, with every byte of a head counted before it is parsed.

    The head's bytes are scanned line by line as they arrive (a ``find`` per line, no copy);
    the head ends at its empty line, and counting starts again when the parser has read the
    whole request (pipelined requests: the next one's bytes in the same read are counted from
    the next read on, so a head may exceed the total by one read at most)."""

    limits: ClassVar[HeadLimits] = HeadLimits()

    @staticmethod
    def refused(code: str) -> None:
        """Told each refusal's code (``serve`` counts them in ``ludoteca_refusals_total``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._lingering = -1  # bytes dropped since a refusal; -1: not refused
        self._start_head()

    def _start_head(self) -> None:
        self._in_head = True
        self._head_bytes = 0
        self._line_bytes = 0
        self._line_start = b""
        self._first_line = True
        self._cookie_bytes = 0
        self._cookie_line = False  # the line being read is (the continuation of) a Cookie
        self._language = ""

    # ---- the connection ------------------------------------------------------------------------
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_deadline()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._lingering >= 0:
            self._lingering += len(data)
            if self._lingering > LINGER_BYTES:
                self.transport.close()
            return
        if self._in_head:
            if self._deadline is None:
                self._arm_deadline()
            refusal = self._scan(data)
            if refusal is not None:
                self._refuse(refusal)
                return
        super().data_received(data)

    # ---- parser callbacks ----------------------------------------------------------------------
    def on_headers_complete(self) -> None:
        self._in_head = False
        self._cancel_deadline()
        super().on_headers_complete()
        if not (self.parser.should_upgrade() and self._should_upgrade()):
            self._arm_deadline()  # the body's turn; whole requests cancel it

    def on_message_complete(self) -> None:
        self._cancel_deadline()
        super().on_message_complete()
        self._start_head()

    # ---- counting ------------------------------------------------------------------------------
    def _scan(self, data: bytes) -> ServerError | None:
        """Count ``data`` into the head; the refusal when it breaks a limit."""
        limits = self.limits
        pos, size = 0, len(data)
        while pos < size and self._in_head:
            newline = data.find(b"\n", pos)
            end = size if newline < 0 else newline + 1
            if len(self._line_start) < 16:
                self._line_start += data[pos:min(end, pos + 16 - len(self._line_start))]
            self._line_bytes += end - pos
            self._head_bytes += end - pos
            is_cookie = self._line_start[:7].lower() == b"cookie:" or (
                self._cookie_line and self._line_start[:1] in (b" ", b"\t"))
            if is_cookie and self._cookie_bytes + self._line_bytes > limits.cookie:
                return ServerError("cookie_too_large", E.COOKIE_TOO_LARGE, 431,
                                   limit=limits.cookie)
            if self._line_bytes > limits.line:
                if self._first_line:
                    return ServerError("url_too_long", E.URL_TOO_LONG, 414, limit=limits.line)
                return ServerError("header_too_large", E.HEADER_TOO_LARGE, 431,
                                   limit=limits.line)
            if self._head_bytes > limits.total:
                return ServerError("headers_too_large", E.HEADERS_TOO_LARGE, 431,
                                   limit=limits.total)
            if newline < 0:
                break
            if self._line_start[:16].lower().startswith(b"accept-language:"):
                self._language = data[pos:end].decode("latin-1").partition(":")[2]
            if self._line_bytes <= 2 and self._line_start in (b"\n", b"\r\n"):
                if not self._first_line:
                    self._in_head = False  # the empty line: the head is whole
            else:
                self._first_line = False
            if is_cookie:
                self._cookie_bytes += self._line_bytes
            self._cookie_line = is_cookie
            self._line_bytes = 0
            self._line_start = b""
            pos = end
        return None

    # ---- refusing ------------------------------------------------------------------------------
    def _arm_deadline(self) -> None:
        self._deadline = self.loop.call_later(self.limits.timeout, self._too_slow)

    def _cancel_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self._lingering >= 0 or self.transport.is_closing():
            return
        if self._in_head and self._head_bytes == 0:  # never sent a byte: close quietly
            self.transport.close()
            return
        error = ServerError("request_timeout", E.REQUEST_TIMEOUT, 408,
                            seconds=f"{self.limits.timeout:g}")
        if self._in_head or (self.cycle is not None and not self.cycle.response_started):
            self._refuse(error)
        else:  # the app has answered already, but the body is still trickling in
            self.refused(error.code)
            self.transport.close()

    def _refuse(self, error: ServerError) -> None:
        """Answer ``error`` (typed, in the language the head asked for if it got that far),
        half-close, drop what else comes for a moment, then close."""
        self._cancel_deadline()
        self._unset_keepalive_if_required()
        client = f"{self.client[0]}" if self.client else "unknown"
        log.info("request refused: %s", error.code, extra={
            "client": client, "head_bytes": self._head_bytes})
        self.refused(error.code)
        say = voice(language_from_header(self._language))
        body = orjson.dumps(ErrorMessage.of(error, say).to_wire())
        content = [STATUS_LINE[error.status]]
        for name, value in (*self.server_state.default_headers, *SECURITY_HEADERS):
            content += [name, b": ", value, b"\r\n"]
        content += [b"content-type: application/json\r\n",
                    b"content-length: " + str(len(body)).encode() + b"\r\n",
                    b"connection: close\r\n\r\n", body]
        self.transport.write(b"".join(content))
        self._lingering = 0
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(LINGER_SECONDS, self.transport.close)


def limited_protocol(limits: HeadLimits, refused: Callable[[str], None] = lambda code: None
                     ) -> type[LimitedHttpProtocol]:
    """The protocol class for uvicorn's ``http=``, with these limits."""
    return type("ArenaHttpProtocol", (LimitedHttpProtocol,),
                {"limits": limits, "refused": staticmethod(refused)})
