"""The arena on one and on two web processes (docs/deploy.md): the load of
``benchmarks/server.py`` against a cluster sharing one PostgreSQL and one Redis.

    python benchmarks/scale.py --quick                  # 20 tables, 10 s: a smoke run
    python benchmarks/scale.py [--tables 100] [--seconds 30] [--warmup 5] [--think 1.0]
                               [--configs 1web,2web,1web-bots,2web-worker]

Every configuration runs on a fresh PostgreSQL database (as server.py makes one, through
``LUDOTECA_BENCH_POSTGRES``) and the script's own ``redis-server`` on a free port, emptied in
between; every web process is in cluster mode (``LUDOTECA_REDIS_URL``), even alone:

    1web          one web process; both people of every table on it.
    2web          two web processes A and B: each table's host creates it and plays on A, the
                  other person joins and plays on B, so every move crosses processes (written
                  by one, heard by the other through a Redis poke and a read of the database).
    1web-bots     one web process; tables of one person and one bot (``--bot-level``), the bot
                  moves chosen in the process's own pool (``LUDOTECA_BOTS=local``).
    2web-worker   two web processes and one ``ludoteca worker`` (``LUDOTECA_BOTS=queue``): the
                  person creates the table on A (which then holds its lease and runs its bot)
                  and plays on B; bot moves go through Redis to the worker.

The simulated people are server.py's (a think time, then a random legal action; round trip from
sending to the update answering it; a rematch when a match ends). With a bot seat, "actions/s"
counts the person's actions only; the servers' own count (``/metrics``, bots included) is
printed next to it. Bots answer at once (``LUDOTECA_BOT_DELAY``, ``--bot-delay``, 0).

CPU is measured per process from ``/proc``: each web process (its event-loop thread apart, its
bot pool as its children), the worker and its pool, Redis, the whole PostgreSQL server (its
processes, and through the postmaster the backends that ended in the window: connections
beyond a pool's size come and go; other databases' work included), the clients, and the whole
machine. Everything runs on this machine, so on few cores
a second process adds no cores, only work (Redis, the pokes, reading moves back): a ratio below
1 on a 2-core machine is the cost of the cluster, not its scaling. The core count is printed
with the figures; the load average before each configuration shows other work on the machine.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "support"))

import httpx  # noqa: E402
from arena_process import RedisServer, ServerProcess, terminate  # noqa: E402
from server import (  # noqa: E402  (it puts the repository on sys.path too)
    TICK,
    Clients,
    Plan,
    Tally,
    bucket_quantile,
    cpu_seconds,
    load_options,
    machine_ticks,
    merged_errors,
    parsed,
    postgres_database,
    processes_cpu,
    quantile,
    scrape,
    shares,
    timeline,
)

WORKERS = "ludoteca:bots:workers"
"""The sorted set where ``ludoteca worker`` processes say they are alive (server/bot_queue.py)."""


@dataclass(frozen=True)
class Config:
    name: str
    title: str
    webs: int
    bots: bool
    """Tables of one person and one bot (else two people)."""
    worker: bool
    """Bot moves through Redis to a ``ludoteca worker`` (``LUDOTECA_BOTS=queue``)."""


CONFIGS = {c.name: c for c in (
    Config("1web", "1 web process, 2 people a table", 1, False, False),
    Config("2web", "2 web processes, 2 people a table (host on A, other on B)", 2, False, False),
    Config("1web-bots", "1 web process, 1 person + 1 bot a table, local bot pool", 1, True,
           False),
    Config("2web-worker", "2 web processes + 1 worker, 1 person + 1 bot a table "
           "(created on A, played on B; LUDOTECA_BOTS=queue)", 2, True, True),
)}
COMPARED = (("2web", "1web"), ("2web-worker", "1web-bots"))
"""(two processes, one process): the ratios printed at the end."""


# ---- the processes -------------------------------------------------------------------------
class Redis(RedisServer):
    """The benchmark's own ``redis-server`` (started at once), and what it asks of it."""

    def __init__(self, folder: Path) -> None:
        super().__init__(folder)
        self.start()

    def client(self) -> Any:
        import redis

        return redis.Redis.from_url(self.url, socket_timeout=5)

    def flush(self) -> None:
        with contextlib.closing(self.client()) as r:
            r.flushall()

    def workers(self) -> int:
        with contextlib.closing(self.client()) as r:
            return int(r.zcount(WORKERS, time.time() - 10, "+inf"))


class Worker:
    """``ludoteca worker`` on the benchmark's Redis, ready once it has said it is alive."""

    def __init__(self, redis: Redis, processes: int, folder: Path) -> None:
        self.log_path = folder / f"worker-{redis.port}-{time.monotonic_ns()}.log"
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "ludoteca.cli", "worker", "--redis-url", redis.url,
                 "--processes", str(processes)],
                stdout=log, stderr=subprocess.STDOUT, cwd=folder,
                start_new_session=True,  # as the servers (arena_process): stopped from here
            )
        end = time.monotonic() + 60
        while time.monotonic() < end:
            if self.process.poll() is not None:
                raise RuntimeError(f"the worker exited:\n{self.log()[-4000:]}")
            if redis.workers():
                return
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the worker did not start:\n{self.log()[-4000:]}")

    @property
    def pid(self) -> int:
        return self.process.pid

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> int:
        """SIGTERM (it finishes the jobs in hand), then SIGKILL after 20 s."""
        return terminate(self.process)


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (a bot pool: its forkserver and workers)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def postgres_cpu() -> float:
    """CPU seconds of the PostgreSQL server on this machine: every ``postgres`` process, and
    the children its postmaster has reaped (backends whose connection closed)."""
    stats = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                stats[int(entry.name)] = (entry / "stat").read_text()
    names = {pid: stat[stat.find("(") + 1:stat.rfind(")")] for pid, stat in stats.items()}
    total = 0.0
    for pid, stat in stats.items():
        if names[pid] != "postgres":
            continue
        fields = stat.rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
        if names.get(int(fields[1])) != "postgres":  # the postmaster
            total += int(fields[13]) + int(fields[14])
    return total / TICK


def outlived(pids: list[int]) -> int:
    """Kill the processes of ``pids`` (children of processes that have exited) still alive:
    a bot pool's forkserver and workers may outlive the worker stopped with SIGTERM."""
    time.sleep(0.5)  # the resource tracker and the like go by themselves
    killed = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            if b"multiprocessing" in Path(f"/proc/{pid}/cmdline").read_bytes():
                os.kill(pid, signal.SIGKILL)
                killed += 1
    return killed


class CPU:
    """CPU seconds of one process (and, apart, of its descendants) between two readings."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.own = cpu_seconds(pid)
        self.loop = cpu_seconds(f"{pid}/task/{pid}")
        self.below = processes_cpu(descendants(pid))

    def since(self, seconds: float) -> tuple[float, float, float]:
        """(process, its main thread, its descendants) in cores over ``seconds``."""
        below = processes_cpu(descendants(self.pid))
        return ((cpu_seconds(self.pid) - self.own) / seconds,
                (cpu_seconds(f"{self.pid}/task/{self.pid}") - self.loop) / seconds,
                sum(v - self.below.get(p, 0.0) for p, v in below.items()) / seconds)


# ---- one configuration ---------------------------------------------------------------------
@dataclass
class Web:
    """What one web process did in the window."""

    name: str
    cpu: float
    loop: float
    pool: float
    actions: float
    buckets: dict[float, float]
    refusals: Counter[str]
    health: dict[str, Any]


@dataclass
class Outcome:
    config: Config
    tables: int
    live_mean: float
    live_min: int
    latencies: list[float]
    errors: Counter[str]
    games: int
    setup_seconds: float
    webs: list[Web]
    worker_cpu: float
    redis_cpu: float
    database_cpu: float
    client_cpu: float
    machine_cpu: float
    lag_p99: float
    pings: list[float]
    timeline: list[str]
    seconds: float
    logs: list[str] = field(default_factory=list)
    exits: list[str] = field(default_factory=list)

    @property
    def actions_per_second(self) -> float:
        return len(self.latencies) / self.seconds

    @property
    def server_actions_per_second(self) -> float:
        return sum(w.actions for w in self.webs) / self.seconds

    def p(self, q: float) -> float:
        return quantile([x * 1000 for x in self.latencies], q)


def run(config: Config, args: argparse.Namespace, redis: Redis, folder: Path) -> Outcome:
    print(f"\n== {config.name}: {config.title}; load average before "
          f"{os.getloadavg()[0]:.2f}", flush=True)
    redis.flush()
    with postgres_database() as url:
        env = {
            "LUDOTECA_REDIS_URL": redis.url,
            "LUDOTECA_BOTS": "queue" if config.worker else "local",
            "LUDOTECA_BOT_PROCESSES": str(args.bot_processes),
            "LUDOTECA_BOT_DELAY": f"{args.bot_delay:g}",
        }
        servers: list[ServerProcess] = []
        worker: Worker | None = None
        outcome: Outcome | None = None
        try:
            for _ in range(config.webs):  # one after the other: the first one migrates
                server = ServerProcess(url, folder, **env)
                servers.append(server)
                server.start()
            if config.worker:
                worker = Worker(redis, args.worker_processes, folder)
            print("   " + ", ".join(f"web {'AB'[i]} on :{s.port} (pid {s.pid})"
                                    for i, s in enumerate(servers))
                  + (f", worker pid {worker.pid} ({args.worker_processes} processes)"
                     if worker else ""), flush=True)
            outcome = measure(config, args, servers, worker, redis)
            return outcome
        finally:
            exits = []
            # (a web process's leftovers are killed with its process group by its stop())
            below = (descendants(worker.pid) if worker is not None
                     and worker.process.poll() is None else [])
            if worker is not None:
                code = worker.stop()
                if code != 0:
                    exits.append(f"worker exited with {code}")
            for i, server in enumerate(servers):
                if server.process is None:
                    continue
                code = server.stop()
                if code not in (0, -signal.SIGTERM):  # uvicorn re-raises SIGTERM
                    exits.append(f"web {'AB'[i]} exited with {code}")
            left = outlived(below)
            if left:
                exits.append(f"{left} bot-pool processes outlived the worker (killed here)")
            logs = problems(
                [(f"web {'AB'[i]}", p) for i, s in enumerate(servers)
                 for p in sorted(folder.glob(f"server-{s.port}-*.log"))]
                + ([("worker", worker.log_path)] if worker else []))
            if outcome is not None:
                outcome.logs, outcome.exits = logs, exits
            else:
                for line in exits + logs:
                    print("   " + line)


def measure(config: Config, args: argparse.Namespace, servers: list[ServerProcess],
            worker: Worker | None, redis: Redis) -> Outcome:
    a, b = servers[0], servers[-1]
    seat_bases: tuple[str, ...] = ()
    if config.webs == 2:
        seat_bases = (b.base,) if config.bots else (a.base, b.base)
    k = args.client_processes
    plans = [Plan(a.base, share, args.think, args.jitter, args.warmup, args.seconds,
                  args.setup_concurrency, args.compression, args.seed * 31 + i, True, i == 0,
                  seat_bases, (args.bot_level,) if config.bots else ())
             for i, share in enumerate(shares(args.tables, k))]
    people = plans[0].people
    clients = Clients(plans)
    try:
        print(f"   setting up {args.tables} tables ({people * args.tables} guests and "
              f"sockets) in {k} client process(es)…", flush=True)
        clients.wait_set_up()
        setup_done = time.monotonic()
        print(f"   playing: {args.warmup:g} s warm-up, then {args.seconds:g} s measured",
              flush=True)
        time.sleep(args.warmup)
        before = [scrape(s.base) for s in servers]
        cpus = [CPU(s.pid) for s in servers]
        worker_cpu = CPU(worker.pid) if worker else None
        redis_cpu = cpu_seconds(redis.pid)
        postgres = postgres_cpu()
        machine_before = machine_ticks()
        time.sleep(max(0.0, setup_done + args.warmup + args.seconds - time.monotonic()))
        seconds = args.seconds
        machine_after = machine_ticks()
        spent = [c.since(seconds) for c in cpus]
        worker_spent = worker_cpu.since(seconds) if worker_cpu else (0.0, 0.0, 0.0)
        redis_spent = (cpu_seconds(redis.pid) - redis_cpu) / seconds
        postgres_spent = (postgres_cpu() - postgres) / seconds
        after = [scrape(s.base) for s in servers]
        health = [httpx.get(s.base + "/healthz", timeout=10).json() for s in servers]
        tallies: list[Tally] = clients.tallies()
    finally:
        clients.stop()

    webs = []
    for i, (x, y, (cpu, loop, pool)) in enumerate(zip(before, after, spent, strict=True)):
        webs.append(Web(
            name="AB"[i], cpu=cpu, loop=loop, pool=pool,
            actions=y.get("ludoteca_action_seconds_count", 0)
            - x.get("ludoteca_action_seconds_count", 0),
            buckets={k: y["buckets"].get(k, 0) - x["buckets"].get(k, 0) for k in y["buckets"]},
            refusals=y["refusals"] - x["refusals"],
            health=health[i],
        ))
    live = [sum(xs) for xs in zip(*(t.live for t in tallies), strict=False)]
    busy = machine_after[0] - machine_before[0]
    total = machine_after[1] - machine_before[1]
    return Outcome(
        config=config,
        tables=sum(t.pairs for t in tallies),
        live_mean=sum(live) / len(live) if live else 0.0,
        live_min=min(live) if live else 0,
        latencies=[x for t in tallies for x in t.latencies],
        errors=merged_errors(tallies),
        games=sum(t.games for t in tallies),
        setup_seconds=max(t.setup_seconds for t in tallies),
        webs=webs,
        worker_cpu=worker_spent[0] + worker_spent[2],
        redis_cpu=redis_spent,
        database_cpu=postgres_spent,
        client_cpu=sum(t.cpu for t in tallies) / seconds,
        machine_cpu=busy / total * (os.cpu_count() or 1) if total else 0.0,
        lag_p99=max((quantile(t.lag, 0.99) for t in tallies), default=0.0),
        pings=[x for t in tallies for x in t.pings],
        timeline=timeline(tallies, seconds),
        seconds=seconds,
    )


def problems(paths: list[tuple[str, Path]]) -> list[str]:
    """Warnings, errors and tracebacks in the processes' logs, counted by message (a
    traceback by its last frame and its exception)."""
    found: Counter[str] = Counter()
    for who, path in paths:
        if not path.exists():
            continue
        frame = ""
        inside = False
        for line in path.read_text(errors="replace").splitlines():
            try:
                data = json.loads(line)
            except ValueError:
                data = None
            if isinstance(data, dict):
                level = str(data.get("level", ""))
                if level in ("warning", "error", "critical"):
                    error = str(data.get("error", "")).strip().splitlines()
                    where = [x.strip() for x in error if x.strip().startswith("File ")]
                    found[f"{who}: {level}: {data.get('message')}"
                          + (f" [{error[-1]}" + (f" at {where[-1]}" if where else "") + "]"
                             if error else "")] += 1
            elif line.startswith("Traceback"):
                inside, frame = True, ""
            elif inside and line.startswith(" "):
                if line.strip().startswith("File "):
                    frame = line.strip()
            elif inside and line.strip() and not line.startswith("During handling"):
                inside = False
                found[f"{who}: traceback: {line.strip()[:200]} at {frame}"] += 1
            elif not inside and any(w in line for w in ("Error", "ERROR", "Warning",
                                                         "WARNING")):
                found[f"{who}: {line.strip()[:200]}"] += 1
    if not found:
        return ["logs                no warnings or errors"]
    return ["logs                " + f"{sum(found.values())} warning/error lines:"] + [
        f"                       ×{n} {text[:400]}" for text, n in found.most_common(12)]


# ---- the report ----------------------------------------------------------------------------
def report(o: Outcome) -> str:
    ms = [x * 1000 for x in o.latencies]
    pings = [x * 1000 for x in o.pings]
    webs_cpu = sum(w.cpu + w.pool for w in o.webs)
    ours = webs_cpu + o.worker_cpu + o.redis_cpu + o.database_cpu + o.client_cpu
    who = "the person's actions" if o.config.bots else "actions"
    out = [
        f"-- {o.config.name}",
        f"   tables              {o.tables} ({o.live_mean:.0f} live on average, {o.live_min} "
        "least)",
        f"   set-up              {o.setup_seconds:.1f} s",
        f"   actions/s           {o.actions_per_second:.1f} answered ({who}: {len(ms)} in the "
        f"window; {o.games} matches finished); servers applied "
        f"{o.server_actions_per_second:.1f}/s"
        + (" with the bots'" if o.config.bots else ""),
        f"   round trip          p50 {quantile(ms, 0.5):.1f} ms, p95 {quantile(ms, 0.95):.1f} ms,"
        f" p99 {quantile(ms, 0.99):.1f} ms, max {max(ms, default=float('nan')):.1f} ms",
        "   errors              "
        + (", ".join(f"{k} ×{v}" for k, v in sorted(o.errors.items())) or "none"),
    ]
    for w in o.webs:
        h = w.health
        out.append(
            f"   web {w.name}               CPU {w.cpu:.2f} (event-loop thread {w.loop:.2f}"
            + (f", bot pool {w.pool:.2f}" if w.pool >= 0.005 else "")
            + f"); {w.actions:.0f} actions applied, p50 {bucket_quantile(w.buckets, 0.5)}, "
            f"p99 {bucket_quantile(w.buckets, 0.99)}; {h.get('tables')} tables in memory, "
            f"{h.get('tables_owned')} owned, {h.get('clients')} sockets, redis "
            f"{h.get('redis')}; refusals: "
            + (", ".join(f"{k} ×{v}" for k, v in sorted(w.refusals.items())) or "none"))
    out += [
        f"   CPU (cores)         web {webs_cpu:.2f}, "
        + (f"worker {o.worker_cpu:.2f}, " if o.config.worker else "")
        + f"Redis {o.redis_cpu:.2f}, PostgreSQL {o.database_cpu:.2f}, clients "
        f"{o.client_cpu:.2f}; whole machine {o.machine_cpu:.2f} of {os.cpu_count()} "
        f"(other work {max(0.0, o.machine_cpu - ours):.2f})",
        f"   ping round trip     p99 {quantile(pings, 0.99):.1f} ms (web A's event loop); "
        f"client loop lag p99 {o.lag_p99 * 1000:.1f} ms",
        *("   " + line for line in o.exits),
        *("   " + line for line in o.logs),
        "   timeline",
        *o.timeline,
    ]
    return "\n".join(out)


def summary(outcomes: list[Outcome]) -> str:
    cores = os.cpu_count()
    out = [
        "",
        f"Summary ({cores} cores shared by the web processes, worker, PostgreSQL, Redis and "
        "the clients)",
        f"  {'configuration':<13} {'tables':>6} {'actions/s':>10} {'applied/s':>10} "
        f"{'p50 ms':>7} {'p99 ms':>7}  {'errors':>6}  CPU per process (cores)",
    ]
    if not outcomes:
        out.append("  (nothing measured)")
    for o in outcomes:
        cpu = ", ".join(f"{w.name} {w.cpu + w.pool:.2f}" for w in o.webs)
        if o.config.worker:
            cpu += f", worker {o.worker_cpu:.2f}"
        out.append(
            f"  {o.config.name:<13} {o.tables:>6} {o.actions_per_second:>10.1f} "
            f"{o.server_actions_per_second:>10.1f} {o.p(0.5):>7.1f} {o.p(0.99):>7.1f}  "
            f"{sum(o.errors.values()):>6}  {cpu}; machine {o.machine_cpu:.2f} of {cores}")
    found = {o.config.name: o for o in outcomes}
    ratios = []
    for two, one in COMPARED:
        if two in found and one in found:
            x, y = found[two], found[one]
            ratios.append(
                f"  {two} / {one}: actions/s ×{x.actions_per_second / y.actions_per_second:.2f}"
                f", applied/s ×{x.server_actions_per_second / y.server_actions_per_second:.2f}"
                f", p99 ×{x.p(0.99) / y.p(0.99):.2f} ({x.p(0.99):.1f} vs {y.p(0.99):.1f} ms)"
                if y.actions_per_second and y.server_actions_per_second and y.p(0.99)
                else f"  {two} / {one}: nothing measured")
    if ratios:
        out += [f"Ratios, 2 processes vs 1 (on {cores} cores: a second process adds work, "
                "not cores, so no speed-up is expected here)", *ratios]
    return "\n".join(out)


# ---- the run -------------------------------------------------------------------------------
def interrupted(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


@contextlib.contextmanager
def workspace(logs: str | None) -> Iterator[Path]:
    if logs:
        folder = Path(logs)
        folder.mkdir(parents=True, exist_ok=True)
        yield folder.resolve()
    else:
        with tempfile.TemporaryDirectory(prefix="ludoteca-scale-") as tmp:
            yield Path(tmp)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    load_options(parser, tables=100, seconds=30.0, warmup=5.0,
                 tables_help="live tables per configuration")
    parser.add_argument("--configs", default=",".join(CONFIGS),
                        help=f"comma-separated, run in this order: {', '.join(CONFIGS)}")
    parser.add_argument("--bot-level", default="greedy", help="the bot seat's level")
    parser.add_argument("--bot-delay", type=float, default=0.0,
                        help="LUDOTECA_BOT_DELAY: least seconds before a bot answers")
    parser.add_argument("--bot-processes", type=int, default=1,
                        help="LUDOTECA_BOT_PROCESSES: each web process's own bot pool")
    parser.add_argument("--worker-processes", type=int, default=1,
                        help="processes of the ludoteca worker (2web-worker)")
    parser.add_argument("--logs", metavar="DIR",
                        help="keep the processes' logs in DIR (default: a temporary folder)")
    args = parsed(parser)
    chosen = [c.strip() for c in args.configs.split(",") if c.strip()]
    unknown = [c for c in chosen if c not in CONFIGS]
    if unknown or not chosen:
        parser.error(f"--configs: unknown {', '.join(unknown) or '(none)'}; "
                     f"known: {', '.join(CONFIGS)}")
    signal.signal(signal.SIGTERM, interrupted)  # cleaned up as after Ctrl-C
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even if started ignoring it
    print(f"Arena on 1 and 2 web processes: {args.tables} two-player Kingdomino tables, think "
          f"{args.think:g} s ± {args.jitter:g}, {args.warmup:g} s warm-up + {args.seconds:g} s "
          f"measured per configuration, bots {args.bot_level} (delay {args.bot_delay:g} s), "
          f"{os.cpu_count()} cores; PostgreSQL, Redis and clients on this machine too")
    outcomes: list[Outcome] = []
    with workspace(args.logs) as folder:
        redis = Redis(folder)
        try:
            for name in chosen:
                try:
                    outcome = run(CONFIGS[name], args, redis, folder)
                except OSError as exc:  # PostgreSQL unreachable
                    print(f"   skipped: {exc}")
                    continue
                except (RuntimeError, httpx.HTTPError) as exc:
                    print(f"   failed: {type(exc).__name__}: {exc}")
                    continue
                outcomes.append(outcome)
                print(report(outcome), flush=True)
        except KeyboardInterrupt:
            print("\n   interrupted: everything started is stopped, the database dropped")
        finally:
            redis.stop()
    print(summary(outcomes))


if __name__ == "__main__":
    main()
