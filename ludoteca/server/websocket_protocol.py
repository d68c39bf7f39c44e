"""uvicorn's WebSocket protocol (websockets' sans-I/O implementation) with a cheaper
permessage-deflate: zlib level 1 instead of 6. Every table message is compressed once per
socket; under load that was an eighth of the server's CPU (benchmarks/server.py, py-spy), and
level 1 costs about half as much for messages about a third larger (a 5 KB view: 48 against
84 µs; 5.2:1 against 7.7:1)."""

from __future__ import annotations

import logging
from collections.abc import Generator
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol

LEVEL = 1


class TableWebSocketProtocol(WebSocketsSansIOProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:
            _let_go(self.conn)  # uvicorn's own, replaced by this one
            self.conn = ServerProtocol(
                extensions=[ServerPerMessageDeflateFactory(
                    server_max_window_bits=12,
                    client_max_window_bits=12,
                    compress_settings={"memLevel": 5, "level": LEVEL},
                )],
                max_size=self.config.ws_max_size,
                logger=logging.getLogger("uvicorn.error"),
            )

    def connection_lost(self, exc: Exception | None) -> None:
        """Also let go of the closed connection's parser. websockets' parser is a generator
        whose frame holds the connection that holds it (and, after an abnormal end, the
        exception whose traceback holds that frame): left so, every closed socket's objects
        wait for the interpreter's cycle collector, whose walk over hundreds of thousands of
        objects stopped the event loop for most of a second at 600 tables (docs/server.md,
        "Measured"). Nothing parses after the connection is lost."""
        super().connection_lost(exc)
        _let_go(self.conn)


def _let_go(conn: ServerProtocol) -> None:
    """Break the cycle between a connection and its parser (see ``connection_lost``)."""
    conn.parser = _parsed()
    conn.parser_exc = None


def _parsed() -> Generator[None, None, None]:
    """A parser with nothing left to read."""
    yield
