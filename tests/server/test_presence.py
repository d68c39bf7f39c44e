"""Presence across two real ``ludoteca serve`` processes sharing one PostgreSQL and one Redis
(``presence.py``, docs/deploy.md): a friend whose page (event stream) is open on process A
shows online on a friends list read through B, and offline at once when the page closes,
within ``LUDOTECA_LEASE_SECONDS`` when A is killed with SIGKILL, and at once when it stops
gracefully; a player looking at a table through B gets no turn email from A, which runs the
table, while one not looking does."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from arena_process import RedisServer
from mail_sink import Sink

from tests.server.client import CLIENT, JSON, Player, Socket
from tests.server.conftest import Server
from tests.server.test_cluster import LEASE, healthz, lease_owner, pg_url, processes, redis_server
from tests.server.test_email import with_email
from tests.server.test_notifications import events

__all__ = ["pg_url", "redis_server"]  # the fixtures this module shares with test_cluster


@pytest.fixture
def arena(pg_url: str, redis_server: RedisServer, tmp_path: Path) -> Iterator[list[Server]]:
    """Two processes, A and B, with leases (and so presence) of ``LEASE`` seconds."""
    with processes(pg_url, redis_server.url, tmp_path) as servers:
        yield servers


@contextlib.contextmanager
def through(player: Player, server: Server) -> Iterator[httpx.Client]:
    """The player's session, asking ``server`` (as a proxy may send any request anywhere)."""
    with httpx.Client(base_url=server.base, timeout=30, headers=CLIENT,
                      cookies=player.http.cookies) as http:
        yield http


def socket_on(player: Player, server: Server, table: str) -> Socket:
    """The player's table socket, on ``server``."""
    base, player.base = player.base, server.base
    try:
        return player.socket(table)
    finally:
        player.base = base


def online(http: httpx.Client, name: str) -> bool:
    listed = {f["name"]: f for f in Player.ok(http.get("/api/me/friends"))}
    return bool(listed[name]["online"])


def until(check: Callable[[], bool], within: float) -> float:
    """Seconds until ``check`` held (it must, within ``within`` seconds)."""
    start = time.monotonic()
    while not check():
        assert time.monotonic() - start < within, f"not within {within} s"
        time.sleep(0.05)
    return time.monotonic() - start


def test_a_friend_online_on_one_process_is_online_on_the_other(
    arena: list[Server],
) -> None:
    a, b = arena
    ana, bea = Player(a.base, "ana_p1"), Player(a.base, "bea_p1")
    try:
        ana.ok(ana.http.put(f"/api/users/{bea.name}/follow"))
        with through(ana, b) as ana_b:
            assert not online(ana_b, bea.name)
            # her page open on A, Ana's list read through B
            with events(bea.http):
                took = until(lambda: online(ana_b, bea.name), 2.0)
                print(f"online through B {took:.3f} s after her stream opened on A")
                time.sleep(2 * LEASE)  # renewed: still online after its expiry
                assert online(ana_b, bea.name) and online(ana.http, bea.name)
            took = until(lambda: not online(ana_b, bea.name), 2.0)  # closed: offline at once
            print(f"offline through B {took:.3f} s after her stream closed on A")

            # A killed with her page open: offline on B within the lease
            stream = contextlib.ExitStack()
            stream.enter_context(events(bea.http))
            until(lambda: online(ana_b, bea.name), 2.0)
            a.kill()
            took = until(lambda: not online(ana_b, bea.name), LEASE + 1.0)
            print(f"offline through B {took:.2f} s after A was killed (lease {LEASE} s)")
            with contextlib.suppress(httpx.HTTPError):
                stream.close()

            # a block ends Ana's follow: Bea is no longer on her list, online or not
            with through(bea, b) as bea_b, events(bea_b):
                until(lambda: online(ana_b, bea.name), 2.0)
                bea_b.put(f"/api/users/{ana.name}/block").raise_for_status()
                assert Player.ok(ana_b.get("/api/me/friends")) == []
    finally:
        ana.close()
        bea.close()


@pytest.fixture
def sink() -> Iterator[Sink]:
    found = Sink()
    yield found
    found.close()


def test_looking_through_one_process_stops_the_turn_email_of_the_other(
    pg_url: str, redis_server: RedisServer, sink: Sink, tmp_path: Path
) -> None:
    """Lola's tables are run by A; her socket is on B. A sends no turn email for the table
    she looks at through B, and one for the table she does not. Then B stops gracefully with
    her page open on it: A shows her offline at once, well before the lease would expire."""
    lease = 6.0
    with processes(pg_url, redis_server.url, tmp_path, lease=lease,
                   LUDOTECA_SMTP_URL=f"smtp://127.0.0.1:{sink.port}",
                   LUDOTECA_MAIL_FROM="arena@ludoteca.test", LUDOTECA_PUBLIC_URL="http://arena.test",
                   LUDOTECA_TURN_EMAIL_DELAY="1",
                   LUDOTECA_TURN_EMAIL_MINUTES="60") as (a, b):
        lola, max_ = Player(a.base, "lola_p2"), Player(a.base, "max_p2")
        try:
            with_email(lola, sink, "lola@x.test")

            def turn_table(looking: bool) -> str:
                table: JSON = lola.create("kami", 2, options={"target": 10}, mode="turn",
                                          turn_hours=24)
                tid = str(table["id"])
                assert lease_owner(pg_url, tid) == healthz(a)["process"]
                sock = socket_on(lola, b, tid) if looking else None
                lola.ok(lola.http.post(f"/api/tables/{tid}/bots", json={"level": "random"}))
                if sock is not None:
                    sock.until(lambda m: m["type"] in ("full", "update")
                               and bool(m.get("legal")))
                    sink.nothing(3)  # past the delay: no email while she looks, through B
                    sock.close()
                return tid

            seen = turn_table(looking=True)
            away = turn_table(looking=False)
            body = sink.to("lola@x.test").get_body(("plain",))
            assert body is not None
            assert f"/#/table/{away}" in body.get_content()
            assert seen not in body.get_content()

            max_.ok(max_.http.put(f"/api/users/{lola.name}/follow"))
            with through(lola, b) as lola_b, events(lola_b):
                until(lambda: online(max_.http, lola.name), 2.0)
                b.stop()
                took = until(lambda: not online(max_.http, lola.name), 1.0)
                print(f"offline through A {took:.3f} s after B stopped (lease {lease} s)")
        finally:
            lola.close()
            max_.close()
