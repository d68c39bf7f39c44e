"""Lobby hygiene, from outside, against a real ``ludoteca serve`` (SQLite and PostgreSQL):
open tables nobody fills expire and leave the lobby, unused guests are purged with their
sessions while finished matches keep their history, and a table's host removes a stranger's
seat or a bot before the start."""

from __future__ import annotations

import contextlib
import shutil
import threading
import time
from pathlib import Path

import httpx
import pytest
from arena_process import RedisServer

from tests.security.accounts_support import (
    QUICK,
    EventStream,
    People,
    me_with,
    play_out,
    refused,
    started,
)
from tests.server.client import CLIENT, Player, in_parallel
from tests.server.conftest import REQUIRED, Server, _postgres_database

SECONDS_PER_DAY = 86400


def eventually(check: object, timeout: float = 30, what: str = "") -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if callable(check) and check():
            return
        time.sleep(0.2)
    raise AssertionError(f"not within {timeout} s: {what}")


def test_an_open_table_nobody_fills_expires(
        arena_database: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Opened and left waiting (3 s here), a table is given up: its watchers hear it, the lobby
    drops it, and nobody can sit at it any more. A table that started is left alone."""
    server = started(arena_database, tmp_path_factory.mktemp("expiry"),
                     LUDOTECA_OPEN_TABLE_MINUTES=str(3 / 60),
                     LUDOTECA_HOUSEKEEPING_SECONDS="0.3")
    host = Player(server.base, "Waiting_host")
    other = Player(server.base, "Latecomer")
    try:
        waiting = host.create(game="kami", players=2)
        playing = host.create(game="kami", players=2, bots=["random"])
        assert playing["status"] == "playing"
        lobby = {t["id"] for t in other.ok(other.http.get("/api/tables?status=open"))}
        assert waiting["id"] in lobby
        watch = other.socket(waiting["id"])
        assert watch.first["table"]["status"] == "open"
        told = watch.until(lambda m: m["type"] == "table"
                           and m["table"]["status"] == "abandoned", timeout=30)
        assert told["table"]["id"] == waiting["id"]
        lobby = {t["id"] for t in other.ok(other.http.get("/api/tables?status=all"))}
        assert waiting["id"] not in lobby
        assert other.ok(other.http.get(f"/api/tables/{waiting['id']}"))["status"] == "abandoned"
        refused(other.http.post(f"/api/tables/{waiting['id']}/join", json={}), 409, "not_open")
        refused(host.http.post(f"/api/tables/{waiting['id']}/bots", json={"level": "random"}),
                409, "not_open")
        assert other.ok(other.http.get(f"/api/tables/{playing['id']}"))["status"] in (
            "playing", "finished")
        assert "open table abandoned" in server.log()
    finally:
        host.close()
        other.close()
        server.stop()


def test_unused_guests_are_purged(
        arena_database: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Guests come and play; the server restarts with a guest lifetime of 20 s. The idle guest
    goes with its session; the one with a finished match goes too, and the match keeps its
    seats, result and record under an anonymous name; the guest still in use stays."""
    folder = tmp_path_factory.mktemp("purge")
    first = started(arena_database, folder)
    idle, played = Player(first.base), Player(first.base)
    active = idle
    try:
        finished = played.create(**QUICK, bots=["random"])
        final = play_out(played, finished["id"], 7)
        assert final["status"] == "finished"
        active = Player(first.base)  # the newest: still within its lifetime at the restart
        tokens = {p.name: p.http.cookies["ludoteca_session"] for p in (idle, played, active)}
    finally:
        for player in (idle, played, active):
            player.close()
        first.stop()

    # the lifetime outlasts a stop and a start under load (the active guest's last use is
    # before them: with 6 s, a slow start let it lapse too)
    again = started(arena_database, folder, LUDOTECA_GUEST_DAYS=str(20 / SECONDS_PER_DAY),
                    LUDOTECA_HOUSEKEEPING_SECONDS="0.3")
    stop = threading.Event()

    def keep_using() -> None:
        with httpx.Client(base_url=again.base, headers=CLIENT, timeout=30) as client:
            client.cookies.set("ludoteca_session", tokens[active.name])
            while not stop.is_set():
                client.get("/api/me")
                time.sleep(0.1)

    user = threading.Thread(target=keep_using, daemon=True)
    user.start()
    try:
        def gone(name: str) -> bool:
            return httpx.get(f"{again.base}/api/users/{name}", timeout=30).status_code == 404

        eventually(lambda: gone(idle.name) and gone(played.name), timeout=60,
                   what="guests purged")
        refused(me_with(again.base, tokens[idle.name]), 401, "not_signed_in")
        refused(me_with(again.base, tokens[played.name]), 401, "not_signed_in")
        assert me_with(again.base, tokens[active.name]).json()["name"] == active.name
        # the finished match is whole, under the anonymous name
        table = httpx.get(f"{again.base}/api/tables/{finished['id']}", timeout=30).json()
        anonymous = table["seats"][0]["user"]
        assert anonymous.startswith("deleted_") and table["host"] == anonymous
        assert table["status"] == "finished"
        assert table["result"]["ranks"] == final["result"]["ranks"]
        page = httpx.get(f"{again.base}/api/users/{anonymous}", timeout=30).json()
        assert [m["id"] for m in page["matches"]] == [finished["id"]]
        record = httpx.get(f"{again.base}/api/tables/{finished['id']}/record", timeout=30)
        assert record.status_code == 200 and played.name not in record.text
        assert "unused guest purged" in again.log()
    finally:
        stop.set()
        user.join(10)
        again.stop()


def test_the_host_removes_a_stranger_and_a_bot(server: Server, people: People) -> None:
    host, stranger, bystander = people("Anfitriona"), people("Intruso"), people("Mirador")
    table = host.create(game="kingdomino", players=4)
    tid = table["id"]
    stranger.join(tid, seat=1)
    host.ok(host.http.post(f"/api/tables/{tid}/bots", json={"level": "random", "seat": 2}))
    sock = stranger.socket(tid)
    assert sock.first["you"] == 1
    stream = EventStream(stranger.base, stranger.http.cookies["ludoteca_session"])
    try:
        # nobody but the host may remove a seat
        refused(stranger.http.delete(f"/api/tables/{tid}/seats/2"), 403, "not_host")
        refused(bystander.http.delete(f"/api/tables/{tid}/seats/1"), 403, "not_host")
        with httpx.Client(base_url=server.base, headers=CLIENT, timeout=30) as anonymous:
            refused(anonymous.delete(f"/api/tables/{tid}/seats/1"), 401, "not_signed_in")
        refused(host.http.delete(f"/api/tables/{tid}/seats/0"), 409, "own_seat")
        refused(host.http.delete(f"/api/tables/{tid}/seats/3"), 409, "seat_free")
        refused(host.http.delete(f"/api/tables/{tid}/seats/9"), 400, "no_such_seat")
        refused(host.http.delete("/api/tables/nothing/seats/1"), 404, "no_such_table")
        seats = host.ok(host.http.get(f"/api/tables/{tid}"))["seats"]
        assert [(s["user"], s["bot"]) for s in seats] == [
            ("Anfitriona", None), ("Intruso", None), (None, "random"), (None, None)]

        removed = host.ok(host.http.delete(f"/api/tables/{tid}/seats/1"))
        assert removed["seats"][1]["user"] is None and removed["status"] == "open"
        # the stranger's table page hears the seat change, and their stream why
        told = sock.until(lambda m: m["type"] == "table" and m["table"]["seats"][1]["user"]
                          is None)
        assert told["table"]["seats"][0]["user"] == "Anfitriona"
        eventually(lambda: {"type": "removed", "table": tid} in stream.events,
                   what="the removed event")
        refused(stranger.http.post(f"/api/tables/{tid}/leave"), 403, "not_seated")

        no_bot = host.ok(host.http.delete(f"/api/tables/{tid}/seats/2"))
        assert no_bot["seats"][2]["bot"] is None and no_bot["seats"][2]["name"] is None
        sock.until(lambda m: m["type"] == "table" and m["table"]["seats"][2]["bot"] is None)
        refused(host.http.delete(f"/api/tables/{tid}/seats/2"), 409, "seat_free")

        # once the match starts, seats are no longer the host's to take
        for seat in (1, 2, 3):
            host.ok(host.http.post(f"/api/tables/{tid}/bots",
                                   json={"level": "random", "seat": seat}))
        assert host.ok(host.http.get(f"/api/tables/{tid}"))["status"] in ("playing", "finished")
        refused(host.http.delete(f"/api/tables/{tid}/seats/1"), 409, "not_open")
    finally:
        stream.close()
        sock.close()



def test_several_processes_expire_and_purge_each_thing_once(tmp_path: Path) -> None:
    """Two processes of one arena (PostgreSQL and Redis) both run the housekeeping, every
    0.2 s: each open table is given up once, each unused guest purged once, and a watcher on
    the other process hears of its table too."""
    if shutil.which("redis-server") is None:
        if REQUIRED:
            pytest.fail("redis-server is required (LUDOTECA_REQUIRE_SERVICES=1)")
        pytest.skip("redis-server is not installed")
    redis = RedisServer(tmp_path)
    redis.start()
    database = _postgres_database()
    url = next(database)
    env = {"LUDOTECA_REDIS_URL": redis.url, "LUDOTECA_OPEN_TABLE_MINUTES": str(4 / 60),
           "LUDOTECA_GUEST_DAYS": str(4 / SECONDS_PER_DAY),
           "LUDOTECA_HOUSEKEEPING_SECONDS": "0.2"}
    servers = [Server(url, tmp_path, **env) for _ in range(2)]
    players: list[Player] = []
    try:
        in_parallel(*(server.start for server in servers))
        a, b = servers
        host = Player(a.base, "Cluster_host")
        players.append(host)
        tables = [host.create(game="kami", players=2)["id"] for _ in range(4)]
        watcher = Player(b.base, "Cluster_watch")
        players.append(watcher)
        sock = watcher.socket(tables[0])
        guests = [Player(server.base) for server in (a, b, a)]
        players.extend(guests)
        names = [g.name for g in guests]
        if sock.first["status"] != "abandoned":  # a slow machine: it may be given up already
            sock.until(lambda m: m["type"] == "table" and m["table"]["status"] == "abandoned")

        def all_done() -> bool:
            statuses = {host.ok(host.http.get(f"/api/tables/{t}"))["status"] for t in tables}
            return statuses == {"abandoned"} and all(
                httpx.get(f"{a.base}/api/users/{n}", timeout=30).status_code == 404
                for n in names)

        eventually(all_done, what="every table abandoned and every guest purged")
        time.sleep(1)  # more passes, on both processes
        logs = a.log() + b.log()
        for table in tables:
            assert logs.count(f'"table": "{table}"') == 1, table
        for name in names:
            assert logs.count(f'"guest": "{name}"') == 1, name
        assert all(p.poll() is None for p in (a.process, b.process) if p is not None)
    finally:
        for player in players:
            player.close()
        for server in servers:
            if server.process is not None and server.process.poll() is None:
                server.stop()
        redis.stop()
        with contextlib.suppress(StopIteration):
            next(database)
