"""Issue 23, "Bots cost their owner, not the arena", against a real ``ludoteca serve``: an
account's open tables and its bots at search levels are limited (typed refusals when a table
is made or a bot seated), and one account running many tables of search bots does not make
another table's bot much slower (the pool serves the accounts in turn, bot_fairness.py).

The fairness figure is a ratio of one table's bot answer times, measured over real sockets:
with an abusive account's tables all asking for moves, against the same table alone. Run
``measure`` against another checkout to compare (the figure for the report):
``python -c "from tests.security.test_bot_fairness import main; main('/tmp/main-before')"``.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from extra_games import python_path

from tests.server.client import JSON, Player, Socket
from tests.server.conftest import Server

TABLES, SEARCH_BOTS = 3, 2
ABUSIVE_TABLES = 16
"""Four-player tables of three ``medium`` bots each, one account's."""
SAMPLES = 11
BOUND = 6.0
"""Fair, the victim's move waits for at most the move each process is thinking on, and thinks
on a machine whose two cores the abusers keep busy: 2.3-2.7 measured on a quiet machine, 4.55
once with two other processes using both cores. Served in arrival order it would wait for the
move of every abusive table (one bot thinks at a table at a time), 8 a process: about 9."""


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("limits")
    found = Server(f"sqlite:///{folder / 'arena.sqlite3'}", folder,
                   LUDOTECA_TABLES_PER_ACCOUNT=str(TABLES),
                   LUDOTECA_SEARCH_BOTS_PER_ACCOUNT=str(SEARCH_BOTS))
    found.start()
    try:
        yield found
    finally:
        found.stop()


def refused(response: httpx.Response) -> JSON:
    body: JSON = response.json()
    assert response.status_code == 429, body
    return body


def test_open_tables_and_search_bots_per_account_are_limited(limited: Server) -> None:
    host, other = Player(limited.base), Player(limited.base)
    try:
        http = host.http
        # three search bots at once: over the quota of two, and nothing is made
        body = refused(http.post("/api/tables", json={
            "game": "kingdomino", "players": 4, "bots": ["hard", "medium", "hard"]}))
        assert body["code"] == "too_many_bots" and str(SEARCH_BOTS) in body["message"]
        assert host.ok(http.get("/api/me/tables")) == []
        # two are fine (a seat left for a person: the table stays open)
        first = host.create("kingdomino", 4, bots=["hard", "medium", None])
        assert first["status"] == "open"
        # a third, seated later, is refused
        body = refused(http.post(f"/api/tables/{first['id']}/bots", json={"level": "hard"}))
        assert body["code"] == "too_many_bots"
        assert "have 2, and this would add 1" in body["message"]  # what it has, not the limit
        # a table's bots are its host's, whoever seats them; easy bots are not counted
        second = host.create("kingdomino", 4)
        other.join(second["id"], seat=1)
        body = refused(other.http.post(f"/api/tables/{second['id']}/bots",
                                       json={"level": "medium"}))
        assert body["code"] == "too_many_bots"
        other.ok(other.http.post(f"/api/tables/{second['id']}/bots", json={"level": "greedy"}))
        # open tables: at most three
        host.create("kami", 2)
        body = refused(http.post("/api/tables", json={"game": "buttons", "players": 2}))
        assert body["code"] == "too_many_tables" and str(TABLES) in body["message"]
        assert len([t for t in host.ok(http.get("/api/me/tables"))
                    if t["host"] == host.name]) == TABLES
        # the other account is not affected
        assert other.create("kingdomino", 2, bots=["hard"])["status"] == "playing"
        # leaving an open table gives it up (abandoned): a new one may be made
        host.ok(http.post(f"/api/tables/{first['id']}/leave"))
        assert host.create("buttons", 2, bots=["hard"])["status"] == "playing"
        # and in Spanish
        es = Player(limited.base, lang="es")
        for _ in range(TABLES):
            es.create("kingdomino", 2)
        assert "máximo" in refused(es.http.post("/api/tables", json={
            "game": "kingdomino", "players": 2}))["message"]
        es.close()
    finally:
        host.close()
        other.close()


def test_a_rematch_offer_needs_room_in_the_hosts_quota(limited: Server) -> None:
    """A rematch makes a new table of the host's: offered at quota, it is refused (and a
    finished table no longer counts)."""
    host = Player(limited.base)
    try:
        done = host.create("kami", 2, options={"target": 10}, bots=["random"])
        host.socket(done["id"]).play(random.Random(2))
        for _ in range(TABLES):  # the finished table left room for these
            host.create("kingdomino", 2)
        body = refused(host.http.post(f"/api/tables/{done['id']}/rematch"))
        assert body["code"] == "too_many_tables"
        summary = host.ok(host.http.get(f"/api/tables/{done['id']}"))
        assert summary["rematch_offer"] is None and summary["rematch"] is None
    finally:
        host.close()


# ---- fairness --------------------------------------------------------------------------------
def bot_answer_times(sock: Socket, count: int, timeout: float = 120) -> list[float]:
    """Play seat 0 against a bot in seat 1 at once; the seconds from each update that hands
    the turn to the bot to the bot's own update, ``count`` of them."""
    times: list[float] = []
    rng = random.Random(1)
    end = time.monotonic() + timeout
    handed: float | None = None
    while len(times) < count:
        state = sock.state
        if state.get("status") == "finished":
            raise AssertionError("the match ended before enough samples")
        if state.get("legal"):
            seq = state["seq"]
            sock.act(rng.choice(state["legal"]))
            message = sock.until(lambda m, seq=seq: m["type"] == "update" and m["seq"] > seq,
                                 max(1.0, end - time.monotonic()))
        else:
            message = sock.until(lambda m: m["type"] in ("update", "full"),
                                 max(1.0, end - time.monotonic()))
        now = time.monotonic()
        if message["type"] == "update" and message["seat"] == 1 and handed is not None:
            times.append(now - handed)
            handed = None
        if message["type"] == "update" and message["to_act"] == [1]:
            handed = now
    return times


def abuse(base: str, tables: int) -> tuple[Player, list[threading.Thread]]:
    """One account opens ``tables`` four-player tables with three ``medium`` bots each and
    plays its own seat at once, so its bots always want the pool."""
    abuser = Player(base)
    threads = []
    for i in range(tables):
        table = abuser.create("kingdomino", 4, bots=["medium"] * 3)
        sock = abuser.socket(table["id"])

        def play(sock: Socket = sock, seed: int = i) -> None:
            try:
                sock.play(random.Random(seed), timeout=600)
            except Exception:  # closed by the test at the end
                return

        thread = threading.Thread(target=play, daemon=True)
        thread.start()
        threads.append(thread)
    return abuser, threads


def measure(server: Server) -> tuple[float, float]:
    """The median bot answer time of one table alone, then with an abusive account's tables
    all asking for moves."""
    victim = Player(server.base)
    try:
        table = victim.create("kingdomino", 2, bots=["medium"])
        sock = victim.socket(table["id"])
        alone = statistics.median(bot_answer_times(sock, SAMPLES))
        abuser, threads = abuse(server.base, ABUSIVE_TABLES)
        try:
            time.sleep(3)  # every abusive table is asking by now
            busy = statistics.median(bot_answer_times(sock, SAMPLES))
        finally:
            abuser.close()
            for thread in threads:
                thread.join(10)
        return alone, busy
    finally:
        victim.close()


def fair_server(folder: Path, tree: str | None = None) -> Server:
    """Two bot processes, quotas out of the way (what is measured is the scheduling). The bots
    think on the Python engines: on the native core a ``medium`` move takes 3 ms, less than the
    round trip through a server busy with 16 other tables, and the ratio then measured the
    server's load rather than the bot pool's order (3.4 once on CI, with the pool fair)."""
    env = {"LUDOTECA_CORE": "python", "LUDOTECA_BOT_PROCESSES": "2",
           "LUDOTECA_TABLES_PER_ACCOUNT": "100",
           "LUDOTECA_SEARCH_BOTS_PER_ACCOUNT": "1000", "LUDOTECA_SOCKETS_PER_ACCOUNT": "100"}
    if tree is not None:
        env["PYTHONPATH"] = python_path(tree)
    return Server(f"sqlite:///{folder / 'arena.sqlite3'}", folder, **env)


def test_one_accounts_bots_do_not_slow_another_tables_bot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = fair_server(tmp_path)
    server.start()
    try:
        alone, busy = measure(server)
    finally:
        server.stop()
    ratio = busy / alone
    with capsys.disabled():
        print(f"\nbot answer time: alone {alone:.2f} s, with {ABUSIVE_TABLES} abusive tables "
              f"{busy:.2f} s: ratio {ratio:.2f} (bound {BOUND})")
    assert ratio < BOUND, (alone, busy)


def main(tree: str) -> None:
    """The same measurement against another checkout's server (``tree``), for the report."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        server = fair_server(Path(folder), os.path.abspath(tree))
        server.start()
        try:
            alone, busy = measure(server)
        finally:
            server.stop()
    print(f"{tree}: alone {alone:.2f} s, abused {busy:.2f} s, ratio {busy / alone:.2f}",
          file=sys.stderr)


def test_the_pool_serves_waiting_accounts_in_turn() -> None:
    """The queue itself (``bot_fairness.FairQueue``): with one slot, twenty moves of account A
    queued before one of account B, B's move runs second, not twenty-first; a move cancelled
    while waiting (its table let go of) takes no slot."""
    import asyncio

    from ludoteca.server.bot_fairness import FairQueue

    async def scenario() -> list[str]:
        queue = FairQueue(1)
        order: list[str] = []

        async def move(owner: str, name: str) -> None:
            await queue.acquire(owner)
            try:
                order.append(name)
                await asyncio.sleep(0.001)
            finally:
                queue.release()

        await queue.acquire("A")  # one move running
        tasks = [asyncio.create_task(move("A", f"a{i}")) for i in range(20)]
        await asyncio.sleep(0)
        gone = asyncio.create_task(move("C", "c"))
        tasks.append(asyncio.create_task(move("B", "b")))
        await asyncio.sleep(0)
        gone.cancel()
        queue.release()
        await asyncio.gather(*tasks)
        assert queue.free == 1 and queue.waiting() == 0
        return order

    order = asyncio.run(scenario())
    assert order[:2] == ["a0", "b"] and "c" not in order and len(order) == 21
