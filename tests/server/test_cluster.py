"""One arena served by two real ``ludoteca serve`` processes on two ports, sharing one
PostgreSQL and one Redis (docs/deploy.md): players on different processes finish games, a
process killed with SIGKILL mid-game, its table's clocks and bots taken over within the lease,
Redis restarted mid-game, with nothing lost or repeated in the log; and one tournament director,
taken over within the lease when its process is killed.

Each test has its own PostgreSQL database and its own ``redis-server`` on a free port (so it
can be stopped and started again). Both skip with a reason when missing, and fail instead under
``LUDOTECA_REQUIRE_SERVICES=1``.
"""

from __future__ import annotations

import contextlib
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from arena_process import RedisServer
from websockets.exceptions import ConnectionClosed

from ludoteca.tournament.pairing import Format
from tests.server.client import JSON, Player, Socket, in_parallel
from tests.server.conftest import REQUIRED, Server, _postgres_database
from tests.server.test_tournaments import check_standings, stored, swiss, tables_of

LEASE = 3.0
"""Seconds a table's lease lasts in these tests (the default is 10)."""


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    if shutil.which("redis-server") is None:
        if REQUIRED:
            pytest.fail("redis-server is required (LUDOTECA_REQUIRE_SERVICES=1)")
        pytest.skip("redis-server is not installed")
    found = RedisServer(tmp_path)
    found.start()
    try:
        yield found
    finally:
        found.stop()


@pytest.fixture
def pg_url() -> Iterator[str]:
    yield from _postgres_database()


@contextlib.contextmanager
def processes(pg_url: str, redis_url: str, folder: Path, n: int = 2, lease: float = LEASE,
              **env: str) -> Iterator[list[Server]]:
    """``n`` processes of one arena (bots moving at once, leases of ``lease`` seconds)."""
    servers = [
        Server(pg_url, folder, LUDOTECA_REDIS_URL=redis_url, LUDOTECA_LEASE_SECONDS=str(lease),
               **{"LUDOTECA_WEBHOOK_TEST_NETWORKS": "127.0.0.1/32", **env})  # the test's hooks
        for _ in range(n)
    ]
    try:
        # all at once on a new database: the first migrates it, the others wait for it
        in_parallel(*(server.start for server in servers))
        yield servers
    finally:
        for server in servers:
            if server.process is not None and server.process.poll() is None:
                server.stop()


@pytest.fixture
def arena(pg_url: str, redis_server: RedisServer, tmp_path: Path) -> Iterator[list[Server]]:
    """Two processes of one arena, A and B."""
    with processes(pg_url, redis_server.url, tmp_path) as servers:
        yield servers


def log_of(pg_url: str, table: str) -> list[tuple[int, int, str]]:
    """The table's log as the database holds it: ``(seq, seat, kind)`` in order."""
    with psycopg.connect(pg_url) as db:
        rows = db.execute(
            "SELECT seq, seat, kind FROM moves WHERE table_id = %s ORDER BY seq", (table,)
        ).fetchall()
    return [(int(a), int(b), str(c)) for a, b, c in rows]


def wait_for_moves(pg_url: str, table: str, n: int, timeout: float = 60) -> None:
    """Until the table's log holds ``n`` entries (the game is that far along)."""
    end = time.monotonic() + timeout
    while len(log_of(pg_url, table)) < n:
        assert time.monotonic() < end, f"the log did not reach {n} entries"
        time.sleep(0.05)


def lease_owner(pg_url: str, table: str) -> str | None:
    with psycopg.connect(pg_url) as db:
        row = db.execute("SELECT owner FROM table_leases WHERE table_id = %s", (table,)).fetchone()
    return None if row is None else str(row[0])


class Seat:
    """A person playing one seat at random, on one process after another: when its socket
    dies it connects to the next, as a load balancer would send it. Keeps every log entry it
    was told of, ``seq`` → the seat that moved."""

    def __init__(self, player: Player, table: str, bases: list[str], seed: int) -> None:
        self.player, self.table, self.bases = player, table, bases
        self.rng = random.Random(seed)
        self.told: dict[int, int | None] = {}
        self.moves_sent = 0
        self.reconnects = 0
        self.sock = self._connect()

    def _connect(self) -> Socket:
        self.player.base = self.bases[self.reconnects % len(self.bases)]
        sock = self.player.socket(self.table)
        self._note(sock.first)
        return sock

    def _note(self, message: JSON) -> None:
        if message["type"] == "update":
            self.told[message["seq"]] = message["seat"]
        elif message["type"] == "full":
            for entry in message["log"]:
                self.told[entry["seq"]] = entry["seat"]

    def recv(self, timeout: float) -> JSON | None:
        """The next message, or None after moving to the next process."""
        try:
            message = self.sock.recv(timeout=timeout)
        except (ConnectionClosed, OSError):
            self.reconnects += 1
            self.sock = self._connect()
            return None
        self._note(message)
        # stale: another process's move came first; stopped: the process is going away
        if message["type"] == "error" and message["code"] not in ("stale", "stopped"):
            raise AssertionError(message)
        return message

    def play(self, timeout: float = 240) -> JSON:
        end = time.monotonic() + timeout
        answered = -1
        while self.sock.state.get("status") != "finished":
            assert time.monotonic() < end, "the game did not finish"
            state = self.sock.state
            legal = state.get("legal") or []
            if legal and state["seq"] != answered:
                answered = state["seq"]
                self.sock.act(self.rng.choice(legal))
                self.moves_sent += 1
            if self.recv(timeout=max(0.1, end - time.monotonic())) is None:
                answered = -1
        return self.sock.state


def check_log(
    pg_url: str, table: str, seats: list[Seat], final: JSON
) -> list[tuple[int, int, str]]:
    """The log is whole (every place 1..n filled once), every entry a person was told of is in
    it, by the seat they were told, and every person ends at its last entry."""
    log = log_of(pg_url, table)
    assert [seq for seq, _, _ in log] == list(range(1, len(log) + 1))
    by_seq = {seq: seat for seq, seat, _ in log}
    for seat in seats:
        for seq, who in seat.told.items():
            if seq and who is not None:
                assert by_seq.get(seq) == who, (seq, who)
    assert final["seq"] == len(log)
    return log


def healthz(server: Server) -> JSON:
    found: JSON = httpx.get(server.base + "/healthz", timeout=5).json()
    return found


def test_players_on_two_processes_finish_a_game(arena: list[Server], pg_url: str) -> None:
    """Ana on process A, Ben on B and a bot: each sees the other's moves and chat; one
    process runs the table; the stored record is the game they saw."""
    a, b = arena
    ana, ben = Player(a.base, "ana_c1"), Player(b.base, "ben_c1")
    try:
        table = ana.create("kingdomino", 3, bots=[None, "greedy"])
        assert ben.join(table["id"])["status"] == "playing"
        seats = [Seat(ana, table["id"], [a.base], 1), Seat(ben, table["id"], [b.base], 2)]
        seats[0].sock.send({"type": "chat", "text": "hola desde A"})
        line = seats[1].sock.until(lambda m: m["type"] == "chat", timeout=10)
        assert line["line"]["text"] == "hola desde A" and line["line"]["user"] == "ana_c1"
        owners = [healthz(s)["tables_owned"] for s in arena]
        assert sorted(owners) == [0, 1], owners
        assert all(healthz(s)["redis"] == "connected" for s in arena)
        finals = in_parallel(seats[0].play, seats[1].play)
        assert finals[0]["result"] == finals[1]["result"] and finals[0]["result"]["scores"]
        log = check_log(pg_url, table["id"], seats, finals[0])
        assert any(seat == 2 for _, seat, _ in log)  # the bot played
        for player in (ana, ben):
            record = player.ok(player.http.get(f"/api/tables/{table['id']}/record"))
            assert record["result"]["scores"] == finals[0]["result"]["scores"]
    finally:
        ana.close()
        ben.close()


def test_a_process_killed_mid_game_loses_nothing(arena: list[Server], pg_url: str) -> None:
    """Process A (which runs the table and its bot) is killed with SIGKILL mid-game; Ana's
    socket moves to B, B takes the table over, and the game finishes with every acknowledged
    move in the log exactly once."""
    a, b = arena
    ana, ben = Player(a.base, "ana_c2"), Player(b.base, "ben_c2")
    try:
        table = ana.create("kingdomino", 3, bots=[None, "greedy"])
        ben.join(table["id"])
        seats = [Seat(ana, table["id"], [a.base, b.base], 3),
                 Seat(ben, table["id"], [b.base], 4)]
        killed_at: list[int] = []

        def killer() -> None:
            wait_for_moves(pg_url, table["id"], 15)
            a.kill()
            killed_at.append(len(log_of(pg_url, table["id"])))

        finals = in_parallel(seats[0].play, seats[1].play, killer)
        assert finals[0]["result"] == finals[1]["result"]
        log = check_log(pg_url, table["id"], seats, finals[0])
        assert killed_at and killed_at[0] < len(log), "A died after the end"
        assert seats[0].reconnects == 1 and seats[1].reconnects == 0
        assert any(seat == 2 and seq > killed_at[0] for seq, seat, _ in log)  # B ran the bot
        assert lease_owner(pg_url, table["id"]) in (healthz(b)["process"], None)
    finally:
        ana.close()
        ben.close()


def test_a_dead_owners_clock_and_bot_move_within_the_lease(
    arena: list[Server], pg_url: str
) -> None:
    """The table is opened on A, which runs its clock and bot; Ana plays from B. A dies:
    within the lease B moves the bot, and later makes Ana's seat a bot when her time runs
    out, and the game ends with no one on A."""
    a, b = arena
    ana = Player(a.base, "ana_c3")
    try:
        table = ana.create("kingdomino", 2, bots=["greedy"], mode="live", bank_seconds=10,
                           increment_seconds=0)
        seat = Seat(ana, table["id"], [b.base], 5)
        sock = seat.sock
        mine = sock.state["you"]
        a.kill()
        at_kill = len(log_of(pg_url, table["id"]))
        bot, answered, bot_turn = 1 - mine, -1, None
        while True:  # Ana answers until it is the bot's turn, then waits for it
            state = sock.state
            if bot in state["to_act"] and bot_turn is None and state["seq"] >= at_kill:
                bot_turn = time.monotonic()
            if state["legal"] and state["seq"] != answered:
                answered = state["seq"]
                sock.act(seat.rng.choice(state["legal"]))
            bot_moved = sock.recv(timeout=LEASE * 3 + 10)
            if (bot_moved["type"] == "update" and bot_moved["seat"] == bot
                    and bot_moved["seq"] > at_kill):
                break
        assert bot_turn is not None
        waited = time.monotonic() - bot_turn
        assert waited < LEASE * 4 / 3 + 3, f"the bot waited {waited:.1f} s"
        # Ana now waits; her 10 s bank runs out and the clock, on B now, hands her seat to a bot
        taken = sock.until(lambda m: m["type"] == "update" and any(
            e["type"] == "takeover" for e in m["events"]), timeout=40)
        assert taken["events"][0]["seat"] == mine
        final = sock.until(lambda m: m.get("status") == "finished", timeout=120)
        check_log(pg_url, table["id"], [seat], final)
        assert [k for _, _, k in log_of(pg_url, table["id"])].count("note") == 1  # the take-over
    finally:
        ana.close()


def test_redis_restarted_mid_game_loses_nothing(
    arena: list[Server], pg_url: str, redis_server: RedisServer
) -> None:
    """Redis dies mid-game and comes back on the same port: meanwhile each process reads its
    tables from the database, afterwards they listen again, and the game ends whole."""
    a, b = arena
    ana, ben = Player(a.base, "ana_c4"), Player(b.base, "ben_c4")
    try:
        table = ana.create("kingdomino", 2)
        ben.join(table["id"])
        seats = [Seat(ana, table["id"], [a.base], 6), Seat(ben, table["id"], [b.base], 7)]
        moves_then: list[int] = []

        def outage() -> None:
            wait_for_moves(pg_url, table["id"], 8)
            redis_server.kill()
            moves_then.append(len(log_of(pg_url, table["id"])))
            time.sleep(4)
            moves_then.append(len(log_of(pg_url, table["id"])))
            redis_server.start()

        finals = in_parallel(seats[0].play, seats[1].play, outage)
        assert finals[0]["result"] == finals[1]["result"]
        log = check_log(pg_url, table["id"], seats, finals[0])
        assert moves_then[1] > moves_then[0], "the game stood still while Redis was down"
        assert moves_then[1] < len(log), "Redis came back after the end"
        end = time.monotonic() + 10
        while not all(healthz(s)["redis"] == "connected" for s in arena):
            assert time.monotonic() < end, "a process did not reconnect to Redis"
            time.sleep(0.2)
    finally:
        ana.close()
        ben.close()


def test_two_people_taking_the_last_seat_on_two_processes(arena: list[Server]) -> None:
    """Ana on A and Ben on B ask for the last free seat at once, again and again: the
    database seats one, the other is told it was taken, and no seat ever has two people."""
    a, b = arena
    host = Player(a.base, "host_c5")
    people = [Player(a.base, f"ana_c5_{i}") for i in range(5)]
    people += [Player(b.base, f"ben_c5_{i}") for i in range(5)]
    try:
        for i in range(5):
            table = host.create("kingdomino", 2)
            ana, ben = people[i], people[5 + i]

            def take(player: Player, table_id: str = table["id"]) -> int:
                return player.http.post(f"/api/tables/{table_id}/join", json={}).status_code

            codes = sorted(in_parallel(lambda p=ana: take(p), lambda p=ben: take(p)))
            assert codes == [200, 409], codes
            seats = host.ok(host.http.get(f"/api/tables/{table['id']}"))["seats"]
            users = [s["user"] for s in seats]
            assert users[0] == "host_c5" and users[1] in (ana.name, ben.name)
            assert host.ok(host.http.get(f"/api/tables/{table['id']}"))["status"] == "playing"
    finally:
        for player in [host, *people]:
            player.close()


def test_bot_moves_from_a_separate_worker(
    pg_url: str, redis_server: RedisServer, tmp_path: Path
) -> None:
    """With ``LUDOTECA_BOTS=queue`` the web processes send bot moves and the parts of post-game
    analyses through Redis to a ``ludoteca worker`` process, which makes every one of them."""
    with (tmp_path / "worker.log").open("wb") as worker_log:
        worker = subprocess.Popen(
            [sys.executable, "-m", "ludoteca.cli", "worker", "--redis-url", redis_server.url,
             "--processes", "1"],
            stdout=worker_log, stderr=subprocess.STDOUT,
        )
    try:
        with processes(pg_url, redis_server.url, tmp_path, n=1, LUDOTECA_BOTS="queue",
                       LUDOTECA_ANALYSIS_BUDGET="1") as web:
            time.sleep(1.0)  # the worker says it is alive every few seconds
            ana = Player(web[0].base, "ana_c6")
            try:
                table = ana.create("kami", 2, bots=["greedy"])
                seat = Seat(ana, table["id"], [web[0].base], 8)
                final = seat.play()
                log = check_log(pg_url, table["id"], [seat], final)
                # the match's analysis too is made by the worker, part by part
                assert ana.http.post(f"/api/tables/{table['id']}/analysis").status_code == 202
                end = time.monotonic() + 300
                while (state := ana.ok(ana.http.get(f"/api/tables/{table['id']}/analysis"))
                       )["status"] == "running":
                    assert time.monotonic() < end, state
                    time.sleep(0.3)
                assert state["status"] == "done" and state["done"] == state["total"]
                parts = -(-state["total"] // 4)  # four moves a part (analysis.PART)
            finally:
                ana.close()
            metrics = httpx.get(web[0].base + "/metrics", timeout=5).text
        bot_moves = sum(1 for _, who, kind in log if who == 1 and kind == "act")
        assert bot_moves > 0
        assert f'ludoteca_bot_moves{{where="queue"}} {float(bot_moves)}' in metrics
        assert 'ludoteca_bot_moves{where="local"} 0.0' in metrics
        assert 'ludoteca_analysis_parts{where="local"} 0.0' in metrics
        assert f'ludoteca_analysis_parts{{where="queue"}} {float(parts)}' in metrics
    finally:
        worker.terminate()
        assert worker.wait(30) == 0, (tmp_path / "worker.log").read_text()


def test_notices_cross_processes_and_nothing_hidden_crosses_redis(
    arena: list[Server], redis_server: RedisServer
) -> None:
    """At a turn-based Kami table run by A, Ben (on B) hears of his turns on his B event
    stream and at the webhook he set through B. Everything the processes told each other
    through Redis meanwhile is a notice with no game in it: never a view, a hand or an
    action, so nothing a player may not know passes through Redis."""
    import json
    import threading

    import redis

    from tests.server.test_notifications import Hooks, events, my_move

    a, b = arena
    heard: list[tuple[str, dict[str, Any]]] = []
    bus = redis.Redis(port=redis_server.port).pubsub()
    bus.psubscribe("ludoteca:*")
    done = threading.Event()

    def listen() -> None:
        while not done.is_set():
            message = bus.get_message(timeout=0.1)
            if message and message["type"] == "pmessage":
                heard.append((message["channel"].decode(), json.loads(message["data"])))

    listener = threading.Thread(target=listen)
    listener.start()
    ana, ben = Player(a.base, "ana_c7"), Player(b.base, "ben_c7")
    hooks = Hooks()
    try:
        table = ana.create("kami", 2, options={"target": 10}, mode="turn", turn_hours=24)
        tid = table["id"]
        ben.join(tid)
        socks = {0: ana.socket(tid), 1: ben.socket(tid)}
        ben.ok(ben.http.patch("/api/me", json={"webhook_url": hooks.url + "/ben"}))
        time.sleep(0.5)  # the notice of Ben's new row reaches A
        with events(ben.http) as ben_events:
            turns = 0
            rng = random.Random(9)
            while turns < 3:
                if not socks[0].state.get("to_act"):  # its first view came before the start
                    socks[0].until(lambda m: m["type"] in ("full", "update")
                                   and bool(m.get("to_act")))
                (seat,) = socks[0].state["to_act"]  # both sockets are at the same move here
                state = my_move(socks[seat])
                socks[seat].act(rng.choice(state["legal"]))
                after = socks[seat].until(lambda m, s=state["seq"]: m["type"] == "update"
                                          and m["seq"] > s)
                socks[1 - seat].until(lambda m, s=after["seq"]: m["type"] in ("update", "full")
                                      and m["seq"] >= s)
                if seat == 0 and after["to_act"] == [1]:
                    turn = ben_events.until(lambda kind, _: kind == "turn")
                    assert turn == {"type": "turn", "table": tid, "game": "kami",
                                    "seq": after["seq"]}
                    path, body = hooks.next()
                    while body["seq"] < after["seq"]:
                        path, body = hooks.next()
                    assert (path, body) == ("/ben", turn)
                    turns += 1
        for sock in socks.values():
            sock.close()
    finally:
        done.set()
        listener.join(10)
        hooks.close()
        ana.close()
        ben.close()
    assert {c for c, _ in heard} >= {"ludoteca:tables", "ludoteca:users", "ludoteca:lobby"}
    for channel, data in heard:
        if channel == "ludoteca:tables":
            assert set(data) in ({"from", "table", "seq"}, {"from", "table", "chat"},
                                 {"from", "beat"}, {"from", "resync"}), data
        elif channel == "ludoteca:users":
            assert set(data) in ({"from", "user", "data"}, {"from", "user", "profile"}), data
            assert set(data.get("data", {})) <= {"type", "table", "game", "seq", "of"}, data
        else:
            assert channel == "ludoteca:lobby" and set(data) == {"from", "text"}, data
            summary = json.loads(data["text"])["table"]
            assert "seed" not in summary and "invite" not in summary


def test_a_process_stopped_gracefully_hands_its_tables_on_at_once(
    pg_url: str, redis_server: RedisServer, tmp_path: Path
) -> None:
    """A rolling restart: A, which runs the table and its bot, is stopped with SIGTERM. Its
    clients are told to reconnect and do so to B; A gives its leases up as it goes, so B runs
    the bot at once instead of after a (here long) lease, and the game ends whole."""
    lease = 15.0
    with processes(pg_url, redis_server.url, tmp_path, lease=lease) as (a, b):
        ana, ben = Player(b.base, "ana_c8"), Player(a.base, "ben_c8")
        try:
            table = ben.create("kingdomino", 3, bots=[None, "greedy"])
            ana.join(table["id"])
            seats = [Seat(ana, table["id"], [b.base], 10),
                     Seat(ben, table["id"], [a.base, b.base], 11)]
            stopped: list[int] = []

            def restart() -> None:
                wait_for_moves(pg_url, table["id"], 12)
                assert a.stop() in (0, -15)  # uvicorn re-raises the SIGTERM it handled
                stopped.append(len(log_of(pg_url, table["id"])))

            finals = in_parallel(seats[0].play, seats[1].play, restart)
            assert finals[0]["result"] == finals[1]["result"]
            check_log(pg_url, table["id"], seats, finals[0])
            assert seats[1].reconnects == 1 and stopped[0] < finals[0]["seq"]
            with psycopg.connect(pg_url) as db:
                times = [t for (t,) in db.execute(
                    "SELECT at FROM moves WHERE table_id = %s AND seq >= %s ORDER BY seq",
                    (table["id"], stopped[0]))]
            gaps = [(later - before).total_seconds() for before, later in pairwise(times)]
            assert max(gaps, default=0) < lease / 2, gaps
        finally:
            ana.close()
            ben.close()


def test_the_last_two_seats_taken_on_two_processes_at_once(arena: list[Server]) -> None:
    """Ana (through A) and Ben (through B) take the last two seats at the same moment: both
    processes may decide to start the match, the database lets one do it, and the viewers of
    both processes see it start (a review found the loser's viewers left at "open")."""
    a, b = arena
    host = Player(a.base, "host_c9")
    people = [(Player(a.base, f"ana_c9_{i}"), Player(b.base, f"ben_c9_{i}")) for i in range(3)]
    try:
        for ana, ben in people:
            table = host.create("kingdomino", 3)
            tid = table["id"]
            host.base = a.base
            on_a = host.socket(tid)
            host.base = b.base
            on_b = host.socket(tid)
            codes = in_parallel(
                lambda p=ana, t=tid: p.http.post(f"/api/tables/{t}/join", json={}).status_code,
                lambda p=ben, t=tid: p.http.post(f"/api/tables/{t}/join", json={}).status_code,
            )
            assert codes == [200, 200]
            for sock in (on_a, on_b):
                if sock.state.get("status") != "playing":
                    sock.until(lambda m: m.get("status") == "playing", timeout=10)
                assert sock.state["to_act"], sock.state
            on_a.close()
            on_b.close()
    finally:
        host.close()
        for ana, ben in people:
            ana.close()
            ben.close()


def director_owner(pg_url: str) -> list[str]:
    """The director's lease rows' owners (one at most: the lease is one row)."""
    with psycopg.connect(pg_url) as db:
        return [str(r[0]) for r in db.execute("SELECT owner FROM director_lease").fetchall()]


def pid_of(owner: str) -> int:
    return int(owner.split(":")[1])  # host:pid:tag (redis_link.process_name)


def test_one_director_and_another_takes_over_within_the_lease(
    pg_url: str, redis_server: RedisServer, tmp_path: Path
) -> None:
    """Two processes: one holds the director's lease and runs a Swiss of three bots and Ana;
    it is killed with SIGKILL in round 1 (Ana's table waiting for her), the other takes the
    lease within its time and finishes the tournament, with nothing paired or opened twice."""
    lease = 2.0  # the director's, and the tables'
    with processes(pg_url, redis_server.url, tmp_path, lease=lease,
                   LUDOTECA_DIRECTOR_SECONDS="0.2", LUDOTECA_BOT_DELAY="0.05") as servers:
        end = time.monotonic() + 10
        while not (owners := director_owner(pg_url)):
            assert time.monotonic() < end, "nobody took the director's lease"
            time.sleep(0.05)
        [leader] = [s for s in servers if s.pid == pid_of(owners[0])]
        [other] = [s for s in servers if s is not leader]
        assert owners[0] == healthz(leader)["process"]  # the lease names it as /healthz does
        host, ana = Player(other.base, "host_c8"), Player(other.base, "ana_c8")
        try:
            tid = swiss(host, name="Two processes", rounds=2, max_entrants=4)["id"]
            ana.ok(ana.http.post(f"/api/tournaments/{tid}/register", json={}))
            for _ in range(3):
                host.ok(host.http.post(f"/api/tournaments/{tid}/bots", json={"level": "random"}))
            end = time.monotonic() + 30
            while (first := ana.ok(ana.http.get(f"/api/tournaments/{tid}"))["your_table"]
                   ) is None:
                assert time.monotonic() < end
                time.sleep(0.05)
            for _ in range(10):  # both up: the one lease stays where it is
                assert director_owner(pg_url) == owners
                assert all(healthz(s)["ok"] for s in servers)
                time.sleep(0.05)

            leader.kill()
            killed = time.monotonic()
            while not (now := director_owner(pg_url)) or pid_of(now[0]) != other.pid:
                assert time.monotonic() < killed + lease * 3, "nobody took the director over"
                time.sleep(0.02)
            took = time.monotonic() - killed
            print(f"the director was taken over {took:.2f} s after the SIGKILL (lease {lease} s)")
            assert took < lease + 1.5, f"taken over after {took:.2f} s"

            tables = [first]
            for round in (1, 2):
                if round == 2:
                    end = time.monotonic() + 60
                    while (found := ana.ok(ana.http.get(f"/api/tournaments/{tid}")))[
                            "round"] != 2 or found["your_table"] is None:
                        assert found["status"] == "running" and time.monotonic() < end
                        time.sleep(0.05)
                    tables.append(found["your_table"])
                Seat(ana, tables[-1], [other.base], 20 + round).play(timeout=120)
            end = time.monotonic() + 60
            while (found := host.ok(host.http.get(f"/api/tournaments/{tid}")))["status"] != (
                    "finished"):
                assert time.monotonic() < end, found["status"]
                time.sleep(0.1)

            draws, games = stored(other, tid)
            assert [d.round for d in draws] == [1, 2]
            assert sorted((g.round, g.board) for g in games) == [(1, 1), (1, 2), (2, 1), (2, 2)]
            assert set(tables_of(other, tid)) == {g.table_id for g in games}
            assert all(status == "finished" for status, _ in tables_of(other, tid).values())
            assert all(g.decided_by == "played" for g in games)
            check_standings(other, found, Format("swiss", 2, 2))
            assert [pid_of(o) for o in director_owner(pg_url)] == [other.pid]
        finally:
            host.close()
            ana.close()
