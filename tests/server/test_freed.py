"""A closed socket and a stopped table are freed when the last reference goes, not left in
reference cycles for the interpreter's cycle collector: at 600 tables that collector's walk
over such leftovers stopped the event loop for most of a second (docs/server.md, "Measured").
The server runs in this process with the collector off, so anything left in a cycle stays
and is counted."""

from __future__ import annotations

import gc
import socket
import time
from collections.abc import Iterator

import pytest

from tests.server.client import Player
from tests.server.test_server_error import base  # noqa: F401  (the in-process server)


@pytest.fixture
def no_collector() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def alive(kind: str) -> int:
    return sum(1 for o in gc.get_objects() if type(o).__name__ == kind)


def test_closed_sockets_and_stopped_tables_need_no_cycle_collector(
    base: str, no_collector: None  # noqa: F811
) -> None:
    ana = Player(base)
    try:
        for n in range(6):
            table = ana.create("kingdomino", 2, mode="turn")
            sock = ana.socket(table["id"])  # its first message (full) read
            if n % 2:
                sock.close()
            else:  # dropped without a closing handshake (a lost phone connection)
                sock.ws.socket.shutdown(socket.SHUT_RDWR)
                sock.ws.socket.close()
            ana.ok(ana.http.post(f"/api/tables/{table['id']}/leave"))  # abandoned: stopped
        end = time.monotonic() + 10
        kinds = ("TableWebSocketProtocol", "ServerProtocol", "TableSocket", "TableActor")
        while any(alive(kind) for kind in kinds) and time.monotonic() < end:
            time.sleep(0.1)
        assert {kind: alive(kind) for kind in kinds} == dict.fromkeys(kinds, 0)
    finally:
        ana.close()
