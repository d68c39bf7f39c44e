"""Any exception the server did not expect, in any command, becomes a typed ``server_error``
on a socket that stays open, and is logged once (issue 22). A failing command is injected into
a real server running in this process (uvicorn on a free port, SQLite), reached over a real
WebSocket."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from ludoteca.server.app import create_app
from ludoteca.server.settings import MESSAGE_LIMIT, Settings
from ludoteca.server.table.core import TableCore
from ludoteca.server.websocket_protocol import TableWebSocketProtocol
from tests.server.client import Player


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def base(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'arena.sqlite3'}", port=port,
                        bot_processes=1, auth_rate=1000, create_rate=1000)
    server = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="on",
                                           ws=TableWebSocketProtocol,
                                           ws_max_size=4 * MESSAGE_LIMIT))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    end = time.monotonic() + 60
    while not server.started:
        assert time.monotonic() < end and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)


def test_a_failing_command_is_a_server_error_on_an_open_socket(
    base: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    real_act = TableCore.act

    def failing_act(self: TableCore, seat: int, seq: int, data: object, *args: Any) -> Any:
        if isinstance(data, dict) and data.get("boom"):
            raise RuntimeError("injected failure")
        return real_act(self, seat, seq, data, *args)

    monkeypatch.setattr(TableCore, "act", failing_act)
    ana, ben = Player(base), Player(base, lang="es")
    try:
        table = ana.create("kingdomino", 2, mode="turn")
        ben.join(table["id"])
        socks = [ana.socket(table["id"]), ben.socket(table["id"])]
        for sock in socks:
            while sock.state.get("status") != "playing":
                sock.recv()
        mover = next(s for s in socks if s.state["legal"])
        seq = mover.state["seq"]
        mover.act({**mover.state["legal"][0], "boom": True})
        error = mover.error()
        assert error["code"] == "server_error" and error["message"]
        assert "injected" not in error["message"] and "Traceback" not in error["message"]
        mover.send({"type": "ping"})
        assert mover.recv() == {"type": "pong", "seq": seq}  # open, and nothing changed
        mover.act(mover.state["legal"][0])  # the table goes on
        assert mover.until(lambda m: m["type"] == "update")["seq"] == seq + 1
        failures = [r for r in caplog.records if r.exc_info is not None]
        assert len(failures) == 1 and "message failed" in failures[0].getMessage()
    finally:
        ana.close()
        ben.close()
