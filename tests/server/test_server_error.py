"""Any exception the server did not expect, in any command, becomes a typed ``server_error``
on a socket that stays open, and is logged once (issue 22); a socket whose writer fails is
closed with a reason, and a step that fails after a move's write leaves the table's clock and
bots running (issue 38). Each failure is injected into a real server running in this process
(uvicorn on a free port, SQLite), reached over a real WebSocket."""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from starlette.websockets import WebSocket
from websockets.exceptions import ConnectionClosed

from ludoteca.server.app import create_app
from ludoteca.server.hub import Hub
from ludoteca.server.settings import MESSAGE_LIMIT, Settings
from ludoteca.server.table.core import TableCore
from ludoteca.server.websocket_protocol import TableWebSocketProtocol
from tests.server.client import JSON, Player, Socket


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def base(tmp_path: Path) -> Iterator[str]:
    with arena(tmp_path) as found:
        yield found


@contextmanager
def arena(tmp_path: Path, **settings_: Any) -> Iterator[str]:
    """The arena in this process (uvicorn in a thread), on a new SQLite database; its URL."""
    port = free_port()
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'arena.sqlite3'}", port=port,
                        bot_processes=1, auth_rate=1000, create_rate=1000, **settings_)
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


CLOCKED: dict[str, Any] = {"bots": ["greedy"], "mode": "live", "bank_seconds": 10,
                           "increment_seconds": 0}
"""Ana against a bot, with a clock of 10 s: her seat is taken over soon after she stops."""


def ana_to_move(sock: Socket) -> JSON:
    if not sock.state.get("legal"):
        sock.until(lambda m: m["type"] in ("full", "update") and bool(m.get("legal")))
    return sock.state


@contextmanager
def logged() -> Iterator[list[str]]:
    """The messages the ``ludoteca`` loggers log meanwhile (they do not propagate to the root
    logger pytest listens to, once the arena set them up)."""
    found: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            found.append(record.getMessage())

    handler = Keep()
    logging.getLogger("ludoteca").addHandler(handler)
    try:
        yield found
    finally:
        logging.getLogger("ludoteca").removeHandler(handler)


def taken_over(sock: Socket, seat: int) -> None:
    """Ana no longer moves: her clock runs out and a bot takes her seat (the clock was armed);
    it may already have happened while the test waited for something else."""
    def takeover(m: JSON) -> bool:
        return m["type"] == "update" and any(e["type"] == "takeover" for e in m["events"])

    taken = next((m for m in sock.messages if takeover(m)), None)
    taken = taken or sock.until(takeover, timeout=40)
    assert taken["events"][0]["seat"] == seat


def test_a_writer_that_fails_closes_its_socket_with_a_reason_and_the_table_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The socket's writer task fails (injected: sending one chat line raises): the socket is
    closed with a reason, not left open and silent; the table's bot and clock go on."""
    real_send = WebSocket.send_text
    failed: list[str] = []

    async def failing_send(self: WebSocket, data: str) -> None:
        if "writer-boom" in data and not failed:
            failed.append(data)
            raise ValueError("injected writer failure")
        await real_send(self, data)

    monkeypatch.setattr(WebSocket, "send_text", failing_send)
    with arena(tmp_path, bot_delay=0.0) as base, logged() as logs:
        ana = Player(base, "ana_w")
        try:
            table = ana.create("kingdomino", 2, **CLOCKED)["id"]
            sock = ana.socket(table)
            mine = sock.first["you"]
            sock.send({"type": "chat", "text": "writer-boom"})
            with pytest.raises(ConnectionClosed) as closed:
                sock.until(lambda m: False, timeout=20)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1011
            assert closed.value.rcvd.reason.startswith("server_error")
            assert failed and any("writer failed" in line for line in logs)
            again = ana.socket(table)  # the client reconnects: everything is there
            assert again.first["chat"][-1]["text"] == "writer-boom"
            state = ana_to_move(again)
            again.act(state["legal"][0])
            again.until(lambda m: m["type"] == "update" and m["seat"] == 1 - mine)  # the bot
            taken_over(again, mine)
        finally:
            ana.close()


def test_a_failure_after_the_write_still_arms_the_clock_and_the_bots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A step after a move's write fails (injected: telling the other processes raises),
    first where the bot is to move next, then where only Ana is: the moves stand, every
    viewer gets the table afresh, and the bot and then the clock are armed all the same."""
    real_changed = Hub.table_changed
    pending: list[str] = []  # from when Ana is at the table

    def failing_changed(self: Hub, table_id: str, seq: int) -> None:
        core = self.tables.refs[table_id]._actor.core  # the test looks inside
        if pending and pending[0] == ("bot" if core.bots_to_ask() else "clock"):
            pending.pop(0)
            raise RuntimeError("injected failure after the write")
        real_changed(self, table_id, seq)

    monkeypatch.setattr(Hub, "table_changed", failing_changed)
    with arena(tmp_path, bot_delay=0.0) as base, logged() as logs:
        ana = Player(base, "ana_a")
        try:
            table = ana.create("kingdomino", 2, **CLOCKED)["id"]
            sock = ana.socket(table)
            mine = sock.first["you"]
            pending.extend(["bot", "clock"])
            start, answered = len(sock.messages), -1
            while pending:  # Ana plays on; the bot must move after the first failure
                state = sock.state
                if state.get("legal") and state["seq"] != answered:
                    answered = state["seq"]
                    sock.act(state["legal"][0])
                sock.recv()
            while sum(m["type"] == "full" for m in sock.messages[start:]) < 2:
                sock.recv()  # each failure: every viewer is told the table afresh
            assert sum("after the write failed" in line for line in logs) == 2
            taken_over(sock, mine)  # her clock was armed after the second failure
        finally:
            ana.close()
