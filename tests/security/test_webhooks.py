"""Issue 23, webhooks: a player's webhook makes the arena's own machine send a request, so it
may only reach public addresses (server-side request forgery otherwise). Each attempt goes
through ``PATCH /api/me`` of a real ``ludoteca serve``, and deliveries are received by real
HTTP servers in the test.

The server runs with the test-only settings (docs/server.md): ``127.0.0.1/32`` counts as
public (the receivers listen there) and names are looked up first in a hosts file the test
rewrites, as a rebinding DNS server would answer.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.server.client import JSON, Player, Socket
from tests.server.conftest import Server

HOSTS = {
    "hooks.test": ["127.0.0.1"],
    "loop.test": ["127.0.0.3"],
    "meta.test": ["169.254.169.254"],
    "lan.test": ["192.168.1.20"],
    "mixed.test": ["93.184.215.14", "10.1.2.3"],  # one public answer is not enough
    "v6.test": ["::1"],
}


def write_hosts(path: Path, hosts: dict[str, list[str]]) -> None:
    path.write_text("".join(f"{a} {name}\n" for name, found in hosts.items() for a in found))


@pytest.fixture(scope="module")
def hosts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("dns") / "hosts"
    write_hosts(path, HOSTS)
    return path


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, hosts: Path) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("webhooks")
    found = Server(f"sqlite:///{folder / 'arena.sqlite3'}", folder,
                   LUDOTECA_WEBHOOK_TEST_NETWORKS="127.0.0.1/32",
                   LUDOTECA_WEBHOOK_TEST_HOSTS=str(hosts))
    found.start()
    try:
        yield found
    finally:
        found.stop()


class Receiver:
    """An HTTP server on ``address``: every POST's path, Host header and body, in order;
    ``hang`` seconds before answering (a webhook target that never answers in time)."""

    def __init__(self, address: str = "127.0.0.1", hang: float = 0.0) -> None:
        got: queue.Queue[tuple[str, str, JSON]] = queue.Queue()
        self.got = got

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                size = int(self.headers.get("content-length", "0"))
                got.put((self.path, self.headers.get("host", ""),
                         json.loads(self.rfile.read(size))))
                time.sleep(hang)
                self.send_response(204)
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.http = ThreadingHTTPServer((address, 0), Handler)
        self.http.daemon_threads = True
        self.port = self.http.server_address[1]
        self.thread = threading.Thread(target=self.http.serve_forever, daemon=True)
        self.thread.start()

    def next(self, timeout: float = 30) -> tuple[str, str, JSON]:
        return self.got.get(timeout=timeout)

    def close(self) -> None:
        self.http.shutdown()
        self.http.server_close()


@pytest.fixture
def player(server: Server) -> Iterator[Player]:
    made = Player(server.base)
    yield made
    made.close()


def set_hook(player: Player, url: str) -> tuple[int, JSON]:
    response = player.http.patch("/api/me", json={"webhook_url": url})
    body: JSON = response.json()
    return response.status_code, body


REFUSED = [
    # loopback, private, link-local (the cloud metadata service), shared, unspecified
    "http://127.0.0.2:8080/hook", "http://[::1]/", "http://10.0.0.1/", "http://172.16.5.4/",
    "http://192.168.0.10/", "http://169.254.169.254/latest/meta-data/", "http://100.64.0.1/",
    "http://0.0.0.0/", "http://224.0.0.1/", "http://[fe80::1]/", "http://[fc00::1]/",
    # IPv6 carrying an IPv4 address: mapped, 6to4, NAT64
    "http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/", "http://[::ffff:169.254.169.254]/",
    "http://[2002:7f00:1::]/", "http://[64:ff9b::a9fe:a9fe]/",
    # names that resolve to such addresses; a name with one private address among public ones
    "http://loop.test/", "http://meta.test/", "http://lan.test:8080/x", "http://mixed.test/",
    "http://v6.test/",
    # not http(s), credentials, control characters
    "ftp://93.184.215.14/", "file:///etc/passwd", "gopher://93.184.215.14/", "javascript:1",
    "http://user:secret@93.184.215.14/", "http://93.184.215.14/\r\nX-Injected: 1",
    "http://93.184.215.14/a\nb", "http://93.184.215.14/a b", "http://93.184.215.14:99999/",
]
NUMERIC = ["http://2130706433/", "http://0x7f.1/", "http://0x7f000001/", "http://127.1/",
           "http://017700000001/", "http://0177.0.0.1/", "http://2852039166/"]


@pytest.mark.parametrize("url", REFUSED + NUMERIC)
def test_a_webhook_to_a_non_public_target_is_refused(player: Player, url: str) -> None:
    status, body = set_hook(player, url)
    assert status == 400 and body["code"] == "bad_webhook", (url, body)
    if url in NUMERIC:
        assert "usual form" in body["message"]
    assert player.ok(player.http.get("/api/me"))["webhook_url"] is None  # nothing changed


def test_public_targets_are_accepted_and_refusals_are_said_in_spanish(server: Server) -> None:
    es = Player(server.base, lang="es")
    try:
        for url in ("http://93.184.215.14/hook?x=1", "https://[2606:4700:4700::1111]/h"):
            status, body = set_hook(es, url)
            assert status == 200 and body["webhook_url"] == url
        status, body = set_hook(es, "http://meta.test/")
        assert status == 400 and "no es pública" in body["message"], body
        assert "169.254.169.254" in body["message"]
    finally:
        es.close()


def my_turn(sock: Socket) -> JSON:
    if not sock.state.get("legal"):
        sock.until(lambda m: m["type"] in ("full", "update") and bool(m.get("legal")))
    return sock.state


def next_turn(sock: Socket) -> None:
    """Play this seat's first legal action, then wait until it must act again."""
    state = my_turn(sock)
    seq = state["seq"]
    sock.act(state["legal"][0])
    sock.until(lambda m: m["type"] in ("full", "update") and m["seq"] > seq
               and bool(m.get("legal")))


def test_delivery_checks_again_and_connects_to_the_checked_address(
    server: Server, player: Player, hosts: Path
) -> None:
    """DNS rebinding: the host was public when the webhook was set and points at another
    address when a turn is delivered; the delivery refuses it and sends nothing there."""
    good = Receiver("127.0.0.1")
    rebound = Receiver("127.0.0.2")
    try:
        status, _ = set_hook(player, f"http://hooks.test:{good.port}/turn")
        assert status == 200
        table = player.create("kami", 2, options={"target": 10}, mode="turn", turn_hours=24,
                              bots=["random"])
        sock = player.socket(table["id"])
        my_turn(sock)
        path, host, body = good.next()
        assert (path, host) == ("/turn", f"hooks.test:{good.port}")  # the name, kept
        assert body["type"] == "turn" and body["table"] == table["id"]

        # the name now points at 127.0.0.2, where a receiver listens too (not public here)
        write_hosts(hosts, {**HOSTS, "hooks.test": ["127.0.0.2"]})
        set_at = time.monotonic()
        next_turn(sock)
        end = set_at + 15
        while "refused" not in server.log() and time.monotonic() < end:
            time.sleep(0.1)
        assert "refused" in server.log() and "127.0.0.2" in server.log()
        with pytest.raises(queue.Empty):
            rebound.next(timeout=1)
        with pytest.raises(queue.Empty):
            good.next(timeout=0.1)

        # back to the checked address: deliveries go on
        write_hosts(hosts, HOSTS)
        next_turn(sock)
        _, _, body = good.next()
        assert body["type"] == "turn" and body["table"] == table["id"]
    finally:
        write_hosts(hosts, HOSTS)
        good.close()
        rebound.close()


def test_a_target_that_never_answers_is_given_up_on(
    server: Server, player: Player, hosts: Path
) -> None:
    """The delivery timeout (5 s, all told): the server logs it and goes on."""
    slow = Receiver("127.0.0.1", hang=60)
    try:
        set_hook(player, f"http://127.0.0.1:{slow.port}/slow")
        table = player.create("kami", 2, options={"target": 10}, mode="turn", turn_hours=24,
                              bots=["random"])
        sock = player.socket(table["id"])
        my_turn(sock)
        slow.next()  # it arrived and hangs
        started = time.monotonic()
        while f"{slow.port}/slow failed" not in server.log():
            assert time.monotonic() - started < 30, server.log()
            time.sleep(0.2)
        assert time.monotonic() - started < 30
        sock.send({"type": "ping"})
        assert sock.until(lambda m: m["type"] == "pong")
    finally:
        slow.close()
