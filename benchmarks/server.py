"""The arena under load: one real ``ludoteca serve`` process, N live two-player Kingdomino
tables played by bot-paced simulated people over real WebSockets.

    python benchmarks/server.py --quick                 # 20 tables, 10 s: a smoke run
    python benchmarks/server.py [--tables 300] [--seconds 60] [--think 1.0] [--jitter 0.3]
                                [--database sqlite|postgresql|both] [--client-processes 1]
                                [--py-spy /tmp/profile.txt]

Each table has two seats, each a simulated person: a guest account (``POST /api/guest``), one
creating the table and the other joining it, each with its own table WebSocket (cookie
``ludoteca_session``). A person's decision begins when a ``full`` or ``update`` message gives
it legal actions; it waits a bot-like think time (``--think`` ± ``--jitter`` seconds) and sends a
random legal ``{type: "act", seq, action}``. The round trip is from that send to the arrival of
the ``update`` whose ``seq`` is the answered one + 1. A Kingdomino match is 48 actions (about
50 s at 1 s a move), so matches end during the run: the host then offers a rematch
(``POST /api/tables/{id}/rematch``), the guest accepts it, and both learn the new table from
the ``table`` message on the old socket, as a real client does; both move their sockets there.
So N tables stay live, and table creation, the end of a match (ratings: the tables are rated)
and rematches are part of the load.

The clients run in ``--client-processes`` worker processes (asyncio, ``websockets``' asyncio
client), started before the server is timed; each reports its own CPU use and event-loop lag,
so a figure that includes client delay can be told from one that does not. The server's CPU
comes from ``/proc/<pid>/stat``, its own latency from ``/metrics`` (``ludoteca_action_seconds``)
sampled at the start and at the end of the measured window. The machine is shared: the
whole machine's CPU use over the window is printed too, and the part that was neither the
server nor the clients.

PostgreSQL runs in a fresh database ``ludoteca_bench_<random>`` made through
``LUDOTECA_BENCH_POSTGRES`` (default ``postgresql://postgres@127.0.0.1:5432/test``) and dropped
at the end; it is skipped, with the reason printed, when unreachable.

The target: at least 300 concurrent tables with a p99 round trip under 100 ms on SQLite, on
this 2-core machine with the clients on it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from multiprocessing.synchronize import Barrier
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "tests" / "support"))

import httpx  # noqa: E402
from arena_process import ServerProcess  # noqa: E402

PG_ADMIN = os.environ.get("LUDOTECA_BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
COOKIE = "ludoteca_session"
TICK = os.sysconf("SC_CLK_TCK")
STAGGER = 45
"""A pair's first table starts 0 to 44 moves in (a Kingdomino match has 48): without it
every table would end in the same few seconds, a wave no real arena sees."""
NO_ANSWER = 10.0
"""Seconds after which an action with no answering update counts as an error."""

JSON = dict[str, Any]


# ---- the server --------------------------------------------------------------------------------
class Server(ServerProcess):
    """One ``ludoteca serve`` process on a free port, started at once; with ``tree``, the
    server of that checkout (its ``ludoteca`` package first on the path)."""

    def __init__(self, database_url: str, folder: Path, module: str = "ludoteca.cli",
                 bot_processes: int = 1, tree: Path | None = None) -> None:
        env = {"LUDOTECA_BOT_PROCESSES": str(bot_processes)}
        if tree is not None:
            env["PYTHONPATH"] = str(tree)
        super().__init__(database_url, folder, module, **env)
        self.start()

    def tail(self) -> str:
        return self.log()


@contextlib.contextmanager
def postgres_database() -> Iterator[str]:
    """A fresh database, dropped at the end; ``OSError`` with the reason if unreachable."""
    import psycopg

    name = "ludoteca_bench_" + secrets.token_hex(4)
    try:
        admin = psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as exc:
        raise OSError(f"PostgreSQL unreachable at {PG_ADMIN}: {str(exc).strip()}") from None
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield PG_ADMIN.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def postgres_backends(url: str) -> list[int]:
    """The PostgreSQL server processes serving the database at ``url`` (same machine)."""
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=3) as admin:
        rows = admin.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", (name,))
        return [int(pid) for (pid,) in rows.fetchall()]


def processes_cpu(pids: list[int]) -> dict[int, float]:
    out = {}
    for pid in pids:
        with contextlib.suppress(OSError):
            out[pid] = cpu_seconds(pid)
    return out


def cpu_seconds(pid: int | str) -> float:
    """User + system CPU seconds of a process, every thread included."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def machine_ticks() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine, every core."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]
    return (sum(values) - idle) / TICK, sum(values) / TICK


def scrape(base: str) -> dict[str, Any]:
    """The server's counters and the action histogram (cumulative buckets)."""
    from prometheus_client.parser import text_string_to_metric_families

    text = httpx.get(base + "/metrics", timeout=10).text
    out: dict[str, Any] = {"buckets": {}, "refusals": Counter(), "tables": {}}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "ludoteca_action_seconds_bucket":
                out["buckets"][float(sample.labels["le"])] = sample.value
            elif sample.name in ("ludoteca_action_seconds_sum", "ludoteca_action_seconds_count",
                                 "ludoteca_actions_total", "ludoteca_messages_sent_total",
                                 "ludoteca_connected_clients"):
                out[sample.name] = sample.value
            elif sample.name == "ludoteca_refusals_total":
                out["refusals"][sample.labels["code"]] += int(sample.value)
            elif sample.name == "ludoteca_tables":
                out["tables"][sample.labels["status"]] = int(sample.value)
    return out


# ---- the simulated people ------------------------------------------------------------------
@dataclass
class Plan:
    """What one client process does (plain data: it crosses to a spawned process)."""

    base: str
    tables: int
    think: float
    jitter: float
    warmup: float
    seconds: float
    setup_concurrency: int
    compression: bool
    seed: int
    stagger: bool = True
    probe: bool = False
    """Whether this process also runs the ping probe (the first one does)."""
    seat_bases: tuple[str, ...] = ()
    """Where each person (host first) joins and opens the table's socket, when not ``base``:
    another process of the same arena (benchmarks/scale.py)."""
    bots: tuple[str, ...] = ()
    """Bot levels for the seats after the host's: a table with one person and bots."""

    @property
    def people(self) -> int:
        """People at each table."""
        return 2 - len(self.bots)


@dataclass
class Tally:
    """What one client process measured in the window."""

    latencies: list[float] = field(default_factory=list)
    sent: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    games: int = 0
    live: list[int] = field(default_factory=list)
    lag: list[float] = field(default_factory=list)
    pings: list[float] = field(default_factory=list)
    when: dict[str, list[float]] = field(default_factory=lambda: {
        "latencies": [], "pings": [], "games": []})
    """Seconds into the window of each latency, ping and finished match (the timeline)."""
    cpu: float = 0.0
    setup_seconds: float = 0.0
    pairs: int = 0
    setup_failures: Counter[str] = field(default_factory=Counter)


class Window:
    """The shared clock of a client process: warm-up end, window end, and stop."""

    def __init__(self, plan: Plan) -> None:
        now = time.monotonic()
        self.start = now + plan.warmup
        self.end = self.start + plan.seconds
        self.stopping = False
        self.go = asyncio.Event()
        """Set when every table is set up. Past its stagger moves nobody moves before, so
        the stagger alone sets each table's phase: setting up takes tens of seconds, and
        tables that began moving as soon as they were ready ended their matches in waves
        (twice the mean rate of match ends for ten seconds at a time)."""

    def inside(self, t: float) -> bool:
        return self.start <= t < self.end


class Person:
    """One guest: a session cookie and, while at a table, one WebSocket."""

    def __init__(self, pair: Pair, token: str, name: str, base: str) -> None:
        self.pair = pair
        self.token = token
        self.name = name
        self.base = base
        self.ws: Any = None
        self.state: JSON = {}
        self.answered = -1
        self.pending: tuple[int, float] | None = None
        self.rematch: asyncio.Future[str] | None = None
        self.finished: asyncio.Event = asyncio.Event()

    @property
    def headers(self) -> dict[str, str]:
        return {"cookie": f"{COOKIE}={self.token}"}

    async def connect(self, table_id: str) -> None:
        from websockets.asyncio.client import connect

        plan = self.pair.plan
        url = self.base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
        self.ws = await connect(
            url, additional_headers=self.headers, max_size=None, open_timeout=60, proxy=None,
            compression="deflate" if plan.compression else None,
        )
        self.state = {}
        self.answered = -1
        self.pending = None
        self.finished = asyncio.Event()
        self.rematch = asyncio.get_running_loop().create_future()

    async def listen(self) -> None:
        """Read this socket until it closes: track the state, time answers, decide."""
        tally, window = self.pair.tally, self.pair.window
        try:
            async for text in self.ws:
                now = time.monotonic()
                message: JSON = json.loads(text)
                kind = message.get("type")
                if kind in ("full", "update"):
                    self._state(message, kind, now)
                elif kind == "error":
                    if window.inside(now):
                        tally.errors[message.get("code", "?")] += 1
                    if self.pending is not None:
                        self.pending = None
                        self.answered = -1  # answer the same decision again
                        self._decide(self.state, now)
                elif kind == "table":
                    rematch = message["table"].get("rematch")
                    if rematch and self.rematch is not None and not self.rematch.done():
                        self.rematch.set_result(rematch)
                elif kind == "reconnect" and window.inside(now):
                    tally.errors["reconnect"] += 1
        except Exception as exc:  # a dropped socket is an error of the run, not a crash
            if not window.stopping:
                tally.errors[f"socket: {type(exc).__name__}"] += 1

    def _state(self, message: JSON, kind: str, now: float) -> None:
        tally, window = self.pair.tally, self.pair.window
        seq = message["seq"]
        last = self.state.get("seq")
        if kind == "update" and last is not None and seq != last + 1 and window.inside(now):
            tally.errors["gap"] += 1
        if self.pending is not None and seq > self.pending[0]:
            answered, sent = self.pending
            self.pending = None
            if window.inside(sent):
                if kind == "update" and seq == answered + 1:
                    tally.latencies.append(now - sent)
                    tally.when["latencies"].append(sent - window.start)
                else:
                    tally.errors["answered by full"] += 1
        self.state = message
        if message.get("status") == "finished":
            self.finished.set()
            return
        self._decide(message, now)

    def _decide(self, message: JSON, began: float) -> None:
        if self.pair.ahead == 0 and not self.pair.window.go.is_set():
            self.pair.spawn(self._decide_when_all_ready(message))
            return
        legal = message.get("legal") or []
        seq = message.get("seq", -1)
        if legal and seq != self.answered and not self.pair.window.stopping:
            self.answered = seq
            plan = self.pair.plan
            think = max(0.0, plan.think + self.pair.rng.uniform(-plan.jitter, plan.jitter))
            if self.pair.ahead > 0:  # the stagger: the first moves at once
                think = 0.005
                self.pair.ahead -= 1
                if self.pair.ahead == 0:
                    self.pair.caught_up.set()
            action = self.pair.rng.choice(legal)
            loop = asyncio.get_running_loop()
            loop.call_later(max(0.0, began + think - time.monotonic()),
                            lambda: self.pair.spawn(self._send(seq, action)))

    async def _decide_when_all_ready(self, message: JSON) -> None:
        await self.pair.window.go.wait()
        self._decide(message, time.monotonic())

    async def _send(self, seq: int, action: JSON) -> None:
        if self.pair.window.stopping or self.state.get("seq") != seq:
            return
        sent = time.monotonic()
        self.pending = (seq, sent)
        if self.pair.window.inside(sent):
            self.pair.tally.sent += 1
        with contextlib.suppress(Exception):
            await self.ws.send(json.dumps({"type": "act", "seq": seq, "action": action}))

    def overdue(self, now: float) -> bool:
        """An action with no answer for too long: counted once, then forgotten."""
        if self.pending is not None and now - self.pending[1] > NO_ANSWER:
            self.pending = None
            return True
        return False

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()


class Pair:
    """Two people playing one table after another."""

    def __init__(self, plan: Plan, tally: Tally, window: Window, http: httpx.AsyncClient,
                 index: int) -> None:
        self.plan = plan
        self.tally = tally
        self.window = window
        self.http = http
        self.rng = random.Random(plan.seed * 100_003 + index)
        self.people: list[Person] = []
        self.table_id: str | None = None
        self.playing = False
        self.tasks: set[asyncio.Task[Any]] = set()
        self.ahead = self.rng.randrange(STAGGER * plan.people // 2) if plan.stagger else 0
        """Moves of the first table played at once during set-up, so that the tables are at
        different points of their matches and end at different times (a person alone with a
        bot makes half the moves)."""
        self.caught_up = asyncio.Event()

    def spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _post(self, path: str, person: Person | None, body: JSON | None = None,
                    base: str = "") -> Any:
        headers = person.headers if person is not None else {}
        try:
            response = await self.http.post(base + path, json=body, headers=headers)
        except httpx.RemoteProtocolError:
            # a kept-alive connection the server closed as it was reused (uvicorn closes idle
            # ones after 5 s; a pair posts once a match): send it again on a fresh one
            response = await self.http.post(base + path, json=body, headers=headers)
        if response.status_code >= 400:
            raise RuntimeError(f"{path}: {response.status_code} {response.text[:200]}")
        return response, response.json()

    async def setup(self) -> None:
        """Two guests; one opens a rated table, the other joins; both connect. (With a bot
        seat: one guest, whose table starts at once.)"""
        bases = self.plan.seat_bases
        for i in range(self.plan.people):
            response, me = await self._post("/api/guest", None)
            self.http.cookies.clear()
            base = bases[i] if i < len(bases) else self.plan.base
            self.people.append(Person(self, response.cookies[COOKIE], me["name"], base))
        host, *guests = self.people
        _, table = await self._post("/api/tables", host, {
            "game": "kingdomino", "players": 2, "rated": True,
            "bank_seconds": 1800, "increment_seconds": 10,
            **({"bots": list(self.plan.bots)} if self.plan.bots else {})})
        for guest in guests:
            await self._post(f"/api/tables/{table['id']}/join", guest, {}, guest.base)
        await self._connect(table["id"])
        if self.ahead > 0:
            await asyncio.wait_for(self.caught_up.wait(), 300)

    async def _connect(self, table_id: str) -> None:
        self.table_id = table_id
        for person in self.people:
            await person.connect(table_id)
            self.spawn(person.listen())
        self.playing = True

    async def play(self) -> None:
        """Play tables until the window ends; a finished table is followed by its rematch."""
        host, *guests = self.people
        while not self.window.stopping:
            done = asyncio.gather(*(person.finished.wait() for person in self.people))
            stop = asyncio.ensure_future(self._stopped())
            await asyncio.wait([done, stop], return_when=asyncio.FIRST_COMPLETED)
            stop.cancel()
            if self.window.stopping:
                done.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await done
                return
            self.playing = False
            if self.window.inside(time.monotonic()):
                self.tally.games += 1
                self.tally.when["games"].append(time.monotonic() - self.window.start)
            try:
                path = f"/api/tables/{self.table_id}/rematch"
                _, answer = await self._post(path, host)
                # an offer (this tree); an older server answers with the new table at once
                made = answer.get("rematch") if answer["id"] == self.table_id else answer["id"]
                for guest in guests if made is None else ():
                    _, answer = await self._post(path, guest, {"accept": True})
                    made = answer.get("rematch")
                for guest in guests:
                    assert guest.rematch is not None
                    seen = await asyncio.wait_for(asyncio.shield(guest.rematch), 10)
                    if seen != made:
                        self.tally.errors["rematch mismatch"] += 1
            except (RuntimeError, TimeoutError, httpx.HTTPError) as exc:
                self.tally.errors[f"rematch: {type(exc).__name__}"] += 1
                return
            for person in self.people:
                await person.close()
            await self._connect(str(made))

    async def _stopped(self) -> None:
        while not self.window.stopping:
            await asyncio.sleep(0.2)

    async def close(self) -> None:
        for person in self.people:
            await person.close()


async def _clients(plan: Plan, barrier: Barrier | None) -> Tally:
    tally = Tally()
    limits = httpx.Limits(max_connections=plan.setup_concurrency * 2)
    async with httpx.AsyncClient(base_url=plan.base, timeout=60, limits=limits,
                                 headers={"X-Ludoteca-Client": "benchmarks/server.py"}) as http:
        window = Window(Plan(**{**plan.__dict__, "warmup": 1e9}))  # no window during setup
        pairs = [Pair(plan, tally, window, http, i) for i in range(plan.tables)]
        gate = asyncio.Semaphore(plan.setup_concurrency)

        async def set_up(pair: Pair) -> bool:
            async with gate:
                for attempt in range(3):
                    try:
                        await pair.setup()
                        return True
                    except Exception as exc:
                        tally.setup_failures[str(exc)[:80]] += 1
                        await pair.close()
                        pair.people.clear()
                        await asyncio.sleep(0.5 * (attempt + 1))
                return False

        began = time.monotonic()
        ready = await asyncio.gather(*(set_up(p) for p in pairs))
        tally.setup_seconds = time.monotonic() - began
        pairs = [p for p, ok in zip(pairs, ready, strict=True) if ok]
        tally.pairs = len(pairs)
        if barrier is not None:
            await asyncio.to_thread(barrier.wait, 600)
        fresh = Window(plan)
        window.start, window.end = fresh.start, fresh.end
        window.go.set()
        cpu_start = cpu_seconds("self")
        playing = [asyncio.ensure_future(p.play()) for p in pairs]
        ticker = asyncio.ensure_future(_watch(pairs, tally, window))
        probe = asyncio.ensure_future(_probe(plan, pairs[0].table_id, tally, window)) \
            if pairs and plan.probe else None
        await asyncio.sleep(max(0.0, window.end - time.monotonic()))
        window.stopping = True
        tally.cpu = cpu_seconds("self") - cpu_start
        await asyncio.sleep(1.0)  # answers to the window's last actions
        ticker.cancel()
        if probe is not None:
            probe.cancel()
        await asyncio.gather(*playing, return_exceptions=True)
        await asyncio.gather(*(p.close() for p in pairs), return_exceptions=True)
        for pair in pairs:
            for task in list(pair.tasks):
                task.cancel()
    return tally


async def _watch(pairs: list[Pair], tally: Tally, window: Window) -> None:
    """Every 50 ms: the event loop's lag; every 0.5 s: live tables and overdue answers."""
    step, n = 0.05, 0
    while True:
        before = time.monotonic()
        await asyncio.sleep(step)
        now = time.monotonic()
        if not window.inside(now):
            continue
        tally.lag.append(now - before - step)
        n += 1
        if n % 10 == 0:
            tally.live.append(sum(p.playing for p in pairs))
            for pair in pairs:
                for person in pair.people:
                    if person.overdue(now):
                        tally.errors["no answer in 10 s"] += 1


async def _probe(plan: Plan, table_id: str | None, tally: Tally, window: Window) -> None:
    """Every 100 ms a ``ping`` on an anonymous viewer's socket: answered by the socket's own
    handler, never the table's actor or the database, so its round trip is the server's event
    loop and transport alone."""
    from websockets.asyncio.client import connect

    url = plan.base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
    async with connect(url, max_size=None, proxy=None,
                       compression="deflate" if plan.compression else None) as ws:
        await ws.recv()
        while True:
            await asyncio.sleep(0.1)
            sent = time.monotonic()
            await ws.send('{"type": "ping"}')
            while json.loads(await ws.recv()).get("type") != "pong":
                pass
            if window.inside(sent):
                tally.pings.append(time.monotonic() - sent)
                tally.when["pings"].append(sent - window.start)


def client_process(plan: Plan, barrier: Barrier, results: Any) -> None:
    """A worker process: its share of the tables, its tally sent back."""
    with contextlib.suppress(ImportError):
        import uvloop  # the server's loop too, when installed

        uvloop.install()
    # the simulated people tune their interpreter as the server does, so that their own
    # pauses do not count as the server's latency (real people are on other machines)
    from ludoteca.server.app import tune_runtime

    tune_runtime()
    tally = asyncio.run(_clients(plan, barrier))
    results.put(tally)


# ---- one run -----------------------------------------------------------------------------------
def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bucket_quantile(buckets: dict[float, float], q: float) -> str:
    """The upper bound of the histogram bucket holding quantile ``q``."""
    total = buckets.get(float("inf"), 0.0)
    if total <= 0:
        return "-"
    for bound in sorted(buckets):
        if buckets[bound] >= q * total:
            return "> 1000 ms" if bound == float("inf") else f"≤ {bound * 1000:g} ms"
    return "-"


@dataclass
class Result:
    database: str
    tables: int
    clients: int
    live_mean: float
    live_min: int
    actions_per_second: float
    latencies: list[float]
    errors: Counter[str]
    server: JSON
    server_cpu: float
    loop_cpu: float
    """The server's main thread alone: its event loop (a loop near 1.0 is saturated)."""
    database_cpu: float
    """PostgreSQL's processes serving the benchmark's database (0 for SQLite, which runs in
    the server process)."""
    client_cpu: float
    machine_cpu: float
    lag_p99: float
    lag_max: float
    pings: list[float]
    timeline: list[str]
    setup_seconds: float
    games: int


def run(database: str, url: str, args: argparse.Namespace, folder: Path,
        tree: Path | None = None) -> Result:
    which = f" of {tree}" if tree is not None else ""
    print(f"\n== {database}: starting the server{which} ({url.split('@')[-1]})", flush=True)
    server = Server(url, folder, args.server_module, tree=tree)
    try:
        return _measure(database, server, args, url)
    finally:
        code = server.stop()
        if code not in (0, -signal.SIGTERM):  # uvicorn re-raises SIGTERM after shutting down
            print(f"   the server exited with {code}:\n{server.tail()}")


class Clients:
    """The client processes, one per plan, started at once."""

    def __init__(self, plans: list[Plan]) -> None:
        context = multiprocessing.get_context("spawn")
        self.barrier = context.Barrier(len(plans) + 1)
        self.results = context.Queue()
        self.workers: list[Any] = []
        for plan in plans:
            worker = context.Process(target=client_process,
                                     args=(plan, self.barrier, self.results))
            worker.start()
            self.workers.append(worker)

    def wait_set_up(self) -> None:
        """Until every process has set up its tables; then they all begin the warm-up."""
        while self.barrier.n_waiting < len(self.workers):  # a dead worker would leave it waiting
            dead = [w for w in self.workers if not w.is_alive()]
            if dead:
                raise RuntimeError(f"a client process exited with {dead[0].exitcode}")
            time.sleep(0.2)
        self.barrier.wait(60)

    def tallies(self) -> list[Tally]:
        """Each process's tally, once its window has ended."""
        found = [self.results.get(timeout=120) for _ in self.workers]
        for worker in self.workers:
            worker.join(30)
        return found

    def stop(self) -> None:
        """Processes still running (after an error) are ended."""
        for worker in self.workers:
            if worker.is_alive():
                worker.terminate()
                worker.join(10)


def shares(tables: int, k: int) -> list[int]:
    """``tables`` split among ``k`` client processes."""
    return [tables // k + (1 if i < tables % k else 0) for i in range(k)]


def merged_errors(tallies: list[Tally]) -> Counter[str]:
    errors: Counter[str] = Counter()
    for t in tallies:
        errors.update(t.errors)
        errors.update({f"setup: {k}": v for k, v in t.setup_failures.items()})
    return errors


def _measure(database: str, server: Server, args: argparse.Namespace, url: str) -> Result:
    k = args.client_processes
    plans = [Plan(server.base, share, args.think, args.jitter, args.warmup, args.seconds,
                  args.setup_concurrency, args.compression, args.seed * 31 + i,
                  args.stagger, i == 0)
             for i, share in enumerate(shares(args.tables, k))]
    clients = Clients(plans)
    print(f"   setting up {args.tables} tables ({2 * args.tables} guests and sockets) "
          f"in {k} client process(es)…", flush=True)
    clients.wait_set_up()
    setup_done = time.monotonic()
    print(f"   playing: {args.warmup:g} s warm-up, then {args.seconds:g} s measured", flush=True)
    time.sleep(args.warmup)
    before = scrape(server.base)
    cpu_before, machine_before = cpu_seconds(server.pid), machine_ticks()
    loop_before = cpu_seconds(f"{server.pid}/task/{server.pid}")
    backends = processes_cpu(postgres_backends(url)) if database == "postgresql" else {}
    profiler = _start_profiler(args, server.pid, database)
    time.sleep(max(0.0, setup_done + args.warmup + args.seconds - time.monotonic()))
    cpu_after, machine_after = cpu_seconds(server.pid), machine_ticks()
    loop_after = cpu_seconds(f"{server.pid}/task/{server.pid}")
    backends_after = processes_cpu(list(backends))
    after = scrape(server.base)
    health = httpx.get(server.base + "/healthz", timeout=10).json()
    tallies = clients.tallies()
    if profiler is not None:
        _finish_profiler(profiler, args)

    latencies = [x for t in tallies for x in t.latencies]
    errors = merged_errors(tallies)
    live = [sum(xs) for xs in zip(*(t.live for t in tallies), strict=False)]
    busy = machine_after[0] - machine_before[0]
    total = machine_after[1] - machine_before[1]
    server_part: JSON = {
        "buckets": {b: after["buckets"].get(b, 0) - before["buckets"].get(b, 0)
                    for b in after["buckets"]},
        "count": after.get("ludoteca_action_seconds_count", 0)
        - before.get("ludoteca_action_seconds_count", 0),
        "sum": after.get("ludoteca_action_seconds_sum", 0)
        - before.get("ludoteca_action_seconds_sum", 0),
        "messages": after.get("ludoteca_messages_sent_total", 0)
        - before.get("ludoteca_messages_sent_total", 0),
        "refusals": after["refusals"] - before["refusals"],
        "tables": after["tables"],
        "clients": after.get("ludoteca_connected_clients", 0),
        "health": health,
    }
    return Result(
        database=database,
        tables=sum(t.pairs for t in tallies),
        clients=2 * args.tables,
        live_mean=sum(live) / len(live) if live else 0.0,
        live_min=min(live) if live else 0,
        actions_per_second=len(latencies) / args.seconds,
        latencies=latencies,
        errors=errors,
        server=server_part,
        server_cpu=(cpu_after - cpu_before) / args.seconds,
        loop_cpu=(loop_after - loop_before) / args.seconds,
        database_cpu=sum(backends_after[p] - backends[p] for p in backends_after) / args.seconds,
        client_cpu=sum(t.cpu for t in tallies) / args.seconds,
        machine_cpu=busy / total * (os.cpu_count() or 1) if total else 0.0,
        lag_p99=max((quantile(t.lag, 0.99) for t in tallies), default=0.0),
        lag_max=max((max(t.lag, default=0.0) for t in tallies), default=0.0),
        pings=[x for t in tallies for x in t.pings],
        timeline=timeline(tallies, args.seconds),
        setup_seconds=max(t.setup_seconds for t in tallies),
        games=sum(t.games for t in tallies),
    )


def timeline(tallies: list[Tally], seconds: float) -> list[str]:
    """The window in slices: answered actions/s, round-trip p99, ping p99, matches finished
    (a wave of endings, rematches and new sockets shows here)."""
    width = max(5.0, seconds / 6)
    slices = max(1, round(seconds / width))
    width = seconds / slices
    lat: list[list[float]] = [[] for _ in range(slices)]
    ping: list[list[float]] = [[] for _ in range(slices)]
    games = [0] * slices
    for t in tallies:
        for at, x in zip(t.when["latencies"], t.latencies, strict=True):
            lat[min(slices - 1, int(at / width))].append(x * 1000)
        for at, x in zip(t.when["pings"], t.pings, strict=True):
            ping[min(slices - 1, int(at / width))].append(x * 1000)
        for at in t.when["games"]:
            games[min(slices - 1, max(0, int(at / width)))] += 1
    return [
        f"     {i * width:4.0f}-{(i + 1) * width:3.0f} s  {len(lat[i]) / width:5.0f} actions/s  "
        f"p99 {quantile(lat[i], 0.99):7.1f} ms  ping p99 {quantile(ping[i], 0.99):6.1f} ms  "
        f"{games[i]:3d} matches finished"
        for i in range(slices)
    ]


def _start_profiler(args: argparse.Namespace, pid: int, database: str) -> Any:
    if not args.py_spy:
        return None
    out = Path(args.py_spy)
    out = out.with_name(f"{out.stem}-{database}{out.suffix}")
    fmt = "flamegraph" if out.suffix == ".svg" else "speedscope" if out.suffix == ".json" \
        else "raw"
    command = ["py-spy", "record", "--pid", str(pid), "--duration", str(int(args.seconds)),
               "--rate", "200", "--nonblocking", "--format", fmt, "-o", str(out),
               *args.py_spy_option]
    spy = Path(sys.executable).parent / "py-spy"
    if spy.exists():
        command[0] = str(spy)
    print(f"   profiling the server with py-spy → {out}", flush=True)
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return process, out, fmt


def _finish_profiler(profiler: Any, args: argparse.Namespace) -> None:
    process, out, fmt = profiler
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGINT)
        process.wait(10)
    if fmt == "raw" and out.exists():
        print(top_costs(out.read_text(), args.top), flush=True)


KINDS = (
    ("sqlalchemy/", "SQLAlchemy (ORM unit of work, statement building) in Python"),
    ("aiosqlite/", "SQLite driver (aiosqlite threads, sqlite3)"),
    ("sqlite3/", "SQLite driver (aiosqlite threads, sqlite3)"),
    ("psycopg", "PostgreSQL driver (psycopg)"),
    ("json/", "JSON encoding and decoding"),
    ("permessage_deflate", "permessage-deflate compression"),
    ("websockets/", "WebSocket and HTTP stack"),
    ("uvicorn/", "WebSocket and HTTP stack"),
    ("starlette/", "WebSocket and HTTP stack"),
    ("fastapi/", "WebSocket and HTTP stack"),
    ("ludoteca/games/", "game code (views, legal actions, events)"),
    ("ludoteca/engine/", "game code (views, legal actions, events)"),
    ("ludoteca/server/", "server code (actor, clocks, messages)"),
    ("asyncio/", "event loop (uvloop's C loop: I/O, callbacks)"),
)


ROOTS = ("Runner.run (", "Thread.run (")
"""Frames whose callers (start-up, the CLI, uvicorn) are on every stack: left out of the
inclusive list."""


def _kind(frame: str) -> str:
    path = frame.rsplit(" (", 1)[-1]
    for part, kind in KINDS:
        if part in path:
            return kind
    return "other"


def _short(frame: str) -> str:
    if " (" not in frame:
        return frame
    name, where = frame.rsplit(" (", 1)
    return f"{name} ({where.split(':')[0].rsplit('/', 1)[-1].rstrip(')')})"


def top_costs(raw: str, top: int) -> str:
    """Where the server's samples fall, from py-spy's collapsed stacks
    (``frame;frame;... count``): by kind of code (the frame on top), then the functions with
    the most samples on the stack (inclusive) and on top (self)."""
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    total = 0
    for line in raw.splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = stack.split(";")
        kinds[_kind(frames[-1])] += n
        own[_short(frames[-1])] += n
        roots = [i for i, f in enumerate(frames) if f.startswith(ROOTS)]
        for frame in {_short(f) for f in frames[roots[-1] + 1 if roots else 0:]}:
            inclusive[frame] += n
    if not total:
        return "   py-spy: no samples"
    lines = [f"   py-spy: {total} samples of the server's threads", "   by kind of code (self):"]
    lines += [f"     {n / total:6.1%}  {k}" for k, n in kinds.most_common()]
    lines.append("   most time on the stack (inclusive):")
    lines += [f"     {n / total:6.1%}  {f}" for f, n in inclusive.most_common(top)]
    lines.append("   most time on top (self):")
    lines += [f"     {n / total:6.1%}  {f}" for f, n in own.most_common(top)]
    return "\n".join(lines)


def report(r: Result) -> str:
    ms = [x * 1000 for x in r.latencies]
    ours = r.server_cpu + r.database_cpu + r.client_cpu
    pings = [x * 1000 for x in r.pings]
    s = r.server
    count = s["count"] or 0
    out = [
        f"-- {r.database}",
        f"   tables live         {r.live_mean:.0f} mean, {r.live_min} least "
        f"(of {r.tables}; a pair between a finished table and its rematch is not live)",
        f"   clients             {r.clients} WebSockets (server counts "
        f"{s['clients']:.0f}; {s['health'].get('tables')} tables in memory)",
        f"   set-up              {r.setup_seconds:.1f} s",
        f"   actions/s           {r.actions_per_second:.1f} answered "
        f"({len(ms)} in the window; {r.games} matches finished)",
        f"   round trip          p50 {quantile(ms, 0.5):.1f} ms, p95 {quantile(ms, 0.95):.1f} ms, "
        f"p99 {quantile(ms, 0.99):.1f} ms, max {max(ms, default=float('nan')):.1f} ms",
        "   errors              "
        + (", ".join(f"{k} ×{v}" for k, v in sorted(r.errors.items())) or "none"),
        f"   server /metrics     ludoteca_action_seconds: {count:.0f} actions, mean "
        f"{(s['sum'] / count * 1000) if count else float('nan'):.2f} ms, "
        f"p50 {bucket_quantile(s['buckets'], 0.5)}, p99 {bucket_quantile(s['buckets'], 0.99)}",
        "                       buckets (ms: count) "
        + ", ".join(f"{'inf' if b == float('inf') else f'{b * 1000:g}'}: {v:.0f}"
                    for b, v in sorted(s["buckets"].items())),
        f"                       {s['messages']:.0f} messages queued "
        f"({s['messages'] / max(1, count):.1f} per action); refusals: "
        + (", ".join(f"{k} ×{v}" for k, v in sorted(s["refusals"].items())) or "none"),
        f"   CPU (cores)         server {r.server_cpu:.2f} (event-loop thread "
        f"{r.loop_cpu:.2f}), "
        + (f"PostgreSQL backends {r.database_cpu:.2f}, " if r.database == "postgresql" else "")
        + f"clients {r.client_cpu:.2f}, whole machine {r.machine_cpu:.2f} of {os.cpu_count()} "
        f"(other work {max(0.0, r.machine_cpu - ours):.2f})",
        f"   CPU per action      {cpu_per_action(r):.2f} ms of server "
        + ("and PostgreSQL " if r.database == "postgresql" else "") + "CPU per answered action",
        f"   ping round trip     p50 {quantile(pings, 0.5):.1f} ms, "
        f"p99 {quantile(pings, 0.99):.1f} ms, max {max(pings, default=float('nan')):.1f} ms "
        "(answered by the socket handler: the "
        "server's event loop without actor or database)",
        f"   client loop lag     p99 {r.lag_p99 * 1000:.1f} ms, max {r.lag_max * 1000:.1f} ms "
        "(time a client was late to read its socket; part of the round trip)",
        "   timeline",
        *r.timeline,
    ]
    return "\n".join(out)


def verdict(results: list[Result], wanted_tables: int) -> str:
    found = [r for r in results if r.database == "sqlite"]
    if not found:
        return "Target (≥ 300 tables, p99 < 100 ms on SQLite): not measured (no SQLite run)."
    r = found[0]
    p99 = quantile([x * 1000 for x in r.latencies], 0.99)
    met = r.tables >= 300 and r.live_mean >= 0.9 * r.tables and p99 < 100 and \
        sum(r.errors.values()) == 0
    word = "MET" if met else "MISSED"
    return (f"Target ≥ 300 concurrent tables with p99 < 100 ms on SQLite ({os.cpu_count()} "
            f"cores, clients included): {word} — {r.tables} tables ({r.live_mean:.0f} live on "
            f"average), p99 {p99:.1f} ms, {r.actions_per_second:.0f} actions/s, server CPU "
            f"{r.server_cpu:.2f} cores"
            + ("" if r.tables >= 300 else f" (only {wanted_tables} tables asked: --tables 300)"))


def load_options(parser: argparse.ArgumentParser, tables: int, seconds: float, warmup: float,
                 tables_help: str) -> None:
    """The simulated people's options, shared with benchmarks/scale.py."""
    parser.add_argument("--tables", type=int, default=tables, help=tables_help)
    parser.add_argument("--seconds", type=float, default=seconds, help="measured window")
    parser.add_argument("--warmup", type=float, default=warmup, help="play before measuring")
    parser.add_argument("--think", type=float, default=1.0, help="seconds before answering")
    parser.add_argument("--jitter", type=float, default=0.3, help="± seconds on --think")
    parser.add_argument("--client-processes", type=int, default=1,
                        help="processes sharing the simulated people")
    parser.add_argument("--setup-concurrency", type=int, default=8,
                        help="tables being set up at once per client process")
    parser.add_argument("--no-compression", dest="compression", action="store_false",
                        help="no permessage-deflate (browsers offer it, so it is on by default)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true",
                        help="20 tables, 3 s warm-up, 10 s measured: a smoke run")


def parsed(parser: argparse.ArgumentParser) -> argparse.Namespace:
    """The arguments, ``--quick`` applied."""
    args = parser.parse_args()
    if args.quick:
        args.tables, args.seconds, args.warmup = 20, 10.0, 3.0
    return args


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    load_options(parser, tables=300, seconds=60.0, warmup=10.0,
                 tables_help="live tables (2 people each)")
    parser.add_argument("--database", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--no-stagger", dest="stagger", action="store_false",
                        help="start every table at its first move (matches then end together)")
    parser.add_argument("--py-spy", metavar="FILE",
                        help="profile the server over the window (.txt: raw stacks and a "
                        "summary; .svg: flame graph; .json: speedscope); needs py-spy")
    parser.add_argument("--py-spy-option", action="append", default=[], metavar="OPT",
                        help="passed to py-spy record (repeatable), e.g. --gil or --idle")
    parser.add_argument("--server-module", default="ludoteca.cli",
                        help="for experiments: a module run as `python -m MODULE serve ...` "
                        "that patches something, then runs ludoteca.cli")
    parser.add_argument("--top", type=int, default=25, help="functions in the py-spy summary")
    parser.add_argument("--against", type=Path, metavar="TREE",
                        help="also run the same load, in the same run, on the server of another "
                        "checkout (e.g. a `git worktree` of the previous commit), and compare")
    args = parsed(parser)
    print(f"Arena load: {args.tables} two-player Kingdomino tables, think {args.think:g} s "
          f"± {args.jitter:g}, {args.client_processes} client process(es), "
          f"compression {'on' if args.compression else 'off'}, "
          f"stagger {'on' if args.stagger else 'off'}, {os.cpu_count()} cores; "
          f"load average before: {os.getloadavg()[0]:.2f}")
    results: list[Result] = []
    before: list[Result] = []
    trees: list[Path | None] = [None] if args.against is None else [args.against, None]
    with tempfile.TemporaryDirectory(prefix="ludoteca-bench-") as tmp:
        for tree in trees:
            folder = Path(tmp) / ("before" if tree is not None else "this")
            folder.mkdir()
            found = before if tree is not None else results
            if args.database in ("sqlite", "both"):
                result = run("sqlite", f"sqlite:///{folder / 'arena.sqlite3'}", args, folder, tree)
                found.append(result)
                print(report(result), flush=True)
            if args.database in ("postgresql", "both"):
                try:
                    with postgres_database() as url:
                        result = run("postgresql", url, args, folder, tree)
                        found.append(result)
                        print(report(result), flush=True)
                except OSError as exc:
                    print(f"\n== postgresql: skipped: {exc}")
    print()
    if before:
        print(compare(before, results, args.against))
    print(verdict(results, args.tables))


def cpu_per_action(r: Result) -> float:
    """Server CPU (its process, and PostgreSQL's backends) per answered action, in ms."""
    answered = r.actions_per_second * 1.0
    return (r.server_cpu + r.database_cpu) / answered * 1000 if answered else float("nan")


def compare(before: list[Result], after: list[Result], tree: Path) -> str:
    """This tree against the other, database by database: CPU per action and p99."""
    lines = [f"This tree against {tree} (same load, same run):"]
    for old in before:
        new = next((r for r in after if r.database == old.database), None)
        if new is None:
            continue
        p99_old = quantile([x * 1000 for x in old.latencies], 0.99)
        p99_new = quantile([x * 1000 for x in new.latencies], 0.99)
        cpu_old, cpu_new = cpu_per_action(old), cpu_per_action(new)
        lines.append(
            f"  {old.database:<11} server CPU per action {cpu_new:.2f} ms (was {cpu_old:.2f}; "
            f"ratio {cpu_new / cpu_old:.2f}), p99 {p99_new:.1f} ms (was {p99_old:.1f}; ratio "
            f"{p99_new / p99_old:.2f}), actions/s {new.actions_per_second:.0f} "
            f"(was {old.actions_per_second:.0f})")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
