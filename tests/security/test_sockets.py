"""Issue 23, sockets: a message flood, too many sockets, deeply nested JSON, each sent from
outside over a real WebSocket to a real ``ludoteca serve`` (SQLite). The limits are set low
for the test (``LUDOTECA_SOCKET_RATE``, ``LUDOTECA_SOCKETS_PER_*``; docs/server.md)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.server.client import JSON, Player, Socket
from tests.server.conftest import Server

RATE = 40
PER_ADDRESS = 6
PER_ACCOUNT = 3


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder: Path = tmp_path_factory.mktemp("sockets")
    found = Server(f"sqlite:///{folder / 'arena.sqlite3'}", folder,
                   LUDOTECA_SOCKET_RATE=str(RATE),
                   LUDOTECA_SOCKETS_PER_ADDRESS=str(PER_ADDRESS),
                   LUDOTECA_SOCKETS_PER_ACCOUNT=str(PER_ACCOUNT))
    found.start()
    try:
        yield found
    finally:
        found.stop()


@pytest.fixture
def player(server: Server) -> Iterator[Player]:
    made = Player(server.base)
    yield made
    made.close()
    no_sockets_left(server)


def no_sockets_left(server: Server) -> None:
    """The server counted every closed socket out (each test starts from none)."""
    end = time.monotonic() + 20
    while httpx.get(server.base + "/healthz").json()["clients"] and time.monotonic() < end:
        time.sleep(0.05)
    assert httpx.get(server.base + "/healthz").json()["clients"] == 0


def closed(sock: Socket, timeout: float = 30) -> tuple[int | None, str | None]:
    """Read until the server closes; the close frame's code and reason."""
    with pytest.raises(ConnectionClosed) as caught:
        end = time.monotonic() + timeout
        while True:
            sock.recv(timeout=max(0.1, end - time.monotonic()))
    frame = caught.value.rcvd
    return (frame.code, frame.reason) if frame is not None else (None, None)


def test_a_flood_is_refused_then_closed_with_a_reason(server: Server, player: Player) -> None:
    table = player.create("kingdomino", 2)
    sock = player.socket(table["id"])
    assert sock.first["type"] == "full"
    sent = 0
    with contextlib.suppress(ConnectionClosed):  # a slow sender may see the close first
        for _ in range(3 * RATE):  # sent faster than anyone plays
            sock.send({"type": "ping"})
            sent += 1
    assert sent > RATE
    pongs = 0
    while True:
        message = sock.recv()
        if message["type"] != "pong":
            break
        pongs += 1
    assert message["type"] == "error" and message["code"] == "rate_limited", message
    assert str(RATE) in message["message"]
    assert pongs == RATE  # the window's messages were all answered, and nothing after
    code, reason = closed(sock)
    assert code == 1008 and reason is not None and reason.startswith("rate_limited"), reason
    # the table and the server go on: a new socket plays
    again = player.socket(table["id"])
    again.send({"type": "ping"})
    assert again.recv()["type"] == "pong"
    assert "Traceback" not in server.log()


def test_a_steady_player_is_never_limited(server: Server, player: Player) -> None:
    """Under the rate (here one message every 10 s window's worth), nothing is refused."""
    table = player.create("kingdomino", 2)
    sock = player.socket(table["id"])
    for _ in range(RATE - 1):
        sock.send({"type": "ping"})
        assert sock.recv()["type"] == "pong"


def test_one_account_has_at_most_its_sockets(server: Server, player: Player) -> None:
    table = player.create("kingdomino", 2)
    socks = [player.socket(table["id"]) for _ in range(PER_ACCOUNT)]
    assert all(s.first["type"] == "full" for s in socks)
    extra = player.socket(table["id"])
    assert extra.first["type"] == "error" and extra.first["code"] == "too_many_sockets"
    assert str(PER_ACCOUNT) in extra.first["message"]
    code, reason = closed(extra)
    assert code == 1008 and reason is not None and reason.startswith("too_many_sockets")
    # the cap counts open sockets: closing one lets another in
    socks[0].close()
    end = time.monotonic() + 20
    while True:
        again = player.socket(table["id"])
        if again.first["type"] == "full" or time.monotonic() > end:
            break
        time.sleep(0.1)
    assert again.first["type"] == "full"


def test_one_address_has_at_most_its_sockets(server: Server, player: Player) -> None:
    """Watchers without an account count against their address."""
    table = player.create("kingdomino", 2)
    url = server.base.replace("http", "ws", 1) + f"/ws/tables/{table['id']}"
    open_ = [Socket(connect(url, open_timeout=30).__enter__()) for _ in range(PER_ADDRESS)]
    try:
        assert all(s.first["type"] == "full" for s in open_)
        extra = Socket(connect(url, open_timeout=30).__enter__())
        assert extra.first["code"] == "too_many_sockets", extra.first
        code, _ = closed(extra)
        assert code == 1008
        # an account's sockets count against its address too
        mine = player.socket(table["id"])
        assert mine.first["code"] == "too_many_sockets"
    finally:
        for sock in open_:
            sock.close()


def test_deeply_nested_json_is_refused_and_the_socket_stays(
    server: Server, player: Player
) -> None:
    table = player.create("kingdomino", 2, bots=["random"])
    sock = player.socket(table["id"])

    def answer() -> JSON:  # the bot's moves may come in between
        return sock.until(lambda m: m["type"] in ("pong", "error"))

    deep = 30_000  # 60 kB: under the message limit, far past the parser's recursion limit
    for frame in ("[" * deep + "]" * deep,
                  '{"type": "act", "seq": 0, "action": ' + "[" * deep + "]" * deep + "}",
                  '{"type": "act", "seq": 0, "action": ' + '{"a": ' * 40 + "1" + "}" * 41):
        sock.send(frame)
        refused = answer()
        assert refused["type"] == "error" and refused["code"] == "bad_json", refused
        assert "nests too deeply" in refused["message"]
        sock.send({"type": "ping"})
        assert answer()["type"] == "pong"
    # 100000 deep is over the message limit: refused for its size, the socket stays too
    sock.send("[" * 100_000 + "]" * 100_000)
    assert answer()["code"] == "too_large"
    sock.send({"type": "ping"})
    assert answer()["type"] == "pong"
    # a reasonable message still plays
    if not sock.state.get("legal"):
        sock.until(lambda m: m["type"] in ("full", "update") and bool(m["legal"]))
    seq = sock.state["seq"]
    sock.act(sock.state["legal"][0])
    assert sock.until(lambda m: m["type"] == "update" and m["seat"] == 0)["seq"] == seq + 1
    log = server.log()
    assert "RecursionError" not in log and "Traceback" not in log


def test_in_spanish_too(server: Server) -> None:
    spanish = Player(server.base, lang="es")
    try:
        table = spanish.create("kingdomino", 2)
        sock = spanish.socket(table["id"])
        sock.send("[" * 5000 + "]" * 5000)
        assert "anida" in sock.recv()["message"]
    finally:
        spanish.close()
        no_sockets_left(server)
